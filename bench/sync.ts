/**
 * CalDAV sync timings on loopback (not part of `npm run bench` yet), two rows:
 *
 * - `pull`: a Radicale calendar of SYNC_EVENTS events pulled whole into a data dir, then one event
 *   added by a third client and pulled with sync-collection, beside the time Radicale takes to
 *   answer that REPORT alone; then a push of SYNC_PUSHED new events.
 * - `peer`: the first sync of the same SYNC_PEER_EVENTS-resource calendar (3,000 by default, as
 *   clients write them: zones, series with exceptions, all-day, alarms) by Almanac and by
 *   vdirsyncer (the Debian package, into a folder), side by side with their ratio. Each is timed
 *   SYNC_PEER_ROUNDS times, in turn, each time from nothing (a new data dir, a new folder), after
 *   one untimed read of the whole calendar so that neither pays for Radicale's first parse;
 *   medians are printed. vdirsyncer's time is its whole process, start-up included, as a user
 *   waits for it; `discover` is left out.
 *
 * `SYNC_ROWS=peer SYNC_PEER_EVENTS=300 npm run bench:sync` runs one row, smaller (needs radicale
 * and vdirsyncer: see test/helpers/caldav-processes.ts and khal-processes.ts).
 */
import { join } from 'node:path';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { discoverAccount } from '../electron/server/caldav/discovery';
import { accountSecretKey, createFileSecretStore } from '../electron/server/secrets';
import { openDatabase, closeDatabase } from '../electron/server/store/db';
import { createStore } from '../electron/server/store';
import { createSyncService } from '../electron/server/caldav/service';
import { startRadicale, makeCalendar, putIcs, stopAll, type CalDavTestServer } from '../test/helpers/caldav-processes';
import { thirdClient } from '../test/helpers/khal-processes';
import { peerResource, randomName } from './peer-calendar';

const N = Number(process.env.SYNC_EVENTS ?? 2000);

async function device(url: string, user: string, password: string, calendarUrl: string) {
  const dir = mkdtempSync(join(tmpdir(), 'almanac-syncbench-'));
  const db = openDatabase(join(dir, 'almanac.sqlite'));
  const store = createStore(db);
  const found = await discoverAccount(url, { user, password });
  const account = store.write(() =>
    store.accounts.add(
      { name: 'b', serverUrl: found.serverUrl, username: user, principalUrl: found.principalUrl, homeUrl: found.homeUrl, createdUtc: new Date().toISOString() },
      found.calendars.map((c) => ({ url: c.url, name: c.displayName, color: c.color, ctag: null, syncToken: null, hasSyncCollection: c.supportsSyncCollection, readOnly: c.readOnly, synced: c.url === calendarUrl })),
    ),
  );
  const secrets = createFileSecretStore(dir);
  secrets.set(accountSecretKey(account.id), password);
  const calendar = store.accounts.calendars().find((c) => c.url === calendarUrl)!.id;
  const service = createSyncService({ store, secrets, url: () => ({ origin: 'http://127.0.0.1', apiRoot: 'http://127.0.0.1/cal/events/v1/', settings: store.settings.get() }), write: () => ({ lang: 'en', now: new Date(), siteZone: 'UTC' }), intervalMs: 0 });
  return { store, calendar, service, close: () => closeDatabase(db) };
}

const time = async <T>(label: string, fn: () => Promise<T>): Promise<T> => {
  const t0 = performance.now();
  const out = await fn();
  console.log(`${label}: ${(performance.now() - t0).toFixed(0)} ms`);
  return out;
};

const PUSHED = Number(process.env.SYNC_PUSHED ?? 200);
const ROWS = new Set((process.env.SYNC_ROWS ?? 'pull,peer').split(','));
const PEER_N = Number(process.env.SYNC_PEER_EVENTS ?? 3000);
const PEER_ROUNDS = Number(process.env.SYNC_PEER_ROUNDS ?? 3);

async function pullRow(dav: CalDavTestServer): Promise<void> {
  const calendarUrl = await makeCalendar(dav, 'bench');
  // The server's calendar is written straight into Radicale's folder: N PUTs would measure Radicale.
  const folder = join(dav.dir, 'collections', 'collection-root', dav.user, 'bench');
  for (let i = 0; i < N; i++) {
    const day = String((i % 28) + 1).padStart(2, '0');
    const month = String((i % 12) + 1).padStart(2, '0');
    writeFileSync(join(folder, `e-${i}.ics`), ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//T//EN', 'BEGIN:VEVENT', `UID:e-${i}`, 'DTSTAMP:20310101T000000Z', `DTSTART:2031${month}${day}T090000Z`, `DTEND:2031${month}${day}T100000Z`, `SUMMARY:Event ${i}`, 'LOCATION:Room 1', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n'));
  }
  await time('Radicale alone: first listing of the new files (its cache)', async () => {
    const res = await fetch(calendarUrl, { method: 'PROPFIND', headers: { ...dav.authHeader(), Depth: '1' } });
    await res.text();
  });
  const b = await device(dav.url, dav.user, dav.password, calendarUrl);
  const pulled = await time(`initial pull of ${N} events`, () => b.service.syncNow());
  console.log(JSON.stringify(pulled[0].calendars[0].received), pulled[0].error ?? '');
  const idle = await time('second round, nothing changed', () => b.service.syncNow());
  console.log(JSON.stringify(idle[0].calendars[0].received), idle[0].error ?? '');
  const put = await putIcs(dav, calendarUrl, ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//T//EN', 'BEGIN:VEVENT', 'UID:bench-third', 'DTSTAMP:20310101T000000Z', 'DTSTART:20310310T090000Z', 'DTEND:20310310T100000Z', 'SUMMARY:One more', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n'));
  if (put.status !== 201) throw new Error(`PUT ${put.status}`);
  const token = b.store.accounts.calendars().find((c) => c.url === calendarUrl)!.sync_token!;
  await time('Radicale alone: the sync-collection REPORT for that change', async () => {
    const res = await fetch(calendarUrl, { method: 'REPORT', headers: { ...dav.authHeader(), Depth: '1', 'Content-Type': 'application/xml' }, body: `<?xml version="1.0"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>${token}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>` });
    await res.text();
  });
  const inc = await time(`incremental round, 1 new event in ${N + 1} (sync-collection)`, () => b.service.syncNow());
  console.log(JSON.stringify(inc[0].calendars[0].received), inc[0].error ?? '');
  const a = await device(dav.url, dav.user, dav.password, calendarUrl);
  await a.service.syncNow();
  a.store.write(() => {
    for (let i = 0; i < PUSHED; i++) a.store.events.create({ title: `Pushed ${i}`, start_date: '2031-11-02 10:00:00', end_date: '2031-11-02 11:00:00', calendar: a.calendar }, { lang: 'en', now: new Date(), siteZone: 'UTC' });
  });
  const pushed = await time(`push of ${PUSHED} new events (PUT, then GET back each)`, () => a.service.syncNow());
  console.log(JSON.stringify(pushed[0].calendars[0].sent), pushed[0].error ?? '');
  a.close();
  b.close();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function peerRow(dav: CalDavTestServer): Promise<void> {
  const calendarUrl = await makeCalendar(dav, 'peer');
  const folder = join(dav.dir, 'collections', 'collection-root', dav.user, 'peer');
  for (let i = 0; i < PEER_N; i++) writeFileSync(join(folder, `${randomName(i)}.ics`), peerResource(i));
  // One untimed read of every resource: Radicale parses and caches each file the first time.
  const warm = await fetch(calendarUrl, { method: 'REPORT', headers: { ...dav.authHeader(), Depth: '1', 'Content-Type': 'application/xml' }, body: '<?xml version="1.0"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"/></c:filter></c:calendar-query>' });
  await warm.text();
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let round = 0; round < PEER_ROUNDS; round++) {
    const client = thirdClient(calendarUrl, dav.user, dav.password, { timeoutMs: 600_000 });
    await client.discover();
    const synced = await client.sync();
    const files = client.files().size;
    client.remove();
    if (files !== PEER_N) throw new Error(`vdirsyncer synced ${files} of ${PEER_N} resources`);
    theirs.push(synced.ms);

    const d = await device(dav.url, dav.user, dav.password, calendarUrl);
    const t0 = performance.now();
    const [report] = await d.service.syncNow();
    ours.push(performance.now() - t0);
    d.close();
    if (report.error || report.calendars[0].received.changed !== PEER_N) throw new Error(`Almanac's first sync: ${JSON.stringify(report)}`);
    console.log(`  round ${round + 1}: Almanac ${ours[round].toFixed(0)} ms, vdirsyncer ${theirs[round].toFixed(0)} ms`);
  }
  const a = median(ours);
  const v = median(theirs);
  console.log(`first sync of ${PEER_N} resources (median of ${PEER_ROUNDS}): Almanac ${a.toFixed(0)} ms | vdirsyncer ${v.toFixed(0)} ms | Almanac/vdirsyncer ${(a / v).toFixed(2)}×`);
}

const dav = await startRadicale();
try {
  if (ROWS.has('pull')) await pullRow(dav);
  if (ROWS.has('peer')) await peerRow(dav);
} finally {
  await stopAll();
}
