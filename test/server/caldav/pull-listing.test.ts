/**
 * How a first sync lists a calendar (pull.ts): by sync-collection from no token where the server
 * has it (one request, where Radicale answers a depth-1 PROPFIND many times slower), and by
 * PROPFIND when the server refuses that. Either way every resource arrives, and the token taken
 * with the listing makes the next round incremental. Real Radicale; the refusal is a fetch
 * wrapped around the sync's requests, since Radicale itself never refuses.
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverAccount } from '../../../electron/server/caldav/discovery';
import { accountSecretKey, createFileSecretStore } from '../../../electron/server/secrets';
import { openDatabase, closeDatabase } from '../../../electron/server/store/db';
import { createStore } from '../../../electron/server/store';
import { createSyncService } from '../../../electron/server/caldav/service';
import { startRadicale, makeCalendar, putIcs, runCalDavSuites, type CalDavTestServer } from '../../helpers/caldav-servers';
import { tempDir } from '../../helpers/temp-dir';

const N = 120;

interface Seen {
  method: string;
  depth: string | null;
  body: string;
}

/** A data dir syncing `calendarUrl`, its requests recorded; `refuse` answers one instead of the server. */
async function device(dav: CalDavTestServer, calendarUrl: string, refuse?: (r: Seen) => Response | undefined) {
  const dir = tempDir('almanac-pull-listing-');
  const db = openDatabase(join(dir, 'almanac.sqlite'));
  const store = createStore(db);
  const found = await discoverAccount(dav.url, { user: dav.user, password: dav.password });
  const account = store.write(() =>
    store.accounts.add(
      { name: 'r', serverUrl: found.serverUrl, username: dav.user, principalUrl: found.principalUrl, homeUrl: found.homeUrl, createdUtc: new Date().toISOString() },
      found.calendars.map((c) => ({ url: c.url, name: c.displayName, color: c.color, ctag: null, syncToken: null, hasSyncCollection: c.supportsSyncCollection, readOnly: c.readOnly, synced: c.url === calendarUrl })),
    ),
  );
  const secrets = createFileSecretStore(dir);
  secrets.set(accountSecretKey(account.id), dav.password);
  const seen: Seen[] = [];
  const recording: typeof fetch = async (input, init = {}) => {
    const r: Seen = { method: init.method ?? 'GET', depth: new Headers(init.headers).get('depth'), body: typeof init.body === 'string' ? init.body : '' };
    seen.push(r);
    return refuse?.(r) ?? fetch(input, init);
  };
  const service = createSyncService({
    store,
    secrets,
    url: () => ({ origin: 'http://127.0.0.1', apiRoot: 'http://127.0.0.1/cal/events/v1/', settings: store.settings.get() }),
    write: () => ({ lang: 'en', now: new Date(), siteZone: 'UTC' }),
    intervalMs: 0,
    fetch: recording,
  });
  const calendarId = store.accounts.calendars().find((c) => c.url === calendarUrl)!.id;
  return {
    seen,
    async sync() {
      const [report] = await service.syncNow();
      expect(report.error, JSON.stringify(report)).toBeUndefined();
      return report.calendars[0];
    },
    titles: () => (db.prepare("SELECT title FROM events WHERE calendar_id = ? AND status <> 'trash' ORDER BY title").all(calendarId) as Array<{ title: string }>).map((r) => r.title),
    close: () => closeDatabase(db),
  };
}

const isInitialSync = (r: Seen) => r.method === 'REPORT' && /sync-collection/.test(r.body) && !/<[\w:]*sync-token>[^<]/.test(r.body);
const isDepth1Propfind = (r: Seen) => r.method === 'PROPFIND' && r.depth === '1';

describe.runIf(runCalDavSuites)('how a first sync lists a calendar', () => {
  let dav: CalDavTestServer;
  let calendarUrl: string;
  const expected = Array.from({ length: N }, (_, i) => `Event ${String(i).padStart(3, '0')}`).sort();
  beforeAll(async () => {
    dav = await startRadicale();
    calendarUrl = await makeCalendar(dav, 'listed');
    // Written into Radicale's folder: N PUTs would only measure Radicale.
    const folder = join(dav.dir, 'collections', 'collection-root', dav.user, 'listed');
    for (let i = 0; i < N; i++) {
      const day = String((i % 28) + 1).padStart(2, '0');
      const title = `Event ${String(i).padStart(3, '0')}`;
      writeFileSync(join(folder, `e-${i}.ics`), ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//T//EN', 'BEGIN:VEVENT', `UID:e-${i}@t`, 'DTSTAMP:20310101T000000Z', `DTSTART:203103${day}T090000Z`, `DTEND:203103${day}T100000Z`, `SUMMARY:${title}`, 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n'));
    }
  }, 60_000);
  afterAll(async () => {
    await dav?.stop();
  });

  it('by sync-collection from no token: every resource arrives, no depth-1 PROPFIND is made, and the next change comes incrementally', async () => {
    const d = await device(dav, calendarUrl);
    try {
      expect((await d.sync()).received).toEqual({ changed: N, deleted: 0 });
      expect(d.titles()).toEqual(expected);
      expect(d.seen.filter(isInitialSync)).toHaveLength(1);
      expect(d.seen.filter(isDepth1Propfind)).toEqual([]);

      const put = await putIcs(dav, calendarUrl, ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//T//EN', 'BEGIN:VEVENT', 'UID:late@t', 'DTSTAMP:20310101T000000Z', 'DTSTART:20310401T090000Z', 'DTEND:20310401T100000Z', 'SUMMARY:Late one', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n'));
      expect(put.status).toBe(201);
      d.seen.length = 0;
      expect((await d.sync()).received).toEqual({ changed: 1, deleted: 0 });
      expect(d.titles()).toContain('Late one');
      expect(d.seen.filter((r) => isInitialSync(r) || isDepth1Propfind(r))).toEqual([]);
    } finally {
      d.close();
    }
  });

  it('a server that refuses sync-collection from no token is listed by PROPFIND instead: every resource arrives all the same', async () => {
    const refusal = () =>
      new Response('<?xml version="1.0"?><d:error xmlns:d="DAV:"><d:valid-sync-token/></d:error>', { status: 403, headers: { 'Content-Type': 'application/xml' } });
    const d = await device(dav, calendarUrl, (r) => (isInitialSync(r) ? refusal() : undefined));
    try {
      expect((await d.sync()).received).toEqual({ changed: N + 1, deleted: 0 });
      expect(d.titles()).toEqual([...expected, 'Late one'].sort());
      expect(d.seen.filter(isInitialSync)).toHaveLength(1);
      expect(d.seen.filter(isDepth1Propfind)).toHaveLength(1);
      // Nothing changed: nothing moves, and nothing is taken for deleted.
      expect((await d.sync()).received).toEqual({ changed: 0, deleted: 0 });
    } finally {
      d.close();
    }
  });
});
