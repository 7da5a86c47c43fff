/**
 * The sync when things go wrong, against Radicale and Xandikos: the process killed (-9) in the
 * middle of a round, a sync token the server no longer honours, a resource deleted there while
 * changed here. In each, nothing is lost and nothing is duplicated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join, resolve } from 'node:path';
import { discoverAccount } from '../../../electron/server/caldav/discovery';
import { accountSecretKey, createFileSecretStore } from '../../../electron/server/secrets';
import { DB_FILE } from '../../../electron/server/data-dir';
import { openDatabase, closeDatabase } from '../../../electron/server/store/db';
import { createStore, type Store } from '../../../electron/server/store';
import { createSyncService } from '../../../electron/server/caldav/service';
import type { SyncReport } from '../../../electron/server/caldav/sync';
import { startRadicale, startXandikos, makeCalendar, putIcs, deleteResource, getResource, runCalDavSuites, type CalDavTestServer } from '../../helpers/caldav-servers';
import { tempDir } from '../../helpers/temp-dir';

const root = resolve(import.meta.dirname, '../../..');

/** A data directory with the account, its password in the owner-only file, syncing one calendar. */
async function dataDirFor(dav: CalDavTestServer, calendarUrl: string): Promise<{ dir: string; calendar: number }> {
  const dir = tempDir('almanac-sync-rec-');
  const found = await discoverAccount(dav.url, { user: dav.user, password: dav.password });
  const db = openDatabase(join(dir, DB_FILE));
  const store = createStore(db);
  const account = store.write(() =>
    store.accounts.add(
      { name: 'main', serverUrl: found.serverUrl, username: dav.user, principalUrl: found.principalUrl, homeUrl: found.homeUrl, createdUtc: new Date().toISOString() },
      found.calendars.map((c) => ({ url: c.url, name: c.displayName, color: c.color, ctag: null, syncToken: null, hasSyncCollection: c.supportsSyncCollection, readOnly: c.readOnly, synced: c.url === calendarUrl })),
    ),
  );
  createFileSecretStore(dir).set(accountSecretKey(account.id), dav.password);
  const calendar = store.accounts.calendars().find((c) => c.url === calendarUrl)!.id;
  closeDatabase(db);
  return { dir, calendar };
}

/** Runs `fn` on the data directory's store, then one sync round there. */
async function withDir<T>(dir: string, fn: (store: Store) => T): Promise<{ value: T; report: SyncReport }>;
async function withDir<T>(dir: string, fn: (store: Store) => T, sync: false): Promise<{ value: T }>;
async function withDir<T>(dir: string, fn: (store: Store) => T, sync = true): Promise<{ value: T; report?: SyncReport }> {
  const db = openDatabase(join(dir, DB_FILE));
  try {
    const store = createStore(db);
    const value = fn(store);
    if (!sync) return { value };
    const service = createSyncService({
      store,
      secrets: createFileSecretStore(dir),
      url: () => ({ origin: 'http://127.0.0.1', apiRoot: 'http://127.0.0.1/cal/events/v1/', settings: store.settings.get() }),
      write: () => ({ lang: 'en', now: new Date(), siteZone: 'UTC' }),
      intervalMs: 0,
    });
    const [report] = await service.syncNow();
    await service.close();
    return { value, report };
  } finally {
    closeDatabase(db);
  }
}

const ctx = { lang: 'en' as const, now: new Date(), siteZone: 'UTC' };

async function listing(dav: CalDavTestServer, calendarUrl: string): Promise<string[]> {
  const res = await fetch(calendarUrl, { method: 'PROPFIND', headers: { ...dav.authHeader(), Depth: '1', 'Content-Type': 'application/xml' }, body: '<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>' });
  return [...(await res.text()).matchAll(/<(?:\w+:)?href>([^<]+\.ics)<\/(?:\w+:)?href>/g)].map((m) => new URL(m[1], calendarUrl).href);
}

for (const kind of ['radicale', 'xandikos'] as const) {
  describe.runIf(runCalDavSuites)(`sync recovery with ${kind}`, { timeout: 60_000 }, () => {
    let dav: CalDavTestServer;
    beforeAll(async () => {
      dav = kind === 'radicale' ? await startRadicale() : await startXandikos();
    }, 60_000);
    afterAll(() => dav?.stop());

    it('killed (-9) in the middle of sending 40 events, then synced again: every event once on the server, nothing waiting', async () => {
      const calendarUrl = await makeCalendar(dav, 'crash');
      const { dir, calendar } = await dataDirFor(dav, calendarUrl);
      await withDir(dir, (store) => store.write(() => {
        for (let i = 0; i < 40; i++) store.events.create({ title: `Crash ${i}`, start_date: `2031-03-${String((i % 28) + 1).padStart(2, '0')} 10:00:00`, end_date: `2031-03-${String((i % 28) + 1).padStart(2, '0')} 11:00:00`, calendar }, ctx);
      }), false);

      const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'electron/cli.ts'), 'sync', '--data-dir', dir], { cwd: root, stdio: 'ignore' });
      const exited = new Promise((done) => child.once('exit', done));
      // Killed once some of the events are on the server: mid-round, wherever it is.
      const deadline = Date.now() + 30_000;
      while ((await listing(dav, calendarUrl)).length < 5 && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
      child.kill('SIGKILL');
      await exited;
      const before = (await listing(dav, calendarUrl)).length;
      // Mid-round: some sent, not all.
      expect(before).toBeGreaterThan(0);
      expect(before).toBeLessThan(40);

      const { report } = await withDir(dir, () => undefined);
      expect(report.ok, JSON.stringify(report)).toBe(true);
      // The events sent before the kill but not recorded meet their own copy: no conflict, no copy.
      expect(report.calendars[0].conflicts).toBe(0);
      const hrefs = await listing(dav, calendarUrl);
      expect(hrefs).toHaveLength(40);
      const titles = new Set<string>();
      for (const href of hrefs) titles.add(/SUMMARY:(.*)\r?\n/.exec((await getResource(dav, href)).text)![1]);
      expect(titles.size).toBe(40);
      const { value } = await withDir(dir, (store) => ({
        waiting: store.db.prepare('SELECT count(*) FROM dav_outbox').pluck().get(),
        events: store.db.prepare('SELECT count(*) FROM events WHERE calendar_id = ?').pluck().get(calendar),
        conflicts: store.davSync.conflicts().length,
      }), false);
      expect(value).toEqual({ waiting: 0, events: 40, conflicts: 0 });
      const again = await withDir(dir, () => undefined);
      expect(again.report.calendars[0].sent).toEqual({ created: 0, updated: 0, deleted: 0 });
      expect(again.report.calendars[0].received).toEqual({ changed: 0, deleted: 0 });
    });

    it('a sync token the server no longer honours: a full listing instead, and the changes made meanwhile arrive', async () => {
      const calendarUrl = await makeCalendar(dav, 'tokens');
      const { dir } = await dataDirFor(dav, calendarUrl);
      await withDir(dir, () => undefined);
      const ics = (uid: string, title: string) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//T//EN', 'BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20310101T000000Z', 'DTSTART:20310410T090000Z', 'DTEND:20310410T100000Z', `SUMMARY:${title}`, 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
      expect((await putIcs(dav, calendarUrl, ics('tok-1', 'Before'))).status).toBe(201);
      const first = await withDir(dir, (store) => store.accounts.calendars().find((c) => c.url === calendarUrl)!);
      expect(first.report.calendars[0].received.changed).toBe(1);
      const token = (await withDir(dir, (store) => store.accounts.calendars().find((c) => c.url === calendarUrl)!.sync_token, false)).value;
      expect(token).toBeTruthy();

      // The server forgot the token (pruned, or a restore from backup); meanwhile a third client changed things.
      await withDir(dir, (store) => store.db.prepare('UPDATE calendars SET sync_token = ? WHERE url = ?').run(`${token}-gone`, calendarUrl), false);
      const [href] = await listing(dav, calendarUrl);
      expect([200, 204]).toContain(await deleteResource(dav, href));
      expect((await putIcs(dav, calendarUrl, ics('tok-2', 'After'))).status).toBe(201);
      const { report } = await withDir(dir, () => undefined);
      expect(report.ok, JSON.stringify(report)).toBe(true);
      expect(report.calendars[0].received).toEqual({ changed: 1, deleted: 1 });
      const titles = (await withDir(dir, (store) => store.db.prepare("SELECT title FROM events WHERE status <> 'trash' ORDER BY title").pluck().all(), false)).value;
      expect(titles).toEqual(['After']);
      // A fresh token was saved: the next round asks for changes only, and there are none.
      const next = await withDir(dir, (store) => store.accounts.calendars().find((c) => c.url === calendarUrl)!.sync_token);
      expect(next.value).not.toBe(`${token}-gone`);
      expect(next.report.calendars[0].received).toEqual({ changed: 0, deleted: 0 });
    });

    it.runIf(kind === 'radicale')('a calendar of 600 events is pulled in batches: the event loop is never held for long', async () => {
      const calendarUrl = await makeCalendar(dav, 'large');
      // Written straight into Radicale's folder: 600 PUTs would take minutes on a busy machine.
      const folder = join(dav.dir, 'collections', 'collection-root', dav.user, 'large');
      for (let i = 0; i < 600; i++) {
        const day = String((i % 28) + 1).padStart(2, '0');
        writeFileSync(join(folder, `big-${i}.ics`), ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//T//EN', 'BEGIN:VEVENT', `UID:big-${i}`, 'DTSTAMP:20310101T000000Z', `DTSTART:202106${day}T090000Z`.replace('2021', '2031'), `DTEND:202106${day}T100000Z`.replace('2021', '2031'), `SUMMARY:Big ${i}`, 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n'));
      }
      // Radicale reads the new files once (its item cache) before it answers: not part of the pull.
      await listing(dav, calendarUrl);
      const { dir } = await dataDirFor(dav, calendarUrl);
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      const started = performance.now();
      const { report } = await withDir(dir, () => undefined);
      const total = performance.now() - started;
      delay.disable();
      expect(report.ok, JSON.stringify(report)).toBe(true);
      expect(report.calendars[0].received.changed).toBe(600);
      // The longest time requests would have waited is a small part of the whole pull.
      const longest = delay.max / 1e6;
      console.log(`[sync] pulled 600 events in ${total.toFixed(0)} ms; the event loop was held ${longest.toFixed(0)} ms at most`);
      expect(longest).toBeLessThan(total / 4);
      const again = await withDir(dir, () => undefined);
      expect(again.report.calendars[0].received).toEqual({ changed: 0, deleted: 0 });
    });

    it('deleted there while changed here: the local change wins over the deletion and the event is created again', async () => {
      const calendarUrl = await makeCalendar(dav, 'resurrect');
      const { dir, calendar } = await dataDirFor(dav, calendarUrl);
      const { value: id } = await withDir(dir, (store) => store.write(() => store.events.create({ title: 'Keep me', start_date: '2031-05-01 10:00:00', end_date: '2031-05-01 11:00:00', calendar }, ctx)));
      const [href] = await listing(dav, calendarUrl);
      expect([200, 204]).toContain(await deleteResource(dav, href));
      const { report } = await withDir(dir, (store) => store.write(() => store.events.update(id, { title: 'Keep me, edited' }, ctx)));
      expect(report.ok, JSON.stringify(report)).toBe(true);
      expect(report.calendars[0].sent.created).toBe(1);
      const hrefs = await listing(dav, calendarUrl);
      expect(hrefs).toHaveLength(1);
      expect((await getResource(dav, hrefs[0])).text).toContain('SUMMARY:Keep me\\, edited');
    });
  });
}
