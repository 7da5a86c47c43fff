/**
 * GET /events filters other than dates and geoloc (reference §3.1, §4.1; corrections 3, 4): search,
 * categories, tags, venue, organizer, featured, status, include, post_parent, ticketed, how they
 * combine, how they are echoed, and every invalid value.
 *
 * One fixture of six April-2031 events where every filter leaves something out; each query adds
 * the April window so events made by other tests stay out of the way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { startTestServer, type TestServer } from '../../helpers/server';
import { expectError, expectInvalidParam, follow, idsOf, mkEvent, mkOrganizer, mkTerm, mkVenue, queryOf, uniq } from './_queries';

const W = 'start_date=2031-04-01&end_date=2031-04-30';
let t: TestServer;
const f: Record<string, any> = {};
const e: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestServer({ publicRead: true });
  t.server.store.settings.update({ timezone: 'Europe/Lisbon' });
  f.music = await mkTerm(t, 'categories', { name: uniq('Music') });
  f.talk = await mkTerm(t, 'categories', { name: uniq('Talk') });
  f.free = await mkTerm(t, 'tags', { name: uniq('Free') });
  f.kids = await mkTerm(t, 'tags', { name: uniq('Kids') });
  for (const k of ['vA', 'vB', 'vC']) f[k] = await mkVenue(t, { venue: uniq(`Hall ${k}`) });
  for (const k of ['oA', 'oB', 'oC']) f[k] = await mkOrganizer(t, { organizer: uniq(`Org ${k}`) });
  const at = (day: number, hour = 20) => ({ start_date: `2031-04-0${day} ${hour}:00:00`, end_date: `2031-04-0${day} ${hour + 1}:00:00` });
  e.jazz = (await mkEvent(t, { title: 'Jazz Night', ...at(1), date: '2030-01-05 10:00:00', categories: [f.music.id], tags: [f.free.id], venue: f.vA.id, organizer: [f.oA.id], featured: true })).id;
  e.poetry = (await mkEvent(t, { title: 'Poetry Talk', description: 'An evening of spoken word', ...at(2), date: '2030-01-04 10:00:00', categories: [f.talk.id], tags: [f.kids.id], venue: f.vB.id, organizer: [f.oB.id] })).id;
  e.rock = (await mkEvent(t, { title: 'Rock Concert', excerpt: 'Loud guitars all night', ...at(3), date: '2030-01-03 10:00:00', categories: [f.music.id, f.talk.id], venue: f.vB.id, organizer: [f.oA.id, f.oC.id], featured: true })).id;
  e.quiet = (await mkEvent(t, { title: 'Quiet Evening', ...at(4), date: '2030-01-02 10:00:00' })).id;
  e.draft = (await mkEvent(t, { title: 'Kids Jazz Morning', status: 'draft', ...at(5, 9), date: '2030-01-01 10:00:00', categories: [f.music.id], tags: [f.kids.id], venue: f.vC.id })).id;
  e.evora = (await mkEvent(t, { title: 'Évora Festival', ...at(6), date: '2030-01-06 10:00:00', categories: [f.talk.id], venue: f.vA.id })).id;
});
afterAll(async () => {
  await t?.close();
});

const list = (q: string) => t.api('get', `events?${W}&per_page=50${q ? `&${q}` : ''}`);
const ids = async (q: string) => idsOf(await list(q));
const ALL = () => [e.jazz, e.poetry, e.rock, e.quiet, e.draft, e.evora];

describe('the fixture', () => {
  it('lists all six in start order for the owner (draft included)', async () => {
    expect(await ids('')).toEqual(ALL());
  });
});

describe('search (title, description, excerpt; every word)', () => {
  it.each([
    ['jazz', ['jazz', 'draft']],
    ['JAZZ night', ['jazz']],
    ['night jazz', ['jazz']],
    ['spoken', ['poetry']],
    ['guitars', ['rock']],
    ['night', ['jazz', 'rock']],
    ['jazz concert', []],
    ['"Jazz Night"', ['jazz']],
    ['"night jazz"', []],
  ])('search=%j', async (q, want) => {
    expect(await ids(`search=${encodeURIComponent(q)}`)).toEqual(want.map((k) => e[k]));
  });

  it('venue, organizer and term names are not searched', async () => {
    expect(await ids(`search=${encodeURIComponent(f.vA.venue)}`)).toEqual([]);
    expect(await ids(`search=${encodeURIComponent(f.oA.organizer)}`)).toEqual([]);
    expect(await ids(`search=${encodeURIComponent(f.music.name)}`)).toEqual([]);
  });

  it('is case-insensitive beyond ASCII (évora finds Évora)', async () => {
    expect(await ids('search=%C3%89vora')).toEqual([e.evora]);
    expect(await ids('search=%C3%A9vora')).toEqual([e.evora]);
    expect(await ids('search=FESTIVAL')).toEqual([e.evora]);
    // A word shorter than three letters too (narrowed by a longer one).
    expect(await ids(`search=${encodeURIComponent('év festival')}`)).toEqual([e.evora]);
  });

  it('is echoed in rest_url', async () => {
    expect(queryOf((await list('search=jazz')).body.rest_url).search).toBe('jazz');
  });
});

describe('categories and tags (slugs or ids, OR within, AND between)', () => {
  it('one category by slug, by id, and by both', async () => {
    expect(await ids(`categories=${f.music.slug}`)).toEqual([e.jazz, e.rock, e.draft]);
    expect(await ids(`categories=${f.music.id}`)).toEqual([e.jazz, e.rock, e.draft]);
    expect(await ids(`categories=${f.music.id},${f.talk.slug}`)).toEqual([e.jazz, e.poetry, e.rock, e.draft, e.evora]);
    expect(await ids(`categories[]=${f.talk.id}`)).toEqual([e.poetry, e.rock, e.evora]);
  });

  it('tags, and categories AND tags', async () => {
    expect(await ids(`tags=${f.kids.slug}`)).toEqual([e.poetry, e.draft]);
    expect(await ids(`tags=${f.kids.id},${f.free.slug}`)).toEqual([e.jazz, e.poetry, e.draft]);
    expect(await ids(`categories=${f.music.id}&tags=${f.kids.id}`)).toEqual([e.draft]);
    expect(await ids(`categories=${f.talk.id}&tags=${f.free.id}`)).toEqual([]);
  });

  it('the values asked for are echoed, and kept in the next link', async () => {
    const res = await t.api('get', `events?${W}&categories=${f.music.slug},${f.talk.id}&tags=${f.kids.id}&per_page=1`);
    expect(idsOf(res)).toEqual([e.poetry]);
    for (const url of [res.body.rest_url, res.body.next_rest_url]) {
      const q = queryOf(url);
      expect(q.categories.split(',')).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^(${f.music.slug}|${f.music.id})$`))]));
      expect(q.tags).toBe(String(f.kids.id));
    }
    expect(idsOf(await follow(t, res.body.next_rest_url))).toEqual([e.draft]);
  });

  it('one unknown value among known ones → 400', async () => {
    expectInvalidParam(await list(`categories=${f.music.id},no-such-category-zz`), 'categories');
    expectInvalidParam(await list(`tags=${f.kids.slug},999999`), 'tags');
    // A tag is not a category, and a category is not a tag.
    expectInvalidParam(await list(`categories=${f.kids.slug}`), 'categories');
    expectInvalidParam(await list(`tags=${f.music.slug}`), 'tags');
  });
});

describe('venue and organizer (ids, OR)', () => {
  it('venue', async () => {
    expect(await ids(`venue=${f.vB.id}`)).toEqual([e.poetry, e.rock]);
    expect(await ids(`venue=${f.vA.id},${f.vC.id}`)).toEqual([e.jazz, e.draft, e.evora]);
    expect(await ids(`venue[]=${f.vC.id}&venue[]=${f.vB.id}`)).toEqual([e.poetry, e.rock, e.draft]);
  });

  it('organizer: an event with several organizers matches any of them', async () => {
    expect(await ids(`organizer=${f.oA.id}`)).toEqual([e.jazz, e.rock]);
    expect(await ids(`organizer=${f.oC.id}`)).toEqual([e.rock]);
    expect(await ids(`organizer=${f.oB.id},${f.oC.id}`)).toEqual([e.poetry, e.rock]);
  });

  it('both are echoed as comma lists', async () => {
    const q = queryOf((await list(`venue=${f.vA.id},${f.vC.id}&organizer[]=${f.oA.id}`)).body.rest_url);
    expect(q.venue).toBe(`${f.vA.id},${f.vC.id}`);
    expect(q.organizer).toBe(String(f.oA.id));
  });
});

describe('featured', () => {
  it('true only featured, false only the others, absent both', async () => {
    expect(await ids('featured=true')).toEqual([e.jazz, e.rock]);
    expect(await ids('featured=false')).toEqual([e.poetry, e.quiet, e.draft, e.evora]);
    expect(await ids('')).toEqual(ALL());
  });
});

describe('status', () => {
  it('filters by status for the owner; any = every status but trash', async () => {
    expect(await ids('status=draft')).toEqual([e.draft]);
    expect(await ids('status=publish')).toEqual(ALL().filter((id) => id !== e.draft));
    expect(await ids('status=any')).toEqual(ALL());
    expect(await ids('status=private')).toEqual([]);
  });

  it('an anonymous reader sees published events only, and may ask for status=publish only', async () => {
    expect(idsOf(await t.anon('get', `events?${W}&per_page=50`))).toEqual(ALL().filter((id) => id !== e.draft));
    expect(idsOf(await t.anon('get', `events?${W}&status=publish`))).toHaveLength(5);
    expectInvalidParam(await t.anon('get', `events?${W}&status=draft`), 'status');
  });
});

describe('combinations', () => {
  it('every filter narrows the others', async () => {
    expect(await ids(`categories=${f.music.id}&featured=true`)).toEqual([e.jazz, e.rock]);
    expect(await ids(`categories=${f.music.id}&featured=true&venue=${f.vB.id}`)).toEqual([e.rock]);
    expect(await ids(`categories=${f.music.id}&featured=true&venue=${f.vB.id}&organizer=${f.oB.id}`)).toEqual([]);
    expect(await ids(`search=night&organizer=${f.oC.id}`)).toEqual([e.rock]);
    expect(await ids(`tags=${f.kids.id}&status=publish`)).toEqual([e.poetry]);
  });
});

describe('include', () => {
  it('only these ids, ordered by publication date then id, whatever the order asked', async () => {
    // Publication dates: evora 01-06, jazz 01-05, poetry 01-04 → poetry, jazz, evora.
    expect(idsOf(await t.api('get', `events?include=${e.evora},${e.jazz},${e.poetry}`))).toEqual([e.poetry, e.jazz, e.evora]);
  });

  it('drops the default window and any date parameter, relative ones included', async () => {
    const past = (await mkEvent(t, { start_date: '2020-02-02 10:00', end_date: '2020-02-02 11:00' })).id;
    expect(idsOf(await t.api('get', `events?include=${past}`))).toEqual([past]);
    // past was published just now, quiet on 2030-01-02.
    expect(idsOf(await t.api('get', `events?include=${e.quiet},${past}&start_date=2040-01-01&end_date=2040-02-01`))).toEqual([past, e.quiet]);
    expect(idsOf(await t.api('get', `events?include=${past}&starts_after=2040-01-01&ends_before=2040-02-01`))).toEqual([past]);
  });

  it('the other filters still apply', async () => {
    expect(idsOf(await t.api('get', `events?include=${e.jazz},${e.poetry}&categories=${f.music.id}`))).toEqual([e.jazz]);
    expect(idsOf(await t.api('get', `events?include=${e.jazz},${e.rock}&featured=false`))).toEqual([]);
    expect(idsOf(await t.anon('get', `events?include=${e.draft},${e.quiet}`))).toEqual([e.quiet]);
  });

  it('ids that are not events are simply not found', async () => {
    const res = await t.api('get', `events?include=${f.vA.id},999999`);
    expect(res.status).toBe(200);
    expect([res.body.events, res.body.total]).toEqual([[], 0]);
  });

  it('is echoed, and pages like any list', async () => {
    const p1 = await t.api('get', `events?include=${e.jazz},${e.poetry},${e.rock}&per_page=2`);
    expect(queryOf(p1.body.rest_url).include).toBe(`${e.jazz},${e.poetry},${e.rock}`);
    expect([p1.body.total, p1.body.total_pages]).toEqual([3, 2]);
    expect(idsOf(await follow(t, p1.body.next_rest_url))).toEqual([e.jazz]);
  });
});

describe('post_parent (recurrence children, made by importing a repeating iCalendar event)', () => {
  const series: Record<string, number[]> = {};
  beforeAll(async () => {
    const day = DateTime.utc().plus({ days: 40 }).toFormat('yyyyMMdd');
    const vevent = (uid: string, count: number) =>
      ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20250101T000000Z', `DTSTART:${day}T100000Z`, `DTEND:${day}T110000Z`, `SUMMARY:${uid}`, `RRULE:FREQ=WEEKLY;COUNT=${count}`, 'END:VEVENT'];
    const ics = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//almanac tests//EN', ...vevent(`${uniq('a').replace(/\W/g, '')}@test`, 3), ...vevent(`${uniq('b').replace(/\W/g, '')}@test`, 2), 'END:VCALENDAR'].join('\r\n');
    const res = await t.api('post', 'import').set('Content-Type', 'text/calendar').send(ics);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // One item per series (its first event); the calendar makes the other occurrences.
    const made = res.body.items.filter((i: { action: string }) => i.action === 'create').map((i: { id: number; title: string }) => [i.title, i.id] as const);
    expect(made).toHaveLength(2);
    for (const [title, id] of made) {
      const children = await t.api('get', 'events').query({ post_parent: id, per_page: 50, start_date: '2000-01-01', end_date: '2100-01-01' });
      series[title] = [id, ...idsOf(children)];
    }
    expect(Object.values(series).map((s) => s.length).sort()).toEqual([2, 3]);
  });

  it('lists the children of the first occurrence only, in start order', async () => {
    const [a, b] = Object.values(series).sort((x, y) => y.length - x.length);
    expect(idsOf(await t.api('get', `events?post_parent=${a[0]}`))).toEqual(a.slice(1));
    expect(idsOf(await t.api('get', `events?post_parent=${b[0]}`))).toEqual(b.slice(1));
    expect(idsOf(await t.api('get', `events?post_parent=${a[1]}`))).toEqual([]);
    expect(queryOf((await t.api('get', `events?post_parent=${a[0]}`)).body.rest_url).post_parent).toBe(String(a[0]));
  });

  it('not an existing event → 400', async () => {
    for (const bad of ['0', 'abc', '999999', String(f.vA.id)]) expectInvalidParam(await t.api('get', `events?post_parent=${bad}`), 'post_parent');
  });
});

describe('ticketed', () => {
  it.each(['true', '1', 'yes'])('ticketed=%s → 400 with details.ticketed.code event-tickets-not-active', async (v) => {
    const res = await list(`ticketed=${v}`);
    expectInvalidParam(res, 'ticketed');
    expect(res.body.data.details.ticketed.code).toBe('event-tickets-not-active');
  });

  it.each(['false', '0'])('ticketed=%s is ignored', async (v) => {
    expect(await ids(`ticketed=${v}`)).toEqual(ALL());
  });
});

describe('every invalid value → 400 rest_invalid_param naming the parameter', () => {
  const cases: Array<[string, () => string]> = [
    ['page', () => 'abc'], ['page', () => '0'], ['page', () => '-2'], ['page', () => '1.5'], ['page', () => ''],
    ['per_page', () => 'abc'], ['per_page', () => '0'], ['per_page', () => '-5'], ['per_page', () => '2.5'], ['per_page', () => ''],
    ['search', () => ''],
    ['categories', () => 'no-such-category-zz'], ['categories', () => '999999'], ['categories', () => '0'], ['categories', () => '-3'],
    ['tags', () => 'no-such-tag-zz'], ['tags', () => '999999'], ['tags', () => '0'],
    ['venue', () => 'abc'], ['venue', () => '999999'], ['venue', () => '0'], ['venue', () => String(f.oA.id)], ['venue', () => String(e.jazz)], ['venue', () => `${f.vA.id},abc`],
    ['organizer', () => 'abc'], ['organizer', () => '999999'], ['organizer', () => '0'], ['organizer', () => String(f.vA.id)], ['organizer', () => `${f.oA.id},999999`],
    ['featured', () => 'maybe'], ['featured', () => '2'],
    ['status', () => 'bogus'], ['status', () => 'publish,bogus'],
    ['include', () => 'abc'], ['include', () => '0'], ['include', () => '-1'], ['include', () => `${e.jazz},x`],
    ['post_parent', () => 'abc'], ['post_parent', () => '-1'],
    ['ticketed', () => 'maybe'],
    ['geoloc', () => 'maybe'],
    ['i18n_language', () => 'xx'], ['i18n_language', () => ''],
  ];
  it.each(cases.map(([p, v], i) => [p, i, v] as const))('%s (case %i)', async (param, _i, value) => {
    const res = await t.api('get', `events?${param}=${encodeURIComponent(value())}`);
    expectInvalidParam(res, param);
  });

  it('several bad parameters are all named in one answer', async () => {
    const res = await t.api('get', 'events?per_page=0&featured=maybe&include=abc');
    expectInvalidParam(res, 'per_page');
    expect(Object.keys(res.body.data.params)).toEqual(expect.arrayContaining(['per_page', 'featured', 'include']));
  });

  it('a bad parameter is reported before a page past the end', async () => {
    expectInvalidParam(await t.api('get', `events?${W}&page=99&featured=maybe`), 'featured');
    expectError(await t.api('get', `events?${W}&page=99`), 404, 'event-archive-page-not-found');
  });

  it('a refused query changes nothing', async () => {
    const before = t.snapshot();
    await t.api('get', 'events?categories=brand-new-category-zz');
    expect(t.snapshot()).toEqual(before);
  });
});
