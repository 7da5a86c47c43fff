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
import { tmpdir, cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { openDatabase, closeDatabase } from '../electron/server/store/db';
import { createStore, type Store } from '../electron/server/store';
import type { EventListQuery } from '../electron/server/store/events';
import type { LinkedListQuery } from '../electron/server/store/linked-posts';
import type { TermListQuery } from '../electron/server/store/terms';
import { seed } from './seed';
import { measureTransfer, measureWriteFloor } from './transfer';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 400);
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

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'almanac-bench-'));
  const now = new Date();
  const db = openDatabase(join(dataDir, 'almanac.sqlite'));
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
  // The baseline is the SQL itself: a store that keeps no list, total or JSON caches.
  const bare = createStore(db, { caches: false });
  const sqlCases: Record<string, () => void> = {
    'events: default list': () => eventListSql(bare, { ...base, ...windowQ, page: 1 }),
    'events: search': () => eventListSql(bare, { ...base, ...windowQ, page: 1, search: 'tasting' }),
    'events: category + venue': () => eventListSql(bare, { ...base, ...windowQ, page: 1, categories: [cat], venues: [venue] }),
    'events: page 500': () => eventListSql(bare, { ...base, startDate: '2000-01-01 00:00:00', endDate: '2100-01-01 00:00:00', page: 500 }),
    'venues: list': () => venueListSql(bare, { lang: 'en', statuses: base.statuses, page: 1, perPage: 10 }, now),
    'categories: list': () => termListSql(bare, { lang: 'en', page: 1, perPage: 10, hideEmpty: true, order: 'asc', orderby: 'name' }),
  };
  const sql: Record<string, Stats> = {};
  for (const [name, fn] of Object.entries(sqlCases)) sql[name] = timeSql(fn);
  closeDatabase(db);

  const server = await startServer(dataDir);
  const ns = '/cal/events/v1';
  const firstEvent = JSON.parse((await request(server.url, 'GET', `${ns}/events?per_page=1`)).body).events[0].id as number;
  const httpCases: Record<string, (i: number) => [string, string, unknown?]> = {
    'events: default list': () => ['GET', `${ns}/events`],
    'events: search': () => ['GET', `${ns}/events?search=tasting`],
    'events: category + venue': () => ['GET', `${ns}/events?categories=${cat}&venue=${venue}`],
    'events: page 500': () => ['GET', `${ns}/events?page=500&start_date=2000-01-01&end_date=2100-01-01`],
    'events: single read': () => ['GET', `${ns}/events/${firstEvent}`],
    'events: create': (i) => ['POST', `${ns}/events`, { title: `Bench ${i}`, start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 11:00:00', venue, categories: [cat] }],
    'events: update': (i) => ['PATCH', `${ns}/events/${firstEvent}`, { title: `Renamed ${i}` }],
    'venues: list': () => ['GET', `${ns}/venues`],
    'categories: list': () => ['GET', `${ns}/categories`],
    // The floor: a request refused before any work (unknown route), for what HTTP itself costs.
    'HTTP floor (404 no route)': () => ['GET', `${ns}/no-such-route`],
  };
  const results: Array<{ name: string; http: Stats; sql?: Stats; ratio?: number }> = [];
  for (const [name, make] of Object.entries(httpCases)) {
    const h = await timeHttp(server.url, make);
    const s = sql[name];
    results.push({ name, http: h, sql: s, ratio: s ? h.p50 / s.p50 : undefined });
  }
  // Lists, their totals and records' JSON are cached until the data changes, so the cases above
  // mostly measure a calendar being read again. These write before every list, so they show what a
  // list costs the first time after a change (as after every edit in the calendar window).
  for (const name of ['events: default list', 'events: search', 'events: category + venue', 'events: page 500', 'venues: list', 'categories: list']) {
    const afterWrite: number[] = [];
    const [method, path] = httpCases[name](0);
    for (let i = 0; i < ITERATIONS / 4; i++) {
      await request(server.url, 'PATCH', `${ns}/events/${firstEvent}`, { excerpt: `note ${i}` });
      const t = process.hrtime.bigint();
      const res = await request(server.url, method, path);
      afterWrite.push(Number(process.hrtime.bigint() - t) / 1e6);
      if (res.status >= 400) throw new Error(`${method} ${path} → ${res.status}`);
    }
    const h = stats(afterWrite);
    results.push({ name: `${name}, first after a write`, http: h, sql: sql[name], ratio: h.p50 / sql[name].p50 });
  }
  await Promise.all([...pools.values()].map((p) => p.close()));

  // Export and import at full size: this calendar out as iCalendar, then back into an empty one.
  process.stdout.write(`Measuring export and import of the ${EVENTS}-event calendar…\n`);
  const transfer = await measureTransfer(server);
  await server.stop();
  process.stdout.write('Measuring what SQLite alone needs to write those events…\n');
  const floor = measureWriteFloor(join(dataDir, 'almanac.sqlite'));
  rmSync(dataDir, { recursive: true, force: true });

  const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  const lines = [
    `Almanac API benchmark: ${EVENTS} events, ${ITERATIONS} requests per case, ${machine}`,
    '',
    '| case | p50 ms | p99 ms | req/s (4 clients) | bare SQL p50 ms | HTTP / SQL |',
    '|---|---:|---:|---:|---:|---:|',
    ...results.map((r) => `| ${r.name} | ${r.http.p50.toFixed(2)} | ${r.http.p99.toFixed(2)} | ${r.http.rps ? r.http.rps.toFixed(0) : '–'} | ${r.sql ? r.sql.p50.toFixed(3) : '–'} | ${r.ratio ? `${r.ratio.toFixed(1)}×` : '–'} |`),
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
      '',
    ].join('\n'),
  );
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  const file = join(root, 'bench/results/api.json');
  writeFileSync(file, JSON.stringify({ events: EVENTS, iterations: ITERATIONS, machine, seedSeconds, date: now.toISOString(), results, transfer, writeFloor: floor }, null, 2));
  process.stdout.write(`Figures written to ${file}\n`);
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err.stack ?? err}\n`);
    process.exit(1);
  },
);
