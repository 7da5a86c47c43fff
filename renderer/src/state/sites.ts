/**
 * Websites synced as calendars (issue 26): WordPress sites with the events plugin, and other
 * Almanacs. The shapes are the contract between the branches (SITES-API.md): `GET/POST /sites`,
 * `DELETE /sites/{id}`, `POST /sync?site=NAME`, and `site: {id, url}` on a site's calendar.
 * The sites' fields are declared in shared/schema/sites.ts on the server's side; until that lands
 * here, the answer's shape is written out below (the one place the renderer reads it).
 */
import { create } from 'zustand';
import type { CalendarJson } from '@shared/schema/accounts';
import { ApiError } from '../api/client';
import { api } from './api';
import { useCalendars } from './calendars';
import { useSettings } from './settings';

/** A site as `GET /sites` and `POST /sites` answer it: never its password. */
export interface SiteJson {
  id: number;
  name: string;
  /** As typed, normalised. */
  url: string;
  api_root: string;
  user: string;
  calendar_id: number;
  color: string | null;
  created: string;
  last_sync: string | null;
  /** In the request's language. */
  last_error: string | null;
  /** Local changes not on the site yet. */
  pending: number;
  conflicts: number;
  state: 'ok' | 'syncing' | 'error' | 'password';
  /**
   * Whether the site takes repeating events (an Almanac does, the original plugin alone does not).
   * Not in the contract yet: absent, a site is taken not to (the editor says so).
   */
  repeats?: boolean;
}

/** A calendar that is a site's: `GET /calendars` gives it `site: {id, url}` (null for the others). */
export type SiteRef = { id: number; url: string; repeats?: boolean };
export const siteOf = (c: CalendarJson | undefined): SiteRef | null => ((c as (CalendarJson & { site?: SiteRef | null }) | undefined)?.site ?? null);

/**
 * Whether a site takes repeating events: what the site says (`repeats`, on the site or its
 * calendar's `site`), else not. The contract does not carry `repeats` yet, so until it does every
 * site's calendar is taken not to, and the editor says so for each.
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

interface SitesState {
  sites: SiteJson[];
  /** False while the server has no `/sites` route (an older server): the sidebar offers nothing then. */
  available: boolean;
  loaded: boolean;
  load(): Promise<void>;
  /** Connects, then loads the calendars (the site's is new) and follows its first pull. */
  connect(body: ConnectSiteBody): Promise<SiteJson>;
  remove(id: number): Promise<void>;
  /** Starts a round for the site and resolves once it is over (or after two minutes). */
  syncNow(name: string): Promise<void>;
  /** Waits while the site's state is `syncing` (its first pull goes on after the connect answered). */
  settle(id: number): Promise<void>;
}

const inUiLanguage = () => ({ i18n_language: useSettings.getState().uiLanguage });
const SYNC_WAIT_MS = 120_000;
const POLL_MS = 500;

export const useSites = create<SitesState>()((set, get) => ({
  sites: [],
  available: true,
  loaded: false,
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
    await api().post('sync', {}, { ...inUiLanguage(), site: name });
    const site = get().sites.find((s) => s.name === name);
    if (site) await get().settle(site.id);
  },
  async settle(id) {
    const until = Date.now() + SYNC_WAIT_MS;
    for (;;) {
      await get().load();
      const site = get().sites.find((s) => s.id === id);
      if (!site || site.state !== 'syncing' || Date.now() > until) return;
      await new Promise((ok) => setTimeout(ok, POLL_MS));
    }
  },
}));
