/**
 * `npm run cli -- sync` against a real Radicale: on a data directory (no app running) and through
 * a running app; it prints what moved each way and exits non-zero when the sync failed.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, silentLogger } from '../../electron/server';
import { DB_FILE } from '../../electron/server/data-dir';
import { openDatabase, closeDatabase } from '../../electron/server/store/db';
import { createStore } from '../../electron/server/store';
import { tempDir } from '../helpers/temp-dir';
import { startRadicale, makeCalendar, putIcs, getResource, runCalDavSuites, type CalDavTestServer } from '../helpers/caldav-servers';
import { runCli } from '../helpers/cli';


const cli = (args: string[], stdin?: string) => runCli(args, { stdin });

describe.skipIf(!runCalDavSuites)('CLI sync', { timeout: 90_000 }, () => {
  let radicale: CalDavTestServer;
  let calendarUrl: string;
  let dataDir: string;
  beforeAll(async () => {
    radicale = await startRadicale();
    calendarUrl = await makeCalendar(radicale, 'home', { displayName: 'Home' });
    dataDir = tempDir('almanac-cli-sync-');
    const pw = join(dataDir, '..', `pw-${Date.now()}`);
    writeFileSync(pw, `${radicale.password}\n`, { mode: 0o600 });
    const added = await cli(['accounts', 'add', '--url', radicale.url, '--user', radicale.user, '--name', 'home', '--password-file', pw, '--data-dir', dataDir]);
    expect(added.code, added.err).toBe(0);
  });
  afterAll(async () => {
    await radicale?.stop();
  });

  it('on a data directory: sends a local event, prints it, and takes a third client’s', async () => {
    const db = openDatabase(join(dataDir, DB_FILE));
    const store = createStore(db);
    const calendar = store.accounts.calendars().find((c) => c.url === calendarUrl)!.id;
    store.write(() => store.events.create({ title: 'Piano lesson', start_date: '2031-02-03 17:00:00', end_date: '2031-02-03 18:00:00', calendar }, { lang: 'en', now: new Date(), siteZone: 'UTC' }));
    closeDatabase(db);

    const first = await cli(['sync', '--data-dir', dataDir]);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain('home: synced');
    expect(first.out).toContain('Home: sent 1 new, 0 changed, 0 deleted; received 0 new or changed, 0 deleted');

    const put = await putIcs(radicale, calendarUrl, ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', 'BEGIN:VEVENT', 'UID:cli-third@example.org', 'DTSTAMP:20310101T000000Z', 'DTSTART:20310204T090000Z', 'DTEND:20310204T100000Z', 'SUMMARY:Call the bank', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n'));
    expect(put.status).toBe(201);
    const second = await cli(['sync', '--account', 'HOME', '--data-dir', dataDir]);
    expect(second.code, second.err).toBe(0);
    expect(second.out).toContain('received 1 new or changed, 0 deleted');
    const list = await cli(['accounts', 'list', '--data-dir', dataDir]);
    expect(list.out).toMatch(/last synced: 20\d\d-\d\d-\d\dT[\d:.]+Z; changes waiting to be sent: 0/);
    const check = openDatabase(join(dataDir, DB_FILE));
    expect(check.prepare("SELECT count(*) FROM events WHERE title = 'Call the bank'").pluck().get()).toBe(1);
    closeDatabase(check);
  });

  it('exits 1 and says why when the server cannot be reached, or the account does not exist', async () => {
    await radicale.halt();
    try {
      const down = await cli(['sync', '--data-dir', dataDir]);
      expect(down.code).toBe(1);
      expect(down.out).toMatch(/home: FAILED: .*connection refused/i);
      // The error is kept as a message key: listed in words, in the language asked for.
      const listed = await cli(['accounts', 'list', '--lang', 'pt-br', '--data-dir', dataDir]);
      expect(listed.out).toMatch(/last error: Não foi possível alcançar 127\.0\.0\.1:\d+ \(connection refused/);
    } finally {
      await radicale.resume();
    }
    const unknown = await cli(['sync', '--account', 'nope', '--data-dir', dataDir]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('There is no account named "nope"');
  });

  it('through the running app: the app does the round, the command prints it', async () => {
    // No round of the app's own after the change (5 s later by default): on a busy machine the
    // command takes longer than that to start, and the app's round would send the event first.
    const app = await createServer({ dataDir, port: 0, log: silentLogger, syncIntervalMs: 0, syncDebounceMs: 0 });
    try {
      const created = await fetch(`${app.apiRoot}events`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${app.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: 'From the app', start_date: '2031-02-05 08:00:00', end_date: '2031-02-05 09:00:00', calendar: app.store.accounts.calendars().find((c) => c.url === calendarUrl)!.id }),
      });
      expect(created.status).toBe(201);
      const run = await cli(['sync', '--data-dir', dataDir]);
      expect(run.code, run.err).toBe(0);
      expect(run.out).toContain('Home: sent 1 new');
      // The app's own service ran the round (the command did not sync the file behind its back).
      expect(app.sync.status().accounts[0].last_round?.calendars[0].sent.created).toBe(1);
      const uid = app.db.prepare("SELECT ics_uid FROM events WHERE title = 'From the app'").pluck().get() as string;
      expect((await getResource(radicale, new URL(`${uid}.ics`, calendarUrl).href)).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
