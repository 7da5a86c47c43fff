/**
 * The websites' UI in Chromium, by accessible names, while the server has no `/sites` yet (it is
 * served by the branch `sitesync`): the browser's requests to `/sites` and to `POST /sync?site=`
 * are answered by this test as SITES-API.md says the server answers them, and `GET /calendars`
 * gets the site's calendar added to the real server's answer. Everything else is the real server.
 * Once `/sites` is served, test/e2e/sites.e2e.test.ts drives the same UI against a second Almanac
 * and this suite steps aside.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Route } from 'playwright-core';
import { runBrowserSuites } from './browser';
import { e2eSuite, SHOTS } from './harness';
import { allRoutes } from '../../electron/server/routes';

const sitesRouteExists = allRoutes().some((r) => r.docPath === '/sites');

describe.skipIf(!runBrowserSuites || sitesRouteExists)('the websites UI, /sites answered by the test (e2e)', { timeout: 90_000 }, () => {
  const s = e2eSuite({ viewport: { width: 1400, height: 900 } });
  const sidebar = () => s.page.getByRole('complementary');
  const status = () => sidebar().getByRole('group', { name: 'Sync of Jazz Club' });

  /** What the stand-in holds and what it was asked. */
  const held = { sites: [] as Array<Record<string, unknown>>, posts: [] as unknown[], syncs: [] as string[], deletes: [] as string[] };
  const site = (over: Record<string, unknown> = {}) => ({
    id: 4,
    name: 'Jazz Club',
    url: 'https://jazz.example.org',
    api_root: 'https://jazz.example.org/wp-json/tribe/events/v1/',
    user: 'ana',
    calendar_id: 99,
    color: '#1badf8',
    created: new Date().toISOString(),
    last_sync: new Date(Date.now() - 5 * 60_000).toISOString(),
    last_error: null,
    pending: 2,
    conflicts: 0,
    state: 'ok',
    ...over,
  });
  const json = (route: Route, status: number, body: unknown) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });

  it('stands in for /sites', async () => {
    await s.page.route(
      (url) => /\/cal\/events\/v1\/sites(\/\d+)?$/.test(url.pathname),
      async (route) => {
        const req = route.request();
        if (req.method() === 'GET') return json(route, 200, held.sites);
        if (req.method() === 'DELETE') {
          held.deletes.push(new URL(req.url()).pathname);
          const previous = held.sites[0];
          held.sites = [];
          return json(route, 200, { deleted: true, previous });
        }
        const body = req.postDataJSON() as { password: string; name?: string };
        held.posts.push(body);
        if (body.password !== 'right-password') {
          return json(route, 422, { code: 'site-unauthorized', message: 'The site refused the login.', data: { status: 422, params: { password: 'The site refused this application password.' } } });
        }
        held.sites = [site({ name: body.name })];
        return json(route, 201, held.sites[0]);
      },
    );
    await s.page.route(
      (url) => url.pathname.endsWith('/cal/events/v1/sync') && url.searchParams.has('site'),
      async (route) => {
        held.syncs.push(new URL(route.request().url()).searchParams.get('site')!);
        held.sites = [site({ last_sync: new Date().toISOString(), pending: 0 })];
        return json(route, 202, {});
      },
    );
    await s.page.route(
      (url) => url.pathname.endsWith('/cal/events/v1/calendars'),
      async (route) => {
        const real = await route.fetch();
        const calendars = (await real.json()) as unknown[];
        if (held.sites.length) calendars.push({ id: 99, name: 'Jazz Club', color: '#1badf8', visible: true, account: null, account_id: null, synced: true, read_only: false, subscription: null, site: { id: 4, url: 'https://jazz.example.org' } });
        return json(route, 200, calendars);
      },
    );
    await s.page.reload();
    await s.page.getByRole('button', { name: 'Today', exact: true }).waitFor();
  });

  it('connects: a refused password is told on its field, then the site is listed with its calendar and state', async () => {
    await sidebar().getByRole('button', { name: 'Connect a website…' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Connect a website' });
    const password = dialog.getByLabel('Application password', { exact: true });
    expect(await password.getAttribute('type')).toBe('password');
    await dialog.getByLabel('Website address', { exact: true }).fill('jazz.example.org');
    await dialog.getByLabel('User name', { exact: true }).fill('ana');
    await password.fill('wrong');
    await dialog.getByLabel('Name (optional)', { exact: true }).fill('Jazz Club');
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect.poll(() => password.getAttribute('aria-invalid')).toBe('true');
    await dialog.getByText('The site refused this application password.').waitFor();
    expect(await dialog.getByLabel('Website address', { exact: true }).getAttribute('aria-invalid')).not.toBe('true');

    await password.fill('right-password');
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(held.posts.at(-1)).toEqual({ url: 'jazz.example.org', user: 'ana', password: 'right-password', name: 'Jazz Club' });
    const section = sidebar().getByRole('region', { name: 'Jazz Club' });
    await section.getByRole('checkbox', { name: 'Jazz Club', exact: true }).waitFor();
    await expect.poll(() => status().textContent()).toMatch(/Last synced 5 minutes ago/);
    expect(await status().textContent()).toMatch(/2 changes waiting to be sent/);
    await sidebar().screenshot({ path: join(SHOTS, 'sites-sidebar-stand-in.png') });
  });

  it('the editor says the site takes no repeating events where Repeat is', async () => {
    await s.page.keyboard.press('n');
    const editor = s.page.getByRole('dialog', { name: 'New event' });
    await editor.getByRole('combobox', { name: 'Calendar', exact: true }).selectOption({ label: 'Jazz Club' });
    await editor.getByRole('note').getByText('“Jazz Club” does not take repeating events', { exact: false }).waitFor();
    await editor.getByRole('button', { name: 'Cancel', exact: true }).click();
    await editor.waitFor({ state: 'detached' });
  });

  it('Sync now asks for that site, and shows it synced', async () => {
    await status().getByRole('button', { name: 'Sync Jazz Club now' }).click();
    await expect.poll(() => status().textContent()).toMatch(/Last synced now/);
    expect(held.syncs).toEqual(['Jazz Club']);
    expect(await status().textContent()).not.toMatch(/waiting/);
  });

  it('Remove asks first, then takes it off the sidebar', async () => {
    await sidebar().getByRole('button', { name: 'Remove website Jazz Club' }).click();
    const confirm = s.page.getByRole('dialog', { name: 'Remove the website Jazz Club?' });
    await confirm.getByText('Nothing is deleted on the website', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Remove website', exact: true }).click();
    await sidebar().getByRole('region', { name: 'Jazz Club' }).waitFor({ state: 'detached' });
    expect(held.deletes).toEqual(['/cal/events/v1/sites/4']);
    expect(await sidebar().getByRole('checkbox', { name: 'Jazz Club', exact: true }).count()).toBe(0);
  });
});
