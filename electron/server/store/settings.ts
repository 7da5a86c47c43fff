/**
 * Site settings: the values the original reads from WordPress options. Stored as key/value rows;
 * a missing row means the default below.
 */
import type { DB } from './db';
import { normalizeReminders, type Reminder } from '../../../shared/reminders';
import { createDerivedCache, type DataStamp } from './derived-cache';
import { systemTimeZone, isValidTimeZone } from '../../../shared/dates/zones';
import { settingsFields, type TimeFormat, type Theme, type WeekStart } from '../../../shared/schema/settings';

export interface Settings {
  /** Zone for dates given without one, and for list windows. Defaults to the system's. */
  timezone: string;
  /** Default page size of every list (the original's "posts per page"). */
  per_page: number;
  /** Host part of `global_id`; stays the same across restarts and ports. */
  global_id_host: string;
  /** Shown with costs given without a symbol. */
  currency_symbol: string;
  currency_position: 'prefix' | 'postfix';
  currency_code: string;
  /**
   * How far ahead repeating events have occurrence rows, in months (Almanac). Lists and exports
   * further out generate the occurrences of the window they ask for.
   */
  recurrence_horizon_months: number;
  /**
   * Reminders given to events created through the API without a `reminders` field (Almanac), as
   * JSON lists of shared/reminders.ts; never to imported or synced events. None by default: a
   * calendar that starts ringing unasked is worse than one that waits to be told.
   */
  reminders_timed: string;
  reminders_all_day: string;
  /** What the calendar's user chose in Settings (shared/schema/settings.ts, where they are explained). */
  week_starts_on: WeekStart;
  time_format: TimeFormat;
  work_start: string;
  work_end: string;
  theme: Theme;
  default_event_minutes: number;
  /**
   * The desktop app keeps running in the tray when its window is closed, so reminders still come
   * (Almanac). Off by default: closing the window quits, as users expect of an app that never said otherwise.
   */
  keep_running_in_tray: boolean;
  /** A chime with reminders in the browser tab (shared/schema/settings.ts). */
  reminder_sound: boolean;
}

/** A user setting's default, from its one declaration. */
const userDefault = <T>(name: string): T => settingsFields[name].default as T;

export const MAX_PER_PAGE = 50;

/** A stored default-reminders list; one that no longer reads as a list counts as none. */
export function storedReminders(json: string): Reminder[] {
  try {
    const list = normalizeReminders(JSON.parse(json));
    return typeof list === 'string' ? [] : list;
  } catch {
    return [];
  }
}

/** The defaults; `timezone` is filled in by `load` only when the calendar has none of its own. */
function defaults(): Settings {
  return {
    timezone: '',
    per_page: 10,
    global_id_host: 'localhost',
    currency_symbol: '$',
    currency_position: 'prefix',
    currency_code: 'USD',
    recurrence_horizon_months: userDefault('recurrence_horizon_months'),
    reminders_timed: '[]',
    reminders_all_day: '[]',
    week_starts_on: userDefault('week_starts_on'),
    time_format: userDefault('time_format'),
    work_start: userDefault('work_start'),
    work_end: userDefault('work_end'),
    theme: userDefault('theme'),
    default_event_minutes: userDefault('default_event_minutes'),
    keep_running_in_tray: userDefault('keep_running_in_tray'),
    reminder_sound: userDefault('reminder_sound'),
  };
}

export function createSettingsStore(db: DB, stamp: DataStamp) {
  const selectAll = db.prepare<[], { key: string; value: string }>('SELECT key, value FROM settings');
  const upsert = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  // Kept until the data changes, here or in another process (a CLI restore while the app runs).
  const cache = createDerivedCache<Settings>(stamp, 1);

  function load(): Settings {
    const s = defaults() as unknown as Record<string, unknown>;
    for (const row of selectAll.all()) {
      if (!(row.key in s)) continue;
      const kind = typeof s[row.key];
      s[row.key] = kind === 'number' ? Number(row.value) : kind === 'boolean' ? row.value === 'true' || row.value === '1' : row.value;
    }
    const out = s as unknown as Settings;
    // Asked only when needed: the system's zone costs a new Intl.DateTimeFormat (about 0.3 ms),
    // and settings are loaded again after every write.
    if (!out.timezone || !isValidTimeZone(out.timezone)) out.timezone = systemTimeZone();
    return out;
  }

  return {
    get(): Settings {
      const current = cache.current();
      let settings = current.get('settings');
      if (!settings) current.set('settings', (settings = load()));
      return settings;
    },
    update(changes: Partial<Settings>): Settings {
      db.transaction(() => {
        for (const [key, value] of Object.entries(changes)) {
          if (value !== undefined) upsert.run(key, String(value));
        }
      })();
      return this.get();
    },
  };
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;
