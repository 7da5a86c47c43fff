/**
 * Account passwords in the desktop app: encrypted with Electron's safeStorage (the macOS
 * Keychain, Windows DPAPI, libsecret/KWallet on Linux) and kept as ciphertext in an owner-only
 * file of the data directory. The SQLite file never sees them.
 *
 * Where the OS offers no real keychain (safeStorage unavailable, or Linux's `basic_text`
 * backend, which encrypts with a key built into Chromium), encrypting would only pretend: the
 * app then uses the headless server's owner-only file and says so (`kind`).
 *
 * Passwords the CLI stored while the app was closed (`secrets.json`, in clear but owner-only)
 * move into the keychain the next time the app starts, and leave the plain file.
 */
import { join } from 'node:path';
import { createFileSecretStore, mapSecretStore, ownerOnlyJsonFile, type SecretStore } from '../server/secrets';

/** The part of Electron's `safeStorage` used here. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: 'basic_text' | 'gnome_libsecret' | 'kwallet' | 'kwallet5' | 'kwallet6' | 'unknown'. */
  getSelectedStorageBackend?(): string;
}

export const KEYCHAIN_SECRETS_FILE = 'secrets.keychain.json';

export function keychainUsable(safeStorage: SafeStorageLike, platform: NodeJS.Platform): boolean {
  if (!safeStorage.isEncryptionAvailable()) return false;
  if (platform === 'linux') {
    const backend = safeStorage.getSelectedStorageBackend?.() ?? 'unknown';
    if (backend === 'basic_text' || backend === 'unknown') return false;
  }
  return true;
}

export function createSafeStorageSecrets(
  safeStorage: SafeStorageLike,
  dataDir: string,
  opts: { platform: NodeJS.Platform; log?: (line: string) => void },
): SecretStore {
  const plain = createFileSecretStore(dataDir);
  if (!keychainUsable(safeStorage, opts.platform)) {
    opts.log?.('no OS keychain is available; account passwords are kept in a file only your user can read');
    return plain;
  }
  const keychain = mapSecretStore(
    'os-keychain',
    ownerOnlyJsonFile(join(dataDir, KEYCHAIN_SECRETS_FILE)),
    (secret) => safeStorage.encryptString(secret).toString('base64'),
    (stored) => safeStorage.decryptString(Buffer.from(stored, 'base64')),
  );
  /** Into the keychain first, then out of the plain file: a crash between leaves a copy in each, never none. */
  const adopt = (key: string): string | undefined => {
    const secret = plain.get(key);
    if (secret === undefined) return undefined;
    keychain.set(key, secret);
    plain.delete(key);
    return secret;
  };
  for (const key of plain.keys()) adopt(key);
  return {
    kind: 'os-keychain',
    // The CLI may add an account while the app runs: its password is adopted when first asked for.
    get: (key) => keychain.get(key) ?? adopt(key),
    set(key, secret) {
      keychain.set(key, secret);
      plain.delete(key);
    },
    delete(key) {
      keychain.delete(key);
      plain.delete(key);
    },
    keys: () => [...new Set([...keychain.keys(), ...plain.keys()])],
  };
}
