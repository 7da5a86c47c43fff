/**
 * Running the sync (issue 17): a plain module the server starts (never imports electron). Syncs
 * every account on start, on an interval, at once when asked ("Sync now", `POST /sync`, the CLI),
 * and a few seconds after a local change (debounced: a burst of edits is one round). An account
 * that could not be reached waits with backoff (1 min doubling to 2 h) before its next try; a
 * login refused waits for the user (a new password or "Sync now"). One round per account at a
 * time: asking while one runs gets that round's result.
 */
import type { AccountSyncJson, ConflictCopyJson } from '../../../shared/schema/accounts';
import type { Store } from '../store';
import type { SecretStore } from '../secrets';
import { accountSecretKey } from '../secrets';
import { syncAccount, type SyncDeps, type SyncReport } from './sync';
import { errorText, storedError, SyncProblem } from './errors';
import type { Language } from '../../../shared/i18n/languages';
import type { SiteSyncJson } from '../../../shared/schema/sites';
import { siteSecretKey } from '../secrets';
import { syncSite } from '../sites/sync';
import type { SiteReport } from '../sites/round';
import type { SiteHttpOptions } from '../sites/http';
import { heldDeletes } from './held-deletes';

/** Deletions held for the user, as `GET /sync` shows them (none once decided: the next round acts). */
function heldJson(c: { held_deletes: string | null }): { count: number; total: number } | null {
  const h = heldDeletes(c);
  return h && h.decision === null ? { count: h.count, total: h.total } : null;
}

export interface SyncServiceOptions extends SyncDeps {
  secrets?: SecretStore;
  /** Between background rounds (default 15 min); 0: no timer (tests, the CLI). */
  intervalMs?: number;
  /** After a local change (default 5 s). */
  debounceMs?: number;
  log?: (level: 'info' | 'warn' | 'error', line: string) => void;
  /** Websites' HTTP limits and fetch (tests). */
  siteHttp?: SiteHttpOptions;
}

/** An account's state as `GET /sync` gives it (shared/schema/accounts.ts), with what its last round moved. */
export interface AccountStatus extends AccountSyncJson {
  /** What the last round since this server started moved, each way, per calendar (null before one). */
  last_round: (SyncReport & { finished: string }) | null;
}

const BACKOFF_MIN_MS = 60_000;
const BACKOFF_MAX_MS = 2 * 3600_000;

export function createSyncService(opts: SyncServiceOptions) {
  const store: Store = opts.store;
  const running = new Map<number, Promise<SyncReport>>();
  // Each round's requests end with it: removing its account or quitting never waits on a peer.
  const aborts = new Map<number, AbortController>();
  // A server's words (a calendar's name, an error) never start a line of their own in the log.
  const log = (level: 'info' | 'warn' | 'error', line: string) => opts.log?.(level, line.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' '));
  const backoff = new Map<number, { failures: number; until: number }>();
  const lastRound = new Map<number, SyncReport & { finished: string }>();
  // Websites (issue 26) run beside the accounts, with the same rhythm, backoff and waiting for a password.
  const runningSites = new Map<number, Promise<SiteReport>>();
  const siteAborts = new Map<number, AbortController>();
  const siteBackoff = new Map<number, { failures: number; until: number }>();
  const lastSiteRound = new Map<number, SiteReport & { finished: string }>();
  let debounce: NodeJS.Timeout | undefined;
  let interval: NodeJS.Timeout | undefined;
  let closed = false;

  function runAccount(accountId: number): Promise<SyncReport> {
    const current = running.get(accountId);
    if (current) return current;
    const attempt = async (): Promise<SyncReport> => {
      const account = store.accounts.byId(accountId);
      if (!account) return { accountId, account: '?', ok: false, calendars: [], error: 'There is no such account.' };
      const password = opts.secrets?.get(accountSecretKey(account.id));
      if (password === undefined) {
        const problem = new SyncProblem('sync_no_password', { name: account.name });
        const error = problem.message;
        store.write(() => store.davSync.setAccountResult(account.id, null, storedError(problem)));
        return { accountId, account: account.name, ok: false, calendars: [], error };
      }
      try {
        const report = await syncAccount(opts, account, password, abort.signal);
        if (report.ok) backoff.delete(accountId);
        else if (report.transient) {
          const failures = (backoff.get(accountId)?.failures ?? 0) + 1;
          backoff.set(accountId, { failures, until: Date.now() + Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** (failures - 1)) });
        } else if (report.error) backoff.set(accountId, { failures: 0, until: Infinity });
        if (report.error) log('warn', `sync of "${account.name}": ${report.error}`);
        return report;
      } catch (err) {
        const error = (err as Error).message;
        log('error', `sync of "${account.name}" failed: ${error}`);
        try {
          store.write(() => store.davSync.setAccountResult(account.id, null, storedError(err as Error)));
        } catch {
          // The database itself failing is told above; nothing more to record.
        }
        return { accountId, account: account.name, ok: false, calendars: [], error };
      }
    };
    const abort = new AbortController();
    aborts.set(accountId, abort);
    const round = (async () => {
      try {
        const report = await attempt();
        lastRound.set(accountId, { ...report, finished: new Date().toISOString() });
        return report;
      } finally {
        running.delete(accountId);
        aborts.delete(accountId);
      }
    })();
    running.set(accountId, round);
    return round;
  }

  function runSite(siteId: number): Promise<SiteReport> {
    const current = runningSites.get(siteId);
    if (current) return current;
    const attempt = async (): Promise<SiteReport> => {
      const site = store.sites.byId(siteId);
      const failed = (name: string, error: string): SiteReport => ({ siteId, site: name, ok: false, sent: { created: 0, updated: 0, deleted: 0 }, received: { changed: 0, deleted: 0 }, conflicts: 0, merged: 0, pending: 0, requests: 0, pushRequests: 0, problems: [], refused: [], error, transient: false });
      if (!site) return failed('?', 'There is no such site.');
      const password = opts.secrets?.get(siteSecretKey(site.id));
      if (password === undefined) {
        const problem = new SyncProblem('site_no_password', { name: site.name });
        store.write(() => store.sites.setResult(site.id, null, storedError(problem)));
        siteBackoff.set(siteId, { failures: 0, until: Infinity });
        return failed(site.name, problem.message);
      }
      try {
        const abort = new AbortController();
        siteAborts.set(siteId, abort);
        const report = await syncSite({ store, url: opts.url, write: opts.write, http: { ...opts.siteHttp, signal: abort.signal } }, site, password);
        if (report.ok) siteBackoff.delete(siteId);
        else if (report.transient) {
          const failures = (siteBackoff.get(siteId)?.failures ?? 0) + 1;
          const wait = Math.max(report.retryAfterMs ?? 0, Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** (failures - 1)));
          siteBackoff.set(siteId, { failures, until: Date.now() + wait });
        } else siteBackoff.set(siteId, { failures: 0, until: Infinity });
        if (report.error) log('warn', `sync of the site "${site.name}": ${report.error}`);
        return report;
      } catch (err) {
        const error = (err as Error).message;
        log('error', `sync of the site "${site.name}" failed: ${error}`);
        return failed(site.name, error);
      }
    };
    const round = (async () => {
      try {
        const report = await attempt();
        lastSiteRound.set(siteId, { ...report, finished: new Date().toISOString() });
        return report;
      } finally {
        runningSites.delete(siteId);
        siteAborts.delete(siteId);
      }
    })();
    runningSites.set(siteId, round);
    return round;
  }

  /** Background: every account and site not waiting out a backoff. */
  function background(): void {
    if (closed) return;
    const now = Date.now();
    for (const a of store.accounts.list()) {
      if ((backoff.get(a.id)?.until ?? 0) > now) continue;
      void runAccount(a.id);
    }
    for (const s of store.sites.list()) {
      if ((siteBackoff.get(s.id)?.until ?? 0) > now) continue;
      void runSite(s.id);
    }
  }

  const api = {
    /** One round of these accounts (default all) now, whatever their backoff; resolves with what moved. */
    async syncNow(accountIds?: number[]): Promise<SyncReport[]> {
      const ids = accountIds ?? store.accounts.list().map((a) => a.id);
      for (const id of ids) backoff.delete(id);
      return Promise.all(ids.map((id) => runAccount(id)));
    },
    /** One round of these sites (default all) now, whatever their backoff. */
    async syncSitesNow(siteIds?: number[]): Promise<SiteReport[]> {
      const ids = siteIds ?? store.sites.list().map((s) => s.id);
      for (const id of ids) siteBackoff.delete(id);
      return Promise.all(ids.map((id) => runSite(id)));
    },
    /** Resolves once the site's round under way (if any) is over: removing a site waits for it. */
    async siteSettled(siteId: number): Promise<void> {
      await runningSites.get(siteId)?.catch(() => undefined);
    },
    /** Ends the site's round under way (its requests aborted) and resolves once it is over. */
    async cancelSite(siteId: number): Promise<void> {
      siteAborts.get(siteId)?.abort();
      await runningSites.get(siteId)?.catch(() => undefined);
    },
    /** A site's state, its error worded in `lang`. */
    siteStatus(siteId: number, lang: Language = 'en'): SiteSyncJson | undefined {
      const s = store.sites.byId(siteId);
      if (!s) return undefined;
      const b = siteBackoff.get(s.id);
      const error = errorText(s.last_error, lang) ?? errorText(store.sites.outboxError(s.calendar_id), lang);
      const passwordRefused = !!s.last_error && /"key":"site_(unauthorized|anonymous|no_password)"/.test(s.last_error);
      return {
        id: s.id,
        name: s.name,
        calendar_id: s.calendar_id,
        last_sync: s.last_sync_utc,
        pending: store.sites.pendingCount(s.calendar_id),
        last_error: error,
        conflicts: store.sites.conflictCount(s.calendar_id),
        state: runningSites.has(s.id) ? 'syncing' : passwordRefused ? 'password' : s.last_error ? 'error' : 'ok',
        next_try: b && Number.isFinite(b.until) ? new Date(b.until).toISOString() : null,
        refused: store.sites.refusals(s.calendar_id).map((r) => ({
          id: r.id,
          direction: r.direction,
          kind: r.kind,
          title: r.title,
          reason: errorText(r.reason, lang) ?? '',
          status: r.status,
          at: r.at_utc,
          local_id: r.local_id,
          remote_id: r.remote_id,
        })),
      };
    },
    /** What the site's last round since this server started moved. */
    lastSiteRound: (siteId: number) => lastSiteRound.get(siteId) ?? null,
    /** Resolves once the account's round under way (if any) is over: removing an account waits for it. */
    async settled(accountId: number): Promise<void> {
      await running.get(accountId)?.catch(() => undefined);
    },
    /** Ends the account's round under way (its requests aborted) and resolves once it is over. */
    async cancel(accountId: number): Promise<void> {
      aborts.get(accountId)?.abort();
      await running.get(accountId)?.catch(() => undefined);
    },
    /** A local change was saved: a round soon, once the burst of changes is over. */
    localChange(): void {
      if (closed || opts.debounceMs === 0) return;
      if (debounce) clearTimeout(debounce);
      debounce = setTimeout(() => {
        debounce = undefined;
        // A change to this computer's calendar, a setting, a reminder dismissed: nothing to send.
        if (store.davSync.hasPending() || store.sites.hasPending()) background();
      }, opts.debounceMs ?? 5000);
      debounce.unref();
    },
    /** Starts the background rounds: one now, then every interval. */
    start(): void {
      const every = opts.intervalMs ?? 15 * 60_000;
      if (every <= 0) return;
      setImmediate(background);
      interval = setInterval(background, every);
      interval.unref();
    },
    /** Websites' HTTP limits (the API's "connect a website" uses the same). */
    siteHttp: opts.siteHttp,
    /** Where account passwords are kept (the API's add and remove account). */
    secrets: opts.secrets,
    /** The state, its errors worded in `lang`. */
    status(lang: Language = 'en'): { accounts: AccountStatus[]; sites: Array<SiteSyncJson & { last_round: (SiteReport & { finished: string }) | null }>; conflicts: ConflictCopyJson[] } {
      const accounts = store.accounts.list().map((a) => {
        const calendars = a.calendars.map((c) => ({
          id: c.id,
          name: c.name,
          color: c.color,
          visible: !!c.visible,
          synced: !!c.synced,
          read_only: !!c.read_only,
          pending: store.davSync.pendingCount(c.id),
          last_error: errorText(c.last_error, lang) ?? errorText(store.davSync.outboxErrors(c.id)[0]?.error ?? null, lang),
          last_full_sync: c.last_full_sync_utc,
          held_deletes: heldJson(c),
        }));
        const b = backoff.get(a.id);
        return {
          id: a.id,
          name: a.name,
          last_sync: a.last_sync_utc,
          last_error: errorText(a.last_error, lang),
          syncing: running.has(a.id),
          pending: calendars.reduce((n, c) => n + c.pending, 0),
          next_try: b && Number.isFinite(b.until) ? new Date(b.until).toISOString() : null,
          last_round: lastRound.get(a.id) ?? null,
          calendars,
        };
      });
      const conflicts = store.davSync.conflicts().map((c) => ({ id: c.id, calendar: c.calendar_id, uid: c.uid, title: c.title, kept: c.created_utc, target: c.target, kind: c.kind }));
      const sites = store.sites.list().map((site) => ({ ...api.siteStatus(site.id, lang)!, last_round: lastSiteRound.get(site.id) ?? null }));
      return { accounts, sites, conflicts };
    },
    /** Stops the timers and ends the rounds under way (their requests aborted). */
    async close(): Promise<void> {
      closed = true;
      if (debounce) clearTimeout(debounce);
      if (interval) clearInterval(interval);
      for (const abort of [...aborts.values(), ...siteAborts.values()]) abort.abort();
      await Promise.allSettled([...running.values(), ...runningSites.values()]);
    },
  };
  return api;
}

export type SyncService = ReturnType<typeof createSyncService>;
