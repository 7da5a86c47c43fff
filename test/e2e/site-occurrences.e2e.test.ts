/**
 * A website's occurrences that its Events Calendar Pro generates (issue 26 item 4), and the records
 * a site refused (item 6), in Chromium by accessible names. A second Almanac is the site, behind
 * the tests' proxy that shows it as the original plugin and one of its events as a Pro occurrence
 * (a provisional id, its series as `post_parent`): a real Almanac cannot serve one. The occurrence
 * opens with the reason and no Edit or Delete; a change that reached it behind the API is never
 * sent, is counted on the site's row, listed with the reason, and discarded there.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBrowserSuites } from './browser';
import { e2eSuite, SHOTS } from './harness';
import { createServer, silentLogger, type AlmanacServer } from '../../electron/server';
import { startProxy, type Proxy } from '../server/sites/_proxy';

const SITE_TOKEN = 'site-e2e-token-occurrences-0123456789';
const BASE = 10_000_000;

describe.skipIf(!runBrowserSuites)('a website\'s generated occurrences and refused records (e2e)', { timeout: 120_000 }, () => {
  const s = e2eSuite({ viewport: { width: 1400, height: 900 }, server: { syncIntervalMs: 0, syncDebounceMs: 0 } });
  let siteDir = '';
  let site: AlmanacServer | undefined;
  let proxy: Proxy | undefined;
  let yogaId = 0;

  const siteApi = async (path: string, body?: unknown) => {
    const res = await fetch(`${site!.url}/wp-json/cal/events/v1/${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { Authorization: `Basic ${Buffer.from(`ana:${SITE_TOKEN}`).toString('base64')}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  const sidebar = () => s.page.getByRole('complementary');
  const status = () => sidebar().getByRole('group', { name: 'Sync of Studio' });
  const entry = (title: RegExp) => s.page.getByRole('table', { name: 'March 2031' }).getByRole('button', { name: title });

  afterAll(async () => {
    await proxy?.close();
    await site?.close();
    if (siteDir) rmSync(siteDir, { recursive: true, force: true });
  });

  it('connects a Pro-shaped site whose one event is an occurrence', async () => {
    siteDir = mkdtempSync(join(tmpdir(), 'almanac-e2e-pro-'));
    site = await createServer({ dataDir: siteDir, port: 0, token: SITE_TOKEN, log: silentLogger, announce: false });
    const yoga = await siteApi('events', { title: 'Morning yoga', start_date: '2031-03-12 07:00:00', end_date: '2031-03-12 08:00:00' });
    expect(yoga.status).toBe(201);
    yogaId = yoga.json.id;
    expect((await siteApi('events', { title: 'Town fair', start_date: '2031-03-13 10:00:00', end_date: '2031-03-13 18:00:00' })).status).toBe(201);
    proxy = await startProxy(site.url);
    proxy.originalShape = true;
    proxy.rewrite = {
      event: (e) => (e.id === yogaId ? { ...e, id: BASE + yogaId, post_parent: 4242 } : e),
      path: (p) => p.replace(/\/events\/(\d+)$/, (m, id) => (Number(id) >= BASE ? `/events/${Number(id) - BASE}` : m)),
    };
    const added = await s.api('sites', { method: 'POST', body: { url: proxy.url, user: 'ana', password: SITE_TOKEN, name: 'Studio' } });
    expect(added.status).toBe(201);
    await expect.poll(async () => (await s.api('sync')).json.sites[0]?.last_sync ?? null, { timeout: 30_000 }).not.toBeNull();
    await s.page.reload();
    await s.page.getByRole('button', { name: 'Today', exact: true }).waitFor();
    await s.page.getByLabel('Go to date', { exact: true }).fill('2031-03-12');
    await s.page.getByRole('button', { name: 'Month', exact: true }).click();
    await entry(/Morning yoga/).waitFor();
    await entry(/Town fair/).waitFor();
  });

  it('the occurrence opens with the reason, and no Edit or Delete; the site\'s other event has them', async () => {
    await entry(/Morning yoga/).click();
    const card = s.page.getByRole('dialog', { name: 'Morning yoga' });
    await expect.poll(() => card.textContent()).toMatch(/an occurrence that the website “Studio” generates from a repeating event/);
    expect(await card.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
    expect(await card.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    await card.screenshot({ path: join(SHOTS, 'site-occurrence-card.png') });
    await s.page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });
    await entry(/Town fair/).click();
    const fair = s.page.getByRole('dialog', { name: 'Town fair' });
    await fair.getByRole('button', { name: 'Edit', exact: true }).waitFor();
    await s.page.keyboard.press('Escape');
    await fair.waitFor({ state: 'detached' });
  });

  it('a change that reached it behind the API is not sent: the site\'s row counts it, lists why, and discards it', async () => {
    const mine = (await s.api(`events?search=Morning%20yoga&per_page=5&starts_before=2031-12-31%2000:00:00`)).json.events[0];
    // As another program on the same file would change it.
    s.server.store.write(() => s.server.store.db.prepare('UPDATE events SET title = ? WHERE id = ?').run('Morning yoga (moved)', mine.id));
    proxy!.clear();
    await status().getByRole('button', { name: 'Sync Studio now' }).click();
    const count = status().getByRole('button', { name: '1 record not synced' });
    await count.waitFor({ timeout: 30_000 });
    expect(proxy!.sent.filter((r) => r.method !== 'GET')).toEqual([]);
    await count.click();
    const list = status().getByRole('list', { name: 'What Studio refused' });
    expect(await list.textContent()).toMatch(/Morning yoga \(moved\).*occurrence the site generates/);
    await sidebar().screenshot({ path: join(SHOTS, 'site-refused-list.png') });
    await list.getByRole('button', { name: /^Discard the change to “Morning yoga \(moved\)”/ }).click();
    await count.waitFor({ state: 'detached', timeout: 30_000 });
    await expect.poll(async () => (await s.api('sync')).json.sites[0].pending, { timeout: 30_000 }).toBe(0);
    await expect.poll(async () => (await s.api(`events/${mine.id}`)).json.title, { timeout: 30_000 }).toBe('Morning yoga');
    expect(proxy!.sent.filter((r) => r.method !== 'GET')).toEqual([]);
  });
});
