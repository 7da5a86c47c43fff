/**
 * An occurrence changed here on its own whose series, on the site, no longer makes it (its rule
 * was shortened there): the change cannot be sent. It must not be dropped in silence: it stays
 * here, shown as a refusal in words (GET /sync), and Discard brings the site's series back
 * (issue 26). Against a second real Almanac as the site.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPair, type SitePair } from './_sites';

let p: SitePair;
let seriesId: number;
const OCT = { start_date: '2031-10-01 00:00:00', end_date: '2031-11-30 23:59:59', per_page: '50' };
const STARTS = ['2031-10-07 19:00:00', '2031-10-14 19:00:00', '2031-10-21 19:00:00', '2031-10-28 19:00:00'];
const hereTitles = async () => (await p.here.api('get', 'events').query({ ...OCT, calendar: String(p.calendarId) })).body.events.map((e: any) => e.title);

beforeAll(async () => {
  p = await startPair();
  seriesId = (await p.site.api('post', 'events').send({ title: 'Choir', start_date: STARTS[0], end_date: '2031-10-07 21:00:00', timezone: 'Europe/Lisbon', recurrence: { rules: ['FREQ=WEEKLY;COUNT=4'] } })).body.id;
  await p.sync();
}, 60_000);

afterAll(async () => {
  await p?.close();
});

it('is kept here and shown as a refusal; Discard brings the site’s series back', async () => {
  const last = (await p.here.api('get', 'events').query({ ...OCT, calendar: String(p.calendarId) })).body.events.find((e: any) => e.recurrence_id === STARTS[3]);
  expect((await p.here.api('post', `events/${last.id}`).query({ recurrence_scope: 'this' }).send({ title: 'Choir, final concert' })).status).toBe(200);
  expect((await p.site.api('post', `events/${seriesId}`).query({ recurrence_scope: 'all' }).send({ recurrence: { rules: ['FREQ=WEEKLY;COUNT=3'] } })).status).toBe(200);

  await p.sync();
  expect(await hereTitles()).toContain('Choir, final concert');
  const state = (await p.here.api('get', 'sync').query({ i18n_language: 'pt-br' })).body.sites[0];
  expect(state.pending).toBe(1);
  expect(state.refused).toEqual([expect.objectContaining({ direction: 'push', title: 'Choir, final concert', reason: expect.stringContaining('já não é uma ocorrência') })]);

  const discarded = await p.here.api('delete', `sync/refusals/${state.refused[0].id}`);
  expect(discarded.status).toBe(200);
  await p.here.server.sync.siteSettled(p.siteId);
  await p.sync();
  expect(await hereTitles()).toEqual(['Choir', 'Choir', 'Choir']);
  const after = (await p.here.api('get', 'sync')).body.sites[0];
  expect(after.refused).toEqual([]);
  expect(after.pending).toBe(0);
});
