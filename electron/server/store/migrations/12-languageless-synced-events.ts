import type { Migration } from './migration';

export const languagelessSyncedEvents: Migration = {
  version: 12,
  name: 'synced and subscribed events have no language of their own',
  up(db) {
    // Events from a subscription, and those of a CalDAV calendar whose copy on the server names
    // no language (Almanac's own write X-ALMANAC-LANGUAGE), were stored as English records and
    // hidden from every other language's lists: they have none of their own (NO_LANGUAGE, '').
    // Occurrences follow their series. Events made here keep theirs. The sync guard keeps these
    // updates out of the outbox: nothing changed on any server.
    db.exec(`
        UPDATE sync_guard SET applying = 1;
        UPDATE events SET lang = ''
          WHERE lang <> '' AND calendar_id IN (SELECT id FROM calendars WHERE subscription_url IS NOT NULL);
        UPDATE events SET lang = ''
          WHERE lang = 'en' AND parent_id IS NULL AND calendar_id IN (SELECT id FROM calendars WHERE account_id IS NOT NULL)
            AND EXISTS (SELECT 1 FROM dav_objects d WHERE d.calendar_id = events.calendar_id AND d.uid = events.ics_uid
                          AND (d.base_ical IS NULL OR instr(d.base_ical, 'X-ALMANAC-LANGUAGE') = 0));
        UPDATE events SET lang = ''
          WHERE lang <> '' AND recurrence_id IS NOT NULL AND parent_id IN (SELECT id FROM events WHERE lang = '' AND calendar_id <> 1);
        UPDATE sync_guard SET applying = 0;
      `);
  },
};
