/**
 * Site settings: the values the original reads from WordPress options. Stored as key/value rows;
 * a missing row means the default below.
 */
import type { DB } from './db';
import { systemTimeZone, isValidTimeZone } from '../../../shared/dates/zones';

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
}

export const MAX_PER_PAGE = 50;

function defaults(): Settings {
  return {
    timezone: systemTimeZone(),
    per_page: 10,
    global_id_host: 'localhost',
    currency_symbol: '$',
    currency_position: 'prefix',
    currency_code: 'USD',
  };
}

export function createSettingsStore(db: DB) {
  const selectAll = db.prepare<[], { key: string; value: string }>('SELECT key, value FROM settings');
  const upsert = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  let cache: Settings | undefined;

  function load(): Settings {
    const s = defaults() as unknown as Record<string, unknown>;
    for (const row of selectAll.all()) {
      if (!(row.key in s)) continue;
      s[row.key] = typeof s[row.key] === 'number' ? Number(row.value) : row.value;
    }
    const out = s as unknown as Settings;
    if (!isValidTimeZone(out.timezone)) out.timezone = systemTimeZone();
    return out;
  }

  return {
    get(): Settings {
      return (cache ??= load());
    },
    /** Forgets the cached values after the table was rewritten behind the store (a restore). */
    invalidate(): void {
      cache = undefined;
    },
    update(changes: Partial<Settings>): Settings {
      db.transaction(() => {
        for (const [key, value] of Object.entries(changes)) {
          if (value !== undefined) upsert.run(key, String(value));
        }
      })();
      cache = undefined;
      return this.get();
    },
  };
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;
