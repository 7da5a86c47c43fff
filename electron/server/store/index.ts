/**
 * The calendar store: every read and write of calendar data goes through here. It knows nothing
 * of HTTP; the routes, the importers and the CLI all call it.
 */
import type { DB } from './db';
import { createPostRegistry } from './posts';
import { createImageStore } from './images';
import { createPostFieldWriter } from './post-fields';
import { createLinkedPostStore } from './linked-posts';
import { createTermStore } from './terms';
import { createEventStore } from './events';
import { createSettingsStore } from './settings';
import { fold } from './search-text';
import { createDataStamp, createDerivedCache, type DataStamp } from './derived-cache';

export interface StoreOptions {
  /**
   * Keep what is derived from the data (list totals and pages, records' JSON, settings) until the
   * data changes (default). Off, every call runs its SQL: the benchmark's baseline.
   */
  caches?: boolean;
}

export function createStore(db: DB, opts: StoreOptions = {}) {
  db.function('fold', { deterministic: true }, (v: unknown) => (v === null ? null : fold(String(v))));
  const registry = createPostRegistry(db);
  const images = createImageStore(db, registry);
  const writer = createPostFieldWriter(db, registry, images);
  const stamp = opts.caches === false ? neverTheSame() : createDataStamp(db);
  const venues = createLinkedPostStore('venue', db, registry, writer, stamp);
  const organizers = createLinkedPostStore('organizer', db, registry, writer, stamp);
  const terms = createTermStore(db, stamp);
  const events = createEventStore(db, registry, writer, venues, organizers, terms, stamp);
  const settings = createSettingsStore(db, stamp);
  return {
    db,
    registry,
    images,
    venues,
    organizers,
    terms,
    events,
    settings,
    /**
     * Records' JSON (UTF-8) as last served, by kind, id and API root, until the data changes. A
     * list page or a read then costs the query for its ids and little else while the calendar is
     * unchanged.
     */
    recordJson: createDerivedCache<Buffer>(stamp, 5000),
    /** Runs `fn` as one write transaction: all of it is stored, or none of it. */
    write<T>(fn: () => T): T {
      return db.transaction(fn).immediate();
    },
  };
}

export type Store = ReturnType<typeof createStore>;

/** A stamp that differs on every reading: every derived cache is emptied before each use. */
function neverTheSame(): DataStamp {
  let n = 0;
  return () => String(++n);
}
