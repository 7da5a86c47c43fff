import type { Migration } from './migration';

export const caldavAccounts: Migration = {
  version: 3,
  name: 'CalDAV accounts and calendars',
  up(db) {
    db.exec(`
        -- A CalDAV account. Its password is never here: see electron/server/secrets.ts.
        CREATE TABLE caldav_accounts (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          server_url TEXT NOT NULL,
          username TEXT NOT NULL,
          principal_url TEXT NOT NULL,
          home_url TEXT NOT NULL,
          created_utc TEXT NOT NULL,
          last_sync_utc TEXT,
          last_error TEXT
        );
        -- Names are what the CLI and the UI call accounts by: unique whatever their case.
        CREATE UNIQUE INDEX caldav_accounts_name ON caldav_accounts (name COLLATE NOCASE);

        -- Every calendar, the local one included (id 1, no account). For a server's calendar:
        -- its collection URL, and the sync state the next round starts from.
        CREATE TABLE calendars (
          id INTEGER PRIMARY KEY,
          account_id INTEGER REFERENCES caldav_accounts(id) ON DELETE CASCADE,
          name TEXT NOT NULL,
          color TEXT,
          visible INTEGER NOT NULL DEFAULT 1,
          -- Chosen for sync (a user may leave some of an account's calendars out).
          synced INTEGER NOT NULL DEFAULT 1,
          url TEXT,
          ctag TEXT,
          sync_token TEXT,
          has_sync_collection INTEGER NOT NULL DEFAULT 0,
          read_only INTEGER NOT NULL DEFAULT 0,
          last_full_sync_utc TEXT,
          last_error TEXT,
          CHECK ((account_id IS NULL) = (url IS NULL))
        );
        CREATE UNIQUE INDEX calendars_account_url ON calendars (account_id, url) WHERE account_id IS NOT NULL;
        INSERT INTO calendars (id, account_id, name) VALUES (1, NULL, 'On this computer');
      `);
  },
};
