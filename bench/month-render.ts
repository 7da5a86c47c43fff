/**
 * `npm run bench:ui` (and part of `npm run bench`): the month view's speed target of issue #4, a
 * month with 2,000 events in range drawn and interactive within 200 ms of the data's arrival.
 *
 * Starts the built calendar UI (`npm run build` first) on the real headless server in-process,
 * drives Debian's Chromium through playwright-core, and moves month by month through crowded
 * months (every events list from April 2032 on is answered with 2,000 synthetic events, half of
 * them occurrences of weekly series drawn with their repeat mark, see `crowded-month.ts`). For each month change it reads:
 * - wall: the app's own report, from the last page of events arriving to a painted page whose
 *   main thread is free again (a frame, then a task);
 * - CPU: the main thread's CPU time between the app's two user-timing marks, from a Chrome trace,
 *   which other processes on the machine disturb much less than the wall time.
 * Prints median and p90 of both (and the first crowded month apart: it also compiles the code
 * paths), with the load average, and writes them to bench/results/month-render.json.
 *
 * BENCH_MONTHS (default 15) sets the number of month changes. BENCH_UI_PROFILE=file.cpuprofile
 * also records a V8 CPU profile of one more month change (open it in Chrome's Performance panel);
 * BENCH_UI_TRACE=file.json a full Chrome trace of one (scripting, style, layout and paint).
 * Without /usr/bin/chromium it says so and exits 0.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { CHROMIUM, haveChromium, launchChromium } from './chromium';
import { createServer } from '../electron/server';
import { CROWDED_SERIES_SHARE, CROWDED_TOTAL, crowdedRender, mainThreadTime, resetRenders, routeCrowdedMonths, TRACE_CATEGORIES } from './crowded-month';

const root = resolve(import.meta.dirname, '..');
/** BENCH_UI_RENDERER points at another build (e.g. of an older commit, for before/after runs). */
const RENDERER = resolve(process.env.BENCH_UI_RENDERER ?? join(root, 'out/renderer'));
const MONTHS = Number(process.env.BENCH_MONTHS ?? 15);
const PROFILE = process.env.BENCH_UI_PROFILE;
const TRACE = process.env.BENCH_UI_TRACE;
/** The e2e test's zone: not UTC, so local-time placement is exercised as for a real user. */
const ZONE = 'America/Sao_Paulo';
const ZONE_BEHIND_UTC_HOURS = 3;
const TARGET_MS = 200;

function quantile(samples: number[], q: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}
const summary = (xs: number[]) => ({ median: quantile(xs, 0.5), p90: quantile(xs, 0.9), min: Math.min(...xs), max: Math.max(...xs) });
const load = () => loadavg().map((x) => Number(x.toFixed(2)));
const verdict = (median: number) => (median < TARGET_MS ? 'PASS' : 'FAIL');
const title = (d: Date) => d.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

async function main() {
  if (!haveChromium) {
    process.stdout.write(`Month render benchmark skipped: ${CHROMIUM} is missing (apt-get install -y chromium).\n`);
    return;
  }
  if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('out/renderer is missing: run `npm run build` first');

  const dataDir = mkdtempSync(join(tmpdir(), 'almanac-bench-ui-'));
  const server = await createServer({ dataDir, port: 0, rendererDir: RENDERER, log: () => {} });
  const browser = await launchChromium();
  try {
    const api = async (path: string, body?: unknown) => {
      const res = await fetch(new URL(path, `${server.url}/cal/events/v1/`), {
        method: body ? 'POST' : 'GET',
        headers: { Authorization: `Bearer ${server.token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (res.status >= 400) throw new Error(`${path} → ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    // A real record with a venue and a category is the template of every synthetic event.
    const venue = await api('venues', { venue: 'Town Hall', city: 'Springfield', country: 'United States' });
    await api('categories', { name: 'Work' });
    const created = await api('events', { title: 'Template', start_date: '2031-03-03 10:00:00', end_date: '2031-03-03 11:00:00', timezone: ZONE, categories: ['Work'], venue: venue.id });
    const template = await api(`events/${created.id}`);
    delete template.json_ld;

    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'en-US', timezoneId: ZONE, colorScheme: 'light' });
    const page: Page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.setDefaultTimeout(15_000);
    await page.goto(server.loginUrl);
    await page.getByRole('button', { name: 'Next', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Month', exact: true }).click();
    await routeCrowdedMonths(page, { template, from: '2032-04', utcOffsetHours: ZONE_BEHIND_UTC_HOURS });

    const loadBefore = load();
    // The first crowded month of a session also pays for compiling the code paths it uses.
    await resetRenders(page);
    await page.getByLabel('Go to date', { exact: true }).fill('2032-04-15');
    await page.getByRole('heading', { name: 'April 2032' }).waitFor();
    const first = await crowdedRender(page);

    const month = new Date(Date.UTC(2032, 3, 1));
    const next = async () => {
      month.setUTCMonth(month.getUTCMonth() + 1);
      await page.getByRole('button', { name: 'Next', exact: true }).click();
      await page.getByRole('heading', { name: title(month) }).waitFor();
    };
    const wall: number[] = [];
    const cpu: number[] = [];
    const drawn: number[] = [];
    for (let i = 0; i < MONTHS; i++) {
      await resetRenders(page);
      await browser.startTracing(page, { categories: TRACE_CATEGORIES });
      await next();
      const r = await crowdedRender(page);
      const trace = JSON.parse((await browser.stopTracing()).toString('utf8'));
      wall.push(r.ms);
      cpu.push(mainThreadTime(trace));
      drawn.push(r.drawn);
      // Let the page settle (idle callbacks, GC) so one change does not spill into the next.
      await page.waitForTimeout(150);
    }
    const loadAfter = load();

    // The series are drawn as series: their entries carry the repeat mark, in their accessible name too.
    const marked = await page.getByRole('button', { name: /weekly.*Repeats/ }).count();
    if (!marked) throw new Error('no entry of the month shows the repeat mark');

    // Interactive: the day's "+N more" opens that day's full list.
    await page.getByRole('button', { name: /^\+\d+ more$/ }).first().click();
    await page.getByRole('dialog', { name: /20\d\d/ }).waitFor();
    await page.keyboard.press('Escape');

    if (PROFILE) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await resetRenders(page);
      await cdp.send('Profiler.start');
      await next();
      await crowdedRender(page);
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(PROFILE, JSON.stringify(profile));
      process.stdout.write(`CPU profile of one month change written to ${PROFILE}\n`);
    }
    if (TRACE) {
      await resetRenders(page);
      await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'blink', 'cc', 'gpu'] });
      await next();
      await crowdedRender(page);
      writeFileSync(TRACE, await browser.stopTracing());
      process.stdout.write(`Chrome trace of one month change written to ${TRACE}\n`);
    }
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);

    const w = summary(wall);
    const c = summary(cpu);
    const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${browser.version()}`;
    const f = (ms: number) => ms.toFixed(1).padStart(6);
    process.stdout.write(
      [
        `Month view: ${MONTHS} month changes of ${CROWDED_TOTAL} events each, ${CROWDED_SERIES_SHARE * 100}% of them occurrences of weekly series (${drawn[0]} entries drawn), target < ${TARGET_MS} ms: ${verdict(w.median)}; ${machine}`,
        `load average ${loadBefore.join(' ')} before, ${loadAfter.join(' ')} after`,
        '',
        '| from the last page to drawn and idle | median ms | p90 ms | min ms | max ms |',
        '|---|---:|---:|---:|---:|',
        `| wall | ${f(w.median)} | ${f(w.p90)} | ${f(w.min)} | ${f(w.max)} |`,
        `| main-thread CPU | ${f(c.median)} | ${f(c.p90)} | ${f(c.min)} | ${f(c.max)} |`,
        `| first crowded month (wall, compiles too) | ${f(first.ms)} | | | |`,
        '',
      ].join('\n'),
    );
    mkdirSync(join(root, 'bench/results'), { recursive: true });
    const file = join(root, 'bench/results/month-render.json');
    writeFileSync(
      file,
      JSON.stringify(
        { date: new Date().toISOString(), machine, events: CROWDED_TOTAL, seriesShare: CROWDED_SERIES_SHARE, drawn: drawn[0], months: MONTHS, targetMs: TARGET_MS, pass: w.median < TARGET_MS, loadAverage: { before: loadBefore, after: loadAfter }, wall: w, cpu: c, firstMonthMs: first.ms, samples: { wall, cpu } },
        null,
        2,
      ),
    );
    process.stdout.write(`Figures written to ${file}\n`);
  } finally {
    await browser.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err.stack ?? err}\n`);
    process.exit(1);
  },
);
