import type { Migration } from './migration';

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

export const initialSchema: Migration = {
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
};
