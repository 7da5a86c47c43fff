/**
 * Websites synced as calendars (issue 26): WordPress sites with the events plugin, and other
 * Almanacs, through `GET/POST /sites`, `DELETE /sites/{id}`, `POST /sync?site=NAME`, and
 * `site: {id, url, repeats}` on a site's calendar.
 * The sites' fields and answers are declared once, in shared/schema/sites.ts. `GET /sites` is
 * asked for what a site is (its address, user, calendar); how its sync goes is `GET /sync`'s
 * `sites`, in the one sync state of the window (state/syncStatus.ts), read through `siteStatus`.
 */
import { create } from 'zustand';
import type { CalendarJson } from '@shared/schema/accounts';
import type { SiteJson, SiteSyncJson } from '@shared/schema/sites';
import { ApiError } from '../api/client';
import { api } from './api';
import { pollWhile } from './pollWhile';
import { useCalendars } from './calendars';
import { useSettings } from './settings';
import { useSyncStatus, type SyncStatus } from './syncStatus';

export type { SiteJson };

/** A calendar that is a site's: `GET /calendars` gives it `site: {id, url, repeats}` (null for the others). */
export type SiteRef = NonNullable<CalendarJson['site']>;
export const siteOf = (c: CalendarJson | undefined): SiteRef | null => c?.site ?? null;

/**
 * Whether a site takes repeating events (`repeats`, on the site or its calendar's `site`): another
 * Almanac does; the original plugin alone does not, and the editor says so at Repeat.
 */
export function takesRepeats(ref: SiteRef, site?: SiteJson): boolean {
  return (site?.repeats ?? ref.repeats) === true;
}

export interface ConnectSiteBody {
  url: string;
  user: string;
  password: string;
  name?: string;
}

/** What a site's "authorize application" page sent back (the desktop app): the dialog's fields. */
export interface AuthorizedSite {
  url: string;
  user: string;
  password: string;
}

interface SitesState {
  sites: SiteJson[];
  /** An approval that came back and waits for the "Connect a website" dialog to take it. */
  authorized: AuthorizedSite | null;
  receiveAuthorized(a: AuthorizedSite): void;
  /** The dialog takes the approval into its fields; it is kept nowhere else. */
  takeAuthorized(): AuthorizedSite | null;
  /** True once the server answered `/sites`; an older server has none, and the sidebar offers nothing then. */
  available: boolean;
  loaded: boolean;
  load(): Promise<void>;
  /** Connects, then loads the calendars (the site's is new) and follows its first pull. */
  connect(body: ConnectSiteBody): Promise<SiteJson>;
  remove(id: number): Promise<void>;
  /** Starts a round for the site and resolves once it is over (or after two minutes). */
  syncNow(name: string): Promise<void>;
  /** Waits while the site's sync state is `syncing` (its first pull goes on after the connect answered). */
  settle(id: number): Promise<void>;
  /** A change the site refused is sent again now (`POST /sync/refusals/{id}/retry`); resolves once the round is over. */
  retryRefused(siteId: number, refusalId: number): Promise<void>;
  /** A change the site refused is given up, the site's version comes back (`DELETE /sync/refusals/{id}`); a pull's notice is dismissed. */
  discardRefused(siteId: number, refusalId: number): Promise<void>;
}

/** The parts of a site's state the sidebar shows. */
export type SiteStatus = Pick<SiteSyncJson, 'last_sync' | 'pending' | 'last_error' | 'conflicts' | 'state' | 'refused'>;

/**
 * How the site's sync goes: the sync state's word on it, or, until that has one (a site just
 * connected), what `/sites` said.
 */
export function siteStatus(site: SiteJson, status: SyncStatus): SiteStatus {
  return status.sites?.find((s) => s.id === site.id) ?? site;
}

const siteSyncing = (id: number) => (status: SyncStatus) => status.sites?.find((s) => s.id === id)?.state === 'syncing';

const inUiLanguage = () => ({ i18n_language: useSettings.getState().uiLanguage });

/**
 * Whether the server syncs sites: its `GET /sync` answer has `sites`, read before
 * `/sites` is asked, so a server without them is never asked for a route it does not have.
 */
export const serverHasSites = (sync: object) => 'sites' in sync;

export const useSites = create<SitesState>()((set, get) => ({
  sites: [],
  authorized: null,
  available: false,
  loaded: false,
  receiveAuthorized(a) {
    set({ authorized: a });
  },
  takeAuthorized() {
    const a = get().authorized;
    if (a) set({ authorized: null });
    return a;
  },
  async load() {
    try {
      const sites = await api().get<SiteJson[]>('sites', inUiLanguage());
      set({ sites, available: true, loaded: true });
    } catch (e) {
      if (e instanceof ApiError && e.code === 'rest_no_route') {
        set({ sites: [], available: false, loaded: true });
        return;
      }
      throw e;
    }
  },
  async connect(body) {
    const site = await api().post<SiteJson>('sites', body, inUiLanguage());
    set({ sites: [...get().sites.filter((s) => s.id !== site.id), site] });
    await useCalendars.getState().load();
    return site;
  },
  async remove(id) {
    await api().del(`sites/${id}`, inUiLanguage());
    set({ sites: get().sites.filter((s) => s.id !== id) });
    await useCalendars.getState().load();
  },
  async syncNow(name) {
    try {
      await api().post('sync', {}, { ...inUiLanguage(), site: name });
    } finally {
      // Refused or not, the site's state (its last error) is what the sidebar shows next.
      const site = get().sites.find((s) => s.name === name);
      if (site) await get().settle(site.id).catch(() => {});
    }
  },
  async retryRefused(siteId, refusalId) {
    try {
      await api().post(`sync/refusals/${refusalId}/retry`, {}, inUiLanguage());
    } finally {
      await get().settle(siteId).catch(() => {});
    }
  },
  async discardRefused(siteId, refusalId) {
    try {
      await api().del(`sync/refusals/${refusalId}`, inUiLanguage());
    } finally {
      await get().settle(siteId).catch(() => {});
    }
  },
  async settle(id) {
    await pollWhile(useSyncStatus.getState().refresh, siteSyncing(id));
  },
}));

/**
 * A site connected or removed elsewhere (the CLI, another window) shows in the sync state first:
 * the list of sites follows it then, and only then.
 */
useSyncStatus.subscribe(({ status }) => {
  const { sites, available, loaded } = useSites.getState();
  if (!available || !loaded || !status.sites) return;
  const listed = new Set(sites.map((s) => s.id));
  if (status.sites.length !== listed.size || status.sites.some((s) => !listed.has(s.id))) void useSites.getState().load().catch(() => {});
});
