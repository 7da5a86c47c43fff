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

  it('leaves no row behind once the rest of its series is deleted for good too', async () => {
    const { s, rest } = await firstDeletedForGood('2037-11-05');
    expect((await t.api('delete', `events/${rest[0].id}`).query({ recurrence_scope: 'following' })).status).toBe(200);
    for (const e of rest) expect((await t.api('delete', `events/${e.id}`).query({ force: true })).status).toBe(200);
    expect(one('SELECT count(*) FROM events WHERE id = ? OR parent_id = ?', s.id, s.id)).toBe(0);
    expect(one('SELECT count(*) FROM event_series WHERE id = ?', s.id)).toBe(0);
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

describe('a series whose first event was deleted for good, ended from its first event', () => {
  it('leaves the next occurrence as the single event, with the series’ reminders', async () => {
    const { s, rest } = await firstDeletedForGood('2037-03-15', 3, { reminders: ['-PT15M'] });
    // The first event is still the series' handle: a change to all may be asked on it.
    const res = await t.api('patch', `events/${s.id}`).query({ recurrence_scope: 'all' }).send({ recurrence: null });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ recurrence: null, series_id: null, reminders: [{ action: 'display', trigger: '-PT15M' }] });
    expect(res.body.id).not.toBe(s.id);
    expect((await t.api('get', `events/${res.body.id}`)).body.reminders).toEqual([{ action: 'display', trigger: '-PT15M' }]);
    void rest;
  });
});

describe('restoring one occurrence of a series trashed whole', () => {
  it('when its first event was deleted for good, brings that occurrence back in its series, the others staying in the trash', async () => {
    const { s, rest } = await firstDeletedForGood('2037-04-05', 5);
    expect((await t.api('delete', `events/${rest[0].id}`).query({ recurrence_scope: 'all' })).status).toBe(200);
    expect(await seriesEvents(s.id)).toEqual([]);
    const back = await t.api('post', `events/${rest[2].id}`).send({ status: 'publish' });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ id: rest[2].id, status: 'publish', series_id: s.id });
    expect((await seriesEvents(s.id)).map((e) => e.id)).toEqual([rest[2].id]);
    expect((await seriesEvents(s.id, 'trash')).map((e) => e.id)).toEqual([rest[0].id, rest[1].id, rest[3].id]);
    // Back in its series: a change to all reaches it, and the next one restored joins it.
    const all = await t.api('patch', `events/${rest[2].id}`).query({ recurrence_scope: 'all' }).send({ title: 'Renamed' });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect((await t.api('post', `events/${rest[3].id}`).send({ status: 'publish' })).status).toBe(200);
    expect((await seriesEvents(s.id)).map((e) => [e.id, e.title])).toEqual([
      [rest[2].id, 'Renamed'],
      [rest[3].id, 'Renamed'],
    ]);
    expect((await t.api('get', `events/${s.id}`)).status).toBe(404);
  });
});

describe('a series trashed whole', () => {
  it('comes back whole through any of its occurrences with scope all, also when its first event was deleted for good', async () => {
    const { s, rest } = await firstDeletedForGood('2037-10-05', 5);
    await t.api('delete', `events/${rest[1].id}`);
    expect((await t.api('delete', `events/${rest[0].id}`).query({ recurrence_scope: 'all' })).status).toBe(200);
    const back = await t.api('post', `events/${rest[2].id}`).query({ recurrence_scope: 'all' }).send({ status: 'publish' });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ id: rest[2].id, status: 'publish' });
    // Every one that went with the series, not the one deleted on its own before, nor the first.
    expect((await seriesEvents(s.id)).map((e) => e.id)).toEqual([rest[0].id, rest[2].id, rest[3].id]);
    expect((await seriesEvents(s.id, 'trash')).map((e) => e.id)).toEqual([rest[1].id]);
    expect((await t.api('get', `events/${s.id}`)).status).toBe(404);
  });

  it('restored through its first event leaves out the occurrences deleted for good from the trash', async () => {
    const s = await mkSeries({ start_date: '2037-09-06 10:00:00', end_date: '2037-09-06 11:00:00', timezone: 'UTC', recurrence: 'FREQ=DAILY;COUNT=4' });
    const all = await seriesEvents(s.id);
    await t.api('delete', `events/${s.id}`).query({ recurrence_scope: 'all' });
    expect((await t.api('delete', `events/${all[2].id}`).query({ force: true })).status).toBe(200);
    const back = await t.api('post', `events/${s.id}`).send({ status: 'publish' });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect((await seriesEvents(s.id)).map((e) => e.id)).toEqual([all[0].id, all[1].id, all[3].id]);
    expect(back.body.recurrence.exdates).toEqual(['20370908T100000']);
    await t.api('patch', `events/${s.id}`).query({ recurrence_scope: 'all' }).send({ start_date: '2037-09-06 11:00:00', end_date: '2037-09-06 12:00:00' });
    expect(starts(await seriesEvents(s.id))).toEqual(['2037-09-06 11:00:00', '2037-09-07 11:00:00', '2037-09-09 11:00:00']);
  });
});

describe('an occurrence restored from the trash', () => {
  it('takes the title and time its series was given while it was in the trash', async () => {
    const s = await mkSeries({ start_date: '2037-05-04 10:00:00', end_date: '2037-05-04 11:00:00', timezone: 'UTC', recurrence: 'FREQ=DAILY;COUNT=3' });
    const all = await seriesEvents(s.id);
    await t.api('delete', `events/${all[1].id}`);
    const moved = await t.api('patch', `events/${s.id}`).query({ recurrence_scope: 'all' }).send({ title: 'Renamed', start_date: '2037-05-04 12:00:00', end_date: '2037-05-04 13:30:00' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const back = await t.api('post', `events/${all[1].id}`).send({ status: 'publish' });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ title: 'Renamed', start_date: '2037-05-05 12:00:00', end_date: '2037-05-05 13:30:00', is_exception: false });
    expect((await seriesEvents(s.id)).map((e) => [e.id, e.title, e.start_date])).toEqual([
      [all[0].id, 'Renamed', '2037-05-04 12:00:00'],
      [all[1].id, 'Renamed', '2037-05-05 12:00:00'],
      [all[2].id, 'Renamed', '2037-05-06 12:00:00'],
    ]);
  });

  it('being the first event, comes back at the time its series was moved to meanwhile', async () => {
    const s = await mkSeries({ start_date: '2037-05-11 10:00:00', end_date: '2037-05-11 11:00:00', timezone: 'UTC', recurrence: 'FREQ=DAILY;COUNT=3' });
    const all = await seriesEvents(s.id);
    await t.api('delete', `events/${s.id}`);
    const moved = await t.api('patch', `events/${all[1].id}`).query({ recurrence_scope: 'all' }).send({ start_date: '2037-05-12 12:00:00', end_date: '2037-05-12 13:00:00' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const back = await t.api('post', `events/${s.id}`).send({ status: 'publish' });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ start_date: '2037-05-11 12:00:00', end_date: '2037-05-11 13:00:00', recurrence: { exdates: [] } });
    expect(starts(await seriesEvents(s.id))).toEqual(['2037-05-11 12:00:00', '2037-05-12 12:00:00', '2037-05-13 12:00:00']);
  });

  it('has the status its series was given meanwhile', async () => {
    const s = await mkSeries({ start_date: '2037-05-18 10:00:00', end_date: '2037-05-18 11:00:00', timezone: 'UTC', recurrence: 'FREQ=DAILY;COUNT=3' });
    const all = await seriesEvents(s.id);
    await t.api('delete', `events/${all[1].id}`);
    await t.api('patch', `events/${s.id}`).query({ recurrence_scope: 'all' }).send({ status: 'draft' });
    const back = await t.api('post', `events/${all[1].id}`).send({ status: 'publish' });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect((await seriesEvents(s.id, 'draft')).map((e) => e.id)).toEqual(all.map((e) => e.id));
    // And follows it from then on.
    await t.api('patch', `events/${s.id}`).query({ recurrence_scope: 'all' }).send({ status: 'publish' });
    expect((await seriesEvents(s.id)).map((e) => e.id)).toEqual(all.map((e) => e.id));
  });

  it('keeps what it had changed on its own', async () => {
    const s = await mkSeries({ start_date: '2037-06-04 10:00:00', end_date: '2037-06-04 11:00:00', timezone: 'UTC', recurrence: 'FREQ=DAILY;COUNT=3' });
    const all = await seriesEvents(s.id);
    await t.api('patch', `events/${all[1].id}`).send({ title: 'Guest talk', start_date: '2037-06-05 15:00:00', end_date: '2037-06-05 16:00:00' });
    await t.api('delete', `events/${all[1].id}`);
    await t.api('patch', `events/${s.id}`).query({ recurrence_scope: 'all' }).send({ title: 'Renamed', description: 'New room' });
    const back = await t.api('post', `events/${all[1].id}`).send({ status: 'publish' });
    expect(back.body).toMatchObject({ title: 'Guest talk', description: expect.stringContaining('New room'), start_date: '2037-06-05 15:00:00', is_exception: true });
  });

  it('of a series trashed whole stays when the trash is emptied', async () => {
    const s = await mkSeries({ start_date: '2037-07-04 10:00:00', end_date: '2037-07-04 11:00:00', timezone: 'UTC', recurrence: 'FREQ=MONTHLY' });
    // The next two years (the series' rows): a window of the series' own list.
    const listed = async (status: string) => {
      const res = await t.api('get', 'events').query({ post_parent: s.id, per_page: 50, start_date: '2037-07-01', end_date: '2039-07-01', status });
      return res.status === 404 ? [] : (res.body.events as Ev[]).map((e) => e.id);
    };
    const later = [s.id, ...(await listed('publish'))];
    expect(later.length).toBe(24);
    await t.api('delete', `events/${later[0]}`).query({ recurrence_scope: 'all' });
    expect((await t.api('post', `events/${later[1]}`).send({ status: 'publish' })).status).toBe(200);
    const trashed = t.server.db.prepare("SELECT id FROM events WHERE (id = ? OR parent_id = ?) AND status = 'trash'").pluck().all(s.id, s.id) as number[];
    expect(trashed).not.toContain(later[1]);
    expect(trashed).toEqual(expect.arrayContaining(later.filter((id) => id !== later[1])));
    for (const id of trashed) expect((await t.api('delete', `events/${id}`).query({ force: true })).status).toBe(200);
    expect(await listed('publish')).toEqual([later[1]]);
    // Other calendars are told the same: the rule ends where its rows did.
    const ics = await downloadText(t, 'export', { post_parent: String(s.id) });
    expect(ics).toMatch(/RRULE:FREQ=MONTHLY;UNTIL=/);
    // Time passing brings nothing back.
    expect(t.server.store.series.extendHorizonBatch((fn) => t.server.store.write(fn))).toBe(false);
    const res = await t.api('get', 'events').query({ post_parent: s.id, start_date: '2037-01-01', end_date: '2045-01-01' });
    expect(res.body.events.map((e: Ev) => e.id)).toEqual([later[1]]);
  });
});

describe('a status of trash sent to more than one occurrence', () => {
  it('is a delete with that scope: the series is in the trash whole, and no row comes back as time passes', async () => {
    const s = await mkSeries({ start_date: '2037-08-02 10:00:00', end_date: '2037-08-02 11:00:00', timezone: 'UTC', recurrence: 'FREQ=MONTHLY' });
    const res = await t.api('patch', `events/${s.id}`).query({ recurrence_scope: 'all' }).send({ status: 'trash', title: 'Gone' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe('trash');
    const farAway = await t.api('get', 'events').query({ start_date: '2060-01-01', end_date: '2060-12-31', post_parent: s.id });
    expect(farAway.body.events ?? []).toEqual([]);
    expect(t.server.store.series.extendHorizonBatch((fn) => t.server.store.write(fn))).toBe(false);
    expect(one("SELECT count(*) FROM events WHERE (id = ? OR parent_id = ?) AND status <> 'trash'", s.id, s.id)).toBe(0);
    // Restoring its first event restores it whole, with the title sent with it.
    const back = await t.api('post', `events/${s.id}`).send({ status: 'publish' });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    const rows = await seriesEvents(s.id);
    expect(rows.length).toBeGreaterThan(20);
    expect(new Set(rows.map((e) => e.title))).toEqual(new Set(['Gone']));
  });
});
