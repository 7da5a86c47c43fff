/**
 * Issue 25: an edit another client makes to an event Almanac wrote wins after a pull, and stays
 * after Almanac's next edit. The other clients' rewrites are the fixtures in
 * test/fixtures/ics/rewrites/ (Thunderbird's and iOS's shape: the standard properties changed,
 * Almanac's X- properties kept as they were), put on a real Radicale over Almanac's copy.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverAccount } from '../../../electron/server/caldav/discovery';
import { accountSecretKey } from '../../../electron/server/secrets';
import { startRadicale, makeCalendar, putIcs, getResource, runCalDavSuites, type CalDavTestServer } from '../../helpers/caldav-servers';
import { startTestServer, type TestServer } from '../../helpers/server';
import { unfold } from '../../helpers/ics';

const FIXTURES = join(__dirname, '../../fixtures/ics/rewrites');

describe.runIf(runCalDavSuites)("another client's edit of an event Almanac wrote, through Radicale", () => {
  let dav: CalDavTestServer;
  let calendarUrl: string;
  let t: TestServer;
  let calendar: number;
  let accountId: number;

  const sync = async () => {
    const [report] = await t.server.sync.syncNow([accountId]);
    expect(report.error, JSON.stringify(report)).toBeUndefined();
    return report.calendars[0];
  };
  const events = async (query: Record<string, string> = {}) => {
    const res = await t.api('get', 'events').query({ start_date: '2031-01-01', end_date: '2032-01-01', per_page: '50', calendar: String(calendar), ...query });
    expect(res.status).toBe(200);
    return res.body.events as Array<Record<string, any>>;
  };
  const uidOf = (id: number) => (t.server.db.prepare('SELECT ics_uid FROM events WHERE id = ?').get(id) as { ics_uid: string }).ics_uid;

  /** The server's copy of an event, then the fixture put over it as the other client's edit. */
  async function editElsewhere(id: number, fixture: string): Promise<string> {
    const uid = uidOf(id);
    const href = t.server.db.prepare('SELECT href FROM dav_objects WHERE uid = ?').pluck().get(uid) as string | undefined;
    expect(href, 'the event is on the server').toBeDefined();
    const url = new URL(href!, calendarUrl).href;
    const current = await getResource(dav, url);
    expect(current.status).toBe(200);
    const text = readFileSync(join(FIXTURES, fixture), 'utf8').replace(/^UID:.*$/m, `UID:${uid}`);
    const name = new URL(url).pathname.split('/').pop()!;
    const put = await putIcs(dav, calendarUrl, text, { name, ifMatch: current.etag ?? undefined });
    expect(put.status, put.body).toBeLessThan(300);
    return url;
  }

  beforeAll(async () => {
    dav = await startRadicale();
    calendarUrl = await makeCalendar(dav, 'rewrites', { displayName: 'Rewrites' });
    t = await startTestServer({ syncIntervalMs: 0, syncDebounceMs: 0 });
    const found = await discoverAccount(dav.url, { user: dav.user, password: dav.password });
    const store = t.server.store;
    const account = store.write(() =>
      store.accounts.add(
        { name: 'test', serverUrl: found.serverUrl, username: dav.user, principalUrl: found.principalUrl, homeUrl: found.homeUrl, createdUtc: new Date().toISOString() },
        found.calendars.map((c) => ({ url: c.url, name: c.displayName, color: c.color, ctag: null, syncToken: null, hasSyncCollection: c.supportsSyncCollection, readOnly: c.readOnly, synced: c.url === calendarUrl })),
      ),
    );
    accountId = account.id;
    t.server.secrets!.set(accountSecretKey(account.id), dav.password);
    calendar = store.accounts.calendars().find((c) => c.url === calendarUrl)!.id;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await dav?.stop();
  });

  it("Thunderbird's edit of a series (zone, description, location) wins on pull and stays after an edit here", async () => {
    const created = await t.api('post', 'events').send({
      title: 'Choir rehearsal', calendar, start_date: '2031-03-04 13:00:00', end_date: '2031-03-04 15:00:00', timezone: 'America/New_York',
      description: '<p>Bring the <b>new</b> scores.</p>', venue: { venue: 'Town Hall', address: '1 Main St', city: 'Springfield', phone: '555-0100' },
      recurrence: { rules: ['FREQ=WEEKLY;COUNT=10'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await sync()).sent.created).toBe(1);

    const href = await editElsewhere(created.body.id, 'thunderbird-series.ics');
    expect((await sync()).received.changed).toBe(1);

    const series = (await events()).filter((e) => e.title === 'Choir rehearsal');
    // 13:00 in Madrid every week, also in the weeks when New York has moved to summer time and Madrid not yet.
    expect(series.map((e) => [e.start_date, e.timezone])).toEqual(
      ['03-04', '03-11', '03-18', '03-25', '04-01', '04-08', '04-15', '04-22', '04-29', '05-06'].map((d) => [`2031-${d} 13:00:00`, 'Europe/Madrid']),
    );
    const first = series[0];
    expect(first.venue.venue).toBe('Sala Luso');
    expect(first.venue.phone).toBeUndefined();
    expect(first.description).not.toContain('new</b>');
    expect(first.description).toContain('Bring the old scores.');
    // Thunderbird's "<b>" was text, and is shown as text.
    expect(first.description).toContain('&lt;b&gt;');

    // Almanac's next edit keeps what the other client wrote.
    const edited = await t.api('post', `events/${first.id}`).send({ title: 'Choir rehearsal (all voices)' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await sync()).sent.updated).toBe(1);
    const stored = unfold((await getResource(dav, href)).text);
    expect(stored).toContain('SUMMARY:Choir rehearsal (all voices)');
    expect(stored).toContain('DTSTART;TZID=Europe/Madrid:20310304T130000');
    expect(stored).toContain('LOCATION:Sala Luso');
    expect(stored).toContain('DESCRIPTION:Bring the old scores.\\nWarm-up at 12:45.\\n\\nNo parking this week: <b> and < mean what they say & so does this.');
    expect(stored).not.toContain('X-ALT-DESC');
    expect(stored).not.toContain('Town Hall');
    expect(stored).not.toContain('X-ALMANAC-TIMEZONE');
    expect(stored).toContain('X-MOZ-GENERATION:2');
    // Nothing left to send or take.
    const again = await sync();
    expect(again.sent).toEqual({ created: 0, updated: 0, deleted: 0 });
    expect(again.received).toEqual({ changed: 0, deleted: 0 });
  });

  it("iOS's edit of a single event (zone, two-line description, place from the map) wins on pull and stays after an edit here", async () => {
    const created = await t.api('post', 'events').send({
      title: 'Fado night', calendar, start_date: '2031-06-10 20:00:00', end_date: '2031-06-10 22:00:00', timezone: 'America/New_York',
      description: '<p>Tickets <i>only</i> online.</p>', venue: { venue: 'Town Hall', address: '1 Main St', city: 'Springfield' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await sync();
    const href = await editElsewhere(created.body.id, 'ios-single.ics');
    expect((await sync()).received.changed).toBe(1);

    const [fado] = (await events()).filter((e) => e.title === 'Fado night');
    expect(fado).toMatchObject({ id: created.body.id, start_date: '2031-06-10 20:00:00', timezone: 'Europe/Lisbon' });
    expect(fado.description).toBe('<p>Tickets at the door.<br />\nDoors open at 19:30.</p>');
    expect(fado.venue).toMatchObject({ venue: 'Sala Luso', address: 'Rua Augusta 10, 1100-053 Lisboa, Portugal' });

    expect((await t.api('post', `events/${fado.id}`).send({ title: 'Fado night (sold out)' })).status).toBe(200);
    await sync();
    const stored = unfold((await getResource(dav, href)).text);
    expect(stored).toContain('DTSTART;TZID=Europe/Lisbon:20310610T200000');
    expect(stored).toContain('DESCRIPTION:Tickets at the door.\\nDoors open at 19:30.');
    expect(stored).not.toContain('<i>only</i>');
    expect(stored).toMatch(/^LOCATION:Sala Luso/m);
    expect(stored).toContain('X-APPLE-STRUCTURED-LOCATION');
  });
});
