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
import type { IcsFile, IcsImportOptions, ImportedEvent, ImportProblem, ReadEvent } from './import';
import { startWorker } from '../import-export/worker-script';

/** Events per message. */
export const BATCH = 200;
/** Events in the first message: the writer waits for it, idle, so it comes as soon as it can. */
export const FIRST_BATCH = 16;
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
 * When a reading ends, a thread waits this long for the next file: the next import (or this
 * import's second attempt) then starts reading at once instead of loading the reader first (about
 * 50 ms built, a few hundred from the TypeScript sources).
 */
const SPARE_IDLE_MS = 30_000;

/** One file to read, sent to the thread as a message. */
export interface ReadJob {
  /** The file: its text, or (`utf8`) its UTF-8 bytes, valid and without a byte order mark, to decode there. */
  text?: string;
  utf8?: SharedArrayBuffer;
  options: Omit<IcsImportOptions, 'onProgress'>;
  /** Check each event's body as the import's writer would, and send the values (import-values.ts). */
  prepare?: PrepareContext;
  port: MessagePort;
  signal: SharedArrayBuffer;
}

export type ReadWorkerMessage =
  | { type: 'progress'; done: number; total: number }
  | { type: 'scanned'; vevents: number; broken: boolean; errors?: ImportProblem[]; warnings?: ImportProblem[]; reusable?: boolean }
  | { type: 'events'; events: ReadEvent[]; read: number }
  | { type: 'end'; errors: ImportProblem[]; warnings: ImportProblem[]; unreadable?: boolean; reusable?: boolean }
  | { type: 'crashed'; message: string };

/** What checking an event body needs besides the body: the import's "now" and zone. */
export interface PrepareContext {
  now: Date;
  siteZone: string;
}

/** A reading thread started for the next file (one at most: imports write one at a time). */
let spare: { worker: Worker; timer: NodeJS.Timeout } | undefined;

function newWorker(): Worker {
  const worker = startWorker('ics-read-worker', {});
  // Its failures arrive as messages; this keeps an unexpected 'error' event from ending the process.
  worker.on('error', () => {});
  worker.on('exit', () => {
    if (spare?.worker === worker) {
      clearTimeout(spare.timer);
      spare = undefined;
    }
  });
  // A reading nobody finishes (the import failed before it began), or a thread waiting for the next
  // file, must not keep the process alive.
  worker.unref();
  return worker;
}

function takeWorker(): Worker {
  if (!spare) return newWorker();
  const { worker, timer } = spare;
  spare = undefined;
  clearTimeout(timer);
  return worker;
}

/**
 * A reading ended. A thread that read its file to the end, and then let go of it (read-worker.ts),
 * waits for the next file: its code is optimised already, which a new thread redoes for each file
 * (about 2 s of compiling in a 100,000-event import, on the cores that read and write it). A thread
 * stopped before the end, or that cannot let go of a file, is ended, and a new one readied instead.
 */
function done(worker: Worker, reusable: boolean): void {
  if (reusable && !spare) return park(worker);
  void worker.terminate();
  if (!spare) park(newWorker());
}

function park(worker: Worker): void {
  const timer = setTimeout(() => {
    if (spare?.worker === worker) spare = undefined;
    void worker.terminate();
  }, SPARE_IDLE_MS);
  timer.unref();
  spare = { worker, timer };
}

/** The reading thread read its file to the end and can read another. */
function endedReusable(m: ReadWorkerMessage): boolean {
  return (m.type === 'end' || (m.type === 'scanned' && m.broken)) && m.reusable === true;
}

class Reading {
  private worker: Worker | undefined;
  private readonly port: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4 * 3));
  private reusable = false;

  constructor(file: string | SharedArrayBuffer, opts: IcsImportOptions, prepare?: PrepareContext) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    // A function cannot cross to the thread; the scan's progress comes back as messages instead.
    const { onProgress: _inMessages, ...options } = opts;
    const job: ReadJob = { ...(typeof file === 'string' ? { text: file } : { utf8: file }), options, prepare, port: port2, signal: this.signal.buffer as SharedArrayBuffer };
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
        if (endedReusable(m)) this.reusable = true;
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
    if (this.worker) done(this.worker, this.reusable);
    this.worker = undefined;
  }
}

function shared(bytes: Uint8Array): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(bytes.length);
  new Uint8Array(buffer).set(bytes);
  return buffer;
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

/**
 * `openIcs` on a worker thread: see above. `source`: the text, or its UTF-8 bytes (valid, without
 * a byte order mark; text-input.ts plainUtf8), which the thread decodes: that spares this thread
 * the decoding and both the copy of the text between threads. `prepare`: the thread also checks
 * each event's body for an import into a calendar with that "now" and zone, and sends the values.
 */
export function openIcsThreaded(source: string | Uint8Array, opts: IcsImportOptions, prepare?: PrepareContext): IcsFile<ReadEvent> {
  // Bytes are shared, not copied into the message: the same ones serve a second reading.
  const file = typeof source === 'string' ? source : shared(source);
  // The first reading goes straight on from the scan to the events, ready for the first `read`.
  let ready: Reading | undefined = new Reading(file, opts, prepare);
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
      const reading = ready ?? new Reading(file, opts, prepare);
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

export interface IcsReadResult {
  vevents: number;
  broken: boolean;
  events: ImportedEvent[];
  errors: ImportProblem[];
  warnings: ImportProblem[];
  unreadable?: boolean;
}

/**
 * The whole file read on the reading thread while this one goes on answering requests (a
 * subscription's refresh runs inside the server: reading 10,000 events takes most of a second).
 * `maxEvents`: a file scanned with more VEVENTs is not read further (`events` stays empty).
 */
export function readIcsInBackground(text: string, opts: Omit<IcsImportOptions, 'onProgress'>, limits: { maxEvents: number }): Promise<IcsReadResult> {
  const { port1: port, port2 } = new MessageChannel();
  const signal = new Int32Array(new SharedArrayBuffer(4 * 3));
  const worker = takeWorker();
  return new Promise<IcsReadResult>((resolveRead, rejectRead) => {
    const out: IcsReadResult = { vevents: 0, broken: false, events: [], errors: [], warnings: [] };
    let silence: NodeJS.Timeout | undefined;
    let reusable = false;
    const finish = (err?: Error) => {
      clearTimeout(silence);
      Atomics.store(signal, SIGNAL.stop, 1);
      Atomics.notify(signal, SIGNAL.consumed);
      port.close();
      done(worker, reusable);
      if (err) rejectRead(err);
      else resolveRead(out);
    };
    const alive = () => {
      clearTimeout(silence);
      silence = setTimeout(() => finish(new Error('The thread reading the iCalendar file stopped answering.')), SILENCE_LIMIT_MS);
      silence.unref();
    };
    port.on('message', (m: ReadWorkerMessage) => {
      alive();
      reusable = endedReusable(m);
      if (m.type === 'scanned') {
        out.vevents = m.vevents;
        out.broken = m.broken;
        if (m.broken) {
          out.errors = m.errors ?? [];
          out.warnings = m.warnings ?? [];
          finish();
        } else if (m.vevents > limits.maxEvents) finish();
      } else if (m.type === 'events') {
        Atomics.add(signal, SIGNAL.consumed, 1);
        Atomics.notify(signal, SIGNAL.consumed);
        // No `prepare` asked: every event comes as read, with its body.
        for (const e of m.events) if ('body' in e) out.events.push(e);
      } else if (m.type === 'end') {
        out.errors = m.errors;
        out.warnings = m.warnings;
        out.unreadable = m.unreadable;
        finish();
      } else if (m.type === 'crashed') finish(crashed(m.message));
    });
    alive();
    const job: ReadJob = { text, options: opts, port: port2, signal: signal.buffer as SharedArrayBuffer };
    worker.postMessage(job, [port2]);
  });
}
