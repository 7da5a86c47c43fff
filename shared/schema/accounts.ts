/**
 * CalDAV accounts and calendars as the API takes them (Almanac, issue 17), declared once:
 * `POST /accounts` and `PATCH /calendars/{id}` validate with these, `/doc` describes them, and the
 * renderer's "Add account" dialog and calendar rows draw their fields and labels from them.
 */
import * as k from './kinds';
import type { FieldDef, FieldSet } from './resources';

const f = (kind: k.Kind, description: string, label: string, extra: Partial<FieldDef> = {}): FieldDef => ({ kind, description, label, ...extra });

export const accountFields: FieldSet = {
  url: f(k.text({ nonEmpty: true, max: 2000 }), 'The CalDAV server: its address (https://dav.example.com/) or just the domain (example.com); calendars are found through RFC 6764 well-known URLs.', 'accounts.url', { required: true }),
  username: f(k.text({ nonEmpty: true, max: 500 }), 'The user name on that server.', 'accounts.username', { required: true }),
  password: f(k.password(), 'The password (or app password). Kept in the OS keychain or an owner-only file, never in the database, never returned.', 'accounts.password', { required: true }),
  name: f(k.text({ nonEmpty: true, max: 200 }), 'What Almanac calls the account (default: the server\'s host name); unique.', 'accounts.name'),
  calendars: f(k.textList(), 'Calendars to sync, by name or URL (default: all the account has); the others are listed, not synced.', 'accounts.calendars'),
};

export const calendarFields: FieldSet = {
  name: f(k.text({ nonEmpty: true, max: 200 }), 'The calendar\'s name in Almanac (not changed on the server).', 'calendars.name'),
  color: f(k.color(), 'Colour of the calendar\'s events, #rrggbb ("" for the default); an event\'s category colour wins over it.', 'calendars.color'),
  visible: f(k.boolean(), 'Shown: false hides its events from every view, search and the export of what the filters show.', 'calendars.visible'),
  synced: f(k.boolean(), 'Synced with its server (a server\'s calendar only).', 'calendars.synced'),
};

/** A calendar of this computer's own, as `POST /calendars` makes one (Almanac). */
export const newCalendarFields: FieldSet = {
  name: { ...calendarFields.name, required: true },
  color: calendarFields.color,
};

/** What becomes of a removed calendar's events: moved to another calendar of this computer, or deleted. */
export const REMOVED_CALENDAR_EVENTS = ['move', 'delete'] as const;

/** A calendar as `GET /calendars` and `PATCH /calendars/{id}` answer. */
export interface CalendarJson {
  id: number;
  name: string;
  color: string | null;
  visible: boolean;
  /** The account's name, or null for "On this computer". */
  account: string | null;
  account_id: number | null;
  synced: boolean;
  read_only: boolean;
  /** An iCalendar subscription's feed (read-only calendar); null for the others. */
  subscription: { url: string; refreshed_utc: string | null; last_error: string | null } | null;
  /** A website's calendar (issue 26): the site's id and address; null for the others. */
  site?: { id: number; url: string; repeats: boolean } | null;
}

/** An account as `GET /accounts` and `POST /accounts` answer: never its password. */
export interface AccountJson {
  id: number;
  name: string;
  server_url: string;
  username: string;
  created: string;
  last_sync: string | null;
  last_error: string | null;
  calendars: CalendarJson[];
}

/** A calendar's sync state in `GET /sync`. */
export interface CalendarSyncJson {
  id: number;
  name: string;
  color: string | null;
  visible: boolean;
  synced: boolean;
  read_only: boolean;
  /** Local changes not on the server yet. */
  pending: number;
  last_error: string | null;
  last_full_sync: string | null;
  /**
   * Deletions held for the user: the server stopped listing `count` of the calendar's `total`
   * events at once (over 90 %). Nothing is deleted until `POST /sync/calendars/{id}/deletions`
   * says `allow: true`; `allow: false` keeps them and sends them back. Null when none wait.
   */
  held_deletes: { count: number; total: number } | null;
}

/** An account's sync state in `GET /sync`. */
export interface AccountSyncJson {
  id: number;
  name: string;
  last_sync: string | null;
  last_error: string | null;
  syncing: boolean;
  /** Local changes not on the server yet. */
  pending: number;
  /** When the next background try is, after a failure (ISO), or null. */
  next_try: string | null;
  calendars: CalendarSyncJson[];
}

/** A local version a sync kept beside the server's (`GET /sync` `conflicts`). */
export interface ConflictCopyJson {
  id: number;
  calendar: number;
  uid: string;
  title: string;
  /** When it was kept (ISO). */
  kept: string;
  /** Which sync kept it ('caldav' or 'site') and what kind of record it is ('event', 'venue'…). */
  target?: 'caldav' | 'site';
  kind?: string;
}

/** "On this computer": it always exists, belongs to no account, can be renamed but not removed. */
export const LOCAL_CALENDAR_ID = 1;
