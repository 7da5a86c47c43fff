#!/usr/bin/env node
// `npm run rebuild:electron`: builds better-sqlite3 for the installed Electron into
// native/electron/better_sqlite3.node, which the desktop app loads (electron/main/native-sqlite.ts).
//
// node_modules/better-sqlite3 keeps its Node build (tests, the CLI): the package is copied to a
// temporary folder and built there, first by downloading the project's prebuilt binary for this
// Electron (prebuild-install), else by compiling it against Electron's headers (node-gyp; needs a
// C++ toolchain). Either way it needs the internet once.
//
//   npm run rebuild:electron [-- --electron-version 41.10.7] [--arch x64] [--from-source]
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const ADDON_FILE = 'better_sqlite3.node';
export const ELECTRON_HEADERS_URL = 'https://electronjs.org/headers';
/** What of the better-sqlite3 package a build needs (its own "files" list, plus package.json). */
export const PACKAGE_PARTS = ['package.json', 'binding.gyp', 'src', 'lib', 'deps'];

/** Where the Electron build goes, and the note of what it was built for. */
export function outputPaths(root = ROOT) {
  const dir = join(root, 'native', 'electron');
  return { dir, addon: join(dir, ADDON_FILE), info: join(dir, 'build-info.json') };
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The version of the `electron` package installed in the project. */
export function electronVersion(root = ROOT) {
  const file = join(root, 'node_modules', 'electron', 'package.json');
  if (!existsSync(file)) throw new Error(`Electron is not installed (${file} is missing): run "npm ci" first.`);
  const { version } = readJson(file);
  if (typeof version !== 'string' || !/^\d+\.\d+\.\d+/.test(version)) throw new Error(`Cannot read the Electron version from ${file}.`);
  return version;
}

/** The folder of the better-sqlite3 package the app uses, and its version. */
export function betterSqlite3Package(root = ROOT) {
  const dir = join(root, 'node_modules', 'better-sqlite3');
  const file = join(dir, 'package.json');
  if (!existsSync(file)) throw new Error(`better-sqlite3 is not installed (${file} is missing): run "npm ci" first.`);
  return { dir, version: readJson(file).version };
}

export function prebuildArgs({ version, arch, platform }) {
  return ['--runtime', 'electron', '--target', version, '--arch', arch, '--platform', platform, '--verbose'];
}

export function nodeGypArgs({ version, arch }) {
  return ['rebuild', '--release', `--target=${version}`, `--arch=${arch}`, `--dist-url=${ELECTRON_HEADERS_URL}`, `--devdir=${join(homedir(), '.electron-gyp')}`];
}

/** `--name value` or `--name=value` from the script's arguments. */
export function option(argv, name) {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === `--${name}`) return argv[i + 1];
    if (argv[i].startsWith(`--${name}=`)) return argv[i].slice(name.length + 3);
  }
  return undefined;
}

/**
 * How to run node-gyp: npm's own copy (found through npm's environment or next to node), else
 * through npx.
 */
export function nodeGypCommand(env = process.env, execPath = process.execPath) {
  const candidates = [
    env.npm_config_node_gyp,
    env.npm_execpath && join(dirname(dirname(env.npm_execpath)), 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    join(dirname(execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    join(dirname(execPath), 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ];
  const found = candidates.find((c) => c && existsSync(c));
  if (found) return { command: execPath, prefix: [found] };
  return { command: process.platform === 'win32' ? 'npx.cmd' : 'npx', prefix: ['--yes', 'node-gyp'] };
}

/**
 * The environment for the build tools, without npm settings that would make them build for Node
 * instead: a `nodedir` in .npmrc points node-gyp at Node's headers, and the like.
 */
export function buildEnv(env = process.env) {
  const out = {};
  for (const [key, value] of Object.entries(env)) {
    if (/^npm_config_(nodedir|target|target_arch|arch|runtime|disturl|dist_url|build_from_source|node_gyp)$/i.test(key)) continue;
    out[key] = value;
  }
  return out;
}

function run(command, args, cwd) {
  process.stderr.write(`> ${[command, ...args].join(' ')}\n`);
  const r = spawnSync(command, args, { cwd, env: buildEnv(), stdio: 'inherit', shell: process.platform === 'win32' && command.endsWith('.cmd') });
  return r.status === 0;
}

/** Loads the new addon in Electron's own Node (when the Electron binary is there) and opens a database. */
function smokeTest(root, addon) {
  let electronBin;
  try {
    electronBin = createRequire(join(root, 'package.json'))('electron');
  } catch {
    electronBin = undefined;
  }
  if (typeof electronBin !== 'string' || !existsSync(electronBin)) {
    process.stderr.write('Electron itself is not downloaded yet, so the addon was not test-loaded (node node_modules/electron/install.js).\n');
    return;
  }
  const script = `const D = require(${JSON.stringify(join(root, 'node_modules', 'better-sqlite3'))}); const db = new D(':memory:', { nativeBinding: ${JSON.stringify(addon)} }); console.log('SQLite ' + db.prepare('select sqlite_version() v').get().v + ' loads in Electron ' + process.versions.electron); db.close();`;
  const r = spawnSync(electronBin, ['-e', script], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('The new addon does not load in Electron (see above).');
}

export function main(argv = process.argv.slice(2), root = ROOT) {
  const version = option(argv, 'electron-version') ?? electronVersion(root);
  const arch = option(argv, 'arch') ?? process.arch;
  const platform = process.platform;
  const pkg = betterSqlite3Package(root);
  const out = outputPaths(root);
  process.stderr.write(`Building better-sqlite3 ${pkg.version} for Electron ${version} (${platform}-${arch})…\n`);

  const work = mkdtempSync(join(tmpdir(), 'almanac-electron-sqlite-'));
  const copy = join(work, 'better-sqlite3');
  try {
    mkdirSync(copy);
    for (const part of PACKAGE_PARTS) {
      const from = join(pkg.dir, part);
      if (existsSync(from)) cpSync(from, join(copy, part), { recursive: true });
    }
    const built = join(copy, 'build', 'Release', ADDON_FILE);
    let method;
    if (!argv.includes('--from-source')) {
      const prebuild = createRequire(join(pkg.dir, 'package.json')).resolve('prebuild-install/bin.js');
      if (run(process.execPath, [prebuild, ...prebuildArgs({ version, arch, platform })], copy) && existsSync(built)) method = 'prebuild-install';
      else process.stderr.write('No prebuilt binary could be downloaded; compiling from source instead.\n');
    }
    if (!method) {
      const gyp = nodeGypCommand();
      if (!run(gyp.command, [...gyp.prefix, ...nodeGypArgs({ version, arch })], copy) || !existsSync(built)) {
        throw new Error('Compiling better-sqlite3 for Electron failed: it needs Python 3 and a C++ compiler (see the node-gyp README), and the internet for the Electron headers.');
      }
      method = 'node-gyp';
    }
    mkdirSync(out.dir, { recursive: true });
    copyFileSync(built, out.addon);
    writeFileSync(out.info, `${JSON.stringify({ electron: version, platform, arch, method, betterSqlite3: pkg.version, builtAt: new Date().toISOString() }, null, 2)}\n`);
    process.stderr.write(`Wrote ${out.addon} (${method}).\n`);
    smokeTest(root, out.addon);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    main();
  } catch (err) {
    process.stderr.write(`rebuild:electron: ${err.message}\n`);
    process.exit(1);
  }
}
