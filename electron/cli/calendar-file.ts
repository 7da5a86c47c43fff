/**
 * A data directory's calendar file, opened for one CLI command that does its work here (no app
 * runs on it): the store and the owner-only secrets file, closed again however the work ends, and
 * the contexts the sync and subscription services take for work done outside a server. One place
 * for what the accounts, sites, subscriptions, sync and import commands each opened by hand.
 */
import { join } from 'node:path';
import { DB_FILE, ensureDataDir } from '../server/data-dir';
import { openDatabase, closeDatabase } from '../server/store/db';
import { createStore, type Store } from '../server/store';
import { createFileSecretStore, type SecretStore } from '../server/secrets';
import { DEFAULT_LANGUAGE } from '../../shared/i18n/languages';

/** Runs `fn` on the calendar of `dataDir`; the database stays open (and unlocked) while it waits on the network. */
export async function withCalendarFile<T>(dataDir: string, fn: (store: Store, secrets: SecretStore) => T | Promise<T>): Promise<T> {
  ensureDataDir(dataDir);
  const db = openDatabase(join(dataDir, DB_FILE));
  try {
    return await fn(createStore(db), createFileSecretStore(dataDir));
  } finally {
    closeDatabase(db);
  }
}

/**
 * What a record written here is made with: no request, so the default language, now, and the
 * calendar's zone; and the addresses a record's links are built from, of a server that does not
 * run (nothing here is served).
 */
export function localContexts(store: Store) {
  const origin = 'http://127.0.0.1';
  return {
    url: () => ({ origin, apiRoot: `${origin}/cal/events/v1/`, settings: store.settings.get() }),
    write: () => ({ lang: DEFAULT_LANGUAGE, now: new Date(), siteZone: store.settings.get().timezone }),
  };
}
