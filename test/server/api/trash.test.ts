/**
 * Empty trash (issue 27): DELETE /trash?kind=… deletes for good every trashed record of that kind
 * in the request's language, series included, in one transaction; nothing else changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { expectInvalidParam, mkEvent, mkVenue } from './_support';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const count = (sql: string, ...p: unknown[]) => (t.server.db.prepare(sql).get(...p) as { n: number }).n;

describe('DELETE /trash', () => {
  it('deletes for good the trashed events of the language, a whole series too, and keeps the rest', async () => {
    const kept = await mkEvent(t, { title: 'Keep me' });
    const single = await mkEvent(t, { title: 'Old meeting' });
    const series = await mkEvent(t, { title: 'Old class', start_date: '2031-03-10 10:00', end_date: '2031-03-10 11:00', recurrence: { rules: ['FREQ=WEEKLY;COUNT=5'], rdates: [], exdates: [] } });
    const pt = await t.api('post', 'events').query({ i18n_language: 'pt-br' }).send({ title: 'Reunião antiga', start_date: '2031-03-12 10:00', end_date: '2031-03-12 11:00' });
    expect(pt.status).toBe(201);
    for (const id of [single.id, series.id]) expect((await t.api('delete', `events/${id}`).query({ recurrence_scope: 'all' })).status).toBe(200);
    expect((await t.api('delete', `events/${pt.body.id}`).query({ i18n_language: 'pt-br' })).status).toBe(200);
    const trashedEn = count("SELECT count(*) AS n FROM events WHERE status = 'trash' AND lang = 'en'");
    expect(trashedEn).toBeGreaterThanOrEqual(2);

    const res = await t.api('delete', 'trash').query({ kind: 'events' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ kind: 'events', deleted: expect.any(Number) });
    expect(count("SELECT count(*) AS n FROM events WHERE status = 'trash' AND lang = 'en'")).toBe(0);
    expect(count('SELECT count(*) AS n FROM events WHERE id IN (?, ?)', single.id, series.id)).toBe(0);
    expect(count("SELECT count(*) AS n FROM events WHERE title = 'Old class'")).toBe(0);
    // Another language's trash and what was never trashed stay.
    expect(count("SELECT count(*) AS n FROM events WHERE status = 'trash' AND lang = 'pt-br'")).toBe(1);
    expect((await t.api('get', `events/${kept.id}`)).status).toBe(200);
    // A trash already empty: nothing to do.
    expect((await t.api('delete', 'trash').query({ kind: 'events' })).body).toEqual({ kind: 'events', deleted: 0 });
  });

  it('takes the events without a language of their own (those of an imported file) with the trash they show in', async () => {
    const ics = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', 'BEGIN:VEVENT', 'UID:trash-languageless@example.org', 'DTSTAMP:20310101T000000Z', 'DTSTART:20310420T100000Z', 'DTEND:20310420T110000Z', 'SUMMARY:Imported and trashed', 'END:VEVENT', 'END:VCALENDAR', ''];
    expect((await t.api('post', 'import').query({ format: 'ics' }).set('Content-Type', 'text/calendar').send(ics.join('\r\n'))).status).toBe(200);
    const id = count("SELECT id AS n FROM events WHERE title = 'Imported and trashed'");
    expect(count("SELECT count(*) AS n FROM events WHERE id = ? AND lang = ''", id)).toBe(1);
    expect((await t.api('delete', `events/${id}`)).status).toBe(200);
    const listed = await t.api('get', 'events').query({ status: 'trash', start_date: '2031-04-01', end_date: '2031-04-30' });
    expect(listed.body.events.map((e: { title: string }) => e.title)).toContain('Imported and trashed');
    await t.api('delete', 'trash').query({ kind: 'events' });
    expect(count('SELECT count(*) AS n FROM events WHERE id = ?', id)).toBe(0);
  });

  it('venues and organizers too; a kind it does not know is refused', async () => {
    const gone = await mkVenue(t, { venue: 'Closed hall' });
    const stays = await mkVenue(t, { venue: 'Open hall' });
    expect((await t.api('delete', `venues/${gone.id}`)).status).toBe(200);
    const res = await t.api('delete', 'trash').query({ kind: 'venues' });
    expect(res.body).toEqual({ kind: 'venues', deleted: 1 });
    expect(count('SELECT count(*) AS n FROM venues WHERE id = ?', gone.id)).toBe(0);
    expect((await t.api('get', `venues/${stays.id}`)).status).toBe(200);
    expectInvalidParam(await t.api('delete', 'trash').query({ kind: 'calendars' }), 'kind');
  });
});
