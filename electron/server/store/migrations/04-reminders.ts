import type { Migration } from './migration';

export const reminders: Migration = {
  version: 4,
  name: 'reminders',
  up(db) {
    db.exec(`
        -- An event's reminders, each an RFC 5545 VALARM (shared/reminders.ts). A series' sit on its
        -- first event; an occurrence that changed its own (own_fields bit) has rows of its own.
        -- layer 1: on a first event that changed its reminders on its own, the series' set (its
        -- own set is layer 0), so the other occurrences keep inheriting the series'.
        CREATE TABLE event_reminders (
          id INTEGER PRIMARY KEY,
          event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
          layer INTEGER NOT NULL DEFAULT 0,
          position INTEGER NOT NULL,
          action TEXT NOT NULL CHECK (action IN ('display', 'audio', 'email')),
          -- Relative: the duration as normalised and what it counts from; absolute: at_utc.
          trigger TEXT,
          related TEXT NOT NULL DEFAULT 'start' CHECK (related IN ('start', 'end')),
          at_utc TEXT,
          -- The trigger in seconds (a day as 86400; NULL when absolute): how far the schedule looks.
          offset_s INTEGER,
          repeat_n INTEGER NOT NULL DEFAULT 0,
          repeat_every TEXT,
          description TEXT,
          summary TEXT,
          attendees TEXT,
          -- The VALARM as imported, for a lossless export of what Almanac does not model.
          ical TEXT,
          -- What identifies the reminder across edits and re-imports (action and trigger).
          alarm_key TEXT NOT NULL,
          CHECK ((trigger IS NULL) != (at_utc IS NULL))
        );
        CREATE INDEX event_reminders_event ON event_reminders (event_id, layer, position);
        CREATE INDEX event_reminders_offset ON event_reminders (offset_s);
        -- A series' occurrences by start: the rows whose reminders fall in the schedule's window.
        CREATE INDEX events_parent_start ON events (parent_id, start_utc);

        -- The schedule: the next firings, derived from the above for [now - 1 day, now + 7 days],
        -- refilled by a job and rewritten with each event write. The only table the timer reads.
        CREATE TABLE reminder_due (
          -- Per occurrence and firing: hash of (series UID, recurrence id, alarm key, repeat n).
          key TEXT PRIMARY KEY,
          fire_utc TEXT NOT NULL,
          event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
          action TEXT NOT NULL,
          -- Sent to clients already (marked before sending: at most once across a crash).
          pushed INTEGER NOT NULL DEFAULT 0
        ) WITHOUT ROWID;
        CREATE INDEX reminder_due_time ON reminder_due (fire_utc);
        CREATE INDEX reminder_due_next ON reminder_due (fire_utc) WHERE pushed = 0;
        CREATE INDEX reminder_due_event ON reminder_due (event_id);

        -- What the user did with a firing, kept by the same key: regenerated occurrence rows and
        -- re-imports keep it, so nothing is notified twice. Local; never written into the event.
        CREATE TABLE reminder_state (
          key TEXT PRIMARY KEY,
          state TEXT NOT NULL CHECK (state IN ('fired', 'snoozed', 'dismissed')),
          -- A snooze's end: the firing is due again then.
          until_utc TEXT,
          updated_utc TEXT NOT NULL
        ) WITHOUT ROWID;
      `);
  },
};
