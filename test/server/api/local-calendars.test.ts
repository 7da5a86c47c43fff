/**
 * More than one calendar of this computer's own (issue 27): POST /calendars {name, color} makes
 * one; DELETE /calendars/{id} removes it with its events moved (to "On this computer" unless
 * move_to names another) or deleted for good; "On this computer" and the calendars of accounts
 * and subscriptions are not removed this way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { expectInvalidParam, expectMissing, mkEvent } from './_support';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const rows = (sql: string, ...p: unknown[]) => t.server.db.prepare(sql).all(...p);

describe('calendars of this computer', () => {
  it('makes one with a name and a colour, listed after "On this computer", and takes events', async () => {
    const res = await t.api('post', 'calendars').send({ name: 'Family', color: '#ff2968' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Family', color: '#ff2968', account: null, account_id: null, synced: false, read_only: false, subscription: null, visible: true });
    const list = await t.api('get', 'calendars');
    expect(list.body.map((c: { name: string }) => c.name)).toEqual(['On this computer', 'Family']);
    const e = await mkEvent(t, { title: 'Birthday', calendar: res.body.id });
    expect(e.calendar).toBe(res.body.id);
  });

  it('refuses a nameless one, in words', async () => {
    expectMissing(await t.api('post', 'calendars').send({ color: '#ff2968' }), ['name']);
    expectInvalidParam(await t.api('post', 'calendars').send({ name: '' }), 'name');
    expectInvalidParam(await t.api('post', 'calendars').send({ name: 'x'.repeat(201) }), 'name');
  });

  it('removes one with its events moved, a whole series too', async () => {
    const work = (await t.api('post', 'calendars').send({ name: 'Work' })).body;
    const side = (await t.api('post', 'calendars').send({ name: 'Side projects' })).body;
    const single = await mkEvent(t, { title: 'Review', calendar: work.id });
    const series = await mkEvent(t, { title: 'Standup', calendar: work.id, start_date: '2031-03-10 09:00', end_date: '2031-03-10 09:15', recurrence: { rules: ['FREQ=DAILY;COUNT=4'], rdates: [], exdates: [] } });
    const res = await t.api('delete', `calendars/${work.id}`).query({ move_to: side.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: work.id, removed: true, events: 'moved', move_to: side.id });
    expect(rows('SELECT id FROM calendars WHERE id = ?', work.id)).toEqual([]);
    expect(rows('SELECT DISTINCT calendar_id FROM events WHERE id = ? OR id = ? OR parent_id = ?', single.id, series.id, series.id)).toEqual([{ calendar_id: side.id }]);
    expect(rows("SELECT count(*) AS n FROM events WHERE title = 'Standup'")).toEqual([{ n: 4 }]);
  });

  it('removes one with its events deleted for good; by default moves them to "On this computer"', async () => {
    const trip = (await t.api('post', 'calendars').send({ name: 'Trip' })).body;
    await mkEvent(t, { title: 'Flight', calendar: trip.id });
    expect((await t.api('delete', `calendars/${trip.id}`).query({ events: 'delete' })).body).toMatchObject({ events: 'deleted' });
    expect(rows("SELECT id FROM events WHERE title = 'Flight'")).toEqual([]);
    const gym = (await t.api('delete', 'calendars/999').query({})).status;
    expect(gym).toBe(404);
    const club = (await t.api('post', 'calendars').send({ name: 'Club' })).body;
    const meet = await mkEvent(t, { title: 'Club meeting', calendar: club.id });
    expect((await t.api('delete', `calendars/${club.id}`)).body).toMatchObject({ events: 'moved', move_to: 1 });
    expect((await t.api('get', `events/${meet.id}`)).body.calendar).toBe(1);
  });

  it('keeps "On this computer"; refuses to move events into the calendar being removed or nowhere', async () => {
    const one = await t.api('delete', 'calendars/1').query({ i18n_language: 'pt-br' });
    expect(one.status).toBe(400);
    expect(one.body.code).toBe('calendar-not-removable');
    expect(one.body.message).toContain('Neste computador');
    const x = (await t.api('post', 'calendars').send({ name: 'X' })).body;
    expectInvalidParam(await t.api('delete', `calendars/${x.id}`).query({ move_to: x.id }), 'move_to');
    expectInvalidParam(await t.api('delete', `calendars/${x.id}`).query({ move_to: 9999 }), 'move_to');
    expectInvalidParam(await t.api('delete', `calendars/${x.id}`).query({ events: 'keep' }), 'events');
    expect(rows('SELECT id FROM calendars WHERE id = ?', x.id)).toHaveLength(1);
  });
});
