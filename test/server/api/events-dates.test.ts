/**
 * Event dates: parsing (strtotime forms, timestamps, relative words) in the event's zone, UTC
 * copies, *_details, abbreviations, all_day, end before start, timezone-only updates
 * (reference §5.1, §7.1, corrections 5, 6, 8).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { Event } from '../../../shared/api/records';
import { startTestServer, type TestServer } from '../../helpers/server';
import { details, expectInvalidParam, mkEvent, mkTerm } from './_support';

const SITE_ZONE = 'America/New_York';
const FMT = 'yyyy-MM-dd HH:mm:ss';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  t.server.store.settings.update({ timezone: SITE_ZONE });
});
afterAll(async () => {
  await t?.close();
});

describe('explicit dates in the event zone', () => {
  it('computes utc_* from the zone and a DST abbreviation (EDT)', async () => {
    const ev = await mkEvent(t, { start_date: '2031-03-14 19:00:00', end_date: '2031-03-14 21:30:00', timezone: 'America/New_York' });
    expect(ev.start_date).toBe('2031-03-14 19:00:00');
    expect(ev.end_date).toBe('2031-03-14 21:30:00');
    expect(ev.utc_start_date).toBe('2031-03-14 23:00:00');
    expect(ev.utc_end_date).toBe('2031-03-15 01:30:00');
    expect(ev.timezone).toBe('America/New_York');
    expect(ev.timezone_abbr).toBe('EDT');
  });

  it('*_details are zero-padded strings of each date', async () => {
    const ev = await mkEvent(t, { start_date: '2031-01-05 04:03:02', end_date: '2031-01-05 09:08:07', timezone: 'America/New_York' });
    expect(ev.start_date_details).toEqual({ year: '2031', month: '01', day: '05', hour: '04', minutes: '03', seconds: '02' });
    expect(ev.end_date_details).toEqual(details('2031-01-05 09:08:07'));
    expect(ev.utc_start_date_details).toEqual({ year: '2031', month: '01', day: '05', hour: '09', minutes: '03', seconds: '02' });
    expect(ev.utc_end_date_details).toEqual(details(ev.utc_end_date));
    expect(ev.timezone_abbr).toBe('EST');
  });

  it('other zones: Europe/Lisbon summer (WEST), Asia/Tokyo (JST), UTC', async () => {
    const lis = await mkEvent(t, { start_date: '2031-07-01 10:00:00', end_date: '2031-07-01 11:00:00', timezone: 'Europe/Lisbon' });
    expect([lis.utc_start_date, lis.timezone_abbr]).toEqual(['2031-07-01 09:00:00', 'WEST']);
    const tyo = await mkEvent(t, { start_date: '2031-07-01 08:00:00', end_date: '2031-07-01 09:00:00', timezone: 'Asia/Tokyo' });
    expect([tyo.utc_start_date, tyo.timezone_abbr]).toEqual(['2031-06-30 23:00:00', 'JST']);
    const utc = await mkEvent(t, { start_date: '2031-07-01 08:00:00', end_date: '2031-07-01 09:00:00', timezone: 'UTC' });
    expect([utc.utc_start_date, utc.timezone, utc.timezone_abbr]).toEqual(['2031-07-01 08:00:00', 'UTC', 'UTC']);
  });

  it('a fixed offset zone (UTC+2) is kept and applied', async () => {
    const ev = await mkEvent(t, { start_date: '2031-07-01 10:00:00', end_date: '2031-07-01 11:00:00', timezone: 'UTC+2' });
    expect(ev.timezone).toBe('UTC+2');
    expect(ev.utc_start_date).toBe('2031-07-01 08:00:00');
    expect(ev.utc_end_date).toBe('2031-07-01 09:00:00');
  });

  it.each([
    ['Europe/London', '2031-07-01 12:00:00', 'BST', '2031-07-01 11:00:00'],
    ['Europe/London', '2031-01-15 12:00:00', 'GMT', '2031-01-15 12:00:00'],
    ['Europe/Berlin', '2031-07-01 12:00:00', 'CEST', '2031-07-01 10:00:00'],
    ['America/Los_Angeles', '2031-07-01 12:00:00', 'PDT', '2031-07-01 19:00:00'],
    ['America/Phoenix', '2031-07-01 12:00:00', 'MST', '2031-07-01 19:00:00'],
    ['Australia/Sydney', '2031-01-10 12:00:00', 'AEDT', '2031-01-10 01:00:00'],
    ['Australia/Sydney', '2031-07-10 12:00:00', 'AEST', '2031-07-10 02:00:00'],
    ['Pacific/Auckland', '2031-01-10 12:00:00', 'NZDT', '2031-01-09 23:00:00'],
    ['Asia/Kolkata', '2031-07-01 12:00:00', 'IST', '2031-07-01 06:30:00'],
    ['Africa/Johannesburg', '2031-07-01 12:00:00', 'SAST', '2031-07-01 10:00:00'],
    ['America/Sao_Paulo', '2031-07-01 12:00:00', '-03', '2031-07-01 15:00:00'],
    ['Asia/Kathmandu', '2031-07-01 12:00:00', '+0545', '2031-07-01 06:15:00'],
  ])('%s at %s: abbreviation %s, UTC %s', async (zone, local, abbr, utc) => {
    const ev = await mkEvent(t, { start_date: local, end_date: local, timezone: zone });
    expect([ev.timezone_abbr, ev.utc_start_date]).toEqual([abbr, utc]);
  });

  it.each([
    ['UTC+5:30', '2031-07-01 06:30:00'],
    ['UTC-3', '2031-07-01 15:00:00'],
    ['UTC+0', '2031-07-01 12:00:00'],
  ])('fixed offset %s', async (zone, utc) => {
    const ev = await mkEvent(t, { start_date: '2031-07-01 12:00:00', end_date: '2031-07-01 12:00:00', timezone: zone });
    expect([ev.timezone, ev.utc_start_date]).toEqual([zone, utc]);
  });

  it('without a timezone the site zone is used', async () => {
    const ev = await mkEvent(t, { start_date: '2031-03-14 19:00:00', end_date: '2031-03-14 20:00:00' });
    expect(ev.timezone).toBe(SITE_ZONE);
    expect(ev.utc_start_date).toBe('2031-03-14 23:00:00');
    expect(ev.timezone_abbr).toBe('EDT');
  });

  it('timezone "" means the site zone', async () => {
    const ev = await mkEvent(t, { start_date: '2031-03-14 19:00:00', end_date: '2031-03-14 20:00:00', timezone: '' });
    expect(ev.timezone).toBe(SITE_ZONE);
  });

  it('a date without a time is midnight; ISO 8601 with T is read', async () => {
    const ev = await mkEvent(t, { start_date: '2031-04-02', end_date: '2031-04-02T18:30:00', timezone: 'UTC' });
    expect(ev.start_date).toBe('2031-04-02 00:00:00');
    expect(ev.end_date).toBe('2031-04-02 18:30:00');
  });

  it('a date with its own offset is converted into the event zone', async () => {
    const ev = await mkEvent(t, { start_date: '2031-03-14T23:00:00Z', end_date: '2031-03-15T01:00:00+00:00', timezone: 'America/New_York' });
    expect(ev.start_date).toBe('2031-03-14 19:00:00');
    expect(ev.end_date).toBe('2031-03-14 21:00:00');
    expect(ev.utc_start_date).toBe('2031-03-14 23:00:00');
  });

  it('written-out dates strtotime knows ("14 March 2031 7pm")', async () => {
    const ev = await mkEvent(t, { start_date: '14 March 2031 7pm', end_date: 'March 14, 2031 9:30pm', timezone: 'UTC' });
    expect(ev.start_date).toBe('2031-03-14 19:00:00');
    expect(ev.end_date).toBe('2031-03-14 21:30:00');
  });

  it.each(['2031-13-45 10:00', 'tomorrowish', '31/31/2031', 'yesterday at noonish'])('unparsable %j → 400', async (bad) => {
    expectInvalidParam(await t.api('post', 'events').send({ title: 'x', start_date: bad, end_date: '2031-01-01' }), 'start_date');
  });
});

describe('unix timestamps (correction 6)', () => {
  const ts = 1931000000; // 2031-03-11 ...
  const expected = (zone: string) => DateTime.fromSeconds(ts, { zone }).toFormat(FMT);

  it('a numeric string is a timestamp, shown in the event zone', async () => {
    const ev = await mkEvent(t, { start_date: String(ts), end_date: String(ts + 3600), timezone: 'Europe/Berlin' });
    expect(ev.start_date).toBe(expected('Europe/Berlin'));
    expect(ev.utc_start_date).toBe(expected('UTC'));
    expect(ev.end_date).toBe(DateTime.fromSeconds(ts + 3600, { zone: 'Europe/Berlin' }).toFormat(FMT));
  });

  it('a JSON number is accepted as a timestamp too', async () => {
    const ev = await mkEvent(t, { start_date: ts, end_date: ts + 7200, timezone: 'America/New_York' });
    expect(ev.start_date).toBe(expected('America/New_York'));
    expect(ev.utc_end_date).toBe(DateTime.fromSeconds(ts + 7200, { zone: 'UTC' }).toFormat(FMT));
  });
});

describe('relative forms, computed in the event zone', () => {
  const zone = 'Europe/Lisbon';
  const now = () => DateTime.now().setZone(zone);

  it('"tomorrow" is midnight tomorrow', async () => {
    const ev = await mkEvent(t, { start_date: 'tomorrow', end_date: 'tomorrow 23:00', timezone: zone });
    const d = now().plus({ days: 1 }).startOf('day');
    expect(ev.start_date).toBe(d.toFormat(FMT));
    expect(ev.end_date).toBe(d.set({ hour: 23 }).toFormat(FMT));
  });

  it('"next wednesday 5pm"', async () => {
    const ev = await mkEvent(t, { start_date: 'next wednesday 5pm', end_date: 'next wednesday 7pm', timezone: zone });
    const n = now();
    const ahead = (3 - n.weekday + 7) % 7 || 7;
    const d = n.plus({ days: ahead }).startOf('day');
    expect(ev.start_date).toBe(d.set({ hour: 17 }).toFormat(FMT));
    expect(ev.end_date).toBe(d.set({ hour: 19 }).toFormat(FMT));
  });

  it('"+5 weeks" is now plus 35 days, to the second', async () => {
    const before = now().plus({ weeks: 5 }).startOf('second');
    const ev = await mkEvent(t, { start_date: '+5 weeks', end_date: '+5 weeks 2 hours', timezone: zone });
    const after = now().plus({ weeks: 5 }).startOf('second');
    const got = DateTime.fromFormat(ev.start_date, FMT, { zone });
    expect(got >= before && got <= after, `${ev.start_date} between ${before.toFormat(FMT)} and ${after.toFormat(FMT)}`).toBe(true);
    const end = DateTime.fromFormat(ev.end_date, FMT, { zone });
    expect(end.diff(got, 'minutes').minutes).toBeCloseTo(120, 0);
  });

  it('"yesterday 23:59" (end before start is then pulled to the start)', async () => {
    const ev = await mkEvent(t, { start_date: 'yesterday 23:59', end_date: 'yesterday 23:59', timezone: zone });
    expect(ev.start_date).toBe(now().minus({ days: 1 }).set({ hour: 23, minute: 59, second: 0, millisecond: 0 }).toFormat(FMT));
    expect(ev.end_date).toBe(ev.start_date);
  });
});

describe('all_day (reference §5.1)', () => {
  it('start → 00:00:00 of its day, end → 23:59:59 of its day; utc follows', async () => {
    const ev = await mkEvent(t, { start_date: '2031-06-01 10:00:00', end_date: '2031-06-02 15:00:00', all_day: true, timezone: 'America/New_York' });
    expect(ev.all_day).toBe(true);
    expect(ev.start_date).toBe('2031-06-01 00:00:00');
    expect(ev.end_date).toBe('2031-06-02 23:59:59');
    expect(ev.utc_start_date).toBe('2031-06-01 04:00:00');
    expect(ev.utc_end_date).toBe('2031-06-03 03:59:59');
  });

  it('turning all_day on in an update normalises the stored dates', async () => {
    const ev = await mkEvent(t, { start_date: '2031-06-05 10:00:00', end_date: '2031-06-05 11:00:00', timezone: 'UTC' });
    const res = await t.api('put', `events/${ev.id}`).send({ all_day: true });
    expect(res.body.all_day).toBe(true);
    expect([res.body.start_date, res.body.end_date]).toEqual(['2031-06-05 00:00:00', '2031-06-05 23:59:59']);
  });

  it('"1" and "true" as all_day', async () => {
    for (const v of ['1', 'true']) {
      const ev = await mkEvent(t, { start_date: '2031-06-07 10:00', end_date: '2031-06-07 11:00', all_day: v, timezone: 'UTC' });
      expect([ev.all_day, ev.start_date, ev.end_date]).toEqual([true, '2031-06-07 00:00:00', '2031-06-07 23:59:59']);
    }
  });
});

describe('end before start (reference §5.1, correction 5)', () => {
  it('end is set to the start, UTC too, without an error', async () => {
    const ev = await mkEvent(t, { start_date: '2031-08-10 15:00:00', end_date: '2031-08-10 09:00:00', timezone: 'America/New_York' });
    expect(ev.end_date).toBe('2031-08-10 15:00:00');
    expect(ev.utc_end_date).toBe(ev.utc_start_date);
    expect(ev.utc_end_date).toBe('2031-08-10 19:00:00');
    expect(ev.end_date_details).toEqual(ev.start_date_details);
  });

  it('such an event still appears in lists', async () => {
    const cat = await mkTerm(t, 'categories');
    const ev = await mkEvent(t, { start_date: '2031-08-11 15:00:00', end_date: '2031-08-11 09:00:00', categories: [cat.id] });
    const res = await t.api('get', `events?categories=${cat.id}&start_date=2031-08-01&end_date=2031-08-31`);
    expect(res.body.events.map((e: { id: number }) => e.id)).toEqual([ev.id]);
  });

  it('an update moving the end before the stored start pulls it to the start', async () => {
    const ev = await mkEvent(t, { start_date: '2031-08-12 15:00:00', end_date: '2031-08-12 16:00:00', timezone: 'UTC' });
    const res = await t.api('put', `events/${ev.id}`).send({ end_date: '2031-08-12 10:00:00' });
    expect([res.body.start_date, res.body.end_date, res.body.utc_end_date]).toEqual(['2031-08-12 15:00:00', '2031-08-12 15:00:00', '2031-08-12 15:00:00']);
  });
});

describe('updates and dates', () => {
  it('dates left out of an update keep their stored values', async () => {
    const ev = await mkEvent(t, { start_date: '2031-09-01 10:00:00', end_date: '2031-09-01 12:00:00', timezone: 'Asia/Tokyo' });
    const res = await t.api('put', `events/${ev.id}`).send({ title: 'new title' });
    expect([res.body.start_date, res.body.end_date, res.body.utc_start_date, res.body.timezone]).toEqual([ev.start_date, ev.end_date, ev.utc_start_date, 'Asia/Tokyo']);
  });

  it('changing only the start keeps the end', async () => {
    const ev = await mkEvent(t, { start_date: '2031-09-02 10:00:00', end_date: '2031-09-02 12:00:00', timezone: 'UTC' });
    const res = await t.api('patch', `events/${ev.id}`).send({ start_date: '2031-09-02 11:00:00' });
    expect([res.body.start_date, res.body.end_date]).toEqual(['2031-09-02 11:00:00', '2031-09-02 12:00:00']);
  });

  it('a timezone-only update keeps the local times and recomputes utc_* and the abbreviation (correction 8)', async () => {
    const ev = await mkEvent(t, { start_date: '2031-03-14 19:00:00', end_date: '2031-03-14 21:00:00', timezone: 'America/New_York' });
    const res = await t.api('put', `events/${ev.id}`).send({ timezone: 'Europe/Paris' });
    expect(res.status).toBe(200);
    const up = Event.parse(res.body);
    expect([up.start_date, up.end_date]).toEqual(['2031-03-14 19:00:00', '2031-03-14 21:00:00']);
    expect([up.utc_start_date, up.utc_end_date]).toEqual(['2031-03-14 18:00:00', '2031-03-14 20:00:00']);
    expect(up.timezone).toBe('Europe/Paris');
    expect(up.timezone_abbr).toBe('CET');
    expect(up.utc_start_date_details).toEqual(details('2031-03-14 18:00:00'));
    const read = await t.api('get', `events/${ev.id}`);
    expect(read.body.utc_start_date).toBe('2031-03-14 18:00:00');
  });

  it('a new start in the same update is read in the new timezone', async () => {
    const ev = await mkEvent(t, { start_date: '2031-03-14 19:00:00', end_date: '2031-03-14 21:00:00', timezone: 'America/New_York' });
    const res = await t.api('put', `events/${ev.id}`).send({ timezone: 'Asia/Tokyo', start_date: '2031-03-14 20:00:00', end_date: '2031-03-14 22:00:00' });
    expect([res.body.start_date, res.body.utc_start_date, res.body.timezone_abbr]).toEqual(['2031-03-14 20:00:00', '2031-03-14 11:00:00', 'JST']);
  });
});
