import type { Migration } from './migration';

export const noConflictTarget: Migration = {
  version: 18,
  name: 'no conflict target kept beside its format',
  up(db) {
    // Which sync kept a conflict copy follows from the copy's format (a site's JSON record, or a
    // CalDAV resource's iCalendar text): kept in a column of its own it was derived state to keep
    // in step by hand.
    db.exec('ALTER TABLE sync_conflicts DROP COLUMN target');
  },
};
