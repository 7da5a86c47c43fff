/**
 * Issue 17, identity and calendars: every event has a UUID UID for life (exports write it, imports
 * keep theirs, older files get one), and belongs to exactly one calendar, which the API shows,
 * lists and exports filter by, and a whole series shares.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openDatabase, closeDatabase } from '../../../electron/server/store/db';
import { migrations } from '../../../electron/server/store/migrations';
import { tempDir } from '../../helpers/temp-dir';
import { startTestServer, type TestServer } from '../../helpers/server';
import { mkEvent } from './_support';
import { downloadText } from './_series';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let t: TestServer;
let work: number;
beforeAll(async () => {
  t = await startTestServer();
  // A second calendar, as adding a CalDAV account makes one.
  t.server.db.prepare("INSERT INTO caldav_accounts (id, name, server_url, username, principal_url, home_url, created_utc) VALUES (1, 'work', 'http://x/', 'u', 'http://x/p/', 'http://x/h/', '2026-01-01')").run();
  work = Number(t.server.db.prepare("INSERT INTO calendars (account_id, name, url) VALUES (1, 'Work', 'http://x/h/work/')").run().lastInsertRowid);
});
afterAll(() => t.close());

const uidOf = (id: number) => (t.server.db.prepare('SELECT ics_uid FROM events WHERE id = ?').get(id) as { ics_uid: string | null }).ics_uid;

const exportText = (query: Record<string, string> = {}) => downloadText(t, 'export', { start_date: '2000-01-01', end_date: '2100-01-01', ...query });

describe('identity', () => {
  it('a new event has a UUID UID that an edit keeps and the export writes', async () => {
    const e = await mkEvent(t, { title: 'Standup' });
    const uid = uidOf(e.id);
    expect(uid).toMatch(UUID);
    await t.api('post', `events/${e.id}`).send({ title: 'Standup, moved' }).expect(200);
    expect(uidOf(e.id)).toBe(uid);
    const ics = await exportText({ search: 'Standup' });
    expect(ics).toContain(`UID:${uid}\r\n`);
    expect(ics).not.toMatch(/UID:almanac-\d+@/);
  });

  it('two events never share a UID; a series and its occurrences are one UID', async () => {
    const a = await mkEvent(t);
    const b = await mkEvent(t);
    expect(uidOf(a.id)).not.toBe(uidOf(b.id));
    const s = await mkEvent(t, { title: 'Weekly sync', recurrence: { rules: ['FREQ=WEEKLY;COUNT=4'] } });
    const occ = await t.api('get', 'events').query({ post_parent: s.id, start_date: '2031-05-01', end_date: '2031-07-01' });
    expect(occ.body.events.length).toBeGreaterThan(1);
    // Occurrence rows carry no UID of their own: the export gives them the series'.
    for (const o of occ.body.events.filter((o: { id: number }) => o.id !== s.id)) expect(uidOf(o.id)).toBeNull();
    const ics = await exportText({ search: 'Weekly sync' });
    expect(ics.match(/^UID:.*$/gm)).toEqual([`UID:${uidOf(s.id)}`]);
  });

  it('an imported UID is kept, and exported again as it was', async () => {
    const file = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Other//EN', 'BEGIN:VEVENT', 'UID:kept-uid-123@other.example', 'DTSTAMP:20310101T000000Z', 'DTSTART:20310601T100000Z', 'DTEND:20310601T110000Z', 'SUMMARY:Imported one', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
    const res = await t.api('post', 'import').set('Content-Type', 'text/calendar').send(file);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.items[0].id;
    expect(uidOf(id)).toBe('kept-uid-123@other.example');
    expect(await exportText({ search: 'Imported one' })).toContain('UID:kept-uid-123@other.example\r\n');
  });

  it('a calendar file from before gets a UUID for each event, not for occurrence rows, and keeps imported UIDs', () => {
    const file = join(tempDir('almanac-uid-'), 'almanac.sqlite');
    const old = openDatabase(file, { migrations: migrations.filter((m) => m.version <= 4) });
    const row = (id: number, parent: number | null, uid: string | null) => {
      old.prepare("INSERT INTO posts (id, type) VALUES (?, 'event')").run(id);
      old.prepare(
        `INSERT INTO events (id, slug, title, date_local, date_utc, modified_local, modified_utc, translation_group, start_local, end_local, start_utc, end_utc, timezone, parent_id, ics_uid)
         VALUES (?, ?, 'x', '2030-01-01 00:00:00', '2030-01-01 00:00:00', '2030-01-01 00:00:00', '2030-01-01 00:00:00', ?, '2030-01-01 10:00:00', '2030-01-01 11:00:00', '2030-01-01 10:00:00', '2030-01-01 11:00:00', 'UTC', ?, ?)`,
      ).run(id, `e-${id}`, id, parent, uid);
    };
    row(1, null, null);
    row(2, null, null);
    row(3, 1, null);
    row(4, null, 'from-a-file@example.org');
    closeDatabase(old);
    const db = openDatabase(file);
    const uids = db.prepare('SELECT id, ics_uid, calendar_id FROM events ORDER BY id').all() as Array<{ id: number; ics_uid: string | null; calendar_id: number }>;
    closeDatabase(db);
    expect(uids[0].ics_uid).toMatch(UUID);
    expect(uids[1].ics_uid).toMatch(UUID);
    expect(uids[0].ics_uid).not.toBe(uids[1].ics_uid);
    expect(uids[2].ics_uid).toBeNull();
    expect(uids[3].ics_uid).toBe('from-a-file@example.org');
    // Everything that was on this computer stays there.
    expect(uids.map((u) => u.calendar_id)).toEqual([1, 1, 1, 1]);
  });
});

describe('calendars on events', () => {
  it('an event is on this computer unless its body names a calendar; the record says which', async () => {
    const here = await mkEvent(t);
    expect(here.calendar).toBe(1);
    const there = await mkEvent(t, { calendar: work });
    expect(there.calendar).toBe(work);
    const moved = await t.api('post', `events/${here.id}`).send({ calendar: work });
    expect(moved.status).toBe(200);
    expect(moved.body.calendar).toBe(work);
  });

  it('a calendar that does not exist is refused in the API error shape, and nothing is written', async () => {
    const before = t.snapshot();
    const res = await t.api('post', 'events').send({ title: 'Nowhere', start_date: '2031-05-10 10:00:00', end_date: '2031-05-10 11:00:00', calendar: 999 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(res.body.data.params.calendar).toBe('Is not an existing calendar.');
    const es = await t.api('post', 'events').set('Accept-Language', 'es').query({ i18n_language: 'es' }).send({ title: 'X', start_date: '2031-05-10 10:00:00', end_date: '2031-05-10 11:00:00', calendar: 0 });
    expect(es.status).toBe(400);
    expect(t.snapshot()).toEqual(before);
  });

  it('the list and the export filter by calendar; without the filter every calendar is listed', async () => {
    const tag = `cal-filter-${Date.now()}`;
    const a = await mkEvent(t, { title: `${tag} here` });
    const b = await mkEvent(t, { title: `${tag} work`, calendar: work });
    const all = await t.api('get', 'events').query({ search: tag, start_date: '2031-01-01', end_date: '2032-01-01' });
    expect(all.body.events.map((e: { id: number }) => e.id).sort()).toEqual([a.id, b.id].sort());
    const onlyWork = await t.api('get', 'events').query({ search: tag, start_date: '2031-01-01', end_date: '2032-01-01', calendar: String(work) });
    expect(onlyWork.body.events.map((e: { id: number }) => e.id)).toEqual([b.id]);
    expect(onlyWork.body.rest_url).toContain(`calendar=${work}`);
    const both = await t.api('get', 'events').query({ search: tag, start_date: '2031-01-01', end_date: '2032-01-01', calendar: `1,${work}` });
    expect(both.body.total).toBe(2);
    const ics = await exportText({ search: tag, calendar: '1' });
    expect(ics).toContain(`${tag} here`);
    expect(ics).not.toContain(`${tag} work`);
    expect((await t.api('get', 'events').query({ calendar: 'abc' })).status).toBe(400);
  });

  it('a series is in one calendar: moving one occurrence moves them all', async () => {
    const s = await mkEvent(t, { title: 'Series to move', recurrence: { rules: ['FREQ=DAILY;COUNT=5'] } });
    const occ = await t.api('get', 'events').query({ post_parent: s.id, start_date: '2031-05-01', end_date: '2031-06-01' });
    const third = occ.body.events[2];
    const res = await t.api('post', `events/${third.id}`).query({ recurrence_scope: 'this' }).send({ calendar: work });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await t.api('get', 'events').query({ post_parent: s.id, start_date: '2031-05-01', end_date: '2031-06-01' });
    expect(after.body.events.map((e: { calendar: number }) => e.calendar)).toEqual(after.body.events.map(() => work));
    expect((await t.api('get', `events/${s.id}`)).body.calendar).toBe(work);
  });

  it("a server calendar's series is queued for sending when it changes, not each time its rows are extended", async () => {
    const s = await mkEvent(t, { title: 'Open-ended on the server', calendar: work, start_date: '2031-06-02 09:00:00', end_date: '2031-06-02 10:00:00', recurrence: { rules: ['FREQ=WEEKLY'] } });
    const queued = () => t.server.db.prepare('SELECT count(*) FROM dav_outbox WHERE uid = ?').pluck().get(uidOf(s.id)) as number;
    t.server.db.prepare('DELETE FROM dav_outbox').run();
    // Rows written for a far window and by the background extension save the series again.
    t.server.store.series.ensureWindow('2090-03-01 00:00:00', '2090-03-31 23:59:59', t.server.store.write);
    while (t.server.store.series.extendHorizonBatch(t.server.store.write));
    expect(t.server.db.prepare("SELECT count(*) FROM events WHERE parent_id = ? AND start_local >= '2090'").pluck().get(s.id)).toBeGreaterThan(3);
    expect(queued()).toBe(0);
    const res = await t.api('patch', `events/${s.id}`).query({ recurrence_scope: 'all' }).send({ recurrence: { rules: ['FREQ=WEEKLY;COUNT=10'] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(queued()).toBe(1);
  });

  it('GET /calendars lists this computer’s calendar first, then the accounts’', async () => {
    const res = await t.api('get', 'calendars');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { id: 1, name: 'On this computer', color: null, visible: true, account: null, account_id: null, synced: false, read_only: false, subscription: null, site: null },
      { id: work, name: 'Work', color: null, visible: true, account: 'work', account_id: expect.any(Number), synced: true, read_only: false, subscription: null, site: null },
    ]);
  });

  it("a server's read-only calendar takes no change from the API, in words, while its events are listed", async () => {
    const shared = Number(t.server.db.prepare("INSERT INTO calendars (account_id, name, url, read_only) VALUES (1, 'Team (shared with me)', 'http://x/h/team/', 1)").run().lastInsertRowid);
    // As a pull writes it: through the store, not the API.
    const store = t.server.store;
    const id = store.write(() =>
      store.davSync.asServer(() => store.events.create({ title: 'Team review', start_date: '2031-07-01 10:00:00', end_date: '2031-07-01 11:00:00' }, { lang: 'en', now: new Date(), siteZone: 'UTC' }, { calendarId: shared })),
    );
    const before = (await t.api('get', `events/${id}`)).body;
    for (const res of [
      await t.api('post', `events/${id}`).send({ title: 'Renamed' }),
      await t.api('delete', `events/${id}`),
      await t.api('post', 'events').send({ title: 'New', start_date: '2031-07-02 10:00:00', end_date: '2031-07-02 11:00:00', calendar: shared }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'calendar-read-only', message: 'The calendar "Team (shared with me)" is read-only on its server: its events can be looked at, not changed.' });
    }
    const es = await t.api('post', `events/${id}?i18n_language=es`).send({ title: 'Otro' });
    expect(es.body.message).toContain('es de solo lectura en su servidor');
    // Nothing changed, and nothing is waiting to be sent.
    expect((await t.api('get', `events/${id}`)).body).toEqual(before);
    expect(t.server.db.prepare('SELECT count(*) FROM dav_outbox WHERE calendar_id = ?').pluck().get(shared)).toBe(0);
    expect((await t.api('get', 'events').query({ calendar: String(shared), start_date: '2031-07-01', end_date: '2031-07-31' })).body.events.map((e: { id: number }) => e.id)).toEqual([id]);

    // A file with the same UID does not change it either: its event comes in as one of its own.
    const ics = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'BEGIN:VEVENT', `UID:${uidOf(id)}`, 'DTSTART:20310701T100000Z', 'DTEND:20310701T110000Z', 'SUMMARY:Team review, renamed', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
    const imported = await t.api('post', 'import').query({ format: 'ics' }).set('Content-Type', 'text/calendar').send(ics);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect([imported.body.created, imported.body.updated]).toEqual([1, 0]);
    expect((await t.api('get', `events/${id}`)).body).toEqual(before);
    expect(t.server.db.prepare('SELECT count(*) FROM dav_outbox WHERE calendar_id = ?').pluck().get(shared)).toBe(0);
  });

  it('/doc describes the field and the filter', async () => {
    const doc = await t.api('get', 'doc');
    const text = JSON.stringify(doc.body);
    expect(text).toContain('ID of the calendar the event belongs to');
    expect(text).toContain('Events in any of these calendars');
  });
});
