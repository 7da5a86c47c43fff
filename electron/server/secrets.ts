/**
 * Where account passwords live: never in the SQLite file (which gets copied, backed up, attached
 * to bug reports and exported), never in a log line or an API answer.
 *
 * - Desktop app: the OS keychain through Electron's safeStorage (electron/main/safe-storage-secrets.ts
 *   implements `SecretStore`; only the encrypted bytes reach the disk).
 * - Headless server and CLI: `secrets.json` in the data directory, readable and writable by its
 *   owner only (0600, in a 0700 folder), like the API token beside it, ~/.netrc or git's
 *   credential store. A server without a desktop session has no keychain to ask, and encrypting
 *   with a key kept next to the file would only look safer. (On Windows the mode bits mean
 *   nothing; the per-user profile folder is what protects it there.)
 *
 * Keys are opaque (`caldav:<account id>`); a store holds nothing but the secrets themselves.
 */
import { chmodSync, closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

export const SECRETS_FILE = 'secrets.json';

export interface SecretStore {
  /** How the secrets are kept, for the settings screen and the README: what protects them. */
  readonly kind: 'os-keychain' | 'owner-only-file';
  get(key: string): string | undefined;
  /** Stores (or replaces) a secret; durable once this returns. */
  set(key: string, secret: string): void;
  delete(key: string): void;
  keys(): string[];
}

export class SecretStoreError extends Error {}

/**
 * A JSON object of strings in a file only its owner can read or write. Both stores keep their
 * data this way (the keychain one holds ciphertext only).
 */
export function ownerOnlyJsonFile(file: string) {
  return {
    file,
    read(): Record<string, string> {
      if (!existsSync(file)) return {};
      // Someone (a backup tool, a careless chmod) may have opened it up; it is closed again before use.
      if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
      let parsed: unknown;
      try {
        parsed = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        // Never quote the file: it is made of passwords.
        throw new SecretStoreError(`${file} is damaged (not valid JSON); remove it and enter the account passwords again.`);
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new SecretStoreError(`${file} is damaged (not a JSON object); remove it and enter the account passwords again.`);
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') out[k] = v;
      return out;
    },
    write(all: Record<string, string>): void {
      if (Object.keys(all).length === 0) {
        rmSync(file, { force: true });
        return;
      }
      // A new file, owner-only from its first byte, renamed over the old one: a crash leaves the
      // old secrets or the new ones, never half a file, and never a moment others could read it.
      const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      const fd = openSync(tmp, 'wx', 0o600);
      try {
        writeSync(fd, `${JSON.stringify(all, null, 2)}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      try {
        renameSync(tmp, file);
      } catch (err) {
        rmSync(tmp, { force: true });
        throw err;
      }
    },
  };
}

/** A SecretStore over a string map kept by `load`/`save`, with `encode`/`decode` around each secret. */
export function mapSecretStore(kind: SecretStore['kind'], box: { read(): Record<string, string>; write(all: Record<string, string>): void }, encode = (s: string) => s, decode = (s: string) => s): SecretStore {
  return {
    kind,
    get(key) {
      const v = box.read()[key];
      return v === undefined ? undefined : decode(v);
    },
    set(key, secret) {
      const all = box.read();
      all[key] = encode(secret);
      box.write(all);
    },
    delete(key) {
      const all = box.read();
      if (!(key in all)) return;
      delete all[key];
      box.write(all);
    },
    keys: () => Object.keys(box.read()),
  };
}

/** The headless store: key → secret in `secrets.json`, owner-only. */
export function createFileSecretStore(dataDir: string): SecretStore {
  return mapSecretStore('owner-only-file', ownerOnlyJsonFile(join(dataDir, SECRETS_FILE)));
}

/** The key of a CalDAV account's password. */
export const accountSecretKey = (accountId: number) => `caldav:${accountId}`;

/** The key of a website's application password (issue 26). */
export const siteSecretKey = (siteId: number) => `site:${siteId}`;
