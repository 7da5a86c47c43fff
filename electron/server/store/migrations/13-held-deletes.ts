import type { Migration } from './migration';

export const heldDeletes: Migration = {
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
};
