/**
 * GET /events date parameters against a pinned clock in a fixed site zone (reference §4.1,
 * §4.1.1, §4.1.2): the default window and its edges, whole-day normalisation and strict_dates,
 * the relative parameters, timestamps and strtotime words, and how they are echoed.
 *
 * The site zone is Pacific/Auckland and "now" is Saturday 2031-03-15 10:30 there, which is still
 * Friday 21:30 in UTC: a server that computes days in UTC (or in the machine's zone) lands on the
 * wrong day. Expectations are computed with luxon from the same clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { startTestServer, type TestServer } from '../../helpers/server';
import { expectInvalidParam, follow, idsOf, mkEvent, mkTerm, queryOf } from './_queries';

const ZONE = 'Pacific/Auckland';
const FMT = 'yyyy-MM-dd HH:mm:ss';
const NOW = DateTime.fromISO('2031-03-15T10:30:00', { zone: ZONE });
let clock = NOW;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ now: () => clock.toJSDate() });
  t.server.store.settings.update({ timezone: ZONE });
});
afterAll(async () => {
  await t?.close();
});

const fmt = (d: DateTime) => d.setZone(ZONE).toFormat(FMT);
const enc = encodeURIComponent;
/** A category of its own, so each block sees only its events. */
const bucket = async () => (await mkTerm(t, 'categories')).id as number;
/** An event in the site zone from `start` to `end` (luxon or `Y-m-d H:i:s`). */
async function ev(cat: number, start: DateTime | string, end: DateTime | string, extra: Record<string, unknown> = {}) {
  const s = typeof start === 'string' ? start : fmt(start);
  const e = typeof end === 'string' ? end : fmt(end);
  return (await mkEvent(t, { categories: [cat], start_date: s, end_date: e, ...extra })).id as number;
}
const list = (cat: number, q = '') => t.api('get', `events?categories=${cat}&per_page=50${q ? `&${q}` : ''}`);

describe('default window: start of yesterday to the end of the day 24 months ahead, in the site zone', () => {
  let c: number;
  const e: Record<string, number> = {};
  const yesterday = NOW.minus({ days: 1 }).startOf('day');
  const lastDay = NOW.plus({ months: 24 }).endOf('day').set({ millisecond: 0 });
  beforeAll(async () => {
    clock = NOW;
    c = await bucket();
    e.startOfYesterday = await ev(c, yesterday, yesterday.plus({ hours: 1 }));
    e.lastSecondBefore = await ev(c, yesterday.minus({ seconds: 1 }), yesterday.plus({ hours: 2 }));
    // Noon two days ago in Auckland is "yesterday" in UTC: only a UTC day computation lets it in.
    e.utcYesterday = await ev(c, NOW.minus({ days: 2 }).set({ hour: 12, minute: 0 }), NOW.minus({ days: 2 }).set({ hour: 13, minute: 0 }));
    e.ongoing = await ev(c, NOW.minus({ days: 5 }), NOW.plus({ days: 5 }));
    e.soon = await ev(c, NOW.plus({ hours: 1 }), NOW.plus({ hours: 2 }));
    e.endsOnLastSecond = await ev(c, lastDay.minus({ hours: 2 }), lastDay);
    e.endsAfterLastDay = await ev(c, lastDay.minus({ hours: 1 }), lastDay.plus({ seconds: 1 }));
    e.startsAfterLastDay = await ev(c, lastDay.plus({ hours: 1 }), lastDay.plus({ hours: 2 }));
  });

  it('lists exactly the events inside the window, by start date', async () => {
    expect(idsOf(await list(c))).toEqual([e.startOfYesterday, e.soon, e.endsOnLastSecond]);
  });

  it('an event that started before yesterday is left out even while it is still going on', async () => {
    expect(idsOf(await list(c))).not.toContain(e.ongoing);
  });

  it('echoes the window it used: start_date 00:00:00 of yesterday, end_date 23:59:59 24 months ahead', async () => {
    const q = queryOf((await list(c)).body.rest_url);
    expect(q.start_date).toBe(fmt(yesterday));
    expect(q.end_date).toBe(fmt(lastDay));
  });

  it('the window moves with the clock: five minutes after midnight, yesterday is a new day', async () => {
    clock = NOW.plus({ days: 1 }).startOf('day').plus({ minutes: 5 });
    try {
      const got = idsOf(await list(c));
      expect(got).not.toContain(e.startOfYesterday);
      expect(got).toContain(e.soon);
      // The last day moved too: the event ending one second after the old edge is now inside.
      expect(got).toContain(e.endsAfterLastDay);
      expect(queryOf((await list(c)).body.rest_url).start_date).toBe(fmt(NOW.startOf('day')));
    } finally {
      clock = NOW;
    }
  });

  it('"24 months ahead" counts months as strtotime does, like end_date=+24 months (29 Feb 2032 → 1 Mar 2034)', async () => {
    // 20:00 in Auckland is 07:00 UTC the same day, so the day is 29 February in either zone.
    clock = DateTime.fromISO('2032-02-29T20:00:00', { zone: ZONE });
    try {
      const c2 = await bucket();
      const firstOfMarch = await ev(c2, '2034-03-01 12:00:00', '2034-03-01 13:00:00');
      const explicit = queryOf((await list(c2, `end_date=${enc('+24 months')}`)).body.rest_url).end_date;
      expect(explicit).toBe('2034-03-01 23:59:59');
      const res = await list(c2);
      expect(queryOf(res.body.rest_url).end_date).toBe(explicit);
      expect(idsOf(res)).toEqual([firstOfMarch]);
    } finally {
      clock = NOW;
    }
  });

  it('start_date alone keeps the default end; end_date alone keeps the default start', async () => {
    const fromPast = idsOf(await list(c, `start_date=${enc(fmt(NOW.minus({ days: 10 })))}`));
    expect(fromPast).toEqual([e.ongoing, e.utcYesterday, e.lastSecondBefore, e.startOfYesterday, e.soon, e.endsOnLastSecond]);
    const untilFar = idsOf(await list(c, `end_date=${enc(fmt(lastDay.plus({ days: 2 })))}`));
    expect(untilFar).toEqual([e.startOfYesterday, e.soon, e.endsOnLastSecond, e.endsAfterLastDay, e.startsAfterLastDay]);
  });

  it('past events need an explicit start_date (strtotime words count from the clock)', async () => {
    const res = await list(c, `start_date=${enc('-1 week')}&end_date=${enc('+6 days')}`);
    expect(idsOf(res)).toEqual([e.ongoing, e.utcYesterday, e.lastSecondBefore, e.startOfYesterday, e.soon]);
    expect(queryOf(res.body.rest_url)).toMatchObject({ start_date: fmt(NOW.minus({ weeks: 1 }).startOf('day')), end_date: fmt(NOW.plus({ days: 6 }).endOf('day').set({ millisecond: 0 })) });
  });

  it('strict_dates without dates: the defaults are used as they are ("yesterday 23:59" … now + 24 months)', async () => {
    // Reference §4.1.1: the whole-day window is the *normalised* "yesterday 23:59" default; with
    // strict_dates the normalisation does not happen, so events of yesterday before 23:59 drop out.
    const late = await ev(c, yesterday.set({ hour: 23, minute: 59, second: 30 }), yesterday.plus({ days: 1 }).set({ hour: 1 }));
    const res = await list(c, 'strict_dates=true');
    const got = idsOf(res);
    expect(got).toContain(late);
    expect(got).toContain(e.soon);
    expect(got).not.toContain(e.startOfYesterday);
    expect(got).not.toContain(e.endsOnLastSecond); // ends at 23:59:59, after now + 24 months (10:30)
  });
});

describe('start_date / end_date: whole days in the site zone unless strict_dates', () => {
  let c: number;
  const e: Record<string, number> = {};
  beforeAll(async () => {
    c = await bucket();
    e.eveBefore = await ev(c, '2031-03-19 20:00:00', '2031-03-19 21:00:00');
    e.early = await ev(c, '2031-03-20 03:00:00', '2031-03-20 04:00:00');
    e.late = await ev(c, '2031-03-20 21:00:00', '2031-03-20 22:00:00');
    e.overnight = await ev(c, '2031-03-20 23:00:00', '2031-03-21 00:30:00');
    e.next = await ev(c, '2031-03-21 10:00:00', '2031-03-21 11:00:00');
  });

  it('start_date with a time → 00:00:00 of that day; end_date → 23:59:59; both echoed normalised', async () => {
    const res = await list(c, `start_date=${enc('2031-03-20 15:00')}&end_date=${enc('2031-03-20 08:00')}`);
    expect(idsOf(res)).toEqual([e.early, e.late]);
    expect(queryOf(res.body.rest_url)).toMatchObject({ start_date: '2031-03-20 00:00:00', end_date: '2031-03-20 23:59:59' });
  });

  it('strict_dates=true uses the times exactly, and says so in its links', async () => {
    const res = await list(c, `start_date=${enc('2031-03-20 03:00:01')}&end_date=${enc('2031-03-21 00:30:00')}&strict_dates=true`);
    expect(idsOf(res)).toEqual([e.late, e.overnight]);
    const q = queryOf(res.body.rest_url);
    expect(q).toMatchObject({ start_date: '2031-03-20 03:00:01', end_date: '2031-03-21 00:30:00' });
    expect(q).toHaveProperty('strict_dates');
    const end = await list(c, `start_date=2031-03-20&end_date=${enc('2031-03-20 21:59:59')}&strict_dates=1`);
    expect(idsOf(end)).toEqual([e.early]);
  });

  it.each(['1', 'yes', 'on', 'TRUE'])('strict_dates=%s is true', async (v) => {
    expect(idsOf(await list(c, `start_date=${enc('2031-03-20 03:00:01')}&end_date=2031-03-31&strict_dates=${v}`))).toEqual([e.late, e.overnight, e.next]);
  });

  it.each(['false', '0', 'no', 'off'])('strict_dates=%s is the default (whole days)', async (v) => {
    expect(idsOf(await list(c, `start_date=${enc('2031-03-20 03:00:01')}&end_date=2031-03-31&strict_dates=${v}`))).toEqual([e.early, e.late, e.overnight, e.next]);
  });

  it('strict_dates carries over to the next page: following next_rest_url gives the rest of the same list', async () => {
    const q = `start_date=${enc('2031-03-20 03:00:01')}&end_date=2031-03-31&strict_dates=true`;
    const p1 = await t.api('get', `events?categories=${c}&per_page=2&${q}`);
    expect(idsOf(p1)).toEqual([e.late, e.overnight]);
    const p2 = await follow(t, p1.body.next_rest_url);
    expect(idsOf(p2)).toEqual([e.next]);
    expect(p2.body.total).toBe(3);
    const back = await follow(t, p2.body.previous_rest_url);
    expect(idsOf(back)).toEqual([e.late, e.overnight]);
  });

  it('a unix timestamp is read in the site zone before the day is taken', async () => {
    // 05:00 on the 20th in Auckland is 16:00 on the 19th in UTC.
    const ts = DateTime.fromISO('2031-03-20T05:00:00', { zone: ZONE }).toSeconds();
    const res = await list(c, `start_date=${ts}&end_date=2031-03-31`);
    expect(idsOf(res)).toEqual([e.early, e.late, e.overnight, e.next]);
    expect(queryOf(res.body.rest_url).start_date).toBe('2031-03-20 00:00:00');
    const strict = await list(c, `start_date=${ts}&end_date=2031-03-31&strict_dates=true`);
    expect(idsOf(strict)).toEqual([e.late, e.overnight, e.next]);
  });

  it('strtotime words count from the clock: tomorrow, +N days, next monday', async () => {
    const tomorrow = NOW.plus({ days: 1 });
    const s = await list(c, `start_date=tomorrow&end_date=${enc('+5 days')}`);
    expect(queryOf(s.body.rest_url)).toMatchObject({ start_date: fmt(tomorrow.startOf('day')), end_date: fmt(NOW.plus({ days: 5 }).endOf('day').set({ millisecond: 0 })) });
    // Saturday the 15th: next monday is the 17th; +5 days ends on the 20th.
    expect(idsOf(s)).toEqual([e.eveBefore, e.early, e.late]);
    const monday = await list(c, `start_date=${enc('next monday')}&end_date=${enc('2031-03-19')}`);
    expect(queryOf(monday.body.rest_url).start_date).toBe('2031-03-17 00:00:00');
    expect(idsOf(monday)).toEqual([e.eveBefore]);
  });

  it('start_date after end_date → 200 with nothing', async () => {
    const res = await list(c, 'start_date=2031-03-21&end_date=2031-03-20');
    expect(res.status).toBe(200);
    expect([res.body.events, res.body.total, res.body.total_pages]).toEqual([[], 0, 0]);
  });

  it('dates compare with the event\'s own local times, whatever its zone (reference §4.1.2)', async () => {
    // 20:00 on the 20th in New York is already the 21st in Auckland (the site zone).
    const ny = await ev(c, '2031-03-20 20:00:00', '2031-03-20 21:00:00', { timezone: 'America/New_York' });
    expect(idsOf(await list(c, 'start_date=2031-03-20&end_date=2031-03-20'))).toContain(ny);
    expect(idsOf(await list(c, 'start_date=2031-03-21&end_date=2031-03-21'))).not.toContain(ny);
  });
});

describe('relative parameters: starts_before, starts_after, ends_before, ends_after', () => {
  let c: number;
  const e: Record<string, number> = {};
  beforeAll(async () => {
    c = await bucket();
    e.longAgo = await ev(c, NOW.minus({ days: 30 }), NOW.minus({ days: 30 }).plus({ hours: 2 }));
    e.threeDaysAgo = await ev(c, NOW.minus({ days: 3 }).set({ hour: 9, minute: 0 }), NOW.minus({ days: 3 }).set({ hour: 11, minute: 0 }));
    e.today = await ev(c, NOW.plus({ hours: 3 }), NOW.plus({ hours: 4 }));
    e.day20 = await ev(c, '2031-03-20 03:00:00', '2031-03-20 04:00:00');
    e.spans20to22 = await ev(c, '2031-03-20 12:00:00', '2031-03-22 12:00:00');
    e.farAhead = await ev(c, NOW.plus({ months: 30 }), NOW.plus({ months: 30, hours: 1 }));
  });

  it('any relative parameter drops both default dates: the past and beyond 24 months come back', async () => {
    const res = await list(c, 'starts_before=2040-01-01');
    expect(idsOf(res)).toEqual([e.longAgo, e.threeDaysAgo, e.today, e.day20, e.spans20to22, e.farAhead]);
    const q = queryOf(res.body.rest_url);
    expect(q).not.toHaveProperty('start_date');
    expect(q).not.toHaveProperty('end_date');
    expect(q.starts_before).toBe('2040-01-01 23:59:59');
  });

  it('starts_after and starts_before are 23:59:59 of their day (not 00:00:00)', async () => {
    // starts_after 2031-03-20 03:00 → after 23:59:59 that day: nothing of the 20th.
    expect(idsOf(await list(c, `starts_after=${enc('2031-03-20 03:00')}&starts_before=2031-12-31`))).toEqual([]);
    expect(idsOf(await list(c, `starts_after=2031-03-19&starts_before=${enc('2031-03-20 01:00')}`))).toEqual([e.day20, e.spans20to22]);
  });

  it('ends_after and ends_before are 23:59:59 of their day', async () => {
    expect(idsOf(await list(c, `ends_after=${enc('2031-03-20 01:00')}&ends_before=2031-12-31`))).toEqual([e.spans20to22]);
    expect(idsOf(await list(c, `ends_after=2031-03-19&ends_before=${enc('2031-03-20 01:00')}`))).toEqual([e.day20]);
  });

  it('with strict_dates the relative parameters keep their times', async () => {
    expect(idsOf(await list(c, `starts_after=${enc('2031-03-20 03:00')}&starts_before=2031-12-31&strict_dates=true`))).toEqual([e.day20, e.spans20to22]);
    expect(idsOf(await list(c, `ends_after=${enc('2031-03-20 04:00:01')}&ends_before=2031-12-31&strict_dates=true`))).toEqual([e.spans20to22]);
    expect(idsOf(await list(c, `ends_before=${enc('2031-03-20 04:00')}&ends_after=2031-03-01&strict_dates=true`))).toEqual([e.threeDaysAgo, e.today, e.day20]);
  });

  it('relative words count from the clock in the site zone', async () => {
    // starts_before=today → 23:59:59 today: everything up to and including later today.
    expect(idsOf(await list(c, 'starts_before=today'))).toEqual([e.longAgo, e.threeDaysAgo, e.today]);
    // ends_after=yesterday → ends after 23:59:59 yesterday.
    expect(idsOf(await list(c, 'ends_after=yesterday&ends_before=2031-12-31'))).toEqual([e.today, e.day20, e.spans20to22]);
    // starts_after=-4 days → after 23:59:59 four days ago.
    expect(idsOf(await list(c, `starts_after=${enc('-4 days')}&starts_before=${enc('+1 week')}`))).toEqual([e.threeDaysAgo, e.today, e.day20, e.spans20to22]);
  });

  it('an explicit end_date stays in force next to a relative parameter', async () => {
    const res = await list(c, `starts_after=${enc('-60 days')}&end_date=2031-03-20`);
    expect(idsOf(res)).toEqual([e.longAgo, e.threeDaysAgo, e.today, e.day20]);
    expect(queryOf(res.body.rest_url)).toMatchObject({ end_date: '2031-03-20 23:59:59' });
    expect(queryOf(res.body.rest_url)).not.toHaveProperty('start_date');
  });

  it('every relative parameter given is echoed, normalised', async () => {
    const res = await list(c, 'starts_after=2031-01-01&starts_before=2031-12-31&ends_after=2031-01-02&ends_before=2031-12-30');
    expect(queryOf(res.body.rest_url)).toMatchObject({
      starts_after: '2031-01-01 23:59:59',
      starts_before: '2031-12-31 23:59:59',
      ends_after: '2031-01-02 23:59:59',
      ends_before: '2031-12-30 23:59:59',
    });
  });
});

describe('ordering by start date', () => {
  it('ascending start across pages, whatever the creation order or the end dates', async () => {
    const c = await bucket();
    const starts = [5, 1, 4, 2, 3, 0].map((d) => NOW.plus({ days: d + 1 }).set({ hour: 9, minute: 0, second: 0 }));
    const made: Array<[string, number]> = [];
    for (const [i, s] of starts.entries()) made.push([fmt(s), await ev(c, s, s.plus({ hours: 10 - i }))]);
    const expected = made.sort((a, b) => a[0].localeCompare(b[0])).map(([, id]) => id);
    const p1 = await t.api('get', `events?categories=${c}&per_page=4`);
    expect(idsOf(p1)).toEqual(expected.slice(0, 4));
    expect(idsOf(await follow(t, p1.body.next_rest_url))).toEqual(expected.slice(4));
  });
});

describe('invalid dates → 400 rest_invalid_param naming the parameter', () => {
  const params = ['start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after'];
  const bad = ['banana', '', 'next blurday', '2031-03-15 25:61:00'];
  it.each(params.flatMap((p) => bad.map((v) => [p, v])))('%s=%j', async (p, v) => {
    expectInvalidParam(await t.api('get', `events?${p}=${enc(v)}`), p);
  });

  it.each(params)('%s given as a list → 400', async (p) => {
    expectInvalidParam(await t.api('get', `events?${p}[]=2031-01-01`), p);
  });

  // The original declares strict_dates as a string (any word that is not a true word means
  // false), so only a non-string is refused.
  it('strict_dates given as a list → 400', async () => {
    expectInvalidParam(await t.api('get', 'events?strict_dates[]=true'), 'strict_dates');
  });

  it('several bad dates are all named', async () => {
    const res = await t.api('get', 'events?start_date=banana&ends_after=nope');
    expectInvalidParam(res, 'start_date');
    expect(Object.keys(res.body.data.params)).toEqual(expect.arrayContaining(['start_date', 'ends_after']));
  });
});
