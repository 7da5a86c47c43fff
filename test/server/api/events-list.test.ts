/**
 * GET /events: envelope, paging, headers, default window, every filter (reference §2, §3.1, §4.1,
 * §6; corrections 3, 4; decisions "Headers").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { EventList } from '../../../shared/api/records';
import { startTestServer, type TestServer } from '../../helpers/server';
import { expectError, expectInvalidParam, mkEvent, mkOrganizer, mkTerm, mkVenue, uniq, type Res } from './_support';

const ZONE = 'America/New_York';
const FMT = 'yyyy-MM-dd HH:mm:ss';
const FAR = 'start_date=2031-01-01&end_date=2033-12-31';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  t.server.store.settings.update({ timezone: ZONE });
});
afterAll(async () => {
  await t?.close();
});

const ids = (res: Res) => res.body.events.map((e: { id: number }) => e.id);
const query = (url: string) => Object.fromEntries(new URL(url).searchParams);

/** A category to isolate a test's events from the others in this file. */
async function bucket() {
  const c = await mkTerm(t, 'categories');
  return c.id as number;
}

describe('envelope and paging (reference §2)', () => {
  let cat: number;
  const created: number[] = [];
  beforeAll(async () => {
    cat = await bucket();
    const day = (i: number) => `2031-02-${String(i + 1).padStart(2, '0')}`;
    const events = await Promise.all(Array.from({ length: 12 }, (_, i) => mkEvent(t, { categories: [cat], start_date: `${day(i)} 10:00:00`, end_date: `${day(i)} 11:00:00` })));
    created.push(...events.map((e) => e.id));
  });

  it('page 1: keys in order, no previous, next with page=2, totals and headers', async () => {
    const res = await t.api('get', `events?categories=${cat}&per_page=5&${FAR}`);
    expect(res.status).toBe(200);
    EventList.parse(res.body);
    expect(Object.keys(res.body)).toEqual(['events', 'rest_url', 'next_rest_url', 'total', 'total_pages']);
    expect(ids(res)).toEqual(created.slice(0, 5));
    expect([res.body.total, res.body.total_pages]).toEqual([12, 3]);
    expect(res.headers['x-cal-total']).toBe('12');
    expect(res.headers['x-cal-totalpages']).toBe('3');
    expect(res.headers['x-wp-total']).toBe('12');
    expect(res.headers['x-wp-totalpages']).toBe('3');
    expect(res.body.rest_url.startsWith(`${t.server.apiRoot}events/?`)).toBe(true);
    expect(query(res.body.rest_url)).toMatchObject({ categories: String(cat), per_page: '5' });
    expect(query(res.body.next_rest_url)).toMatchObject({ categories: String(cat), per_page: '5', page: '2' });
    expect(res.body.next_rest_url.startsWith(`${t.server.apiRoot}events/?`)).toBe(true);
  });

  it('page 2: previous without page, next with page=3', async () => {
    const res = await t.api('get', `events?categories=${cat}&per_page=5&page=2&${FAR}`);
    expect(Object.keys(res.body)).toEqual(['events', 'rest_url', 'next_rest_url', 'previous_rest_url', 'total', 'total_pages']);
    expect(ids(res)).toEqual(created.slice(5, 10));
    expect(query(res.body.rest_url).page).toBe('2');
    expect(query(res.body.next_rest_url).page).toBe('3');
    expect(query(res.body.previous_rest_url)).not.toHaveProperty('page');
    expect(query(res.body.previous_rest_url)).toMatchObject({ categories: String(cat), per_page: '5' });
  });

  it('last page: previous with page=2, no next', async () => {
    const res = await t.api('get', `events?categories=${cat}&per_page=5&page=3&${FAR}`);
    expect(Object.keys(res.body)).toEqual(['events', 'rest_url', 'previous_rest_url', 'total', 'total_pages']);
    expect(ids(res)).toEqual(created.slice(10));
    expect(query(res.body.previous_rest_url).page).toBe('2');
  });

  it('a page past the end → 404 event-archive-page-not-found', async () => {
    expectError(await t.api('get', `events?categories=${cat}&per_page=5&page=4&${FAR}`), 404, 'event-archive-page-not-found');
  });

  it('page 1 with no items → 200, total 0, total_pages 0, no next/previous keys', async () => {
    const empty = await bucket();
    const res = await t.api('get', `events?categories=${empty}&${FAR}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['events', 'rest_url', 'total', 'total_pages']);
    expect([res.body.events, res.body.total, res.body.total_pages]).toEqual([[], 0, 0]);
    expect([res.headers['x-cal-total'], res.headers['x-cal-totalpages']]).toEqual(['0', '0']);
  });

  it('default per_page is 10', async () => {
    const res = await t.api('get', `events?categories=${cat}&${FAR}`);
    expect(res.body.events).toHaveLength(10);
    expect(res.body.total_pages).toBe(2);
  });

  it.each(['foo', '-1', '0', 'foo bar', '1.5'])('page=%s → 400', async (v) => {
    expectInvalidParam(await t.api('get', `events?page=${encodeURIComponent(v)}`), 'page');
  });

  it.each(['foo', '-1', '0', 'foo bar', '2.5'])('per_page=%s → 400', async (v) => {
    expectInvalidParam(await t.api('get', `events?per_page=${encodeURIComponent(v)}`), 'per_page');
  });

  it('ordered by start date ascending, whatever the creation order', async () => {
    const c = await bucket();
    const late = await mkEvent(t, { categories: [c], start_date: '2031-07-03 10:00', end_date: '2031-07-03 11:00' });
    const early = await mkEvent(t, { categories: [c], start_date: '2031-07-01 10:00', end_date: '2031-07-01 11:00' });
    const mid = await mkEvent(t, { categories: [c], start_date: '2031-07-02 09:00', end_date: '2031-07-02 11:00' });
    expect(ids(await t.api('get', `events?categories=${c}&${FAR}`))).toEqual([early.id, mid.id, late.id]);
  });

  it('list items have no json_ld', async () => {
    const res = await t.api('get', `events?categories=${cat}&${FAR}`);
    for (const e of res.body.events) expect(e).not.toHaveProperty('json_ld');
  });
});

describe('per_page maximum (reference §2.5)', () => {
  it('per_page above 50 is clamped to 50', async () => {
    const c = await bucket();
    await Promise.all(Array.from({ length: 52 }, () => mkEvent(t, { categories: [c], start_date: '2031-09-09 10:00', end_date: '2031-09-09 11:00' })));
    const res = await t.api('get', `events?categories=${c}&per_page=100&${FAR}`);
    expect(res.status).toBe(200);
    expect(res.body.events).toHaveLength(50);
    expect([res.body.total, res.body.total_pages]).toEqual([52, 2]);
    expect(query(res.body.next_rest_url).page).toBe('2');
  });
});

describe('default window (reference §4.1.1)', () => {
  it('shows events from the start of yesterday to 24 months ahead (end inside)', async () => {
    const c = await bucket();
    const now = DateTime.now().setZone(ZONE);
    const at = (d: DateTime) => d.toFormat(FMT);
    const mk = (start: DateTime, end: DateTime) => mkEvent(t, { categories: [c], start_date: at(start), end_date: at(end) });
    const yesterdayEarly = await mk(now.minus({ days: 1 }).startOf('day').plus({ minutes: 30 }), now.minus({ days: 1 }).startOf('day').plus({ minutes: 90 }));
    const twoDaysAgo = await mk(now.minus({ days: 2 }).set({ hour: 12 }), now.minus({ days: 2 }).set({ hour: 13 }));
    const in23Months = await mk(now.plus({ months: 23 }), now.plus({ months: 23, hours: 1 }));
    const in25Months = await mk(now.plus({ months: 25 }), now.plus({ months: 25, hours: 1 }));
    const endsTooLate = await mk(now.plus({ months: 23 }), now.plus({ months: 25 }));
    const res = await t.api('get', `events?categories=${c}`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([yesterdayEarly.id, in23Months.id]);
    expect(ids(res)).not.toContain(twoDaysAgo.id);
    expect(ids(res)).not.toContain(in25Months.id);
    expect(ids(res)).not.toContain(endsTooLate.id);
  });

  it('a relative date parameter drops the default window', async () => {
    const c = await bucket();
    const past = DateTime.now().setZone(ZONE).minus({ days: 5 }).set({ hour: 12, minute: 0, second: 0 });
    const ev = await mkEvent(t, { categories: [c], start_date: past.toFormat(FMT), end_date: past.plus({ hours: 1 }).toFormat(FMT) });
    expect(ids(await t.api('get', `events?categories=${c}`))).toEqual([]);
    const res = await t.api('get', `events?categories=${c}&ends_before=2040-01-01`);
    expect(ids(res)).toEqual([ev.id]);
    expect(query(res.body.rest_url)).not.toHaveProperty('start_date');
    expect(query(res.body.rest_url)).not.toHaveProperty('end_date');
  });

  it('the original\'s weekly example: +5 weeks → 6, end +5 weeks → 5, +10 days..+30 days → 3', async () => {
    const c = await bucket();
    const now = DateTime.now().setZone(ZONE);
    for (let w = 1; w <= 10; w++) {
      const s = now.plus({ weeks: w }).set({ hour: 12, minute: 0, second: 0 });
      await mkEvent(t, { categories: [c], start_date: s.toFormat(FMT), end_date: s.plus({ hours: 2 }).toFormat(FMT) });
    }
    expect((await t.api('get', `events?categories=${c}&start_date=${encodeURIComponent('+5 weeks')}`)).body.total).toBe(6);
    expect((await t.api('get', `events?categories=${c}&end_date=${encodeURIComponent('+5 weeks')}`)).body.total).toBe(5);
    expect((await t.api('get', `events?categories=${c}&start_date=${encodeURIComponent('+10 days')}&end_date=${encodeURIComponent('+30 days')}`)).body.total).toBe(3);
  });
});

describe('date filters (reference §4.1, §4.1.2)', () => {
  let c: number;
  let a: { id: number };
  let b: { id: number };
  let long: { id: number };
  beforeAll(async () => {
    c = await bucket();
    a = await mkEvent(t, { categories: [c], start_date: '2031-03-10 09:00:00', end_date: '2031-03-10 20:00:00' });
    b = await mkEvent(t, { categories: [c], start_date: '2031-03-11 10:00:00', end_date: '2031-03-11 11:00:00' });
    long = await mkEvent(t, { categories: [c], start_date: '2031-03-10 09:30:00', end_date: '2031-03-12 10:00:00' });
  });
  const get = (q: string) => t.api('get', `events?categories=${c}&${q}`);

  it('start_date is whole-day: 15:00 still includes a 09:00 start that day; echoed as 00:00:00', async () => {
    const res = await get(`start_date=${encodeURIComponent('2031-03-10 15:00')}&end_date=2031-03-31`);
    expect(ids(res)).toEqual([a.id, long.id, b.id]);
    expect(query(res.body.rest_url).start_date).toBe('2031-03-10 00:00:00');
    expect(query(res.body.rest_url).end_date).toBe('2031-03-31 23:59:59');
  });

  it('strict_dates uses the time as given', async () => {
    const res = await get(`start_date=${encodeURIComponent('2031-03-10 09:15')}&end_date=2031-03-31&strict_dates=true`);
    expect(ids(res)).toEqual([long.id, b.id]);
  });

  it('end_date bounds the END of events (end ≤ end_date), whole day', async () => {
    const res = await get(`start_date=2031-03-01&end_date=${encodeURIComponent('2031-03-11 08:00')}`);
    expect(ids(res)).toEqual([a.id, b.id]);
    const strict = await get(`start_date=2031-03-01&end_date=${encodeURIComponent('2031-03-10 19:00')}&strict_dates=1`);
    expect(ids(strict)).toEqual([]);
  });

  it('starts_after / starts_before are whole day (23:59:59 of their day)', async () => {
    expect(ids(await get(`starts_after=${encodeURIComponent('2031-03-10 08:00')}&starts_before=2031-03-31`))).toEqual([b.id]);
    expect(ids(await get(`starts_after=2031-03-01&starts_before=${encodeURIComponent('2031-03-10 08:00')}`))).toEqual([a.id, long.id]);
  });

  it('ends_after / ends_before', async () => {
    expect(ids(await get('ends_after=2031-03-11&ends_before=2031-03-31'))).toEqual([long.id]);
    expect(ids(await get('ends_after=2031-03-01&ends_before=2031-03-11'))).toEqual([a.id, b.id]);
  });

  it('a unix timestamp is a date', async () => {
    const ts = DateTime.fromISO('2031-03-11T12:00:00', { zone: ZONE }).toSeconds();
    expect(ids(await get(`start_date=${ts}&end_date=2031-03-31`))).toEqual([b.id]);
  });

  it.each(['start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after'])('%s not a date → 400', async (p) => {
    expectInvalidParam(await t.api('get', `events?${p}=not-a-date-at-all`), p);
  });
});

describe('filters', () => {
  it('search: every word must match title, description or excerpt', async () => {
    const c = await bucket();
    const a = await mkEvent(t, { categories: [c], title: 'Alpha Concert', description: 'A brass band plays' });
    const b = await mkEvent(t, { categories: [c], title: 'Alpha Lecture', excerpt: 'About BRASS instruments', start_date: '2031-05-11 10:00', end_date: '2031-05-11 11:00' });
    await mkEvent(t, { categories: [c], title: 'Alpha only' });
    await mkEvent(t, { categories: [c], title: 'Brass only' });
    const res = await t.api('get', `events?categories=${c}&search=${encodeURIComponent('alpha brass')}&${FAR}`);
    expect(ids(res)).toEqual([a.id, b.id]);
    expect(query(res.body.rest_url).search).toBe('alpha brass');
  });

  it('search_places: search finds events by their venue (name, city, address) and organizers (issue 27 §5.13)', async () => {
    const c = await bucket();
    const luso = await mkVenue(t, { venue: 'Sala Luso', city: 'Lisboa', address: 'Rua da Prata 10' });
    const belem = await mkVenue(t, { venue: 'Centro Cultural', city: 'Lisboa' });
    const porto = await mkVenue(t, { venue: 'Casa da Música', city: 'Porto' });
    const fado = await mkOrganizer(t, { organizer: 'Fado Nocturno' });
    const inLuso = await mkEvent(t, { categories: [c], title: 'Recital', venue: luso.id });
    const inBelem = await mkEvent(t, { categories: [c], title: 'Exhibition', venue: belem.id, start_date: '2031-05-11 10:00', end_date: '2031-05-11 11:00' });
    await mkEvent(t, { categories: [c], title: 'Concert', venue: porto.id });
    const byFado = await mkEvent(t, { categories: [c], title: 'Night of songs', organizer: [fado.id], venue: porto.id, start_date: '2031-05-12 21:00', end_date: '2031-05-12 23:00' });
    const search = async (words: string) => ids(await t.api('get', `events?categories=${c}&search=${encodeURIComponent(words)}&search_places=true&${FAR}`));
    // Without the extension, search is the original's: the event's own text only.
    expect(ids(await t.api('get', `events?categories=${c}&search=Lisboa&${FAR}`))).toEqual([]);
    expect(await search('Lisboa')).toEqual([inLuso.id, inBelem.id]);
    expect(await search('lisboa recital')).toEqual([inLuso.id]);
    expect(await search('prata')).toEqual([inLuso.id]);
    expect(await search('Luso')).toEqual([inLuso.id]);
    expect(await search('nocturno')).toEqual([byFado.id]);
    expect(await search('musica songs')).toEqual([byFado.id]);
    // Two-letter words are read the same way.
    expect(await search('Lisboa 10')).toEqual([inLuso.id]);
  });

  it('search="" → 400', async () => {
    expectInvalidParam(await t.api('get', 'events?search='), 'search');
  });

  it('categories: slugs and ids, OR across values; echoed in rest_url', async () => {
    const c1 = await mkTerm(t, 'categories');
    const c2 = await mkTerm(t, 'categories');
    const c3 = await mkTerm(t, 'categories');
    const e1 = await mkEvent(t, { categories: [c1.id] });
    const e2 = await mkEvent(t, { categories: [c2.id] });
    await mkEvent(t, { categories: [c3.id] });
    const res = await t.api('get', `events?categories=${c1.slug},${c2.id}&${FAR}`);
    expect(ids(res).sort()).toEqual([e1.id, e2.id].sort());
    expect(ids(await t.api('get', `events?categories[]=${c1.slug}&categories[]=${c2.slug}&${FAR}`)).sort()).toEqual([e1.id, e2.id].sort());
    expect(query(res.body.rest_url).categories).toBeDefined();
  });

  it('tags: slugs and ids, OR', async () => {
    const t1 = await mkTerm(t, 'tags');
    const t2 = await mkTerm(t, 'tags');
    const e1 = await mkEvent(t, { tags: [t1.id] });
    const e2 = await mkEvent(t, { tags: [t2.id] });
    expect(ids(await t.api('get', `events?tags=${t1.id},${t2.slug}&${FAR}`)).sort()).toEqual([e1.id, e2.id].sort());
  });

  it('unknown category or tag → 400', async () => {
    expectInvalidParam(await t.api('get', 'events?categories=no-such-category-slug'), 'categories');
    expectInvalidParam(await t.api('get', 'events?categories=999999'), 'categories');
    expectInvalidParam(await t.api('get', 'events?tags=no-such-tag-slug'), 'tags');
  });

  it('venue: OR across ids; not a venue → 400', async () => {
    const v1 = await mkVenue(t);
    const v2 = await mkVenue(t);
    const v3 = await mkVenue(t);
    const e1 = await mkEvent(t, { venue: v1.id });
    const e2 = await mkEvent(t, { venue: v2.id });
    await mkEvent(t, { venue: v3.id });
    expect(ids(await t.api('get', `events?venue=${v1.id},${v2.id}&${FAR}`)).sort()).toEqual([e1.id, e2.id].sort());
    const o = await mkOrganizer(t);
    for (const bad of ['abc', '999999', String(o.id), String(e1.id)]) expectInvalidParam(await t.api('get', `events?venue=${bad}`), 'venue');
  });

  it('venue with categories and tags: an event must be at the venue and carry one of each list', async () => {
    const v = await mkVenue(t);
    const [c1, c2] = [await mkTerm(t, 'categories'), await mkTerm(t, 'categories')];
    const tag = await mkTerm(t, 'tags');
    const both = await mkEvent(t, { venue: v.id, categories: [c1.id], tags: [tag.id] });
    const second = await mkEvent(t, { venue: v.id, categories: [c2.id] });
    await mkEvent(t, { venue: v.id });
    await mkEvent(t, { categories: [c1.id], tags: [tag.id] });
    expect(ids(await t.api('get', `events?venue=${v.id}&categories=${c1.id}&${FAR}`))).toEqual([both.id]);
    expect(ids(await t.api('get', `events?venue=${v.id}&categories=${c1.id},${c2.id}&${FAR}`)).sort()).toEqual([both.id, second.id].sort());
    expect(ids(await t.api('get', `events?venue=${v.id}&categories=${c1.id},${c2.id}&tags=${tag.id}&${FAR}`))).toEqual([both.id]);
  });

  it('organizer: OR across ids; not an organizer → 400', async () => {
    const o1 = await mkOrganizer(t);
    const o2 = await mkOrganizer(t);
    const e1 = await mkEvent(t, { organizer: [o1.id] });
    const e2 = await mkEvent(t, { organizer: [o2.id, o1.id] });
    await mkEvent(t, { organizer: [(await mkOrganizer(t)).id] });
    expect(ids(await t.api('get', `events?organizer=${o1.id}&${FAR}`)).sort()).toEqual([e1.id, e2.id].sort());
    expect(ids(await t.api('get', `events?organizer=${o2.id}&${FAR}`))).toEqual([e2.id]);
    const v = await mkVenue(t);
    for (const bad of ['abc', '999999', String(v.id)]) expectInvalidParam(await t.api('get', `events?organizer=${bad}`), 'organizer');
  });

  it('featured=true only featured, false only not featured, absent both', async () => {
    const c = await bucket();
    const f = await mkEvent(t, { categories: [c], featured: true });
    const n = await mkEvent(t, { categories: [c], start_date: '2031-05-11 10:00', end_date: '2031-05-11 11:00' });
    expect(ids(await t.api('get', `events?categories=${c}&featured=true&${FAR}`))).toEqual([f.id]);
    expect(ids(await t.api('get', `events?categories=${c}&featured=false&${FAR}`))).toEqual([n.id]);
    expect(ids(await t.api('get', `events?categories=${c}&featured=1&${FAR}`))).toEqual([f.id]);
    expect(ids(await t.api('get', `events?categories=${c}&${FAR}`))).toEqual([f.id, n.id]);
  });

  it('status: the owner sees every status but trash by default; status filters; unknown → 400', async () => {
    const c = await bucket();
    const made: Record<string, number> = {};
    for (const [i, s] of ['publish', 'draft', 'pending', 'private', 'future'].entries()) {
      made[s] = (await mkEvent(t, { categories: [c], status: s, start_date: `2031-05-1${i} 10:00`, end_date: `2031-05-1${i} 11:00` })).id;
    }
    const trashed = await mkEvent(t, { categories: [c], start_date: '2031-05-19 10:00', end_date: '2031-05-19 11:00' });
    await t.api('delete', `events/${trashed.id}`);
    expect(ids(await t.api('get', `events?categories=${c}&${FAR}`))).toEqual(Object.values(made));
    expect(ids(await t.api('get', `events?categories=${c}&status=draft&${FAR}`))).toEqual([made.draft]);
    expect(ids(await t.api('get', `events?categories=${c}&status=publish,private&${FAR}`))).toEqual([made.publish, made.private]);
    expect(ids(await t.api('get', `events?categories=${c}&status[]=pending&status[]=future&${FAR}`))).toEqual([made.pending, made.future]);
    expectInvalidParam(await t.api('get', 'events?status=bogus'), 'status');
    expectInvalidParam(await t.api('get', 'events?status=publish,bogus'), 'status');
  });

  it('include: exactly these ids, dates ignored, ordered by publish date then id (correction 4)', async () => {
    const older = await mkEvent(t, { date: '2030-01-01 10:00:00', start_date: '2032-06-01 10:00', end_date: '2032-06-01 11:00' });
    const newer = await mkEvent(t, { date: '2030-02-01 10:00:00', start_date: '2031-06-01 10:00', end_date: '2031-06-01 11:00' });
    const res = await t.api('get', `events?include=${newer.id},${older.id}&start_date=2040-01-01&end_date=2040-12-31`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([older.id, newer.id]);
    expect(ids(await t.api('get', `events?include=${older.id}`))).toEqual([older.id]);
  });

  it.each(['abc', '0', '-1', '1,abc'])('include=%s → 400', async (v) => {
    expectInvalidParam(await t.api('get', `events?include=${v}`), 'include');
  });

  it('post_parent that is not an existing event → 400', async () => {
    const v = await mkVenue(t);
    for (const bad of ['999999', 'abc', String(v.id)]) expectInvalidParam(await t.api('get', `events?post_parent=${bad}`), 'post_parent');
  });

  it('post_parent naming an event with no children → empty list', async () => {
    const ev = await mkEvent(t);
    const res = await t.api('get', `events?post_parent=${ev.id}&${FAR}`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(0);
  });

  it('ticketed=true → 400 rest_invalid_param with details.ticketed.code event-tickets-not-active (correction 3)', async () => {
    const res = await t.api('get', 'events?ticketed=true');
    expectInvalidParam(res, 'ticketed');
    expect(res.body.data.details.ticketed.code).toBe('event-tickets-not-active');
    expect(typeof res.body.data.details.ticketed.message).toBe('string');
  });

  it('ticketed=false is accepted and ignored', async () => {
    const c = await bucket();
    const e = await mkEvent(t, { categories: [c] });
    const res = await t.api('get', `events?categories=${c}&ticketed=false&${FAR}`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([e.id]);
  });

  it('boolean query words: yes/on/1 are true, 0/false are false (reference §9)', async () => {
    const c = await bucket();
    const f = await mkEvent(t, { categories: [c], featured: true });
    const n = await mkEvent(t, { categories: [c], start_date: '2031-05-11 10:00', end_date: '2031-05-11 11:00' });
    for (const w of ['yes', 'on', '1', 'true']) expect(ids(await t.api('get', `events?categories=${c}&featured=${w}&${FAR}`)), w).toEqual([f.id]);
    for (const w of ['0', 'false']) expect(ids(await t.api('get', `events?categories=${c}&featured=${w}&${FAR}`)), w).toEqual([n.id]);
  });

  it('a category value is tried as a slug first, then as an id (reference §4.1)', async () => {
    const a = await mkTerm(t, 'categories');
    const b = await mkTerm(t, 'categories', { slug: String(a.id) });
    expect(b.slug).toBe(String(a.id));
    const inA = await mkEvent(t, { categories: [a.id] });
    const inB = await mkEvent(t, { categories: [b.id] });
    const got = ids(await t.api('get', `events?categories=${a.id}&${FAR}`));
    expect(got).toContain(inB.id);
    expect(got).not.toContain(inA.id);
  });

  it('search treats % and _ literally', async () => {
    const c = await bucket();
    const pct = await mkEvent(t, { categories: [c], title: 'Sale 50% off' });
    await mkEvent(t, { categories: [c], title: 'Sale 500 offers' });
    await mkEvent(t, { categories: [c], title: 'Sale 5_0 thing' });
    expect(ids(await t.api('get', `events?categories=${c}&search=${encodeURIComponent('50%')}&${FAR}`))).toEqual([pct.id]);
    expect(ids(await t.api('get', `events?categories=${c}&search=${encodeURIComponent('5_0')}&${FAR}`))).toHaveLength(1);
  });

  it('an explicit start_date stays in force next to relative parameters, and is echoed', async () => {
    const c = await bucket();
    const a = await mkEvent(t, { categories: [c], start_date: '2031-03-05 10:00', end_date: '2031-03-05 11:00' });
    await mkEvent(t, { categories: [c], start_date: '2031-02-05 10:00', end_date: '2031-02-05 11:00' });
    const res = await t.api('get', `events?categories=${c}&start_date=2031-03-01&ends_before=2031-12-31`);
    expect(ids(res)).toEqual([a.id]);
    expect(query(res.body.rest_url).start_date).toBe('2031-03-01 00:00:00');
    expect(query(res.body.rest_url)).not.toHaveProperty('end_date');
  });

  it('unknown query parameters are ignored', async () => {
    const res = await t.api('get', `events?${FAR}&foo=bar&orderby=whatever`);
    expect(res.status).toBe(200);
  });

  it('the search echo and next link keep every explicit filter', async () => {
    const c = await bucket();
    const v = await mkVenue(t);
    const title = uniq('Echo');
    for (let i = 0; i < 3; i++) await mkEvent(t, { categories: [c], venue: v.id, title, featured: true });
    const res = await t.api('get', `events?categories=${c}&venue=${v.id}&featured=true&search=Echo&per_page=2&${FAR}`);
    for (const u of [res.body.rest_url, res.body.next_rest_url]) {
      const q = query(u);
      expect(q).toMatchObject({ venue: String(v.id), search: 'Echo', per_page: '2' });
      expect(q).toHaveProperty('categories');
      expect(q).toHaveProperty('featured');
    }
  });
});
