/**
 * Far months (issue 27 §4): a list of a window past the rows series have shows their occurrences
 * without writing any, each with an id a client can read, change and delete like any event's;
 * filters, totals and pages treat them as rows; a change to the series shows in them at once; an
 * occurrence changed on its own is listed once, as its row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { seriesHelpers, type Ev } from './_series';
import { mkTerm, mkVenue, uniq } from './_support';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const { mkSeries } = seriesHelpers(() => t);
const rowsIn = (from: string, to: string) => t.server.store.db.prepare('SELECT count(*) FROM events WHERE start_local >= ? AND start_local < ?').pluck().get(from, to) as number;

async function month(query: Record<string, string | number> = {}, m = '2091-03'): Promise<{ events: Ev[]; total: number }> {
  const res = await t.api('get', 'events').query({ start_date: `${m}-01`, end_date: `${m}-31`, per_page: 50, ...query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { events: res.body.events, total: Number(res.headers['x-wp-total']) };
}

describe('a far month', () => {
  let tag: string;
  let daily: Ev;
  let weekly: Ev;
  let venue: number;
  beforeAll(async () => {
    tag = uniq('Far').replace(/\W/g, '');
    venue = (await mkVenue(t, { venue: `${tag} hall` })).id;
    const jazz = await mkTerm(t, 'categories', { name: `${tag} jazz` });
    daily = await mkSeries({ title: `${tag} daily`, start_date: '2027-01-04 07:00:00', end_date: '2027-01-04 07:30:00', timezone: 'Europe/Lisbon', recurrence: 'FREQ=DAILY' });
    weekly = await mkSeries({
      title: `${tag} weekly`,
      start_date: '2027-01-05 19:00:00',
      end_date: '2027-01-05 21:00:00',
      timezone: 'America/New_York',
      venue,
      categories: [jazz.id],
      recurrence: 'FREQ=WEEKLY;BYDAY=TU,TH',
    });
  });

  it('lists every occurrence, by start, with totals and pages, and writes no row', async () => {
    const before = rowsIn('2091-01-01', '2092-01-01');
    const first = await month({ search: tag });
    // 31 daily + 9 Tuesdays and Thursdays of March 2091.
    expect(first.total).toBe(40);
    expect(first.events.filter((e) => e.series_id === daily.id)).toHaveLength(31);
    expect(first.events.filter((e) => e.series_id === weekly.id).map((e) => e.start_date.slice(0, 10))).toEqual([
      '2091-03-01', '2091-03-06', '2091-03-08', '2091-03-13', '2091-03-15', '2091-03-20', '2091-03-22', '2091-03-27', '2091-03-29',
    ]);
    const starts = first.events.map((e) => e.start_date);
    expect(starts).toEqual([...starts].sort());
    // New York wall time across its DST change (11 March 2091), the instant moving.
    const around = first.events.filter((e) => e.series_id === weekly.id);
    expect(around.map((e) => e.start_date.slice(11))).toEqual(Array(9).fill('19:00:00'));
    expect(around[0].utc_start_date).toBe('2091-03-02 00:00:00');
    expect(around[3].utc_start_date).toBe('2091-03-13 23:00:00');
    // The record is an occurrence's in full: its series, venue and category.
    expect(around[0]).toMatchObject({ recurrence_id: '2091-03-01 19:00:00', is_exception: false, title: `${tag} weekly` });
    expect((around[0].venue as { id: number }).id).toBe(venue);
    expect(around[0].categories.map((c) => c.name)).toEqual([`${tag} jazz`]);
    // Pages split the same list.
    const pages = [...(await month({ search: tag, per_page: 15 })).events, ...(await month({ search: tag, per_page: 15, page: 2 })).events, ...(await month({ search: tag, per_page: 15, page: 3 })).events];
    expect(pages.map((e) => e.id)).toEqual(first.events.map((e) => e.id));
    expect(new Set(pages.map((e) => e.id)).size).toBe(40);
    expect(rowsIn('2091-01-01', '2092-01-01')).toBe(before);
  });

  it('filters them as rows: venue, category, language', async () => {
    expect((await month({ venue })).total).toBe(9);
    expect((await month({ venue, i18n_language: 'pt-br' })).total).toBe(0);
    expect((await month({ search: `${tag} jazz` })).total).toBe(0);
    expect((await month({ search: tag, starts_after: '2091-03-29' })).events.map((e) => e.start_date)).toEqual(['2091-03-30 07:00:00', '2091-03-31 07:00:00']);
  });

  it('reads one by its id without writing, and changes or deletes it like any occurrence', async () => {
    const before = rowsIn('2091-01-01', '2092-01-01');
    const [one, two] = (await month({ venue })).events;
    const read = await t.api('get', `events/${one.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: one.id, start_date: one.start_date, series_id: weekly.id });
    expect(rowsIn('2091-01-01', '2092-01-01')).toBe(before);

    const changed = await t.api('patch', `events/${one.id}`).send({ title: `${tag} guest night` });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ title: `${tag} guest night`, start_date: one.start_date, is_exception: true, series_id: weekly.id });
    // Listed once, as its row now; its old id still names it.
    const after = await month({ venue });
    expect(after.total).toBe(9);
    expect(after.events.filter((e) => e.start_date === one.start_date).map((e) => [e.id, e.title])).toEqual([[changed.body.id, `${tag} guest night`]]);
    expect((await t.api('get', `events/${one.id}`)).body.title).toBe(`${tag} guest night`);

    expect((await t.api('delete', `events/${two.id}`)).status).toBe(200);
    const left = await month({ venue });
    expect(left.total).toBe(8);
    expect(left.events.map((e) => e.start_date)).not.toContain(two.start_date);
    // In the trash, as any deleted occurrence is.
    expect((await t.api('get', `events/${two.id}`)).status).toBe(403);
  });

  it('a refused change to one leaves the calendar as it was: no row written for it', async () => {
    const all = () => t.server.store.db.prepare("SELECT (SELECT count(*) FROM events) || '/' || (SELECT count(*) FROM series_windows)").pluck().get() as string;
    const [, , three] = (await month({ venue }, '2091-05')).events;
    expect(three.id).toBeGreaterThan(2 ** 52);
    const before = all();
    const attempts = [
      // Fields that pass the request's checks and are refused by the store, inside the write.
      await t.api('patch', `events/${three.id}`).send({ title: 'Not kept', venue: 987654 }),
      await t.api('put', `events/${three.id}`).send({ title: 'Not kept', organizer: [987654] }),
      await t.api('patch', `events/${three.id}`).send({ title: 'Not kept', calendar: 987654 }),
    ];
    for (const res of attempts) expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(all()).toBe(before);
    expect((await t.api('get', `events/${three.id}`)).body).toMatchObject({ id: three.id, start_date: three.start_date });
  });

  it('shows a change to the whole series at once', async () => {
    const res = await t.api('patch', `events/${daily.id}`).query({ recurrence_scope: 'all' }).send({ title: `${tag} early swim` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const shown = (await month({ search: 'early swim' })).events;
    expect(shown).toHaveLength(31);
    expect(shown.every((e) => e.title === `${tag} early swim`)).toBe(true);
  });

  it('shows nothing of a trashed series, and an unknown occurrence id is not found', async () => {
    const gone = await mkSeries({ title: `${tag} gone`, start_date: '2027-02-01 10:00:00', end_date: '2027-02-01 11:00:00', recurrence: 'FREQ=DAILY' });
    const [occ] = (await month({ search: `${tag} gone` })).events;
    expect(occ).toBeDefined();
    expect((await t.api('delete', `events/${gone.id}`).query({ recurrence_scope: 'all' })).status).toBe(200);
    expect((await month({ search: `${tag} gone` })).total).toBe(0);
    expect((await t.api('get', `events/${occ.id}`)).status).toBe(404);
    // An id of a start the rule never makes.
    expect((await t.api('get', `events/${occ.id + 1}`)).status).toBe(404);
  });
});

describe('series the rule keeps to rows', () => {
  // One rule (series-virtual.ts, SHOWN_WITHOUT_ROWS) says which series show occurrences without
  // rows, for a list and for a double-booking check alike: a series it keeps to rows is given from
  // rows written for the window by both, beside one it lets through, which both give without.
  it('a far list and a far double-booking check give them from rows, the others without', async () => {
    const tag = uniq('Rows').replace(/\W/g, '');
    const venue = (await mkVenue(t, { venue: `${tag} hall` })).id;
    const daily = { end_date: '2027-01-04 23:00:00', timezone: 'UTC', venue, recurrence: 'FREQ=DAILY' };
    // Half a minute past the minute: an occurrence's id counts whole minutes.
    const offMinute = await mkSeries({ ...daily, title: `${tag} off-minute`, start_date: '2027-01-04 07:00:30', end_date: '2027-01-04 07:30:00' });
    // Its first event deleted alone (to the trash): no longer like the other occurrences.
    const trashedFirst = await mkSeries({ ...daily, title: `${tag} trashed first`, start_date: '2027-01-04 09:00:00', end_date: '2027-01-04 09:30:00' });
    expect((await t.api('delete', `events/${trashedFirst.id}`).query({ recurrence_scope: 'this' })).status).toBe(200);
    const alike = await mkSeries({ ...daily, title: `${tag} alike`, start_date: '2027-01-04 11:00:00', end_date: '2027-01-04 11:30:00' });
    const kept = [offMinute.id, trashedFirst.id];
    const virtualIn = (events: Array<{ id: number }>) => events.map((e) => e.id > 2 ** 52);
    const rowsOf = (from: string, to: string) =>
      t.server.store.db.prepare(`SELECT count(*) FROM events WHERE parent_id IN (${kept.join(',')}) AND start_local >= ? AND start_local < ?`).pluck().get(from, to) as number;

    expect(rowsOf('2093-06-01', '2093-06-11')).toBe(0);
    const june = (await month({ venue, start_date: '2093-06-01', end_date: '2093-06-10' })).events;
    for (const id of [...kept, alike.id]) expect(june.filter((e) => e.series_id === id), `series ${id}`).toHaveLength(10);
    expect(virtualIn(june.filter((e) => kept.includes(e.series_id!)))).toEqual(Array(20).fill(false));
    expect(virtualIn(june.filter((e) => e.series_id === alike.id))).toEqual(Array(10).fill(true));
    expect(rowsOf('2093-06-01', '2093-06-11')).toBe(20);

    expect(rowsOf('2094-02-10', '2094-02-11')).toBe(0);
    const res = await t.api('get', 'events/conflicts').query({ start_date: '2094-02-10T07:00:00Z', end_date: '2094-02-10T12:00:00Z', venue });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const found: Array<{ id: number; title: string }> = res.body.events;
    expect(found.map((e) => [e.title, e.id > 2 ** 52])).toEqual([
      [`${tag} off-minute`, false],
      [`${tag} trashed first`, false],
      [`${tag} alike`, true],
    ]);
    expect(rowsOf('2094-02-10', '2094-02-11')).toBe(2);
  });
});
