import type { Migration } from './migration';

export const doubleBookingIndexes: Migration = {
  version: 11,
  name: 'double-booking checks: events by their UTC times; series by where their rows stop',
  up(db) {
    // GET /events/conflicts (store/event-conflicts.ts): events shorter than a day that overlap a
    // window start less than a day before it, a short range of events_when whose venue and
    // status are read from the index; the few a day long or more are found by their end.
    db.exec(`
        CREATE INDEX events_when ON events (start_utc, end_utc, venue_id, status);
        CREATE INDEX events_long ON events (end_utc, start_utc) WHERE julianday(end_utc) - julianday(start_utc) >= 1;
        -- Series whose rows stop short of a window (a far month's list, series-virtual.ts; the
        -- horizon's extension): few but for far windows, found without reading every series.
        CREATE INDEX event_series_rows_until ON event_series (generated_until) WHERE trashed = 0 AND (last_start IS NULL OR last_start >= generated_until);
      `);
  },
};
