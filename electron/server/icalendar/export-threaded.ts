/**
 * A large iCalendar export written on two cores. The server's thread reads the events and what
 * they link to (SQL, about 45% of an export); a worker thread (export-worker.ts) turns them
 * into VEVENT text (the rest). Only the server's thread reads the database, so the file is one
 * snapshot with no coordination between connections: the worker gets plain data.
 *
 * The server's thread never waits for the worker: batches go to it while it keeps up (at most
 * MAX_AHEAD unanswered), and the server's thread writes the others itself. When the file needs a
 * batch the worker has not answered yet (at the end, or once MAX_HELD written batches wait behind
 * it, or when the worker failed), the server's thread writes that batch too and drops the
 * worker's answer when it comes. The text comes out in the events' order, and is the same
 * whoever wrote each batch.
 */
import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import type { Store } from '../store';
import type { EventListQuery } from '../store/events';
import type { EventExportBatch } from '../store/event-export-row';
import type { UrlContext } from '../serialize/context';
import { createBatchWriter, createLinkLoader, type LinkedData } from './export-rows';
import { icsHead, zonesUsed, ICS_END } from './export';
import { startWorker } from '../import-export/worker-script';

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
export type ExportWorkerInput = { linked: LinkedData[]; seq: number; rows: EventExportBatch };
/** A batch's text comes as UTF-8, moved rather than copied: the server's thread neither copies nor encodes it. */
export type ExportWorkerOutput = { type: 'text'; seq: number; utf8: Uint8Array } | { type: 'crashed'; message: string };

export interface IcsExportOptions {
  uidHost: string;
  calendarName?: string;
  /** Fewest events for which a worker thread helps (default THREADED_EXPORT_EVENTS); tests lower it. */
  threadedFrom?: number;
  /** How many events the export holds, when the caller has counted them already. */
  events?: number;
  /** Events per batch (default BATCH); tests make them small to have many. */
  batchSize?: number;
  /** Told who wrote each batch, in the file's order: the worker thread or this one. */
  onBatch?: (by: 'worker' | 'here') => void;
}

/** The database's events matching `q` as an iCalendar file, in chunks; `store` reads them in one snapshot. */
export function* icsExportChunks(store: Store, q: EventListQuery, ctx: UrlContext, opts: IcsExportOptions): Generator<string | Uint8Array> {
  // Started first: it loads while the head is read and sent.
  const helper = (opts.events ?? store.events.count(q)) >= (opts.threadedFrom ?? THREADED_EXPORT_EVENTS) ? Helper.start(ctx, opts.uidHost) : undefined;
  try {
    yield icsHead(zonesUsed(store.events.zoneSpans(q)), opts);
    yield* icsBody(store, q, ctx, opts, helper);
    yield ICS_END;
  } finally {
    helper?.stop();
  }
}

function* icsBody(store: Store, q: EventListQuery, ctx: UrlContext, opts: IcsExportOptions, helper: Helper | undefined): Generator<string | Uint8Array> {
  const loader = createLinkLoader(store, ctx);
  // This thread's own writer is given everything the worker is, so it can write any batch.
  const writer = createBatchWriter(ctx, opts.uidHost);
  const write = writer.write;

  // The file's batches in order: written, or sent to the worker.
  const queue: Array<Written | Sent> = [];
  let unsent: LinkedData[] = [];
  let seq = 0;

  /** Yields the written batches at the front; `all`: writes the worker's unanswered ones here. */
  function* written(all: boolean): Generator<string | Uint8Array> {
    while (queue.length > 0) {
      const front = queue[0];
      const done = 'seq' in front ? textOf(front, all || !helper || helper.failed) : front;
      if (!done) return;
      queue.shift();
      opts.onBatch?.(done.by);
      yield done.text;
    }
  }

  /** A sent batch's text: the worker's, or (`now`) this thread's; undefined while neither. */
  function textOf(item: Sent, now: boolean): Written | undefined {
    const answered = helper?.answer(item.seq);
    if (answered !== undefined) return { text: answered, by: 'worker' };
    if (!now) return undefined;
    helper?.drop(item.seq);
    return { text: write(item.batch), by: 'here' };
  }

  for (const batch of store.events.exportBatchTexts(q, opts.batchSize ?? BATCH, { seriesFirstEvents: store.series.selectionMayMissFirstEvents(q) })) {
    const linked = loader.load(batch.links);
    writer.add(linked);
    if (helper?.canTake()) {
      helper.send({ linked: [...unsent, linked], seq, rows: batch });
      unsent = [];
      queue.push({ seq: seq++, batch });
    } else {
      if (helper && !helper.failed) unsent.push(linked);
      queue.push({ text: write(batch), by: 'here' });
    }
    yield* written(false);
    // Too much written behind a batch the worker has not answered: it is written here.
    if (queue.length > MAX_HELD) {
      queue[0] = textOf(queue[0] as Sent, true)!;
      yield* written(false);
    }
  }
  yield* written(true);
}

type Sent = { seq: number; batch: EventExportBatch };
type Written = { text: string | Uint8Array; by: 'worker' | 'here' };

/** The worker thread, as this thread sees it. */
class Helper {
  private broken = false;
  /** Answers by batch number, taken from the port as they come. */
  private readonly answers = new Map<number, Uint8Array>();
  /** Batches written by the server's thread instead: their answers are dropped as they come. */
  private readonly dropped = new Set<number>();
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
      helper.thread.on('error', () => (helper.broken = true));
      helper.thread.unref();
      return helper;
    } catch {
      return undefined; // No thread to be had: this one writes everything.
    }
  }

  /** Whether the worker is working and has room for another batch. */
  canTake(): boolean {
    this.collect();
    return !this.broken && this.sent - this.received < MAX_AHEAD;
  }

  get failed(): boolean {
    return this.broken;
  }

  send(input: ExportWorkerInput): void {
    this.port.postMessage(input);
    this.sent++;
  }

  /** Batch `seq` is written elsewhere: its answer, come or to come, is not wanted. */
  drop(seq: number): void {
    if (!this.answers.delete(seq)) this.dropped.add(seq);
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
      if (m.type === 'crashed') this.broken = true;
      else {
        this.received++;
        if (!this.dropped.delete(m.seq)) this.answers.set(m.seq, m.utf8);
      }
    }
  }

  stop(): void {
    this.port.close();
    void this.thread.terminate();
  }
}
