import { describe, it, expect } from 'vitest';
import { statSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { defaultDataDir, resolveToken, writeDiscovery, readDiscovery, removeDiscovery, TOKEN_FILE } from '../../electron/server/data-dir';
import { tempDir } from '../helpers/temp-dir';

const fresh = () => tempDir('almanac-dd-');

describe('data directory', () => {
  it('is the OS user-data folder unless ALMANAC_DATA_DIR says otherwise', () => {
    expect(defaultDataDir({}, 'linux', '/home/ana')).toBe('/home/ana/.config/Almanac');
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/x' }, 'linux', '/home/ana')).toBe('/x/Almanac');
    expect(defaultDataDir({}, 'darwin', '/Users/ana')).toBe('/Users/ana/Library/Application Support/Almanac');
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' }, 'win32', 'C:\\Users\\ana')).toContain('Almanac');
    expect(defaultDataDir({ ALMANAC_DATA_DIR: '/data/cal' }, 'linux', '/home/ana')).toBe('/data/cal');
  });

  it('creates a random token on first start, readable by the owner only, and keeps it', () => {
    const dir = fresh();
    const first = resolveToken(dir);
    expect(first.source).toBe('created');
    expect(first.token.length).toBeGreaterThanOrEqual(43); // 32 random bytes
    expect(statSync(join(dir, TOKEN_FILE)).mode & 0o777).toBe(0o600);
    const again = resolveToken(dir);
    expect(again).toMatchObject({ token: first.token, source: 'file' });
    expect(resolveToken(fresh()).token).not.toBe(first.token);
  });

  it('tightens a token file that others could read', () => {
    const dir = fresh();
    writeFileSync(join(dir, TOKEN_FILE), 'x'.repeat(40), { mode: 0o644 });
    expect(resolveToken(dir).token).toBe('x'.repeat(40));
    expect(statSync(join(dir, TOKEN_FILE)).mode & 0o777).toBe(0o600);
  });

  it('uses a given token without writing it to disk', () => {
    const dir = fresh();
    expect(resolveToken(dir, 'given-token-1234567890').token).toBe('given-token-1234567890');
    expect(existsSync(join(dir, TOKEN_FILE))).toBe(false);
  });

  it('discovery file names the running server, not the token, and only while it runs', () => {
    const dir = fresh();
    writeDiscovery(dir, { pid: process.pid, port: 4781, url: 'http://127.0.0.1:4781', apiRoot: 'http://127.0.0.1:4781/cal/events/v1/', startedAt: 'now' });
    expect(readDiscovery(dir)?.port).toBe(4781);
    expect(readFileSync(join(dir, 'server.json'), 'utf8')).not.toMatch(/token/i);
    removeDiscovery(dir);
    expect(readDiscovery(dir)).toBeUndefined();
  });

  it('ignores a discovery file left by a process that is gone', () => {
    const dir = fresh();
    writeDiscovery(dir, { pid: 2 ** 22 + 12345, port: 1, url: 'u', apiRoot: 'a', startedAt: 's' });
    expect(readDiscovery(dir)).toBeUndefined();
  });
});
