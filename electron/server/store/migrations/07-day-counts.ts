import type { Migration } from './migration';

export const dayCounts: Migration = {
  version: 7,
  name: 'list totals per day, series still to extend indexed',
  up(db) {
    // A list's total is a count of every event in its window, and repeating events put tens of
    // thousands of occurrence rows in the default two-year window: counting them row by row made
    // the first list after a change 2.4 times slower with 1,000 series. Counted per start day and
    // end day instead, a window is a sum of a few thousand rows whatever the events in it, and
    // only the events of its first and last days are read one by one (store/event-counts.ts).
    // Kept by triggers so that every way of writing an event (API, import, sync, series
    // extension, another process on the same file) keeps it right.
    db.exec(`
        CREATE TABLE event_day_counts (
          lang TEXT NOT NULL,
          start_day TEXT NOT NULL,
          status TEXT NOT NULL,
          calendar_id INTEGER NOT NULL,
          end_day TEXT NOT NULL,
          n INTEGER NOT NULL,
          PRIMARY KEY (lang, start_day, status, calendar_id, end_day)
        ) WITHOUT ROWID;
        -- Which start days have events ending on a given day: where the last day's events begin.
        CREATE INDEX event_day_counts_end ON event_day_counts (lang, end_day, start_day);
        INSERT INTO event_day_counts
          SELECT lang, substr(start_local, 1, 10), status, calendar_id, substr(end_local, 1, 10), count(*)
          FROM events GROUP BY 1, 2, 3, 4, 5;

        CREATE TRIGGER event_day_counts_insert AFTER INSERT ON events
        BEGIN
          INSERT INTO event_day_counts VALUES (NEW.lang, substr(NEW.start_local, 1, 10), NEW.status, NEW.calendar_id, substr(NEW.end_local, 1, 10), 1)
          ON CONFLICT DO UPDATE SET n = n + 1;
        END;
        CREATE TRIGGER event_day_counts_delete AFTER DELETE ON events
        BEGIN
          UPDATE event_day_counts SET n = n - 1
          WHERE lang = OLD.lang AND start_day = substr(OLD.start_local, 1, 10) AND status = OLD.status AND calendar_id = OLD.calendar_id AND end_day = substr(OLD.end_local, 1, 10);
          DELETE FROM event_day_counts
          WHERE lang = OLD.lang AND start_day = substr(OLD.start_local, 1, 10) AND status = OLD.status AND calendar_id = OLD.calendar_id AND end_day = substr(OLD.end_local, 1, 10) AND n <= 0;
        END;
        -- A changed title or description moves no count: only a change of what the key holds.
        CREATE TRIGGER event_day_counts_update AFTER UPDATE OF lang, start_local, status, calendar_id, end_local ON events
        WHEN OLD.lang IS NOT NEW.lang OR substr(OLD.start_local, 1, 10) IS NOT substr(NEW.start_local, 1, 10) OR OLD.status IS NOT NEW.status
          OR OLD.calendar_id IS NOT NEW.calendar_id OR substr(OLD.end_local, 1, 10) IS NOT substr(NEW.end_local, 1, 10)
        BEGIN
          UPDATE event_day_counts SET n = n - 1
          WHERE lang = OLD.lang AND start_day = substr(OLD.start_local, 1, 10) AND status = OLD.status AND calendar_id = OLD.calendar_id AND end_day = substr(OLD.end_local, 1, 10);
          DELETE FROM event_day_counts
          WHERE lang = OLD.lang AND start_day = substr(OLD.start_local, 1, 10) AND status = OLD.status AND calendar_id = OLD.calendar_id AND end_day = substr(OLD.end_local, 1, 10) AND n <= 0;
          INSERT INTO event_day_counts VALUES (NEW.lang, substr(NEW.start_local, 1, 10), NEW.status, NEW.calendar_id, substr(NEW.end_local, 1, 10), 1)
          ON CONFLICT DO UPDATE SET n = n + 1;
        END;

        -- Every list asks whether a series still lacks rows for its window (store/series-horizon.ts,
        -- lowestGenerated and laggingAfter). Through event_series_generated that walked past every
        -- finished bounded series first (75 µs a list with 500 of them); this index holds only the
        -- series that can still grow, so the answer is its first entry. It serves every query the
        -- old index served (the horizon's three), which then only cost each series' save.
        CREATE INDEX event_series_lagging ON event_series (generated_until, id)
          WHERE trashed = 0 AND (last_start IS NULL OR last_start >= generated_until);
        DROP INDEX event_series_generated;
      `);
  },
};
