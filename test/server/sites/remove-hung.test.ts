/**
 * Removing a website while its round waits on a site that does not answer (issue 26 item 7, as
 * CalDAV's accounts): the round's requests are aborted, so `DELETE /sites/{id}` answers at once
 * instead of after the request's 30-second limit, and the site, its calendar and events are gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { startProxy, type Proxy } from './_proxy';

let site: TestServer;
let here: TestServer;
let proxy: Proxy;

beforeAll(async () => {
  site = await startTestServer({ syncIntervalMs: 0, syncDebounceMs: 0 });
  expect((await site.api('post', 'events').send({ title: 'On the site', start_date: '2031-03-02 10:00:00', end_date: '2031-03-02 11:00:00' })).status).toBe(201);
  proxy = await startProxy(site.server.url);
  // A per-request limit far past the test's own: only an abort can end the hung request in time.
  here = await startTestServer({ syncIntervalMs: 0, syncDebounceMs: 0, siteHttp: { timeoutMs: 10 * 60_000 } });
});

afterAll(async () => {
  await here?.close();
  await proxy?.close();
  await site?.close();
});

describe('removing a site whose round hangs', () => {
  it('a round stopped mid-way (the app quitting) keeps no error: the site did not time out', async () => {
    const res = await here.api('post', 'sites').send({ url: proxy.url, user: 'owner', password: site.server.token, name: 'Stopped' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await here.server.sync.siteSettled(res.body.id);
    try {
      expect(here.server.sync.siteStatus(res.body.id)?.last_error).toBeNull();
      const before = proxy.sent.filter((s) => s.path.endsWith('/tags')).length;
      proxy.fault({ kind: 'hang', times: 1, match: (r) => r.path.endsWith('/tags') });
      const round = here.server.sync.syncSitesNow([res.body.id]);
      await expect.poll(() => proxy.sent.filter((s) => s.path.endsWith('/tags')).length, { timeout: 10_000 }).toBeGreaterThan(before);
      await here.server.sync.cancelSite(res.body.id);
      const [report] = await round;
      expect(report.ok).toBe(false);
      const status = here.server.sync.siteStatus(res.body.id);
      expect(status?.last_error).toBeNull();
      expect(status?.state).toBe('ok');
    } finally {
      expect((await here.api('delete', `sites/${res.body.id}`)).status).toBe(200);
    }
  });


  it('answers at once, the round aborted, and the site and its calendar are gone', async () => {
    const res = await here.api('post', 'sites').send({ url: proxy.url, user: 'owner', password: site.server.token, name: 'Hung' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await here.server.sync.siteSettled(res.body.id);
    // Requests held by earlier tests of this file are theirs: this one's is the next.
    const held = proxy.hung.length;
    proxy.fault({ kind: 'hang', times: 1, match: (r) => r.path.endsWith('/tags') });
    const round = here.server.sync.syncSitesNow([res.body.id]);
    // The round is waiting on the site.
    await expect.poll(() => proxy.hung.length, { timeout: 10_000 }).toBe(held + 1);
    expect(proxy.hung[held].closed).toBe(false);
    const removed = await here.api('delete', `sites/${res.body.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const [report] = await round;
    expect(report.ok).toBe(false);
    // The request the round waited on was aborted (its limit is ten minutes away).
    await expect.poll(() => proxy.hung[held].closed).toBe(true);
    expect((await here.api('get', 'sites')).body).toEqual([]);
    expect((await here.api('get', 'calendars')).body.map((c: { id: number }) => c.id)).not.toContain(res.body.calendar_id);
  });
});
