import type { Migration } from './migration';

export const termSeriesCount: Migration = {
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
};
