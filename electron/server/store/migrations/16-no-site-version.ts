import type { Migration } from './migration';

export const noSiteVersion: Migration = {
  version: 16,
  name: 'no site version kept beside the base copy',
  up(db) {
    // A site's modified_utc was kept for each object and never read: a pull finds changes by the
    // base copy's hash (the API has no modified-since filter, and a linked venue's change does
    // not move an event's modified date), so the column only cost a write per record.
    db.exec('ALTER TABLE sync_objects DROP COLUMN version');
  },
};
