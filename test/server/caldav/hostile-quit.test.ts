/**
 * Quitting never waits on a CalDAV server that stopped answering (issue 25): `npm run serve`
 * syncing an account whose server holds every request open stops at once on SIGTERM, its round's
 * requests aborted (it waited out the 180-second request limit before). The Electron main process
 * quits through the same `server.close()`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { discoverAccount } from '../../../electron/server/caldav/discovery';
import { accountSecretKey, createFileSecretStore } from '../../../electron/server/secrets';
import { DB_FILE } from '../../../electron/server/data-dir';
import { openDatabase, closeDatabase } from '../../../electron/server/store/db';
import { createStore } from '../../../electron/server/store';
import { calendarText, startHostileCalDav, vevent, type HostileCalDav } from '../../helpers/hostile-caldav';
import { tempDir } from '../../helpers/temp-dir';

const root = resolve(import.meta.dirname, '../../..');

let dav: HostileCalDav;
beforeAll(async () => {
  dav = await startHostileCalDav();
});
afterAll(() => dav.close());

describe('a hung CalDAV server', () => {
  it('SIGTERM of the headless server mid-round: it exits within seconds', { timeout: 60_000 }, async () => {
    dav.put('a.ics', calendarText(vevent('a', 'Alpha')));
    const dir = tempDir('almanac-hung-');
    const found = await discoverAccount(dav.url, { user: dav.user, password: dav.password });
    const db = openDatabase(join(dir, DB_FILE));
    const store = createStore(db);
    const account = store.write(() =>
      store.accounts.add(
        { name: 'hung', serverUrl: found.serverUrl, username: dav.user, principalUrl: found.principalUrl, homeUrl: found.homeUrl, createdUtc: new Date().toISOString() },
        found.calendars.map((c) => ({ url: c.url, name: c.displayName, color: c.color, ctag: null, syncToken: null, hasSyncCollection: false, readOnly: false, synced: true })),
      ),
    );
    closeDatabase(db);
    createFileSecretStore(dir).set(accountSecretKey(account.id), dav.password);
    // Every request of the calendar is taken and never answered.
    dav.misbehave = (req) => (req.path.startsWith('/home/cal/') ? 'hang' : false);

    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'electron/cli.ts'), 'serve', '--data-dir', dir, '--port', '0'], { cwd: root, stdio: 'ignore' });
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    const deadline = Date.now() + 30_000;
    // The round on start reaches the calendar, and waits there.
    while (!dav.requests.some((r) => r.path.startsWith('/home/cal/')) && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 20));
    expect(dav.requests.some((r) => r.path.startsWith('/home/cal/'))).toBe(true);
    child.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<'hung'>((ok) => setTimeout(() => ok('hung'), 10_000))]);
    if (code === 'hung') child.kill('SIGKILL');
    // Exited, cleanly, long before the round's request limit (180 s) could have ended it.
    expect(code).toBe(0);
  });
});
