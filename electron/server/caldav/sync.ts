/**
 * One sync round of a CalDAV account (issue 17), calendar by calendar: push what changed here
 * (push.ts), then pull what changed there (pull.ts). Plain Node; never imports electron.
 *
 * The round is bounded: at most PUSH_BATCH changes sent and PULL_BATCH resources applied per
 * transaction, with the event loop let go between them, so a huge calendar never stalls the
 * server's answers; what is left goes in the next steps of the same round.
 *
 * Conflict policy (README "Sync conflicts"): the same event changed on both sides between two
 * syncs → the server's version wins the event, and the local version is kept whole in
 * `sync_conflicts`, listed by `GET /sync` and restorable (`POST /sync/conflicts/{id}/restore`).
 * Nothing is dropped silently.
 */
import type { Store } from '../store';
import type { AccountRow, CalendarRow } from '../store/caldav-accounts';
import type { WriteContext } from '../store/post-fields';
import { NO_LANGUAGE } from '../../../shared/i18n/languages';
import type { UrlContext } from '../serialize/context';
import { CalDavError, excerpt, storedCalendarErrors, storedError, SyncProblem } from './errors';
import { createTransport, type Transport } from './transport';
import { pushCalendar } from './push';
import { pullCalendar } from './pull';
import { sameServer } from './discovery';

export interface SyncDeps {
  store: Store;
  /** Where export text points links (an event's page URL) and the site's settings. */
  url: () => UrlContext;
  write: () => WriteContext;
  /** Per request (default SYNC_TIMEOUT_MS). */
  timeoutMs?: number;
  /** The fetch under the transport (tests). */
  fetch?: typeof fetch;
}

export interface CalendarReport {
  calendarId: number;
  name: string;
  /** Sent to the server: new resources, changed ones, deleted ones. */
  sent: { created: number; updated: number; deleted: number };
  /** Taken from the server: new or changed resources, deleted ones. */
  received: { changed: number; deleted: number };
  /** Local versions kept aside because the server's won. */
  conflicts: number;
  /** Resources changed on both sides in different fields: merged, nothing kept aside. */
  merged: number;
  /** Changes that could not be sent and wait (in words). */
  pending: number;
  error?: string;
}

export interface SyncReport {
  accountId: number;
  account: string;
  ok: boolean;
  calendars: CalendarReport[];
  /** What went wrong, in words (the whole account: network, password). */
  error?: string;
  /** Worth trying again later by itself (network, server trouble); false: the user must act. */
  transient?: boolean;
}

/** Everything a calendar's push and pull share. */
export interface RoundContext {
  deps: SyncDeps;
  store: Store;
  transport: Transport;
  calendar: CalendarRow;
  report: CalendarReport;
  write: WriteContext;
  url: UrlContext;
}

/**
 * A sync's requests may wait longer than discovery's (30 s): a server answers the first listing
 * or sync token of a 10,000-event calendar only once it has read all of it (Radicale took over
 * 30 s on this machine under load). A round runs in the background, so waiting costs nobody.
 */
export const SYNC_TIMEOUT_MS = 180_000;

/** `signal` aborts the round's requests (the account removed, the app quitting): nothing waits on a peer. */
export async function syncAccount(deps: SyncDeps, account: AccountRow, password: string, signal?: AbortSignal): Promise<SyncReport> {
  const store = deps.store;
  const transport = createTransport(account.server_url, { user: account.username, password }, { timeoutMs: deps.timeoutMs ?? SYNC_TIMEOUT_MS, fetch: deps.fetch, signal });
  const calendars = store.accounts.calendarsOf(account.id).filter((c) => c.synced);
  const out: SyncReport = { accountId: account.id, account: account.name, ok: true, calendars: [] };
  // What the database keeps: message keys, so each reader gets the error in their language.
  let accountError: string | null = null;
  const failures: Array<{ name: string; error: string }> = [];
  for (const calendar of calendars) {
    const report: CalendarReport = { calendarId: calendar.id, name: calendar.name, sent: { created: 0, updated: 0, deleted: 0 }, received: { changed: 0, deleted: 0 }, conflicts: 0, merged: 0, pending: 0 };
    out.calendars.push(report);
    const cx: RoundContext = { deps, store, transport, calendar, report, write: { ...deps.write(), eventLang: NO_LANGUAGE }, url: deps.url() };
    try {
      // Stored by an older version, which followed calendars anywhere: the password stays home.
      if (calendar.url && !sameServer(new URL(calendar.url), new URL(account.server_url))) {
        throw new CalDavError('foreign_calendar', { host: new URL(account.server_url).host, url: calendar.url.slice(0, 200) });
      }
      const pushed = await pushCalendar(cx);
      await pullCalendar(cx, pushed);
      store.write(() => store.davSync.setCalendarError(calendar.id, null));
    } catch (err) {
      if (signal?.aborted) {
        // Stopped here (the account removed, the app quitting): nothing to tell, the next round resumes.
        out.ok = false;
        out.error = 'The round was stopped.';
        return out;
      }
      const e = explainFailure(err, transport, calendar.url ?? account.server_url);
      report.error = e.message;
      store.write(() => store.davSync.setCalendarError(calendar.id, storedError(e)));
      failures.push({ name: calendar.name, error: storedError(e) });
      out.ok = false;
      // The network or the login fails the same way for every calendar of the account.
      if (e instanceof CalDavError && (e.transient || e.kind === 'unauthorized')) {
        out.error = e.message;
        out.transient = e.transient;
        accountError = storedError(e);
        break;
      }
    } finally {
      report.pending = store.davSync.pendingCount(calendar.id);
    }
  }
  if (!out.error && !out.ok) {
    out.error = out.calendars.filter((c) => c.error).map((c) => `${c.name}: ${c.error}`).join('; ');
    accountError = storedCalendarErrors(failures);
  }
  const now = new Date().toISOString();
  store.write(() => store.davSync.setAccountResult(account.id, out.ok ? now : null, accountError));
  return out;
}

/** A failure as a CalDavError where it is one of theirs (network, login, server), else as it came. */
export function explainFailure(err: unknown, transport: Transport, url: string): Error {
  if (err instanceof CalDavError || err instanceof SyncProblem) return err;
  if (transport.tooLarge) return transport.tooLarge;
  if (transport.networkError) return transport.networkError;
  if (transport.untrusted) return transport.untrusted;
  // tsdav words a failed REPORT as "Collection query failed: 500 … Raw response: <the server's
  // page>", which may echo the request's headers: only its status is kept.
  const status = (err as { status?: number }).status ?? statusIn((err as Error)?.message);
  const host = new URL(url).host;
  if (status === 401) return new CalDavError('unauthorized', { host }, 401);
  if (status === 403) return new CalDavError('forbidden', { host }, 403);
  if (status === 404) return new SyncProblem('sync_calendar_gone', { url });
  if (status !== undefined && (status >= 500 || status === 429)) return new CalDavError('server_error', { host, status }, status);
  return new SyncProblem('sync_failed', { reason: excerpt(err instanceof Error ? err.message : String(err)) });
}

function statusIn(message: unknown): number | undefined {
  const m = typeof message === 'string' ? /^Collection query failed: (\d{3})\b/.exec(message) : null;
  return m ? Number(m[1]) : undefined;
}

/** An HTTP answer the round cannot go on with, carrying its status for `explainFailure`. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    what: string,
  ) {
    super(`${what} answered ${status}`);
  }
}
