/**
 * `npm run bench:soak`: a load soak of the API (issue #7). A real server (`createServer` on a
 * temporary data directory, seeded with a few thousand events) runs in a child process, so its
 * memory is measured alone; this process drives it with several keep-alive loopback clients as
 * fast as they go, for SOAK_SECONDS (default 60), with a mix of filtered lists, single reads,
 * creates, updates and deletes.
 *
 * Reports the requests, req/s, errors (any answer other than the expected status, or a broken
 * connection: there must be none, else the exit code is 1), latency p50/p90/p99/max per operation,
 * the server's event-loop delay, and its memory sampled every second (RSS and V8 heap: first, last,
 * max) with the heap after a full GC at 10 s and at the end, to say whether memory stays flat.
 *
 *   SOAK_SECONDS=60 SOAK_CLIENTS=8 SOAK_EVENTS=3000 npm run bench:soak
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { seededRandom } from './seed';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 8);
const EVENTS = Number(process.env.SOAK_EVENTS ?? 3000);
const TOKEN = 'soak-token-0123456789abcdefghijkl';
const root = resolve(import.meta.dirname, '..');
const NS = '/cal/events/v1';

interface Mem {
  t: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

type ToParent =
  | { type: 'ready'; url: string; eventIds: number[]; venueIds: number[]; categoryIds: number[]; tagIds: number[]; seedSeconds: number }
  | { type: 'mem'; mem: Mem; loopP99: number; loopMax: number }
  | { type: 'gc'; mem: Mem };
type ToChild = { type: 'gc' } | { type: 'stop' };

// ---------------------------------------------------------------------------------------------
// The server process.

async function serverChild(dataDir: string) {
  const { createServer, silentLogger } = await import('../electron/server');
  const { seed } = await import('./seed');
  const send = (m: ToParent) => process.send!(m);
  const server = await createServer({ dataDir, token: TOKEN, port: 0, log: silentLogger, announce: false });
  server.store.settings.update({ timezone: 'Europe/Lisbon' });
  const t0 = performance.now();
  const seeded = seed(server.store, { events: EVENTS, now: new Date() });
  const seedSeconds = (performance.now() - t0) / 1000;
  const eventIds = (server.db.prepare("SELECT id FROM events WHERE lang = 'en'").pluck().all() as number[]);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run the server child with --expose-gc');
  const mem = (): Mem => {
    const m = process.memoryUsage();
    return { t: performance.now(), rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external };
  };
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  setInterval(() => {
    send({ type: 'mem', mem: mem(), loopP99: loop.percentile(99) / 1e6, loopMax: loop.max / 1e6 });
    loop.reset();
  }, 1000).unref();
  process.on('message', (m: ToChild) => {
    if (m.type === 'gc') {
      gc();
      gc();
      send({ type: 'gc', mem: mem() });
    } else if (m.type === 'stop') void server.close().then(() => process.exit(0));
  });
  process.on('disconnect', () => void server.close().then(() => process.exit(0)));
  send({ type: 'ready', url: server.url, eventIds, venueIds: seeded.venueIds.en, categoryIds: seeded.categoryIds.en, tagIds: seeded.tagIds.en, seedSeconds });
}

// ---------------------------------------------------------------------------------------------
// The load.

/** Latencies in ms, in a growing typed array (off the V8 heap, so the client's own memory stays small). */
class Samples {
  private data = new Float64Array(1 << 14);
  n = 0;
  add(ms: number) {
    if (this.n === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.n++] = ms;
  }
  summary() {
    const s = this.data.slice(0, this.n).sort();
    const at = (q: number) => (s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN);
    return { count: this.n, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: s.length ? s[s.length - 1] : NaN };
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });

function request(base: URL, method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  return new Promise((ok, fail) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      { host: base.hostname, port: base.port, method, path: `${NS}/${path}`, agent, headers: { Authorization: `Bearer ${TOKEN}`, ...(data ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } : {}) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => ok({ status: res.statusCode ?? 0, text }));
        res.on('error', fail);
      },
    );
    req.on('error', fail);
    req.end(data);
  });
}


const OPS = ['list', 'read', 'create', 'update', 'delete'] as const;
type Op = (typeof OPS)[number];

const fmtMB = (b: number) => `${(b / 2 ** 20).toFixed(1)} MB`;

async function main() {
  if (process.argv[2] === 'server-child') return serverChild(process.argv[3]);

  const dataDir = mkdtempSync(join(tmpdir(), 'almanac-soak-'));
  const child: ChildProcess = fork(import.meta.filename, ['server-child', dataDir], { execArgv: ['--import', 'tsx', '--expose-gc'], cwd: root, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const mems: Array<{ mem: Mem; loopP99: number; loopMax: number }> = [];
  let gcWaiter: ((m: Mem) => void) | undefined;
  const ready = new Promise<Extract<ToParent, { type: 'ready' }>>((ok, fail) => {
    child.on('message', (m: ToParent) => {
      if (m.type === 'ready') ok(m);
      else if (m.type === 'mem') mems.push(m);
      else if (m.type === 'gc') gcWaiter?.(m.mem);
    });
    child.on('exit', (code) => fail(new Error(`the server exited with ${code}`)));
  });
  const gcNow = () =>
    new Promise<Mem>((ok) => {
      gcWaiter = ok;
      child.send({ type: 'gc' } satisfies ToChild);
    });

  process.stdout.write(`Seeding ${EVENTS} events…\n`);
  const info = await ready;
  const base = new URL(info.url);
  process.stdout.write(`Seeded in ${info.seedSeconds.toFixed(1)} s. Soaking for ${SECONDS} s with ${CLIENTS} keep-alive clients…\n`);

  const samples = Object.fromEntries(OPS.map((o) => [o, new Samples()])) as Record<Op, Samples>;
  const errors: string[] = [];
  let errorCount = 0;
  const memStartIndex = mems.length;
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  let gcAt10: Mem | undefined;
  // The baseline: a full GC after 10 s of load (half the run when it is shorter).
  const gcAtSeconds = Math.min(10, SECONDS / 2);
  const gc10 = setTimeout(() => void gcNow().then((m) => (gcAt10 = m)), gcAtSeconds * 1000);

  const year = new Date().getFullYear();
  async function client(k: number) {
    const r = seededRandom(1000 + k);
    const mine: number[] = []; // events this client created: only it deletes them
    const shared = info.eventIds; // seeded events: read and updated, never deleted
    let n = 0;
    while (performance.now() < deadline) {
      n++;
      const p = r.next();
      let op: Op;
      let method: string;
      let path: string;
      let body: unknown;
      let expected: number;
      if (p < 0.35) {
        op = 'list';
        method = 'GET';
        const y = year + r.int(-1, 1);
        const m = String(r.int(1, 12)).padStart(2, '0');
        const filters = [`start_date=${y}-${m}-01`, `end_date=${y}-${m}-28`, `per_page=${r.pick([10, 20, 50])}`];
        const q = r.next();
        if (q < 0.25) filters.push(`categories=${r.pick(info.categoryIds)}`);
        else if (q < 0.4) filters.push(`venue=${r.pick(info.venueIds)}`);
        else if (q < 0.55) filters.push(`search=${r.pick(['concert', 'jazz', 'market', 'tasting', 'walk'])}`);
        else if (q < 0.65) filters.push('featured=true');
        else if (q < 0.75) filters.push(`tags=${r.pick(info.tagIds)}`);
        else if (q < 0.85) filters.push('status=publish,draft');
        path = `events?${filters.join('&')}`;
        expected = 200;
      } else if (p < 0.6) {
        op = 'read';
        method = 'GET';
        const which = r.next();
        path = which < 0.7 || mine.length === 0 ? `events/${r.pick(shared)}` : which < 0.85 ? `events/${r.pick(mine)}` : `venues/${r.pick(info.venueIds)}`;
        expected = 200;
      } else if (p < 0.75) {
        op = 'create';
        method = 'POST';
        const d = `${year}-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}`;
        path = 'events';
        body = {
          title: `soak ${k} ${n}`,
          description: `Created by soak client ${k}. ${'Lorem ipsum dolor sit amet. '.repeat(r.int(1, 8))}`,
          start_date: `${d} ${r.int(8, 18)}:00:00`,
          end_date: `${d} 20:00:00`,
          categories: [r.pick(info.categoryIds)],
          tags: [r.pick(info.tagIds)],
          ...(r.next() < 0.3 ? { venue: { venue: `Soak hall ${r.int(0, 20)}`, city: 'Porto' } } : { venue: r.pick(info.venueIds) }),
          cost: `${r.int(0, 40)}€`,
        };
        expected = 201;
      } else if (p < 0.9) {
        op = 'update';
        method = 'PATCH';
        const id = mine.length && r.next() < 0.5 ? r.pick(mine) : r.pick(shared);
        path = `events/${id}`;
        const u = r.next();
        body = u < 0.4 ? { title: `updated ${k} ${n}` } : u < 0.7 ? { description: `Updated ${n} by ${k}` } : u < 0.85 ? { featured: r.next() < 0.5 } : { categories: [r.pick(info.categoryIds)], tags: [r.pick(info.tagIds)] };
        expected = 200;
      } else {
        op = 'delete';
        if (mine.length === 0) continue;
        const id = mine.splice(r.int(0, mine.length - 1), 1)[0];
        method = 'DELETE';
        path = `events/${id}`;
        expected = 200;
        // Trash, then delete for good (timed as one more delete), so the calendar keeps its size.
        const t = performance.now();
        try {
          const res = await request(base, method, path);
          samples.delete.add(performance.now() - t);
          if (res.status !== 200) throw new Error(`${res.status} ${res.text.slice(0, 200)}`);
        } catch (err) {
          errorCount++;
          if (errors.length < 20) errors.push(`DELETE ${path}: ${String(err)}`);
          continue;
        }
        path = `events/${id}?force=true`;
      }
      const t = performance.now();
      try {
        const res = await request(base, method, path, body);
        samples[op].add(performance.now() - t);
        if (res.status !== expected) throw new Error(`${res.status} ${res.text.slice(0, 200)}`);
        if (op === 'create') mine.push(JSON.parse(res.text).id as number);
      } catch (err) {
        errorCount++;
        if (errors.length < 20) errors.push(`${method} ${path}: ${String(err)}`);
      }
    }
  }
  await Promise.all(Array.from({ length: CLIENTS }, (_, k) => client(k)));
  const elapsed = (performance.now() - started) / 1000;
  clearTimeout(gc10);
  // Let the last per-second sample of the run in, then a full GC for the end figure.
  await new Promise((ok) => setTimeout(ok, 1100));
  const gcEnd = await gcNow();

  const run = mems.slice(memStartIndex);
  const rss = run.map((m) => m.mem.rss);
  const heap = run.map((m) => m.mem.heapUsed);
  const total = OPS.reduce((a, o) => a + samples[o].n, 0);
  const perOp = Object.fromEntries(OPS.map((o) => [o, samples[o].summary()]));
  const flatLimit = 1.1;
  const heapGrowth = gcAt10 ? gcEnd.heapUsed / gcAt10.heapUsed : NaN;
  const flat = gcAt10 ? heapGrowth <= flatLimit || gcEnd.heapUsed - gcAt10.heapUsed < 5 * 2 ** 20 : undefined;

  const lines = [
    '',
    `Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
    `Soak: ${elapsed.toFixed(1)} s, ${CLIENTS} clients, ${EVENTS} seeded events`,
    `Requests: ${total} (${(total / elapsed).toFixed(0)} req/s), errors: ${errorCount}`,
    '',
    '| operation | count | req/s | p50 ms | p90 ms | p99 ms | max ms |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...OPS.map((o) => {
      const s = perOp[o];
      return `| ${o} | ${s.count} | ${(s.count / elapsed).toFixed(0)} | ${s.p50.toFixed(2)} | ${s.p90.toFixed(2)} | ${s.p99.toFixed(2)} | ${s.max.toFixed(1)} |`;
    }),
    '',
    `Server event-loop delay, worst per-second p99: ${Math.max(...run.map((m) => m.loopP99)).toFixed(1)} ms, max: ${Math.max(...run.map((m) => m.loopMax)).toFixed(1)} ms`,
    `Server RSS (${run.length} samples): first ${fmtMB(rss[0])}, last ${fmtMB(rss[rss.length - 1])}, max ${fmtMB(Math.max(...rss))}`,
    `Server heapUsed: first ${fmtMB(heap[0])}, last ${fmtMB(heap[heap.length - 1])}, max ${fmtMB(Math.max(...heap))}`,
    `Server heapUsed after a full GC: at ${gcAtSeconds} s ${gcAt10 ? fmtMB(gcAt10.heapUsed) : 'n/a'}, at the end ${fmtMB(gcEnd.heapUsed)}` +
      (gcAt10 ? ` (×${heapGrowth.toFixed(2)}): ${flat ? 'flat' : 'GROWING'}; RSS then ${fmtMB(gcAt10.rss)} and ${fmtMB(gcEnd.rss)} (SQLite's page cache, up to 64 MB, is in RSS)` : ''),
    `Machine load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (other work on the machine slows the figures)`,
    ...(errors.length ? ['', 'First errors:', ...errors.map((e) => `  ${e}`)] : []),
    '',
  ];
  process.stdout.write(lines.join('\n'));

  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(
    join(root, 'bench/results/soak.json'),
    JSON.stringify({ date: new Date().toISOString(), seconds: elapsed, clients: CLIENTS, events: EVENTS, requests: total, rps: total / elapsed, errors: errorCount, perOp, memory: { samples: run, gcAt10, gcEnd, flat } }, null, 2),
  );

  child.send({ type: 'stop' } satisfies ToChild);
  await new Promise((ok) => child.on('exit', ok));
  rmSync(dataDir, { recursive: true, force: true });
  if (errorCount > 0) process.exitCode = 1;
  if (flat === false) process.stdout.write('Memory grew during the soak: see bench/results/soak.json\n');
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
