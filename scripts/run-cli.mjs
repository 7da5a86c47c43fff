#!/usr/bin/env node
// `npm run serve` and `npm run cli`: builds the app when a source file is newer than the build,
// then runs the command line (out/main/cli.js) under plain Node with the given arguments.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const built = join(root, 'out', 'main', 'cli.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

const sources = ['electron', 'renderer', 'shared'].map((d) => join(root, d)).filter(existsSync);
const stale = !existsSync(built) || Math.max(...sources.map(newestMtime)) > statSync(built).mtimeMs;
if (stale) {
  process.stderr.write('Building Almanac…\n');
  const r = spawnSync('npx', ['electron-vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const r = spawnSync(process.execPath, [built, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(r.status ?? 1);
