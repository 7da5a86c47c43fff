/**
 * `npm run serve` as a site a WordPress client can sign in to (issue 26 item 2): from the address
 * alone, the client follows the `Link` header to the index, finds the events namespace by its
 * shape, proves its login with HTTP Basic (the token as the application password) and reads.
 */
import { describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { tempDir } from '../helpers/temp-dir';

const root = resolve(import.meta.dirname, '../..');
const TOKEN = 'serve-site-token-0123456789';

function serve(args: string[]): { child: ChildProcess; ready: Promise<string> } {
  // The source, through tsx, as test/server/cli.test.ts runs it.
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'electron/cli.ts'), 'serve', ...args], { cwd: root, env: { ...process.env, ALMANAC_TOKEN: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const ready = new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`no start line:\n${out}`)), 20_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /running at (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    child.stderr!.on('data', (d) => (out += d));
    child.on('exit', () => fail(new Error(`exited early:\n${out}`)));
  });
  return { child, ready };
}

describe('npm run serve as a site', () => {
  it('a client finds the API from the address and signs in with HTTP Basic', async () => {
    const { child, ready } = serve(['--data-dir', tempDir('almanac-serve-site-'), '--port', '0', '--token', TOKEN]);
    try {
      const url = await ready;
      const auth = { Authorization: `Basic ${Buffer.from(`admin:${TOKEN}`).toString('base64')}` };
      // 1. The address: its Link header names the index.
      const front = await fetch(`${url}/`, { redirect: 'manual' });
      const link = /<([^>]+)>;\s*rel="https:\/\/api\.w\.org\/"/.exec(front.headers.get('link') ?? '');
      expect(link?.[1]).toBe(`${url}/wp-json/`);
      // 2. The index: the events namespace found by its shape, not its name.
      const index = (await (await fetch(link![1])).json()) as { namespaces: string[]; routes: Record<string, unknown> };
      const ns = (index.namespaces as string[]).find((n) => /\/events\/v1$/.test(n) && ['events', 'venues', 'organizers', 'categories', 'tags'].every((c) => `/${n}/${c}` in index.routes));
      expect(ns).toBe('cal/events/v1');
      // 3. The login, proven before any list is trusted.
      const me = await fetch(`${url}/wp-json/wp/v2/users/me`, { headers: auth });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { id: number }).id).toBe(1);
      const wrong = await fetch(`${url}/wp-json/wp/v2/users/me`, { headers: { Authorization: `Basic ${Buffer.from('admin:nope').toString('base64')}` } });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toBeNull();
      expect(((await wrong.json()) as { code: string }).code).toBe('incorrect_password');
      // 4. A write and a read, in both address forms.
      const made = await fetch(`${url}/wp-json/${ns}/events`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ title: 'Served', start_date: '2031-05-01 10:00', end_date: '2031-05-01 11:00' }) });
      expect(made.status).toBe(201);
      const id = ((await made.json()) as { id: number }).id;
      const read = await fetch(`${url}/index.php?rest_route=/${ns}/events/${id}`, { headers: auth });
      expect(((await read.json()) as { title: string }).title).toBe('Served');
      expect(read.headers.get('etag')).toMatch(/^"/);
      expect(read.headers.get('x-cal-conditional-writes')).toBe('1');
    } finally {
      const exited = new Promise((ok) => child.on('exit', ok));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
