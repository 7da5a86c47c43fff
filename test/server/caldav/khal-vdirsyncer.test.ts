/**
 * A real third-party client on the same calendar (issue 25): Almanac (a real server syncing over
 * CalDAV) ⇄ Radicale ⇄ vdirsyncer ⇄ a folder of .ics files read by khal. These are the Debian
 * packages, not code of ours: what khal lists is what a user keeping the calendar in a terminal
 * sees, and what it writes is what Almanac must take.
 *
 * What khal itself did and what it did not, honestly:
 * - listings: `khal list` (the CLI), in Europe/Lisbon with fixed formats (khal-processes.ts);
 * - new event: `khal new` (the CLI), which writes the file;
 * - description and location edits: khal's own Python objects, doing what its editor's Save does
 *   (khal-edit.py), since `khal edit` is an interactive form;
 * - a series' time zone: khal's editor has no zone field, so the move is khal's own
 *   Event.update_start_end with the same wall-clock times in another zone (khal writes the TZIDs
 *   and the VTIMEZONE);
 * - deletion: khal's CalendarCollection.delete, what its list view's delete does.
 * Every change then travels by `vdirsyncer sync` to Radicale and by Almanac's sync from there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverAccount } from '../../../electron/server/caldav/discovery';
import { accountSecretKey } from '../../../electron/server/secrets';
import type { SyncReport } from '../../../electron/server/caldav/sync';
import { startRadicale, makeCalendar, runCalDavSuites, type CalDavTestServer } from '../../helpers/caldav-servers';
import { thirdClient, runThirdClientSuites, type ThirdClient } from '../../helpers/khal';
import { startTestServer, type TestServer } from '../../helpers/server';

/** The Standup series' days (weekly on Tuesdays). */
const STANDUPS = ['2031-03-04', '2031-03-11', '2031-03-18', '2031-03-25', '2031-04-01', '2031-04-08'];

const WINDOW = { start_date: '2031-01-01', end_date: '2032-01-01', per_page: '100' };

/** An Almanac data dir with the CalDAV account, syncing one calendar (as sync.test.ts sets it up). */
async function almanacOn(dav: CalDavTestServer, calendarUrl: string) {
  const t = await startTestServer({ syncIntervalMs: 0, syncDebounceMs: 0 });
  const found = await discoverAccount(dav.url, { user: dav.user, password: dav.password });
  const store = t.server.store;
  const account = store.write(() =>
    store.accounts.add(
      { name: 'radicale', serverUrl: found.serverUrl, username: dav.user, principalUrl: found.principalUrl, homeUrl: found.homeUrl, createdUtc: new Date().toISOString() },
      found.calendars.map((c) => ({ url: c.url, name: c.displayName, color: c.color, ctag: null, syncToken: null, hasSyncCollection: c.supportsSyncCollection, readOnly: c.readOnly, synced: c.url === calendarUrl })),
    ),
  );
  t.server.secrets!.set(accountSecretKey(account.id), dav.password);
  const calendar = store.accounts.calendars().find((c) => c.url === calendarUrl)!.id;
  return {
    t,
    calendar,
    async sync(): Promise<SyncReport> {
      const [report] = await t.server.sync.syncNow([account.id]);
      expect(report.error, JSON.stringify(report)).toBeUndefined();
      expect(report.calendars[0].error, JSON.stringify(report)).toBeUndefined();
      return report;
    },
    async events(query: Record<string, string> = {}): Promise<Array<Record<string, any>>> {
      const res = await t.api('get', 'events').query({ ...WINDOW, calendar: String(calendar), ...query });
      expect(res.status).toBe(200);
      return res.body.events;
    },
    async create(body: Record<string, unknown>): Promise<Record<string, any>> {
      const res = await t.api('post', 'events').send({ calendar, ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    },
    uidOf(id: number): string {
      return (t.server.db.prepare('SELECT ics_uid FROM events WHERE id = ?').get(id) as { ics_uid: string }).ics_uid;
    },
  };
}

/** khal's lines (`day: start|end|title|location|description`) of the events whose title starts with `title`. */
const linesOf = (lines: string[], title: string) => lines.filter((l) => l.split('|')[2]?.startsWith(title));
/** Almanac's description as the user reads it: the HTML's text, line breaks as new lines. */
const plain = (html: string) =>
  html
    .replace(/<br\s*\/?>\n?/g, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();

/** A description khal writes: two lines, and text that looks like markup but is not. */
const DRINKS_NOTE = 'Table by the window\nAsk for <b>Rui</b> & pay at the bar';

// Each test runs several Python programs one after the other (a khal or vdirsyncer run costs
// 0.3-1 s of start-up alone, more on a busy machine), each bounded by khal-processes.ts.
describe.runIf(runCalDavSuites && runThirdClientSuites)('Almanac, Radicale and vdirsyncer + khal on one calendar', { timeout: 60_000 }, () => {
  let dav: CalDavTestServer;
  let calendarUrl: string;
  let almanac: Awaited<ReturnType<typeof almanacOn>>;
  let khal: ThirdClient;
  /** Almanac's ids and UIDs of what it made, by name. */
  const made: Record<string, { id: number; uid: string }> = {};

  beforeAll(async () => {
    dav = await startRadicale();
    calendarUrl = await makeCalendar(dav, 'shared', { displayName: 'Shared' });
    almanac = await almanacOn(dav, calendarUrl);
    khal = thirdClient(calendarUrl, dav.user, dav.password);
  }, 60_000);
  afterAll(async () => {
    await almanac?.t.close();
    await dav?.stop();
  });

  it("Almanac's events are listed by khal at the right local times: a series with an exception and an EXDATE across DST weeks, all-day, across midnight", async () => {
    // 13:00 in New York every Monday from 3 March 2031: the US moves its clocks on 9 March and
    // Europe on 30 March, so in Lisbon it is 18:00, then 17:00 for three weeks, then 18:00 again.
    const series = await almanac.create({ title: 'NY call', start_date: '2031-03-03 13:00:00', end_date: '2031-03-03 14:00:00', timezone: 'America/New_York', recurrence: { rules: ['FREQ=WEEKLY;COUNT=6'] } });
    made.series = { id: series.id, uid: almanac.uidOf(series.id) };
    const occurrences = await almanac.events({ post_parent: String(series.id) });
    const third = occurrences.find((o) => o.start_date.startsWith('2031-03-17'))!;
    const moved = await almanac.t.api('post', `events/${third.id}`).query({ recurrence_scope: 'this' }).send({ title: 'NY call (moved)', start_date: '2031-03-17 15:00:00', end_date: '2031-03-17 16:00:00' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const fourth = occurrences.find((o) => o.start_date.startsWith('2031-03-24'))!;
    expect((await almanac.t.api('delete', `events/${fourth.id}`).query({ recurrence_scope: 'this' })).status).toBe(200);

    const holiday = await almanac.create({ title: 'Easter break 🐣', all_day: true, start_date: '2031-04-14', end_date: '2031-04-16', timezone: 'Europe/Lisbon' });
    made.holiday = { id: holiday.id, uid: almanac.uidOf(holiday.id) };
    const night = await almanac.create({ title: 'Night shift', start_date: '2031-04-18 22:00:00', end_date: '2031-04-19 06:00:00', timezone: 'Europe/Lisbon' });
    made.night = { id: night.id, uid: almanac.uidOf(night.id) };
    // Berlin's 10:00 on the Sunday Europe moves its clocks: 09:00 in Lisbon either way.
    const dstDay = await almanac.create({ title: 'Clock change brunch', start_date: '2031-03-30 10:00:00', end_date: '2031-03-30 11:30:00', timezone: 'Europe/Berlin', venue: { venue: 'Café Einstein' } });
    made.dstDay = { id: dstDay.id, uid: almanac.uidOf(dstDay.id) };
    const dentist = await almanac.create({ title: 'Dentist', start_date: '2031-05-06 10:00:00', end_date: '2031-05-06 11:00:00', timezone: 'Europe/Lisbon', description: 'Bring the card', venue: { venue: 'Clinic A' } });
    made.dentist = { id: dentist.id, uid: almanac.uidOf(dentist.id) };
    // A series khal will move to another zone later, over the weeks when New York and Europe differ.
    const standup = await almanac.create({ title: 'Standup', start_date: '2031-03-04 13:00:00', end_date: '2031-03-04 13:15:00', timezone: 'America/New_York', recurrence: { rules: ['FREQ=WEEKLY;COUNT=6'] } });
    made.standup = { id: standup.id, uid: almanac.uidOf(standup.id) };
    const doomed = await almanac.create({ title: 'Cancelled dinner', start_date: '2031-05-09 20:00:00', end_date: '2031-05-09 22:00:00', timezone: 'Europe/Lisbon' });
    made.doomed = { id: doomed.id, uid: almanac.uidOf(doomed.id) };

    expect((await almanac.sync()).calendars[0].sent.created).toBe(7);
    await khal.sync();
    expect(khal.files().size).toBe(7);

    const lines = await khal.list('2031-03-01', '2031-07-01');
    expect(linesOf(lines, 'NY call')).toEqual([
      '2031-03-03: 2031-03-03 18:00|2031-03-03 19:00|NY call||',
      '2031-03-10: 2031-03-10 17:00|2031-03-10 18:00|NY call||',
      '2031-03-17: 2031-03-17 19:00|2031-03-17 20:00|NY call (moved)||',
      // 24 March: the EXDATE.
      '2031-03-31: 2031-03-31 18:00|2031-03-31 19:00|NY call||',
      '2031-04-07: 2031-04-07 18:00|2031-04-07 19:00|NY call||',
    ]);
    expect(linesOf(lines, 'Clock change brunch')).toEqual(['2031-03-30: 2031-03-30 09:00|2031-03-30 10:30|Clock change brunch|Café Einstein|']);
    // All-day from the 14th to the 16th included: shown on three days, none more.
    expect(linesOf(lines, 'Easter break')).toEqual(['2031-04-14', '2031-04-15', '2031-04-16'].map((d) => `${d}: 2031-04-14|2031-04-16|Easter break 🐣||`));
    expect(linesOf(lines, 'Night shift')).toEqual(['2031-04-18', '2031-04-19'].map((d) => `${d}: 2031-04-18 22:00|2031-04-19 06:00|Night shift||`));
    expect(linesOf(lines, 'Dentist')).toEqual(['2031-05-06: 2031-05-06 10:00|2031-05-06 11:00|Dentist|Clinic A|Bring the card']);
    expect(linesOf(lines, 'Standup').map((l) => l.split('|')[0])).toEqual([
      '2031-03-04: 2031-03-04 18:00',
      '2031-03-11: 2031-03-11 17:00',
      '2031-03-18: 2031-03-18 17:00',
      '2031-03-25: 2031-03-25 17:00',
      '2031-04-01: 2031-04-01 18:00',
      '2031-04-08: 2031-04-08 18:00',
    ]);
  });

  it("khal's new event arrives in Almanac exactly: time, zone, location, description", async () => {
    await khal.khal('new', '-a', 'almanac', '-l', 'Café Luso', '2031-05-08 18:00', '19:30', 'Drinks with Ana', '::', 'Table by the window');
    await khal.sync();
    const report = await almanac.sync();
    expect(report.calendars[0].received.changed).toBe(1);
    const [drinks, ...more] = (await almanac.events()).filter((e) => e.title === 'Drinks with Ana');
    expect(more).toEqual([]);
    expect(drinks).toMatchObject({ start_date: '2031-05-08 18:00:00', end_date: '2031-05-08 19:30:00', timezone: 'Europe/Lisbon', all_day: false });
    expect(drinks.venue.venue).toBe('Café Luso');
    expect(plain(drinks.description)).toBe('Table by the window');
    made.drinks = { id: drinks.id, uid: almanac.uidOf(drinks.id) };
  });

  it("khal's edits (descriptions, one of two lines with `<b>` and `&` in it, a location, a series moved to another zone) and a deletion arrive in Almanac", async () => {
    await khal.edit(made.dentist.uid, { description: 'Bring the card and the X-ray' });
    await khal.edit(made.drinks.uid, { description: DRINKS_NOTE });
    await khal.edit(made.dstDay.uid, { location: 'Rooftop café' });
    // 13:00 in Madrid from now on: 12:00 in Lisbon every week (both change their clocks on the same day).
    await khal.edit(made.standup.uid, { zone: 'Europe/Madrid' });
    await khal.edit(made.doomed.uid, { delete: true });
    // khal lists its own edits as it made them.
    const before = await khal.list('2031-03-01', '2031-07-01');
    expect(linesOf(before, 'Dentist')).toEqual(['2031-05-06: 2031-05-06 10:00|2031-05-06 11:00|Dentist|Clinic A|Bring the card and the X-ray']);
    expect(linesOf(before, 'Standup').map((l) => l.split('|')[0])).toEqual(STANDUPS.map((d) => `${d}: ${d} 12:00`));
    expect(linesOf(before, 'Cancelled dinner')).toEqual([]);

    await khal.sync();
    const report = await almanac.sync();
    expect(report.calendars[0].received).toEqual({ changed: 4, deleted: 1 });

    const dentist = (await almanac.t.api('get', `events/${made.dentist.id}`)).body;
    expect.soft(plain(dentist.description)).toBe('Bring the card and the X-ray');
    // Plain text stays plain: a single line break one line break, `<b>` and `&` as typed.
    expect.soft(plain((await almanac.t.api('get', `events/${made.drinks.id}`)).body.description)).toBe(DRINKS_NOTE);
    expect.soft(dentist.venue.venue).toBe('Clinic A');
    const brunch = (await almanac.t.api('get', `events/${made.dstDay.id}`)).body;
    expect.soft(brunch.venue.venue).toBe('Rooftop café');
    expect.soft(brunch).toMatchObject({ start_date: '2031-03-30 10:00:00', timezone: 'Europe/Berlin' });
    const standups = (await almanac.events()).filter((e) => e.title === 'Standup');
    expect.soft(standups.map((e) => [e.start_date, e.end_date, e.timezone])).toEqual(
      STANDUPS.map((d) => [`${d} 13:00:00`, `${d} 13:15:00`, 'Europe/Madrid']),
    );
    expect.soft((await almanac.events()).filter((e) => e.title === 'Cancelled dinner')).toEqual([]);
    expect.soft((await almanac.t.api('get', `events/${made.doomed.id}`)).status).toBe(404);
  });

  it("Almanac's next edit of another field keeps what khal changed, as khal shows after another sync", async () => {
    const retitle = async (id: number, title: string, query: Record<string, string> = {}) => {
      const res = await almanac.t.api('post', `events/${id}`).query(query).send({ title });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    await retitle(made.dentist.id, 'Dentist (Dr. Sousa)');
    await retitle(made.dstDay.id, 'Clock change brunch with Bo');
    await retitle(made.drinks.id, 'Drinks with Ana and Bo');
    const [firstStandup] = (await almanac.events()).filter((e) => e.title === 'Standup');
    await retitle(firstStandup.id, 'Standup (team)', { recurrence_scope: 'all' });
    expect((await almanac.sync()).calendars[0].sent.updated).toBe(4);
    await khal.sync();

    const lines = await khal.list('2031-03-01', '2031-07-01');
    expect.soft(linesOf(lines, 'Dentist')).toEqual(['2031-05-06: 2031-05-06 10:00|2031-05-06 11:00|Dentist (Dr. Sousa)|Clinic A|Bring the card and the X-ray']);
    expect.soft(linesOf(lines, 'Clock change brunch')).toEqual(['2031-03-30: 2031-03-30 09:00|2031-03-30 10:30|Clock change brunch with Bo|Rooftop café|']);
    expect.soft(linesOf(lines, 'Drinks')).toEqual(['2031-05-08: 2031-05-08 18:00|2031-05-08 19:30|Drinks with Ana and Bo|Café Luso|Table by the window']);
    expect.soft(linesOf(lines, 'Standup')).toEqual(STANDUPS.map((d) => `${d}: ${d} 12:00|${d} 12:15|Standup (team)||`));
    expect.soft(linesOf(lines, 'Cancelled dinner')).toEqual([]);
    // khal's text came back to it unchanged, after a round through Almanac.
    const drinksFile = [...khal.files().values()].find((t) => t.includes('Drinks with Ana and Bo'))!;
    expect.soft(drinksFile.replace(/\r?\n[ \t]/g, '').match(/^DESCRIPTION[^:\r\n]*:(.*?)\r?$/m)?.[1]).toBe('Table by the window\\nAsk for <b>Rui</b> & pay at the bar');
    // Nothing left to move either way.
    const again = await almanac.sync();
    expect(again.calendars[0].sent).toEqual({ created: 0, updated: 0, deleted: 0 });
    expect(again.calendars[0].received).toEqual({ changed: 0, deleted: 0 });
  });
});
