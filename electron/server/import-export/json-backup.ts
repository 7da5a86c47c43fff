/**
 * The lossless JSON backup: every row of every calendar table (all kinds, all languages, the
 * trash, settings, translations), so backup → restore → backup gives the same file.
 *
 * Restore policy: a restore replaces the whole calendar with the backup's, in one transaction,
 * after a copy of the current file is kept beside it. Nothing is merged: a backup is a point in
 * time, and merging two calendars is what the iCalendar and CSV imports are for.
 */
import { rmSync } from 'node:fs';
import type { DB } from '../store/db';
import { backupPath, schemaVersion } from '../store/db';
import { ApiError } from '../errors';
import { STATUSES } from '../../../shared/schema/kinds';
import { LANGUAGES, NO_LANGUAGE } from '../../../shared/i18n/languages';
import { isValidTimeZone } from '../../../shared/dates/zones';
import { HIDDEN_STATUS } from '../store/series-fields';

export const BACKUP_FORMAT = 'almanac-backup';
export const BACKUP_VERSION = 1;

/** Tables in the order a restore inserts them (parents before children). */
export const BACKUP_TABLES = [
  'users',
  'settings',
  'posts',
  'images',
  'venues',
  'organizers',
  'events',
  'event_series',
  'series_windows',
  'terms',
  'event_terms',
  'event_organizers',
  'event_reminders',
  // What the user did with each firing: restored, so a restore does not ring them all again.
  // The schedule itself (reminder_due) is derived, and rebuilt after a restore.
  'reminder_state',
] as const;

/** Tables a later schema added: a backup made before them has none, which means empty. */
const LATER_TABLES = new Set<string>(['event_series', 'series_windows', 'event_reminders', 'reminder_state']);

/** Columns that are derived from others and rebuilt on restore rather than stored. */
const DERIVED: Record<string, string[]> = { terms: ['count', 'series_count'] };

function columnsOf(db: DB, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name).filter((c) => !DERIVED[table]?.includes(c));
}

function orderBy(table: string): string {
  if (table === 'settings') return 'key';
  if (table === 'event_terms' || table === 'event_organizers') return 'event_id, position';
  if (table === 'series_windows') return 'series_id, from_local, to_local';
  if (table === 'reminder_state') return 'key';
  return 'id';
}

/**
 * The backup as text chunks, streamed table by table so a large calendar never sits in memory
 * as one string. Reads run in one transaction, so the backup is a consistent snapshot.
 */
export function* backupChunks(db: DB, now = new Date()): Generator<string> {
  const header = { format: BACKUP_FORMAT, version: BACKUP_VERSION, schema: schemaVersion(db), created: now.toISOString() };
  yield `{${JSON.stringify(header).slice(1, -1)},"tables":{`;
  // One read transaction makes the backup a consistent snapshot; a caller may already hold one.
  const own = !db.inTransaction;
  if (own) db.exec('BEGIN');
  try {
    let first = true;
    for (const table of BACKUP_TABLES) {
      const cols = columnsOf(db, table);
      yield `${first ? '' : ','}\n${JSON.stringify(table)}:{"columns":${JSON.stringify(cols)},"rows":[`;
      first = false;
      let n = 0;
      for (const row of db.prepare(`SELECT ${cols.join(', ')} FROM ${table} ORDER BY ${orderBy(table)}`).raw().iterate()) {
        yield `${n++ ? ',' : ''}\n${JSON.stringify(row)}`;
      }
      yield ']}';
    }
  } finally {
    if (own) db.exec('COMMIT');
  }
  yield '\n}}\n';
}

export function backupText(db: DB, now?: Date): string {
  return [...backupChunks(db, now)].join('');
}

interface BackupFile {
  format: string;
  version: number;
  schema: number;
  created: string;
  tables: Record<string, { columns: string[]; rows: unknown[][] }>;
}

export interface RestoreReport {
  /** The copy of the calendar as it was before the restore. */
  previousCopy?: string;
  counts: Record<string, number>;
}

const invalid = (reason: string) => new ApiError('import-file-invalid', 400, 'import-file-invalid', { reason });

/** Checks a parsed backup against this Almanac's tables; throws a 400 naming what is wrong. */
export function checkBackup(db: DB, data: unknown): BackupFile {
  const b = data as BackupFile;
  if (!b || typeof b !== 'object' || b.format !== BACKUP_FORMAT) throw invalid('This is not an Almanac backup.');
  if (b.version !== BACKUP_VERSION) throw invalid(`Backup format ${String(b.version)} is not one this Almanac reads.`);
  if (b.schema > schemaVersion(db)) throw invalid('The backup was made by a newer Almanac.');
  if (!b.tables || typeof b.tables !== 'object') throw invalid('The backup has no tables.');
  for (const table of BACKUP_TABLES) {
    if (!b.tables[table] && LATER_TABLES.has(table)) b.tables[table] = { columns: [], rows: [] };
    const t = b.tables[table];
    if (!t || !Array.isArray(t.columns) || !Array.isArray(t.rows)) throw invalid(`The backup has no "${table}" table.`);
    const known = new Set(columnsOf(db, table));
    for (const c of t.columns) if (!known.has(c)) throw invalid(`Unknown column "${c}" in "${table}".`);
    t.rows.forEach((row, i) => {
      if (!Array.isArray(row) || row.length !== t.columns.length) throw invalid(`Row ${i + 1} of "${table}" does not match its columns.`);
    });
  }
  return b;
}

/** What a restore of this backup would store, table by table, without storing it (a dry run). */
export function trialRestore(db: DB, data: unknown): Record<string, number> {
  const b = checkBackup(db, data);
  const report: RestoreReport = { counts: {} };
  try {
    replaceTables(db, b, report, true);
  } catch (err) {
    if (!(err instanceof TrialDone)) throw storeError(err);
  }
  return report.counts;
}

/**
 * Replaces the calendar with the backup's. All or nothing: a row that breaks a constraint rolls
 * the whole restore back and the calendar stays as it was.
 */
export function restoreBackup(db: DB, data: unknown, file?: string): RestoreReport {
  const b = checkBackup(db, data);
  const report: RestoreReport = { counts: {} };
  if (file && file !== ':memory:') {
    report.previousCopy = backupPath(file, 'before-restore');
    db.exec(`VACUUM INTO '${report.previousCopy.replace(/'/g, "''")}'`);
  }
  try {
    replaceTables(db, b, report, false);
  } catch (err) {
    // Nothing was changed, so the copy of the calendar as it was is not needed.
    if (report.previousCopy) rmSync(report.previousCopy, { force: true });
    throw storeError(err);
  }
  return report;
}

/** Thrown at the end of a trial restore, to roll it back. */
class TrialDone extends Error {}

/**
 * A value SQLite cannot store (a boolean, an object) or one the schema refuses (a missing title,
 * a duplicate id, a link to nothing): the file is at fault, not the server.
 */
function storeError(err: unknown): unknown {
  const e = err as { code?: unknown; message?: string };
  if (err instanceof TypeError || err instanceof RangeError || (typeof e.code === 'string' && e.code.startsWith('SQLITE_CONSTRAINT'))) {
    return invalid(`a row cannot be stored (${e.message}).`);
  }
  return err;
}

function replaceTables(db: DB, b: ReturnType<typeof checkBackup>, report: RestoreReport, trial: boolean): void {
  db.transaction(() => {
    // Links are checked at commit, so rows may come in any order within the transaction.
    db.pragma('defer_foreign_keys = ON');
    // Replacing every row is not a change to send to the CalDAV servers (deleting then inserting
    // would send deletes); their calendars are read whole again by the next sync instead.
    db.prepare('UPDATE sync_guard SET applying = 1').run();
    for (const table of [...BACKUP_TABLES].reverse()) db.prepare(`DELETE FROM ${table}`).run();
    for (const table of BACKUP_TABLES) {
      const { columns, rows } = b.tables[table];
      report.counts[table] = rows.length;
      if (!rows.length) continue;
      const insert = db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
      for (const row of rows) insert.run(...row);
    }
    // A backup from another computer (or from before calendars) names calendars this one lacks.
    db.prepare('UPDATE events SET calendar_id = 1 WHERE calendar_id NOT IN (SELECT id FROM calendars)').run();
    db.exec('DELETE FROM dav_objects; DELETE FROM dav_outbox; UPDATE calendars SET sync_token = NULL, ctag = NULL, last_full_sync_utc = NULL; UPDATE sync_guard SET applying = 0');
    checkValues(db);
    // Links are checked at commit; a trial checks them here, as it will not commit.
    if (trial) {
      const broken = db.pragma('foreign_key_check') as Array<{ table: string; rowid: number; parent: string }>;
      if (broken.length) throw invalid(`a row cannot be stored (FOREIGN KEY constraint failed: "${broken[0].table}" links to a missing "${broken[0].parent}").`);
      throw new TrialDone();
    }
  }).immediate();
}

const STORED_DATE = '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9]';
const POST_DATES = ['date_local', 'date_utc', 'modified_local', 'modified_utc'];
const inList = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/**
 * What the schema lets through but the API could not serve: a status or language it does not
 * know, a date not stored as `Y-m-d H:i:s`, a time zone that does not exist. Checked on the
 * restored rows before the restore commits, naming the first bad row: one pass over each table.
 */
function checkValues(db: DB): void {
  const rules: Record<string, Array<{ column: string; valid: string; expected: string }>> = {};
  const rule = (table: string, column: string, valid: string, expected: string) => (rules[table] ??= []).push({ column, valid, expected });
  for (const table of ['venues', 'organizers', 'events']) {
    // A series' first event whose own date was deleted for good keeps a hidden status.
    const statuses = table === 'events' ? [...STATUSES, HIDDEN_STATUS] : STATUSES;
    rule(table, 'status', `status IN (${inList(statuses)})`, `one of ${STATUSES.join(', ')}`);
    for (const column of table === 'events' ? [...POST_DATES, 'start_local', 'end_local', 'start_utc', 'end_utc'] : POST_DATES) {
      rule(table, column, `${column} GLOB '${STORED_DATE}'`, 'a date stored as YYYY-MM-DD HH:MM:SS');
    }
  }
  for (const table of ['venues', 'organizers', 'terms']) rule(table, 'lang', `lang IN (${inList(LANGUAGES)})`, `one of ${LANGUAGES.join(', ')}`);
  // An event may have no language of its own (a synced or subscribed one): '' (NO_LANGUAGE).
  rule('events', 'lang', `lang IN (${inList([...LANGUAGES, NO_LANGUAGE])})`, `one of ${LANGUAGES.join(', ')}, or "" (none)`);
  // The views put it in a style attribute: only what the API itself would store.
  rule('terms', 'color', "color = '' OR (length(color) = 7 AND color GLOB '#[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]')", 'a colour written #rrggbb, or empty');
  for (const [table, list] of Object.entries(rules)) {
    // The first broken rule of the first bad row, by its position in the list.
    const which = `CASE ${list.map((r, i) => `WHEN NOT (${r.valid}) THEN ${i}`).join(' ')} END`;
    const bad = db.prepare(`SELECT id, ${which} AS rule FROM ${table} WHERE ${which} IS NOT NULL ORDER BY id LIMIT 1`).get() as { id: number; rule: number } | undefined;
    if (!bad) continue;
    const { column, expected } = list[bad.rule];
    const value = db.prepare(`SELECT ${column} FROM ${table} WHERE id = ?`).pluck().get(bad.id);
    throw invalid(`"${table}" row ${bad.id} has ${column} ${JSON.stringify(value)}, which is not ${expected}.`);
  }
  for (const row of db.prepare('SELECT min(id) AS id, timezone FROM events GROUP BY timezone').all() as Array<{ id: number; timezone: unknown }>) {
    if (typeof row.timezone !== 'string' || !isValidTimeZone(row.timezone)) throw invalid(`"events" row ${row.id} has timezone ${JSON.stringify(row.timezone)}, which is not a time zone.`);
  }
}
