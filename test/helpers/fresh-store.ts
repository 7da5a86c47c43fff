/**
 * A store over a new calendar file of its own, closed and removed after each test: for tests of
 * the store and the importers that need no server.
 */
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openDatabase, closeDatabase, type DB } from '../../electron/server/store/db';
import { createStore, type Store } from '../../electron/server/store';
import { tempDir } from './temp-dir';

const open: DB[] = [];

afterEach(() => {
  for (const db of open.splice(0)) closeDatabase(db);
});

export function freshStore(): Store {
  const db = openDatabase(join(tempDir('almanac-store-'), 'almanac.sqlite'));
  open.push(db);
  return createStore(db);
}
