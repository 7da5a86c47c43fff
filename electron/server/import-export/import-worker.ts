/**
 * The thread a background import runs on (see import-jobs.ts). It opens its own connection to the
 * calendar file, so the server's thread keeps answering while the import holds the write lock:
 * reads see the calendar as it was until the import commits, and writes wait for it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase, closeDatabase } from '../store/db';
import { createStore } from '../store';
import { ApiError } from '../errors';
import { importFile } from './import-file';
import type { ImportWorkerData, ImportWorkerMessage } from './import-jobs';

/** Thrown from the progress callback when the job was cancelled: the transaction rolls back. */
class Cancelled extends Error {}

const input = workerData as ImportWorkerData;
const post = (m: ImportWorkerMessage) => parentPort!.postMessage(m);
const cancelFlag = new Int32Array(input.cancel);

const db = openDatabase(input.dbPath, { nativeBinding: input.nativeBinding });
try {
  const store = createStore(db);
  // Progress is sent at most every 50 ms: enough for a progress bar, and cheap.
  let last = 0;
  const report = importFile(store, new Uint8Array(input.bytes), {
    ...input.options,
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
  else if (err instanceof ApiError) post({ type: 'failed', error: { code: err.code, status: err.status, messageKey: err.messageKey, vars: err.vars, data: err.data, invalid: err.invalid, missing: err.missing } });
  else post({ type: 'crashed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
} finally {
  closeDatabase(db);
}
