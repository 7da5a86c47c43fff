/**
 * The thread imports run on (see import-jobs.ts). It opens its own connection to the calendar
 * file, so the server's thread keeps answering while the import holds the write lock: reads see
 * the calendar as it was until the import commits, and writes wait for it.
 *
 * Two ways to run: a background job is one thread for one import (`workerData.job`), so that it
 * can be cancelled on its own; ordinary imports share one thread that stays between them
 * (`workerData.job` absent: jobs come as messages, one at a time), because starting a thread and
 * loading the importer costs more than a small import does.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase, closeDatabase, type DB } from '../store/db';
import { createStore, type Store } from '../store';
import { ApiError } from '../errors';
import { importFile } from './import-file';
import type { ImportJobInput, ImportWorkerData, ImportWorkerMessage } from './import-jobs';

/** Thrown from the progress callback when the job was cancelled: the transaction rolls back. */
class Cancelled extends Error {}

const input = workerData as ImportWorkerData;
const isBusy = (err: unknown) => typeof (err as { code?: unknown })?.code === 'string' && (err as { code: string }).code.startsWith('SQLITE_BUSY');

function run(store: Store, job: ImportJobInput, post: (m: ImportWorkerMessage) => void): void {
  const cancelFlag = new Int32Array(job.cancel);
  try {
    // Progress is sent at most every 50 ms: enough for a progress bar, and cheap.
    let last = 0;
    const report = importFile(store, new Uint8Array(job.bytes), {
      ...job.options,
      onProgress: (done, total, phase) => {
        if (Atomics.load(cancelFlag, 0)) throw new Cancelled();
        const now = Date.now();
        if (now - last < 50 && done < total) return;
        last = now;
        post({ type: 'progress', done, total, phase });
      },
    });
    post({ type: 'done', report });
  } catch (err) {
    if (err instanceof Cancelled) post({ type: 'cancelled' });
    else if (err instanceof ApiError) post({ type: 'failed', error: { code: err.code, status: err.status, messageKey: err.messageKey, vars: err.vars, data: err.data, invalid: err.invalid, missing: err.missing, invalidVars: err.invalidVars } });
    else if (isBusy(err)) post({ type: 'busy' });
    else post({ type: 'crashed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
}

if (input.job) {
  const db = openDatabase(input.dbPath, { nativeBinding: input.nativeBinding });
  try {
    run(createStore(db), input.job, (m) => parentPort!.postMessage(m));
  } finally {
    closeDatabase(db);
  }
} else {
  // Opened for the first job, kept for the next ones (its statements stay prepared).
  let open: { db: DB; store: Store } | undefined;
  parentPort!.on('message', (m: { id: number; job: ImportJobInput } | { close: true }) => {
    if ('close' in m) {
      if (open) closeDatabase(open.db);
      open = undefined;
      parentPort!.close();
      return;
    }
    try {
      if (!open) {
        const db = openDatabase(input.dbPath, { nativeBinding: input.nativeBinding });
        open = { db, store: createStore(db) };
      }
    } catch (err) {
      parentPort!.postMessage({ id: m.id, message: { type: 'crashed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) } });
      return;
    }
    run(open.store, m.job, (message) => parentPort!.postMessage({ id: m.id, message }));
  });
}
