/**
 * A website synced as a calendar, in Chromium by accessible names (issue 26, "What it must show"):
 * a second Almanac started here is the site. Connect it in the UI (a wrong password first, told
 * on its field), see its events in their calendar, edit one while the site is stopped (the sync
 * says so and the change waits), start the site again, Sync now, and read the change from the
 * site's own API.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBrowserSuites } from './browser';
import { e2eSuite, SHOTS } from './harness';
import { createServer, silentLogger, type AlmanacServer } from '../../electron/server';

const SITE_TOKEN = 'site-e2e-token-0123456789abcdef';

describe.skipIf(!runBrowserSuites)('a website as a calendar (e2e)', { timeout: 120_000 }, () => {
  // Sync only when asked: what waits to be sent is then there to be seen.
  const s = e2eSuite({ viewport: { width: 1400, height: 900 }, server: { syncIntervalMs: 0, syncDebounceMs: 0 } });
  let siteDir = '';
  let site: AlmanacServer | undefined;
  let port = 0;
  let gigId = 0;

  const startSite = async () => {
    site = await createServer({ dataDir: siteDir, port, token: SITE_TOKEN, log: silentLogger, announce: false });
    port = site.port;
  };
  const siteApi = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const res = await fetch(`${site!.url}/wp-json/cal/events/v1/${path}`, {
      method: init.method ?? 'GET',
      headers: { Authorization: `Basic ${Buffer.from(`ana:${SITE_TOKEN}`).toString('base64')}`, ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    return { status: res.status, json: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };

  const sidebar = () => s.page.getByRole('complementary');
  const month = () => s.page.getByRole('table', { name: 'March 2031' });
  const entry = (title: string | RegExp) => month().getByRole('button', { name: title });
  const status = () => sidebar().getByRole('group', { name: 'Sync of Jazz Club' });

  afterAll(async () => {
    await site?.close();
    if (siteDir) rmSync(siteDir, { recursive: true, force: true });
  });

  it('starts the site with its events', async () => {
    siteDir = mkdtempSync(join(tmpdir(), 'almanac-e2e-site-'));
    await startSite();
    const gig = await siteApi('events', { method: 'POST', body: { title: 'Jazz night', start_date: '2031-03-12 20:00:00', end_date: '2031-03-12 23:00:00', timezone: 'America/Sao_Paulo' } });
    expect(gig.status).toBe(201);
    gigId = gig.json.id;
    expect((await siteApi('events', { method: 'POST', body: { title: 'Rehearsal', status: 'draft', start_date: '2031-03-10 18:00:00', end_date: '2031-03-10 20:00:00', timezone: 'America/Sao_Paulo' } })).status).toBe(201);
  });

  it('connects it in the UI: a wrong password is told on its field, then its events come in their calendar', async () => {
    await sidebar().getByRole('button', { name: 'Connect a website…' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Connect a website' });
    const password = dialog.getByLabel('Application password', { exact: true });
    expect(await password.inputValue()).toBe('');
    expect(await password.getAttribute('type')).toBe('password');
    await dialog.getByLabel('Website address', { exact: true }).fill(site!.url);
    await dialog.getByLabel('User name', { exact: true }).fill('ana');
    await password.fill('not-the-token');
    await dialog.getByLabel('Name (optional)', { exact: true }).fill('Jazz Club');
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect.poll(() => password.getAttribute('aria-invalid')).toBe('true');
    expect((await s.api('sites')).json).toEqual([]);

    await password.fill(SITE_TOKEN);
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await dialog.waitFor({ state: 'detached', timeout: 30_000 });
    expect(JSON.stringify((await s.api('sites')).json)).not.toContain(SITE_TOKEN);

    await sidebar().getByRole('region', { name: 'Jazz Club' }).getByRole('checkbox', { name: 'Jazz Club', exact: true }).waitFor();
    await expect.poll(() => status().textContent(), { timeout: 30_000 }).toMatch(/Last synced/);
    await s.page.getByLabel('Go to date', { exact: true }).fill('2031-03-12');
    await s.page.getByRole('button', { name: 'Month', exact: true }).click();
    await entry(/Jazz night/).waitFor();
    await entry(/Rehearsal/).waitFor();
    await sidebar().screenshot({ path: join(SHOTS, 'sites-sidebar.png') });
  });

  it('an event edited while the site is stopped waits, and says why it was not sent', async () => {
    await site!.close();
    site = undefined;
    await entry(/Jazz night/).click();
    await s.page.getByRole('dialog', { name: 'Jazz night' }).getByRole('button', { name: 'Edit', exact: true }).click();
    const editor = s.page.getByRole('dialog', { name: 'Edit event' });
    await editor.getByLabel('Title', { exact: true }).fill('Jazz night with Ana');
    await editor.getByRole('button', { name: 'Save', exact: true }).click();
    await editor.waitFor({ state: 'detached' });
    await expect.poll(() => status().textContent()).toMatch(/1 change waiting to be sent/);
    await status().getByRole('button', { name: 'Sync Jazz Club now' }).click();
    await expect.poll(() => status().locator('.account-error').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await status().textContent()).toMatch(/1 change waiting to be sent/);
  });

  it('once the site is back, Sync now sends it, and the site has it', async () => {
    await startSite();
    await status().getByRole('button', { name: 'Sync Jazz Club now' }).click();
    await expect.poll(() => status().textContent(), { timeout: 30_000 }).toMatch(/Last synced now/);
    expect(await status().textContent()).not.toMatch(/waiting/);
    const onSite = await siteApi(`events/${gigId}`);
    expect(onSite.json.title).toBe('Jazz night with Ana');
    expect(onSite.json.start_date).toBe('2031-03-12 20:00:00');
  });
});
