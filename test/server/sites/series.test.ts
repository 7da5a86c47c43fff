/**
 * An Almanac site takes a series as a series (issue 26 item 4): pulled as a series (its rule, its
 * occurrences made here, not copied one by one), and a change here goes back to the whole series.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPair, type SitePair } from './_sites';

let p: SitePair;
let seriesId: number;

const window = { start_date: '2031-10-01 00:00:00', end_date: '2031-10-31 23:59:59', per_page: '50' };

beforeAll(async () => {
  p = await startPair();
  const res = await p.site.api('post', 'events').send({ title: 'Choir', start_date: '2031-10-07 19:00:00', end_date: '2031-10-07 21:00:00', timezone: 'Europe/Lisbon', recurrence: { rules: ['FREQ=WEEKLY;COUNT=4'] } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  seriesId = res.body.id;
  await p.sync();
}, 60_000);

afterAll(async () => {
  await p?.close();
});

describe('a series on an Almanac site', () => {
  it('comes here as a series: its rule, and its four occurrences once each', async () => {
    const here = (await p.here.api('get', 'events').query({ ...window, calendar: String(p.calendarId) })).body.events;
    expect(here.map((e: any) => e.start_date)).toEqual(['2031-10-07 19:00:00', '2031-10-14 19:00:00', '2031-10-21 19:00:00', '2031-10-28 19:00:00']);
    expect(here[0].recurrence.rules).toEqual(['FREQ=WEEKLY;COUNT=4']);
    expect(new Set(here.map((e: any) => e.series_id)).size).toBe(1);
  });

  it('a change here goes to the whole series there', async () => {
    const [first] = (await p.here.api('get', 'events').query({ ...window, calendar: String(p.calendarId) })).body.events;
    expect((await p.here.api('post', `events/${first.id}`).query({ recurrence_scope: 'all' }).send({ title: 'Choir practice' })).status).toBe(200);
    const report = await p.sync();
    expect(report.sent.updated).toBe(1);
    const there = (await p.site.api('get', 'events').query(window)).body.events;
    expect(there.map((e: any) => e.title)).toEqual(['Choir practice', 'Choir practice', 'Choir practice', 'Choir practice']);
    expect(there.every((e: any) => e.is_exception === false)).toBe(true);
    expect((await p.site.api('get', `events/${seriesId}`)).body.recurrence.rules).toEqual(['FREQ=WEEKLY;COUNT=4']);
    // And nothing comes back as a change.
    const again = await p.sync();
    expect(again.sent).toEqual({ created: 0, updated: 0, deleted: 0 });
    expect(again.received).toEqual({ changed: 0, deleted: 0 });
  });
});
