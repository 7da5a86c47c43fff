import type { Migration } from './migration';
import { REQUEUE } from './requeue';

export const sites: Migration = {
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
};
