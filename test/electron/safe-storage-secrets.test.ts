/**
 * Account passwords in the desktop app: encrypted by the OS keychain (Electron's safeStorage,
 * faked here with a real cipher whose key stays with "the OS"), never in clear on disk.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createSafeStorageSecrets, KEYCHAIN_SECRETS_FILE } from '../../electron/main/safe-storage-secrets';
import { createFileSecretStore, SECRETS_FILE } from '../../electron/server/secrets';
import { startDesktopApp } from '../../electron/main/lifecycle';
import { FakeElectron, FakeSafeStorage, removeTempDirs, tempDir, until } from './fake-electron';

afterAll(removeTempDirs);

const PASSWORD = 'correct horse €battery';

/** Every file of the folder, as bytes: the password must be in none of them, in any encoding. */
function assertNowhereOnDisk(dir: string, secret: string) {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const name = join(entry.parentPath, entry.name);
    const bytes = readFileSync(name);
    for (const form of [Buffer.from(secret, 'utf8'), Buffer.from(secret, 'utf16le'), Buffer.from(Buffer.from(secret).toString('base64'))]) {
      expect(bytes.includes(form), `${name} holds the password`).toBe(false);
    }
  }
}

describe('passwords in the OS keychain', () => {
  it('keeps only ciphertext on disk, owner-only, readable again after a restart on the same computer', () => {
    const dir = tempDir();
    const keychain = new FakeSafeStorage();
    const store = createSafeStorageSecrets(keychain, dir, { platform: 'linux' });
    expect(store.kind).toBe('os-keychain');
    store.set('caldav:1', PASSWORD);
    expect(statSync(join(dir, KEYCHAIN_SECRETS_FILE)).mode & 0o777).toBe(0o600);
    assertNowhereOnDisk(dir, PASSWORD);
    expect(createSafeStorageSecrets(keychain, dir, { platform: 'linux' }).get('caldav:1')).toBe(PASSWORD);
    // The file copied to another computer (another keychain) gives nothing back.
    expect(() => createSafeStorageSecrets(new FakeSafeStorage(), dir, { platform: 'linux' }).get('caldav:1')).toThrow();
    store.delete('caldav:1');
    expect(store.get('caldav:1')).toBeUndefined();
    expect(existsSync(join(dir, KEYCHAIN_SECRETS_FILE))).toBe(false);
  });

  it('moves passwords the CLI stored in the plain file into the keychain, at start and when asked for', () => {
    const dir = tempDir();
    createFileSecretStore(dir).set('caldav:1', PASSWORD);
    const keychain = new FakeSafeStorage();
    const store = createSafeStorageSecrets(keychain, dir, { platform: 'darwin' });
    expect(existsSync(join(dir, SECRETS_FILE))).toBe(false);
    expect(store.get('caldav:1')).toBe(PASSWORD);
    // An account added by the CLI while the app runs.
    createFileSecretStore(dir).set('caldav:2', 'second €');
    expect(store.get('caldav:2')).toBe('second €');
    expect(existsSync(join(dir, SECRETS_FILE))).toBe(false);
    assertNowhereOnDisk(dir, PASSWORD);
    assertNowhereOnDisk(dir, 'second €');
  });

  it('falls back to the owner-only file, and says so, where the OS has no real keychain', () => {
    for (const setup of [(k: FakeSafeStorage) => (k.available = false), (k: FakeSafeStorage) => (k.backend = 'basic_text')]) {
      const dir = tempDir();
      const keychain = new FakeSafeStorage();
      setup(keychain);
      const said: string[] = [];
      const store = createSafeStorageSecrets(keychain, dir, { platform: 'linux', log: (l) => said.push(l) });
      expect(store.kind).toBe('owner-only-file');
      expect(said.join()).toMatch(/no OS keychain is available/);
      store.set('caldav:1', PASSWORD);
      expect(statSync(join(dir, SECRETS_FILE)).mode & 0o777).toBe(0o600);
    }
  });

  it('is what the desktop app’s server keeps passwords in', async () => {
    const dir = tempDir('almanac-desk-');
    const fake = new FakeElectron({ argv: ['electron', '.', '--data-dir', dir] });
    const app = startDesktopApp(fake.deps());
    await app.ready;
    try {
      const server = app.server()!;
      expect(server.secrets?.kind).toBe('os-keychain');
      server.secrets!.set('caldav:7', PASSWORD);
      assertNowhereOnDisk(dir, PASSWORD);
    } finally {
      fake.window?.close();
      await until(() => fake.app.ended);
    }
  });
});
