/**
 * The thread that reads iCalendar files for imports (see read-threaded.ts): it scans a file, then
 * makes its events and posts them in batches while the importing thread writes the ones before.
 * Reading and writing each take about half of an import's time. Files come as messages, one after
 * another, so that the thread can be started (and load the reader) before there is one to read, and
 * so that the next file is read by code V8 has already optimised.
 */
import { parentPort } from 'node:worker_threads';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { openIcs, type ImportedEvent, type ReadEvent } from './import';
import { BATCH, FIRST_BATCH, MAX_AHEAD, SIGNAL, type ReadJob, type ReadWorkerMessage } from './read-threaded';
import { eventFields } from '../../../shared/schema/resources';
import { prepareItem, type DatesContext } from '../import-export/import-values';
import { EventDateMemo } from '../store/event-dates';

/**
 * A full garbage collection of this thread's heap. After a file, nearly all of it is garbage (the
 * text, twice the file's size, and what was made from it) that V8 would otherwise keep until the
 * heap grew further: about 200 MB more while the next file is read. With almost nothing left alive
 * the collection takes about 10 ms. `--expose-gc` cannot be given to a worker thread, so the flag is
 * set here and `gc` taken from a new context (contexts made before never get it). Where that fails,
 * the thread says it cannot be used again, and the next file gets a new one.
 */
const collectGarbage = ((): (() => void) | undefined => {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
})();
const reusable = collectGarbage !== undefined;

/** Thrown when the importing thread has stopped listening (it failed, or the import was cancelled). */
class Stopped extends Error {}

function read(input: ReadJob): void {
  const signal = new Int32Array(input.signal);
  const post = (m: ReadWorkerMessage) => {
    input.port.postMessage(m);
    Atomics.add(signal, SIGNAL.posted, 1);
    Atomics.notify(signal, SIGNAL.posted);
  };
  try {
    // Progress also tells the importing thread that this one is alive (read-threaded.ts SILENCE_LIMIT_MS).
    const text = input.text ?? new TextDecoder('utf-8').decode(new Uint8Array(input.utf8!));
    const file = openIcs(text, { ...input.options, onProgress: (done, total) => post({ type: 'progress', done, total }) });
    if (file.broken) {
      const result = file.read(() => {});
      post({ type: 'scanned', vevents: file.vevents, broken: true, errors: result.errors, warnings: result.warnings, reusable });
    } else {
      post({ type: 'scanned', vevents: file.vevents, broken: false });
      let batch: ReadEvent[] = [];
      let read = 0;
      let sent = 0;
      const flush = () => {
        // Far enough ahead: wait for the writer, so that a large file is never held whole in messages.
        while (sent - Atomics.load(signal, SIGNAL.consumed) >= MAX_AHEAD) {
          if (Atomics.load(signal, SIGNAL.stop)) throw new Stopped();
          Atomics.wait(signal, SIGNAL.consumed, Atomics.load(signal, SIGNAL.consumed), 50);
        }
        if (Atomics.load(signal, SIGNAL.stop)) throw new Stopped();
        post({ type: 'events', events: batch, read });
        sent++;
        batch = [];
        read = 0;
      };
      const prepare = input.prepare && { ctx: input.prepare, memo: new EventDateMemo() };
      const result = file.read(
        (event) => {
          batch.push(prepare ? prepared(event, prepare) : event);
          if (batch.length >= (sent === 0 ? FIRST_BATCH : BATCH)) flush();
        },
        (n) => (read += n),
      );
      flush();
      post({ type: 'end', errors: result.errors, warnings: result.warnings, unreadable: result.unreadable, reusable });
    }
  } catch (err) {
    if (!(err instanceof Stopped)) post({ type: 'crashed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  } finally {
    input.port.close();
  }
}

/**
 * The event checked as the writer would check it, with its dates worked out: the writer then only
 * writes. One that fails is sent as it is, and the writer refuses it in its usual words.
 */
function prepared(event: ImportedEvent, prepare: DatesContext): ReadEvent {
  try {
    const { uid, recurrenceId, line } = event;
    return { uid, recurrenceId, line, prepared: prepareItem(eventFields, event.body as unknown as Record<string, unknown>, true, prepare) };
  } catch {
    return event;
  }
}

parentPort!.on('message', (job: ReadJob) => {
  read(job);
  collectGarbage?.();
});
