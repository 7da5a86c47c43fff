/**
 * An occurrence of an Almanac site's series, changed there on its own, that cannot be stored here
 * is shown as the site's other records are (GET /sync `refused`, direction pull), not only in the
 * round's report: else the occurrence here stays on its old version, every round, with nothing
 * said (issue 26). A real Almanac cannot serve an unreadable start: the proxy rewrites it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { connect, startHere } from './_sites';
import { startProxy, type Proxy } from './_proxy';

let site: TestServer;
let here: TestServer;
let proxy: Proxy;
let siteId: number;
let seriesId: number;
const OCT = { start_date: '2031-10-01 00:00:00', end_date: '2031-11-30 23:59:59', per_page: '50' };
const STARTS = ['2031-10-07 19:00:00', '2031-10-14 19:00:00'];
const sitesState = async () => (await here.api('get', 'sync')).body.sites[0];
const sync = async () => (await here.server.sync.syncSitesNow([siteId]))[0];

beforeAll(async () => {
  site = await startTestServer({ syncIntervalMs: 0, syncDebounceMs: 0 });
  seriesId = (await site.api('post', 'events').send({ title: 'Choir', start_date: STARTS[0], end_date: '2031-10-07 21:00:00', timezone: 'Europe/Lisbon', recurrence: { rules: ['FREQ=WEEKLY;COUNT=4'] } })).body.id;
  proxy = await startProxy(site.server.url);
  here = await startHere();
  ({ siteId } = await connect(here, site, { name: 'Parish' }, proxy.url));
}, 60_000);

afterAll(async () => {
  await here?.close();
  await proxy?.close();
  await site?.close();
});

it('is kept as a refusal of the pull, and goes once it can be stored', async () => {
  const occurrence = (await site.api('get', 'events').query(OCT)).body.events.find((e: any) => e.series_id === seriesId && e.recurrence_id === STARTS[1]);
  expect((await site.api('post', `events/${occurrence.id}`).query({ recurrence_scope: 'this' }).send({ title: 'Choir, moved' })).status).toBe(200);
  proxy.rewrite = { event: (e) => (e.series_id === seriesId && e.recurrence_id === STARTS[1] ? { ...e, start_date: 'soon', end_date: 'later' } : e) };
  try {
    const report = await sync();
    expect(report.problems).toEqual([expect.stringContaining('"Choir, moved"')]);
  } finally {
    proxy.rewrite = undefined;
  }
  expect((await sitesState()).refused).toEqual([expect.objectContaining({ direction: 'pull', title: 'Choir, moved', remote_id: occurrence.id })]);

  await sync();
  expect((await sitesState()).refused).toEqual([]);
  const titles = (await here.api('get', 'events').query(OCT)).body.events.map((e: any) => e.title);
  expect(titles).toContain('Choir, moved');
});
