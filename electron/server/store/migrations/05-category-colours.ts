import type { Migration } from './migration';

export const categoryColours: Migration = {
  version: 5,
  name: 'category colours',
  up(db) {
    // A category's colour (issue 15 item 13): '#rrggbb', or '' when it has none (views then
    // fall back to a colour picked by id). On every term so tags could get one later.
    db.exec(`ALTER TABLE terms ADD COLUMN color TEXT NOT NULL DEFAULT ''`);
  },
};
