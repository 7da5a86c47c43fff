/**
 * Background imports: `POST /import?background=true` starts one and answers at once;
 * `GET /import/jobs/{id}` tells its progress and, at the end, its report or its error.
 *
 * Each job runs `importFile` on a worker thread with a connection of its own: a 100,000-event file
 * takes seconds, and on the server's thread it would stall every other request, the progress
 * requests included. SQLite does the rest: the import is one transaction, so other clients read the
 * calendar as it was until it commits, and their writes wait (http/dispatch.ts runWhenFree).
 */
import { randomBytes } from 'node:crypto';
import { startWorker } from './worker-script';
import { ApiError } from '../errors';
import type { ImportFileOptions } from './import-file';
import type { ImportJobState, ImportReport, RestoreReport } from '../../../shared/api/import-report';

export interface ImportWorkerData {
  dbPath: string;
  nativeBinding?: string;
  bytes: ArrayBuffer;
  options: Omit<ImportFileOptions, 'onProgress'>;
  /** One Int32: set to 1 to cancel. Shared, because the worker never idles to read a message. */
  cancel: SharedArrayBuffer;
}

export type ImportWorkerMessage =
  | { type: 'progress'; done: number; total: number; phase: 'reading' | 'writing' }
  | { type: 'done'; report: ImportReport | RestoreReport }
  | { type: 'cancelled' }
  | { type: 'failed'; error: SerializedApiError }
  | { type: 'crashed'; message: string };

type SerializedApiError = Pick<ApiError, 'code' | 'status' | 'messageKey' | 'vars' | 'data' | 'invalid' | 'missing'>;

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

export function createImportJobs(opts: { dbPath: string; nativeBinding?: string; onCrash?: (message: string) => void }): ImportJobs {
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

  return {
    start(bytes, options) {
      if (opts.dbPath === ':memory:') throw new Error('a background import needs a database file');
      const id = randomBytes(8).toString('hex');
      const job: ImportJobRecord = { id, state: 'running', phase: 'reading', done: 0, total: 0, started: new Date(), finished: null, report: null, error: null };
      const cancel = new SharedArrayBuffer(4);
      // A copy the worker owns: the request's buffer may be a slice of a pooled one.
      const own = new Uint8Array(bytes.length);
      own.set(bytes);
      const data: ImportWorkerData = { dbPath: opts.dbPath, nativeBinding: opts.nativeBinding, bytes: own.buffer, options, cancel };
      const worker = startWorker('import-worker', data, [data.bytes]);
      const ended = new Promise<ImportJobRecord>((settle) => {
        worker.on('message', (m: ImportWorkerMessage) => {
          if (m.type === 'progress') Object.assign(job, { done: m.done, total: m.total, phase: m.phase });
          else if (m.type === 'done') end(job, 'done', { report: m.report, done: job.total });
          else if (m.type === 'cancelled') end(job, 'cancelled');
          else if (m.type === 'failed') {
            const e = m.error;
            end(job, 'failed', { error: new ApiError(e.code, e.status, e.messageKey, e.vars, e.data, e.invalid, e.missing) });
          } else {
            opts.onCrash?.(m.message);
            end(job, 'failed', { error: new ApiError('internal_error', 500, 'internal_error') });
          }
        });
        worker.on('error', (err) => {
          opts.onCrash?.(err.stack ?? err.message);
          end(job, 'failed', { error: new ApiError('internal_error', 500, 'internal_error') });
        });
        worker.on('exit', () => {
          // A thread that ended without a word (killed) did not commit: SQLite rolled it back.
          end(job, 'failed', { error: new ApiError('internal_error', 500, 'internal_error') });
          settle(job);
        });
      });
      jobs.set(id, job);
      running.set(id, { cancel: new Int32Array(cancel), ended });
      return job;
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
      await Promise.all(all.map((r) => r.ended));
    },
  };
}
