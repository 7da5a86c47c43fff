/**
 * A thread of a large iCalendar export (see ics-threads.ts): it writes the slices it is given from
 * a read-only connection of its own, in one read transaction begun when the server's thread says
 * (while it holds the write lock, so that every thread reads the same snapshot).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openReader } from '../store/db';
import { createStore } from '../store';
import { icsEvents } from './ics-rows';
import { icsVevents, ICS_TAIL, type IcsExportOptions } from './ics-export';
import type { IcsRowEvent } from './ics-rows';
import type { ExportOrder, ExportReport, ExportWorkerData } from './ics-threads';

/** Thrown between two chunks when the export was abandoned. */
class Stopped extends Error {}

const input = workerData as ExportWorkerData;
const port = parentPort!;
const stopFlag = new Int32Array(input.stop);
const post = (m: ExportReport, transfer?: ArrayBuffer[]) => port.postMessage(m, transfer);
const encoder = new TextEncoder();

const db = openReader(input.dbPath, { nativeBinding: input.nativeBinding });
const store = createStore(db);
const opts: IcsExportOptions<IcsRowEvent> = {
  uidHost: input.ctx.settings.global_id_host,
  calendarName: 'Almanac',
  uidOf: (e) => e.ics_uid,
  stamp: input.stamp,
};

function send(slice: number, text: string) {
  if (Atomics.load(stopFlag, 0)) throw new Stopped();
  const bytes = encoder.encode(text);
  post({ type: 'chunk', slice, bytes }, [bytes.buffer as ArrayBuffer]);
}

function writeSlice(order: Extract<ExportOrder, { type: 'slice' }>) {
  const events = icsEvents(store, input.q, input.ctx, undefined, { from: order.from, to: order.to });
  for (const chunk of icsVevents(events, opts, order.last ? ICS_TAIL : '')) send(order.slice, chunk);
  post({ type: 'end', slice: order.slice });
}

function finish() {
  if (db.open) db.close(); // a read transaction only: closing ends it
  port.close();
}

port.on('message', (order: ExportOrder) => {
  try {
    if (order.type === 'stop') return finish();
    if (order.type === 'begin') {
      db.exec('BEGIN');
      // The first read is what fixes the snapshot (BEGIN alone takes nothing).
      db.prepare('SELECT 1 FROM events LIMIT 1').get();
      post({ type: 'begun' });
      return;
    }
    writeSlice(order);
  } catch (err) {
    if (!(err instanceof Stopped)) post({ type: 'failed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    finish();
  }
});
post({ type: 'open' });
