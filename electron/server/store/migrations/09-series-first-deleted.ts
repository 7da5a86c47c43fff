import type { Migration } from './migration';

export const seriesFirstDeleted: Migration = {
  version: 9,
  name: 'series whose first event was deleted for good',
  up(db) {
    // A first event deleted for good stays as its series' handle, hidden like one an imported
    // EXDATE hides; unlike that one it must never show again (the EXDATE going, the series ending).
    // Hidden first events of older files cannot be told apart: they keep the old behaviour.
    db.exec('ALTER TABLE event_series ADD COLUMN first_deleted INTEGER NOT NULL DEFAULT 0');
  },
};
