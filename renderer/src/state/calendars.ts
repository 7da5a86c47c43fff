/**
 * Calendars, CalDAV accounts and their sync state (issue 17), as the server holds them: shown or
 * hidden is the calendar's `visible` on the server, so it is remembered across windows and
 * restarts. The visible ones become the `calendar` filter of every list (views, search, export).
 */
import { create } from 'zustand';
import { LOCAL_CALENDAR_ID, type AccountJson, type AccountSyncJson, type CalendarJson, type ConflictCopyJson } from '@shared/schema/accounts';
import { api } from './api';
import { pollWhile } from './pollWhile';
import { useSyncStatus, type SyncStatus } from './syncStatus';
import { useFilters } from './filters';
import { useSettings } from './settings';

export type AccountSyncState = AccountSyncJson;
export type ConflictCopy = ConflictCopyJson;

interface CalendarsState {
  calendars: CalendarJson[];
  accounts: AccountJson[];
  loaded: boolean;
  /** The calendars and accounts, then their sync state (state/syncStatus.ts). */
  load(): Promise<void>;
  setVisible(id: number, visible: boolean): Promise<void>;
  updateCalendar(id: number, changes: { name?: string; color?: string; synced?: boolean }): Promise<void>;
  /** Another calendar of this computer's own. */
  createCalendar(body: { name: string; color?: string }): Promise<CalendarJson>;
  /** Removes a calendar of this computer's own, its events moved to `moveTo` or, with null, deleted. */
  removeCalendar(id: number, moveTo: number | null): Promise<void>;
  addAccount(body: { url: string; username: string; password: string; name?: string }): Promise<AccountJson>;
  removeAccount(id: number): Promise<void>;
  /** Starts a round for the account and resolves once it is over (or after two minutes). */
  syncNow(accountName: string): Promise<void>;
  restoreConflict(id: number): Promise<void>;
  dismissConflict(id: number): Promise<void>;
  /** Deletions a sync held: delete them here (`allow`), or keep them and send them back. */
  decideDeletions(calendarId: number, accountName: string, allow: boolean): Promise<void>;
}

/** Errors and words from the server in the interface's language, not the records'. */
const inUiLanguage = () => ({ i18n_language: useSettings.getState().uiLanguage });

/** The calendars the lists ask for: null while every one is shown (no filter at all). */
export function visibleCalendarIds(calendars: CalendarJson[]): number[] | null {
  if (calendars.every((c) => c.visible)) return null;
  return calendars.filter((c) => c.visible).map((c) => c.id);
}

/** A calendar new events can go to: it takes writes, and is sent to its server or stays here. */
export const takesNewEvents = (c: CalendarJson) => !c.read_only && (c.account_id === null || c.synced);

/**
 * Where a new event goes unless the user picks: `wanted` (the calendar of the event it duplicates)
 * when that takes events, else this computer's calendar while it is shown, else the first shown
 * calendar that takes events, so an event made on screen stays on screen and can be saved.
 */
export function newEventCalendar(calendars: readonly CalendarJson[], wanted?: number): number {
  const from = wanted === undefined ? undefined : calendars.find((c) => c.id === wanted);
  if (from && takesNewEvents(from)) return from.id;
  const local = calendars.find((c) => c.id === LOCAL_CALENDAR_ID);
  if (!local || local.visible) return LOCAL_CALENDAR_ID;
  return calendars.find((c) => c.visible && takesNewEvents(c))?.id ?? LOCAL_CALENDAR_ID;
}

function publish(calendars: CalendarJson[]): void {
  const next = visibleCalendarIds(calendars);
  const cur = useFilters.getState().calendars;
  if (JSON.stringify(next) !== JSON.stringify(cur)) useFilters.setState({ calendars: next });
}

const refreshSync = () => useSyncStatus.getState().refresh();
const accountSyncing = (name: string) => (status: SyncStatus) => !!status.accounts.find((a) => a.name === name)?.syncing;

export const useCalendars = create<CalendarsState>()((set, get) => ({
  calendars: [],
  accounts: [],
  loaded: false,
  async load() {
    const [calendars, accounts] = await Promise.all([api().get<CalendarJson[]>('calendars', inUiLanguage()), api().get<AccountJson[]>('accounts', inUiLanguage())]);
    set({ calendars, accounts, loaded: true });
    publish(calendars);
    await refreshSync();
  },
  async setVisible(id, visible) {
    const before = get().calendars;
    // Shown at once: the checkbox must not lag the click; put back if the server refuses.
    const optimistic = before.map((c) => (c.id === id ? { ...c, visible } : c));
    set({ calendars: optimistic });
    publish(optimistic);
    try {
      const saved = await api().patch<CalendarJson>(`calendars/${id}`, { visible }, inUiLanguage());
      const calendars = get().calendars.map((c) => (c.id === id ? saved : c));
      set({ calendars });
      publish(calendars);
    } catch (e) {
      set({ calendars: before });
      publish(before);
      throw e;
    }
  },
  async updateCalendar(id, changes) {
    const saved = await api().patch<CalendarJson>(`calendars/${id}`, changes, inUiLanguage());
    set({ calendars: get().calendars.map((c) => (c.id === id ? saved : c)) });
  },
  async addAccount(body) {
    const added = await api().post<AccountJson>('accounts', body, inUiLanguage());
    await get().load();
    return added;
  },
  async createCalendar(body) {
    const made = await api().post<CalendarJson>('calendars', body, inUiLanguage());
    const calendars = [...get().calendars, made];
    set({ calendars });
    // While another calendar is hidden the lists ask for the shown ones by id: the new one too.
    publish(calendars);
    return made;
  },
  async removeCalendar(id, moveTo) {
    await api().del(`calendars/${id}`, { ...inUiLanguage(), ...(moveTo === null ? { events: 'delete' } : { events: 'move', move_to: moveTo }) });
    await get().load();
  },
  async removeAccount(id) {
    await api().del(`accounts/${id}`, inUiLanguage());
    await get().load();
  },
  async syncNow(accountName) {
    await api().post('sync', { account: accountName }, inUiLanguage());
    await pollWhile(refreshSync, accountSyncing(accountName));
  },
  async restoreConflict(id) {
    await api().post(`sync/conflicts/${id}/restore`, {}, inUiLanguage());
    await refreshSync();
  },
  async decideDeletions(calendarId, accountName, allow) {
    await api().post(`sync/calendars/${calendarId}/deletions`, { allow }, inUiLanguage());
    // The server starts the round that acts on the answer: followed as "Sync now" is.
    await pollWhile(refreshSync, accountSyncing(accountName));
  },
  async dismissConflict(id) {
    await api().del(`sync/conflicts/${id}`, inUiLanguage());
    await refreshSync();
  },
}));

/** The name the server gives the calendar kept on this computer until the user renames it. */
const LOCAL_DEFAULT_NAME = 'On this computer';

/**
 * A calendar's name as the user reads it: the local calendar's default name is the server's
 * English words, so it is shown in the interface language until the user gives it a name.
 */
export function calendarLabel(c: Pick<CalendarJson, 'id' | 'name'>, t: (key: string) => string): string {
  return c.id === LOCAL_CALENDAR_ID && c.name === LOCAL_DEFAULT_NAME ? t('calendars.local') : c.name;
}
