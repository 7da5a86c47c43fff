/**
 * Read-only iCalendar subscriptions (issue 17 item 7) through the API, against a real feed on a
 * local `http` server that honours ETag and Last-Modified: the first fetch, refreshes that change,
 * add and remove events keeping the ids of the rest, the 304 path, bad addresses refused with
 * nothing stored, read-only refusals, and a removal that leaves no row behind.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { startFeedServer, icsFeed, type FeedServer } from '../../helpers/feed-server';

const HOLIDAYS = readFileSync(new URL('../../fixtures/ics/python-icalendar/calendars/example.ics', import.meta.url), 'utf8');
const YEAR_2022 = { start_date: '2022-01-01 00:00:00', end_date: '2022-12-31 23:59:59', per_page: 50 };

let t: TestServer;
let feed: FeedServer;

beforeAll(async () => {
  t = await startTestServer({ subscriptionRefreshMs: 0 });
  feed = await startFeedServer();
});
afterAll(async () => {
  await t.close();
  await feed.close();
});

interface Ev {
  id: number;
  title: string;
  calendar: number;
  start_date: string;
}

async function eventsOf(calendar: number, query: Record<string, unknown> = YEAR_2022): Promise<Ev[]> {
  const res = await t.api('get', 'events').query({ ...query, calendar });
  expect(res.status).toBe(200);
  return res.body.events;
}

const rows = (sql: string, ...args: unknown[]) => (t.server.db.prepare(sql).get(...args) as { n: number }).n;

describe('subscribing', () => {
  let holidays: number;

  it('fetches the feed before answering: a read-only calendar named after the feed, with its events', async () => {
    feed.setFeed(HOLIDAYS);
    const res = await t.api('post', 'subscriptions').send({ url: `${feed.url}/feed.ics` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ name: 'Holidays', read_only: true, account: null, events: 3, subscription: { url: `${feed.url}/feed.ics`, last_error: null } });
    expect(res.body.subscription.refreshed_utc).toMatch(/^\d{4}-\d\d-\d\dT/);
    holidays = res.body.id;

    const calendars = (await t.api('get', 'calendars')).body as Array<{ id: number; read_only: boolean; subscription: unknown }>;
    expect(calendars[0].id).toBe(1);
    expect(calendars.find((c) => c.id === holidays)).toMatchObject({ read_only: true, subscription: { url: `${feed.url}/feed.ics`, last_error: null } });
    expect(calendars.find((c) => c.id === 1)).toMatchObject({ read_only: false, subscription: null });

    const events = await eventsOf(holidays);
    expect(events.map((e) => e.title).sort()).toEqual(["International Women's Day", "New Year's Day", 'Orthodox Christmas']);
    expect(events.every((e) => e.calendar === holidays)).toBe(true);
    // ?calendar= filters: none of them is on this computer's calendar.
    expect(await eventsOf(1)).toEqual([]);
  });

  it('a name and colour given win over the feed\'s; an address that redirects is followed', async () => {
    const res = await t.api('post', 'subscriptions').send({ url: `${feed.url}/moved.ics`, name: 'Days off', color: '#22aa44' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ name: 'Days off', color: '#22aa44', events: 3 });
    expect((await t.api('delete', `subscriptions/${res.body.id}`)).status).toBe(200);
  });

  it('export and lists include the subscription; ?calendar= filters the export too', async () => {
    const all = await t.api('get', 'export').query({ format: 'ics', ...YEAR_2022 });
    expect(all.status).toBe(200);
    expect(all.text).toContain("SUMMARY:New Year's Day");
    const local = await t.api('get', 'export').query({ format: 'ics', ...YEAR_2022, calendar: 1 });
    expect(local.text).not.toContain("New Year's Day");
  });

  it('a refresh of an unchanged feed is a 304 that changes nothing', async () => {
    const before = await eventsOf(holidays);
    const stamp = t.snapshot();
    const notModified = feed.counts.notModified;
    const res = await t.api('post', `subscriptions/${holidays}/refresh`);
    expect(res.status).toBe(200);
    expect(res.body.refresh).toMatchObject({ ok: true, unchanged: true, added: 0, updated: 0, removed: 0 });
    expect(feed.counts.notModified).toBe(notModified + 1);
    expect(feed.requests.at(-1)).toMatchObject({ ifNoneMatch: '"v1"' });
    expect(feed.requests.at(-1)!.ifModifiedSince).toBeDefined();
    expect(t.snapshot()).toEqual(stamp);
    expect(await eventsOf(holidays)).toEqual(before);
  });

  it('a new feed replaces the events by UID: kept ones keep their ids, changed ones change, gone ones go', async () => {
    const before = await eventsOf(holidays);
    const id = (title: string) => before.find((e) => e.title === title)!.id;
    const changed = HOLIDAYS.replace('SUMMARY:Orthodox Christmas', 'SUMMARY:Orthodox Christmas Day')
      // International Women's Day leaves the feed; a new holiday comes.
      .replace(/BEGIN:VEVENT\r?\nSUMMARY:International Women's Day[\s\S]*?END:VEVENT\r?\n/, '')
      .replace('END:VCALENDAR', 'BEGIN:VEVENT\r\nSUMMARY:Workers\' Day\r\nDTSTART;VALUE=DATE:20220501\r\nUID:workers-day@test\r\nEND:VEVENT\r\nEND:VCALENDAR');
    expect(changed).not.toContain('Women');
    feed.setFeed(changed);
    const res = await t.api('post', `subscriptions/${holidays}/refresh`);
    expect(res.body.refresh).toMatchObject({ ok: true, unchanged: false, added: 1, updated: 1, removed: 1 });
    const after = await eventsOf(holidays);
    expect(after.map((e) => e.title).sort()).toEqual(["New Year's Day", 'Orthodox Christmas Day', "Workers' Day"]);
    expect(after.find((e) => e.title === "New Year's Day")!.id).toBe(id("New Year's Day"));
    expect(after.find((e) => e.title === 'Orthodox Christmas Day')!.id).toBe(id('Orthodox Christmas'));
    expect((await t.api('get', `events/${id("International Women's Day")}`)).status).toBe(404);
    // Nothing of the feed's writes waits to go to a CalDAV server.
    expect(rows('SELECT count(*) AS n FROM dav_outbox')).toBe(0);
  });

  it('Last-Modified alone is honoured too (If-Modified-Since), and a new version is fetched whole', async () => {
    feed.setFeed(icsFeed('Team', [{ uid: 'standup@test', summary: 'Stand-up', start: '20260105T090000Z', end: '20260105T091500Z', rrule: 'FREQ=WEEKLY;COUNT=10' }]), { etag: false });
    const sub = await t.api('post', 'subscriptions').send({ url: `${feed.url}/feed.ics?team` });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    const range = { start_date: '2026-01-01 00:00:00', end_date: '2026-06-30 23:59:59', per_page: 50 };
    const first = await eventsOf(sub.body.id, range);
    expect(first).toHaveLength(10);

    const notModified = feed.counts.notModified;
    const same = await t.api('post', `subscriptions/${sub.body.id}/refresh`);
    expect(same.body.refresh).toMatchObject({ ok: true, unchanged: true });
    expect(feed.requests.at(-1)).toEqual({ ifNoneMatch: undefined, ifModifiedSince: expect.any(String) });
    expect(feed.counts.notModified).toBe(notModified + 1);

    // The series renamed, and its third occurrence moved: a series stays a series, its rows keep their ids.
    feed.setFeed(
      icsFeed('Team', [
        { uid: 'standup@test', summary: 'Daily stand-up', start: '20260105T090000Z', end: '20260105T091500Z', rrule: 'FREQ=WEEKLY;COUNT=10' },
        { uid: 'standup@test', summary: 'Daily stand-up (moved)', start: '20260119T100000Z', end: '20260119T101500Z', recurrenceId: '20260119T090000Z' },
      ]),
      { etag: false },
    );
    const next = await t.api('post', `subscriptions/${sub.body.id}/refresh`);
    expect(next.body.refresh).toMatchObject({ ok: true, unchanged: false, updated: 1 });
    const after = await eventsOf(sub.body.id, range);
    expect(after.map((e) => e.id).sort()).toEqual(first.map((e) => e.id).sort());
    expect(after.filter((e) => e.title === 'Daily stand-up')).toHaveLength(9);
    expect(after.find((e) => e.title === 'Daily stand-up (moved)')!.start_date).toBe('2026-01-19 10:00:00');
    await t.api('delete', `subscriptions/${sub.body.id}`);
  });

  it('a refresh that fails keeps the events and says why in GET /calendars', async () => {
    feed.setFeed('<html>maintenance</html>');
    const res = await t.api('post', `subscriptions/${holidays}/refresh`);
    expect(res.body.refresh).toMatchObject({ ok: false });
    expect(res.body.subscription.last_error).toMatch(/iCalendar/);
    expect(await eventsOf(holidays)).toHaveLength(3);
    const calendars = (await t.api('get', 'calendars')).body as Array<{ id: number; subscription: { last_error: string } | null }>;
    expect(calendars.find((c) => c.id === holidays)!.subscription!.last_error).toMatch(/iCalendar/);
    // Kept by message key: each reader gets it in their language.
    const es = (await t.api('get', 'calendars').query({ i18n_language: 'es' })).body as typeof calendars;
    expect(es.find((c) => c.id === holidays)!.subscription!.last_error).toMatch(/^Esta dirección no da un archivo iCalendar/);
  });

  describe('read-only', () => {
    it('refuses every write to the subscription or its events with 403 calendar-read-only, changing nothing', async () => {
      const [event] = await eventsOf(holidays);
      const local = await t.api('post', 'events').send({ title: 'Mine', start_date: '2022-02-02 10:00:00', end_date: '2022-02-02 11:00:00' });
      expect(local.status).toBe(201);
      const stamp = t.snapshot();
      const refusals = [
        await t.api('post', 'events').send({ title: 'Sneaked in', start_date: '2022-02-02 10:00:00', end_date: '2022-02-02 11:00:00', calendar: holidays }),
        await t.api('patch', `events/${event.id}`).send({ title: 'Renamed' }),
        await t.api('post', `events/${event.id}`).send({ title: 'Renamed' }),
        await t.api('delete', `events/${event.id}`),
        await t.api('delete', `events/${event.id}`).query({ force: true }),
        await t.api('patch', `events/${local.body.id}`).send({ calendar: holidays }),
      ];
      for (const r of refusals) {
        expect(r.status, JSON.stringify(r.body)).toBe(403);
        expect(r.body.code).toBe('calendar-read-only');
        expect(r.body.message).toContain('"Holidays" is a subscription');
      }
      const es = await t.api('patch', `events/${event.id}`).query({ i18n_language: 'es' }).send({ title: 'x' });
      expect(es.body.message).toMatch(/es una suscripción/);
      expect(t.snapshot()).toEqual(stamp);
    });

    it('an iCalendar file imported with the same UIDs does not touch the subscription', async () => {
      const before = await eventsOf(holidays);
      const res = await t.api('post', 'import').query({ format: 'ics' }).set('Content-Type', 'text/calendar').send(HOLIDAYS.replace("New Year's Day", 'My new year'));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await eventsOf(holidays)).toEqual(before);
      expect((await eventsOf(1)).map((e) => e.title)).toContain('My new year');
    });
  });

  it('unsubscribing deletes the calendar and its events for good: no row is left', async () => {
    feed.setFeed(icsFeed('Gone soon', [
      { uid: 'weekly@test', summary: 'Weekly', start: '20260105T090000Z', end: '20260105T100000Z', rrule: 'FREQ=WEEKLY;COUNT=5' },
      { uid: 'once@test', summary: 'Once', start: '20260107T090000Z', end: '20260107T100000Z', extra: ['BEGIN:VALARM', 'ACTION:DISPLAY', 'TRIGGER:-PT15M', 'END:VALARM'] },
    ]));
    const postsBefore = rows('SELECT count(*) AS n FROM posts');
    const sub = await t.api('post', 'subscriptions').send({ url: `${feed.url}/feed.ics?soon-gone` });
    expect(sub.status).toBe(201);
    const id = sub.body.id as number;
    expect(rows('SELECT count(*) AS n FROM events WHERE calendar_id = ?', id)).toBe(6);
    expect(rows('SELECT count(*) AS n FROM event_reminders')).toBeGreaterThan(0);

    const res = await t.api('delete', `subscriptions/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, deleted: true });
    expect(rows('SELECT count(*) AS n FROM calendars WHERE id = ?', id)).toBe(0);
    expect(rows('SELECT count(*) AS n FROM events WHERE calendar_id = ?', id)).toBe(0);
    expect(rows('SELECT count(*) AS n FROM posts')).toBe(postsBefore);
    expect(rows('SELECT count(*) AS n FROM posts WHERE id NOT IN (SELECT id FROM events UNION SELECT id FROM venues UNION SELECT id FROM organizers UNION SELECT id FROM images)')).toBe(0);
    expect(rows('SELECT count(*) AS n FROM event_series WHERE id NOT IN (SELECT id FROM events)')).toBe(0);
    expect(rows('SELECT count(*) AS n FROM event_reminders WHERE event_id NOT IN (SELECT id FROM events)')).toBe(0);
    expect(rows('SELECT count(*) AS n FROM subscription_items WHERE calendar_id = ?', id)).toBe(0);
    expect(rows('SELECT count(*) AS n FROM dav_outbox')).toBe(0);
    expect(rows("SELECT count(*) AS n FROM events_search WHERE events_search MATCH 'Weekly'")).toBe(0);
    expect((await t.api('delete', `subscriptions/${id}`)).status).toBe(404);
    expect((await t.api('post', `subscriptions/${id}/refresh`)).status).toBe(404);
  });
});

describe('bad addresses are refused in words, with nothing stored', () => {
  // A port nothing listens on (one just freed): fetch refuses well-known ones such as 9 by itself.
  let closedPort = 0;
  beforeAll(async () => {
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((done) => probe.close(() => done()));
  });
  const cases: Array<[string, () => string, RegExp]> = [
    ['not reachable', () => `http://127.0.0.1:${closedPort}/feed.ics`, /Could not reach 127\.0\.0\.1:\d+ \(connection refused/],
    ['not found', () => `${feed.url}/nothing.ics`, /answered HTTP 404/],
    ['a web page', () => `${feed.url}/page.html`, /does not give an iCalendar file \(it sent a web page\)/],
    ['too big', () => `${feed.url}/huge.ics`, /larger than 16 MB/],
    ['redirected in a loop', () => `${feed.url}/loop.ics`, /redirected the request more than 5 times/],
  ];
  for (const [what, url, reason] of cases) {
    it(what, async () => {
      const stamp = t.snapshot();
      const calendars = rows('SELECT count(*) AS n FROM calendars');
      const res = await t.api('post', 'subscriptions').send({ url: url() });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(res.body.data.params.url).toMatch(reason);
      expect(res.body.message).toMatch(/^Nothing was subscribed: /);
      expect(rows('SELECT count(*) AS n FROM calendars')).toBe(calendars);
      expect(t.snapshot()).toEqual(stamp);
    });
  }

  it('an address already subscribed to', async () => {
    const res = await t.api('post', 'subscriptions').send({ url: `${feed.url}/feed.ics` });
    expect(res.status).toBe(400);
    expect(res.body.data.params.url).toBe('You are already subscribed to this address, as "Holidays".');
  });

  it('too many events', async () => {
    const many = Array.from({ length: 10_001 }, (_, i) => ({ uid: `e${i}@test`, summary: `Day ${i}`, start: '20260101' }));
    feed.setFeed(icsFeed('Many', many));
    const calendars = rows('SELECT count(*) AS n FROM calendars');
    const res = await t.api('post', 'subscriptions').send({ url: `${feed.url}/feed.ics?many` });
    expect(res.status).toBe(400);
    expect(res.body.data.params.url).toMatch(/holds 10001 events, more than the 10000/);
    expect(rows('SELECT count(*) AS n FROM calendars')).toBe(calendars);
  });

  it('an address that is not a calendar address, in the request language', async () => {
    for (const url of ['ftp://example.com/x.ics', 'not a url', '']) {
      const res = await t.api('post', 'subscriptions').send({ url });
      expect(res.status).toBe(400);
      expect(res.body.data.params.url).toMatch(/webcal:\/\//);
    }
    const pt = await t.api('post', 'subscriptions').query({ i18n_language: 'pt-br' }).send({ url: `${feed.url}/page.html` });
    expect(pt.body.data.params.url).toMatch(/não fornece um arquivo iCalendar/);
    expect(pt.body.message).toMatch(/^Nada foi assinado/);
  });
});
