/**
 * Values derived from the data (list totals, records' JSON), remembered until the data changes.
 * `data_version` moves when another connection commits (a CLI import on the same file),
 * `total_changes()` when this connection writes; a write that rolls back moves it too, which only
 * costs a recomputation. Values derived from a few tables can follow only those (`watched`).
 */
import type { DB } from './db';

export type DataStamp = () => string;

export interface DataStamps {
  /** Moves with any change to the data. */
  any: DataStamp;
  /**
   * Moves only when one of the watched tables changes here, or anything changes in another
   * process (which cannot say what it changed).
   */
  watched: DataStamp;
  /**
   * Moves both: a write transaction rolled back, so what was derived inside it (after its changes
   * moved the stamps) describes data that never was.
   */
  rolledBack(): void;
}

/**
 * `watched`: tables whose changes this connection sees through temporary triggers (they live with
 * the connection, are never stored in the file, and fire only for its own writes). Values derived
 * from those tables alone then outlive the many writes that do not touch them: a venue's JSON
 * stays valid while events are created.
 */
export function createDataStamps(db: DB, watched: readonly string[]): DataStamps {
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const ownChanges = db.prepare('SELECT total_changes()').pluck();
  // `data_version` takes and releases the shared lock (system calls), and a request reads the
  // stamp several times (settings, records' JSON, totals), so it is read once per turn of the event
  // loop: a request is answered within one turn, and the next one reads it again. Our own writes
  // show in `total_changes()`, read every time (it touches no file).
  let version: unknown;
  const forget = () => (version = undefined);
  const currentVersion = () => {
    if (version === undefined) {
      version = dataVersion.get();
      queueMicrotask(forget);
    }
    return version;
  };
  const writes = watchedWrites(db, watched);
  return {
    any: () => `${currentVersion()}:${ownChanges.get()}:${writes.rollbacks}`,
    watched: () => `${currentVersion()}:${writes.n}:${writes.rollbacks}`,
    rolledBack: () => void writes.rollbacks++,
  };
}

/** Per connection: a second store on the same connection shares its triggers and counts. */
const watchers = new WeakMap<DB, { n: number; rollbacks: number; tables: Set<string> }>();

function watchedWrites(db: DB, tables: readonly string[]): { n: number; rollbacks: number } {
  let w = watchers.get(db);
  if (!w) {
    const counter = { n: 0, rollbacks: 0, tables: new Set<string>() };
    db.function('almanac_watched_write', { deterministic: false }, () => {
      counter.n++;
      return null;
    });
    watchers.set(db, (w = counter));
  }
  for (const table of tables) {
    if (w.tables.has(table)) continue;
    for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
      db.exec(`CREATE TEMP TRIGGER "watch_${table}_${op.toLowerCase()}" AFTER ${op} ON main."${table}" BEGIN SELECT almanac_watched_write(); END`);
    }
    w.tables.add(table);
  }
  return w;
}

export interface CacheView<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
}

/** At most `max` values; the oldest goes first when it is full. */
export function createDerivedCache<V>(stamp: DataStamp, max: number) {
  const values = new Map<string, V>();
  let filledAt = '';
  const view: CacheView<V> = {
    get: (key) => values.get(key),
    set(key, value) {
      if (values.size >= max) values.delete(values.keys().next().value!);
      values.set(key, value);
    },
  };
  return {
    /** The cache as of now: emptied first if the data changed since it was filled. */
    current(): CacheView<V> {
      const now = stamp();
      if (now !== filledAt) {
        values.clear();
        filledAt = now;
      }
      return view;
    },
  };
}

/**
 * Totals and pages of list queries, remembered until the data changes: paging through a list, or
 * asking for it again, then costs no query (the original caches per query as well).
 */
export function createListCache(stmt: (sql: string) => { get(...params: unknown[]): unknown; all(...params: unknown[]): unknown[] }, stamp: DataStamp) {
  const totals = createDerivedCache<number>(stamp, 1000);
  const pages = createDerivedCache<number[]>(stamp, 500);
  const keyOf = (sql: string, params: unknown[]) => `${sql}\u0000${JSON.stringify(params)}`;
  /** A total worked out otherwise, by a key that names its query. */
  function remember(key: string, compute: () => number): number {
    const cache = totals.current();
    let n = cache.get(key);
    if (n === undefined) cache.set(key, (n = compute()));
    return n;
  }
  return {
    /** `SELECT count(*) AS n …` */
    count: (sql: string, params: unknown[]): number => remember(keyOf(sql, params), () => (stmt(sql).get(...params) as { n: number }).n),
    remember,
    /** `SELECT id …` of one page. */
    ids(sql: string, params: unknown[]): number[] {
      const cache = pages.current();
      const key = keyOf(sql, params);
      let ids = cache.get(key);
      if (ids === undefined) cache.set(key, (ids = (stmt(sql).all(...params) as Array<{ id: number }>).map((r) => r.id)));
      return ids;
    },
  };
}
