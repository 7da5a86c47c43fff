import type { Migration } from './migration';
import { REQUEUE } from './requeue';

export const siteOccurrences: Migration = {
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
};
