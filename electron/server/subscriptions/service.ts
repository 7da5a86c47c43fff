/**
 * Read-only iCalendar subscriptions (issue 17 item 7), run inside the server beside the CalDAV
 * sync (plain Node; never imports electron). Subscribing fetches and reads the feed before
 * anything is stored; a refresh asks with the feed's validators (If-None-Match, If-Modified-Since)
 * and a 304 changes nothing. A new body is applied by UID: a resource whose hash is unchanged is
 * not touched, a changed one is written over its events through the import's VEVENT mapping (so
 * kept events keep their ids, and with them reminders and links), one the feed no longer has is
 * deleted for good. The writes go in batches of BATCH resources, one transaction each, with the
 * server answering requests between them; the validators are stored only once every batch is
 * in, so a refresh cut short is done again whole next time.
 */
import { storedError } from '../caldav/errors';
import type { Store } from '../store';
import type { CalendarRow } from '../store/caldav-accounts';
import type { WriteContext } from '../store/post-fields';
import { NO_LANGUAGE } from '../../../shared/i18n/languages';
import { applyItems } from '../caldav/resource';
import { yieldToRequests } from '../sync/outbox';
import { fetchFeed, SubscriptionError, type FeedRequest } from './fetch';
import { readFeed, type Feed } from './feed';
import { feedHttpUrl } from '../../../shared/schema/subscriptions';

/** Resources written per transaction: about what a request may wait behind. */
export const BATCH = 50;
/** Resources deleted per transaction (a delete is cheaper than a write). */
const DELETE_BATCH = 200;
/** Event rows deleted per transaction when unsubscribing: about 50 ms of work here. */
const REMOVE_BATCH = 250;
export const DEFAULT_REFRESH_MS = 6 * 3600_000;

export interface SubscriptionServiceOptions {
  store: Store;
  write: () => WriteContext;
  /** Between background refreshes (default 6 h); 0: only when asked (tests, the CLI). */
  intervalMs?: number;
  /** Per feed request, redirects and body included (default 30 s). */
  timeoutMs?: number;
  maxBytes?: number;
  maxEvents?: number;
  fetch?: typeof fetch;
  log?: (level: 'info' | 'warn' | 'error', line: string) => void;
}

export interface RefreshReport {
  calendar: number;
  ok: boolean;
  /** The server answered 304: nothing was read or written. */
  unchanged: boolean;
  added: number;
  updated: number;
  removed: number;
  /** Events of the feed that could not be read (in words); the others were taken. */
  problems: string[];
  error?: string;
}

export interface SubscribeInput {
  url: string;
  name?: string;
  color?: string;
}

/** Thrown when the subscription was removed while a refresh was writing it. */
class Removed extends Error {}

export function createSubscriptionService(opts: SubscriptionServiceOptions) {
  const { store } = opts;
  const running = new Map<number, Promise<RefreshReport>>();
  /** Subscriptions being removed: no refresh may write into them meanwhile. */
  const removing = new Set<number>();
  const goneAway = (id: number) => removing.has(id) || !store.subscriptions.get(id);
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const request = (url: string, validators: Pick<FeedRequest, 'etag' | 'lastModified'> = {}) =>
    fetchFeed({ url, ...validators, timeoutMs: opts.timeoutMs, maxBytes: opts.maxBytes, fetch: opts.fetch });

  async function read(text: string, contentType: string): Promise<Feed> {
    const ctx = opts.write();
    return readFeed(text, contentType, { siteZone: ctx.siteZone, now: ctx.now, maxEvents: opts.maxEvents });
  }

  /** Writes the feed over the calendar's events, by UID, in bounded transactions. */
  async function apply(calendarId: number, feed: Feed, report: RefreshReport): Promise<void> {
    const known = store.subscriptions.items(calendarId);
    // A feed's events have no language of their own: every language's lists show them.
    const ctx: WriteContext = { ...opts.write(), eventLang: NO_LANGUAGE };
    // A resource whose events are gone all the same (a backup restored over them) is written again.
    const present = store.subscriptions.uids(calendarId);
    const todo = [...feed.resources.keys()].filter((uid) => known.get(uid) !== feed.hashes.get(uid) || !present.has(uid));
    for (let i = 0; i < todo.length; i += BATCH) {
      const batch = todo.slice(i, i + BATCH);
      store.write(() => {
        if (goneAway(calendarId)) throw new Removed();
        // The feed's writes are the feed's: the CalDAV outbox triggers must not queue them.
        store.davSync.asServer(() => {
          const result = applyItems(store, calendarId, batch.map((uid) => feed.resources.get(uid)!), ctx);
          report.problems.push(...result.errors);
          for (const uid of batch) store.subscriptions.putItem(calendarId, uid, feed.hashes.get(uid)!);
        });
      });
      for (const uid of batch) {
        if (known.has(uid)) report.updated++;
        else report.added++;
      }
      await yieldToRequests();
    }
    const gone = [...known.keys()].filter((uid) => !feed.resources.has(uid));
    for (let i = 0; i < gone.length; i += DELETE_BATCH) {
      const batch = gone.slice(i, i + DELETE_BATCH);
      store.write(() => {
        if (goneAway(calendarId)) throw new Removed();
        store.davSync.asServer(() => {
          for (const uid of batch) {
            store.davSync.deleteResource(calendarId, uid);
            store.subscriptions.dropItem(calendarId, uid);
          }
        });
      });
      report.removed += batch.length;
      await yieldToRequests();
    }
  }

  async function refreshOne(sub: CalendarRow): Promise<RefreshReport> {
    const report: RefreshReport = { calendar: sub.id, ok: true, unchanged: false, added: 0, updated: 0, removed: 0, problems: [] };
    try {
      const answer = await request(sub.subscription_url!, { etag: sub.subscription_etag, lastModified: sub.subscription_last_modified });
      if (answer.status === 'unchanged') {
        report.unchanged = true;
        store.write(() => store.subscriptions.markUnchanged(sub.id, new Date().toISOString()));
        return report;
      }
      const feed = await read(answer.text, answer.contentType);
      await apply(sub.id, feed, report);
      report.problems.push(...feed.problems);
      store.write(() => store.subscriptions.markFetched(sub.id, { etag: answer.etag, lastModified: answer.lastModified, nowUtc: new Date().toISOString() }));
      return report;
    } catch (err) {
      report.ok = false;
      if (err instanceof Removed) {
        report.error = 'the subscription was removed meanwhile';
        return report;
      }
      report.error = (err as Error).message;
      if (!(err instanceof SubscriptionError)) opts.log?.('error', `refresh of subscription ${sub.id} failed: ${report.error}`);
      else opts.log?.('warn', `refresh of "${sub.name}": ${report.error}`);
      try {
        // Kept by message key, so GET /calendars and the CLI word it in their reader's language.
        const stored = err instanceof SubscriptionError ? storedError({ key: err.messageKey, vars: err.vars }) : report.error!;
        store.write(() => store.subscriptions.markFailed(sub.id, stored));
      } catch {
        // The database itself failing is logged above; nothing more to record.
      }
      return report;
    }
  }

  function refresh(id: number): Promise<RefreshReport> | undefined {
    const current = running.get(id);
    if (current) return current;
    const sub = store.subscriptions.get(id);
    if (!sub || removing.has(id)) return undefined;
    const run = refreshOne(sub).finally(() => running.delete(id));
    running.set(id, run);
    return run;
  }

  /**
   * Every subscription refreshed at or before `dueBefore` (all of them by default), one after
   * another: a refresh is a background chore, not a race. Stops once the service is closed (the
   * database goes with it).
   */
  async function background(dueBefore = Infinity): Promise<void> {
    try {
      for (const sub of closed ? [] : store.subscriptions.list()) {
        if (closed) return;
        if (sub.subscription_refreshed_utc && Date.parse(sub.subscription_refreshed_utc) > dueBefore) continue;
        await refresh(sub.id);
      }
    } catch (err) {
      opts.log?.('error', `subscriptions could not be refreshed now: ${(err as Error).message}`);
    }
  }

  return {
    /**
     * Fetches and reads the feed, then stores the calendar with its events. Any failure (network,
     * not iCalendar, too large) is thrown as a SubscriptionError with nothing stored.
     */
    async subscribe(input: SubscribeInput): Promise<{ calendar: CalendarRow; report: RefreshReport }> {
      const same = store.subscriptions.list().find((s) => feedHttpUrl(s.subscription_url!) === feedHttpUrl(input.url));
      if (same) throw new SubscriptionError('duplicate', { name: same.name });
      const answer = await request(input.url);
      if (answer.status !== 'ok') throw new SubscriptionError('http', { host: new URL(input.url).host, status: 304 });
      const feed = await read(answer.text, answer.contentType);
      const url = input.url.trim();
      const name = input.name?.trim() || feed.name || new URL(url).host;
      const calendar = store.write(() => store.subscriptions.add({ url, name, color: input.color || null }));
      const report: RefreshReport = { calendar: calendar.id, ok: true, unchanged: false, added: 0, updated: 0, removed: 0, problems: [...feed.problems] };
      const first = (async () => {
        try {
          await apply(calendar.id, feed, report);
        } catch (err) {
          // Half a calendar is not what was asked for.
          store.write(() => store.davSync.asServer(() => store.subscriptions.remove(calendar.id)));
          throw err instanceof Removed ? new Error('the subscription was removed while its events were being stored') : err;
        }
        store.write(() => store.subscriptions.markFetched(calendar.id, { etag: answer.etag, lastModified: answer.lastModified, nowUtc: new Date().toISOString() }));
        return report;
      })();
      // A refresh asked for meanwhile (the timer, "Refresh") waits for this first filling.
      running.set(
        calendar.id,
        first.catch(() => ({ ...report, ok: false })).finally(() => running.delete(calendar.id)),
      );
      await first;
      return { calendar: store.subscriptions.get(calendar.id)!, report };
    },
    /** Refreshes one subscription now (undefined: there is none); a refresh under way is shared. */
    refresh,
    /**
     * Removes the subscription and its events for good, in bounded transactions with requests
     * answered between them (10,000 events took 1.9 s in one); false when there was none.
     */
    async remove(id: number): Promise<boolean> {
      if (!store.subscriptions.get(id) || removing.has(id)) return false;
      removing.add(id);
      try {
        while (store.write(() => store.davSync.asServer(() => store.subscriptions.removeSome(id, REMOVE_BATCH)))) await yieldToRequests();
        return true;
      } finally {
        removing.delete(id);
      }
    },
    /** Starts the background refreshes: the ones not refreshed for an interval now, then every interval. */
    start(): void {
      const every = opts.intervalMs ?? DEFAULT_REFRESH_MS;
      if (every <= 0) return;
      setImmediate(() => void background(Date.now() - every));
      timer = setInterval(() => void background(), every);
      timer.unref();
    },
    async close(): Promise<void> {
      closed = true;
      if (timer) clearInterval(timer);
      await Promise.allSettled([...running.values()]);
    },
  };
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
