/**
 * A website misbehaving mid-sync (issue 26 items 6 and 7), with a proxy in front of a second real
 * Almanac for what a real site cannot be made to do on demand: a password revoked (401) halfway,
 * 429/503 with Retry-After, a firewall's page, garbage, a site that never answers, one stopped and
 * back. Nothing is lost or duplicated, the next round resumes, Almanac's own API keeps answering,
 * and GET /sync says what happened in words. Also the rhythm: a round a moment after a change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { createServer, silentLogger } from '../../../electron/server';
import { FULL, listedTitles } from './_sites';
import { startProxy, type Proxy } from './_proxy';

let site: TestServer;
let here: TestServer;
let proxy: Proxy;
let siteId: number;
let calendar: number;

async function sync() {
  const [report] = await here.server.sync.syncSitesNow([siteId]);
  return report;
}

const hereTitles = () => listedTitles(here, { calendar: String(calendar) });
const siteTitles = () => listedTitles(site);

const siteState = async () => (await here.api('get', 'sync')).body.sites.find((s: any) => s.id === siteId);

beforeAll(async () => {
  site = await startTestServer({ syncIntervalMs: 0, syncDebounceMs: 0 });
  for (let i = 0; i < 120; i++) {
    const day = String((i % 28) + 1).padStart(2, '0');
    expect((await site.api('post', 'events').send({ title: `Event ${String(i).padStart(3, '0')}`, start_date: `2031-03-${day} 10:00:00`, end_date: `2031-03-${day} 11:00:00` })).status).toBe(201);
  }
  proxy = await startProxy(site.server.url);
  here = await startTestServer({ syncIntervalMs: 0, syncDebounceMs: 0, siteHttp: { timeoutMs: 1500, maxInlineWaitMs: 2000 } });
  // The first pull is cut by a password revoked halfway: page 2 answers 401.
  proxy.fault({ kind: 'answer', times: 1, status: 401, headers: { 'Content-Type': 'application/json' }, body: '{"code":"incorrect_password","message":"The provided password is an invalid application password.","data":{"status":401}}', match: (r) => r.method === 'GET' && r.path.endsWith('/events') && proxy.sent.filter((s) => s.path.endsWith('/events')).length > 3 });
  const res = await here.api('post', 'sites').send({ url: proxy.url, user: 'owner', password: site.server.token, name: 'Flaky' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  siteId = res.body.id;
  calendar = res.body.calendar_id;
  await here.server.sync.siteSettled(siteId);
}, 90_000);

afterAll(async () => {
  await here?.close();
  await proxy?.close();
  await site?.close();
});

describe('a site misbehaving', () => {
  it('a password revoked halfway: the round stops, waits for the user, and says so; the next resumes without duplicates', async () => {
    const state = await siteState();
    expect(state.state).toBe('password');
    expect(state.last_error).toMatch(/refused the user name or password/);
    expect(state.next_try).toBeNull();
    const half = await hereTitles();
    expect(half.length).toBeGreaterThan(0);
    expect(half.length).toBeLessThan(120);
    const report = await sync();
    expect(report.error).toBeUndefined();
    expect(await hereTitles()).toEqual(await siteTitles());
    expect((await siteState()).state).toBe('ok');
  });

  it('429 with a short Retry-After is waited out; 503 with a long one stops the round with backoff', async () => {
    proxy.fault({ kind: 'answer', times: 1, status: 429, headers: { 'Retry-After': '1', 'Content-Type': 'text/plain' }, body: 'slow down', match: (r) => r.path.endsWith('/events') });
    const ok = await sync();
    expect(ok.error).toBeUndefined();
    proxy.fault({ kind: 'answer', times: 1, status: 503, headers: { 'Retry-After': '600', 'Content-Type': 'text/plain' }, body: 'maintenance', match: (r) => r.path.endsWith('/events') });
    const busy = await sync();
    expect(busy.ok).toBe(false);
    expect(busy.transient).toBe(true);
    const state = await siteState();
    expect(state.last_error).toMatch(/busy \(HTTP 503\)/);
    expect(Date.parse(state.next_try) - Date.now()).toBeGreaterThan(500_000);
  });

  it('a firewall page or garbage where JSON was expected is told, and nothing here changes', async () => {
    const before = here.snapshot();
    proxy.fault({ kind: 'answer', times: 1, status: 200, headers: { 'Content-Type': 'text/html' }, body: '<!DOCTYPE html><html><body>Blocked by WAF</body></html>', match: (r) => r.path.endsWith('/categories') });
    expect((await sync()).error).toMatch(/web page where data was expected/);
    proxy.fault({ kind: 'answer', times: 1, status: 200, headers: { 'Content-Type': 'application/json' }, body: '{"events": [{"id": 1, "title": "trunc', match: (r) => r.path.endsWith('/events') });
    expect((await sync()).error).toMatch(/not the events API's data/);
    expect(here.snapshot()).toEqual(before);
    expect((await sync()).error).toBeUndefined();
    expect(here.snapshot()).toEqual(before);
  });

  it('a site that never answers: the round gives up in time while Almanac keeps answering', async () => {
    const hungBefore = proxy.hung.length;
    proxy.fault({ kind: 'hang', times: 1, match: (r) => r.path.endsWith('/tags') });
    let over = false;
    const round = sync().finally(() => (over = true));
    await expect.poll(() => proxy.hung.length).toBe(hungBefore + 1);
    const held = proxy.hung[hungBefore];
    const answer = await here.api('get', 'events').query({ per_page: 1 });
    expect(answer.status).toBe(200);
    // Answered while the round still waited on the site, not after it.
    expect(held.closed).toBe(false);
    expect(over).toBe(false);
    const report = await round;
    expect(report.error).toMatch(/did not answer within 2 seconds/);
    // The round gave up on the request: it closed it.
    await expect.poll(() => held.closed).toBe(true);
  });

  it('a change made here while the site is stopped waits, and goes once it is back', async () => {
    const [mine] = (await here.api('get', 'events').query({ ...FULL, calendar: String(calendar), search: 'Event 007' })).body.events;
    expect((await here.api('post', `events/${mine.id}`).send({ title: 'Event 007, edited offline' })).status).toBe(200);
    proxy.fault({ kind: 'answer', times: 1, status: 502, body: 'bad gateway', match: () => true });
    const down = await sync();
    expect(down.ok).toBe(false);
    expect((await siteState()).pending).toBe(1);
    expect((await sync()).error).toBeUndefined();
    expect(await siteTitles()).toContain('Event 007, edited offline');
    expect((await siteState()).pending).toBe(0);
  });

  it('an event hidden from the site\'s lists is read one by one, not taken for deleted', async () => {
    proxy.hideHidden = true;
    try {
      const [there] = (await site.api('get', 'events').query({ ...FULL, search: 'Event 020' })).body.events;
      expect((await site.api('post', `events/${there.id}`).send({ title: 'Event 020, hidden', hide_from_listings: true })).status).toBe(200);
      proxy.clear();
      const report = await sync();
      expect(report.error).toBeUndefined();
      expect(report.received.deleted).toBe(0);
      expect(await hereTitles()).toContain('Event 020, hidden');
      expect(proxy.sent.some((s) => s.method === 'GET' && s.path.endsWith(`/events/${there.id}`))).toBe(true);
      // Every round reads it again, and finds it unchanged.
      expect((await sync()).received).toEqual({ changed: 0, deleted: 0 });
    } finally {
      proxy.hideHidden = false;
    }
  });

  it('a record that cannot be stored here is reported, and the records stored with it are kept', async () => {
    const before = await hereTitles();
    // A real Almanac cannot serve an event with an unreadable start: the proxy answers page 1.
    const event = (id: number, title: string, start: string) => ({ id, title, status: 'publish', start_date: start, end_date: '2031-04-02 11:00:00', timezone: 'UTC', organizer: [], categories: [], tags: [] });
    const page = { events: [event(900001, 'Stored before it', '2031-04-02 10:00:00'), event(900002, 'Unreadable start', 'soon'), event(900003, 'Stored after it', '2031-04-02 10:30:00')], total: 103, total_pages: 3 };
    proxy.clear();
    proxy.fault({ kind: 'answer', times: 1, status: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(page), match: (r) => r.method === 'GET' && r.path.endsWith('/events') && !r.query.has('status') && r.query.get('page') === '1' });
    const report = await sync();
    expect(report.error).toBeUndefined();
    expect(report.problems).toEqual([expect.stringMatching(/^events\/900002 "Unreadable start": /)]);
    expect(await hereTitles()).toEqual([...before, 'Stored after it', 'Stored before it'].sort());
    // The site never had them: the next round finds them gone, and nothing else changes.
    const again = await sync();
    expect(again.problems).toEqual([]);
    expect(await hereTitles()).toEqual(before);
  });

  it('an empty list (a stale cache, a broken plugin) deletes nothing: each missing event is asked for', async () => {
    const before = await hereTitles();
    const empty = '{"events":[],"total":0,"total_pages":0}';
    proxy.clear();
    proxy.fault({ kind: 'answer', times: 2, status: 200, headers: { 'Content-Type': 'application/json' }, body: empty, match: (r) => r.method === 'GET' && r.path.endsWith('/events') && (!r.query.has('status') || r.query.get('status') === 'trash') });
    const report = await sync();
    expect(report.error).toBeUndefined();
    expect(report.received.deleted).toBe(0);
    expect(await hereTitles()).toEqual(before);
    expect(proxy.sent.filter((s) => /\/events\/\d+$/.test(s.path)).length).toBe(before.length);
  });

  it('a site stopped in the middle of a round and started again: the next round finishes, nothing lost or doubled', async () => {
    const [one] = (await site.api('get', 'events').query({ ...FULL, search: 'Event 030' })).body.events;
    expect((await site.api('post', `events/${one.id}`).send({ title: 'Event 030, changed before the stop' })).status).toBe(200);
    const port = site.server.port;
    let stopped = false;
    proxy.before = async (r) => {
      if (stopped || !r.path.endsWith('/events') || r.query.get('page') !== '2') return;
      stopped = true;
      await site.server.close();
    };
    const down = await sync();
    proxy.before = undefined;
    expect(stopped).toBe(true);
    expect(down.ok).toBe(false);
    expect(down.transient).toBe(true);
    site.server = await createServer({ dataDir: site.dataDir, port, token: site.server.token, log: silentLogger, syncIntervalMs: 0, syncDebounceMs: 0 });
    const back = await sync();
    expect(back.error).toBeUndefined();
    expect(await hereTitles()).toEqual(await siteTitles());
    expect(await hereTitles()).toContain('Event 030, changed before the stop');
  });

  it('a stale page count: the pages asked ahead past the real end (one answering 500) end the listing, nothing lost or doubled', async () => {
    const before = await hereTitles();
    const first = (await site.api('get', 'events').query({ ...FULL, page: 1 })).body;
    const pages = first.total_pages as number;
    expect(pages).toBeGreaterThan(1);
    // A cache plugin's page 1 from when the site had more events: three pages more than it has now.
    const stale = JSON.stringify({ ...first, total_pages: pages + 3 });
    const eventsPage = (page: number) => (r: { method: string; path: string; query: URLSearchParams }) => r.method === 'GET' && r.path.endsWith('/events') && !r.query.has('status') && r.query.get('page') === String(page);
    proxy.clear();
    proxy.fault({ kind: 'answer', times: 1, status: 200, headers: { 'Content-Type': 'application/json' }, body: stale, match: eventsPage(1) });
    proxy.fault({ kind: 'answer', times: 1, status: 500, headers: { 'Content-Type': 'text/plain' }, body: 'oops', match: eventsPage(pages + 1) });
    const report = await sync();
    expect(report.error).toBeUndefined();
    expect(report.received.deleted).toBe(0);
    // The page past the end was asked for ahead of time, and its 500 counted for nothing.
    expect(proxy.sent.some((r) => eventsPage(pages + 1)(r) && r.status === 500)).toBe(true);
    expect(await hereTitles()).toEqual(before);
    expect(await hereTitles()).toEqual(await siteTitles());
  });

  it('a change here is sent by itself a moment later (the rhythm), with no Sync now', async () => {
    const quick = await startTestServer({ syncIntervalMs: 0, syncDebounceMs: 200, siteHttp: { timeoutMs: 2000 } });
    try {
      const res = await quick.api('post', 'sites').send({ url: site.server.url, user: 'owner', password: site.server.token, name: 'Quick' });
      expect(res.status).toBe(201);
      await quick.server.sync.siteSettled(res.body.id);
      const [mine] = (await quick.api('get', 'events').query({ ...FULL, calendar: String(res.body.calendar_id), search: 'Event 010' })).body.events;
      expect((await quick.api('post', `events/${mine.id}`).send({ title: 'Event 010, sent by itself' })).status).toBe(200);
      const deadline = Date.now() + 10_000;
      while (!(await siteTitles()).includes('Event 010, sent by itself')) {
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 100));
      }
      await quick.server.sync.siteSettled(res.body.id);
    } finally {
      await quick.close();
    }
  });

  it('Sync now for a site no one connected answers 404 naming the site, not a CalDAV account', async () => {
    const res = await here.api('post', 'sync').send({ site: 'Nobody' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('sync-site-not-found');
    expect(res.body.message).toContain('"Nobody"');
    expect(res.body.message).not.toMatch(/CalDAV/);
    const pt = await here.api('post', 'sync').send({ site: 'Nobody', i18n_language: 'pt-br' });
    expect(pt.body.message).toMatch(/site/i);
    expect(pt.body.message).not.toBe(res.body.message);
  });
});
