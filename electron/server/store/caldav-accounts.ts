/**
 * CalDAV accounts and the calendars they hold, as stored. Passwords are not here (secrets.ts):
 * a copy of the database, a backup or an export never carries one.
 */
import type { DB } from './db';

/** The one way an event leaves for good (its rows, search text, schedule and post id go with it). */
interface EventDeleter {
  deleteForever(id: number): void;
}

export interface AccountRow {
  id: number;
  name: string;
  server_url: string;
  username: string;
  principal_url: string;
  home_url: string;
  created_utc: string;
  last_sync_utc: string | null;
  last_error: string | null;
}

export interface CalendarRow {
  id: number;
  account_id: number | null;
  name: string;
  color: string | null;
  visible: number;
  synced: number;
  url: string | null;
  ctag: string | null;
  sync_token: string | null;
  has_sync_collection: number;
  read_only: number;
  last_full_sync_utc: string | null;
  last_error: string | null;
  /** Set on a subscription to an iCalendar feed (store/subscriptions.ts); null otherwise. */
  subscription_url: string | null;
  subscription_etag: string | null;
  subscription_last_modified: string | null;
  subscription_refreshed_utc: string | null;
  /** Deletions a sync held for the user to confirm (JSON, caldav/held-deletes.ts); null when none. */
  held_deletes: string | null;
}

export { LOCAL_CALENDAR_ID } from '../../../shared/schema/accounts';

export interface NewAccount {
  name: string;
  serverUrl: string;
  username: string;
  principalUrl: string;
  homeUrl: string;
  createdUtc: string;
}

export interface NewCalendar {
  url: string;
  name: string;
  color: string | null;
  ctag: string | null;
  syncToken: string | null;
  hasSyncCollection: boolean;
  readOnly: boolean;
  synced: boolean;
}

export class DuplicateAccountError extends Error {
  constructor(readonly accountName: string) {
    super(`There is already an account named "${accountName}"; choose another name with --name.`);
  }
}

/** What a user may change of a calendar (PATCH /calendars/{id}). */
export interface CalendarChanges {
  name?: string;
  color?: string | null;
  visible?: boolean;
  synced?: boolean;
}

export function createCalDavAccountStore(db: DB, events: EventDeleter) {
  const insertAccount = db.prepare<[string, string, string, string, string, string]>(
    'INSERT INTO caldav_accounts (name, server_url, username, principal_url, home_url, created_utc) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertCalendar = db.prepare<[number, string, string | null, number, string, string | null, string | null, number, number]>(
    'INSERT INTO calendars (account_id, name, color, synced, url, ctag, sync_token, has_sync_collection, read_only) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const selectAccounts = db.prepare<[], AccountRow>('SELECT * FROM caldav_accounts ORDER BY name COLLATE NOCASE, id');
  const selectAccountByName = db.prepare<[string], AccountRow>('SELECT * FROM caldav_accounts WHERE name = ? COLLATE NOCASE');
  const selectAccount = db.prepare<[number], AccountRow>('SELECT * FROM caldav_accounts WHERE id = ?');
  const selectCalendars = db.prepare<[], CalendarRow>('SELECT * FROM calendars ORDER BY id <> 1, subscription_url IS NOT NULL, account_id, name COLLATE NOCASE, id');
  const selectAccountCalendars = db.prepare<[number], CalendarRow>('SELECT * FROM calendars WHERE account_id = ? ORDER BY name COLLATE NOCASE, id');
  const deleteAccount = db.prepare<[number]>('DELETE FROM caldav_accounts WHERE id = ?');
  // The account's events are the server's copies: they go with it (the server keeps them). Their
  // ids go back to the posts registry as every deleted event's do.
  const accountEventIds = db.prepare<[number], number>('SELECT id FROM events WHERE calendar_id IN (SELECT id FROM calendars WHERE account_id = ?)').pluck();
  const accountEventsInOrder = db.prepare<[string], number>('SELECT id FROM events WHERE id IN (SELECT value FROM json_each(?)) ORDER BY parent_id IS NULL, id').pluck();
  const selectCalendar = db.prepare<[number], CalendarRow>('SELECT * FROM calendars WHERE id = ?');
  const updateCalendar = db.prepare<[string, string | null, number, number, number]>('UPDATE calendars SET name = ?, color = ?, visible = ?, synced = ? WHERE id = ?');
  const insertLocal = db.prepare<[string, string | null]>('INSERT INTO calendars (account_id, name, color, synced, url) VALUES (NULL, ?, ?, 0, NULL)');
  const calendarEventsInOrder = db.prepare<[number], number>('SELECT id FROM events WHERE calendar_id = ? ORDER BY parent_id IS NULL, id').pluck();
  const moveEvents = db.prepare<[number, number]>('UPDATE events SET calendar_id = ? WHERE calendar_id = ?');
  const deleteCalendar = db.prepare<[number]>('DELETE FROM calendars WHERE id = ?');

  return {
    /** Adds an account with its calendars, all or nothing. Call inside a write transaction. */
    add(account: NewAccount, calendars: NewCalendar[]): AccountRow {
      if (selectAccountByName.get(account.name)) throw new DuplicateAccountError(account.name);
      const id = Number(insertAccount.run(account.name, account.serverUrl, account.username, account.principalUrl, account.homeUrl, account.createdUtc).lastInsertRowid);
      for (const c of calendars) insertCalendar.run(id, c.name, c.color, c.synced ? 1 : 0, c.url, c.ctag, c.syncToken, c.hasSyncCollection ? 1 : 0, c.readOnly ? 1 : 0);
      return selectAccount.get(id)!;
    },
    list(): Array<AccountRow & { calendars: CalendarRow[] }> {
      return selectAccounts.all().map((a) => ({ ...a, calendars: selectAccountCalendars.all(a.id) }));
    },
    byName: (name: string): AccountRow | undefined => selectAccountByName.get(name),
    byId: (id: number): AccountRow | undefined => selectAccount.get(id),
    calendarsOf: (accountId: number): CalendarRow[] => selectAccountCalendars.all(accountId),
    calendar: (id: number): CalendarRow | undefined => selectCalendar.get(id),
    /** Changes a calendar's name, colour, shown/hidden or synced; the row as it is now. Call in a write transaction. */
    updateCalendar(id: number, changes: CalendarChanges): CalendarRow | undefined {
      const c = selectCalendar.get(id);
      if (!c) return undefined;
      updateCalendar.run(
        changes.name ?? c.name,
        changes.color !== undefined ? changes.color : c.color,
        changes.visible !== undefined ? (changes.visible ? 1 : 0) : c.visible,
        changes.synced !== undefined ? (changes.synced ? 1 : 0) : c.synced,
        id,
      );
      return selectCalendar.get(id);
    },
    /** Another calendar of this computer's own (no server, no feed). Call in a write transaction. */
    createLocal(name: string, color: string | null): CalendarRow {
      return selectCalendar.get(Number(insertLocal.run(name, color).lastInsertRowid))!;
    },
    /**
     * Removes a calendar of this computer's own with its events moved to `moveTo` (whole series
     * with it), or deleted for good when `moveTo` is null. Call in a write transaction.
     */
    removeLocal(id: number, moveTo: number | null): void {
      if (moveTo !== null) moveEvents.run(moveTo, id);
      else for (const e of calendarEventsInOrder.all(id)) events.deleteForever(e);
      deleteCalendar.run(id);
    },
    /** Whether a calendar is one of this computer's own: no account, no feed. */
    isLocal: (c: CalendarRow): boolean => c.account_id === null && c.subscription_url === null,
    /** Every calendar: the local one, the accounts' calendars, then subscriptions. */
    calendars: (): CalendarRow[] => selectCalendars.all(),
    /** Removes the account, its calendars and their events; false when there was none. Call in a write transaction. */
    remove(id: number): boolean {
      // Occurrence rows first: their series' rows are what they point at.
      // The delete triggers queue these for sending; the calendars' outbox rows go with the
      // calendars below (ON DELETE CASCADE), so nothing is ever sent: the server keeps its copies.
      for (const e of accountEventsInOrder.all(JSON.stringify(accountEventIds.all(id)))) events.deleteForever(e);
      return deleteAccount.run(id).changes > 0;
    },
  };
}

export type CalDavAccountStore = ReturnType<typeof createCalDavAccountStore>;
