/**
 * Background imports: `POST /import?background=true` starts one and answers at once;
 * `GET /import/jobs/{id}` tells its progress and, at the end, its report or its error.
 *
 * Each job runs `importFile` on a worker thread with a connection of its own: a 100,000-event file
 * takes seconds, and on the server's thread it would stall every other request, the progress
 * requests included. SQLite does the rest: the import is one transaction, so other clients read the
 * calendar as it was until it commits, and their writes wait (http/dispatch.ts runWhenFree).
 *
 * An ordinary `POST /import` runs off the server's thread too (`run`), for the same reason: even a
 * small file may hold many series, and their occurrences take seconds to write. Those share one
 * thread that stays while imports keep coming (a thread and the importer cost about 50 ms to
 * start, seconds when the server runs from its TypeScript sources).
 */
import { randomBytes } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import { startWorker } from './worker-script';
import { ApiError } from '../errors';
import type { ImportFileOptions } from './import-file';
import type { ImportJobState, ImportReport, RestoreReport } from '../../../shared/api/import-report';

export interface ImportJobInput {
  bytes: ArrayBuffer;
  options: Omit<ImportFileOptions, 'onProgress'>;
  /** One Int32: set to 1 to cancel. Shared, because the worker never idles to read a message. */
  cancel: SharedArrayBuffer;
}

export interface ImportWorkerData {
  dbPath: string;
  nativeBinding?: string;
  /** A background job's thread runs this one import; without it, the thread takes jobs as messages. */
  job?: ImportJobInput;
}

export type ImportWorkerMessage =
  | { type: 'progress'; done: number; total: number; phase: 'reading' | 'writing' }
  | { type: 'done'; report: ImportReport | RestoreReport }
  | { type: 'cancelled' }
  | { type: 'failed'; error: SerializedApiError }
  /** Another connection held the write lock for longer than the busy timeout. */
  | { type: 'busy' }
  | { type: 'crashed'; message: string };

interface SharedThread {
  worker: Worker;
  waiting: Map<number, Waiting>;
  idle?: NodeJS.Timeout;
  exited: Promise<void>;
}

interface Waiting {
  resolve(report: ImportReport | RestoreReport): void;
  reject(err: Error): void;
}

type SerializedApiError = Pick<ApiError, 'code' | 'status' | 'messageKey' | 'vars' | 'data' | 'invalid' | 'missing' | 'invalidVars'>;

export interface ImportJobRecord {
  id: string;
  state: ImportJobState;
  phase: 'reading' | 'writing';
  done: number;
  total: number;
  started: Date;
  finished: Date | null;
  report: ImportReport | RestoreReport | null;
  /** Worded per request (the language of whoever asks), so kept as the error itself. */
  error: ApiError | null;
}

export interface ImportJobs {
  start(bytes: Buffer, options: Omit<ImportFileOptions, 'onProgress'>): ImportJobRecord;
  /**
   * An ordinary import, off the server's thread: its report, or its error as `importFile` would
   * throw it (a crash of the thread as internal_error, a calendar locked too long as calendar_busy).
   */
  run(bytes: Buffer, options: Omit<ImportFileOptions, 'onProgress'>): Promise<ImportReport | RestoreReport>;
  get(id: string): ImportJobRecord | undefined;
  /** Asks a running job to stop; it rolls back and ends `cancelled`. False when it already ended. */
  cancel(id: string): boolean;
  /** Stops every running job (rolled back) and waits for their threads to end. */
  close(): Promise<void>;
}

/**
 * Finished jobs are kept this long for a client to fetch the report, and at most this many: a
 * report lists every item, about 10 MB for a 100,000-event file.
 */
const KEEP_FINISHED_MS = 60 * 60_000;
const KEEP_FINISHED = 8;
/** The shared import thread ends after this long without an import (it is started again when needed). */
const SHARED_IDLE_MS = 60_000;

const apiErrorOf = (e: SerializedApiError) => new ApiError(e.code, e.status, e.messageKey, e.vars, e.data, e.invalid, e.missing, e.invalidVars);
const internalError = () => new ApiError('internal_error', 500, 'internal_error');

/** A copy the worker owns: the request's buffer may be a slice of a pooled one. */
function ownCopy(bytes: Buffer): ArrayBuffer {
  const own = new Uint8Array(bytes.length);
  own.set(bytes);
  return own.buffer;
}

/** What a thread's last word means: the report, or the error the API answers with. */
function outcomeOf(m: Exclude<ImportWorkerMessage, { type: 'progress' | 'cancelled' }>, onCrash?: (message: string) => void): { report: ImportReport | RestoreReport } | { error: ApiError } {
  if (m.type === 'done') return { report: m.report };
  if (m.type === 'failed') return { error: apiErrorOf(m.error) };
  if (m.type === 'busy') return { error: new ApiError('calendar_busy', 503, 'calendar_busy') };
  onCrash?.(m.message);
  return { error: internalError() };
}

export function createImportJobs(opts: {
  dbPath: string;
  nativeBinding?: string;
  onCrash?: (message: string) => void;
  /** An import wrote to the calendar from its thread: the server's own follow-up (series rows) runs. */
  onImported?: () => void;
}): ImportJobs {
  const jobs = new Map<string, ImportJobRecord>();
  const running = new Map<string, { cancel: Int32Array; ended: Promise<ImportJobRecord> }>();

  function forgetOld(now: number) {
    const finished = [...jobs.values()].filter((j) => j.finished);
    finished.forEach((j, i) => {
      if (now - j.finished!.getTime() > KEEP_FINISHED_MS || i < finished.length - KEEP_FINISHED) jobs.delete(j.id);
    });
  }

  function end(job: ImportJobRecord, state: ImportJobState, patch: Partial<ImportJobRecord> = {}) {
    if (job.state !== 'running') return;
    Object.assign(job, patch, { state, finished: new Date() });
    running.delete(job.id);
    forgetOld(Date.now());
  }

  /** The thread ordinary imports share while they keep coming, and the imports it was given. */
  let shared: SharedThread | undefined;
  let nextImport = 0;

  function stopShared(s: SharedThread): Promise<void> {
    if (shared === s) shared = undefined;
    clearTimeout(s.idle);
    // After the imports already sent: the thread takes its messages in order.
    s.worker.postMessage({ close: true });
    return s.exited;
  }

  function sharedThread(): SharedThread {
    if (shared) {
      clearTimeout(shared.idle);
      return shared;
    }
    const data: ImportWorkerData = { dbPath: opts.dbPath, nativeBinding: opts.nativeBinding };
    const worker = startWorker('import-worker', data);
    // Idle, it must not keep the process alive; an import waiting for it is a request that does.
    worker.unref();
    const waiting = new Map<number, Waiting>();
    const failAll = () => {
      for (const w of waiting.values()) w.reject(internalError());
      waiting.clear();
    };
    const exited = new Promise<void>((done) =>
      worker.on('exit', () => {
        // Imports it had not answered did not commit: SQLite rolled them back.
        failAll();
        if (shared?.worker === worker) shared = undefined;
        done();
      }),
    );
    const s: SharedThread = { worker, waiting, exited };
    worker.on('message', ({ id, message: m }: { id: number; message: ImportWorkerMessage }) => {
      const w = waiting.get(id);
      if (!w || m.type === 'progress') return;
      waiting.delete(id);
      // Nothing cancels an ordinary import; a thread that says so anyway did not finish it.
      const out = m.type === 'cancelled' ? { error: internalError() } : outcomeOf(m, opts.onCrash);
      if ('report' in out) {
        w.resolve(out.report);
        opts.onImported?.();
      } else w.reject(out.error);
      if (waiting.size === 0 && shared === s) {
        s.idle = setTimeout(() => void stopShared(s), SHARED_IDLE_MS);
        s.idle.unref();
      }
    });
    worker.on('error', (err) => {
      opts.onCrash?.(err.stack ?? err.message);
      failAll();
    });
    shared = s;
    return s;
  }

  return {
    run(bytes, options) {
      if (opts.dbPath === ':memory:') return Promise.reject(new Error('an import off the server thread needs a database file'));
      const s = sharedThread();
      const id = ++nextImport;
      const job: ImportJobInput = { bytes: ownCopy(bytes), options, cancel: new SharedArrayBuffer(4) };
      return new Promise((resolve, reject) => {
        s.waiting.set(id, { resolve, reject });
        s.worker.postMessage({ id, job }, [job.bytes]);
      });
    },
    start(bytes, options) {
      if (opts.dbPath === ':memory:') throw new Error('a background import needs a database file');
      const id = randomBytes(8).toString('hex');
      const record: ImportJobRecord = { id, state: 'running', phase: 'reading', done: 0, total: 0, started: new Date(), finished: null, report: null, error: null };
      const cancel = new SharedArrayBuffer(4);
      const job: ImportJobInput = { bytes: ownCopy(bytes), options, cancel };
      const data: ImportWorkerData = { dbPath: opts.dbPath, nativeBinding: opts.nativeBinding, job };
      const worker = startWorker('import-worker', data, [job.bytes]);
      const ended = new Promise<ImportJobRecord>((settle) => {
        worker.on('message', (m: ImportWorkerMessage) => {
          if (m.type === 'progress') Object.assign(record, { done: m.done, total: m.total, phase: m.phase });
          else if (m.type === 'cancelled') end(record, 'cancelled');
          else {
            const out = outcomeOf(m, opts.onCrash);
            if ('report' in out) {
              end(record, 'done', { report: out.report, done: record.total });
              opts.onImported?.();
            } else end(record, 'failed', { error: out.error });
          }
        });
        worker.on('error', (err) => {
          opts.onCrash?.(err.stack ?? err.message);
          end(record, 'failed', { error: internalError() });
        });
        worker.on('exit', () => {
          // A thread that ended without a word (killed) did not commit: SQLite rolled it back.
          end(record, 'failed', { error: internalError() });
          settle(record);
        });
      });
      jobs.set(id, record);
      running.set(id, { cancel: new Int32Array(cancel), ended });
      return record;
    },
    get: (id) => jobs.get(id),
    cancel(id) {
      const r = running.get(id);
      if (!r) return false;
      Atomics.store(r.cancel, 0, 1);
      return true;
    },
    async close() {
      const all = [...running.values()];
      for (const r of all) Atomics.store(r.cancel, 0, 1);
      // Ordinary imports already sent are finished, as they were when they ran on the server's thread.
      await Promise.all([...all.map((r) => r.ended), shared && stopShared(shared)]);
    },
  };
}
