import type { Migration } from './migration';

export const subscriptions: Migration = {
  version: 8,
  name: 'read-only iCalendar subscriptions',
  up(db) {
    // A calendar may be a subscription to a published iCalendar feed (issue 17 item 7): its
    // address, the validators its server last gave (RFC 9110 ETag, Last-Modified) for
    // conditional refreshes, and when it was last refreshed. calendars.last_error says why the
    // last refresh failed. Its own column, not calendars.url: that one is a CalDAV account's
    // (the CHECK ties it to account_id). A subscription's calendar is read_only = 1.
    db.exec(`
        ALTER TABLE calendars ADD COLUMN subscription_url TEXT;
        ALTER TABLE calendars ADD COLUMN subscription_etag TEXT;
        ALTER TABLE calendars ADD COLUMN subscription_last_modified TEXT;
        ALTER TABLE calendars ADD COLUMN subscription_refreshed_utc TEXT;

        -- What each resource (one UID: a series with its changed occurrences) of a feed said when
        -- last applied, as a hash of its mapped fields: a refresh rewrites only what changed, and
        -- removes what the feed no longer has.
        CREATE TABLE subscription_items (
          calendar_id INTEGER NOT NULL REFERENCES calendars(id) ON DELETE CASCADE,
          uid TEXT NOT NULL,
          hash TEXT NOT NULL,
          PRIMARY KEY (calendar_id, uid)
        );
      `);
  },
};
