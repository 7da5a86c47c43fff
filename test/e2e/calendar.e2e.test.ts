/**
 * The calendar UI end to end: Debian's Chromium (playwright-core) against the real server started
 * in-process on a fresh data directory, signed in through the login URL like a user would be.
 * Every step done in the UI is also checked through the API.
 *
 * Needs the built renderer (`npm run build`, which `npm test` runs first) and /usr/bin/chromium.
 * Without Chromium the suite is skipped with a message, except under CI where it fails.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchChromium, runBrowserSuites } from './browser';
import { createServer } from '../../electron/server';
import { CROWDED_TOTAL, crowdedRender, mainThreadTime, resetRenders, routeCrowdedMonths, TRACE_CATEGORIES } from '../../bench/crowded-month';

const ROOT = resolve(import.meta.dirname, '../..');
const RENDERER = join(ROOT, 'out/renderer');
const SHOTS = join(import.meta.dirname, 'screenshots');
/** The browser runs in another zone than UTC so local-time placement is really exercised. */
const BROWSER_ZONE = 'America/Sao_Paulo';


type Server = Awaited<ReturnType<typeof createServer>>;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe.skipIf(!runBrowserSuites)('calendar UI (e2e)', () => {
  let server: Server;
  let dataDir: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  /** Refused API requests of the current test: a failure then says whether the server was asked and what it answered. */
  let refused: string[] = [];
  /** The server's own log of the current test's requests, with when each ended. */
  let served: string[] = [];
  /** Every change the page asked for in the current test (refusals alone hide a double submit). */
  let asked: string[] = [];

  async function api(path: string, init: { method?: string; body?: unknown; lang?: string } = {}): Promise<{ status: number; json: Json }> {
    const url = new URL(path, `${server.url}/cal/events/v1/`);
    if (init.lang) url.searchParams.set('i18n_language', init.lang);
    const res = await fetch(url, {
      method: init.method ?? 'GET',
      headers: { Authorization: `Bearer ${server.token}`, ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    return { status: res.status, json: (await res.json()) as Json };
  }

  async function findEvents(query: string, lang = 'en'): Promise<Json[]> {
    const { json } = await api(`events?start_date=2030-01-01&end_date=2035-12-31&per_page=50&${query}`, { lang });
    return (json.events ?? []) as Json[];
  }

  const eventButton = (title: string | RegExp) => page.getByRole('button', { name: title instanceof RegExp ? title : new RegExp(`^(\\S+ )?${title}`) });
  const dayCell = (label: string) => page.getByRole('cell', { name: new RegExp(label) });

  /** A click on the empty lower part of a day cell (the number at the top goes to the day view). */
  async function clickDay(cell: Locator) {
    const box = (await cell.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height - 12);
  }

  async function drag(from: Locator, to: Locator) {
    const a = (await from.boundingBox())!;
    const b = (await to.boundingBox())!;
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(a.x + a.width / 2 + 8, a.y + a.height / 2 + 4, { steps: 4 });
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
    await page.mouse.up();
  }

  async function gotoDate(date: string) {
    await page.getByLabel('Go to date', { exact: true }).fill(date);
  }

  async function shoot(name: string) {
    // Toasts left over from earlier steps would cover the picture.
    // One at a time from the first: a toast that times out meanwhile would leave a click on the
    // n-th one waiting out the whole action timeout (8 s of every screenshot before).
    const dismiss = page.getByRole('button', { name: 'Dismiss' });
    for (let i = 0; i < 8 && (await dismiss.count()) > 0; i++) await dismiss.first().click({ timeout: 1000 }).catch(() => {});
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(150);
      await page.screenshot({ path: join(SHOTS, `${name}-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }

  beforeAll(async () => {
    if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('out/renderer is missing: run `npm run build` first');
    mkdirSync(SHOTS, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'almanac-e2e-'));
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
    page.on('request', (r) => {
      if (r.method() !== 'GET') asked.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    page.setDefaultTimeout(8000);

    // Things to filter by and to make the screenshots look like a lived-in calendar.
    const venue = await api('venues', { method: 'POST', body: { venue: 'Town Hall', address: '1 Main St', city: 'Springfield', country: 'United States', geo_lat: 39.8017, geo_lng: -89.6436 } });
    const organizer = await api('organizers', { method: 'POST', body: { organizer: 'Arts Council', email: 'info@arts.example.org', phone: '555-0101' } });
    await api('venues', { method: 'POST', body: { venue: 'Riverside Park', city: 'Springfield', country: 'United States' } });
    const work = await api('categories', { method: 'POST', body: { name: 'Work' } });
    await api('categories', { method: 'POST', body: { name: 'Meetings', parent: work.json.id } });
    await api('categories', { method: 'POST', body: { name: 'Family' } });
    await api('tags', { method: 'POST', body: { name: 'outdoor' } });
    const seed: Json[] = [
      { title: 'Quarterly planning', start_date: '2031-03-03 10:00:00', end_date: '2031-03-03 12:00:00', categories: ['Work'], featured: true },
      { title: 'Team offsite', start_date: '2031-03-18', end_date: '2031-03-20', all_day: true, categories: ['Work'], sticky: true, venue: venue.json.id },
      { title: 'Spring concert', start_date: '2031-03-22 20:00:00', end_date: '2031-03-22 22:30:00', categories: ['Family'], venue: venue.json.id, organizer: [organizer.json.id], cost: '$25' },
      { title: 'Dentist', start_date: '2031-03-11 15:00:00', end_date: '2031-03-11 16:00:00', categories: ['Family'] },
      { title: 'Standup', start_date: '2031-03-10 09:00:00', end_date: '2031-03-10 09:30:00', categories: ['Meetings'] },
      { title: 'Design review', start_date: '2031-03-13 14:00:00', end_date: '2031-03-13 15:30:00', categories: ['Meetings'], status: 'draft' },
      { title: 'Picnic', start_date: '2031-03-15 12:00:00', end_date: '2031-03-15 15:00:00', tags: ['outdoor'], categories: ['Family'] },
      // Kept in Lisbon time (UTC+0 in March): 12:00 there is 09:00 in São Paulo.
      { title: 'Lisbon call', start_date: '2031-03-12 12:00:00', end_date: '2031-03-12 13:00:00', timezone: 'Europe/Lisbon', categories: ['Work'] },
    ];
    for (const body of seed) {
      const r = await api('events', { method: 'POST', body: { timezone: BROWSER_ZONE, ...body } });
      expect(r.status, JSON.stringify(r.json)).toBe(201);
    }
  });

  // A failure on CI leaves no browser to look at: keep what the page showed and what the server refused.
  afterEach(async ({ task }) => {
    const seen = refused;
    const log = served.slice(-40);
    const changes = asked;
    refused = [];
    served = [];
    asked = [];
    if (task.result?.state !== 'fail' || !page) {
      // A refusal the test did not look for is worth seeing even when the test passed.
      if (seen.length) console.log(`"${task.name}" passed; the server refused: ${JSON.stringify(seen)}\nServer log, last ${log.length} lines:\n${log.join('\n')}`);
      return;
    }
    const shown = await page
      .locator('[role=alert], [role=status]')
      .allInnerTexts()
      .catch(() => []);
    const picture = join(SHOTS, `failed-${task.name.replace(/\W+/g, '-').slice(0, 60)}.png`);
    await page.screenshot({ path: picture }).catch(() => {});
    console.log(`"${task.name}" failed. Shown: ${JSON.stringify(shown)}. Refused requests: ${JSON.stringify(seen)}. Page errors: ${JSON.stringify(pageErrors)}. Changes asked for: ${JSON.stringify(changes)}. Picture: ${picture}\nServer log, last ${log.length} lines:\n${log.join('\n')}`);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('signs in through the login URL and shows the calendar with named controls', async () => {
    await page.goto(server.loginUrl);
    await expect.poll(() => page.url()).toBe(`${server.url}/`);
    for (const name of ['New event', 'Today', 'Previous', 'Next']) await page.getByRole('button', { name, exact: true }).waitFor();
    await page.getByRole('searchbox', { name: 'Search events' }).waitFor();
    await gotoDate('2031-03-10');
    await page.getByRole('heading', { name: 'March 2031' }).waitFor();
    // Placed by UTC and shown in the viewer's zone: 12:00 in Lisbon is 9am in São Paulo.
    await eventButton(/^9a Lisbon call/).waitFor();
    await expect.poll(() => eventButton(/Quarterly planning/).textContent()).toMatch(/Featured/);
    await expect.poll(() => eventButton(/Team offsite/).first().textContent()).toMatch(/Sticky/);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByRole('heading', { name: 'April 2031' }).waitFor();
    await page.getByRole('button', { name: 'Previous', exact: true }).click();
    await page.getByRole('heading', { name: 'March 2031' }).waitFor();
  });

  let eventId = 0;

  it('creates an event by clicking on a day', async () => {
    await clickDay(dayCell('March 26, 2031'));
    const dialog = page.getByRole('dialog', { name: 'New event' });
    await dialog.waitFor();
    await expect.poll(() => page.evaluate<string | undefined>('document.activeElement?.id')).toBe('quick-title');
    await dialog.getByLabel('Title', { exact: true }).fill('Board game night');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await eventButton('Board game night').waitFor();

    const [created] = await findEvents('search=Board');
    expect(created).toMatchObject({ title: 'Board game night', all_day: true, status: 'publish', i18n_language: 'en' });
    expect(created.start_date).toBe('2031-03-26 00:00:00');
    expect(created.end_date).toBe('2031-03-26 23:59:59');
    eventId = created.id;
  });

  it('edits it in the full editor', async () => {
    await eventButton('Board game night').click();
    await page.getByRole('dialog', { name: 'Board game night' }).getByRole('button', { name: 'Edit', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit event' });
    await dialog.waitFor();
    await dialog.getByLabel('Title', { exact: true }).fill('Board game night at Ana’s');
    await dialog.getByLabel('All day', { exact: true }).uncheck();
    await dialog.getByLabel('Start time', { exact: true }).fill('19:00');
    await dialog.getByLabel('End time', { exact: true }).fill('22:30');
    await expect.poll(() => dialog.getByLabel('Time zone', { exact: true }).inputValue()).toBe(BROWSER_ZONE);
    await dialog.getByText('On the website', { exact: true }).click();
    await dialog.getByLabel('Featured', { exact: true }).check();
    const categories = dialog.getByRole('combobox', { name: 'Categories' });
    await categories.fill('Games');
    await dialog.getByRole('option', { name: 'Create “Games”' }).waitFor();
    await categories.press('Enter');
    await dialog.getByLabel('Venue', { exact: true }).selectOption({ label: 'Town Hall — Springfield' });
    await dialog.getByLabel('Cost', { exact: true }).fill('$5');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await eventButton(/^7p Board game night at Ana’s/).waitFor();

    const { json } = await api(`events/${eventId}`);
    expect(json).toMatchObject({ title: 'Board game night at Ana’s', all_day: false, featured: true, timezone: BROWSER_ZONE, cost: '$5' });
    expect(json.start_date).toBe('2031-03-26 19:00:00');
    expect(json.end_date).toBe('2031-03-26 22:30:00');
    expect(json.categories.map((c: Json) => c.name)).toEqual(['Games']);
    expect(json.venue.venue).toBe('Town Hall');
  });

  it('keeps the editor open with the server’s message when a save is refused', async () => {
    await eventButton(/Board game night/).dblclick();
    const dialog = page.getByRole('dialog', { name: 'Edit event' });
    await dialog.getByLabel('Website', { exact: true }).fill('not a web address');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/website/i);
    expect(await dialog.getByLabel('Website', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByLabel('Website', { exact: true }).inputValue()).toBe('not a web address');
    await dialog.getByLabel('Website', { exact: true }).fill('');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    const { json } = await api(`events/${eventId}`);
    expect(json.website).not.toBe('not a web address');
  });

  it('moves it by drag and drop (PATCH)', async () => {
    await drag(eventButton(/Board game night/), dayCell('March 28, 2031'));
    await expect.poll(async () => (await api(`events/${eventId}`)).json.start_date).toBe('2031-03-28 19:00:00');
    const { json } = await api(`events/${eventId}`);
    expect(json.end_date).toBe('2031-03-28 22:30:00');
    expect(json.all_day).toBe(false);
    expect(await eventButton(/Board game night/).evaluate((el) => el.closest('[role="cell"]')?.getAttribute('data-date'))).toBe('2031-03-28');
  });

  it('stretches and shrinks an all-day event by dragging its end (PATCH)', async () => {
    const offsite = eventButton(/Team offsite/).first();
    const id = ((await findEvents('search=offsite'))[0] as Json).id;
    const handle = offsite.locator('[data-resize]');
    await drag(handle, dayCell('March 21, 2031'));
    await expect.poll(async () => (await api(`events/${id}`)).json.end_date).toBe('2031-03-21 23:59:59');
    expect((await api(`events/${id}`)).json.start_date).toBe('2031-03-18 00:00:00');
    // Back to where it was; the screenshots below show it there.
    await drag(eventButton(/Team offsite/).last().locator('[data-resize]'), dayCell('March 20, 2031'));
    await expect.poll(async () => (await api(`events/${id}`)).json.end_date).toBe('2031-03-20 23:59:59');
  });

  it('filters it away and back by category, featured and search', async () => {
    const board = eventButton(/Board game night/);
    const work = page.getByRole('checkbox', { name: 'Work' });
    await work.check();
    await board.waitFor({ state: 'detached' });
    await eventButton(/Quarterly planning/).waitFor();
    const workId = ((await api('categories?hide_empty=false&search=Work')).json.categories as Json[]).find((c) => c.name === 'Work')!.id;
    expect((await findEvents(`categories=${workId}`)).map((e) => e.id)).not.toContain(eventId);
    await work.uncheck();
    await board.waitFor();

    await page.getByRole('checkbox', { name: 'Featured only' }).check();
    await board.waitFor();
    await eventButton(/Dentist/).waitFor({ state: 'detached' });
    expect((await findEvents('featured=true')).map((e) => e.id)).toContain(eventId);
    await page.getByRole('checkbox', { name: 'Featured only' }).uncheck();

    await page.keyboard.press('/');
    await expect.poll(() => page.evaluate<string | undefined>('document.activeElement?.type')).toBe('search');
    await page.keyboard.type('dentist');
    await board.waitFor({ state: 'detached' });
    await eventButton(/Dentist/).waitFor();
    expect((await findEvents('search=dentist')).map((e) => e.id)).not.toContain(eventId);
    await page.getByRole('searchbox', { name: 'Search events' }).fill('');
    await board.waitFor();
  });

  it('switches the interface language and the records language', async () => {
    await page.getByLabel('Interface language', { exact: true }).selectOption('pt-br');
    await page.getByRole('button', { name: 'Hoje', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Novo evento' }).waitFor();
    await page.getByRole('heading', { name: /março de 2031/i }).waitFor();

    await page.getByLabel('Idioma dos registros', { exact: true }).selectOption('pt-br');
    await eventButton(/Board game night/).waitFor({ state: 'detached' });
    expect((await findEvents('search=Board', 'pt-br')).length).toBe(0);

    await clickDay(dayCell('27 de março de 2031'));
    const dialog = page.getByRole('dialog', { name: 'Novo evento' });
    await dialog.getByLabel('Título', { exact: true }).fill('Noite de jogos');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await eventButton('Noite de jogos').waitFor();
    const [pt] = await findEvents('search=jogos', 'pt-br');
    expect(pt).toMatchObject({ title: 'Noite de jogos', i18n_language: 'pt-br' });
    expect((await findEvents('search=jogos', 'en')).length).toBe(0);

    await page.getByLabel('Idioma dos registros', { exact: true }).selectOption('en');
    await eventButton(/Board game night/).waitFor();
    await page.getByLabel('Idioma da interface', { exact: true }).selectOption('en');
    await page.getByRole('button', { name: 'Today', exact: true }).waitFor();
  });

  it('deletes it to the trash and restores it from the trash view', async () => {
    await eventButton(/Board game night/).click();
    const card = page.getByRole('dialog', { name: 'Board game night at Ana’s' });
    await card.getByRole('button', { name: 'Delete', exact: true }).click();
    await eventButton(/Board game night/).waitFor({ state: 'detached' });
    await page.getByRole('status').getByText(/Moved “Board game night at Ana’s” to the trash/).waitFor();
    expect((await api(`events/${eventId}`)).json.code).toBe('event-no-longer-available');
    expect((await findEvents('status=trash')).map((e) => e.id)).toContain(eventId);

    await page.getByRole('button', { name: 'Trash' }).click();
    await page.getByRole('button', { name: 'Restore Board game night at Ana’s' }).click();
    await page.getByRole('button', { name: 'Restore Board game night at Ana’s' }).waitFor({ state: 'detached' });
    expect((await api(`events/${eventId}`)).json.status).toBe('publish');
    await page.getByRole('button', { name: 'Calendar', exact: true }).click();
    await eventButton(/Board game night/).waitFor();
  });

  it('deletes with the Delete key and undoes with Ctrl+Z', async () => {
    await eventButton(/Board game night/).click();
    await page.getByRole('dialog', { name: 'Board game night at Ana’s' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await eventButton(/Board game night/).focus();
    await page.keyboard.press('Delete');
    await eventButton(/Board game night/).waitFor({ state: 'detached' });
    await expect.poll(async () => (await api(`events/${eventId}`)).json.code).toBe('event-no-longer-available');
    await page.keyboard.press('Control+z');
    await eventButton(/Board game night/).waitFor();
    expect((await api(`events/${eventId}`)).json.status).toBe('publish');
  });

  it('switches views with the keyboard', async () => {
    await page.keyboard.press('w');
    await page.getByRole('button', { name: 'Week', pressed: true }).waitFor();
    await page.keyboard.press('a');
    await page.getByRole('button', { name: 'Agenda', pressed: true }).waitFor();
    await page.keyboard.press('d');
    await page.getByRole('button', { name: 'Day', pressed: true }).waitFor();
    await page.keyboard.press('m');
    await page.getByRole('button', { name: 'Month', pressed: true }).waitFor();
    await page.keyboard.press('c');
    await page.getByRole('dialog', { name: 'New event' }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('manages venues: create, search, edit, delete', async () => {
    await page.getByRole('button', { name: 'Venues' }).click();
    await page.getByRole('heading', { name: 'Venues' }).waitFor();
    await page.getByRole('button', { name: 'New venue' }).click();
    const dialog = page.getByRole('dialog', { name: 'New venue' });
    await dialog.getByLabel('Venue name', { exact: true }).fill('Old Mill');
    await dialog.getByLabel('City', { exact: true }).fill('Shelbyville');
    await dialog.getByLabel('Latitude', { exact: true }).fill('39.41');
    await dialog.getByLabel('Longitude', { exact: true }).fill('-88.79');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Old Mill', exact: true }).waitFor();
    const mill = ((await api('venues?search=Mill')).json.venues as Json[])[0];
    expect(mill).toMatchObject({ venue: 'Old Mill', city: 'Shelbyville', geo_lat: 39.41, geo_lng: -88.79 });

    await page.getByRole('searchbox', { name: 'Search venues' }).fill('Shelby');
    await page.getByRole('button', { name: 'Town Hall', exact: true }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Edit Old Mill' }).click();
    await page.getByRole('dialog', { name: 'Edit venue' }).getByLabel('Phone', { exact: true }).fill('555-0199');
    await page.getByRole('dialog', { name: 'Edit venue' }).getByRole('button', { name: 'Save' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(async () => (await api(`venues/${mill.id}`)).json.phone).toBe('555-0199');
    await page.getByRole('searchbox', { name: 'Search venues' }).fill('');
    await page.getByRole('button', { name: 'Town Hall', exact: true }).waitFor();
    await shoot('venues');

    await page.getByRole('button', { name: 'Delete Old Mill' }).click();
    await expect.poll(async () => ((await api('venues?status=trash')).json.venues ?? []).map((v: Json) => v.id)).toContain(mill.id);
    await page.getByRole('button', { name: 'Old Mill', exact: true }).waitFor({ state: 'detached' });
  });

  it('saves screenshots of month, week, agenda and the editor in light and dark', async () => {
    await page.getByRole('button', { name: 'Calendar', exact: true }).click();
    await gotoDate('2031-03-12');
    await page.getByRole('button', { name: 'Month' }).click();
    await eventButton(/Lisbon call/).waitFor();
    await shoot('month');
    await page.getByRole('button', { name: 'Week' }).click();
    await page.getByRole('heading', { name: /Mar 9 – 15, 2031/ }).waitFor();
    await shoot('week');
    await page.getByRole('button', { name: 'Agenda' }).click();
    // The agenda runs from the current date on.
    await page.getByRole('heading', { name: /^Mar 12 – Apr 10, 2031$/ }).waitFor();
    await shoot('agenda');
    await page.getByRole('button', { name: 'Month' }).click();
    await eventButton(/Spring concert/).click();
    await page.getByRole('dialog', { name: 'Spring concert' }).waitFor();
    await shoot('details');
    await page.getByRole('dialog', { name: 'Spring concert' }).getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('dialog', { name: 'Edit event' }).waitFor();
    await shoot('editor');
    await page.keyboard.press('Escape');
    expect(pageErrors).toEqual([]);
  });

  // How fast is measured and reported (logged below), not asserted: a timing limit in a test on
  // a shared two-core machine fails at random; the figures go in the issue notes instead.
  it('draws months of 2,000 events, interactive, fetching only the visible range', async () => {
    const template = (await api(`events/${eventId}`)).json;
    delete template.json_ld;
    const total = CROWDED_TOTAL;
    // Any month from April 2032 on gets 2,000 events spread over its grid (see bench/crowded-month.ts,
    // shared with `npm run bench:ui`, which measures the same thing over more months).
    const { seen, stop } = await routeCrowdedMonths(page, { template, from: '2032-04', utcOffsetHours: 3 });
    const busyRender = () => crowdedRender(page, total);
    await page.getByRole('button', { name: 'Month', exact: true }).click();

    // The first crowded month of a session also pays for compiling the code paths it uses.
    await resetRenders(page);
    await gotoDate('2032-04-15');
    await page.getByRole('heading', { name: 'April 2032' }).waitFor();
    const first = await busyRender();
    console.log(`[e2e] first crowded month: 2,000 events drawn (${first.drawn} shown) ${first.ms.toFixed(1)} ms after the last page arrived`);

    // Then month after month: wall-clock time, and the main thread's own CPU time from the data's
    // arrival to the drawn calendar (trace marks set by the app), which other work disturbs less.
    const wall: number[] = [];
    const cpu: number[] = [];
    for (const title of ['May 2032', 'June 2032', 'July 2032']) {
      seen.length = 0;
      await resetRenders(page);
      await browser.startTracing(page, { categories: TRACE_CATEGORIES });
      await page.getByRole('button', { name: 'Next', exact: true }).click();
      await page.getByRole('heading', { name: title }).waitFor();
      wall.push((await busyRender()).ms);
      cpu.push(mainThreadTime(JSON.parse((await browser.stopTracing()).toString('utf8'))));
    }
    console.log(`[e2e] next crowded months: wall ${wall.map((ms) => ms.toFixed(1)).join(', ')} ms; main-thread CPU ${cpu.map((ms) => ms.toFixed(1)).join(', ')} ms`);

    // Interactive: the day's "+N more" opens the full list of that day at once.
    await page.getByRole('button', { name: /^\+\d+ more$/ }).first().click();
    const dayList = page.getByRole('dialog', { name: /2032/ });
    await dayList.waitFor();
    expect(await dayList.getByRole('button', { name: /Load \d+/ }).count()).toBeGreaterThan(40);
    await page.keyboard.press('Escape');
    await dayList.waitFor({ state: 'detached' });

    // Only the visible range (with a day of margin) was asked for, 50 at a time.
    expect(seen.length).toBe(40);
    for (const u of seen) {
      expect(u.searchParams.get('per_page')).toBe('50');
      const from = Date.parse(`${u.searchParams.get('ends_after')!.replace(' ', 'T')}Z`);
      const to = Date.parse(`${u.searchParams.get('starts_before')!.replace(' ', 'T')}Z`);
      expect((to - from) / 86_400_000).toBeLessThanOrEqual(44);
      // July 2032's grid runs Sun 27 June – Sat 7 August.
      expect(u.searchParams.get('ends_after')!.startsWith('2032-06-26')).toBe(true);
      expect(u.searchParams.get('starts_before')!.startsWith('2032-08-09')).toBe(true);
    }
    await stop();
    expect(pageErrors).toEqual([]);
  });
});
