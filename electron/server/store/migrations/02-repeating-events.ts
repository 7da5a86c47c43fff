import type { Migration } from './migration';

export const repeatingEvents: Migration = {
  version: 2,
  name: 'repeating events',
  up(db) {
    db.exec(`
        -- A series: its first event (the anchor, post_parent of every other occurrence, as in the
        -- original's recurrence add-on) and the rule its occurrence rows are generated from.
        CREATE TABLE event_series (
          id INTEGER PRIMARY KEY REFERENCES events(id) ON DELETE CASCADE,
          -- {"rules": [...], "rdates": [...], "exdates": [...]}: RFC 5545 values, wall times of the zone.
          recurrence TEXT NOT NULL,
          -- DTSTART as a wall time in the series zone, and the wall-clock length of an occurrence.
          start_local TEXT NOT NULL,
          timezone TEXT NOT NULL,
          all_day INTEGER NOT NULL,
          duration_s INTEGER NOT NULL,
          -- No occurrence starts after this wall time; NULL when the series never ends.
          last_start TEXT,
          -- Rows exist for every occurrence starting before this wall time (the horizon), plus the
          -- far windows in series_windows that a list or export asked for.
          generated_until TEXT NOT NULL,
          -- Series values of the fields the first event changed on its own (JSON).
          template TEXT NOT NULL DEFAULT '{}',
          -- The whole series was trashed at once (so restoring its first event restores it whole).
          trashed INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX event_series_generated ON event_series (generated_until) WHERE trashed = 0;
        CREATE TABLE series_windows (
          series_id INTEGER NOT NULL REFERENCES event_series(id) ON DELETE CASCADE,
          from_local TEXT NOT NULL,
          to_local TEXT NOT NULL
        );
        CREATE INDEX series_windows_series ON series_windows (series_id, from_local);

        -- An occurrence's original start (RFC 5545 RECURRENCE-ID) as a wall time of its series, and
        -- the field groups it changed on its own (bits of store/series-fields.ts): those stay as
        -- they are when the whole series changes.
        ALTER TABLE events ADD COLUMN recurrence_id TEXT;
        ALTER TABLE events ADD COLUMN own_fields INTEGER NOT NULL DEFAULT 0;
        CREATE UNIQUE INDEX events_occurrence ON events (parent_id, recurrence_id) WHERE recurrence_id IS NOT NULL;
      `);
  },
};
