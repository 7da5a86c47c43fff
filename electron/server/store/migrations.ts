/**
 * Schema versions. Each migration runs once, in order, inside a transaction, and moves
 * `PRAGMA user_version` to its number. Never edit a migration that has shipped: add a new one.
 *
 * Events, venues, organizers and images share one id space (the `posts` registry) as they do in the
 * original, where they are all posts: an id tells what kind of record it is, so the API can answer
 * "that id is not an event" (400) apart from "no such id" (404).
 */
import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';

export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}

const postColumns = `
  id INTEGER PRIMARY KEY REFERENCES posts(id),
  lang TEXT NOT NULL DEFAULT 'en',
  status TEXT NOT NULL DEFAULT 'publish',
  status_before_trash TEXT,
  author INTEGER NOT NULL DEFAULT 1 REFERENCES users(id),
  slug TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL DEFAULT '',
  excerpt TEXT NOT NULL DEFAULT '',
  date_local TEXT NOT NULL,
  date_utc TEXT NOT NULL,
  modified_local TEXT NOT NULL,
  modified_utc TEXT NOT NULL,
  image_id INTEGER REFERENCES images(id) ON DELETE SET NULL,
  translation_group INTEGER NOT NULL`;

/**
 * What queuing a resource already in the CalDAV outbox does: one more change to send, tried at
 * once, and the last attempt's error no longer the news.
 */
const REQUEUE = 'ON CONFLICT DO UPDATE SET rev = rev + 1, attempts = 0, next_try_utc = NULL, error = NULL';

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    up(db) {
      db.exec(`
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);

        CREATE TABLE users (
          id INTEGER PRIMARY KEY,
          login TEXT NOT NULL UNIQUE,
          display_name TEXT NOT NULL,
          role TEXT NOT NULL DEFAULT 'administrator'
        );
        INSERT INTO users (id, login, display_name, role) VALUES (1, 'owner', 'Owner', 'administrator');

        CREATE TABLE posts (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          type TEXT NOT NULL CHECK (type IN ('event', 'venue', 'organizer', 'image'))
        );

        CREATE TABLE images (
          id INTEGER PRIMARY KEY REFERENCES posts(id),
          url TEXT NOT NULL UNIQUE,
          extension TEXT NOT NULL DEFAULT '',
          width INTEGER,
          height INTEGER,
          filesize INTEGER,
          mime TEXT NOT NULL DEFAULT ''
        );

        CREATE TABLE venues (${postColumns},
          address TEXT NOT NULL DEFAULT '',
          city TEXT NOT NULL DEFAULT '',
          country TEXT NOT NULL DEFAULT '',
          province TEXT NOT NULL DEFAULT '',
          state TEXT NOT NULL DEFAULT '',
          zip TEXT NOT NULL DEFAULT '',
          phone TEXT NOT NULL DEFAULT '',
          stateprovince TEXT NOT NULL DEFAULT '',
          website TEXT NOT NULL DEFAULT '',
          show_map INTEGER NOT NULL DEFAULT 1,
          show_map_link INTEGER NOT NULL DEFAULT 1,
          geo_lat REAL,
          geo_lng REAL
        );
        CREATE INDEX venues_lang_date ON venues (lang, date_utc DESC, id DESC);
        CREATE INDEX venues_translation ON venues (translation_group);
        -- Duplicate detection compares names without case or outer spaces (reference §5.7).
        CREATE INDEX venues_dedupe ON venues (lang, lower(trim(title)));

        CREATE TABLE organizers (${postColumns},
          phone TEXT NOT NULL DEFAULT '',
          website TEXT NOT NULL DEFAULT '',
          email TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX organizers_lang_date ON organizers (lang, date_utc DESC, id DESC);
        CREATE INDEX organizers_translation ON organizers (translation_group);
        CREATE INDEX organizers_dedupe ON organizers (lang, lower(trim(title)));

        CREATE TABLE events (${postColumns},
          parent_id INTEGER REFERENCES events(id) ON DELETE SET NULL,
          start_local TEXT NOT NULL,
          end_local TEXT NOT NULL,
          start_utc TEXT NOT NULL,
          end_utc TEXT NOT NULL,
          timezone TEXT NOT NULL,
          all_day INTEGER NOT NULL DEFAULT 0,
          cost TEXT NOT NULL DEFAULT '[]',
          currency_symbol TEXT NOT NULL DEFAULT '',
          currency_code TEXT NOT NULL DEFAULT '',
          currency_position TEXT NOT NULL DEFAULT '',
          website TEXT,
          show_map INTEGER NOT NULL DEFAULT 0,
          show_map_link INTEGER NOT NULL DEFAULT 0,
          hide_from_listings INTEGER NOT NULL DEFAULT 0,
          sticky INTEGER NOT NULL DEFAULT 0,
          featured INTEGER NOT NULL DEFAULT 0,
          venue_id INTEGER REFERENCES venues(id) ON DELETE SET NULL,
          ics_uid TEXT
        );
        -- The events list: one language, ordered by start, windowed on start and end, filtered by
        -- status. Every column it filters on is in the index, so the count never reads a row.
        CREATE INDEX events_list ON events (lang, start_local, status, end_local);
        CREATE INDEX events_venue ON events (venue_id);
        CREATE INDEX events_parent ON events (parent_id);
        CREATE INDEX events_translation ON events (translation_group);
        CREATE INDEX events_ics_uid ON events (ics_uid) WHERE ics_uid IS NOT NULL;

        -- Search: every 3-character run of title, excerpt and description, so a search finds
        -- text anywhere in a word, as the original's LIKE search does, without reading rows;
        -- ignoring case and accents as the original's MySQL collation does (musica = Música).
        CREATE VIRTUAL TABLE events_search USING fts5 (
          title, excerpt, content, content = 'events', content_rowid = 'id', tokenize = 'trigram remove_diacritics 1'
        );
        CREATE TRIGGER events_search_insert AFTER INSERT ON events BEGIN
          INSERT INTO events_search (rowid, title, excerpt, content) VALUES (NEW.id, NEW.title, NEW.excerpt, NEW.content);
        END;
        CREATE TRIGGER events_search_delete AFTER DELETE ON events BEGIN
          INSERT INTO events_search (events_search, rowid, title, excerpt, content) VALUES ('delete', OLD.id, OLD.title, OLD.excerpt, OLD.content);
        END;
        CREATE TRIGGER events_search_update AFTER UPDATE OF title, excerpt, content ON events BEGIN
          INSERT INTO events_search (events_search, rowid, title, excerpt, content) VALUES ('delete', OLD.id, OLD.title, OLD.excerpt, OLD.content);
          INSERT INTO events_search (rowid, title, excerpt, content) VALUES (NEW.id, NEW.title, NEW.excerpt, NEW.content);
        END;

        CREATE TABLE event_organizers (
          event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
          organizer_id INTEGER NOT NULL REFERENCES organizers(id) ON DELETE CASCADE,
          position INTEGER NOT NULL,
          PRIMARY KEY (event_id, organizer_id)
        ) WITHOUT ROWID;
        CREATE INDEX event_organizers_organizer ON event_organizers (organizer_id, event_id);

        CREATE TABLE terms (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          taxonomy TEXT NOT NULL CHECK (taxonomy IN ('category', 'tag')),
          lang TEXT NOT NULL DEFAULT 'en',
          name TEXT NOT NULL,
          slug TEXT NOT NULL,
          description TEXT NOT NULL DEFAULT '',
          parent INTEGER NOT NULL DEFAULT 0,
          translation_group INTEGER NOT NULL,
          -- Published events using the term. Kept by the triggers below, never by application code.
          count INTEGER NOT NULL DEFAULT 0,
          UNIQUE (taxonomy, slug)
        );
        CREATE INDEX terms_lang_name ON terms (taxonomy, lang, name COLLATE NOCASE);
        CREATE INDEX terms_parent ON terms (taxonomy, parent);
        CREATE INDEX terms_translation ON terms (translation_group);

        CREATE TABLE event_terms (
          event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
          term_id INTEGER NOT NULL REFERENCES terms(id) ON DELETE CASCADE,
          position INTEGER NOT NULL,
          PRIMARY KEY (event_id, term_id)
        ) WITHOUT ROWID;
        CREATE INDEX event_terms_term ON event_terms (term_id, event_id);

        CREATE TRIGGER event_terms_count_add AFTER INSERT ON event_terms
        WHEN (SELECT status FROM events WHERE id = NEW.event_id) = 'publish'
        BEGIN UPDATE terms SET count = count + 1 WHERE id = NEW.term_id; END;

        CREATE TRIGGER event_terms_count_remove AFTER DELETE ON event_terms
        WHEN (SELECT status FROM events WHERE id = OLD.event_id) = 'publish'
        BEGIN UPDATE terms SET count = count - 1 WHERE id = OLD.term_id; END;

        CREATE TRIGGER events_count_status AFTER UPDATE OF status ON events
        WHEN (OLD.status = 'publish') != (NEW.status = 'publish')
        BEGIN
          UPDATE terms SET count = count + (CASE WHEN NEW.status = 'publish' THEN 1 ELSE -1 END)
          WHERE id IN (SELECT term_id FROM event_terms WHERE event_id = NEW.id);
        END;

        -- Unlinks before the row goes, while the event's status is still there for the trigger above.
        CREATE TRIGGER events_count_delete BEFORE DELETE ON events
        WHEN OLD.status = 'publish'
        BEGIN DELETE FROM event_terms WHERE event_id = OLD.id; END;
      `);
    },
  },
  {
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
  },
  {
    version: 3,
    name: 'CalDAV accounts and calendars',
    up(db) {
      db.exec(`
        -- A CalDAV account. Its password is never here: see electron/server/secrets.ts.
        CREATE TABLE caldav_accounts (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          server_url TEXT NOT NULL,
          username TEXT NOT NULL,
          principal_url TEXT NOT NULL,
          home_url TEXT NOT NULL,
          created_utc TEXT NOT NULL,
          last_sync_utc TEXT,
          last_error TEXT
        );
        -- Names are what the CLI and the UI call accounts by: unique whatever their case.
        CREATE UNIQUE INDEX caldav_accounts_name ON caldav_accounts (name COLLATE NOCASE);

        -- Every calendar, the local one included (id 1, no account). For a server's calendar:
        -- its collection URL, and the sync state the next round starts from.
        CREATE TABLE calendars (
          id INTEGER PRIMARY KEY,
          account_id INTEGER REFERENCES caldav_accounts(id) ON DELETE CASCADE,
          name TEXT NOT NULL,
          color TEXT,
          visible INTEGER NOT NULL DEFAULT 1,
          -- Chosen for sync (a user may leave some of an account's calendars out).
          synced INTEGER NOT NULL DEFAULT 1,
          url TEXT,
          ctag TEXT,
          sync_token TEXT,
          has_sync_collection INTEGER NOT NULL DEFAULT 0,
          read_only INTEGER NOT NULL DEFAULT 0,
          last_full_sync_utc TEXT,
          last_error TEXT,
          CHECK ((account_id IS NULL) = (url IS NULL))
        );
        CREATE UNIQUE INDEX calendars_account_url ON calendars (account_id, url) WHERE account_id IS NOT NULL;
        INSERT INTO calendars (id, account_id, name) VALUES (1, NULL, 'On this computer');
      `);
    },
  },
  {
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
  },
  {
    version: 5,
    name: 'category colours',
    up(db) {
      // A category's colour (issue 15 item 13): '#rrggbb', or '' when it has none (views then
      // fall back to a colour picked by id). On every term so tags could get one later.
      db.exec(`ALTER TABLE terms ADD COLUMN color TEXT NOT NULL DEFAULT ''`);
    },
  },
  {
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
  },
  {
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
  },
  {
    version: 8,
    name: 'read-only iCalendar subscriptions',
    up(db) {
      // A calendar may be a subscription to a published iCalendar feed (issue 17 item 7): its
      // address, the validators its server last gave (RFC 9110 ETag, Last-Modified) for
      // conditional refreshes, and when it was last refreshed. calendars.last_error says why the
      // last refresh failed. Its own column, not calendars.url: that one is a CalDAV account's
      // (the CHECK ties it to account_id). A subscription's calendar is read_only = 1.
      db.exec(`
        ALTER TABLE calendars ADD COLUMN subscription_url TEXT;
        ALTER TABLE calendars ADD COLUMN subscription_etag TEXT;
        ALTER TABLE calendars ADD COLUMN subscription_last_modified TEXT;
        ALTER TABLE calendars ADD COLUMN subscription_refreshed_utc TEXT;

        -- What each resource (one UID: a series with its changed occurrences) of a feed said when
        -- last applied, as a hash of its mapped fields: a refresh rewrites only what changed, and
        -- removes what the feed no longer has.
        CREATE TABLE subscription_items (
          calendar_id INTEGER NOT NULL REFERENCES calendars(id) ON DELETE CASCADE,
          uid TEXT NOT NULL,
          hash TEXT NOT NULL,
          PRIMARY KEY (calendar_id, uid)
        );
      `);
    },
  },
  {
    version: 9,
    name: 'series whose first event was deleted for good',
    up(db) {
      // A first event deleted for good stays as its series' handle, hidden like one an imported
      // EXDATE hides; unlike that one it must never show again (the EXDATE going, the series ending).
      // Hidden first events of older files cannot be told apart: they keep the old behaviour.
      db.exec('ALTER TABLE event_series ADD COLUMN first_deleted INTEGER NOT NULL DEFAULT 0');
    },
  },
  {
    version: 10,
    name: 'websites as sync peers, one sync core',
    up(db) {
      // A website that serves the events REST API (issue 26) is synced into a calendar of its own,
      // like a CalDAV calendar. Its password is in the secrets store (secrets.ts), never here.
      // `api_root` is the events namespace's root as discovered (pretty `/wp-json/…/` or the
      // `?rest_route=` form); `capabilities` what the site was found to offer (JSON).
      db.exec(`
        CREATE TABLE sites (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL COLLATE NOCASE UNIQUE,
          url TEXT NOT NULL,
          api_root TEXT NOT NULL,
          username TEXT NOT NULL,
          calendar_id INTEGER NOT NULL UNIQUE REFERENCES calendars(id),
          capabilities TEXT NOT NULL DEFAULT '{}',
          created_utc TEXT NOT NULL,
          last_sync_utc TEXT,
          last_error TEXT
        );

        -- The site's copy of each record Almanac knows there, per kind, with the copy both sides
        -- last agreed on (base_json: the normalized record, ids in the site's id space) and its
        -- hash (the API has no modified-since filter: a pull finds changes by hash). local_id NULL:
        -- deleted here while the site still has it (in its trash), so a pull does not bring it
        -- back. remote_id NULL: a create sent whose answer never came (looked up before sending
        -- again). For events, uid is the event's UID, the key of its outbox row (dav_outbox).
        CREATE TABLE sync_objects (
          id INTEGER PRIMARY KEY,
          calendar_id INTEGER NOT NULL REFERENCES calendars(id) ON DELETE CASCADE,
          kind TEXT NOT NULL CHECK (kind IN ('event', 'venue', 'organizer', 'category', 'tag')),
          local_id INTEGER,
          uid TEXT,
          remote_id INTEGER,
          version TEXT,
          base_json TEXT,
          base_hash TEXT,
          remote_status TEXT,
          -- Hidden from the site's lists (hide_from_listings): read one by one on each pull.
          hidden INTEGER NOT NULL DEFAULT 0
        );
        CREATE UNIQUE INDEX sync_objects_remote ON sync_objects (calendar_id, kind, remote_id) WHERE remote_id IS NOT NULL;
        CREATE UNIQUE INDEX sync_objects_local ON sync_objects (calendar_id, kind, local_id) WHERE local_id IS NOT NULL;
        CREATE INDEX sync_objects_local_any ON sync_objects (kind, local_id);
        CREATE UNIQUE INDEX sync_objects_uid ON sync_objects (calendar_id, uid) WHERE uid IS NOT NULL;

        -- Venues, organizers and terms changed here that a site knows: written by the triggers
        -- below in the same transaction as the change (events queue in dav_outbox by UID, as for
        -- CalDAV). State, not a log, with rev as in dav_outbox.
        CREATE TABLE site_outbox (
          calendar_id INTEGER NOT NULL REFERENCES calendars(id) ON DELETE CASCADE,
          kind TEXT NOT NULL,
          local_id INTEGER NOT NULL,
          rev INTEGER NOT NULL DEFAULT 1,
          attempts INTEGER NOT NULL DEFAULT 0,
          next_try_utc TEXT,
          error TEXT,
          PRIMARY KEY (calendar_id, kind, local_id)
        );

        -- Conflict copies of any sync: which sync kept it (target), which kind of record, and the
        -- format of the kept copy (local_ical holds iCalendar text for CalDAV, the normalized JSON
        -- record for a site).
        ALTER TABLE sync_conflicts ADD COLUMN target TEXT NOT NULL DEFAULT 'caldav';
        ALTER TABLE sync_conflicts ADD COLUMN kind TEXT NOT NULL DEFAULT 'event';
        ALTER TABLE sync_conflicts ADD COLUMN format TEXT NOT NULL DEFAULT 'ical';
      `);
      const queue = (table: string, kind: string, when: string, row: 'NEW' | 'OLD') => `
        INSERT INTO site_outbox (calendar_id, kind, local_id)
        SELECT calendar_id, '${kind}', ${row}.id FROM sync_objects WHERE kind = '${kind}' AND local_id = ${row}.id
        ${REQUEUE};`;
      // Only what a site has of them: a term's count, moved by every event linked, is not a change.
      const VENUE = 'title, content, excerpt, status, address, city, country, province, state, zip, phone, website, show_map, show_map_link';
      const ORGANIZER = 'title, content, excerpt, status, phone, website, email';
      const TERM = 'name, slug, description, parent';
      for (const [table, kind, cond, columns] of [
        ['venues', 'venue', '', VENUE],
        ['organizers', 'organizer', '', ORGANIZER],
        ['terms', 'category', "AND NEW.taxonomy = 'category'", TERM],
        ['terms', 'tag', "AND NEW.taxonomy = 'tag'", TERM],
      ] as const) {
        const delCond = cond.replace(/NEW\./g, 'OLD.');
        db.exec(`
          CREATE TRIGGER site_outbox_${kind}_update AFTER UPDATE OF ${columns} ON ${table}
          WHEN (SELECT applying FROM sync_guard) = 0 ${cond}
          BEGIN ${queue(table, kind, cond, 'NEW')} END;
          CREATE TRIGGER site_outbox_${kind}_delete AFTER DELETE ON ${table}
          WHEN (SELECT applying FROM sync_guard) = 0 ${delCond}
          BEGIN ${queue(table, kind, delCond, 'OLD')} END;
        `);
      }
    },
  },
  {
    version: 11,
    name: 'double-booking checks: events by their UTC times; series by where their rows stop',
    up(db) {
      // GET /events/conflicts (store/event-conflicts.ts): events shorter than a day that overlap a
      // window start less than a day before it, a short range of events_when whose venue and
      // status are read from the index; the few a day long or more are found by their end.
      db.exec(`
        CREATE INDEX events_when ON events (start_utc, end_utc, venue_id, status);
        CREATE INDEX events_long ON events (end_utc, start_utc) WHERE julianday(end_utc) - julianday(start_utc) >= 1;
        -- Series whose rows stop short of a window (a far month's list, series-virtual.ts; the
        -- horizon's extension): few but for far windows, found without reading every series.
        CREATE INDEX event_series_rows_until ON event_series (generated_until) WHERE trashed = 0 AND (last_start IS NULL OR last_start >= generated_until);
      `);
    },
  },
  {
    version: 12,
    name: 'synced and subscribed events have no language of their own',
    up(db) {
      // Events from a subscription, and those of a CalDAV calendar whose copy on the server names
      // no language (Almanac's own write X-ALMANAC-LANGUAGE), were stored as English records and
      // hidden from every other language's lists: they have none of their own (NO_LANGUAGE, '').
      // Occurrences follow their series. Events made here keep theirs. The sync guard keeps these
      // updates out of the outbox: nothing changed on any server.
      db.exec(`
        UPDATE sync_guard SET applying = 1;
        UPDATE events SET lang = ''
          WHERE lang <> '' AND calendar_id IN (SELECT id FROM calendars WHERE subscription_url IS NOT NULL);
        UPDATE events SET lang = ''
          WHERE lang = 'en' AND parent_id IS NULL AND calendar_id IN (SELECT id FROM calendars WHERE account_id IS NOT NULL)
            AND EXISTS (SELECT 1 FROM dav_objects d WHERE d.calendar_id = events.calendar_id AND d.uid = events.ics_uid
                          AND (d.base_ical IS NULL OR instr(d.base_ical, 'X-ALMANAC-LANGUAGE') = 0));
        UPDATE events SET lang = ''
          WHERE lang <> '' AND recurrence_id IS NOT NULL AND parent_id IN (SELECT id FROM events WHERE lang = '' AND calendar_id <> 1);
        UPDATE sync_guard SET applying = 0;
      `);
    },
  },
  {
    version: 13,
    name: 'deletions a sync holds for the user',
    up(db) {
      // A listing that would delete most of a calendar at once (a server emptied by mistake, a
      // broken answer that still parses) is held, as Joplin's sync does: how many and of how
      // many, and the user's decision once given ({"count", "total", "decision": "allow" |
      // "refuse" | null}); null when nothing is held.
      db.exec('ALTER TABLE calendars ADD COLUMN held_deletes TEXT');
      // Errors stored before kept a library's "Raw response", which could echo a server's page and
      // the request's Authorization header with it: dropped (the next round tells its own).
      db.exec(`
        UPDATE calendars SET last_error = NULL WHERE last_error LIKE '%Raw response%';
        UPDATE caldav_accounts SET last_error = NULL WHERE last_error LIKE '%Raw response%';
        UPDATE dav_outbox SET error = NULL WHERE error LIKE '%Raw response%';
      `);
    },
  },
  {
    version: 14,
    name: 'terms count events and series once',
    up(db) {
      // A category's events as a person counts them (issue 27): a repeating event once, not once
      // per occurrence (a weekly class showed as 216 events). `count` stays the original's count
      // of published posts (every occurrence is one there); `series_count` counts published single
      // events and series' first events. The count triggers are made again to keep both in the
      // same UPDATE, so an import pays no more statements than before.
      db.exec(`
        ALTER TABLE terms ADD COLUMN series_count INTEGER NOT NULL DEFAULT 0;
        UPDATE terms SET series_count = (
          SELECT count(*) FROM event_terms et JOIN events e ON e.id = et.event_id
          WHERE et.term_id = terms.id AND e.status = 'publish' AND e.parent_id IS NULL
        );

        DROP TRIGGER event_terms_count_add;
        CREATE TRIGGER event_terms_count_add AFTER INSERT ON event_terms
        WHEN (SELECT status FROM events WHERE id = NEW.event_id) = 'publish'
        BEGIN
          UPDATE terms SET count = count + 1, series_count = series_count + (SELECT parent_id IS NULL FROM events WHERE id = NEW.event_id)
          WHERE id = NEW.term_id;
        END;

        DROP TRIGGER event_terms_count_remove;
        CREATE TRIGGER event_terms_count_remove AFTER DELETE ON event_terms
        WHEN (SELECT status FROM events WHERE id = OLD.event_id) = 'publish'
        BEGIN
          UPDATE terms SET count = count - 1, series_count = series_count - (SELECT parent_id IS NULL FROM events WHERE id = OLD.event_id)
          WHERE id = OLD.term_id;
        END;

        -- Published or not, and a series' first event or not (an occurrence split off becomes one).
        DROP TRIGGER events_count_status;
        CREATE TRIGGER events_count_status AFTER UPDATE OF status, parent_id ON events
        WHEN (OLD.status = 'publish') != (NEW.status = 'publish')
          OR (NEW.status = 'publish' AND (OLD.parent_id IS NULL) != (NEW.parent_id IS NULL))
        BEGIN
          UPDATE terms SET
            count = count + ((NEW.status = 'publish') - (OLD.status = 'publish')),
            series_count = series_count + ((NEW.status = 'publish' AND NEW.parent_id IS NULL) - (OLD.status = 'publish' AND OLD.parent_id IS NULL))
          WHERE id IN (SELECT term_id FROM event_terms WHERE event_id = NEW.id);
        END;
      `);
    },
  },
  {
    version: 15,
    name: "websites: occurrences the site generates are read-only; records the site refused",
    up(db) {
      // A site's event that may be looked at and never written back (issue 26): an occurrence
      // Events Calendar Pro generates from its Series (a provisional id that is no post). JSON
      // {"reason": "site_occurrence", "series": <the site's series id or null>}; NULL: writable.
      db.exec('ALTER TABLE sync_objects ADD COLUMN read_only TEXT');
      // Records a site refused (push: a 400/403 with its message; pull: one that cannot be stored
      // here), one row per record and direction, until the record goes through or is deleted: what
      // GET /sync and the sidebar show. `record_key` is the event's UID or the local id (push), the
      // site's id (pull); `reason` a stored message (key and values), worded in the reader's language.
      db.exec(`
        CREATE TABLE site_refusals (
          id INTEGER PRIMARY KEY,
          calendar_id INTEGER NOT NULL REFERENCES calendars(id) ON DELETE CASCADE,
          direction TEXT NOT NULL CHECK (direction IN ('push', 'pull')),
          kind TEXT NOT NULL,
          record_key TEXT NOT NULL,
          local_id INTEGER,
          remote_id INTEGER,
          title TEXT NOT NULL,
          reason TEXT NOT NULL,
          status INTEGER,
          at_utc TEXT NOT NULL,
          UNIQUE (calendar_id, direction, kind, record_key)
        );
      `);
    },
  },
  {
    version: 16,
    name: 'no site version kept beside the base copy',
    up(db) {
      // A site's modified_utc was kept for each object and never read: a pull finds changes by the
      // base copy's hash (the API has no modified-since filter, and a linked venue's change does
      // not move an event's modified date), so the column only cost a write per record.
      db.exec('ALTER TABLE sync_objects DROP COLUMN version');
    },
  },
  {
    version: 17,
    name: "occurrences of a site's series changed on their own",
    up(db) {
      // An Almanac site's series is one record (sync_objects: its first event and rule) plus the
      // occurrences changed on their own, as a CalDAV resource is a master VEVENT plus its
      // RECURRENCE-ID overrides. Each such occurrence is known by its series and its original
      // start (recurrence_id, a wall time of the series), never by row ids, which differ on each
      // side and which generated rows do not keep. base_json: the normalized occurrence both sides
      // last agreed on; remote_id: the site's row id for it, to read and write it there.
      // Occurrences neither side changed on their own have no row here.
      db.exec(`
        CREATE TABLE sync_occurrences (
          object_id INTEGER NOT NULL REFERENCES sync_objects(id) ON DELETE CASCADE,
          recurrence_id TEXT NOT NULL,
          remote_id INTEGER,
          base_json TEXT NOT NULL,
          base_hash TEXT NOT NULL,
          PRIMARY KEY (object_id, recurrence_id)
        ) WITHOUT ROWID;

        -- Occurrences of a site's series changed here on their own before they could be sent:
        -- their series is queued again, so the next round sends them.
        INSERT INTO dav_outbox (calendar_id, uid)
        SELECT e.calendar_id, e.ics_uid FROM events e JOIN sites s ON s.calendar_id = e.calendar_id
        WHERE e.parent_id IS NULL AND e.ics_uid IS NOT NULL
          AND EXISTS (SELECT 1 FROM events o WHERE o.parent_id = e.id AND o.recurrence_id IS NOT NULL AND (o.own_fields <> 0 OR o.status = 'trash'))
        ${REQUEUE};
      `);
    },
  },
];
