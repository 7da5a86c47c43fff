/**
 * Where Almanac keeps its data, and the files in it: the database, the API token (owner-only),
 * and the discovery file a running server writes so scripts can find it.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import { join } from 'node:path';

export const APP_NAME = 'Almanac';
export const DB_FILE = 'almanac.sqlite';
export const TOKEN_FILE = 'api-token';
export const DISCOVERY_FILE = 'server.json';
/** The port the server asks for first (a free one if it is taken); here so the CLI's help needs nothing else. */
export const DEFAULT_PORT = 4780;

/**
 * The folder the desktop app uses (Electron's `userData` for an app named Almanac), unless
 * ALMANAC_DATA_DIR says otherwise. The headless server uses the same one by default.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, os: NodeJS.Platform = platform(), home = homedir()): string {
  if (env.ALMANAC_DATA_DIR) return env.ALMANAC_DATA_DIR;
  if (os === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), APP_NAME);
  if (os === 'darwin') return join(home, 'Library', 'Application Support', APP_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), APP_NAME);
}

export function ensureDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/**
 * The API token: the one given (flag or environment), else the one kept in the data directory,
 * else a new random one written there readable by the owner only.
 */
export function resolveToken(dataDir: string, given?: string): { token: string; source: 'given' | 'file' | 'created'; file: string } {
  const file = join(dataDir, TOKEN_FILE);
  if (given) return { token: given, source: 'given', file };
  if (existsSync(file)) {
    chmodSync(file, 0o600);
    const token = readFileSync(file, 'utf8').trim();
    if (token.length >= 32) return { token, source: 'file', file };
  }
  const token = randomBytes(32).toString('base64url');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { token, source: 'created', file };
}

export interface Discovery {
  pid: number;
  port: number;
  url: string;
  apiRoot: string;
  startedAt: string;
}

export function writeDiscovery(dataDir: string, d: Discovery): void {
  writeFileSync(join(dataDir, DISCOVERY_FILE), `${JSON.stringify(d, null, 2)}\n`, { mode: 0o600 });
}

export function readDiscovery(dataDir: string): Discovery | undefined {
  try {
    const d = JSON.parse(readFileSync(join(dataDir, DISCOVERY_FILE), 'utf8')) as Discovery;
    process.kill(d.pid, 0); // throws when that process is gone
    return d;
  } catch {
    return undefined;
  }
}

export function removeDiscovery(dataDir: string, pid = process.pid): void {
  const file = join(dataDir, DISCOVERY_FILE);
  try {
    const d = JSON.parse(readFileSync(file, 'utf8')) as Discovery;
    if (d.pid === pid) rmSync(file);
  } catch {
    // nothing to remove
  }
}
