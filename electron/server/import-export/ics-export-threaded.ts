/**
 * A large iCalendar export written on two cores. The server's thread reads the events and what
 * they link to (SQL, about 45% of an export); a worker thread (ics-export-worker.ts) turns them
 * into VEVENT text (the rest). Only the server's thread reads the database, so the file is one
 * snapshot with no coordination between connections: the worker gets plain data.
 *
 * The worker can only add speed, never wait time: batches go to it while it keeps up (at most
 * MAX_AHEAD unanswered), and the server's thread writes the others itself. When the file needs a
 * batch the worker has not answered yet (it is still starting, or the machine is busy, or it
 * failed), the server's thread writes that batch too and ignores the worker's answer. The text
 * comes out in the events' order, and is the same whoever wrote each batch.
 */
import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import type { Store } from '../store';
import { parseExportRow, type EventListQuery, type ExportRowLinks } from '../store/events';
import type { UrlContext } from '../serialize/context';
import { createIcsEventMaker, createLinkLoader, type LinkedData } from './ics-rows';
import { icsHead, veventsText, zonesUsed, ICS_END } from './ics-export';
import { startWorker } from './worker-script';

/** Below this many events an export is written on the server's thread alone (a thread costs its start). */
export const THREADED_EXPORT_EVENTS = 5000;
/** Events per batch, and so per message and per chunk of the file (about 0.6 MB of text). */
const BATCH = 500;
/** Batches the worker may have unanswered. */
const MAX_AHEAD = 4;
/** Written batches held behind one the worker has not answered: then this thread writes that one. */
const MAX_HELD = 8;

export interface ExportWorkerData {
  ctx: UrlContext;
  uidHost: string;
  port: MessagePort;
}

/** To the worker: linked data to remember, and events (JSON texts with their links) to write. */
export type ExportWorkerInput = { linked: LinkedData[]; seq: number; rows: Batch };
/** A batch's text comes as UTF-8, moved rather than copied: the server's thread neither copies nor encodes it. */
export type ExportWorkerOutput = { type: 'text'; seq: number; utf8: Uint8Array } | { type: 'crashed'; message: string };

export interface IcsExportOptions {
  uidHost: string;
  calendarName?: string;
  /** Fewest events for which a worker thread helps (default THREADED_EXPORT_EVENTS); tests lower it. */
  threadedFrom?: number;
  /** Events per batch (default BATCH); tests make them small to have many. */
  batchSize?: number;
}

/** The database's events matching `q` as an iCalendar file, in chunks; `store` reads them in one snapshot. */
export function* icsExportChunks(store: Store, q: EventListQuery, ctx: UrlContext, opts: IcsExportOptions): Generator<string | Uint8Array> {
  yield icsHead(zonesUsed(store.events.zoneSpans(q)), opts);
  const loader = createLinkLoader(store, ctx);
  // This thread's own maker is given everything the worker is, so it can write any batch.
  const maker = createIcsEventMaker(ctx);
  const veventOpts = { uidHost: opts.uidHost, uidOf: (e: { ics_uid: string | null }) => e.ics_uid };
  const write = (batch: Batch) => veventsText(batch.texts.map((text, i) => maker.make(parseExportRow(text, batch.links[i]))), veventOpts);

  const helper = store.events.count(q) >= (opts.threadedFrom ?? THREADED_EXPORT_EVENTS) ? Helper.start(ctx, opts.uidHost) : undefined;
  // The file's batches in order: written, or sent to the worker (`seq`).
  const queue: Array<{ text: string | Uint8Array } | { seq: number; batch: Batch }> = [];
  let unsent: LinkedData[] = [];
  let seq = 0;

  /** Yields the written batches at the front; `all`: writes the worker's unanswered ones here. */
  function* written(all: boolean): Generator<string | Uint8Array> {
    while (queue.length > 0) {
      const front = queue[0];
      let text: string | Uint8Array | undefined;
      if ('text' in front) text = front.text;
      else text = helper?.answer(front.seq) ?? (all ? write(front.batch) : undefined);
      if (text === undefined) return;
      queue.shift();
      yield text;
    }
  }

  try {
    for (const batch of store.events.exportBatchTexts(q, opts.batchSize ?? BATCH)) {
      const linked = loader.load(batch.links);
      maker.add(linked);
      if (helper?.canTake()) {
        helper.send({ linked: [...unsent, linked], seq, rows: batch });
        unsent = [];
        queue.push({ seq: seq++, batch });
      } else {
        if (helper) unsent.push(linked);
        queue.push({ text: write(batch) });
      }
      yield* written(false);
      // Too much written behind a batch the worker has not answered: it is written here.
      if (queue.length > MAX_HELD) {
        const front = queue[0];
        if ('seq' in front) queue[0] = { text: helper?.answer(front.seq) ?? write(front.batch) };
        yield* written(false);
      }
    }
    yield* written(true);
    yield ICS_END;
  } finally {
    helper?.stop();
  }
}

type Batch = { texts: string[]; links: ExportRowLinks[] };

/** The worker thread, as this thread sees it. */
class Helper {
  private failed = false;
  /** Answers by batch number, taken from the port as they come. */
  private readonly answers = new Map<number, Uint8Array>();
  /** The batches sent, answered or not. */
  private sent = 0;
  /** Answers received, used or not (a batch written here is still answered). */
  private received = 0;

  private constructor(
    private readonly thread: Worker,
    private readonly port: MessagePort,
  ) {}

  static start(ctx: UrlContext, uidHost: string): Helper | undefined {
    try {
      const { port1, port2 } = new MessageChannel();
      const data: ExportWorkerData = { ctx, uidHost, port: port2 };
      const helper = new Helper(startWorker('ics-export-worker', data, [port2]), port1);
      // Its failures come as messages or not at all; this keeps an 'error' event from ending the process.
      helper.thread.on('error', () => (helper.failed = true));
      helper.thread.unref();
      return helper;
    } catch {
      return undefined; // No thread to be had: this one writes everything.
    }
  }

  /** Whether the worker is working and has room for another batch. */
  canTake(): boolean {
    this.collect();
    return !this.failed && this.sent - this.received < MAX_AHEAD;
  }

  send(input: ExportWorkerInput): void {
    this.port.postMessage(input);
    this.sent++;
  }

  /** The worker's text for batch `seq`, if it has come. */
  answer(seq: number): Uint8Array | undefined {
    this.collect();
    const text = this.answers.get(seq);
    this.answers.delete(seq);
    return text;
  }

  private collect(): void {
    for (let got = receiveMessageOnPort(this.port); got; got = receiveMessageOnPort(this.port)) {
      const m = got.message as ExportWorkerOutput;
      if (m.type === 'crashed') this.failed = true;
      else {
        this.received++;
        this.answers.set(m.seq, m.utf8);
      }
    }
  }

  stop(): void {
    this.port.close();
    void this.thread.terminate();
  }
}
