/**
 * Running the sync (issue 17): a plain module the server starts (never imports electron). Syncs
 * every account and website on start, on an interval, at once when asked ("Sync now", `POST /sync`,
 * the CLI), and a few seconds after a local change (debounced: a burst of edits is one round). The
 * rhythm of each peer's rounds (one at a time, backoff, Retry-After, a refused login waiting for
 * the user) is sync/rounds.ts, the same for both kinds.
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
import { createRounds } from '../sync/rounds';
import type { AccountRow } from '../store/caldav-accounts';
import type { SiteRow } from '../store/sites';

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

export function createSyncService(opts: SyncServiceOptions) {
  const store: Store = opts.store;
  // A server's words (a calendar's name, an error) never start a line of their own in the log.
  const log = (level: 'info' | 'warn' | 'error', line: string) => opts.log?.(level, line.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' '));
  let debounce: NodeJS.Timeout | undefined;
  let interval: NodeJS.Timeout | undefined;
  let closed = false;

  const accounts = createRounds<{ account: AccountRow; password: string }, SyncReport>(
    {
      prepare(accountId) {
        const account = store.accounts.byId(accountId);
        if (!account) return { report: { accountId, account: '?', ok: false, calendars: [], error: 'There is no such account.' }, waitForUser: false };
        const password = opts.secrets?.get(accountSecretKey(account.id));
        if (password === undefined) {
          const problem = new SyncProblem('sync_no_password', { name: account.name });
          store.write(() => store.davSync.setAccountResult(account.id, null, storedError(problem)));
          // Tried again at every background round: a password the CLI just stored is found there.
          return { report: { accountId, account: account.name, ok: false, calendars: [], error: problem.message }, waitForUser: false };
        }
        return { peer: { account, password } };
      },
      run: ({ account, password }, signal) => syncAccount(opts, account, password, signal),
      failed({ account }, err) {
        try {
          store.write(() => store.davSync.setAccountResult(account.id, null, storedError(err)));
        } catch {
          // The database itself failing is told in the log; nothing more to record.
        }
        return { accountId: account.id, account: account.name, ok: false, calendars: [], error: err.message };
      },
      describe: ({ account }) => `sync of "${account.name}"`,
    },
    log,
  );

  // Websites (issue 26) run beside the accounts, with the same rhythm, backoff and waiting for a password.
  const failedSite = (siteId: number, name: string, error: string): SiteReport => ({ siteId, site: name, ok: false, sent: { created: 0, updated: 0, deleted: 0 }, received: { changed: 0, deleted: 0 }, conflicts: 0, merged: 0, pending: 0, requests: 0, pushRequests: 0, problems: [], refused: [], error, transient: false });
  const sites = createRounds<{ site: SiteRow; password: string }, SiteReport>(
    {
      prepare(siteId) {
        const site = store.sites.byId(siteId);
        if (!site) return { report: failedSite(siteId, '?', 'There is no such site.'), waitForUser: false };
        const password = opts.secrets?.get(siteSecretKey(site.id));
        if (password === undefined) {
          const problem = new SyncProblem('site_no_password', { name: site.name });
          store.write(() => store.sites.setResult(site.id, null, storedError(problem)));
          return { report: failedSite(siteId, site.name, problem.message), waitForUser: true };
        }
        return { peer: { site, password } };
      },
      run: ({ site, password }, signal) => syncSite({ store, url: opts.url, write: opts.write, http: { ...opts.siteHttp, signal } }, site, password),
      failed: ({ site }, err) => failedSite(site.id, site.name, err.message),
      describe: ({ site }) => `sync of the site "${site.name}"`,
    },
    log,
  );

  /** Background: every account and site not waiting out a backoff. */
  function background(): void {
    if (closed) return;
    accounts.due(store.accounts.list().map((a) => a.id));
    sites.due(store.sites.list().map((s) => s.id));
  }

  const api = {
    /** One round of these accounts (default all) now, whatever their backoff; resolves with what moved. */
    async syncNow(accountIds?: number[]): Promise<SyncReport[]> {
      return accounts.now(accountIds ?? store.accounts.list().map((a) => a.id));
    },
    /** One round of these sites (default all) now, whatever their backoff. */
    async syncSitesNow(siteIds?: number[]): Promise<SiteReport[]> {
      return sites.now(siteIds ?? store.sites.list().map((s) => s.id));
    },
    /** Resolves once the site's round under way (if any) is over: removing a site waits for it. */
    siteSettled: (siteId: number): Promise<void> => sites.settled(siteId),
    /** Ends the site's round under way (its requests aborted) and resolves once it is over. */
    cancelSite: (siteId: number): Promise<void> => sites.cancel(siteId),
    /** A site's state, its error worded in `lang`. */
    siteStatus(siteId: number, lang: Language = 'en'): SiteSyncJson | undefined {
      const s = store.sites.byId(siteId);
      if (!s) return undefined;
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
        state: sites.running(s.id) ? 'syncing' : passwordRefused ? 'password' : s.last_error ? 'error' : 'ok',
        next_try: sites.nextTry(s.id),
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
    lastSiteRound: (siteId: number) => sites.lastRound(siteId),
    /** Resolves once the account's round under way (if any) is over: removing an account waits for it. */
    settled: (accountId: number): Promise<void> => accounts.settled(accountId),
    /** Ends the account's round under way (its requests aborted) and resolves once it is over. */
    cancel: (accountId: number): Promise<void> => accounts.cancel(accountId),
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
      const accountList = store.accounts.list().map((a) => {
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
        return {
          id: a.id,
          name: a.name,
          last_sync: a.last_sync_utc,
          last_error: errorText(a.last_error, lang),
          syncing: accounts.running(a.id),
          pending: calendars.reduce((n, c) => n + c.pending, 0),
          next_try: accounts.nextTry(a.id),
          last_round: accounts.lastRound(a.id),
          calendars,
        };
      });
      const conflicts = store.davSync.conflicts().map((c) => ({ id: c.id, calendar: c.calendar_id, uid: c.uid, title: c.title, kept: c.created_utc, target: c.format === 'json' ? ('site' as const) : ('caldav' as const), kind: c.kind }));
      const siteList = store.sites.list().map((site) => ({ ...api.siteStatus(site.id, lang)!, last_round: sites.lastRound(site.id) }));
      return { accounts: accountList, sites: siteList, conflicts };
    },
    /** Stops the timers and ends the rounds under way (their requests aborted). */
    async close(): Promise<void> {
      closed = true;
      if (debounce) clearTimeout(debounce);
      if (interval) clearInterval(interval);
      await Promise.all([accounts.close(), sites.close()]);
    },
  };
  return api;
}

export type SyncService = ReturnType<typeof createSyncService>;
