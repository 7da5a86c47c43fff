/**
 * The calendar page as the desktop window shows it, in Debian's Chromium (the engine Electron
 * embeds): the app's Content-Security-Policy on every response, `window.almanac` handed over as
 * the preload does, the login URL loaded. The page must work under that policy (no violation, no
 * error), call the API with the bridge's token, and load nothing from another origin.
 * Skipped with a message when /usr/bin/chromium or the built renderer is missing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { createServer, silentLogger, type AlmanacServer } from '../../electron/server';
import { contentSecurityPolicy, withContentSecurityPolicy } from '../../electron/main/content-security';
import { ROOT } from './fake-electron';

// The functions given to addInitScript and evaluate run in the page, where these exist.
declare const window: any; // eslint-disable-line @typescript-eslint/no-explicit-any
declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any

const CHROMIUM = '/usr/bin/chromium';
const RENDERER = join(ROOT, 'out', 'renderer');
const ready = existsSync(CHROMIUM) && existsSync(join(RENDERER, 'index.html'));
if (!ready) console.warn(`[electron] skipped the window check in Chromium: needs ${CHROMIUM} (apt-get install -y chromium) and out/renderer (npm run build).`);

describe.skipIf(!ready)('the calendar window in Chromium', () => {
  let server: AlmanacServer;
  let dataDir: string;
  let browser: Browser;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'almanac-window-'));
    server = await createServer({ dataDir, port: 0, rendererDir: RENDERER, log: silentLogger });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('works under the app’s policy, with the token from the bridge, and loads nothing from elsewhere', async () => {
    const created = await fetch(`${server.apiRoot}events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Window check', start_date: 'today 10:00', end_date: 'today 11:00', status: 'publish' }),
    });
    expect(created.status).toBe(201);

    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-US' });
    const page = await context.newPage();
    const policy = contentSecurityPolicy(server.url);
    const elsewhere: string[] = [];
    const apiAuth: Array<string | undefined> = [];
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (!url.startsWith(`${server.url}/`)) {
        elsewhere.push(url);
        return route.abort();
      }
      if (url.includes('/cal/events/v1/')) apiAuth.push(route.request().headers().authorization);
      const res = await route.fetch({ maxRedirects: 0 });
      const headers = withContentSecurityPolicy(res.headers(), policy);
      await route.fulfill({ response: res, headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v])) });
    });
    // What the preload exposes (the functions are not used on load).
    await context.addInitScript(
      ({ apiBase, token }) => {
        const w = window as unknown as Record<string, unknown>;
        w.__violations = [];
        document.addEventListener('securitypolicyviolation', (e: { violatedDirective: string; blockedURI: string }) => (w.__violations as string[]).push(`${e.violatedDirective} ${e.blockedURI}`));
        w.almanac = Object.freeze({
          apiBase,
          token,
          version: '0.1.0',
          importFile: async () => ({ status: 'cancelled' }),
          exportFile: async () => ({ status: 'cancelled' }),
          openDataFolder: async () => {},
          onCommand: () => () => {},
          authorizeSite: async () => ({ status: 'failed', reason: 'no-authorization' }),
        });
      },
      { apiBase: server.apiRoot, token: server.token },
    );
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });

    await page.goto(server.loginUrl);
    await expect.poll(() => page.url()).toBe(`${server.url}/`);
    await page.getByRole('button', { name: 'New event', exact: true }).waitFor({ timeout: 10_000 });
    await page.getByText('Window check').first().waitFor({ timeout: 10_000 });

    expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([]);
    // A source Chromium cannot parse in the page's own meta policy is ignored by it, not an error of the app.
    expect(errors.filter((e) => !/Content Security Policy directive .* contains an invalid source/.test(e))).toEqual([]);
    expect(elsewhere).toEqual([]);
    expect(apiAuth.length).toBeGreaterThan(0);
    expect(apiAuth.every((a) => a === `Bearer ${server.token}`)).toBe(true);

    // The policy is in force: an injected inline script and a call to another origin are blocked.
    const probe = await page.evaluate(async () => {
      const w = window as unknown as Record<string, unknown>;
      const s = document.createElement('script');
      s.textContent = 'window.__inline = 1';
      document.head.append(s);
      const fetched = await fetch('https://example.com/').then(
        () => 'fetched',
        () => 'blocked',
      );
      await new Promise((r) => setTimeout(r, 50));
      return { inline: w.__inline, fetched, violations: w.__violations as string[] };
    });
    expect(probe.inline).toBeUndefined();
    expect(probe.fetched).toBe('blocked');
    expect(probe.violations).toEqual(expect.arrayContaining([expect.stringMatching(/^script-src/), expect.stringMatching(/^connect-src https:\/\/example\.com/)]));
    expect(elsewhere).toEqual([]); // refused by the policy before any request left
    // The reminders' stream never ends, so its route.fetch is still waiting: let it go quietly.
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    await context.close();
  });
});
