import type { Migration } from './migration';

export const siteReadOnlyRefusals: Migration = {
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
};
