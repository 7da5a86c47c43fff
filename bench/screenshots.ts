/**
 * The pictures issue #15 asks a person to look at: month, week, details card, search results,
 * settings and editor, light and dark, at 1366×768, 683×768 and 420×800, with the calendar shown
 * in Europe/Madrid while the computer (the browser) is in New York. Needs `npm run build`.
 *
 *   npx tsx bench/screenshots.ts [folder]    (default /tmp/almanac-shots)
 *
 * Each picture is also checked for what a person would notice at once: the page scrolling
 * sideways; the run fails on it.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from './chromium';
import { createServer } from '../electron/server';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = process.argv[2] ?? '/tmp/almanac-shots';
const COMPUTER = 'America/New_York';
const SIZES = [
  { name: '1366', width: 1366, height: 768 },
  { name: '683', width: 683, height: 768 },
  { name: '420', width: 420, height: 800 },
] as const;

async function main() {
  mkdirSync(OUT, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'almanac-shots-'));
  const server = await createServer({ dataDir, port: 0, rendererDir: join(ROOT, 'out/renderer'), log: () => {} });
  const browser = await launchChromium();
  const problems: string[] = [];
  try {
    const api = async (path: string, method = 'GET', body?: unknown) => {
      const res = await fetch(new URL(path, `${server.url}/cal/events/v1/`), {
        method,
        headers: { Authorization: `Bearer ${server.token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const venue = await api('venues', 'POST', { venue: 'Town Hall', address: '1 Main St', city: 'Springfield', country: 'United States' });
    const seed = [
      { title: 'Quarterly planning with the whole team', start_date: '2031-03-11 04:00:00', end_date: '2031-03-11 06:00:00', categories: ['Work'] },
      { title: 'Dentist', start_date: '2031-03-12 09:00:00', end_date: '2031-03-12 10:00:00', categories: ['Family'], reminders: [{ action: 'display', trigger: '-PT30M' }] },
      { title: 'Standup', start_date: '2031-03-12 03:00:00', end_date: '2031-03-12 03:30:00', categories: ['Work'] },
      { title: 'Spring concert', start_date: '2031-03-13 14:00:00', end_date: '2031-03-13 16:30:00', categories: ['Family'], venue: venue.id, description: '<p><b>Bring</b> a chair.</p>' },
      { title: 'Team offsite', start_date: '2031-03-17', end_date: '2031-03-19', all_day: true, categories: ['Work'] },
      { title: 'Picnic', start_date: '2031-03-15 06:00:00', end_date: '2031-03-15 09:00:00' },
      { title: 'Late call with Tokyo', start_date: '2031-03-12 19:30:00', end_date: '2031-03-12 20:30:00' },
    ];
    for (const body of seed) await api('events', 'POST', { timezone: COMPUTER, ...body });
    await api('settings', 'PATCH', { timezone: 'Europe/Madrid', work_start: '08:00' });

    const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'en-US', timezoneId: COMPUTER, colorScheme: 'light' });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(server.loginUrl);
    await page.getByRole('button', { name: 'Today', exact: true }).waitFor();

    const sideways = () =>
      page.evaluate<number>(
        `Math.max(document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth, (document.querySelector('.main')?.scrollWidth ?? 0) - (document.querySelector('.main')?.clientWidth ?? 0))`,
      );
    const shoot = async (p: Page, name: string) => {
      const over = await sideways();
      if (over > 0) problems.push(`${name}: scrolls ${over}px sideways`);
      for (const scheme of ['light', 'dark'] as const) {
        await p.emulateMedia({ colorScheme: scheme });
        await p.waitForTimeout(150);
        await p.screenshot({ path: join(OUT, `${name}-${scheme}.png`) });
      }
      await p.emulateMedia({ colorScheme: 'light' });
    };
    const event = (title: string) => page.getByRole('button', { name: new RegExp(title) });

    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.reload();
      await page.getByRole('button', { name: 'Today', exact: true }).waitFor();
      await page.getByLabel('Go to date', { exact: true }).fill('2031-03-12');
      await page.getByRole('button', { name: 'Month', exact: true }).click();
      await event('Dentist').first().waitFor();
      await shoot(page, `${size.name}-month`);

      await page.getByRole('button', { name: 'Week', exact: true }).click();
      await event('Dentist').first().waitFor();
      await shoot(page, `${size.name}-week`);
      await event('Dentist').first().click();
      await page.getByRole('dialog', { name: 'Dentist' }).waitFor();
      await shoot(page, `${size.name}-details`);
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: 'Month', exact: true }).click();
      // On a narrow window the search box may sit behind the toolbar's own button.
      const search = page.getByRole('searchbox', { name: 'Search events' });
      if (!(await search.isVisible())) await page.getByRole('button', { name: /Search/ }).first().click();
      await search.fill('a');
      await page.getByRole('region', { name: /^Search results/ }).getByRole('status').filter({ hasText: /match/ }).waitFor();
      await shoot(page, `${size.name}-search`);
      await search.fill('');
      await page.getByRole('region', { name: /^Search results/ }).waitFor({ state: 'detached' });

      const menu = page.getByRole('button', { name: 'Menu', exact: true });
      if (await menu.isVisible()) await menu.click();
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      await page.getByRole('dialog', { name: 'Settings' }).waitFor();
      await shoot(page, `${size.name}-settings`);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Settings' }).waitFor({ state: 'detached' });

      await event('Spring concert').first().click();
      await page.getByRole('dialog', { name: 'Spring concert' }).getByRole('button', { name: 'Edit', exact: true }).click();
      await page.getByRole('dialog', { name: 'Edit event' }).waitFor();
      await shoot(page, `${size.name}-editor`);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    }
    await context.close();
  } finally {
    await browser.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`pictures in ${OUT}`);
  if (problems.length) {
    console.error(problems.join('\n'));
    process.exitCode = 1;
  }
}

await main();
