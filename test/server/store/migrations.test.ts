/** Upgrading an older calendar file: in a transaction, with a copy kept first, never half-done. */
import { describe, it, expect } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase, closeDatabase, schemaVersion, NewerSchemaError } from '../../../electron/server/store/db';
import { migrations, type Migration } from '../../../electron/server/store/migrations';

/** Versions are numbered as given (not always one after another). */
const latest = migrations[migrations.length - 1].version;
import { tempDir } from '../../helpers/temp-dir';

const fileIn = () => join(tempDir('almanac-mig-'), 'almanac.sqlite');

function makeOld(file: string) {
  const db = openDatabase(file);
  db.prepare("INSERT INTO settings (key, value) VALUES ('timezone', 'Europe/Lisbon')").run();
  closeDatabase(db);
}

const addColour: Migration = { version: latest + 1, name: 'colour', up: (db) => db.exec("ALTER TABLE terms ADD COLUMN colour TEXT NOT NULL DEFAULT ''") };
const broken: Migration = {
  version: latest + 1,
  name: 'broken',
  up: (db) => {
    db.exec("ALTER TABLE terms ADD COLUMN colour TEXT NOT NULL DEFAULT ''");
    db.exec('UPDATE no_such_table SET x = 1');
  },
};

describe('schema migrations', () => {
  it('a new file gets the whole schema and the owner as user 1', () => {
    const db = openDatabase(fileIn());
    expect(schemaVersion(db)).toBe(latest);
    expect(db.prepare('SELECT id, login FROM users').all()).toEqual([{ id: 1, login: 'owner' }]);
    closeDatabase(db);
  });

  it('upgrades an older file, keeping a copy of it first', () => {
    const file = fileIn();
    makeOld(file);
    const copies: string[] = [];
    const db = openDatabase(file, { migrations: [...migrations, addColour], onBackup: (p) => copies.push(p) });
    expect(schemaVersion(db)).toBe(addColour.version);
    expect(db.prepare("SELECT value FROM settings WHERE key = 'timezone'").get()).toEqual({ value: 'Europe/Lisbon' });
    closeDatabase(db);
    expect(copies).toHaveLength(1);
    const old = new Database(copies[0], { readonly: true });
    expect(old.pragma('user_version', { simple: true })).toBe(latest);
    old.close();
  });

  it('a failing migration leaves the file at its old version, unchanged', () => {
    const file = fileIn();
    makeOld(file);
    expect(() => openDatabase(file, { migrations: [...migrations, broken] })).toThrow(/no_such_table/);
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(latest);
    const columns = db.prepare('PRAGMA table_info(terms)').all().map((c) => (c as { name: string }).name);
    expect(columns).not.toContain('colour');
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
    expect(readdirSync(join(file, '..')).some((f) => f.endsWith('.bak'))).toBe(true);
  });

  it('refuses a file from a newer Almanac instead of damaging it', () => {
    const file = fileIn();
    makeOld(file);
    const raw = new Database(file);
    raw.pragma('user_version = 99');
    raw.close();
    expect(() => openDatabase(file)).toThrow(NewerSchemaError);
  });

  it('16: a site object keeps its base copy and loses the site version no one read', () => {
    const file = fileIn();
    const before = openDatabase(file, { migrations: migrations.filter((m) => m.version < 16) });
    before.prepare("INSERT INTO sync_objects (calendar_id, kind, local_id, remote_id, version, base_json, base_hash) VALUES (1, 'venue', NULL, 7, '2026-01-01 10:00:00', '{}', 'h1')").run();
    closeDatabase(before);
    const db = openDatabase(file);
    const columns = (db.prepare('PRAGMA table_info(sync_objects)').all() as Array<{ name: string }>).map((c) => c.name);
    expect(columns).not.toContain('version');
    expect(db.prepare('SELECT kind, remote_id, base_hash FROM sync_objects').all()).toEqual([{ kind: 'venue', remote_id: 7, base_hash: 'h1' }]);
    closeDatabase(db);
  });

  it('18: a conflict copy keeps its format and loses the target that restated it', () => {
    const file = fileIn();
    const before = openDatabase(file, { migrations: migrations.filter((m) => m.version < 18) });
    before.prepare("INSERT INTO sync_conflicts (calendar_id, uid, title, local_ical, created_utc, kind, format, target) VALUES (1, 'u1', 'Mine', '{}', '2031-01-01T00:00:00Z', 'event', 'json', 'site')").run();
    closeDatabase(before);
    const db = openDatabase(file);
    const columns = (db.prepare('PRAGMA table_info(sync_conflicts)').all() as Array<{ name: string }>).map((c) => c.name);
    expect(columns).not.toContain('target');
    expect(db.prepare('SELECT uid, title, format FROM sync_conflicts').all()).toEqual([{ uid: 'u1', title: 'Mine', format: 'json' }]);
    closeDatabase(db);
  });
});
