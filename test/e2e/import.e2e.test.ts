/**
 * Importing from the UI, end to end: Chromium against the real server on a fresh data directory.
 * A file picked in the import dialog is checked, then imported in the background with its progress
 * on screen, and the events are then in the calendar and in the API.
 *
 * Needs the built renderer (`npm run build`, which `npm test` runs first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createServer } from '../../electron/server';
import { launchChromium, runBrowserSuites } from './browser';

const RENDERER = resolve(import.meta.dirname, '../../out/renderer');
const SHOTS = join(import.meta.dirname, 'screenshots');

/** `n` one-hour events a day apart from 3 March 2031, at 10:00 UTC. */
function calendarFile(n: number): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Almanac e2e//EN'];
  for (let i = 0; i < n; i++) {
    const day = new Date(Date.UTC(2031, 2, 3 + i)).toISOString().slice(0, 10).replace(/-/g, '');
    lines.push('BEGIN:VEVENT', `UID:e2e-import-${i}@tests`, 'DTSTAMP:20260101T000000Z', `DTSTART:${day}T100000Z`, `DTEND:${day}T110000Z`, `SUMMARY:Imported talk ${i}`, 'CATEGORIES:Imported', 'END:VEVENT');
  }
  return [...lines, 'END:VCALENDAR', ''].join('\r\n');
}

describe.skipIf(!runBrowserSuites)('import from the UI (e2e)', () => {
  let server: Awaited<ReturnType<typeof createServer>>;
  let dataDir: string;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  const total = async (search: string) => {
    const res = await fetch(`${server.apiRoot}events?start_date=2031-01-01&end_date=2045-01-01&search=${search}&per_page=1`, { headers: { Authorization: `Bearer ${server.token}` } });
    return ((await res.json()) as { total?: number }).total ?? 0;
  };

  beforeAll(async () => {
    if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('out/renderer is missing: run `npm run build` first');
    mkdirSync(SHOTS, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'almanac-e2e-import-'));
    server = await createServer({ dataDir, port: 0, rendererDir: RENDERER, log: () => {} });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'en-US', timezoneId: 'UTC', colorScheme: 'light' });
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.setDefaultTimeout(15_000);
    await page.goto(server.loginUrl);
    await page.getByRole('button', { name: 'New event' }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('checks a file, imports it with progress shown, and the events appear', async () => {
    const n = 1000;
    const file = { name: 'talks.ics', mimeType: 'text/calendar', buffer: Buffer.from(calendarFile(n)) };
    await page.getByRole('button', { name: 'Import…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import' });
    await dialog.getByLabel('File').setInputFiles(file);

    // A check first: it says what would happen and writes nothing.
    await dialog.getByRole('button', { name: 'Check file' }).click();
    await dialog.getByText(`Trial import: ${n} would be new, 0 updated, 0 skipped`).waitFor({ timeout: 120_000 });
    expect(await total('Imported')).toBe(0);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(100);
      await page.screenshot({ path: join(SHOTS, `import-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // Then for real: the progress bar is shown while the server works, then the report.
    await dialog.getByRole('button', { name: 'Import it now' }).click();
    const progress = dialog.getByRole('progressbar', { name: 'Import progress' });
    await progress.waitFor();
    await dialog.getByText(`Imported: ${n} new, 0 updated, 0 skipped`).waitFor({ timeout: 120_000 });
    expect(await total('Imported')).toBe(n);

    // The calendar shows them without a reload: March 2031 has the first of them.
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    await page.getByLabel('Go to date', { exact: true }).fill('2031-03-05');
    await page.getByRole('button', { name: /Imported talk 2\b/ }).first().waitFor();
    expect(pageErrors).toEqual([]);
  }, 300_000);
});
