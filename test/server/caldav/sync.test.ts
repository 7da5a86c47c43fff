/**
 * Two-way CalDAV sync (issue 17) between two Almanac data dirs (A and B, each a real Almanac
 * server) through one real CalDAV server: Radicale (basic auth) and Xandikos, the same scenario
 * on each. Edits go through the API as a user's would; what the server holds is read back raw.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverAccount } from '../../../electron/server/caldav/discovery';
import { accountSecretKey } from '../../../electron/server/secrets';
import type { SyncReport } from '../../../electron/server/caldav/sync';
import { OWNER_RIGHTS, startRadicale, startXandikos, makeCalendar, putIcs, getResource, deleteResource, runCalDavSuites, type CalDavTestServer } from '../../helpers/caldav-servers';
import { startTestServer, type TestServer } from '../../helpers/server';
import { unfold } from '../../helpers/ics';

/** An Almanac data dir with the CalDAV account, syncing one calendar. */
interface Device {
  t: TestServer;
  calendar: number;
  sync(): Promise<SyncReport>;
}

async function device(dav: CalDavTestServer, calendarUrl: string, debounceMs = 0): Promise<Device> {
  const t = await startTestServer({ syncIntervalMs: 0, syncDebounceMs: debounceMs });
  const found = await discoverAccount(dav.url, { user: dav.user, password: dav.password });
  const store = t.server.store;
  const account = store.write(() =>
    store.accounts.add(
      { name: 'test', serverUrl: found.serverUrl, username: dav.user, principalUrl: found.principalUrl, homeUrl: found.homeUrl, createdUtc: new Date().toISOString() },
      found.calendars.map((c) => ({ url: c.url, name: c.displayName, color: c.color, ctag: null, syncToken: null, hasSyncCollection: c.supportsSyncCollection, readOnly: c.readOnly, synced: c.url === calendarUrl })),
    ),
  );
  t.server.secrets!.set(accountSecretKey(account.id), dav.password);
  const calendar = store.accounts.calendars().find((c) => c.url === calendarUrl)!.id;
  return {
    t,
    calendar,
    async sync() {
      const [report] = await t.server.sync.syncNow([account.id]);
      expect(report.error, JSON.stringify(report)).toBeUndefined();
      return report;
    },
  };
}

const WINDOW = { start_date: '2031-01-01', end_date: '2033-01-01', per_page: '50' };

async function eventsOf(d: Device, query: Record<string, string> = {}) {
  const res = await d.t.api('get', 'events').query({ ...WINDOW, calendar: String(d.calendar), ...query });
  expect(res.status).toBe(200);
  return res.body.events as Array<Record<string, any>>;
}

const byTitle = async (d: Device, title: string) => (await eventsOf(d)).filter((e) => e.title === title);

/** The server's resources of the calendar: href → text. */
async function serverCopies(dav: CalDavTestServer, calendarUrl: string): Promise<Map<string, string>> {
  const res = await fetch(calendarUrl, { method: 'PROPFIND', headers: { ...dav.authHeader(), Depth: '1', 'Content-Type': 'application/xml' }, body: '<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>' });
  const xml = await res.text();
  const hrefs = [...xml.matchAll(/<(?:\w+:)?href>([^<]+\.ics)<\/(?:\w+:)?href>/g)].map((m) => new URL(m[1], calendarUrl).href);
  const out = new Map<string, string>();
  for (const href of hrefs) out.set(href, (await getResource(dav, href)).text);
  return out;
}


for (const kind of ['radicale', 'xandikos'] as const) {
  describe.runIf(runCalDavSuites)(`two-way sync through ${kind}`, () => {
    let dav: CalDavTestServer;
    let calendarUrl: string;
    let a: Device;
    let b: Device;
    beforeAll(async () => {
      // Radicale reads a rights file (owner-only to start with) so that a test can take write access away.
      dav = kind === 'radicale' ? await startRadicale({ rights: OWNER_RIGHTS }) : await startXandikos();
      calendarUrl = await makeCalendar(dav, 'shared', { displayName: 'Shared', color: '#ff8800' });
      a = await device(dav, calendarUrl);
      b = await device(dav, calendarUrl);
    }, 60_000);
    afterAll(async () => {
      await a?.t.close();
      await b?.t.close();
      await dav?.stop();
    });

    it('create on A → on the server with its UUID and on B after a sync; a second sync moves nothing', async () => {
      const res = await a.t.api('post', 'events').send({ title: 'Dentist', start_date: '2031-03-04 09:00:00', end_date: '2031-03-04 10:00:00', timezone: 'Europe/Lisbon', calendar: a.calendar, description: 'Bring the card' });
      expect(res.status).toBe(201);
      const pushed = await a.sync();
      expect(pushed.calendars[0].sent.created).toBe(1);
      const copies = [...(await serverCopies(dav, calendarUrl)).values()];
      expect(copies).toHaveLength(1);
      const uid = (a.t.server.db.prepare('SELECT ics_uid FROM events WHERE id = ?').get(res.body.id) as { ics_uid: string }).ics_uid;
      expect(unfold(copies[0])).toContain(`UID:${uid}`);
      expect(copies[0]).not.toMatch(/^METHOD:/m);

      const pulled = await b.sync();
      expect(pulled.calendars[0].received.changed).toBe(1);
      const [onB] = await byTitle(b, 'Dentist');
      expect(onB).toMatchObject({ start_date: '2031-03-04 09:00:00', end_date: '2031-03-04 10:00:00', timezone: 'Europe/Lisbon', calendar: b.calendar });
      expect(onB.description).toContain('Bring the card');

      // Convergence: nothing left to send or take either side.
      for (const d of [a, b]) {
        const again = await d.sync();
        expect(again.calendars[0].sent).toEqual({ created: 0, updated: 0, deleted: 0 });
        expect(again.calendars[0].received).toEqual({ changed: 0, deleted: 0 });
      }
    });

    it('edit on B → on A; the event keeps its id on A', async () => {
      const [onB] = await byTitle(b, 'Dentist');
      const [before] = await byTitle(a, 'Dentist');
      expect((await b.t.api('post', `events/${onB.id}`).send({ title: 'Dentist (moved)', start_date: '2031-03-05 14:00:00', end_date: '2031-03-05 15:00:00' })).status).toBe(200);
      expect((await b.sync()).calendars[0].sent.updated).toBe(1);
      expect((await a.sync()).calendars[0].received.changed).toBe(1);
      const [onA] = await byTitle(a, 'Dentist (moved)');
      expect(onA).toMatchObject({ id: before.id, start_date: '2031-03-05 14:00:00' });
    });

    it('a series with an exception made on B arrives on A as one resource, exception included', async () => {
      const s = await b.t.api('post', 'events').send({ title: 'Yoga', start_date: '2031-04-07 18:00:00', end_date: '2031-04-07 19:00:00', timezone: 'Europe/Berlin', calendar: b.calendar, recurrence: { rules: ['FREQ=WEEKLY;COUNT=6'] } });
      expect(s.status).toBe(201);
      const occ = await eventsOf(b, { post_parent: String(s.body.id) });
      const third = occ.find((o) => o.start_date.startsWith('2031-04-21'))!;
      const moved = await b.t.api('post', `events/${third.id}`).query({ recurrence_scope: 'this' }).send({ title: 'Yoga (in the park)', start_date: '2031-04-21 10:00:00', end_date: '2031-04-21 11:00:00' });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      const report = await b.sync();
      expect(report.calendars[0].sent.created).toBe(1);
      const copies = [...(await serverCopies(dav, calendarUrl)).values()].filter((t) => t.includes('Yoga'));
      expect(copies).toHaveLength(1);
      expect(copies[0].match(/BEGIN:VEVENT/g)).toHaveLength(2);
      expect(unfold(copies[0])).toMatch(/RRULE:FREQ=WEEKLY;COUNT=6/);
      expect(copies[0]).toMatch(/RECURRENCE-ID/);

      await a.sync();
      const onA = (await eventsOf(a)).filter((e) => e.title.startsWith('Yoga'));
      expect(onA.map((e) => [e.title, e.start_date])).toEqual([
        ['Yoga', '2031-04-07 18:00:00'],
        ['Yoga', '2031-04-14 18:00:00'],
        ['Yoga (in the park)', '2031-04-21 10:00:00'],
        ['Yoga', '2031-04-28 18:00:00'],
        ['Yoga', '2031-05-05 18:00:00'],
        ['Yoga', '2031-05-12 18:00:00'],
      ]);
      const exception = onA.find((e) => e.title === 'Yoga (in the park)')!;
      expect(exception).toMatchObject({ is_exception: true, timezone: 'Europe/Berlin' });
      expect(new Set(onA.map((e) => e.series_id)).size).toBe(1);

      // One occurrence deleted on A: an EXDATE in the same resource, and gone on B.
      const fourth = onA.find((e) => e.start_date === '2031-04-28 18:00:00')!;
      expect((await a.t.api('delete', `events/${fourth.id}`).query({ recurrence_scope: 'this' })).status).toBe(200);
      expect((await a.sync()).calendars[0].sent.updated).toBe(1);
      const stored = [...(await serverCopies(dav, calendarUrl)).values()].filter((t) => t.includes('Yoga'));
      expect(stored).toHaveLength(1);
      expect(unfold(stored[0])).toMatch(/EXDATE[^\r\n]*20310428T180000/);
      await b.sync();
      expect((await eventsOf(b)).filter((e) => e.title.startsWith('Yoga')).map((e) => e.start_date.slice(0, 10))).toEqual(['2031-04-07', '2031-04-14', '2031-04-21', '2031-05-05', '2031-05-12']);
    });

    it('delete on A → gone from the server and from B; delete there → gone here', async () => {
      const [onA] = await byTitle(a, 'Dentist (moved)');
      expect((await a.t.api('delete', `events/${onA.id}`)).status).toBe(200);
      expect((await a.sync()).calendars[0].sent.deleted).toBe(1);
      expect([...(await serverCopies(dav, calendarUrl)).values()].some((t) => t.includes('Dentist'))).toBe(false);
      expect((await b.sync()).calendars[0].received.deleted).toBe(1);
      expect(await byTitle(b, 'Dentist (moved)')).toEqual([]);

      // A third client deletes the series on the server.
      const [href] = [...(await serverCopies(dav, calendarUrl))].find(([, t]) => t.includes('Yoga'))!;
      expect([200, 204]).toContain(await deleteResource(dav, href));
      await a.sync();
      expect((await eventsOf(a)).filter((e) => e.title.startsWith('Yoga'))).toEqual([]);
    });

    it("a third client's event (Thunderbird: ATTENDEE, VALARM, X- properties) is read right, and what Almanac does not map survives an edit here", async () => {
      const uid = `tb-${Date.now()}@example.org`;
      const ics = [
        'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN',
        'BEGIN:VTIMEZONE', 'TZID:Europe/Paris', 'BEGIN:STANDARD', 'DTSTART:19701025T030000', 'TZOFFSETFROM:+0200', 'TZOFFSETTO:+0100', 'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU', 'END:STANDARD',
        'BEGIN:DAYLIGHT', 'DTSTART:19700329T020000', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0200', 'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU', 'END:DAYLIGHT', 'END:VTIMEZONE',
        'BEGIN:VEVENT', 'CREATED:20310101T100000Z', 'LAST-MODIFIED:20310101T100000Z', 'DTSTAMP:20310101T100000Z', `UID:${uid}`,
        'SUMMARY:Board meeting', 'ORGANIZER;CN=Ana:mailto:ana@example.org', 'ATTENDEE;CN=Bo;PARTSTAT=NEEDS-ACTION;ROLE=REQ-PARTICIPANT:mailto:bo@example.org',
        'X-MOZ-GENERATION:3', 'X-OTHER-CLIENT-NOTE:keep me\\, please', 'TRANSP:OPAQUE', 'CATEGORIES:Work',
        'DTSTART;TZID=Europe/Paris:20310610T140000', 'DTEND;TZID=Europe/Paris:20310610T153000', 'LOCATION:Room 4',
        'BEGIN:VALARM', 'ACTION:DISPLAY', 'TRIGGER;VALUE=DURATION:-PT15M', 'DESCRIPTION:Default Mozilla Description', 'END:VALARM',
        'END:VEVENT', 'END:VCALENDAR', '',
      ].join('\r\n');
      const put = await putIcs(dav, calendarUrl, ics, { client: 'thunderbird' });
      expect(put.status).toBe(201);
      await a.sync();
      const [onA] = await byTitle(a, 'Board meeting');
      expect(onA).toMatchObject({ start_date: '2031-06-10 14:00:00', end_date: '2031-06-10 15:30:00', timezone: 'Europe/Paris' });
      expect(onA.categories.map((c: { name: string }) => c.name)).toEqual(['Work']);
      expect(onA.venue.venue).toBe('Room 4');
      expect(onA.reminders).toEqual([expect.objectContaining({ action: 'display', trigger: '-PT15M' })]);

      expect((await a.t.api('post', `events/${onA.id}`).send({ title: 'Board meeting (room 5)' })).status).toBe(200);
      expect((await a.sync()).calendars[0].sent.updated).toBe(1);
      const stored = unfold((await getResource(dav, put.href)).text);
      expect(stored).toContain('SUMMARY:Board meeting (room 5)');
      expect(stored).toMatch(/ATTENDEE;[^\r\n]*mailto:bo@example\.org/);
      expect(stored).toContain('X-MOZ-GENERATION:3');
      expect(stored).toMatch(/X-OTHER-CLIENT-NOTE:keep me\\, please/);
      expect(stored).toContain('TRANSP:OPAQUE');
      expect(stored).toContain(`UID:${uid}`);
      expect(stored.match(/BEGIN:VALARM/g)).toHaveLength(1);
      // B reads the same event, edited.
      await b.sync();
      expect(await byTitle(b, 'Board meeting (room 5)')).toHaveLength(1);
    });

    it("an Apple-style resource (a name unrelated to its UID, all-day) is read and edited in place, never duplicated", async () => {
      const uid = 'A1B2C3D4-0000-4000-8000-APPLE0000001';
      const ics = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Apple Inc.//macOS 15.1//EN', 'CALSCALE:GREGORIAN', 'BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20310101T000000Z', 'DTSTART;VALUE=DATE:20310715', 'DTEND;VALUE=DATE:20310717', 'SUMMARY:Holiday', 'X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC', 'SEQUENCE:2', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
      const put = await putIcs(dav, calendarUrl, ics, { client: 'apple' });
      expect(put.status).toBe(201);
      await b.sync();
      const [onB] = await byTitle(b, 'Holiday');
      expect(onB).toMatchObject({ all_day: true, start_date: '2031-07-15 00:00:00', end_date: '2031-07-16 23:59:59' });
      await b.t.api('post', `events/${onB.id}`).send({ title: 'Holiday by the sea' });
      await b.sync();
      const copies = [...(await serverCopies(dav, calendarUrl))].filter(([, t]) => unfold(t).includes(`UID:${uid}`));
      expect(copies.map(([href]) => href)).toEqual([put.href]);
      const stored = unfold(copies[0][1]);
      expect(stored).toContain('SUMMARY:Holiday by the sea');
      expect(stored).toContain('X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC');
      expect(stored).toContain('SEQUENCE:3');
    });

    it('the same event changed on both sides (our send meets 412 Precondition Failed): the server wins the event, the local version is kept as a conflict copy', async () => {
      const created = await a.t.api('post', 'events').send({ title: 'Lunch', start_date: '2031-08-01 12:00:00', end_date: '2031-08-01 13:00:00', calendar: a.calendar });
      await a.sync();
      await b.sync();
      const [onB] = await byTitle(b, 'Lunch');
      await b.t.api('post', `events/${onB.id}`).send({ title: 'Lunch with Ana' });
      await a.t.api('post', `events/${created.body.id}`).send({ title: 'Lunch with Bo' });
      await b.sync();
      const report = await a.sync();
      expect(report.calendars[0].conflicts).toBe(1);
      // The server's (B's) version is the event on A now, under the same id.
      expect((await a.t.api('get', `events/${created.body.id}`)).body.title).toBe('Lunch with Ana');
      const status = await a.t.api('get', 'sync');
      expect(status.status).toBe(200);
      const conflict = status.body.conflicts.find((c: { title: string }) => c.title === 'Lunch with Bo');
      expect(conflict).toBeDefined();
      // The user takes the local version back: it becomes the event and goes to the server.
      const restored = await a.t.api('post', `sync/conflicts/${conflict.id}/restore`);
      expect(restored.status, JSON.stringify(restored.body)).toBe(200);
      expect((await a.t.api('get', `events/${created.body.id}`)).body.title).toBe('Lunch with Bo');
      await a.sync();
      await b.sync();
      expect(await byTitle(b, 'Lunch with Bo')).toHaveLength(1);
      expect(await byTitle(b, 'Lunch with Ana')).toHaveLength(0);
      expect((await a.t.api('get', 'sync')).body.conflicts.find((c: { id: number }) => c.id === conflict.id)).toBeUndefined();
    });

    it('the same event changed on both sides in different fields (412, then a merge): both changes kept, no conflict copy', async () => {
      const created = await a.t.api('post', 'events').send({ title: 'Planning', start_date: '2031-08-10 09:00:00', end_date: '2031-08-10 10:00:00', calendar: a.calendar, description: 'First draft' });
      await a.sync();
      await b.sync();
      const [onB] = await byTitle(b, 'Planning');
      await b.t.api('post', `events/${onB.id}`).send({ description: 'Agenda attached' });
      await a.t.api('post', `events/${created.body.id}`).send({ title: 'Planning (Q3)', start_date: '2031-08-10 11:00:00', end_date: '2031-08-10 12:00:00' });
      await b.sync();
      const report = await a.sync();
      expect(report.calendars[0]).toMatchObject({ merged: 1, conflicts: 0 });
      const onA = (await a.t.api('get', `events/${created.body.id}`)).body;
      expect(onA).toMatchObject({ title: 'Planning (Q3)', start_date: '2031-08-10 11:00:00' });
      expect(onA.description).toContain('Agenda attached');
      await b.sync();
      const [merged] = await byTitle(b, 'Planning (Q3)');
      expect(merged).toMatchObject({ id: onB.id, start_date: '2031-08-10 11:00:00' });
      expect(merged.description).toContain('Agenda attached');
      expect((await a.t.api('get', 'sync')).body.conflicts.filter((c: { title: string }) => c.title.startsWith('Planning'))).toEqual([]);
    });

    it('deleted here while changed there: the server’s change wins and the event comes back here', async () => {
      const created = await a.t.api('post', 'events').send({ title: 'Gym', start_date: '2031-08-20 18:00:00', end_date: '2031-08-20 19:00:00', calendar: a.calendar });
      await a.sync();
      await b.sync();
      const [onB] = await byTitle(b, 'Gym');
      await b.t.api('post', `events/${onB.id}`).send({ title: 'Gym (7pm)', start_date: '2031-08-20 19:00:00', end_date: '2031-08-20 20:00:00' });
      await b.sync();
      expect((await a.t.api('delete', `events/${created.body.id}`)).status).toBe(200);
      const report = await a.sync();
      expect(report.calendars[0].sent.deleted).toBe(0);
      expect(await byTitle(a, 'Gym (7pm)')).toEqual([expect.objectContaining({ id: created.body.id, status: 'publish', start_date: '2031-08-20 19:00:00' })]);
      expect([...(await serverCopies(dav, calendarUrl)).values()].some((t) => t.includes('Gym (7pm)'))).toBe(true);
    });

    it('a change made while the server is down waits, is told in words, and goes once it is back', async () => {
      const created = await a.t.api('post', 'events').send({ title: 'Offline note', start_date: '2031-09-01 12:00:00', end_date: '2031-09-01 13:00:00', calendar: a.calendar });
      await dav.halt();
      try {
        const [failed] = await a.t.server.sync.syncNow();
        expect(failed.ok).toBe(false);
        expect(failed.transient).toBe(true);
        expect(failed.error).toMatch(/could not be reached|connection refused/i);
        const status = (await a.t.api('get', 'sync')).body.accounts[0];
        expect(status.pending).toBe(1);
        expect(status.last_error).toMatch(/connection refused/i);
      } finally {
        await dav.resume();
      }
      const report = await a.sync();
      expect(report.calendars[0].sent.created).toBe(1);
      expect((await a.t.api('get', 'sync')).body.accounts[0]).toMatchObject({ pending: 0, last_error: null });
      await b.sync();
      expect(await byTitle(b, 'Offline note')).toHaveLength(1);
      void created;
    });

    it('moving an event to this computer deletes it on the server; moving it back creates it again', async () => {
      const [note] = await byTitle(a, 'Offline note');
      await a.t.api('post', `events/${note.id}`).send({ calendar: 1 });
      expect((await a.sync()).calendars[0].sent.deleted).toBe(1);
      await b.sync();
      expect(await byTitle(b, 'Offline note')).toHaveLength(0);
      await a.t.api('post', `events/${note.id}`).send({ calendar: a.calendar });
      expect((await a.sync()).calendars[0].sent.created).toBe(1);
      await b.sync();
      expect(await byTitle(b, 'Offline note')).toHaveLength(1);
    });

    it('restoring a JSON backup sends no deletes: the synced calendar is read again from the server', async () => {
      const onServer = (await serverCopies(dav, calendarUrl)).size;
      const backup = await a.t.api('get', 'export').query({ format: 'json' }).buffer(true).parse((r, cb) => {
        let text = '';
        r.on('data', (c: Buffer) => (text += c.toString()));
        r.on('end', () => cb(null, text));
      });
      expect(backup.status).toBe(200);
      const restored = await a.t.api('post', 'import').query({ format: 'json' }).set('Content-Type', 'application/json').send(backup.body as string);
      expect(restored.status, JSON.stringify(restored.body)).toBe(200);
      const report = await a.sync();
      expect(report.calendars[0].sent).toEqual({ created: 0, updated: 0, deleted: 0 });
      expect((await serverCopies(dav, calendarUrl)).size).toBe(onServer);
      expect(await byTitle(a, 'Offline note')).toHaveLength(1);
    });

    it('a local change goes by itself a moment after it is saved; offline, the account waits with backoff', async () => {
      const c = await device(dav, calendarUrl, 50);
      try {
        const waitFor = async (check: () => Promise<boolean>) => {
          const deadline = Date.now() + 20_000;
          while (!(await check())) {
            if (Date.now() > deadline) throw new Error('not within 20 s');
            await new Promise((r) => setTimeout(r, 50));
          }
        };
        const state = async () => (await c.t.api('get', 'sync')).body.accounts[0];
        await c.t.api('post', 'events').send({ title: 'Sent by itself', start_date: '2031-10-01 12:00:00', end_date: '2031-10-01 13:00:00', calendar: c.calendar });
        await waitFor(async () => (await state()).last_round?.calendars[0]?.sent.created === 1 && (await state()).pending === 0);
        expect([...(await serverCopies(dav, calendarUrl)).values()].some((t) => t.includes('Sent by itself'))).toBe(true);

        await dav.halt();
        try {
          await c.t.api('post', 'events').send({ title: 'Waits', start_date: '2031-10-02 12:00:00', end_date: '2031-10-02 13:00:00', calendar: c.calendar });
          await waitFor(async () => !!(await state()).next_try);
          const waiting = await state();
          expect(waiting.pending).toBe(1);
          expect(waiting.last_error).toMatch(/connection refused/i);
          // The first retry is a minute away: another local change does not hammer a server that is down.
          expect(Date.parse(waiting.next_try) - Date.now()).toBeGreaterThan(50_000);
          const rounds = waiting.last_round.finished;
          await c.t.api('post', 'events').send({ title: 'Waits too', start_date: '2031-10-03 12:00:00', end_date: '2031-10-03 13:00:00', calendar: c.calendar });
          await new Promise((r) => setTimeout(r, 300));
          expect((await state()).last_round.finished).toBe(rounds);
        } finally {
          await dav.resume();
        }
        // "Sync now" does not wait for the backoff.
        const now = await c.t.api('post', 'sync');
        expect(now.status).toBe(202);
        await waitFor(async () => (await state()).pending === 0 && !(await state()).syncing);
        expect((await state()).next_try).toBeNull();
      } finally {
        await c.t.close();
      }
    });

    it.runIf(kind === 'radicale')('a change the server refuses (the calendar was made read-only there) waits, told in the reader’s language', async () => {
      await a.t.api('post', 'events').send({ title: 'Too late', start_date: '2031-11-01 12:00:00', end_date: '2031-11-01 13:00:00', calendar: a.calendar });
      // The owner shares the calendar read-only from now on: Radicale answers the PUT 403.
      const path = new URL(calendarUrl).pathname.replace(/^\/|\/$/g, '');
      writeFileSync(join(dav.dir, 'rights'), ['[shared]', 'user: .+', `collection: ${path}`, 'permissions: r', '', OWNER_RIGHTS].join('\n'));
      try {
        const report = await a.sync();
        expect(report.calendars[0].sent.created).toBe(0);
        const ours = (state: { calendars: Array<{ id: number; last_error: string | null }> }) => state.calendars.find((c) => c.id === a.calendar)!.last_error;
        const es = (await a.t.api('get', 'sync').query({ i18n_language: 'es' })).body.accounts[0];
        expect(es.pending).toBe(1);
        expect(ours(es)).toBe('"Too late" no se envió: el servidor no permite este cambio. Se guarda en este ordenador y se volverá a intentar más tarde.');
        expect(ours((await a.t.api('get', 'sync')).body.accounts[0])).toBe('"Too late" was not sent: the server does not allow this change. It is kept on this computer and tried again later.');
        expect([...(await serverCopies(dav, calendarUrl)).values()].some((t) => t.includes('Too late'))).toBe(false);
      } finally {
        writeFileSync(join(dav.dir, 'rights'), OWNER_RIGHTS);
      }
      // Write access back: the retry is an hour away, brought forward here rather than waited for.
      a.t.server.db.prepare('UPDATE dav_outbox SET next_try_utc = NULL WHERE calendar_id = ?').run(a.calendar);
      await a.sync();
      expect((await a.t.api('get', 'sync')).body.accounts[0]).toMatchObject({ pending: 0 });
      expect([...(await serverCopies(dav, calendarUrl)).values()].some((t) => t.includes('Too late'))).toBe(true);
    });
  });
}
