/**
 * An iCalendar export written by several threads (issue #5): 100,000 events take about ten seconds
 * of CPU on one. The selection is cut into contiguous slices in export order, bounded by start
 * times (store/events.ts exportStarts), and worker threads (export-worker.ts) write slices' VEVENTs,
 * each from a read-only connection of its own. This thread streams the slices to the client in
 * order: the one being written as it comes, the next ones kept (a few at a time, so a slow client
 * does not make the file pile up in memory) until their turn. While the workers start, this
 * thread writes the slices itself; they join at the end of a slice.
 *
 * One snapshot: the file must be the calendar as it was at one moment, as when one read
 * transaction wrote it. This thread begins its read transaction while it holds the calendar's
 * write lock (BEGIN IMMEDIATE on a connection of its own, which shuts out another process's writer
 * too) and notes the data version. The workers begin theirs under the lock as well, and only if
 * the data version is still the same, that is if no write has committed since: then all read the
 * same snapshot. Otherwise they are sent away and this thread writes the whole file. Writers wait
 * only while the lock is held: microseconds, then the few milliseconds the workers take to begin.
 */
import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import type { EventListQuery } from '../store/events';
import type { Store } from '../store';
import { icsEvents, type IcsRowEvent } from './ics-rows';
import { icsHead, icsVevents, ICS_TAIL, zonesUsed, type IcsExportOptions } from './ics-export';
import type { UrlContext } from '../serialize/context';

export interface ExportWorkerData {
  dbPath: string;
  nativeBinding?: string;
  q: EventListQuery;
  ctx: UrlContext;
  /** DTSTAMP of an event without a valid creation or modification time (icsStamp of the request's time). */
  stamp: string;
  /** One Int32: set to 1 when the export is abandoned, read between chunks. */
  stop: SharedArrayBuffer;
}

/** Messages to a worker. */
export type ExportOrder =
  | { type: 'begin' }
  | { type: 'slice'; slice: number; from?: string; to?: string; last: boolean }
  | { type: 'stop' };

/** Messages from a worker. */
export type ExportReport =
  | { type: 'open' }
  | { type: 'begun' }
  | { type: 'chunk'; slice: number; bytes: Uint8Array }
  | { type: 'end'; slice: number }
  | { type: 'failed'; message: string };

/**
 * Tuning, and what tests change. Below `minEvents` the export stays on the server's thread.
 *
 * Off for now (Infinity): on the 2-core machine this was measured on, shared with other work
 * (load 3–4), a thread took 1.5–3 s of CPU to start (loading the store's modules: zod, luxon) and
 * the workers' cold first slices were slow, so 100,000 events took 13.6–14.6 s against 10.0–10.3 s
 * on one thread, and 10,000 took 3.7 s against 1.4 s. Threads that stay warm between exports, or
 * a worker that loads less, are what would make it pay.
 */
export const icsThreads = {
  minEvents: Infinity,
  workers: Math.max(1, availableParallelism()),
  /** At most this many events per slice; fewer when that leaves too few slices to share out. */
  sliceEvents: 5000,
  /**
   * Slices this thread may write while the workers start (they join at a slice's end), before it
   * waits for them: tests make the workers write all but the first.
   */
  leadSlices: Infinity,
};

/** How long an export waits for another process's write lock before giving up. */
const LOCK_WAIT_MS = 30_000;

export interface ParallelIcsOptions {
  /** This thread's connection: it writes the first slices while the workers start. */
  openReader: () => { store: Store; close: () => void };
  dbPath: string;
  nativeBinding?: string;
  q: EventListQuery;
  ctx: UrlContext;
  stamp: string;
  /** Only the total matters for the slice size: the slices are read from the snapshot. */
  expectedEvents: number;
  workers?: number;
  sliceEvents?: number;
}

export function slicePlanSize(events: number, workers: number, maxSlice: number): number {
  // Four slices a worker at least, so that one slow slice does not leave the other threads idle.
  return Math.max(1, Math.min(maxSlice, Math.ceil(events / (4 * workers))));
}

/** Where slices start, from the selection's start times in order: `per` events each, no slice empty-started twice. */
export function sliceStarts(starts: string[], per: number): string[] {
  const out: string[] = [];
  for (let i = per; i < starts.length; i += per) {
    const s = starts[i];
    // Slices are bounded by start times: events starting at the same time stay in one slice.
    if (s !== starts[0] && s !== out[out.length - 1]) out.push(s);
  }
  return out;
}

/** The built `export-worker.js` beside this code in out/main, or the TypeScript source through tsx. */
function spawnWorker(data: ExportWorkerData): Worker {
  const here = dirname(fileURLToPath(import.meta.url));
  const built = join(here, 'export-worker.js');
  if (existsSync(built)) return new Worker(built, { workerData: data });
  return new Worker(join(here, 'ts-worker.mjs'), { workerData: { ...data, tsEntry: pathToFileURL(join(here, 'export-worker.ts')).href } });
}

/** Threads of running exports, for tests: an abandoned export must leave none behind. */
export const liveExportThreads = new Set<Worker>();
/** How many exports the workers joined, and how many this thread wrote alone (a write came first). */
export const threadedExports = { joined: 0, alone: 0 };

export async function* parallelIcs(opts: ParallelIcsOptions): AsyncGenerator<string | Uint8Array> {
  const count = Math.max(1, opts.workers ?? icsThreads.workers);
  const sliceEvents = slicePlanSize(opts.expectedEvents, count, opts.sliceEvents ?? icsThreads.sliceEvents);
  const stop = new SharedArrayBuffer(4);

  // What the workers have said so far; `wake` resolves whoever waits for the next message.
  let opened = 0;
  let begun = 0;
  const chunks = new Map<number, Uint8Array[]>();
  const ended = new Set<number>();
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const until = async (ready: () => boolean) => {
    for (;;) {
      if (failure) throw failure;
      if (ready()) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  let finished = false;
  // Set once the workers have joined: hands out slices to free workers.
  let grantFree = () => {};
  const idle: number[] = [];
  const exited: Array<Promise<void>> = [];
  const workers: Worker[] = [];
  for (let i = 0; i < count; i++) {
    const worker = spawnWorker({ dbPath: opts.dbPath, nativeBinding: opts.nativeBinding, q: opts.q, ctx: opts.ctx, stamp: opts.stamp, stop });
    liveExportThreads.add(worker);
    workers.push(worker);
    worker.on('message', (m: ExportReport) => {
      if (m.type === 'open') opened++;
      else if (m.type === 'begun') begun++;
      else if (m.type === 'chunk') {
        const list = chunks.get(m.slice);
        if (list) list.push(m.bytes);
        else chunks.set(m.slice, [m.bytes]);
      } else if (m.type === 'end') {
        ended.add(m.slice);
        idle.push(i);
        grantFree();
      } else if (m.type === 'failed') failure ??= new Error(`export thread ${i} failed: ${m.message}`);
      notify();
    });
    worker.on('error', (err) => {
      failure ??= err;
      notify();
    });
    exited.push(
      new Promise((done) =>
        worker.once('exit', () => {
          liveExportThreads.delete(worker);
          if (!finished) failure ??= new Error(`export thread ${i} ended early`);
          notify();
          done();
        }),
      ),
    );
  }

  const reader = opts.openReader();
  let lock: Database.Database | undefined;
  try {
    // This thread's snapshot, and the calendar's data version then: the workers may join only if
    // no write has committed since (they would read another snapshot).
    lock = await writeLock(opts.dbPath, opts.nativeBinding);
    reader.store.db.exec('BEGIN');
    reader.store.db.prepare('SELECT 1 FROM events LIMIT 1').get();
    const version = lock.pragma('data_version', { simple: true });
    lock.exec('COMMIT');

    const store = reader.store;
    const bounds = sliceStarts(store.events.exportStarts(opts.q), sliceEvents);
    const slices = bounds.length + 1;
    const range = (j: number) => ({ from: j === 0 ? undefined : bounds[j - 1], to: j === slices - 1 ? undefined : bounds[j] });
    const icsOpts: IcsExportOptions<IcsRowEvent> = { uidHost: opts.ctx.settings.global_id_host, calendarName: 'Almanac', uidOf: (e) => e.ics_uid, stamp: opts.stamp };

    // A slice goes to whichever worker is free, as long as no more than `window` slices are
    // written but not yet sent: memory stays at a few slices whatever the size of the calendar
    // and however slow the client. Until the workers have joined, this thread writes the slices.
    const window = 2 * count;
    let granted = 0;
    let current = 0;
    let joined = false;
    const join = async () => {
      lock!.exec('BEGIN IMMEDIATE'); // busy: tried again at the next slice
      try {
        if (lock!.pragma('data_version', { simple: true }) !== version) {
          // A write came in between: this thread writes the whole file from its snapshot.
          return 'never';
        }
        for (const w of workers) w.postMessage({ type: 'begin' } satisfies ExportOrder);
        await until(() => begun === count);
      } finally {
        lock!.exec('COMMIT');
      }
      idle.push(...workers.map((_, i) => i));
      grantFree = () => {
        while (idle.length && granted < slices && granted < current + window) {
          const j = granted++;
          workers[idle.shift()!].postMessage({ type: 'slice', slice: j, ...range(j), last: j === slices - 1 } satisfies ExportOrder);
        }
      };
      return 'joined';
    };
    let joining: 'waiting' | 'never' = 'waiting';

    yield* icsHead(zonesUsed(store.events.zoneSpans(opts.q)), icsOpts);
    for (; current < slices; current++) {
      if (!joined && joining === 'waiting' && current >= icsThreads.leadSlices) await until(() => opened === count);
      if (!joined && joining === 'waiting' && opened === count) {
        try {
          const outcome = await join();
          if (outcome === 'never') joining = 'never';
          else joined = true;
          threadedExports[joined ? 'joined' : 'alone']++;
        } catch (err) {
          const code = (err as { code?: unknown }).code;
          if (typeof code !== 'string' || !code.startsWith('SQLITE_BUSY')) throw err;
        }
        if (joining === 'never') stopWorkers();
      }
      if (failure) throw failure;
      grantFree();
      if (granted === current) {
        // Nobody has this slice: written here, from this thread's snapshot.
        granted++;
        yield* icsVevents(icsEvents(store, opts.q, opts.ctx, undefined, range(current)), icsOpts, current === slices - 1 ? ICS_TAIL : '');
        continue;
      }
      for (;;) {
        const queued = chunks.get(current);
        if (queued?.length) {
          yield queued.shift()!;
          continue;
        }
        if (ended.has(current)) break;
        await until(() => !!chunks.get(current)?.length || ended.has(current));
      }
      chunks.delete(current);
    }
  } finally {
    finished = true;
    if (lock?.inTransaction) lock.exec('COMMIT');
    lock?.close();
    if (reader.store.db.inTransaction) reader.store.db.exec('COMMIT');
    reader.close();
    stopWorkers();
    const all = Promise.all(exited);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 2000)));
    if ((await Promise.race([all, late])) === 'late') await Promise.all(workers.map((w) => w.terminate()));
    clearTimeout(timer);
    await all;
  }

  /** Every worker stops between two chunks, closes its connection and ends; one stuck in SQLite is ended by force (above). */
  function stopWorkers() {
    finished = true;
    Atomics.store(new Int32Array(stop), 0, 1);
    for (const w of workers) w.postMessage({ type: 'stop' } satisfies ExportOrder);
  }
}

/**
 * The calendar's write lock, taken on a connection of its own and waited for without blocking this
 * thread: another process (the CLI) may hold it for a while.
 */
async function writeLock(dbPath: string, nativeBinding?: string): Promise<Database.Database> {
  const db = new Database(dbPath, { fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    db.pragma('busy_timeout = 0');
    const deadline = Date.now() + LOCK_WAIT_MS;
    let delay = 2;
    for (;;) {
      try {
        db.exec('BEGIN IMMEDIATE');
        return db;
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (typeof code !== 'string' || !code.startsWith('SQLITE_BUSY') || Date.now() + delay > deadline) throw err;
      }
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 20);
    }
  } catch (err) {
    db.close();
    throw err;
  }
}
