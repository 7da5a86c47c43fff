/**
 * `npm run cli -- sites add|list|remove` and `sync --site NAME` against a second real Almanac as
 * the website: connecting pulls at once, a wrong password is told and nothing is stored, a sync
 * that fails exits non-zero saying why.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { tempDir } from '../../helpers/temp-dir';
import { runCli } from '../../helpers/cli';
import { createServer, silentLogger } from '../../../electron/server';

let site: TestServer;
let dataDir: string;
let pw: string;

beforeAll(async () => {
  site = await startTestServer({ syncIntervalMs: 0, syncDebounceMs: 0 });
  expect((await site.api('post', 'events').send({ title: 'Team meeting', start_date: '2031-02-03 10:00:00', end_date: '2031-02-03 11:00:00' })).status).toBe(201);
  dataDir = tempDir('almanac-cli-sites-');
  pw = join(tempDir('almanac-cli-sites-pw-'), 'pw');
  writeFileSync(pw, `${site.server.token}\n`, { mode: 0o600 });
}, 60_000);

afterAll(async () => {
  await site?.close();
});

describe('CLI sites', { timeout: 60_000 }, () => {
  it('refuses a wrong password (from standard input) and stores nothing', async () => {
    const r = await runCli(['sites', 'add', '--url', site.server.url, '--user', 'owner', '--data-dir', dataDir], { stdin: 'not-the-password\n' });
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/application password/);
    expect(r.err + r.out).not.toContain('not-the-password');
    const list = await runCli(['sites', 'list', '--data-dir', dataDir]);
    expect(list.out).toMatch(/No websites/);
  });

  it('syncs a site through the running app (which holds the password)', async () => {
    const appDir = tempDir('almanac-cli-sites-app-');
    const token = 'app-token-0123456789abcdefghij';
    const app = await createServer({ dataDir: appDir, port: 0, token, log: silentLogger, syncIntervalMs: 0, syncDebounceMs: 0 });
    try {
      const res = await fetch(`${app.apiRoot}sites`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ url: site.server.url, user: 'owner', password: site.server.token, name: 'Club' }) });
      expect(res.status).toBe(201);
      await app.sync.siteSettled(((await res.json()) as { id: number }).id);
      expect((await site.api('post', 'events').send({ title: 'Via the app', start_date: '2031-02-05 10:00:00', end_date: '2031-02-05 11:00:00' })).status).toBe(201);
      const r = await runCli(['sync', '--site', 'club', '--data-dir', appDir], { env: { ALMANAC_TOKEN: token } });
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/Club: synced/);
      expect(r.out).toMatch(/received 1 new or changed/);
      const here = await fetch(`${app.apiRoot}events?search=Via%20the%20app&start_date=2031-01-01&end_date=2031-12-31`, { headers: { Authorization: `Bearer ${token}` } });
      expect(((await here.json()) as { events: unknown[] }).events).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('adds a site (pulling it at once), lists it, syncs it, and says why a sync failed', async () => {
    const added = await runCli(['sites', 'add', '--url', site.server.url, '--user', 'owner', '--password-file', pw, '--name', 'Team', '--data-dir', dataDir]);
    expect(added.code, added.err).toBe(0);
    expect(added.out).toMatch(/Connected "Team"/);
    // "Team meeting", and "Via the app" of the test before.
    expect(added.out).toMatch(/received 2 new or changed/);
    expect(added.out).not.toContain(site.server.token);
    const list = await runCli(['sites', 'list', '--data-dir', dataDir]);
    expect(list.out).toMatch(/^Team: owner at http:\/\/127\.0\.0\.1:\d+/m);
    expect((await site.api('post', 'events').send({ title: 'Second meeting', start_date: '2031-02-04 10:00:00', end_date: '2031-02-04 11:00:00' })).status).toBe(201);
    const synced = await runCli(['sync', '--site', 'team', '--data-dir', dataDir]);
    expect(synced.code, synced.err).toBe(0);
    expect(synced.out).toMatch(/Team: synced/);
    expect(synced.out).toMatch(/received 1 new or changed/);
    await site.server.close();
    const failed = await runCli(['sync', '--data-dir', dataDir]);
    expect(failed.code).toBe(1);
    expect(failed.out).toMatch(/Team: FAILED: .*cannot be reached/);
    const unknown = await runCli(['sync', '--site', 'Nope', '--data-dir', dataDir]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.err).toMatch(/no site named "Nope".*"Team"/);
    const removed = await runCli(['sites', 'remove', 'Team', '--data-dir', dataDir]);
    expect(removed.code).toBe(0);
    expect((await runCli(['sites', 'list', '--data-dir', dataDir])).out).toMatch(/No websites/);
  });
});
