/**
 * Repeating events end to end (issue #14): Debian's Chromium against the real server on a fresh
 * data directory, as calendar.e2e.test.ts runs it. A weekly series is created from the editor,
 * seen in month and week, one occurrence is dragged on its own, the time of all is changed, and
 * this and the following ones are deleted and brought back with Ctrl+Z; each step is checked
 * through the API. Screenshots of the Repeat control and the scope question go to screenshots/.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchChromium, runBrowserSuites } from './browser';
import { createServer } from '../../electron/server';

const ROOT = resolve(import.meta.dirname, '../..');
const RENDERER = join(ROOT, 'out/renderer');
const SHOTS = join(import.meta.dirname, 'screenshots');
/** Not UTC, so wall times in the event's zone and placement on screen are really exercised. */
const BROWSER_ZONE = 'America/Sao_Paulo';

type Server = Awaited<ReturnType<typeof createServer>>;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe.skipIf(!runBrowserSuites)('repeating events (e2e)', () => {
  let server: Server;
  let dataDir: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  let refused: string[] = [];
  let served: string[] = [];

  async function api(path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; json: Json }> {
    const url = new URL(path, `${server.url}/cal/events/v1/`);
    const res = await fetch(url, {
      method: init.method ?? 'GET',
      headers: { Authorization: `Bearer ${server.token}`, ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    return { status: res.status, json: (await res.json()) as Json };
  }

  /** The series' occurrences as the API lists them (published, or another status), by start. */
  async function occurrences(status = 'publish'): Promise<Json[]> {
    const { json } = await api(`events?start_date=2031-01-01&end_date=2031-12-31&per_page=50&search=Yoga&status=${status}`);
    return ((json.events ?? []) as Json[]).sort((a, b) => (a.start_date < b.start_date ? -1 : 1));
  }
  const starts = (list: Json[]) => list.map((e) => e.start_date);
  /** A rule's parts in a fixed order: the server writes them in its own (ical.js's) order. */
  const parts = (rule: string) => rule.split(';').sort();

  const dayCell = (label: string) => page.getByRole('cell', { name: label, exact: true });
  const yogaIn = (day: string) => dayCell(day).getByRole('button', { name: /Yoga/ });

  async function drag(from: Locator, to: Locator) {
    const a = (await from.boundingBox())!;
    const b = (await to.boundingBox())!;
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(a.x + a.width / 2 + 8, a.y + a.height / 2 + 4, { steps: 4 });
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
    await page.mouse.up();
  }

  /** A click on an occurrence opens its details card, named after the event, as a user sees it first. */
  async function openCard(day: string): Promise<Locator> {
    await yogaIn(day).click();
    const card = page.getByRole('dialog', { name: /^Yoga/ });
    await card.waitFor();
    return card;
  }

  /** The editor, reached as a user reaches it: click the occurrence, then Edit on its card. */
  async function openEditor(day: string): Promise<Locator> {
    await (await openCard(day)).getByRole('button', { name: 'Edit', exact: true }).click();
    const editor = page.getByRole('dialog', { name: 'Edit event' });
    await editor.waitFor();
    return editor;
  }

  async function gotoDate(date: string) {
    await page.getByLabel('Go to date', { exact: true }).fill(date);
  }

  /** Toasts left from earlier steps would cover the pictures; with a dialog open they cannot be reached. */
  async function dismissToasts() {
    // One may go by itself meanwhile (they time out): then the click finds nothing and the count is read again.
    const dismiss = page.getByRole('button', { name: 'Dismiss' });
    while (await dismiss.count()) await dismiss.first().click({ timeout: 1000 }).catch(() => {});
  }

  async function shoot(name: string, target?: Locator) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(150);
      if (target) await target.screenshot({ path: join(SHOTS, `${name}-${scheme}.png`) });
      else await page.screenshot({ path: join(SHOTS, `${name}-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }

  beforeAll(async () => {
    if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('out/renderer is missing: run `npm run build` first');
    mkdirSync(SHOTS, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'almanac-e2e-rec-'));
    const t0 = Date.now();
    server = await createServer({ dataDir, port: 0, rendererDir: RENDERER, log: (_level, line) => void served.push(`+${Date.now() - t0}ms ${line}`) });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'en-US', timezoneId: BROWSER_ZONE, colorScheme: 'light' });
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('response', (r) => {
      if (r.status() >= 400) refused.push(`${r.request().method()} ${r.url()} → ${r.status()}`);
    });
    page.on('requestfailed', (r) => refused.push(`${r.method()} ${r.url()} failed: ${r.failure()?.errorText}`));
    page.setDefaultTimeout(8000);
    // A single event in the same weeks, to tell the repeat mark from its absence.
    const single = await api('events', { method: 'POST', body: { title: 'Dentist', start_date: '2031-03-12 15:00:00', end_date: '2031-03-12 16:00:00', timezone: BROWSER_ZONE } });
    expect(single.status, JSON.stringify(single.json)).toBe(201);
  });

  afterEach(async ({ task }) => {
    const seen = refused;
    const log = served.slice(-40);
    refused = [];
    served = [];
    if (task.result?.state !== 'fail' || !page) {
      if (seen.length) console.log(`"${task.name}" passed; the server refused: ${JSON.stringify(seen)}\nServer log, last ${log.length} lines:\n${log.join('\n')}`);
      return;
    }
    const shown = await page
      .locator('[role=alert], [role=status]')
      .allInnerTexts()
      .catch(() => []);
    const picture = join(SHOTS, `failed-recurrence-${task.name.replace(/\W+/g, '-').slice(0, 60)}.png`);
    await page.screenshot({ path: picture }).catch(() => {});
    console.log(`"${task.name}" failed. Shown: ${JSON.stringify(shown)}. Refused requests: ${JSON.stringify(seen)}. Page errors: ${JSON.stringify(pageErrors)}. Picture: ${picture}\nServer log, last ${log.length} lines:\n${log.join('\n')}`);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const ALL = ['2031-03-11', '2031-03-13', '2031-03-18', '2031-03-20', '2031-03-25', '2031-03-27', '2031-04-01', '2031-04-03', '2031-04-08', '2031-04-10'];

  it('creates "every Tuesday and Thursday, 10 times" from the editor', async () => {
    await page.goto(server.loginUrl);
    await expect.poll(() => page.url()).toBe(`${server.url}/`);
    await gotoDate('2031-03-11');
    await page.getByRole('heading', { name: 'March 2031' }).waitFor();
    await page.getByRole('button', { name: 'New event', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'New event' });
    await dialog.getByLabel('Title', { exact: true }).fill('Yoga');
    await dialog.getByRole('combobox', { name: 'Repeat' }).selectOption({ label: 'Weekly' });
    // Tuesday, the start's own day, is already on.
    expect(await dialog.getByRole('checkbox', { name: 'Tuesday' }).isChecked()).toBe(true);
    await dialog.getByRole('checkbox', { name: 'Thursday' }).check();
    await dialog.getByRole('combobox', { name: 'Ends' }).selectOption({ label: 'After a number of times' });
    await dialog.getByRole('spinbutton', { name: 'Number of times' }).fill('10');
    await dialog.getByText('Every Tuesday and Thursday, 10 times').waitFor();
    await shoot('repeat-editor', dialog);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    const list = await occurrences();
    expect(list.map((e) => e.start_date.slice(0, 10))).toEqual(ALL);
    expect(list.every((e) => e.start_date.endsWith('09:00:00') && e.end_date.endsWith('10:00:00') && e.timezone === BROWSER_ZONE)).toBe(true);
    const first = list[0];
    expect(first.recurrence.rules.map(parts)).toEqual([parts('FREQ=WEEKLY;BYDAY=TU,TH;COUNT=10')]);
    expect(first.recurrence).toMatchObject({ rdates: [], exdates: [] });
    expect(new Set(list.map((e) => e.series_id))).toEqual(new Set([first.id]));
    expect(list.filter((e) => e.is_exception)).toEqual([]);
  });

  it('shows every occurrence with the repeat mark in month and week', async () => {
    for (const day of ['March 11, 2031', 'March 13, 2031', 'March 18, 2031', 'March 27, 2031', 'April 1, 2031', 'April 3, 2031']) {
      await expect.poll(() => yogaIn(day).textContent()).toMatch(/Repeats$/);
    }
    expect(await yogaIn('March 12, 2031').count()).toBe(0);
    await expect.poll(() => dayCell('March 12, 2031').getByRole('button', { name: /Dentist/ }).textContent()).not.toMatch(/Repeats/);
    // Fourteen days of the 42 on screen hold one, Tuesdays and Thursdays only.
    expect(await page.getByRole('button', { name: /Yoga/ }).count()).toBe(8);

    await page.getByRole('button', { name: 'Week', exact: true }).click();
    await page.getByRole('heading', { name: /Mar 9 – 15, 2031/ }).waitFor();
    await expect.poll(() => page.getByText(/^Yoga$/).count()).toBe(2);
    await expect.poll(() => page.getByText('Repeats', { exact: true }).count()).toBe(2);
    expect(await page.getByText('Dentist', { exact: true }).count()).toBe(1);
    await shoot('recurrence-week');
    await page.getByRole('button', { name: 'Day', exact: true }).click();
    await expect.poll(() => page.getByText('Repeats', { exact: true }).count()).toBe(1);
    await page.getByRole('button', { name: 'Agenda', exact: true }).click();
    // The agenda lists 30 days from the current date, March 11 to April 9: nine of the ten (April 10 is the 31st day).
    await page.getByRole('heading', { name: /Mar 11.*Apr 9, 2031/ }).waitFor();
    await expect.poll(() => page.getByText(/^Yoga$/).count()).toBe(9);
    await expect.poll(() => page.getByText('Repeats', { exact: true }).count()).toBe(9);
    await page.getByRole('button', { name: 'Month', exact: true }).click();
    await page.getByRole('heading', { name: 'March 2031' }).waitFor();
  });

  it('drags one occurrence to another day, for this event only', async () => {
    await dismissToasts();
    await drag(yogaIn('March 13, 2031'), dayCell('March 14, 2031'));
    const question = page.getByRole('dialog', { name: 'Edit repeating event' });
    await question.waitFor();
    await shoot('scope-question');
    await question.getByRole('button', { name: 'This event' }).click();
    await question.waitFor({ state: 'detached' });
    await yogaIn('March 14, 2031').waitFor();

    await expect.poll(async () => (await occurrences()).map((e) => e.start_date.slice(0, 10))).toEqual(ALL.map((d) => (d === '2031-03-13' ? '2031-03-14' : d)));
    const list = await occurrences();
    const moved = list.find((e) => e.start_date.startsWith('2031-03-14'))!;
    expect(moved).toMatchObject({ start_date: '2031-03-14 09:00:00', end_date: '2031-03-14 10:00:00', is_exception: true, recurrence_id: '2031-03-13 09:00:00' });
    expect(list.filter((e) => e.is_exception).length).toBe(1);
    // The rule itself is unchanged: the moved one is an exception, not an edit of the series.
    expect(list[0].recurrence.rules.map(parts)).toEqual([parts('FREQ=WEEKLY;BYDAY=TU,TH;COUNT=10')]);
  });

  it('changes the time of all of them from one occurrence', async () => {
    const editor = await openEditor('March 18, 2031');
    expect(await editor.getByRole('combobox', { name: 'Repeat' }).inputValue()).toBe('weekly');
    await editor.getByText('Every Tuesday and Thursday, 10 times').waitFor();
    await editor.getByLabel('Start time', { exact: true }).fill('18:00');
    await editor.getByLabel('End time', { exact: true }).fill('19:00');
    await editor.getByRole('button', { name: 'Save' }).click();
    const question = page.getByRole('dialog', { name: 'Edit repeating event' });
    await question.getByRole('button', { name: 'All events' }).click();
    await editor.waitFor({ state: 'detached' });

    await expect.poll(async () => (await occurrences()).filter((e) => e.start_date.endsWith('18:00:00')).length).toBe(9);
    const list = await occurrences();
    expect(list.length).toBe(10);
    for (const e of list) {
      if (e.is_exception) expect([e.start_date, e.end_date]).toEqual(['2031-03-14 09:00:00', '2031-03-14 10:00:00']);
      else expect([e.start_date.slice(11), e.end_date.slice(11)]).toEqual(['18:00:00', '19:00:00']);
    }
    await expect.poll(() => yogaIn('March 25, 2031').textContent()).toMatch(/^6p/);
  });

  it('deletes this and the following ones, and Ctrl+Z brings them back', async () => {
    // Delete straight from the details card: it asks which occurrences, as the editor does.
    const card = await openCard('March 25, 2031');
    await card.getByRole('button', { name: 'Delete', exact: true }).click();
    const question = page.getByRole('dialog', { name: 'Delete repeating event' });
    // Cancel leaves everything as it was and the card open, to choose again.
    await question.getByRole('button', { name: 'Cancel', exact: true }).click();
    await question.waitFor({ state: 'detached' });
    await card.waitFor();
    expect((await occurrences()).length).toBe(10);
    await card.getByRole('button', { name: 'Delete', exact: true }).click();
    await question.getByRole('button', { name: 'This and following events' }).click();
    await question.waitFor({ state: 'detached' });
    await yogaIn('March 27, 2031').waitFor({ state: 'detached' });
    await yogaIn('March 20, 2031').waitFor();

    const kept = await occurrences();
    expect(kept.map((e) => e.start_date.slice(0, 10))).toEqual(['2031-03-11', '2031-03-14', '2031-03-18', '2031-03-20']);
    // Cut short before the 25th, however the server words it (COUNT or UNTIL).
    expect(parts(kept[0].recurrence.rules[0]).filter((p) => !/^(COUNT|UNTIL)=/.test(p))).toEqual(['BYDAY=TU,TH', 'FREQ=WEEKLY']);
    expect(starts(await occurrences('trash')).map((s) => s.slice(0, 10))).toEqual(['2031-03-25', '2031-03-27', '2031-04-01', '2031-04-03', '2031-04-08', '2031-04-10']);

    await page.keyboard.press('Control+z');
    await yogaIn('March 27, 2031').waitFor();
    await expect.poll(async () => (await occurrences()).length).toBe(10);
    const back = await occurrences();
    expect(back[0].recurrence.rules.map(parts)).toEqual([parts('FREQ=WEEKLY;BYDAY=TU,TH;COUNT=10')]);
    expect(back.filter((e) => !e.is_exception).every((e) => e.start_date.endsWith('18:00:00'))).toBe(true);
    expect(await occurrences('trash')).toEqual([]);
  });

  it('undoes each choice with Ctrl+Z: this event, this and following, all events', async () => {
    const published = async () => (await occurrences()).map((e) => [e.start_date, e.title]);
    const before = await published();
    expect(before.length).toBe(10);
    const answer = async (dialog: string, scope: string) => {
      const question = page.getByRole('dialog', { name: dialog });
      await question.getByRole('button', { name: scope }).click();
      await question.waitFor({ state: 'detached' });
    };

    // Delete one occurrence, then undo: it is back and no longer a deleted date.
    await yogaIn('March 20, 2031').focus();
    await page.keyboard.press('Delete');
    await answer('Delete repeating event', 'This event');
    // Ctrl+Z once the calendar shows the change, as a user would: the API may have it a moment before the undo step exists.
    await yogaIn('March 20, 2031').waitFor({ state: 'detached' });
    await expect.poll(async () => (await occurrences()).length).toBe(9);
    expect((await occurrences())[0].recurrence.exdates).toEqual(['20310320T180000']);
    await page.keyboard.press('Control+z');
    await expect.poll(published).toEqual(before);
    expect((await occurrences())[0].recurrence.exdates).toEqual([]);

    // Retitle all, then undo.
    let editor = await openEditor('March 18, 2031');
    await editor.getByLabel('Title', { exact: true }).fill('Yoga flow');
    await editor.getByRole('button', { name: 'Save' }).click();
    await answer('Edit repeating event', 'All events');
    await editor.waitFor({ state: 'detached' });
    // The moved one changed its time on its own, not its title: it takes the new title too.
    await expect.poll(async () => (await occurrences()).filter((e) => e.title === 'Yoga flow').length).toBe(10);
    await page.keyboard.press('Control+z');
    await expect.poll(published).toEqual(before);

    // Move this and the following ones an hour later, then undo.
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByRole('heading', { name: 'April 2031' }).waitFor();
    editor = await openEditor('April 8, 2031');
    await editor.getByLabel('Start time', { exact: true }).fill('19:00');
    await editor.getByLabel('End time', { exact: true }).fill('20:00');
    await editor.getByRole('button', { name: 'Save' }).click();
    await answer('Edit repeating event', 'This and following events');
    await editor.waitFor({ state: 'detached' });
    await expect.poll(async () => (await occurrences()).filter((e) => e.start_date.endsWith('19:00:00')).map((e) => e.start_date.slice(0, 10))).toEqual(['2031-04-08', '2031-04-10']);
    await page.keyboard.press('Control+z');
    await expect.poll(published).toEqual(before);

    // Delete the whole series, then undo.
    // Double-click opens the editor too; its Delete asks the same question.
    await yogaIn('April 3, 2031').dblclick();
    editor = page.getByRole('dialog', { name: 'Edit event' });
    await editor.getByRole('button', { name: 'Delete', exact: true }).click();
    await answer('Delete repeating event', 'All events');
    await yogaIn('April 3, 2031').waitFor({ state: 'detached' });
    await expect.poll(async () => (await occurrences()).length).toBe(0);
    await page.keyboard.press('Control+z');
    await expect.poll(published).toEqual(before);
    await yogaIn('April 3, 2031').waitFor();
    await page.getByRole('button', { name: 'Previous', exact: true }).click();
    await page.getByRole('heading', { name: 'March 2031' }).waitFor();
  });

  it('offers the Repeat control in quick create too (screenshot)', async () => {
    await dismissToasts();
    const cell = dayCell('March 19, 2031');
    const box = (await cell.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height - 12);
    const dialog = page.getByRole('dialog', { name: 'New event' });
    await dialog.getByLabel('Title', { exact: true }).fill('Book club');
    await dialog.getByRole('combobox', { name: 'Repeat' }).selectOption({ label: 'Monthly' });
    await dialog.getByRole('combobox', { name: 'Monthly on' }).selectOption({ label: 'The third Wednesday' });
    await dialog.getByRole('combobox', { name: 'Ends' }).selectOption({ label: 'On a date' });
    await dialog.getByLabel('End date', { exact: true }).fill('2031-12-31');
    await dialog.getByText('Monthly on the third Wednesday until December 31, 2031').waitFor();
    await shoot('repeat-quick-create', dialog);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const { json } = await api('events?start_date=2031-01-01&end_date=2031-12-31&per_page=50&search=Book');
    expect((json.events as Json[]).map((e) => e.start_date.slice(0, 10))).toEqual([
      '2031-03-19', '2031-04-16', '2031-05-21', '2031-06-18', '2031-07-16', '2031-08-20', '2031-09-17', '2031-10-15', '2031-11-19', '2031-12-17',
    ]);
    // A click on a day makes an all-day event: its series ends on a date.
    expect((json.events as Json[])[0]).toMatchObject({ all_day: true });
    expect((json.events as Json[])[0].recurrence.rules.map(parts)).toEqual([parts('FREQ=MONTHLY;BYDAY=3WE;UNTIL=20311231')]);
    expect(pageErrors).toEqual([]);
  });
});
