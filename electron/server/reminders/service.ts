/**
 * Firing reminders (issue 16): one timer to the next due firing (at most a minute away, so a
 * clock that jumped, or a machine that slept, is noticed within a minute, as GNOME's watcher does),
 * the schedule refilled every few hours, and the clients told over server-sent events.
 *
 * A firing is marked in the database before anyone is told (`takeDue`, committed, then sent): a
 * crash in between loses a notification rather than repeating one. Firings that came due while the
 * server was down are told once, as one summary at start-up, never one message each.
 */
import type { ServerResponse } from 'node:http';
import type { Store } from '../store';
import type { DueReminder } from '../store/reminders';
import type { Logger } from '../app';

/** The longest the timer waits: how late a clock jump or a sleep is noticed. */
export const MAX_WAIT_MS = 60_000;
/** How often the schedule's window is moved and refilled from the reminders. */
export const REFILL_EVERY_MS = 3 * 3600_000;
/** Firings older than start-up minus this are "missed" (the server was not running then). */
const MISSED_MARGIN_MS = 2 * 60_000;
/** A missed summary names this many at most; `count` says how many there were. */
const SUMMARY_NAMES = 20;
/** Events scheduled per transaction by a refill (a few milliseconds each). */
const REFILL_BATCH = 200;
/** A comment line this often keeps idle-connection timeouts from closing a quiet stream. */
const HEARTBEAT_MS = 25_000;

import type { DueJson, ReminderMessage } from '../../../shared/api/due-reminders';

export type { DueJson, ReminderMessage };

export function dueJson(r: DueReminder, apiRoot: string): DueJson {
  return {
    key: r.key,
    event_id: r.event_id,
    series_id: r.recurrence_id !== null ? (r.parent_id ?? r.event_id) : null,
    recurrence_id: r.recurrence_id,
    title: r.title,
    action: r.action,
    due_at: `${r.fire_utc.replace(' ', 'T')}Z`,
    fired: !!r.pushed,
    start_date: r.start_local,
    utc_start_date: r.start_utc,
    end_date: r.end_local,
    timezone: r.timezone,
    all_day: !!r.all_day,
    rest_url: `${apiRoot}events/${r.event_id}`,
  };
}

export interface ReminderServiceOptions {
  store: Store;
  now: () => Date;
  log: Logger;
  /** The API root of this server (for `rest_url`), known once it listens. */
  apiRoot: () => string;
  /** Run the timer (default); tests with a controlled clock call `tick()` themselves. */
  timer?: boolean;
}

export function createReminderService(opts: ReminderServiceOptions) {
  const { store } = opts;
  const clients = new Set<ServerResponse>();
  const startedAt = opts.now().getTime();
  let lastRefill = -Infinity;
  let first = true;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let ticking = false;
  /** The start-up summary, kept until a client has been told (the window may open later). */
  let pendingSummary: ReminderMessage | undefined;

  function send(res: ServerResponse, m: ReminderMessage): void {
    res.write(`event: ${m.type}\ndata: ${JSON.stringify(m)}\n\n`);
  }

  /** In-process listeners (the desktop shell's native notifications), told with the streams. */
  const listeners = new Set<(m: ReminderMessage) => void>();

  function broadcast(messages: ReminderMessage[]): void {
    for (const res of clients) for (const m of messages) send(res, m);
    for (const m of messages) {
      for (const listener of listeners) {
        try {
          listener(m);
        } catch (err) {
          opts.log('warn', `a reminder listener failed: ${(err as Error).message}`);
        }
      }
    }
  }

  /** Refills the schedule a batch at a time, answering requests between batches. */
  async function refill(now: Date): Promise<void> {
    const plan = store.write(() => store.reminders.refillPlan(now));
    const done = new Set<number>();
    for (let i = 0; i < plan.length && !closed; i += REFILL_BATCH) {
      store.write(() => store.reminders.refillSome(plan.slice(i, i + REFILL_BATCH), now, done));
      if (i + REFILL_BATCH < plan.length) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * One turn: the schedule refilled when due for it, the firings due now taken (marked fired) and
   * told. Resolves to the messages sent, for tests and logs.
   */
  async function tick(): Promise<ReminderMessage[]> {
    // One turn at a time: a refill yields between batches, and the timer may come meanwhile.
    if (closed || ticking) return [];
    ticking = true;
    try {
      return await turn();
    } finally {
      ticking = false;
      arm();
    }
  }

  async function turn(): Promise<ReminderMessage[]> {
    if (timer) clearTimeout(timer);
    const now = opts.now();
    const t = now.getTime();
    const messages: ReminderMessage[] = [];
    try {
      // A clock set back moves the window too.
      if (t - lastRefill >= REFILL_EVERY_MS || t < lastRefill) {
        await refill(now);
        lastRefill = t;
        if (closed) return [];
      }
      const taken = store.write(() => store.reminders.takeDue(now));
      const root = opts.apiRoot();
      const missed = first ? taken.filter((r) => Date.parse(`${r.fire_utc.replace(' ', 'T')}Z`) < startedAt - MISSED_MARGIN_MS) : [];
      if (missed.length) {
        const summary: ReminderMessage = { type: 'missed', count: missed.length, reminders: missed.slice(-SUMMARY_NAMES).map((r) => dueJson(r, root)) };
        messages.push(summary);
        if (clients.size === 0) pendingSummary = summary;
      }
      const missedKeys = new Set(missed.map((r) => r.key));
      for (const r of taken) if (!missedKeys.has(r.key)) messages.push({ type: 'due', reminder: dueJson(r, root) });
      first = false;
      broadcast(messages);
    } catch (err) {
      // A busy calendar (another process writing) or a failed write: tried again at the next turn.
      opts.log('warn', `reminders could not be checked now (${(err as Error).message}); trying again shortly`);
    }
    return messages;
  }

  /** Sets the timer to the next firing, at most a minute away. */
  function arm(): void {
    if (closed || ticking || opts.timer === false) return;
    if (timer) clearTimeout(timer);
    const next = store.reminders.nextFire();
    const now = opts.now().getTime();
    const wait = next === undefined ? MAX_WAIT_MS : Math.min(MAX_WAIT_MS, Math.max(0, next - now));
    timer = setTimeout(() => void tick(), wait);
    timer.unref();
  }

  // An event write may bring a firing closer than the timer: look again once it has committed.
  store.reminders.onChange(() => {
    if (!closed && opts.timer !== false) setImmediate(arm);
  });

  const heartbeat = setInterval(() => {
    for (const res of clients) res.write(': still here\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();

  if (opts.timer !== false) {
    // The first turn after the server is up, so start-up is not held by the schedule's refill.
    timer = setTimeout(() => void tick(), 0);
    timer.unref();
  }

  return {
    tick,
    /** Serves `GET /reminders/stream` to an authenticated client: server-sent events until it leaves. */
    subscribe(res: ServerResponse): void {
      res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
      // A stream is quiet for minutes: the server's idle timeout is for stalled requests, not this.
      res.socket?.setTimeout(0);
      res.write(': reminders\n\n');
      if (pendingSummary) {
        send(res, pendingSummary);
        pendingSummary = undefined;
      }
      clients.add(res);
      res.on('close', () => clients.delete(res));
    },
    /**
     * Tells `listener` every message the streams get, until the returned function is called. The
     * start-up summary still waits for a stream: the window shows it even when a listener saw it.
     */
    onMessage(listener: (m: ReminderMessage) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get clientCount(): number {
      return clients.size;
    },
    close(): void {
      closed = true;
      if (timer) clearTimeout(timer);
      clearInterval(heartbeat);
      for (const res of clients) res.end();
      clients.clear();
      listeners.clear();
    },
  };
}

export type ReminderService = ReturnType<typeof createReminderService>;
