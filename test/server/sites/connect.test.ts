/**
 * Connecting a website (issue 26 item 1) against a second real Almanac (and, for what a real site
 * cannot be made to do on demand, a proxy in front of it): the right password; a wrong one; an
 * address that is not such a site; a firewall's web page; an unreachable site; a self-signed
 * certificate (told as such, not as unreachable); a host that strips
 * the login; a site connected twice; a site without pretty permalinks (?rest_route=). Each failure
 * is told in words on the field to fix, in the reader's language, and nothing is stored.
 */
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { startHere, FULL } from './_sites';
import { startProxy, type Proxy } from './_proxy';

let site: TestServer;
let here: TestServer;
let proxy: Proxy;

const stored = () => ({
  sites: (here.server.db.prepare('SELECT count(*) AS n FROM sites').get() as { n: number }).n,
  calendars: (here.server.db.prepare('SELECT count(*) AS n FROM calendars').get() as { n: number }).n,
  secrets: here.server.secrets!.keys().filter((k) => k.startsWith('site:')).length,
});

beforeAll(async () => {
  site = await startTestServer({ syncIntervalMs: 0, syncDebounceMs: 0 });
  expect((await site.api('post', 'events').send({ title: 'On the site', start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00' })).status).toBe(201);
  proxy = await startProxy(site.server.url);
  here = await startHere({ timeoutMs: 2000 });
}, 60_000);

afterAll(async () => {
  await here?.close();
  await proxy?.close();
  await site?.close();
});

async function connectFails(body: Record<string, unknown>, status: number, code: string, field: string, lang = '') {
  const before = stored();
  const res = await here.api('post', 'sites').query(lang ? { i18n_language: lang } : {}).send(body);
  expect({ status: res.status, code: res.body.code }, JSON.stringify(res.body)).toEqual({ status, code });
  expect(typeof res.body.data.params[field]).toBe('string');
  expect(res.body.data.params[field].length).toBeGreaterThan(10);
  expect(stored()).toEqual(before);
  expect(JSON.stringify(res.body)).not.toContain(String(body.password));
  return res.body;
}

describe('connect a website', () => {
  it('refuses a wrong password on the password field, nothing stored', async () => {
    const body = await connectFails({ url: proxy.url, user: 'owner', password: 'wrong-password-123' }, 422, 'site-unauthorized', 'password');
    expect(body.data.params.password).toMatch(/application password/);
  });

  it('tells a host that strips the login (silent anonymous answers) on the url field', async () => {
    proxy.stripAuth = true;
    try {
      await connectFails({ url: proxy.url, user: 'owner', password: site.server.token }, 422, 'site-anonymous', 'url');
    } finally {
      proxy.stripAuth = false;
    }
  });

  it('tells a firewall\'s web page on the url field, in the reader\'s language', async () => {
    const page = '<!doctype html><html><body>Access denied by the firewall</body></html>';
    proxy.fault({ kind: 'answer', times: 2, status: 200, body: page, match: (r) => r.path === '/' });
    proxy.fault({ kind: 'answer', times: 1, status: 403, body: page, match: (r) => r.path.startsWith('/wp-json') });
    const body = await connectFails({ url: proxy.url, user: 'owner', password: site.server.token }, 422, 'site-blocked', 'url', 'pt-br');
    expect(body.data.params.url).toMatch(/plugin de segurança/);
    proxy.clear();
  });

  it('tells an address that is not such a site, and one that cannot be reached', async () => {
    const other = createServer((req, res) => {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end('{"code":"nothing_here"}');
    });
    await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
    const port = (other.address() as AddressInfo).port;
    await connectFails({ url: `127.0.0.1:${port}`, user: 'owner', password: 'x-password' }, 422, 'site-not-found', 'url');
    await new Promise<void>((done) => other.close(() => done()));
    await connectFails({ url: `http://127.0.0.1:${port}/blog`, user: 'owner', password: 'x-password' }, 422, 'site-unreachable', 'url');
    const bad = await here.api('post', 'sites').send({ url: 'http://', user: 'owner', password: 'x' });
    expect(bad.status).toBe(400);
  });

  it('tells a self-signed certificate as a certificate problem, not as a site that cannot be reached', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'almanac-tls-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' });
      const tls = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_req, res) => res.end('{}'));
      await new Promise<void>((done) => tls.listen(0, '127.0.0.1', done));
      try {
        const port = (tls.address() as AddressInfo).port;
        const body = await connectFails({ url: `https://127.0.0.1:${port}/`, user: 'owner', password: 'x-password' }, 422, 'site-unreachable', 'url');
        expect(body.data.params.url).toMatch(/secure connection/);
        expect(body.data.params.url).toMatch(/self-signed/);
      } finally {
        await new Promise<void>((done) => tls.close(() => done()));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('with the right password: the site, its calendar and its events, the password kept apart', async () => {
    const res = await here.api('post', 'sites').send({ url: site.server.url.replace('http://', ''), user: 'owner', password: site.server.token, color: '#336699' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ url: site.server.url, user: 'owner', api_root: `${site.server.url}/wp-json/cal/events/v1/`, color: '#336699', repeats: true });
    expect(JSON.stringify(res.body)).not.toContain(site.server.token);
    await here.server.sync.siteSettled(res.body.id);
    const events = (await here.api('get', 'events').query({ ...FULL, calendar: String(res.body.calendar_id) })).body.events;
    expect(events.map((e: any) => e.title)).toEqual(['On the site']);
    const calendars = (await here.api('get', 'calendars')).body;
    expect(calendars.find((c: any) => c.id === res.body.calendar_id).site).toEqual({ id: res.body.id, url: site.server.url, repeats: true });
    const listed = (await here.api('get', 'sites')).body;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: res.body.id, state: 'ok', pending: 0, conflicts: 0 });
    expect(listed[0].last_sync).toBeTruthy();
    // In the owner-only secrets file, never in the database.
    expect(here.server.secrets!.get(`site:${res.body.id}`)).toBe(site.server.token);
    expect(readFileSync(join(here.dataDir, 'almanac.sqlite')).includes(Buffer.from(site.server.token))).toBe(false);
    // Twice: refused.
    await connectFails({ url: site.server.url, user: 'owner', password: site.server.token }, 422, 'site-duplicate', 'url');
    // Another site under a name taken: refused on the name field.
    const taken = await connectFails({ url: proxy.url, user: 'owner', password: site.server.token, name: res.body.name }, 422, 'site-duplicate', 'name');
    expect(taken.data.params.name).toContain(res.body.name);
    const removed = await here.api('delete', `sites/${res.body.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.deleted).toBe(true);
    expect(stored()).toEqual({ sites: 0, calendars: 1, secrets: 0 });
    expect((await here.api('get', 'events').query({ ...FULL, calendar: String(res.body.calendar_id) })).body.events ?? []).toEqual([]);
    expect((await here.api('delete', `sites/${res.body.id}`)).status).toBe(404);
  });

  it('finds a site without pretty permalinks by ?rest_route= and syncs through it', async () => {
    proxy.plainPermalinks = true;
    try {
      proxy.clear();
      const res = await here.api('post', 'sites').send({ url: proxy.url, user: 'owner', password: site.server.token, name: 'Plain' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.api_root).toBe(`${proxy.url}/?rest_route=%2Fcal%2Fevents%2Fv1%2F`);
      await here.server.sync.siteSettled(res.body.id);
      const [report] = await here.server.sync.syncSitesNow([res.body.id]);
      expect(report.error).toBeUndefined();
      expect((await here.api('get', 'events').query({ ...FULL, calendar: String(res.body.calendar_id) })).body.events.map((e: any) => e.title)).toEqual(['On the site']);
      const apiCalls = proxy.sent.filter((s) => s.query.get('rest_route')?.startsWith('/cal/events/v1/'));
      expect(apiCalls.length).toBeGreaterThan(3);
      expect(proxy.sent.filter((s) => s.path.startsWith('/wp-json/cal'))).toEqual([]);
      await here.api('delete', `sites/${res.body.id}`);
    } finally {
      proxy.plainPermalinks = false;
    }
  });
});
