/**
 * What goes to a site for an occurrence of a series changed on its own here, through a recording
 * proxy in front of a second real Almanac: that occurrence alone, its whole state with
 * `recurrence_scope=this`, never the rule; a change made there between our read and our write is
 * refused by If-Match and merged, not overwritten; each side changing other fields of the same
 * occurrence is merged, not a conflict.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { startProxy, type Proxy } from './_proxy';
import { connect, startHere } from './_sites';

let site: TestServer;
let here: TestServer;
let proxy: Proxy;
let siteId: number;
let calendar: number;
const series: Record<string, number> = {};
const STARTS = ['2031-10-07 19:00:00', '2031-10-14 19:00:00', '2031-10-21 19:00:00', '2031-10-28 19:00:00'];
const OCT = { start_date: '2031-10-01 00:00:00', end_date: '2031-10-31 23:59:59', per_page: '50' };
/** Every field of an occurrence's state; its post date is its row's own, not the occurrence's. */
const WHOLE = ['title', 'description', 'excerpt', 'status', 'start_date', 'end_date', 'all_day', 'timezone', 'cost', 'website', 'featured', 'sticky', 'show_map', 'show_map_link', 'hide_from_listings', 'organizer', 'categories', 'tags'];

async function sync() {
  const [report] = await here.server.sync.syncSitesNow([siteId]);
  expect(report.error, JSON.stringify(report)).toBeUndefined();
  return report;
}

async function occurrences(server: TestServer, name: string, extra: Record<string, string> = {}): Promise<Record<string, Record<string, any>>> {
  const res = await server.api('get', 'events').query({ ...OCT, ...extra });
  expect(res.status).toBe(200);
  const list = (res.body.events as Array<Record<string, any>>).filter((e) => e.title.startsWith(name) && e.series_id !== null);
  return Object.fromEntries(list.map((e) => [e.recurrence_id, e]));
}
const there = (name: string) => occurrences(site, name);
const mine = (name: string) => occurrences(here, name, { calendar: String(calendar) });

beforeAll(async () => {
  site = await startTestServer({ syncIntervalMs: 0, syncDebounceMs: 0 });
  proxy = await startProxy(site.server.url);
  for (const title of ['Recital', 'Duet']) {
    const res = await site.api('post', 'events').send({ title, start_date: STARTS[0], end_date: '2031-10-07 21:00:00', timezone: 'Europe/Lisbon', recurrence: { rules: ['FREQ=WEEKLY;COUNT=4'] } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    series[title] = res.body.id;
  }
  here = await startHere();
  ({ siteId, calendarId: calendar } = await connect(here, site, { name: 'Hall' }, proxy.url));
}, 60_000);

afterAll(async () => {
  await here?.close();
  await proxy?.close();
  await site?.close();
});

describe('an occurrence changed on its own here', () => {
  it('goes alone, with its whole state and recurrence_scope=this, never the rule, in at most 3 requests', async () => {
    const target = (await there('Recital'))[STARTS[1]];
    expect((await here.api('post', `events/${(await mine('Recital'))[STARTS[1]].id}`).query({ recurrence_scope: 'this' }).send({ title: 'Recital, encore' })).status).toBe(200);
    proxy.clear();
    const report = await sync();
    const writes = proxy.sent.filter((s) => s.method !== 'GET');
    expect(writes.map((w) => [w.method, w.path.replace(/^.*\/v1\//, '')])).toEqual([['POST', `events/${target.id}`]]);
    for (const key of WHOLE) expect(writes[0].body, key).toHaveProperty(key);
    expect(writes[0].body.recurrence_scope).toBe('this');
    expect(writes[0].body).not.toHaveProperty('recurrence');
    expect(writes[0].body.start_date).toBe(STARTS[1]);
    expect(report.pushRequests).toBeLessThanOrEqual(3);
    const after = await there('Recital');
    expect(Object.values(after).map((e) => e.title)).toEqual(['Recital', 'Recital, encore', 'Recital', 'Recital']);
  });

  it('changed there between our read and our write: refused there (If-Match, 412), merged, both changes on both sides', async () => {
    const target = (await there('Recital'))[STARTS[2]];
    expect((await here.api('post', `events/${(await mine('Recital'))[STARTS[2]].id}`).query({ recurrence_scope: 'this' }).send({ title: 'Recital, with strings' })).status).toBe(200);
    let changed = false;
    proxy.before = async (r) => {
      if (changed || r.method !== 'POST' || !r.path.endsWith(`/events/${target.id}`)) return;
      changed = true;
      expect((await site.api('post', `events/${target.id}`).query({ recurrence_scope: 'this' }).send({ description: 'Strings from the conservatory.' })).status).toBe(200);
    };
    proxy.clear();
    const report = await sync();
    proxy.before = undefined;
    expect(changed).toBe(true);
    expect(proxy.sent.filter((s) => s.method === 'POST' && s.path.endsWith(`/events/${target.id}`)).map((w) => w.status)).toEqual([412, 200]);
    expect(report.conflicts).toBe(0);
    for (const side of [await there('Recital'), await mine('Recital')]) {
      expect(side[STARTS[2]].title).toBe('Recital, with strings');
      expect(side[STARTS[2]].description).toContain('Strings from the conservatory.');
    }
  });

  it('changed there too in another field, neither known to the other: merged, no conflict copy', async () => {
    expect((await here.api('post', `events/${(await mine('Duet'))[STARTS[1]].id}`).query({ recurrence_scope: 'this' }).send({ title: 'Duet in A minor' })).status).toBe(200);
    expect((await site.api('post', `events/${(await there('Duet'))[STARTS[1]].id}`).query({ recurrence_scope: 'this' }).send({ description: 'Programme inside.' })).status).toBe(200);
    const report = await sync();
    expect(report.conflicts).toBe(0);
    for (const side of [await there('Duet'), await mine('Duet')]) {
      expect(side[STARTS[1]].title).toBe('Duet in A minor');
      expect(side[STARTS[1]].description).toContain('Programme inside.');
      for (const k of [STARTS[0], STARTS[2], STARTS[3]]) expect(side[k].title).toBe('Duet');
    }
    expect((await here.api('get', 'sync')).body.conflicts).toEqual([]);
  });
});
