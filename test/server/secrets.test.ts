/** The headless password store: an owner-only file, written whole or not at all. */
import { describe, it, expect } from 'vitest';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFileSecretStore, SECRETS_FILE, SecretStoreError } from '../../electron/server/secrets';
import { tempDir } from '../helpers/temp-dir';

const mode = (file: string) => statSync(file).mode & 0o777;

describe('the owner-only secrets file', () => {
  it('keeps passwords across restarts in a file only its owner can read, and forgets them on delete', () => {
    const dir = tempDir('almanac-secrets-');
    const store = createFileSecretStore(dir);
    expect(store.kind).toBe('owner-only-file');
    expect(store.get('caldav:1')).toBeUndefined();
    store.set('caldav:1', 'hunter2 €');
    store.set('caldav:2', 'other');
    const file = join(dir, SECRETS_FILE);
    expect(mode(file)).toBe(0o600);
    // A new process (the app restarted, or the CLI) reads the same.
    const again = createFileSecretStore(dir);
    expect(again.get('caldav:1')).toBe('hunter2 €');
    expect(again.keys().sort()).toEqual(['caldav:1', 'caldav:2']);
    again.delete('caldav:1');
    expect(createFileSecretStore(dir).get('caldav:1')).toBeUndefined();
    expect(readFileSync(file, 'utf8')).not.toContain('hunter2');
    again.delete('caldav:2');
    // No file at all once nothing is in it; no temporary files left behind either.
    expect(readdirSync(dir)).toEqual([]);
  });

  it('is owner-only even under a permissive umask, and is closed again if someone opened it up', () => {
    const dir = tempDir('almanac-secrets-');
    const old = process.umask(0);
    try {
      createFileSecretStore(dir).set('k', 'v');
    } finally {
      process.umask(old);
    }
    const file = join(dir, SECRETS_FILE);
    expect(mode(file)).toBe(0o600);
    chmodSync(file, 0o644);
    expect(createFileSecretStore(dir).get('k')).toBe('v');
    expect(mode(file)).toBe(0o600);
  });

  it('says a damaged file is damaged without quoting what is in it', () => {
    const dir = tempDir('almanac-secrets-');
    writeFileSync(join(dir, SECRETS_FILE), '{"caldav:1": "hunter2"', { mode: 0o600 });
    const store = createFileSecretStore(dir);
    let err: unknown;
    try {
      store.get('caldav:1');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SecretStoreError);
    expect((err as Error).message).toMatch(/is damaged/);
    expect((err as Error).message).not.toContain('hunter2');
    expect(existsSync(join(dir, SECRETS_FILE))).toBe(true);
  });
});
