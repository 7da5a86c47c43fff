import { randomUUID } from 'node:crypto';
import type { Migration } from './migration';
import { REQUEUE } from './requeue';

export const eventUidsCaldavSync: Migration = {
  version: 6,
  name: 'event identity, calendars on events, CalDAV sync state',
  up(db) {
    // Every event that is not an occurrence gets a UUID UID (RFC 9253 §3), kept for life: two
    // installations no longer both write `almanac-<id>@localhost`. Occurrences use their
    // series' UID; imported UIDs are already there and stay.
    const fill = db.prepare('UPDATE events SET ics_uid = ? WHERE id = ?');
    for (const id of db.prepare('SELECT id FROM events WHERE parent_id IS NULL AND ics_uid IS NULL').pluck().all() as number[]) fill.run(randomUUID(), id);
    db.exec(`
        -- The calendar an event belongs to (calendars.id; 1 is "On this computer"). No REFERENCES:
        -- SQLite refuses one on an added NOT NULL column; removing a calendar removes its events
        -- in code (store/caldav-accounts.ts).
        ALTER TABLE events ADD COLUMN calendar_id INTEGER NOT NULL DEFAULT 1;
        CREATE INDEX events_calendar ON events (calendar_id, ics_uid);

        -- A server's copy of one resource (a whole series with its exceptions is one): where it
        -- is, its ETag, and the text last fetched, whose properties Almanac does not map
        -- (ATTENDEE, other clients' X-) are written back with the next change.
        CREATE TABLE dav_objects (
          calendar_id INTEGER NOT NULL REFERENCES calendars(id) ON DELETE CASCADE,
          uid TEXT NOT NULL,
          href TEXT NOT NULL,
          etag TEXT,
          base_ical TEXT,
          PRIMARY KEY (calendar_id, uid)
        );
        CREATE UNIQUE INDEX dav_objects_href ON dav_objects (calendar_id, href);

        -- What is to be sent: one row per resource changed here since it was last sent (state,
        -- not a log: what goes out is the event as it is when sent). Written by the triggers
        -- below in the same transaction as the change, whichever code path made it. rev grows
        -- with each change, so a change made while a send is under way is sent again.
        CREATE TABLE dav_outbox (
          calendar_id INTEGER NOT NULL REFERENCES calendars(id) ON DELETE CASCADE,
          uid TEXT NOT NULL,
          rev INTEGER NOT NULL DEFAULT 1,
          attempts INTEGER NOT NULL DEFAULT 0,
          next_try_utc TEXT,
          error TEXT,
          PRIMARY KEY (calendar_id, uid)
        );

        -- A local version that lost to the server's (the same event changed on both sides): kept
        -- for the user to look at or restore, never dropped silently.
        CREATE TABLE sync_conflicts (
          id INTEGER PRIMARY KEY,
          calendar_id INTEGER NOT NULL REFERENCES calendars(id) ON DELETE CASCADE,
          uid TEXT NOT NULL,
          title TEXT NOT NULL,
          local_ical TEXT NOT NULL,
          created_utc TEXT NOT NULL
        );

        -- 1 while the sync writes what it pulled: those writes are the server's, not to be sent back.
        CREATE TABLE sync_guard (applying INTEGER NOT NULL);
        INSERT INTO sync_guard VALUES (0);

        CREATE TRIGGER dav_outbox_event_insert AFTER INSERT ON events
        WHEN NEW.parent_id IS NULL AND NEW.ics_uid IS NOT NULL AND NEW.calendar_id <> 1 AND (SELECT applying FROM sync_guard) = 0
        BEGIN
          INSERT INTO dav_outbox (calendar_id, uid) VALUES (NEW.calendar_id, NEW.ics_uid) ${REQUEUE};
        END;
        -- A first event or standalone one, an occurrence changed on its own (or no longer), or an
        -- occurrence trashed: the resource changed. Rows a series only generates do not count.
        CREATE TRIGGER dav_outbox_event_update AFTER UPDATE ON events
        WHEN (NEW.calendar_id <> 1 OR OLD.calendar_id <> 1) AND (SELECT applying FROM sync_guard) = 0
          AND (NEW.parent_id IS NULL OR OLD.parent_id IS NULL OR NEW.own_fields <> 0 OR OLD.own_fields <> 0 OR NEW.status <> OLD.status)
        BEGIN
          INSERT INTO dav_outbox (calendar_id, uid)
          SELECT c, u FROM (
            SELECT NEW.calendar_id AS c, coalesce(CASE WHEN NEW.parent_id IS NULL THEN NEW.ics_uid END, (SELECT ics_uid FROM events WHERE id = NEW.parent_id)) AS u
            UNION SELECT OLD.calendar_id, coalesce(CASE WHEN OLD.parent_id IS NULL THEN OLD.ics_uid END, (SELECT ics_uid FROM events WHERE id = OLD.parent_id))
          ) WHERE c <> 1 AND u IS NOT NULL
          ${REQUEUE};
        END;
        CREATE TRIGGER dav_outbox_event_delete AFTER DELETE ON events
        WHEN OLD.parent_id IS NULL AND OLD.ics_uid IS NOT NULL AND OLD.calendar_id <> 1 AND (SELECT applying FROM sync_guard) = 0
        BEGIN
          INSERT INTO dav_outbox (calendar_id, uid) VALUES (OLD.calendar_id, OLD.ics_uid) ${REQUEUE};
        END;
        -- The rule, its exceptions' dates, a whole-series trash.
        -- SQLite fires an UPDATE OF trigger whenever the columns are SET, changed or not, and the
        -- store saves a series whole each time it extends its rows: only a real change counts.
        CREATE TRIGGER dav_outbox_series_update AFTER UPDATE OF recurrence, template, trashed ON event_series
        WHEN (OLD.recurrence IS NOT NEW.recurrence OR OLD.template IS NOT NEW.template OR OLD.trashed IS NOT NEW.trashed)
          AND (SELECT applying FROM sync_guard) = 0
        BEGIN
          INSERT INTO dav_outbox (calendar_id, uid)
          SELECT calendar_id, ics_uid FROM events WHERE id = NEW.id AND calendar_id <> 1 AND ics_uid IS NOT NULL
          ${REQUEUE};
        END;
        -- Reminders travel as VALARMs.
        CREATE TRIGGER dav_outbox_reminder_insert AFTER INSERT ON event_reminders
        WHEN (SELECT calendar_id FROM events WHERE id = NEW.event_id) <> 1 AND (SELECT applying FROM sync_guard) = 0
        BEGIN
          INSERT INTO dav_outbox (calendar_id, uid)
          SELECT e.calendar_id, coalesce(p.ics_uid, e.ics_uid) FROM events e LEFT JOIN events p ON p.id = e.parent_id
          WHERE e.id = NEW.event_id AND e.calendar_id <> 1 AND coalesce(p.ics_uid, e.ics_uid) IS NOT NULL
          ${REQUEUE};
        END;
        CREATE TRIGGER dav_outbox_reminder_delete AFTER DELETE ON event_reminders
        WHEN (SELECT calendar_id FROM events WHERE id = OLD.event_id) <> 1 AND (SELECT applying FROM sync_guard) = 0
        BEGIN
          INSERT INTO dav_outbox (calendar_id, uid)
          SELECT e.calendar_id, coalesce(p.ics_uid, e.ics_uid) FROM events e LEFT JOIN events p ON p.id = e.parent_id
          WHERE e.id = OLD.event_id AND e.calendar_id <> 1 AND coalesce(p.ics_uid, e.ics_uid) IS NOT NULL
          ${REQUEUE};
        END;
      `);
  },
};
