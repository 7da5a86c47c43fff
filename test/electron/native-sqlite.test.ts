/**
 * The Electron-ABI build of better-sqlite3: where the app looks for it, how it tells the user when
 * it is missing or stale, and the pure parts of the script that builds it (which needs the
 * internet, so it does not run here).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { electronAddonPath, locateElectronAddon, MissingAddonError } from '../../electron/main/native-sqlite';
import * as script from '../../scripts/build-electron-sqlite.mjs';
import { removeTempDirs, ROOT, tempDir } from './fake-electron';

afterAll(removeTempDirs);

const runtime = { electron: '41.10.7', platform: 'linux', arch: 'x64' };

function checkout(info?: object) {
  const root = tempDir('almanac-native-');
  const { dir, addon, info: infoFile } = script.outputPaths(root);
  mkdirSync(dir, { recursive: true });
  writeFileSync(addon, 'binary');
  if (info) writeFileSync(infoFile, JSON.stringify(info));
  return { root, addon };
}

describe('locating the Electron build of better-sqlite3', () => {
  it('is native/electron/ in a checkout and resources/native/ in the installed app', () => {
    expect(electronAddonPath({ isPackaged: false, appPath: '/src/almanac', resourcesPath: '/x' })).toBe(join('/src/almanac', 'native', 'electron', 'better_sqlite3.node'));
    expect(electronAddonPath({ isPackaged: true, appPath: '/opt/Almanac/resources/app.asar', resourcesPath: '/opt/Almanac/resources' })).toBe(join('/opt/Almanac/resources', 'native', 'better_sqlite3.node'));
  });

  it('is where the build script writes it', () => {
    expect(electronAddonPath({ isPackaged: false, appPath: ROOT, resourcesPath: '' })).toBe(script.outputPaths(ROOT).addon);
  });

  it('says how to build it when it is missing', () => {
    const root = tempDir('almanac-native-');
    expect(() => locateElectronAddon({ isPackaged: false, appPath: root, resourcesPath: '' }, runtime)).toThrow(MissingAddonError);
    expect(() => locateElectronAddon({ isPackaged: false, appPath: root, resourcesPath: '' }, runtime)).toThrow(/npm run rebuild:electron/);
    expect(() => locateElectronAddon({ isPackaged: true, appPath: '', resourcesPath: root }, runtime)).toThrow(/Reinstall Almanac/);
  });

  it('refuses a build made for another Electron major or another machine', () => {
    const loc = (root: string) => ({ isPackaged: false, appPath: root, resourcesPath: '' });
    const ok = checkout({ electron: '41.2.0', platform: 'linux', arch: 'x64' });
    expect(locateElectronAddon(loc(ok.root), runtime)).toBe(ok.addon);
    const old = checkout({ electron: '40.1.0', platform: 'linux', arch: 'x64' });
    expect(() => locateElectronAddon(loc(old.root), runtime)).toThrow(/built for Electron 40\.1\.0.*this is Electron 41\.10\.7/);
    const arm = checkout({ electron: '41.10.7', platform: 'linux', arch: 'arm64' });
    expect(() => locateElectronAddon(loc(arm.root), runtime)).toThrow(/linux-arm64/);
    // Without the note (built by hand), the file is trusted.
    const bare = checkout();
    expect(locateElectronAddon(loc(bare.root), runtime)).toBe(bare.addon);
  });
});

describe('scripts/build-electron-sqlite.mjs (pure parts)', () => {
  it('reads the installed Electron version', () => {
    expect(script.electronVersion(ROOT)).toMatch(/^41\.\d+\.\d+$/);
    const fake = tempDir('almanac-root-');
    mkdirSync(join(fake, 'node_modules', 'electron'), { recursive: true });
    writeFileSync(join(fake, 'node_modules', 'electron', 'package.json'), JSON.stringify({ version: '42.0.1' }));
    expect(script.electronVersion(fake)).toBe('42.0.1');
    expect(() => script.electronVersion(tempDir('almanac-root-'))).toThrow(/npm ci/);
  });

  it('builds from a copy of the installed better-sqlite3 and leaves node_modules alone', () => {
    const pkg = script.betterSqlite3Package(ROOT);
    expect(pkg.dir).toBe(join(ROOT, 'node_modules', 'better-sqlite3'));
    expect(pkg.version).toMatch(/^12\./);
    expect(script.PACKAGE_PARTS).toEqual(expect.arrayContaining(['package.json', 'binding.gyp', 'src', 'lib', 'deps']));
    expect(script.PACKAGE_PARTS).not.toContain('build');
    expect(script.outputPaths(ROOT).dir).toBe(join(ROOT, 'native', 'electron'));
  });

  it('asks prebuild-install for the Electron runtime, then node-gyp with Electron’s headers', () => {
    expect(script.prebuildArgs({ version: '41.10.7', arch: 'x64', platform: 'linux' })).toEqual(['--runtime', 'electron', '--target', '41.10.7', '--arch', 'x64', '--platform', 'linux', '--verbose']);
    const gyp = script.nodeGypArgs({ version: '41.10.7', arch: 'arm64' });
    expect(gyp).toEqual(expect.arrayContaining(['rebuild', '--release', '--target=41.10.7', '--arch=arm64', '--dist-url=https://electronjs.org/headers']));
    expect(script.nodeGypCommand({ npm_config_node_gyp: '/nonexistent/node-gyp.js' }, '/nonexistent/bin/node').prefix).toEqual(['--yes', 'node-gyp']);
    const bundled = tempDir('almanac-npm-');
    const gypJs = join(bundled, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
    mkdirSync(join(gypJs, '..'), { recursive: true });
    writeFileSync(gypJs, '');
    expect(script.nodeGypCommand({ npm_execpath: join(bundled, 'bin', 'npm-cli.js') }, '/usr/bin/node')).toEqual({ command: '/usr/bin/node', prefix: [gypJs] });
  });

  it('keeps npm settings that would build for Node (a nodedir in .npmrc) away from the build tools', () => {
    const env = script.buildEnv({ PATH: '/bin', npm_config_nodedir: '/usr', NPM_CONFIG_TARGET: '20.0.0', npm_config_runtime: 'node', npm_config_cache: '/c' });
    expect(env).toEqual({ PATH: '/bin', npm_config_cache: '/c' });
  });

  it('reads its options', () => {
    expect(script.option(['--electron-version', '41.1.0'], 'electron-version')).toBe('41.1.0');
    expect(script.option(['--arch=arm64'], 'arch')).toBe('arm64');
    expect(script.option([], 'arch')).toBeUndefined();
  });
});
