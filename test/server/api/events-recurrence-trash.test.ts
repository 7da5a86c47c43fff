/**
 * Repeating events in the trash, restored, and deleted for good: a first event deleted for good
 * stays deleted whatever happens to its series, and an occurrence restored from a series trashed
 * whole comes back in its series.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { downloadText, seriesHelpers, type Ev } from './_series';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const { mkSeries, seriesEvents } = seriesHelpers(() => t);
const one = (q: string, ...args: unknown[]) => t.server.db.prepare(q).pluck().get(...args);
const starts = (list: Ev[]) => list.map((e) => e.start_date);

/** A daily series of `count` whose first event went to the trash and was deleted for good. */
async function firstDeletedForGood(start: string, count = 4, more: Record<string, unknown> = {}) {
  const s = await mkSeries({ start_date: `${start} 10:00:00`, end_date: `${start} 11:00:00`, timezone: 'UTC', recurrence: `FREQ=DAILY;COUNT=${count}`, ...more });
  expect((await t.api('delete', `events/${s.id}`)).status).toBe(200);
  expect((await t.api('delete', `events/${s.id}`).query({ force: true })).status).toBe(200);
  expect((await t.api('get', `events/${s.id}`)).status).toBe(404);
  return { s, rest: await seriesEvents(s.id) };
}

describe('a first event deleted for good', () => {
  it('stays deleted when its date is taken out of the EXDATEs, and the rule keeps saying so', async () => {
    const { s, rest } = await firstDeletedForGood('2037-01-05');
    expect(starts(rest)).toEqual(['2037-01-06 10:00:00', '2037-01-07 10:00:00', '2037-01-08 10:00:00']);
    const res = await t.api('patch', `events/${rest[0].id}`).query({ recurrence_scope: 'all' }).send({ recurrence: { rules: ['FREQ=DAILY;COUNT=4'], rdates: [], exdates: [] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await t.api('get', `events/${s.id}`)).status).toBe(404);
    expect(starts(await seriesEvents(s.id))).toEqual(['2037-01-06 10:00:00', '2037-01-07 10:00:00', '2037-01-08 10:00:00']);
    // What other calendars are told agrees: the first date is still excluded.
    expect(res.body.recurrence.exdates).toEqual(['20370105T100000']);
    const ics = await downloadText(t, 'export', { post_parent: String(s.id) });
    expect(ics).toContain('EXDATE');
  });

  it('stays deleted when the whole series moves', async () => {
    const { s, rest } = await firstDeletedForGood('2037-02-05');
    const res = await t.api('patch', `events/${rest[0].id}`).query({ recurrence_scope: 'all' }).send({ start_date: '2037-02-06 12:00:00', end_date: '2037-02-06 13:00:00' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await t.api('get', `events/${s.id}`)).status).toBe(404);
    expect(starts(await seriesEvents(s.id))).toEqual(['2037-02-06 12:00:00', '2037-02-07 12:00:00', '2037-02-08 12:00:00']);
  });

  it('stays deleted when the series stops repeating: the occurrence it was asked on is the event left', async () => {
    const { s, rest } = await firstDeletedForGood('2037-03-05', 4, { reminders: ['-PT15M'] });
    const res = await t.api('patch', `events/${rest[1].id}`).query({ recurrence_scope: 'all' }).send({ recurrence: null });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // It keeps the series' reminders, which were its own too.
    expect(res.body).toMatchObject({ id: rest[1].id, start_date: '2037-03-07 10:00:00', recurrence: null, series_id: null, reminders: [{ action: 'display', trigger: '-PT15M' }] });
    expect((await t.api('get', `events/${s.id}`)).status).toBe(404);
    expect((await t.api('get', `events/${rest[0].id}`)).status).toBe(404);
    expect((await t.api('get', `events/${rest[2].id}`)).status).toBe(404);
    // No row left of the series but that event.
    expect(one('SELECT count(*) FROM events WHERE id = ? OR parent_id = ?', s.id, s.id)).toBe(0);
    expect(one('SELECT count(*) FROM event_series WHERE id IN (?, ?)', s.id, rest[1].id)).toBe(0);
  });
});
