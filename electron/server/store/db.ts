/**
 * The one place the SQLite file is opened. Everything that reads or writes calendar data gets its
 * connection from here, so the pragmas and migrations are never skipped.
 */
import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import type { Database as DB, Statement } from 'better-sqlite3';
import { migrations as allMigrations, type Migration } from './migrations';

export type { DB };
/** A prepared statement taking positional parameters. */
export type Stmt = Statement<unknown[], unknown>;

export interface OpenOptions {
  /**
   * Called with the path of the copy made before an existing database is migrated (the copy is
   * how a user gets back to the old version if the new one misbehaves).
   */
  onBackup?: (path: string) => void;
  /** The schema steps; tests pass their own to exercise upgrades. */
  migrations?: Migration[];
  /**
   * Path of a better-sqlite3 addon built for another runtime. The Electron app passes its
   * Electron-ABI build here; Node (tests, CLI) uses the default one.
   */
  nativeBinding?: string;
  /**
   * How long a statement waits for another process's write lock once the file is open (opening
   * and migrating always wait up to 5 s). The server passes a short one and retries itself.
   */
  busyTimeoutMs?: number;
}

export class NewerSchemaError extends Error {
  constructor(found: number, known: number) {
    super(`The database was written by a newer Almanac (schema ${found}, this one knows ${known}). Update Almanac to open it.`);
  }
}

/**
 * The calendar file, its write-ahead log and shared memory are the owner's only (0600), as
 * `secrets.json` and `api-token` are: they hold every event, and a sync error may name a server.
 * SQLite creates the -wal and -shm files with the mode of the database file, so the file is made
 * (or narrowed) first. On Windows the mode bits mean little; the profile folder guards it there.
 */
function ownerOnly(file: string): void {
  if (file === ':memory:' || file === '' || file.startsWith('file:')) return;
  try {
    if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
    for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
  } catch {
    // A file this user does not own (opened read-only by someone else): left as it is.
  }
}

export function openDatabase(file: string, opts: OpenOptions = {}): DB {
  ownerOnly(file);
  const db = new Database(file, opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {});
  try {
    // WAL lets the UI read while a script writes; NORMAL sync is durable across app crashes in WAL
    // mode (only an OS crash can lose the last commits, never corrupt the file).
    // A second process (the CLI importing into the same data dir) may hold the write lock briefly;
    // set first, as switching a new file to WAL needs the lock too.
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // A large import is one transaction; with SQLite's default 2 MB cache its index pages keep
    // falling out and being looked up again in an ever longer WAL, which turns quadratic.
    db.pragma('cache_size = -65536');
    // Statement journals of trigger-laden writes stay in memory instead of temporary files.
    db.pragma('temp_store = MEMORY');
    const steps = opts.migrations ?? allMigrations;
    const latest = steps[steps.length - 1].version;
    const current = schemaVersion(db);
    if (current > 0 && current < latest && file !== ':memory:') {
      const copy = backupPath(file, `before-schema-${latest}`);
      db.exec(`VACUUM INTO '${copy.replace(/'/g, "''")}'`);
      opts.onBackup?.(copy);
    }
    migrate(db, steps);
    // Gathers the statistics the query planner needs to pick the selective index (a venue's few
    // events rather than a whole year's); cheap, and a no-op when they are fresh.
    db.pragma('optimize = 0x10002');
    if (opts.busyTimeoutMs !== undefined) db.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs))}`);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** `almanac.sqlite` → `almanac.sqlite.before-schema-2.2026-11-22T10-00-00.bak` beside it. */
export function backupPath(file: string, reason: string): string {
  return `${file}.${reason}.${new Date().toISOString().replace(/[:.]/g, '-')}.bak`;
}

/**
 * A read-only connection on an open calendar file, for long reads (exports) that should see one
 * consistent snapshot without holding up the writer: WAL lets both run at once.
 */
export function openReader(file: string, opts: Pick<OpenOptions, 'nativeBinding'> = {}): DB {
  const db = new Database(file, { readonly: true, fileMustExist: true, ...(opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {}) });
  db.pragma('busy_timeout = 5000');
  return db;
}

export function schemaVersion(db: DB): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Brings the schema up to date. Each step commits on its own, so a failure keeps the last good version. */
export function migrate(db: DB, steps: Migration[] = allMigrations): void {
  const current = schemaVersion(db);
  const latest = steps[steps.length - 1].version;
  if (current > latest) throw new NewerSchemaError(current, latest);
  for (const m of steps) {
    if (m.version <= current) continue;
    db.transaction(() => {
      // Read again under the write lock: another process opening the same new file at the same
      // moment may have applied this step already.
      if (schemaVersion(db) >= m.version) return;
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
}

/** Closes the database after folding the WAL back into the main file, so the file stands alone. */
export function closeDatabase(db: DB): void {
  if (!db.open) return;
  try {
    db.pragma('optimize');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/**
 * Prepared statements for SQL built at run time (list filters, partial updates). The set of
 * shapes is small and bounded by the parameters a list accepts, so the cache stays small.
 */
export function statementCache(db: DB) {
  const cache = new Map<string, Stmt>();
  return (sql: string): Stmt => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = db.prepare<unknown[]>(sql);
      if (cache.size > 500) cache.clear();
      cache.set(sql, stmt);
    }
    return stmt;
  };
}

/**
 * A statement over a list of columns (`sql` makes its text from them), remembering the last list:
 * a bulk write inserts rows of the same columns one after another, and making and looking up the
 * statement's text for each cost 2–3 µs a row, as much as some of the row's own writing.
 */
export function columnsStatement(stmt: (sql: string) => Stmt, sql: (columns: readonly string[]) => string): (columns: readonly string[]) => Stmt {
  let last: { columns: readonly string[]; statement: Stmt } | undefined;
  return (columns) => {
    if (last && last.columns.length === columns.length && last.columns.every((c, i) => c === columns[i])) return last.statement;
    last = { columns, statement: stmt(sql(columns)) };
    return last.statement;
  };
}

/** Rows of `table` by id, in one query (a page's records, or what they link to); missing ids are left out. */
export function rowsByIds<R extends { id: number }>(stmt: (sql: string) => Stmt, table: string, ids: readonly number[]): Map<number, R> {
  const out = new Map<number, R>();
  if (ids.length === 0) return out;
  for (const r of stmt(`SELECT * FROM ${table} WHERE id IN (${ids.map(() => '?').join(',')})`).all(...ids) as R[]) out.set(r.id, r);
  return out;
}
