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
import { createSeriesStore } from './series';
import { createEventConflicts } from './event-conflicts';
import { createCalDavAccountStore } from './caldav-accounts';
import { createReminderStore } from './reminders';
import { createDavSyncStore } from './dav-sync';
import { createSubscriptionStore } from './subscriptions';
import { createSiteStore } from './sites';
import { createSiteOccurrenceStore } from './site-occurrences';
import { fold } from './search-text';
import type { Organizer, Venue } from '../../../shared/api/records';
import { createDataStamps, createDerivedCache, type DataStamps } from './derived-cache';

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
  const stamps = opts.caches === false ? neverTheSame() : createDataStamps(db, LINKED_JSON_TABLES);
  const stamp = stamps.any;
  const venues = createLinkedPostStore('venue', db, registry, writer, stamp);
  const organizers = createLinkedPostStore('organizer', db, registry, writer, stamp);
  const terms = createTermStore(db, stamp);
  const events = createEventStore(db, registry, writer, venues, organizers, terms, stamp);
  const settings = createSettingsStore(db, stamps.watched);
  const series = createSeriesStore(db, registry, events, settings);
  const accounts = createCalDavAccountStore(db, events);
  const reminders = createReminderStore(db);
  const davSync = createDavSyncStore(db, events);
  const subscriptions = createSubscriptionStore(db, events);
  const sites = createSiteStore(db, events);
  function write<T>(fn: () => T): T {
    try {
      return db.transaction(fn).immediate();
    } catch (err) {
      stamps.rolledBack();
      registry.rolledBack();
      throw err;
    }
  }
  /** Class of the throw that rolls a dry run back (`dryRun`). */
  class RolledBack {
    constructor(readonly value: unknown) {}
  }
  /**
   * Runs `fn` as one write transaction and rolls it back whatever it did: what a write would make
   * (a dry run's answer), with nothing kept. Its errors are thrown as `write`'s are.
   */
  function dryRun<T>(fn: () => T): T {
    try {
      write(() => {
        throw new RolledBack(fn());
      });
    } catch (err) {
      if (err instanceof RolledBack) return err.value as T;
      throw err;
    }
    throw new Error('unreachable: a dry run always rolls back');
  }
  return {
    db,
    registry,
    dryRun,
    images,
    venues,
    organizers,
    terms,
    events,
    series,
    settings,
    /** CalDAV accounts and calendars (no passwords: those are in secrets.ts). */
    accounts,
    /** Events' reminders and their schedule (issue 16). */
    reminders,
    /** The CalDAV sync's resources, outbox and conflicts (issue 17). */
    davSync,
    /** Read-only iCalendar subscriptions (issue 17 item 7). */
    subscriptions,
    /** Websites synced both ways, their records' copies and outbox (issue 26). */
    sites,
    /** Occurrences of a site's series changed on their own, by series and original start (migration 17). */
    siteOccurrences: createSiteOccurrenceStore(db),
    /**
     * Records' JSON (UTF-8) as last served, by kind, id and API root, until the data changes. A
     * list page or a read then costs the query for its ids and little else while the calendar is
     * unchanged.
     */
    recordJson: createDerivedCache<Buffer>(stamp, 5000),
    /** Far windows' lists merged with their occurrences without rows, until the data changes. */
    virtualLists: createDerivedCache<number[]>(stamp, 16),
    /**
     * The same for venues and organizers, kept until one of `LINKED_JSON_TABLES` changes: creating
     * or editing events leaves them valid, so an event's response and the lists after it do not
     * build its venue and organizers again. Objects (to embed in events) and UTF-8 (to serve).
     */
    linkedJson: createDerivedCache<Buffer>(stamps.watched, 5000),
    linkedObjects: createDerivedCache<Venue | Organizer>(stamps.watched, 5000),
    /** Events holding a venue or organizers at overlapping times (double bookings, issue 27). */
    conflicts: createEventConflicts(db, events, series, write),
    /** Runs `fn` as one write transaction: all of it is stored, or none of it. */
    write,
  };
}

export type Store = ReturnType<typeof createStore>;

/**
 * What a venue's or organizer's JSON is made of besides its own row: its image, its translations
 * (rows of the same table) and the settings. Events and terms are not among them.
 */
const LINKED_JSON_TABLES = ['venues', 'organizers', 'images', 'settings'];

/** Stamps that differ on every reading: every derived cache is emptied before each use. */
function neverTheSame(): DataStamps {
  let n = 0;
  const next = () => String(++n);
  return { any: next, watched: next, rolledBack() {} };
}
