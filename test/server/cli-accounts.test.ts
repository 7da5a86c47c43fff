/**
 * `npm run cli -- accounts add|list|remove` against a real Radicale with basic auth: the
 * calendars found are listed and stored, the password never lands in the database, an export or
 * any output, and a refused login stores nothing.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, silentLogger } from '../../electron/server';
import { DB_FILE } from '../../electron/server/data-dir';
import { SECRETS_FILE } from '../../electron/server/secrets';
import { openDatabase, closeDatabase } from '../../electron/server/store/db';
import { tempDir } from '../helpers/temp-dir';
import { startRadicale, makeCalendar, runCalDavSuites, type CalDavTestServer } from '../helpers/caldav-servers';
import { runCli } from '../helpers/cli';

const PASSWORD = 'Zebra-€-pässwörd-7f3a';

const outputs: string[] = [];
async function cli(args: string[], stdin?: string, env: Record<string, string> = {}) {
  const res = await runCli(args, { stdin, env });
  outputs.push(res.out, res.err);
  return res;
}

/** Every file of the data dir as bytes (the database and its journal included). */
function assertPasswordOnlyIn(dir: string, allowed: string[]) {
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    if (!statSync(path).isFile()) continue;
    const holds = readFileSync(path).includes(Buffer.from(PASSWORD, 'utf8'));
    expect(holds, `${name} ${holds ? 'holds' : 'lacks'} the password`).toBe(allowed.includes(name));
  }
}

describe.skipIf(!runCalDavSuites)('CLI accounts', { timeout: 90_000 }, () => {
  let radicale: CalDavTestServer;
  beforeAll(async () => {
    radicale = await startRadicale({ user: 'alice', password: PASSWORD });
    await makeCalendar(radicale, 'work', { displayName: 'Work', color: '#FF2968FF' });
    await makeCalendar(radicale, 'family', { displayName: 'Family', color: '#1BADF8' });
  });
  afterAll(async () => {
    await radicale?.stop();
    // Whatever happened in the tests, no command ever printed the password, nor the header it travels in.
    const header = Buffer.from(`alice:${PASSWORD}`, 'utf8').toString('base64');
    for (const text of outputs) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(header);
    }
  });

  it('adds an account from a password file, lists its calendars with colours, and keeps the password out of the database', async () => {
    const dir = tempDir('almanac-accounts-');
    const pwFile = join(tempDir('almanac-pw-'), 'pw');
    writeFileSync(pwFile, `${PASSWORD}\n`, { mode: 0o600 });
    const added = await cli(['accounts', 'add', '--url', radicale.url, '--user', 'alice', '--name', 'Home server', '--password-file', pwFile, '--data-dir', dir]);
    expect(added.code, added.err).toBe(0);
    expect(added.out).toMatch(/Added account "Home server" \(alice at http:\/\/127\.0\.0\.1:\d+\/\) with 2 calendars/);
    expect(added.out).toMatch(/Family\s+#1badf8\s+synced\s+http:\/\/127\.0\.0\.1:\d+\/alice\/family\//);
    expect(added.out).toMatch(/Work\s+#ff2968\s+synced/);
    expect(added.out).toMatch(/readable by you only/);
    expect(added.err).toBe('');

    expect(statSync(join(dir, SECRETS_FILE)).mode & 0o777).toBe(0o600);
    assertPasswordOnlyIn(dir, [SECRETS_FILE]);
    const db = openDatabase(join(dir, DB_FILE));
    try {
      const calendars = db.prepare('SELECT name, color, synced, account_id, has_sync_collection, ctag, sync_token FROM calendars ORDER BY id').all();
      // No ctag or sync-token yet: the first sync must be a full one, not "nothing changed since".
      expect(calendars).toEqual([
        { name: 'On this computer', color: null, synced: 1, account_id: null, has_sync_collection: 0, ctag: null, sync_token: null },
        { name: 'Family', color: '#1badf8', synced: 1, account_id: 1, has_sync_collection: 1, ctag: null, sync_token: null },
        { name: 'Work', color: '#ff2968', synced: 1, account_id: 1, has_sync_collection: 1, ctag: null, sync_token: null },
      ]);
    } finally {
      closeDatabase(db);
    }

    const list = await cli(['accounts', 'list', '--data-dir', dir]);
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/^Home server: alice at http:\/\/127\.0\.0\.1:\d+\/\n/);
    expect(list.out).toMatch(/Work\s+#ff2968\s+synced/);

    // A running Almanac on the same data dir: its backup export carries no password either.
    const server = await createServer({ dataDir: dir, port: 0, log: silentLogger, announce: false });
    try {
      const res = await fetch(`${server.apiRoot}export?format=json`, { headers: { Authorization: `Bearer ${server.token}` } });
      expect(res.status).toBe(200);
      expect(await res.text()).not.toContain(PASSWORD);
      expect(server.secrets?.get('caldav:1')).toBe(PASSWORD);
    } finally {
      await server.close();
    }
    assertPasswordOnlyIn(dir, [SECRETS_FILE]);

    const dup = await cli(['accounts', 'add', '--url', radicale.url, '--user', 'alice', '--name', 'home SERVER', '--password-file', pwFile, '--data-dir', dir]);
    expect(dup.code).toBe(1);
    expect(dup.err).toMatch(/already an account named "home SERVER"/);

    const removed = await cli(['accounts', 'remove', 'Home server', '--data-dir', dir]);
    expect(removed.code, removed.err).toBe(0);
    expect(removed.out).toMatch(/Removed account "Home server"/);
    expect(existsSync(join(dir, SECRETS_FILE))).toBe(false);
    expect((await cli(['accounts', 'list', '--data-dir', dir])).out).toMatch(/No CalDAV accounts/);
    expect((await cli(['accounts', 'remove', 'Home server', '--data-dir', dir])).err).toMatch(/no account named "Home server"/);
  });

  it('reads the password from standard input, and syncs only the calendars named', async () => {
    const dir = tempDir('almanac-accounts-');
    // With every debug log of the libraries turned on (tsdav logs through `debug`).
    const res = await cli(['accounts', 'add', '--url', `127.0.0.1:${radicale.port}`, '--user', 'alice', '--calendars', 'work', '--data-dir', dir], `${PASSWORD}\n`, { DEBUG: '*' });
    expect(res.code, res.err).toBe(0);
    expect(res.err).toMatch(/tsdav:/);
    // Named after the server's host when no --name is given.
    expect(res.out).toMatch(/Added account "127\.0\.0\.1:\d+"/);
    expect(res.out).toMatch(/Family\s+#1badf8\s+not synced/);
    expect(res.out).toMatch(/Work\s+#ff2968\s+synced/);
    assertPasswordOnlyIn(dir, [SECRETS_FILE]);

    const unknown = await cli(['accounts', 'add', '--url', radicale.url, '--user', 'alice', '--name', 'x', '--calendars', 'Holidays', '--data-dir', dir], `${PASSWORD}\n`);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/no calendar "Holidays". It has: "Family", "Work"/);
  });

  it('stores nothing when the server refuses the password, and says so in the language asked for', async () => {
    const dir = tempDir('almanac-accounts-');
    const res = await cli(['accounts', 'add', '--url', radicale.url, '--user', 'alice', '--lang', 'es', '--data-dir', dir], 'not-the-password\n');
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/rechazó el usuario o la contraseña/);
    expect(res.err).not.toContain('not-the-password');
    expect(existsSync(join(dir, SECRETS_FILE))).toBe(false);
    expect((await cli(['accounts', 'list', '--data-dir', dir])).out).toMatch(/No CalDAV accounts/);

    const empty = await cli(['accounts', 'add', '--url', radicale.url, '--user', 'alice', '--data-dir', dir], '');
    expect(empty.code).toBe(1);
    expect(empty.err).toMatch(/no password on standard input/);
  });
});
