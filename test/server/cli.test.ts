/**
 * The headless server as a user starts it: a child process that prints where it is, logs one line
 * per request without the token, and closes the database cleanly on SIGTERM and SIGINT.
 */
import { describe, it, expect } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '../helpers/temp-dir';

const root = resolve(import.meta.dirname, '../..');
// The source, through tsx: a build left over from older sources must never be what is tested.
const command = ['--import', 'tsx', join(root, 'electron/cli.ts')];
const TOKEN = 'cli-test-token-0123456789';

function start(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [...command, 'serve', ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const ready = new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`no start line:\n${out}`)), 20_000);
    const check = () => {
      const m = /running at (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', () => fail(new Error(`exited early:\n${out}`)));
  });
  ready.catch(() => {}); // a test that expects an early exit never awaits it
  return { child, ready, output: () => out };
}

const exited = (child: ChildProcess) => new Promise<number | null>((ok) => child.on('exit', (code) => ok(code)));

describe('npm run serve (the CLI)', () => {
  it('serves the API with the token, logs each request without the token, and stops cleanly on SIGTERM', async () => {
    const dataDir = tempDir('almanac-cli-');
    const { child, ready, output } = start(['--data-dir', dataDir, '--port', '0', '--token', TOKEN]);
    const url = await ready;
    expect(output()).toContain(`${url}/cal/events/v1/`);
    expect(JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')).url).toBe(url);

    const created = await fetch(`${url}/cal/events/v1/events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Written before the stop', start_date: '2031-05-01 10:00', end_date: '2031-05-01 11:00' }),
    });
    expect(created.status).toBe(201);
    expect((await fetch(`${url}/cal/events/v1/events`)).status).toBe(401);
    await fetch(`${url}/?token=${TOKEN}`, { redirect: 'manual' });

    const code = exited(child);
    child.kill('SIGTERM');
    expect(await code).toBe(0);

    const log = output().split('\n');
    expect(log.some((l) => /INFO\s+POST \/cal\/events\/v1\/events 201 /.test(l))).toBe(true);
    expect(log.some((l) => /WARN\s+GET \/cal\/events\/v1\/events 401 /.test(l))).toBe(true);
    // The startup banner shows the login URL; no request log line may carry the token.
    expect(log.filter((l) => /(INFO|WARN|ERROR) /.test(l)).join('\n')).not.toContain(TOKEN);
    // Closed cleanly: WAL folded back, discovery file gone, and the event is in the file.
    expect(existsSync(join(dataDir, 'almanac.sqlite-wal'))).toBe(false);
    expect(existsSync(join(dataDir, 'server.json'))).toBe(false);
    const db = new Database(join(dataDir, 'almanac.sqlite'), { readonly: true });
    expect(db.prepare('SELECT title FROM events').all()).toEqual([{ title: 'Written before the stop' }]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('stops on SIGINT too, and takes the token from ALMANAC_TOKEN', async () => {
    const dataDir = tempDir('almanac-cli-');
    const { child, ready } = start(['--data-dir', dataDir, '--port', '0'], { ALMANAC_TOKEN: TOKEN });
    const url = await ready;
    expect((await fetch(`${url}/cal/events/v1/`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    const code = exited(child);
    child.kill('SIGINT');
    expect(await code).toBe(0);
  });

  it('refuses a bad port with a clear message', async () => {
    const { child, output } = start(['--port', 'eighty']);
    expect(await exited(child)).toBe(1);
    expect(output()).toContain('--port must be a number');
  });
});
