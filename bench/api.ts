/**
 * `npm run bench`: API latency and throughput on a 100,000-event calendar.
 *
 * Builds the calendar in a temporary data directory, starts the real headless server in a child
 * process (so the client does not share its event loop), and measures over HTTP on loopback with
 * keep-alive. For each list it also times the same SQL run directly in better-sqlite3 (the list
 * query, its count, and the queries that load the page's venues, organizers and terms), so the
 * cost of HTTP, validation and serialisation shows as a ratio.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { Pool, type Dispatcher } from 'undici';
import Database from 'better-sqlite3';
import { tmpdir, cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { openDatabase, closeDatabase } from '../electron/server/store/db';
import { createStore, type Store } from '../electron/server/store';
import type { EventListQuery } from '../electron/server/store/events';
import type { LinkedListQuery } from '../electron/server/store/linked-posts';
import type { TermListQuery } from '../electron/server/store/terms';
import { seed, seedSeries } from './seed';
import { measureTransfer, measureWriteFloor } from './transfer';
import { useBuiltWorkers } from '../electron/server/import-export/worker-script';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 400);
/** A deep page: 500 at full size, within the calendar at the small sizes used to try the benchmark out. */
const DEEP_PAGE = Math.max(1, Math.min(500, Math.floor(EVENTS / 40)));
const DEEP = `events: page ${DEEP_PAGE}`;
/** Weekly series added on top of the single events for the repeating-events rows (issue #14). */
const SERIES = Number(process.env.BENCH_SERIES ?? 1000);
/**
 * Requests per repeating-events case: each writes hundreds of rows (a daily series, a month of
 * 2090), so 400 of them would grow the calendar the later cases measure by several times.
 */
const SERIES_ITERATIONS = Number(process.env.BENCH_SERIES_ITERATIONS ?? Math.min(ITERATIONS, 100));
/** Issue #14's targets. */
const LIST_RATIO_TARGET = 1.5;
const CREATE_SERIES_TARGET_MS = 50;
const CHANGE_SERIES_TARGET_MS = 300;
/** Issue #27's: a month the user opens answers within this (p50), wherever it lies. */
const FAR_MONTH_TARGET_MS = 200;
/** Issue #27's: a double-booking check answers within this (p50). */
const CONFLICTS_TARGET_MS = 2;
const TOKEN = 'bench-token-0123456789abcdef';
const root = resolve(import.meta.dirname, '..');

interface Stats {
  p50: number;
  p99: number;
  mean: number;
  rps?: number;
}

function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { p50: at(0.5), p99: at(0.99), mean: s.reduce((a, b) => a + b, 0) / s.length };
}

/**
 * One keep-alive connection per concurrent client, as a script talking to the API would hold. The
 * client is undici (Node's own fetch engine) rather than `node:http`: the latter spends about
 * 0.3 ms of CPU per request in the benchmark process itself, which showed up as server latency.
 */
const pools = new Map<string, Pool>();
function poolFor(base: URL): Pool {
  let pool = pools.get(base.origin);
  if (!pool) pools.set(base.origin, (pool = new Pool(base.origin, { connections: 8, pipelining: 1 })));
  return pool;
}

async function request(base: URL, method: string, path: string, body?: unknown): Promise<{ status: number; body: string }> {
  const data = body === undefined ? undefined : JSON.stringify(body);
  const res = await poolFor(base).request({
    method: method as Dispatcher.HttpMethod,
    path,
    headers: { authorization: `Bearer ${TOKEN}`, ...(data ? { 'content-type': 'application/json' } : {}) },
    body: data,
  });
  return { status: res.statusCode, body: await res.body.text() };
}

async function timeHttp(base: URL, make: (i: number) => [string, string, unknown?], n = ITERATIONS): Promise<Stats> {
  for (let i = 0; i < 20; i++) await request(base, ...make(i)); // warm up
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const [method, path, body] = make(i);
    const t = process.hrtime.bigint();
    const res = await request(base, method, path, body);
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (res.status >= 400 && !path.endsWith('/no-such-route')) throw new Error(`${method} ${path} → ${res.status} ${res.body.slice(0, 300)}`);
  }
  // Throughput: 4 clients at once for the same number of requests.
  const started = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < n) {
        const [method, path, body] = make(next++);
        await request(base, method, path, body);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { ...stats(samples), rps: n / seconds };
}

function timeSql(fn: () => void, n = ITERATIONS): Stats {
  for (let i = 0; i < 20; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return stats(samples);
}

/**
 * The SQL an events list runs when nothing is cached (the store below keeps no caches): the page,
 * its count, and the page's linked records.
 */
function eventListSql(store: Store, q: EventListQuery) {
  const { ids } = store.events.list(q);
  const rows = [...store.events.byIds(ids).values()];
  store.venues.byIds(rows.map((r) => r.venue_id).filter((v): v is number => v !== null));
  store.organizers.byIds([...store.events.organizersFor(ids).values()].flat());
  store.terms.forEvents(ids);
}

/** The same for a venues list: the page, its count, and the page's rows. */
function venueListSql(store: Store, q: LinkedListQuery, now: Date) {
  store.venues.byIds(store.venues.list(q, { canEdit: true }, now).ids);
}

/** The same for a categories list: the page, its count, its rows and their translations. */
function termListSql(store: Store, q: TermListQuery) {
  store.terms.translationsOfAll([...store.terms.byIds(store.terms.list('category', q).ids).values()]);
}

/** The server as users run it: the built command line (`npm run bench` builds it first). */
function startServer(dataDir: string): Promise<{ url: URL; token: string; stop: () => Promise<void> }> {
  const cli = join(root, 'out/main/cli.js');
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build first.`);
  const child = spawn(process.execPath, [cli, 'serve', '--data-dir', dataDir, '--port', '0', '--token', TOKEN], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The server logs every refused request; the floor case makes hundreds on purpose.
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (text: string) => {
    const lines = text.split('\n').filter((l) => l && !l.includes('/no-such-route 404'));
    if (lines.length) process.stderr.write(`${lines.join('\n')}\n`);
  });
  return new Promise((ok, fail) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /running at (http:\/\/\S+)/.exec(out);
      if (m) {
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        ok({ url: new URL(m[1]), token: TOKEN, stop: () => new Promise((done) => (child.on('exit', () => done()), child.kill('SIGTERM'))) });
      }
    });
    child.on('exit', (code) => fail(new Error(`server exited with ${code}: ${out}`)));
  });
}

/**
 * The least time an import can take given its two parts: writing runs on one thread (a single
 * transaction), parsing can run beside it on the other cores, and no core does more than all of it.
 */
function importBound(writeSeconds: number, parseSeconds: number, cores: number): number {
  return Math.max(writeSeconds, (writeSeconds + parseSeconds) / Math.max(1, cores));
}

/** What a list costs the first time after a change: a write before each request. */
async function timeAfterWrite(base: URL, firstEvent: number, method: string, path: string, n = ITERATIONS / 4): Promise<Stats> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    await request(base, 'PATCH', `/cal/events/v1/events/${firstEvent}`, { excerpt: `note ${i}` });
    const t = process.hrtime.bigint();
    const res = await request(base, method, path);
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (res.status >= 400) throw new Error(`${method} ${path} → ${res.status}`);
  }
  return stats(samples);
}

/**
 * One client, one request at a time, no throughput run: for the repeating-events cases, whose
 * requests write hundreds of rows each. `make` gets a counter that runs on through the warm-up,
 * so every request differs from the one before it.
 */
async function timeOneByOne(base: URL, make: (i: number) => [string, string, unknown?], n: number, warm = 5): Promise<{ stats: Stats; last: unknown }> {
  const samples: number[] = [];
  let last: unknown;
  for (let i = 0; i < warm + n; i++) {
    const [method, path, body] = make(i);
    const t = process.hrtime.bigint();
    const res = await request(base, method, path, body);
    if (i >= warm) samples.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (res.status >= 400) throw new Error(`${method} ${path} → ${res.status} ${res.body.slice(0, 300)}`);
    last = JSON.parse(res.body);
  }
  return { stats: stats(samples), last };
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function getJson(base: URL, path: string): Promise<Json> {
  const res = await request(base, 'GET', path);
  if (res.status >= 400) throw new Error(`GET ${path} → ${res.status} ${res.body.slice(0, 300)}`);
  return JSON.parse(res.body) as Json;
}

/** A sanity check of what a case did: the figures of a case that did not do its work are worthless. */
function expectThat(ok: boolean, what: string): void {
  if (!ok) throw new Error(`benchmark check failed: ${what}`);
}

const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL');
/** The 100,000-event import takes at most this many times what writing its rows alone takes (issue #18). */
const IMPORT_FLOOR_TARGET = 2;

interface SeriesRow {
  name: string;
  http: Stats;
  target: string;
  pass: boolean;
  note?: string;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'almanac-bench-'));
  const now = new Date();
  const dbFile = join(dataDir, 'almanac.sqlite');
  const db = openDatabase(dbFile);
  const store = createStore(db);
  store.settings.update({ timezone: 'Europe/Lisbon' });
  const t0 = process.hrtime.bigint();
  const seeded = seed(store, { events: EVENTS, now });
  const seedSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  process.stdout.write(`Built ${EVENTS} events in ${seedSeconds.toFixed(1)} s\n`);

  const cat = seeded.categoryIds.en[3];
  const venue = seeded.venueIds.en[7];
  const base = { lang: 'en' as const, statuses: ['publish' as const, 'future' as const, 'draft' as const, 'pending' as const, 'private' as const], perPage: 10 };
  const zoneNow = (d: number) => {
    const x = new Date(now.getTime() + d * 86400_000);
    return x.toISOString().slice(0, 10);
  };
  const windowQ = { startDate: `${zoneNow(-1)} 00:00:00`, endDate: `${zoneNow(730)} 23:59:59` };
  const sqlCases = (bare: Store): Record<string, () => void> => ({
    'events: default list': () => eventListSql(bare, { ...base, ...windowQ, page: 1 }),
    'events: search': () => eventListSql(bare, { ...base, ...windowQ, page: 1, search: 'tasting' }),
    'events: category + venue': () => eventListSql(bare, { ...base, ...windowQ, page: 1, categories: [cat], venues: [venue] }),
    [DEEP]: () => eventListSql(bare, { ...base, startDate: '2000-01-01 00:00:00', endDate: '2100-01-01 00:00:00', page: DEEP_PAGE }),
    'venues: list': () => venueListSql(bare, { lang: 'en', statuses: base.statuses, page: 1, perPage: 10 }, now),
    'categories: list': () => termListSql(bare, { lang: 'en', page: 1, perPage: 10, hideEmpty: true, order: 'asc', orderby: 'name' }),
  });
  // The planner's statistics, as the server has them when it opens the file: without them the
  // baseline picked a whole category's rows over a venue's few (54 ms instead of 1.5).
  db.pragma('optimize = 0x10002');
  // The baseline is the SQL itself: a store that keeps no list, total or JSON caches.
  const sql: Record<string, Stats> = {};
  for (const [name, fn] of Object.entries(sqlCases(createStore(db, { caches: false })))) sql[name] = timeSql(fn);
  closeDatabase(db);

  let server = await startServer(dataDir);
  const ns = '/cal/events/v1';
  const firstEvent = JSON.parse((await request(server.url, 'GET', `${ns}/events?per_page=1`)).body).events[0].id as number;
  const httpCases: Record<string, (i: number) => [string, string, unknown?]> = {
    'events: default list': () => ['GET', `${ns}/events`],
    'events: search': () => ['GET', `${ns}/events?search=tasting`],
    'events: category + venue': () => ['GET', `${ns}/events?categories=${cat}&venue=${venue}`],
    [DEEP]: () => ['GET', `${ns}/events?page=${DEEP_PAGE}&start_date=2000-01-01&end_date=2100-01-01`],
    'events: single read': () => ['GET', `${ns}/events/${firstEvent}`],
    'events: create': (i) => ['POST', `${ns}/events`, { title: `Bench ${i}`, start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 11:00:00', venue, categories: [cat] }],
    'events: update': (i) => ['PATCH', `${ns}/events/${firstEvent}`, { title: `Renamed ${i}` }],
    'venues: list': () => ['GET', `${ns}/venues`],
    'categories: list': () => ['GET', `${ns}/categories`],
    // The floor: a request refused before any work (unknown route), for what HTTP itself costs.
    'HTTP floor (404 no route)': () => ['GET', `${ns}/no-such-route`],
  };
  const listNames = ['events: default list', 'events: search', 'events: category + venue', DEEP, 'venues: list', 'categories: list'];
  const results: Array<{ name: string; http: Stats; sql?: Stats; ratio?: number }> = [];
  for (const [name, make] of Object.entries(httpCases)) {
    const h = await timeHttp(server.url, make);
    const s = sql[name];
    results.push({ name, http: h, sql: s, ratio: s ? h.p50 / s.p50 : undefined });
  }
  // Lists, their totals and records' JSON are cached until the data changes, so the cases above
  // mostly measure a calendar being read again. These write before every list, so they show what a
  // list costs the first time after a change (as after every edit in the calendar window).
  for (const name of listNames) {
    const [method, path] = httpCases[name](0);
    const h = await timeAfterWrite(server.url, firstEvent, method, path);
    results.push({ name: `${name}, first after a write`, http: h, sql: sql[name], ratio: h.p50 / sql[name].p50 });
  }

  // Export and import at full size: this calendar out as iCalendar, then back into an empty one.
  process.stdout.write(`Measuring export and import of the ${EVENTS}-event calendar…\n`);
  // The import runs here from the sources, as the floor does; its reading thread is the built one
  // the app starts (see useBuiltWorkers).
  useBuiltWorkers(join(root, 'out/main'));
  const transfer = await measureTransfer(server);
  await server.stop();
  process.stdout.write('Measuring what SQLite alone needs to write those events…\n');
  const floor = measureWriteFloor(dbFile);

  // Repeating events (issue #14): the same calendar plus weekly series, written as the API writes
  // them, then the same lists again (so today's figures and these come from one run) and the
  // series' own cases.
  const seriesDb = openDatabase(dbFile);
  const t1 = process.hrtime.bigint();
  const seededSeries = seedSeries(createStore(seriesDb), seeded, { series: SERIES, now });
  const seriesSeedSeconds = Number(process.hrtime.bigint() - t1) / 1e9;
  process.stdout.write(`Added ${SERIES} weekly series (${seededSeries.rows} occurrence rows) in ${seriesSeedSeconds.toFixed(1)} s\n`);
  seriesDb.pragma('optimize = 0x10002');
  const sqlWithSeries: Record<string, Stats> = {};
  for (const [name, fn] of Object.entries(sqlCases(createStore(seriesDb, { caches: false })))) sqlWithSeries[name] = timeSql(fn);
  closeDatabase(seriesDb);

  server = await startServer(dataDir);
  const today = (name: string) => results.find((r) => r.name === name)!.http;
  const listsWithSeries: Array<{ name: string; http: Stats; sql: Stats; todayP50: number; ratio: number; pass: boolean }> = [];
  const compare = (name: string, h: Stats, sqlName: string) => {
    const ratio = h.p50 / today(name).p50;
    listsWithSeries.push({ name, http: h, sql: sqlWithSeries[sqlName], todayP50: today(name).p50, ratio, pass: ratio <= LIST_RATIO_TARGET });
  };
  // The deep page asks for 2000–2100, longer than the horizon: it shows the rows there are and
  // writes none (counted below to show it).
  const rowsBeforeLists = countRows(dbFile);
  for (const name of listNames) compare(name, await timeHttp(server.url, httpCases[name]), name);
  for (const name of listNames) {
    const [method, path] = httpCases[name](0);
    compare(`${name}, first after a write`, await timeAfterWrite(server.url, firstEvent, method, path), name);
  }
  const listRows = countRows(dbFile) - rowsBeforeLists;

  const seriesRows: SeriesRow[] = [];
  // Months more than a month past the horizon, a different one each request, alternately in the
  // 2030s and the 2090s, so every request finds no rows; their occurrences are shown without
  // writing any (issue #27; before, each request wrote that month's rows, about 3,900). A far
  // window must cost the same wherever it lies, and answer within FAR_MONTH_TARGET_MS.
  const monthOf = (year: number, k: number) => {
    const y = year + Math.floor(k / 12);
    const month = (k % 12) + 1;
    const m = `${y}-${String(month).padStart(2, '0')}`;
    return { m, path: `${ns}/events?start_date=${m}-01&end_date=${m}-${new Date(Date.UTC(y, month, 0)).getUTCDate()}&per_page=50` };
  };
  const pairs = Math.ceil(SERIES_ITERATIONS / 2);
  const warmPairs = 2;
  const nearSamples: number[] = [];
  const farSamples: number[] = [];
  const rowsOf = (from: string, to: string) => countRows(dbFile, `start_local >= '${from}' AND start_local < '${to}'`);
  const [nearRowsBefore, farRowsBefore] = [rowsOf('2030', '2080'), rowsOf('2080', '2200')];
  let lastFar: Json = {};
  for (let k = 0; k < warmPairs + pairs; k++) {
    for (const [year, samples] of [[2031, nearSamples], [2091, farSamples]] as const) {
      const { path } = monthOf(year, k);
      const t = process.hrtime.bigint();
      const res = await request(server.url, 'GET', path);
      if (k >= warmPairs) samples.push(Number(process.hrtime.bigint() - t) / 1e6);
      if (res.status >= 400) throw new Error(`GET ${path} → ${res.status}`);
      if (year === 2091) lastFar = JSON.parse(res.body) as Json;
    }
  }
  const [nearRows, farRows] = [rowsOf('2030', '2080') - nearRowsBefore, rowsOf('2080', '2200') - farRowsBefore];
  const lastMonth = monthOf(2091, warmPairs + pairs - 1).m;
  // Within the month in Lisbon (the site's zone), so within a day of it in UTC.
  const monthFrom = Date.parse(`${lastMonth}-01T00:00:00Z`) - 86_400_000;
  const monthTo = Date.parse(`${nextMonth(lastMonth)}-01T00:00:00Z`) + 86_400_000;
  const inMonth = (e: Json) => {
    const at = Date.parse(`${e.utc_start_date.replace(' ', 'T')}Z`);
    return e.recurrence !== null && at >= monthFrom && at < monthTo;
  };
  expectThat(lastFar.total > 0 && lastFar.events.every(inMonth), `the list of ${lastMonth} shows that month's occurrences`);
  // Every open-ended weekly series meets every month: all of them must be in that month's lists
  // (every page, every language), as rows or as occurrences shown without rows (issue #27).
  const openEnded = idsOf(dbFile, 'SELECT id FROM event_series WHERE last_start IS NULL AND trashed = 0');
  // Each series is written in one language, so the three languages' lists together must show them all.
  const seriesShown = new Set<number>();
  for (const lang of ['en', 'pt-br', 'es']) {
    for (let page = 1; ; page++) {
      const res = await getJson(server.url, `${ns}/events?start_date=${lastMonth}-05&end_date=${lastMonth}-24&per_page=50&page=${page}&i18n_language=${lang}`);
      for (const e of res.events as Json[]) if (e.series_id !== null) seriesShown.add(e.series_id as number);
      if (page * 50 >= (res.total as number)) break;
    }
  }
  // Identities, not counts: another series shown must not make up for one left out.
  const missing = openEnded.filter((id) => !seriesShown.has(id));
  expectThat(openEnded.length > 0 && missing.length === 0, `every open-ended series is in the lists of ${lastMonth} (${openEnded.length} open-ended${missing.length ? `, ${missing.length} missing: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}` : ''})`);
  const months = warmPairs + pairs;
  const nearStats = stats(nearSamples);
  const farStats = stats(farSamples);
  seriesRows.push({
    name: 'series: list of a month in the 2030s, past the horizon (a new month each time)',
    http: nearStats,
    target: `< ${FAR_MONTH_TARGET_MS} ms: a month answers at once wherever it lies`,
    pass: nearStats.p50 < FAR_MONTH_TARGET_MS,
    note: `${nearRows} rows written for ${months} months (${(nearRows / months).toFixed(0)} per month, all languages)`,
  });
  seriesRows.push({
    name: 'series: list of a month in the 2090s (a new month each time)',
    http: farStats,
    target: `< ${FAR_MONTH_TARGET_MS} ms, and ≤ ${LIST_RATIO_TARGET}× the 2030s month (${(nearStats.p50 * LIST_RATIO_TARGET).toFixed(2)} ms): a far window costs the same wherever it lies`,
    pass: farStats.p50 < FAR_MONTH_TARGET_MS && farStats.p50 <= nearStats.p50 * LIST_RATIO_TARGET,
    note: `${farRows} rows written for ${months} months (${(farRows / months).toFixed(0)} per month, all languages); ${lastFar.total} events in the last month's English list`,
  });

  // Double bookings (issue #27): the check the editor makes before saving, a two-hour evening
  // slot on a different day each time within the next two years, at a venue, for an organizer, or
  // both, of any language, against the 100,000 events and the series' occurrences.
  const venuesAll = Object.values(seeded.venueIds).flat();
  const organizersAll = Object.values(seeded.organizerIds).flat();
  let conflictsFound = 0;
  const conflictStats = await timeOneByOne(
    server.url,
    (i) => {
      const d = zoneNow(1 + ((i * 37) % 700));
      const who = i % 3 === 0 ? `venue=${venuesAll[i % venuesAll.length]}` : i % 3 === 1 ? `organizer=${organizersAll[i % organizersAll.length]}` : `venue=${venuesAll[(i * 7) % venuesAll.length]}&organizer=${organizersAll[(i * 11) % organizersAll.length]},${organizersAll[(i * 13) % organizersAll.length]}`;
      return ['GET', `${ns}/events/conflicts?start_date=${d}%2019:00:00&end_date=${d}%2021:00:00&${who}`];
    },
    SERIES_ITERATIONS * 4,
  );
  for (let i = 0; i < 60; i++) {
    const d = zoneNow(1 + i * 11);
    conflictsFound += ((await getJson(server.url, `${ns}/events/conflicts?start_date=${d}%2000:00:00&end_date=${d}%2023:59:59&venue=${venuesAll[i % venuesAll.length]}`)).events as unknown[]).length;
  }
  expectThat(conflictsFound > 0, `the double-booking check finds the events holding a venue (${conflictsFound} on 60 whole days)`);
  seriesRows.push({
    name: 'events: double-booking check (GET /events/conflicts, a venue and/or organizers, a new evening each time)',
    http: conflictStats.stats,
    target: `< ${CONFLICTS_TARGET_MS} ms`,
    pass: conflictStats.stats.p50 < CONFLICTS_TARGET_MS,
    note: `${conflictsFound} events found holding a venue on 60 whole days`,
  });

  // A whole 500-occurrence series changed at once: every row of it exists (500 days < the horizon).
  const day = zoneNow(2);
  const recurrence = (rule: string) => ({ rules: [rule], rdates: [], exdates: [] });
  const created = JSON.parse(
    (
      await request(server.url, 'POST', `${ns}/events`, {
        title: 'Bench daily class',
        start_date: `${day} 09:00:00`,
        end_date: `${day} 10:00:00`,
        timezone: 'America/New_York',
        venue,
        categories: [cat],
        recurrence: recurrence('FREQ=DAILY;COUNT=500'),
      })
    ).body,
  ) as Json;
  const members = async () => (await getJson(server.url, `${ns}/events?post_parent=${created.id}&start_date=2000-01-01&end_date=2100-01-01&per_page=1`)).total as number;
  const memberCount = await members();
  expectThat(memberCount >= 499, `the 500-occurrence series has its rows (post_parent lists ${memberCount})`);
  const late = zoneNow(2 + 400);
  const lateOccurrence = async () => (await getJson(server.url, `${ns}/events?post_parent=${created.id}&start_date=${late}&end_date=${late}`)).events[0] as Json;
  const all = `${ns}/events/${created.id}?recurrence_scope=all`;
  const renamed = await timeOneByOne(server.url, (i) => ['PATCH', all, { title: `Bench class ${i}` }], SERIES_ITERATIONS);
  expectThat((await lateOccurrence()).title === (renamed.last as Json).title, 'an occurrence a year on has the new title');
  seriesRows.push({
    name: 'series: change the title of a whole 500-occurrence series',
    http: renamed.stats,
    target: `< ${CHANGE_SERIES_TARGET_MS} ms`,
    pass: renamed.stats.p50 < CHANGE_SERIES_TARGET_MS,
  });
  // 09:30–10:30 and 10:30–11:30 in turn: every request moves the whole series by an hour.
  const hourOf = (i: number) => String(9 + (i % 2)).padStart(2, '0');
  const moved = await timeOneByOne(
    server.url,
    (i) => ['PATCH', all, { start_date: `${day} ${hourOf(i)}:30:00`, end_date: `${day} ${String(10 + (i % 2)).padStart(2, '0')}:30:00` }],
    SERIES_ITERATIONS,
  );
  const lastHour = hourOf(5 + SERIES_ITERATIONS - 1);
  const movedLate = await lateOccurrence();
  const endHour = String(10 + ((5 + SERIES_ITERATIONS - 1) % 2)).padStart(2, '0');
  expectThat(movedLate.start_date.slice(11) === `${lastHour}:30:00` && movedLate.end_date.slice(11) === `${endHour}:30:00` && (await members()) === memberCount, `an occurrence a year on runs ${lastHour}:30–${endHour}:30 (it runs ${movedLate.start_date}–${movedLate.end_date}) and no row was lost`);
  seriesRows.push({
    name: 'series: change the time of a whole 500-occurrence series',
    http: moved.stats,
    target: `< ${CHANGE_SERIES_TARGET_MS} ms`,
    pass: moved.stats.p50 < CHANGE_SERIES_TARGET_MS,
  });

  // Last, as each one writes a horizon of rows the cases above should not see.
  const daily = await timeOneByOne(
    server.url,
    (i) => ['POST', `${ns}/events`, { title: `Bench daily ${i}`, start_date: `${day} 07:00:00`, end_date: `${day} 07:30:00`, venue, categories: [cat], recurrence: recurrence('FREQ=DAILY') }],
    SERIES_ITERATIONS,
  );
  // Its own list over the next 25 months: a longer window would write its rows on to 2100.
  const dailyRows = (await getJson(server.url, `${ns}/events?post_parent=${(daily.last as Json).id}&start_date=${day}&end_date=${zoneNow(2 + 760)}&per_page=1`)).total as number;
  expectThat(dailyRows > 300, `an open-ended daily series has its rows up to the horizon (${dailyRows})`);
  seriesRows.push({
    name: 'series: create an open-ended daily series',
    http: daily.stats,
    target: `< ${CREATE_SERIES_TARGET_MS} ms`,
    pass: daily.stats.p50 < CREATE_SERIES_TARGET_MS,
    note: `${dailyRows + 1} occurrence rows each, up to the horizon`,
  });
  await Promise.all([...pools.values()].map((p) => p.close()));
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });

  const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  const lines = [
    `Almanac API benchmark: ${EVENTS} events, ${ITERATIONS} requests per case, ${machine}`,
    '',
    '| case | p50 ms | p99 ms | req/s (4 clients) | bare SQL p50 ms | HTTP / SQL |',
    '|---|---:|---:|---:|---:|---:|',
    ...results.map((r) => `| ${r.name} | ${r.http.p50.toFixed(2)} | ${r.http.p99.toFixed(2)} | ${r.http.rps ? r.http.rps.toFixed(0) : '–'} | ${r.sql ? r.sql.p50.toFixed(3) : '–'} | ${r.ratio ? `${r.ratio.toFixed(1)}×` : '–'} |`),
    '',
    `The same lists with ${SERIES} weekly series added (${seededSeries.rows} occurrence rows; target: p50 within ${LIST_RATIO_TARGET}× of the row above without them):`,
    '',
    '| case | p50 ms | p99 ms | req/s (4 clients) | bare SQL p50 ms | p50 without series | ratio | result |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...listsWithSeries.map(
      (r) =>
        `| ${r.name} | ${r.http.p50.toFixed(2)} | ${r.http.p99.toFixed(2)} | ${r.http.rps ? r.http.rps.toFixed(0) : '–'} | ${r.sql.p50.toFixed(3)} | ${r.todayP50.toFixed(2)} | ${r.ratio.toFixed(2)}× | ${verdict(r.pass)} |`,
    ),
    `These lists wrote ${listRows} occurrence rows (${DEEP} asks for 2000–2100, longer than the horizon: it shows the rows there are).`,
    '',
    `Repeating events, ${SERIES_ITERATIONS} requests per case, one at a time:`,
    '',
    '| case | p50 ms | p99 ms | target (p50) | result |',
    '|---|---:|---:|---|---|',
    ...seriesRows.map((r) => `| ${r.name} | ${r.http.p50.toFixed(2)} | ${r.http.p99.toFixed(2)} | ${r.target} | ${verdict(r.pass)} |`),
    ...seriesRows.filter((r) => r.note).map((r) => `${r.name.replace(/^series: /, '')}: ${r.note}.`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  process.stdout.write(
    [
      `Export: ${transfer.exportedEvents} events as iCalendar (${transfer.exportMegabytes.toFixed(1)} MB) in ${transfer.exportSeconds.toFixed(2)} s (${((transfer.exportSeconds / transfer.exportedEvents) * 1e6).toFixed(0)} µs/event).`,
      `Import: those files (one per language) into one empty calendar, ${transfer.importedEvents} events in ${transfer.importSeconds.toFixed(2)} s (${((transfer.importSeconds / transfer.importedEvents) * 1e6).toFixed(0)} µs/event).`,
      `Peak memory of the benchmark process during the import (the export runs in the server): ${transfer.peakRssMegabytes.toFixed(0)} MB.`,
      `Writing alone: the same ${floor.events} events' rows, links and search index, copied into an empty calendar with prepared statements (no file read, nothing checked): ${floor.seconds.toFixed(2)} s (${floor.searchSeconds.toFixed(2)} s of it the search index), the least any import of them can take here.`,
      `Reading alone: ical.js's parser on each of the ${transfer.icalParse.events} VEVENTs of those files: ${transfer.icalParse.cpuSeconds.toFixed(2)} s of CPU (${((transfer.icalParse.cpuSeconds / transfer.icalParse.events) * 1e6).toFixed(0)} µs/event).`,
      `Together: one transaction writes on one thread, so with ${cpus().length} cores an import that parses with ical.js and writes these rows takes at least ${importBound(floor.seconds, transfer.icalParse.cpuSeconds, cpus().length).toFixed(2)} s here.`,
      `Import against writing alone: ${(transfer.importSeconds / floor.seconds).toFixed(2)}×, target ≤ ${IMPORT_FLOOR_TARGET}×: ${verdict(transfer.importSeconds <= IMPORT_FLOOR_TARGET * floor.seconds)}.`,
      '',
    ].join('\n'),
  );
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  const file = join(root, 'bench/results/api.json');
  writeFileSync(
    file,
    JSON.stringify(
      {
        events: EVENTS,
        iterations: ITERATIONS,
        machine,
        seedSeconds,
        date: now.toISOString(),
        results,
        series: {
          series: SERIES,
          occurrenceRows: seededSeries.rows,
          seedSeconds: seriesSeedSeconds,
          iterations: SERIES_ITERATIONS,
          targets: { listRatio: LIST_RATIO_TARGET, createMs: CREATE_SERIES_TARGET_MS, changeMs: CHANGE_SERIES_TARGET_MS, conflictsMs: CONFLICTS_TARGET_MS, farMonthMs: FAR_MONTH_TARGET_MS },
          lists: listsWithSeries,
          listRowsWritten: listRows,
          cases: seriesRows,
        },
        transfer,
        writeFloor: floor,
      },
      null,
      2,
    ),
  );
  process.stdout.write(`Figures written to ${file}\n`);
}

/** Event rows in the calendar file (read beside the running server), all or those matching `where`. */
function countRows(file: string, where = '1'): number {
  return countOf(file, `SELECT count(*) FROM events WHERE ${where}`);
}

function idsOf(file: string, sqlText: string): number[] {
  const ro = new Database(file, { readonly: true });
  try {
    return ro.prepare(sqlText).pluck().all() as number[];
  } finally {
    ro.close();
  }
}

function countOf(file: string, sqlText: string): number {
  const ro = new Database(file, { readonly: true });
  try {
    return ro.prepare(sqlText).pluck().get() as number;
  } finally {
    ro.close();
  }
}

/** `YYYY-MM` of the month after `m`. */
function nextMonth(m: string): string {
  const d = new Date(Date.UTC(+m.slice(0, 4), +m.slice(5, 7), 1));
  return d.toISOString().slice(0, 7);
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err.stack ?? err}\n`);
    process.exit(1);
  },
);
