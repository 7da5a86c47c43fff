/**
 * A large iCalendar file read on a worker thread while the import writes on its own: the same
 * `IcsFile` as `openIcs` gives (the same events, in the same order, the same problems), but with
 * reading and writing on two cores. Each takes about half of an import's time.
 *
 * The import's transaction is synchronous (better-sqlite3), so events are taken from the worker
 * synchronously too: `receiveMessageOnPort`, and `Atomics.wait` while none has arrived. The worker
 * stays at most MAX_AHEAD batches ahead, so a large file is never held whole in messages.
 */
import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import type { IcsFile, IcsImportOptions, ImportedEvent, ImportProblem } from './import';
import { startWorker } from '../import-export/worker-script';

/** Events per message. */
export const BATCH = 200;
/** Messages the worker may post before the importer has taken them. */
export const MAX_AHEAD = 16;
/** Slots of the shared counters: messages posted, batches taken, "stop reading". */
export const SIGNAL = { posted: 0, consumed: 1, stop: 2 } as const;
/**
 * No message for this long: the reading thread is gone (a thread that failed to load, or was
 * killed for memory, posts nothing). It posts at least every 1% of the scan and every 200 events.
 */
const SILENCE_LIMIT_MS = 30_000;
/**
 * A reading thread that finished its file waits this long for the next one before it ends: the
 * next import, or the import's second attempt, then starts reading at once instead of loading the
 * reader again (about 50 ms, a few hundred when the server runs from its TypeScript sources).
 */
const KEEP_IDLE_MS = 30_000;

/** One file to read, sent to the thread as a message. */
export interface ReadJob {
  text: string;
  options: Omit<IcsImportOptions, 'onProgress'>;
  port: MessagePort;
  signal: SharedArrayBuffer;
}

export type ReadWorkerMessage =
  | { type: 'progress'; done: number; total: number }
  | { type: 'scanned'; vevents: number; broken: boolean; errors?: ImportProblem[]; warnings?: ImportProblem[] }
  | { type: 'events'; events: ImportedEvent[]; read: number }
  | { type: 'end'; errors: ImportProblem[]; warnings: ImportProblem[]; unreadable?: boolean }
  | { type: 'crashed'; message: string };

/** A reading thread that finished its last file, kept for the next one (one at most: imports write one at a time). */
let idle: { worker: Worker; timer: NodeJS.Timeout } | undefined;

function takeWorker(): Worker {
  if (idle) {
    const { worker, timer } = idle;
    idle = undefined;
    clearTimeout(timer);
    return worker;
  }
  const worker = startWorker('ics-read-worker', {});
  // Its failures arrive as messages; this keeps an unexpected 'error' event from ending the process.
  worker.on('error', () => {});
  worker.on('exit', () => {
    if (idle?.worker === worker) {
      clearTimeout(idle.timer);
      idle = undefined;
    }
  });
  // A reading nobody finishes (the import failed before it began), or a thread waiting for the next
  // file, must not keep the process alive.
  worker.unref();
  return worker;
}

/** A thread whose reading ended (it posted its last message) is kept for the next file; any other is ended. */
function giveBack(worker: Worker, finished: boolean): void {
  if (!finished || idle) {
    void worker.terminate();
    return;
  }
  const timer = setTimeout(() => {
    if (idle?.worker === worker) idle = undefined;
    void worker.terminate();
  }, KEEP_IDLE_MS);
  timer.unref();
  idle = { worker, timer };
}

class Reading {
  private worker: Worker | undefined;
  private readonly port: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4 * 3));
  /** The thread posted its last message for this file, and so waits for the next file. */
  private finished = false;

  constructor(text: string, opts: IcsImportOptions) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    // A function cannot cross to the thread; the scan's progress comes back as messages instead.
    const { onProgress: _inMessages, ...options } = opts;
    const job: ReadJob = { text, options, port: port2, signal: this.signal.buffer as SharedArrayBuffer };
    this.worker = takeWorker();
    this.worker.postMessage(job, [port2]);
  }

  /** The next message, waiting for it. */
  next(): ReadWorkerMessage {
    let waited = 0;
    for (;;) {
      const posted = Atomics.load(this.signal, SIGNAL.posted);
      const got = receiveMessageOnPort(this.port);
      if (got) {
        const m = got.message as ReadWorkerMessage;
        if (m.type === 'end' || m.type === 'crashed' || (m.type === 'scanned' && m.broken)) this.finished = true;
        return m;
      }
      if (Atomics.wait(this.signal, SIGNAL.posted, posted, 1000) === 'timed-out' && (waited += 1000) >= SILENCE_LIMIT_MS) {
        throw new Error('The thread reading the iCalendar file stopped answering.');
      }
    }
  }

  /** Tells the worker a batch was taken, so it may read further. */
  taken(): void {
    Atomics.add(this.signal, SIGNAL.consumed, 1);
    Atomics.notify(this.signal, SIGNAL.consumed);
  }

  stop(): void {
    Atomics.store(this.signal, SIGNAL.stop, 1);
    Atomics.notify(this.signal, SIGNAL.consumed);
    this.port.close();
    if (this.worker) giveBack(this.worker, this.finished);
    this.worker = undefined;
  }
}

function crashed(message: string): Error {
  return new Error(`Reading the iCalendar file failed: ${message}`);
}

/** The scan's answer, with its progress passed on while it runs (a second reading's is not). */
function scanned(reading: Reading, onProgress?: (done: number, total: number) => void) {
  for (;;) {
    const m = reading.next();
    if (m.type === 'progress') onProgress?.(m.done, m.total);
    else if (m.type === 'scanned') return m;
    else if (m.type === 'crashed') throw crashed(m.message);
    else throw new Error(`Unexpected message from the reading thread: ${m.type}`);
  }
}

/** `openIcs` on a worker thread: see above. */
export function openIcsThreaded(text: string, opts: IcsImportOptions): IcsFile {
  // The first reading goes straight on from the scan to the events, ready for the first `read`.
  let ready: Reading | undefined = new Reading(text, opts);
  let scan: ReturnType<typeof scanned>;
  try {
    scan = scanned(ready, opts.onProgress);
  } catch (err) {
    ready.stop();
    throw err;
  }
  if (scan.broken) {
    ready.stop();
    return { vevents: scan.vevents, broken: true, read: () => ({ errors: [...scan.errors!], warnings: [...scan.warnings!] }) };
  }
  return {
    vevents: scan.vevents,
    broken: false,
    read(onEvent, onRead) {
      // Read again (the import's second attempt): a new reading, scan and all.
      const again = !ready;
      const reading = ready ?? new Reading(text, opts);
      ready = undefined;
      try {
        if (again) scanned(reading);
        for (;;) {
          const m = reading.next();
          if (m.type === 'events') {
            reading.taken();
            for (const event of m.events) onEvent(event);
            onRead?.(m.read);
          } else if (m.type === 'end') {
            return { errors: m.errors, warnings: m.warnings, unreadable: m.unreadable };
          } else if (m.type === 'crashed') {
            throw crashed(m.message);
          }
        }
      } finally {
        reading.stop();
      }
    },
    close() {
      ready?.stop();
      ready = undefined;
    },
  };
}
