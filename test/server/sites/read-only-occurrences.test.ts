/**
 * Occurrences a website's Events Calendar Pro generates from a repeating event (issue 26 item 4):
 * read-only here, with the reason, and never written back. A second Almanac cannot serve them, so
 * a proxy in front of it shows it as the original plugin and one of its events as a Pro
 * occurrence: a provisional id (10,000,000 + the post's) and its Series as `post_parent`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { connect, startHere, hereEvent as findHere } from './_sites';
import { startProxy, type Proxy } from './_proxy';

const BASE = 10_000_000;
const SERIES = 4242;

let site: TestServer;
let here: TestServer;
let proxy: Proxy;
let siteId: number;
let calendar: number;
let yogaThere: number;

async function sync() {
  const [report] = await here.server.sync.syncSitesNow([siteId]);
  expect(report.error, JSON.stringify(report)).toBeUndefined();
  return report;
}

async function hereEvent(title: string): Promise<Record<string, any>> {
  return (await findHere(here, calendar, title, { prefix: true }))!;
}

const writesToOccurrence = () => proxy.sent.filter((s) => s.method !== 'GET' && /\/events\/\d+$/.test(s.path) && Number(s.path.split('/').pop()) >= BASE);
const writesToEvents = () => proxy.sent.filter((s) => s.method !== 'GET' && /\/events(\/\d+)?$/.test(s.path));

beforeAll(async () => {
  site = await startTestServer({ syncIntervalMs: 0, syncDebounceMs: 0 });
  yogaThere = (await site.api('post', 'events').send({ title: 'Morning yoga', start_date: '2031-03-03 07:00:00', end_date: '2031-03-03 08:00:00' })).body.id;
  expect((await site.api('post', 'events').send({ title: 'Town fair', start_date: '2031-03-04 10:00:00', end_date: '2031-03-04 18:00:00' })).status).toBe(201);
  proxy = await startProxy(site.server.url);
  proxy.originalShape = true;
  proxy.rewrite = {
    event: (e) => (e.id === yogaThere ? { ...e, id: BASE + yogaThere, post_parent: SERIES, rest_url: String(e.rest_url).replace(/\d+$/, String(BASE + yogaThere)) } : e),
    path: (p) => p.replace(/\/events\/(\d+)$/, (m, id) => (Number(id) >= BASE ? `/events/${Number(id) - BASE}` : m)),
  };
  here = await startHere();
  ({ siteId, calendarId: calendar } = await connect(here, site, { name: 'Studio' }, proxy.url));
}, 60_000);

afterAll(async () => {
  await here?.close();
  await proxy?.close();
  await site?.close();
});

describe('an occurrence the site generates', () => {
  it('arrives, read-only with the reason; the site\'s other events do not', async () => {
    const yoga = await hereEvent('Morning yoga');
    expect(yoga).toBeDefined();
    expect(yoga.read_only).toEqual({ reason: 'site_occurrence', series: SERIES });
    const fair = await hereEvent('Town fair');
    expect(fair.read_only).toBeUndefined();
    expect((await here.api('get', `events/${yoga.id}`)).body.read_only).toEqual({ reason: 'site_occurrence', series: SERIES });
  });

  it('refuses an edit, a move and a delete through the API, in words, and sends nothing to the site', async () => {
    const yoga = await hereEvent('Morning yoga');
    proxy.clear();
    const edit = await here.api('post', `events/${yoga.id}`).send({ title: 'Evening yoga' });
    expect(edit.status).toBe(403);
    expect(edit.body).toMatchObject({ code: 'event-read-only', data: { status: 403 } });
    expect(edit.body.message).toMatch(/occurrence.*"Studio".*repeating event/);
    const put = await here.api('put', `events/${yoga.id}`).query({ i18n_language: 'pt-br' }).send({ start_date: '2031-03-05 07:00:00', end_date: '2031-03-05 08:00:00' });
    expect(put.status).toBe(403);
    expect(put.body.message).toMatch(/ocorrência que o site "Studio" gera/);
    const del = await here.api('delete', `events/${yoga.id}`).query({ i18n_language: 'es' });
    expect(del.status).toBe(403);
    expect(del.body.message).toMatch(/repetición que el sitio "Studio" genera/);
    const after = await hereEvent('Morning yoga');
    expect(after).toMatchObject({ title: 'Morning yoga', start_date: '2031-03-03 07:00:00', status: 'publish' });
    expect((await here.api('get', 'sync')).body.sites[0].pending).toBe(0);
    await sync();
    expect(writesToEvents()).toEqual([]);
    // The site's copy is as it was.
    expect((await site.api('get', `events/${yogaThere}`)).body.title).toBe('Morning yoga');
  });

  it('is still updated by a pull from the site, and stays read-only', async () => {
    expect((await site.api('post', `events/${yogaThere}`).send({ title: 'Morning yoga (mats provided)' })).status).toBe(200);
    await sync();
    const yoga = await hereEvent('Morning yoga');
    expect(yoga.title).toBe('Morning yoga (mats provided)');
    expect(yoga.read_only).toEqual({ reason: 'site_occurrence', series: SERIES });
    expect((await here.api('post', `events/${yoga.id}`).send({ title: 'x' })).status).toBe(403);
  });

  it('a change that reached it another way (not through the API) is never sent: it waits, shown with the reason, until discarded', async () => {
    const yoga = await hereEvent('Morning yoga');
    // As an import by UID or another program on the same file would: a local change, queued.
    here.server.store.write(() => here.server.store.db.prepare('UPDATE events SET title = ? WHERE id = ?').run('Changed behind the API', yoga.id));
    expect((await here.api('get', 'sync')).body.sites[0].pending).toBe(1);
    proxy.clear();
    await sync();
    expect(writesToOccurrence()).toEqual([]);
    expect(writesToEvents()).toEqual([]);
    const state = (await here.api('get', 'sync')).body.sites[0];
    expect(state.pending).toBe(1);
    expect(state.refused).toHaveLength(1);
    expect(state.refused[0]).toMatchObject({ direction: 'push', kind: 'event', title: 'Changed behind the API', status: null, local_id: yoga.id, remote_id: BASE + yogaThere });
    expect(state.refused[0].reason).toMatch(/occurrence the site generates/);
    const discarded = await here.api('delete', `sync/refusals/${state.refused[0].id}`);
    expect(discarded.status).toBe(200);
    await here.server.sync.siteSettled(siteId);
    await sync();
    const back = await hereEvent('Morning yoga');
    expect(back.title).toBe('Morning yoga (mats provided)');
    const after = (await here.api('get', 'sync')).body.sites[0];
    expect(after.pending).toBe(0);
    expect(after.refused).toEqual([]);
    expect(writesToEvents()).toEqual([]);
  });
});
