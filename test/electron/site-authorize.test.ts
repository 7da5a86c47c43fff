/**
 * WordPress's "authorize application" flow in the desktop app (issue 26 item 1): "Approve in the
 * browser" opens the site's approval page, and the `almanac://` link it sends back fills in
 * "Connect a website" in the page, but only as the answer to an approval this app asked for. A
 * site stand-in serves what WordPress serves for it (the `Link` header, the index's
 * `authentication`); the app runs with the fake Electron and the real server.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startDesktopApp, type DesktopApp } from '../../electron/main/lifecycle';
import { APP_ID, authorizationUrl, createSiteAuthorizer, findAuthorizationEndpoint, parseCallback, siteBase, type Authorized } from '../../electron/main/site-authorize';
import { IPC } from '../../shared/desktop-bridge';
import { createServer, silentLogger, type AlmanacServer } from '../../electron/server';
import { FakeElectron, LockTable, removeTempDirs, tempDir, until, type FakeWindow } from './fake-electron';

/** What a WordPress site answers for discovery; `authorization: false` for one without application passwords. */
function wordpress(opts: { authorization?: boolean; html?: boolean } = {}) {
  let base = '';
  const server = createHttpServer((req, res) => {
    if (opts.html) {
      res.writeHead(req.url === '/' ? 200 : 404, { 'Content-Type': 'text/html' });
      return res.end('<html><body>Just a page</body></html>');
    }
    if (req.url === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html', Link: `<${base}/wp-json/>; rel="https://api.w.org/"` });
      return res.end('<html></html>');
    }
    if (req.url === '/wp-json/') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const authentication = opts.authorization === false ? [] : { 'application-passwords': { endpoints: { authorization: `${base}/wp-admin/authorize-application.php` } } };
      return res.end(JSON.stringify({ name: 'Jazz Club', namespaces: ['wp/v2', 'tribe/events/v1'], authentication, routes: {} }));
    }
    res.writeHead(404).end();
  });
  return new Promise<{ url: string; host: string; close(): Promise<void> }>((ok) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      base = `http://127.0.0.1:${port}`;
      ok({ url: base, host: `127.0.0.1:${port}`, close: () => new Promise<void>((done) => (server as Server).close(() => done())) });
    }),
  );
}

let site: Awaited<ReturnType<typeof wordpress>>;
beforeAll(async () => {
  site = await wordpress();
});
afterAll(async () => {
  await site?.close();
  removeTempDirs();
});

describe('finding the approval page', () => {
  it('follows the Link header of the address to the index and its authorization endpoint', async () => {
    const found = await findAuthorizationEndpoint(site.url, fetch);
    expect(found).toMatchObject({ status: 'found', endpoint: `${site.url}/wp-admin/authorize-application.php` });
  });

  it('says why it cannot: no such address, no site there, a site without the flow, an address that is none', async () => {
    const closed = await wordpress();
    await closed.close();
    expect(await findAuthorizationEndpoint(closed.url, fetch)).toEqual({ status: 'failed', reason: 'unreachable' });
    const page = await wordpress({ html: true });
    expect(await findAuthorizationEndpoint(page.url, fetch)).toEqual({ status: 'failed', reason: 'not-a-site' });
    await page.close();
    const noFlow = await wordpress({ authorization: false });
    expect(await findAuthorizationEndpoint(noFlow.url, fetch)).toEqual({ status: 'failed', reason: 'no-authorization' });
    await noFlow.close();
    // Another Almanac is a site, but has no approval page: its token is pasted instead.
    const almanac: AlmanacServer = await createServer({ dataDir: tempDir('almanac-authorize-site-'), announce: false, port: 0, token: 'authorize-test-token-0123456789', log: silentLogger });
    try {
      expect(await findAuthorizationEndpoint(almanac.url, fetch)).toEqual({ status: 'failed', reason: 'no-authorization' });
    } finally {
      await almanac.close();
    }
    expect(await findAuthorizationEndpoint('http://', fetch)).toEqual({ status: 'failed', reason: 'bad-address' });
  });

  it('reads a typed address as WordPress clients do', () => {
    expect(siteBase('example.org')?.href).toBe('https://example.org/');
    expect(siteBase('https://example.org/blog')?.href).toBe('https://example.org/blog/');
    expect(siteBase('ftp://example.org')).toBeUndefined();
  });

  it('asks WordPress for a password for Almanac, to come back through almanac://', () => {
    const u = new URL(authorizationUrl('https://jazz.example.org/wp-admin/authorize-application.php'));
    expect(Object.fromEntries(u.searchParams)).toEqual({ app_name: 'Almanac', app_id: APP_ID, success_url: 'almanac://site-authorized', reject_url: 'almanac://site-authorized?success=false' });
  });
});

describe('the link that comes back', () => {
  const link = (q: Record<string, string>) => `almanac://site-authorized?${new URLSearchParams(q)}`;

  it('reads an approval and a refusal; anything else is not one', () => {
    expect(parseCallback(link({ site_url: 'https://jazz.example.org', user_login: 'ana', password: 'abcd EFGH ijkl' }))).toEqual({ approved: true, siteUrl: 'https://jazz.example.org', user: 'ana', password: 'abcd EFGH ijkl' });
    expect(parseCallback(link({ success: 'false' }))).toEqual({ approved: false, siteUrl: undefined });
    expect(parseCallback('almanac://other?password=x')).toBeUndefined();
    expect(parseCallback(link({ site_url: 'https://jazz.example.org', user_login: 'ana' }))).toBeUndefined();
    expect(parseCallback('not a link')).toBeUndefined();
  });

  it('fills the dialog only for a site it asked, within 15 minutes', async () => {
    let clock = 1_000_000;
    const delivered: Authorized[] = [];
    const opened: string[] = [];
    const auth = createSiteAuthorizer({ fetch, openExternal: (u) => void opened.push(u), deliver: (a) => void delivered.push(a), now: () => clock });
    // Nothing asked yet: a page that opens such a link on its own slips nothing in.
    expect(auth.handleLink(link({ site_url: site.url, user_login: 'eve', password: 'planted' }))).toBe(false);
    expect(await auth.start(` ${site.url} `)).toEqual({ status: 'opened' });
    expect(opened[0]).toMatch(new RegExp(`^${site.url}/wp-admin/authorize-application\\.php\\?app_name=Almanac`));
    expect(auth.handleLink(link({ site_url: 'https://elsewhere.example', user_login: 'eve', password: 'planted' }))).toBe(false);
    expect(delivered).toEqual([]);
    expect(auth.handleLink(link({ site_url: `${site.url}/`, user_login: 'ana', password: 'abcd efgh' }))).toBe(true);
    expect(delivered).toEqual([{ url: site.url, user: 'ana', password: 'abcd efgh' }]);
    // Taken once.
    expect(auth.handleLink(link({ site_url: site.url, user_login: 'ana', password: 'again' }))).toBe(false);

    await auth.start(site.url);
    clock += 16 * 60_000;
    expect(auth.handleLink(link({ site_url: site.url, user_login: 'ana', password: 'late' }))).toBe(false);
    expect(delivered).toHaveLength(1);
  });
});

describe('in the desktop app', () => {
  const running: Array<{ fake: FakeElectron; app: DesktopApp<FakeWindow> }> = [];
  afterEach(async () => {
    for (const { fake, app } of running.splice(0)) {
      if (!fake.app.ended) fake.app.quit();
      await until(() => fake.app.ended || !app.server()).catch(() => {});
      await app.server()?.close();
    }
  });

  it('registers almanac://, opens the approval page for the page, and hands the page what came back (a second launch or open-url)', async () => {
    const locks = new LockTable();
    const argv = ['/usr/bin/electron', '.', '--data-dir', tempDir('almanac-authorize-')];
    const fake = new FakeElectron({ locks, argv });
    const app = startDesktopApp(fake.deps());
    running.push({ fake, app });
    await app.ready;
    expect(fake.app.protocols).toEqual(['almanac']);
    const contents = fake.window!.webContents;
    const page = `${app.server()!.url}/`;
    fake.ipcMain.send(contents, page, IPC.commandListeners, 1);

    // Only the app's own page may ask, with an address.
    await expect(fake.ipcMain.invoke(contents, 'https://evil.example/', IPC.authorizeSite, site.url)).rejects.toThrow(/Not available/);
    await expect(fake.ipcMain.invoke(contents, page, IPC.authorizeSite, 42)).rejects.toThrow(/address/);
    expect(await fake.ipcMain.invoke(contents, page, IPC.authorizeSite, site.url)).toEqual({ status: 'opened' });
    expect(fake.opened[0]).toContain('/wp-admin/authorize-application.php?app_name=Almanac');

    // Windows and Linux: the system starts Almanac again with the link; the first instance takes it.
    const back = `almanac://site-authorized?${new URLSearchParams({ site_url: site.url, user_login: 'ana', password: 'abcd efgh ijkl' })}`;
    const second = startDesktopApp(new FakeElectron({ locks, argv: [...argv, back] }).deps());
    expect(second.primary).toBe(false);
    await until(() => contents.sent.some((m) => (m.args[0] as { name: string }).name === 'site-authorized'));
    expect(contents.sent.at(-1)).toEqual({ channel: IPC.command, args: [{ name: 'site-authorized', url: site.url, user: 'ana', password: 'abcd efgh ijkl' }] });

    // macOS: open-url. The link the second launch used answers nothing now; a fresh approval's does.
    // The stale link goes first and the fresh one after, so when the fresh one has reached the page
    // the stale one has had its turn: only one more message may have come.
    const before = contents.sent.length;
    fake.app.emit('open-url', { preventDefault() {} }, back);
    expect(await fake.ipcMain.invoke(contents, page, IPC.authorizeSite, site.url)).toEqual({ status: 'opened' });
    const again = `almanac://site-authorized?${new URLSearchParams({ site_url: site.url, user_login: 'bia', password: 'mnop qrst uvwx' })}`;
    fake.app.emit('open-url', { preventDefault() {} }, again);
    await until(() => contents.sent.length > before && (contents.sent.at(-1)!.args[0] as { name: string }).name === 'site-authorized');
    expect(contents.sent.slice(before)).toEqual([{ channel: IPC.command, args: [{ name: 'site-authorized', url: site.url, user: 'bia', password: 'mnop qrst uvwx' }] }]);
  });
});
