/**
 * Runs `npm run cli -- …` as a user would, from the source through tsx (a build left over from
 * older sources must never be what is tested), with no API token in its environment so it works
 * on the data directory itself unless a test says otherwise.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '../..');

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

export function runCli(args: string[], opts: { stdin?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  return new Promise((ok) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'electron/cli.ts'), ...args], {
      cwd: repoRoot,
      env: { ...process.env, ALMANAC_TOKEN: '', ...opts.env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => ok({ code, out, err }));
    child.stdin.end(opts.stdin);
  });
}
