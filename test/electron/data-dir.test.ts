import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { dataDirArg, resolveDataDir, sessionDataDir } from '../../electron/main/data-dir';
import { defaultDataDir } from '../../electron/server/data-dir';

const base = { env: {}, appData: '/home/ana/.config', cwd: '/home/ana/work' };

describe('desktop data directory', () => {
  it('reads --data-dir in both spellings, the last one winning', () => {
    expect(dataDirArg(['electron', '.', '--data-dir', '/cal'])).toBe('/cal');
    expect(dataDirArg(['Almanac', '--data-dir=/cal'])).toBe('/cal');
    expect(dataDirArg(['Almanac', '--data-dir=/a', '--data-dir', '/b'])).toBe('/b');
    expect(dataDirArg(['Almanac', '--data-dir'])).toBeUndefined();
    expect(dataDirArg(['Almanac', '--data-dir', '--no-sandbox'])).toBeUndefined();
    expect(dataDirArg(['Almanac', '--data-dir='])).toBeUndefined();
    expect(dataDirArg(['Almanac', '--', '--data-dir', '/x'])).toBeUndefined();
    expect(dataDirArg(['Almanac', '--data-directory', '/x'])).toBeUndefined();
  });

  it('prefers --data-dir, then ALMANAC_DATA_DIR, then the OS user-data folder', () => {
    expect(resolveDataDir({ ...base, argv: ['x', '--data-dir', '/a'], env: { ALMANAC_DATA_DIR: '/b' } })).toEqual({ dir: '/a', source: 'argv' });
    expect(resolveDataDir({ ...base, argv: ['x'], env: { ALMANAC_DATA_DIR: '/b' } })).toEqual({ dir: '/b', source: 'env' });
    expect(resolveDataDir({ ...base, argv: ['x'] })).toEqual({ dir: '/home/ana/.config/Almanac', source: 'default' });
  });

  it('resolves a relative folder against the working directory', () => {
    expect(resolveDataDir({ ...base, argv: ['x', '--data-dir', 'cal'] }).dir).toBe('/home/ana/work/cal');
    expect(resolveDataDir({ ...base, argv: ['x'], env: { ALMANAC_DATA_DIR: './c' } }).dir).toBe('/home/ana/work/c');
  });

  it('is the same folder the headless server uses by default', () => {
    const home = '/home/ana';
    expect(resolveDataDir({ ...base, appData: join(home, '.config'), argv: [] }).dir).toBe(defaultDataDir({}, 'linux', home));
    expect(resolveDataDir({ ...base, appData: join(home, 'Library', 'Application Support'), argv: [] }).dir).toBe(defaultDataDir({}, 'darwin', home));
  });

  it('keeps Chromium’s files in a sub-folder', () => {
    expect(sessionDataDir('/cal')).toBe(join('/cal', 'Session'));
  });
});
