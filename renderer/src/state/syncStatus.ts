/**
 * The sync state as `GET /sync` answers it: per CalDAV account and per website its last sync,
 * changes waiting, last error and whether a round is going on, and the conflict copies kept. One
 * source for the whole sidebar (accounts, sites, conflicts), asked by one poll (`useSyncPolling`)
 * and once after the events on screen change, so the sidebar never asks two routes for one state.
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import type { AccountSyncJson, ConflictCopyJson } from '@shared/schema/accounts';
import type { SiteSyncJson } from '@shared/schema/sites';
import { api } from './api';
import { useEvents } from './events';
import { useSettings } from './settings';

export interface SyncStatus {
  accounts: AccountSyncJson[];
  /** Absent from a server without websites (issue 26). */
  sites?: SiteSyncJson[];
  conflicts: ConflictCopyJson[];
}

interface SyncStatusState {
  status: SyncStatus;
  /** The server runs no sync (a test server without it): nothing can be synced from here. */
  unavailable: boolean;
  refresh(): Promise<SyncStatus>;
}

const NO_SYNC: SyncStatus = { accounts: [], conflicts: [] };

export const useSyncStatus = create<SyncStatusState>()((set) => ({
  status: NO_SYNC,
  unavailable: false,
  async refresh() {
    try {
      const status = await api().get<SyncStatus>('sync', { i18n_language: useSettings.getState().uiLanguage });
      set({ status, unavailable: false });
      return status;
    } catch (e) {
      if ((e as { status?: number }).status === 503) {
        set({ status: NO_SYNC, unavailable: true });
        return NO_SYNC;
      }
      throw e;
    }
  },
}));

/** How often the state is asked for while there is something to sync (background rounds change it). */
export const REFRESH_MS = 30_000;
/** After the events on screen changed (a write, a reload): one look at what waits to be sent, once things settle. */
export const AFTER_CHANGE_MS = 400;

const refreshQuietly = () => void useSyncStatus.getState().refresh().catch(() => {});

/** Keeps the sync state fresh while `active` (there are accounts or sites): the one poll of the window. */
export function useSyncPolling(active: boolean): void {
  const unavailable = useSyncStatus((s) => s.unavailable);
  const on = active && !unavailable;
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(refreshQuietly, REFRESH_MS);
    return () => clearInterval(timer);
  }, [on]);

  // A change saved here is a change waiting to be sent: say so soon after, not at the next poll.
  const events = useEvents((s) => s.events);
  useEffect(() => {
    if (!on) return;
    const timer = setTimeout(refreshQuietly, AFTER_CHANGE_MS);
    return () => clearTimeout(timer);
  }, [events, on]);
}
