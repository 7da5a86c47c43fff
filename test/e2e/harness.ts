/**
 * One browser suite's set-up: the real server on a fresh data directory, Debian's Chromium signed
 * in through the login URL, an API client to check what the UI did, and on failure what the page
 * showed and what the server refused. Call `e2eSuite()` inside a `describe`.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './browser';
import { createServer } from '../../electron/server';

export const ROOT = resolve(import.meta.dirname, '../..');
export const RENDERER = join(ROOT, 'out/renderer');
export const SHOTS = join(import.meta.dirname, 'screenshots');
/** The browser runs in another zone than UTC so local-time placement is really exercised. */
export const BROWSER_ZONE = 'America/Sao_Paulo';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Suite {
  server: Awaited<ReturnType<typeof createServer>>;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  pageErrors: string[];
  api(path: string, init?: { method?: string; body?: unknown; lang?: string }): Promise<{ status: number; json: Json }>;
  /** Events whose text matches, at any date an editor may store (year 1 to 9999). */
  eventsMatching(search: string, lang?: string): Promise<Json[]>;
}

export interface SuiteOptions {
  viewport?: { width: number; height: number };
  locale?: string;
  /** The server's clock (reminder tests move it), and whether reminders fire on its own timer. */
  now?: () => Date;
  reminderTimer?: boolean;
  /** The browser's (the computer's) zone; BROWSER_ZONE by default. */
  timezoneId?: string;
  /** More of the server's options (the sync's timers, say). */
  server?: Partial<Parameters<typeof createServer>[0]>;
  /** Ignore the page's Content-Security-Policy: checks what the page's own code lets run, without that net under it. */
  bypassCSP?: boolean;
}

export function e2eSuite(options: SuiteOptions = {}): Suite {
  const s = { pageErrors: [] as string[] } as Suite;
  let dataDir = '';
  let refused: string[] = [];
  let served: string[] = [];

  s.api = async (path, init = {}) => {
    const url = new URL(path, `${s.server.url}/cal/events/v1/`);
    if (init.lang) url.searchParams.set('i18n_language', init.lang);
    const res = await fetch(url, {
      method: init.method ?? 'GET',
      headers: { Authorization: `Bearer ${s.server.token}`, ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    return { status: res.status, json: (await res.json()) as Json };
  };
  s.eventsMatching = async (search, lang = 'en') => {
    const q = new URLSearchParams({ search, starts_before: '9999-12-31 23:59:59', ends_after: '0001-01-01 00:00:00', per_page: '50' });
    const { json } = await s.api(`events?${q}`, { lang });
    return (json.events ?? []) as Json[];
  };

  beforeAll(async () => {
    if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('out/renderer is missing: run `npm run build` first');
    mkdirSync(SHOTS, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'almanac-e2e-'));
    const t0 = Date.now();
    s.server = await createServer({ ...options.server, dataDir, port: 0, rendererDir: RENDERER, now: options.now, reminderTimer: options.reminderTimer, log: (_level, line) => void served.push(`+${Date.now() - t0}ms ${line}`) });
    s.browser = await launchChromium();
    s.context = await s.browser.newContext({
      viewport: options.viewport ?? { width: 1400, height: 900 },
      locale: options.locale ?? 'en-US',
      timezoneId: options.timezoneId ?? BROWSER_ZONE,
      colorScheme: 'light',
      bypassCSP: options.bypassCSP ?? false,
    });
    s.page = await s.context.newPage();
    s.page.on('pageerror', (e) => s.pageErrors.push(e.message));
    s.page.on('response', (r) => {
      if (r.status() >= 400) refused.push(`${r.request().method()} ${r.url()} → ${r.status()}`);
    });
    s.page.on('requestfailed', (r) => refused.push(`${r.method()} ${r.url()} failed: ${r.failure()?.errorText}`));
    s.page.setDefaultTimeout(8000);
    await s.page.goto(s.server.loginUrl);
    await s.page.getByRole('button', { name: 'Today', exact: true }).waitFor();
  });

  afterEach(async ({ task }) => {
    const seen = refused;
    const log = served.slice(-40);
    refused = [];
    served = [];
    if (task.result?.state !== 'fail' || !s.page) return;
    const shown = await s.page
      .locator('[role=alert], [role=status]')
      .allInnerTexts()
      .catch(() => []);
    const picture = join(SHOTS, `failed-${task.name.replace(/\W+/g, '-').slice(0, 60)}.png`);
    await s.page.screenshot({ path: picture }).catch(() => {});
    console.log(`"${task.name}" failed. Shown: ${JSON.stringify(shown)}. Refused requests: ${JSON.stringify(seen)}. Page errors: ${JSON.stringify(s.pageErrors)}. Picture: ${picture}\nServer log, last ${log.length} lines:\n${log.join('\n')}`);
  });

  afterAll(async () => {
    await s.browser?.close();
    await s.server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  return s;
}
