/**
 * Accounts and calendars through the API (issue 17) against a real Radicale: adding an account
 * finds its calendars and colours and never gives the password back; a wrong password, a server
 * that cannot be reached and an address that is not CalDAV are each told in words with their
 * status, storing nothing; calendars are renamed, recoloured, hidden; an event moved between
 * calendars moves on the server; removing an account leaves no row of it behind; sync errors
 * come in the request's language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer as createHttpServer, type Server } from 'node:http';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { accountSecretKey, SECRETS_FILE } from '../../../electron/server/secrets';
import { startRadicale, makeCalendar, getResource, runCalDavSuites, type CalDavTestServer } from '../../helpers/caldav-servers';
import { startTestServer, type TestServer } from '../../helpers/server';

const PASSWORD = 'Correct-horse-€-9q';

/** Row counts of what an account owns, to prove a refused add stored nothing. */
function accountRows(t: TestServer) {
  const n = (sql: string) => (t.server.db.prepare(sql).get() as { n: number }).n;
  return { accounts: n('SELECT count(*) AS n FROM caldav_accounts'), calendars: n('SELECT count(*) AS n FROM calendars') };
}

/** The server's copies in a collection: hrefs of its .ics resources. */
async function hrefsIn(dav: CalDavTestServer, calendarUrl: string): Promise<string[]> {
  const res = await fetch(calendarUrl, { method: 'PROPFIND', headers: { ...dav.authHeader(), Depth: '1', 'Content-Type': 'application/xml' }, body: '<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>' });
  const xml = await res.text();
  return [...xml.matchAll(/<(?:\w+:)?href>([^<]+\.ics)<\/(?:\w+:)?href>/g)].map((m) => new URL(m[1], calendarUrl).href);
}

describe.skipIf(!runCalDavSuites)('accounts and calendars API', { timeout: 120_000 }, () => {
  let dav: CalDavTestServer;
  let t: TestServer;
  let workUrl: string;
  let familyUrl: string;
  let notDav: Server;
  beforeAll(async () => {
    dav = await startRadicale({ user: 'alice', password: PASSWORD });
    workUrl = await makeCalendar(dav, 'work', { displayName: 'Work', color: '#FF2968FF' });
    familyUrl = await makeCalendar(dav, 'family', { displayName: 'Family', color: '#1BADF8' });
    t = await startTestServer({ syncIntervalMs: 0, syncDebounceMs: 0 });
    // A web server that is not a CalDAV one: every path is a page.
    notDav = createHttpServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body>Welcome</body></html>'));
    await new Promise<void>((ok) => notDav.listen(0, '127.0.0.1', ok));
  }, 90_000);
  afterAll(async () => {
    await t?.close();
    await dav?.stop();
    notDav?.close();
  });

  it('a wrong password: 422 on the password field, in the request language, nothing stored', async () => {
    const before = accountRows(t);
    const res = await t.api('post', 'accounts').query({ i18n_language: 'pt-br' }).send({ url: dav.url, username: 'alice', password: 'not-it' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('caldav_unauthorized');
    expect(res.body.data.field).toBe('password');
    expect(res.body.message).toContain('recusou o usuário ou a senha');
    expect(accountRows(t)).toEqual(before);
    expect(existsSync(join(t.dataDir, SECRETS_FILE))).toBe(false);
  });

  it('a server that cannot be reached: 422 on the address; a web site that is not CalDAV: 422; a bad address: 400', async () => {
    const before = accountRows(t);
    // A port that was free a moment ago: nothing listens there now.
    const probe = createHttpServer();
    await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise((ok) => probe.close(ok));
    const unreachable = await t.api('post', 'accounts').send({ url: `http://127.0.0.1:${closedPort}/`, username: 'alice', password: PASSWORD });
    expect(unreachable.status).toBe(422);
    expect(unreachable.body).toMatchObject({ code: 'caldav_unreachable', data: { field: 'url' } });
    expect(unreachable.body.message).toMatch(/Could not reach 127\.0\.0\.1:\d+ \(connection refused/);

    const web = await t.api('post', 'accounts').send({ url: `http://127.0.0.1:${(notDav.address() as AddressInfo).port}/`, username: 'alice', password: PASSWORD });
    expect(web.status).toBe(422);
    expect(web.body).toMatchObject({ code: 'caldav_not_caldav', data: { field: 'url' } });
    expect(web.body.message).toContain('it is not a CalDAV server');

    const bad = await t.api('post', 'accounts').send({ url: 'https://alice:pw@example.com', username: 'alice', password: PASSWORD });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('caldav_bad_url');

    const missing = await t.api('post', 'accounts').send({ url: dav.url, username: 'alice' });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('rest_missing_callback_param');
    const colon = await t.api('post', 'accounts').send({ url: dav.url, username: 'a:b', password: PASSWORD });
    expect(colon.status).toBe(400);
    expect(colon.body.data.params.username).toContain(':');
    expect(accountRows(t)).toEqual(before);
  });

  let accountId: number;
  it('POST /accounts finds the calendars with their colours; the password is kept outside the database and never answered', async () => {
    const res = await t.api('post', 'accounts').send({ url: dav.url, username: 'alice', password: PASSWORD, name: 'Home server' });
    expect(res.status).toBe(201);
    accountId = res.body.id;
    expect(res.body).toMatchObject({ name: 'Home server', username: 'alice', last_sync: null, last_error: null });
    expect(res.body.calendars.map((c: any) => [c.name, c.color, c.synced, c.visible, c.read_only])).toEqual([
      ['Family', '#1badf8', true, true, false],
      ['Work', '#ff2968', true, true, false],
    ]);
    expect(JSON.stringify(res.body)).not.toContain(PASSWORD);
    const list = await t.api('get', 'accounts');
    expect(list.status).toBe(200);
    expect(list.body.map((a: any) => a.name)).toEqual(['Home server']);
    expect(JSON.stringify(list.body)).not.toContain(PASSWORD);
    expect(t.server.secrets!.get(accountSecretKey(accountId))).toBe(PASSWORD);
    for (const name of readdirSync(t.dataDir)) {
      const path = join(t.dataDir, name);
      if (statSync(path).isFile() && name !== SECRETS_FILE) expect(readFileSync(path).includes(Buffer.from(PASSWORD)), name).toBe(false);
    }
    // The same name again is refused before the server is asked.
    const again = await t.api('post', 'accounts').send({ url: dav.url, username: 'alice', password: PASSWORD, name: 'home SERVER' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'account-name-taken', data: { field: 'name' } });
  });

  it('PATCH /calendars/{id}: rename, recolour, hide; a bad colour or syncing this computer is refused', async () => {
    const cals = (await t.api('get', 'calendars')).body as any[];
    const work = cals.find((c) => c.name === 'Work');
    const res = await t.api('patch', `calendars/${work.id}`).send({ name: 'Office', color: '#00AA44', visible: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: work.id, name: 'Office', color: '#00aa44', visible: false, account: 'Home server', synced: true });
    expect((await t.api('patch', `calendars/${work.id}`).send({ color: 'green' })).body.code).toBe('rest_invalid_param');
    expect((await t.api('get', 'calendars')).body.find((c: any) => c.id === work.id)).toMatchObject({ name: 'Office', color: '#00aa44', visible: false });
    const back = await t.api('patch', `calendars/${work.id}`).send({ visible: true });
    expect(back.body.visible).toBe(true);

    const local = await t.api('patch', 'calendars/1').send({ name: 'My laptop', color: '#123456' });
    expect(local.status).toBe(200);
    expect(local.body).toMatchObject({ id: 1, name: 'My laptop', color: '#123456', account: null, synced: false });
    const syncLocal = await t.api('patch', 'calendars/1').send({ synced: true });
    expect(syncLocal.status).toBe(422);
    expect(syncLocal.body.code).toBe('calendar-not-on-server');
    expect((await t.api('patch', 'calendars/999').send({ name: 'x' })).status).toBe(404);
  });

  it('an event moved to another calendar is deleted from the old collection and created in the new one', async () => {
    const cals = (await t.api('get', 'calendars')).body as any[];
    const work = cals.find((c) => c.account_id === accountId && c.name === 'Office');
    const family = cals.find((c) => c.account_id === accountId && c.name === 'Family');
    const created = await t.api('post', 'events').send({ title: 'Parents evening', start_date: '2031-05-06 18:00:00', end_date: '2031-05-06 19:00:00', calendar: work.id });
    expect(created.status).toBe(201);
    const [first] = await t.server.sync.syncNow([accountId]);
    expect(first.error).toBeUndefined();
    expect(await hrefsIn(dav, workUrl)).toHaveLength(1);
    expect(await hrefsIn(dav, familyUrl)).toHaveLength(0);

    const moved = await t.api('patch', `events/${created.body.id}`).send({ calendar: family.id });
    expect(moved.status).toBe(200);
    expect(moved.body.calendar).toBe(family.id);
    const [second] = await t.server.sync.syncNow([accountId]);
    expect(second.error).toBeUndefined();
    expect(await hrefsIn(dav, workUrl)).toHaveLength(0);
    const inFamily = await hrefsIn(dav, familyUrl);
    expect(inFamily).toHaveLength(1);
    expect((await getResource(dav, inFamily[0])).text).toContain('SUMMARY:Parents evening');
    // A third round finds both sides agreeing: nothing moves.
    const [third] = await t.server.sync.syncNow([accountId]);
    for (const c of third.calendars) {
      expect(c.sent).toEqual({ created: 0, updated: 0, deleted: 0 });
      expect(c.received).toEqual({ changed: 0, deleted: 0 });
    }
  });

  it('GET /sync tells a refused password in the request language', async () => {
    t.server.secrets!.set(accountSecretKey(accountId), 'changed-on-the-server');
    const [report] = await t.server.sync.syncNow([accountId]);
    expect(report.ok).toBe(false);
    const es = await t.api('get', 'sync').query({ i18n_language: 'es' });
    expect(es.status).toBe(200);
    const account = es.body.accounts.find((a: any) => a.id === accountId);
    expect(account.last_error).toContain('rechazó el usuario o la contraseña');
    const en = await t.api('get', 'sync');
    expect(en.body.accounts.find((a: any) => a.id === accountId).last_error).toContain('refused the user name or password');
    expect((await t.api('get', 'accounts').query({ i18n_language: 'pt-br' })).body[0].last_error).toContain('recusou');
    t.server.secrets!.set(accountSecretKey(accountId), PASSWORD);
  });

  it('DELETE /accounts/{id}: its calendars, events (series, reminders, search text) and sync rows go; the server keeps its copies', async () => {
    const cals = (await t.api('get', 'calendars')).body as any[];
    const family = cals.find((c) => c.account_id === accountId && c.name === 'Family');
    const series = await t.api('post', 'events').send({ title: 'Zumbafloss', start_date: '2031-06-02 18:00:00', end_date: '2031-06-02 19:00:00', calendar: family.id, recurrence: { rules: ['FREQ=WEEKLY;COUNT=5'] }, reminders: ['-PT15M'] });
    expect(series.status).toBe(201);
    const [synced] = await t.server.sync.syncNow([accountId]);
    expect(synced.error).toBeUndefined();
    // A change waiting to be sent, and a kept conflict copy, belong to the account too.
    await t.api('patch', `events/${series.body.id}`).send({ title: 'Zumbafloss!', recurrence_scope: 'all' });
    t.server.db.prepare("INSERT INTO sync_conflicts (calendar_id, uid, title, local_ical, created_utc) VALUES (?, 'x', 'copy', 'BEGIN:VCALENDAR', '2031-01-01T00:00:00Z')").run(family.id);
    const local = await t.api('post', 'events').send({ title: 'Stays here', start_date: '2031-06-03 10:00:00', end_date: '2031-06-03 11:00:00' });

    // Removed while a round is under way (held mid-way: the server answers nothing): the round's
    // requests are aborted, the removal answers at once (issue 25: it waited on the peer before),
    // and nothing of the account is left.
    dav.freeze();
    let round: ReturnType<typeof t.server.sync.syncNow>;
    let res: Awaited<ReturnType<typeof t.api>>;
    try {
      round = t.server.sync.syncNow([accountId]);
      await expect.poll(async () => (await t.api('get', 'sync')).body.accounts.find((a: any) => a.id === accountId)?.syncing).toBe(true);
      // Answered while the server is still frozen (it is thawed only after): a removal that waited
      // on the round would never come back here.
      res = await t.api('delete', `accounts/${accountId}`);
    } finally {
      dav.thaw();
    }
    const [report] = await round;
    expect(report.ok).toBe(false);
    const onServer = (await hrefsIn(dav, familyUrl)).length;
    expect(onServer).toBeGreaterThan(0);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: accountId, name: 'Home server', deleted: true });
    const n = (sql: string) => (t.server.db.prepare(sql).get() as { n: number }).n;
    expect(n('SELECT count(*) AS n FROM caldav_accounts')).toBe(0);
    expect(n('SELECT count(*) AS n FROM calendars')).toBe(1);
    expect(n('SELECT count(*) AS n FROM events WHERE calendar_id <> 1')).toBe(0);
    expect(n('SELECT count(*) AS n FROM events')).toBe(1);
    expect(n('SELECT count(*) AS n FROM event_series WHERE id NOT IN (SELECT id FROM events)')).toBe(0);
    for (const table of ['event_reminders', 'reminder_due', 'event_terms', 'event_organizers']) expect(n(`SELECT count(*) AS n FROM ${table} WHERE event_id NOT IN (SELECT id FROM events)`), table).toBe(0);
    expect(n('SELECT count(*) AS n FROM events_search WHERE rowid NOT IN (SELECT id FROM events)')).toBe(0);
    expect(n("SELECT count(*) AS n FROM posts WHERE type = 'event' AND id NOT IN (SELECT id FROM events)")).toBe(0);
    for (const table of ['dav_objects', 'dav_outbox', 'sync_conflicts']) expect(n(`SELECT count(*) AS n FROM ${table}`), table).toBe(0);
    expect(t.server.secrets!.get(accountSecretKey(accountId))).toBeUndefined();
    expect((await t.api('get', 'events').query({ search: 'Zumbafloss', start_date: '2031-01-01', end_date: '2032-01-01' })).body.events ?? []).toEqual([]);
    expect((await t.api('get', `events/${local.body.id}`)).status).toBe(200);
    // Nothing was deleted on the server.
    expect(await hrefsIn(dav, familyUrl)).toHaveLength(onServer);
    expect((await t.api('delete', `accounts/${accountId}`)).status).toBe(404);
    expect((await t.api('get', 'accounts')).body).toEqual([]);
  });
});
