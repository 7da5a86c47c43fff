/**
 * Paging of all five collections (reference §2; decisions "Headers", "Site settings"): following
 * next/previous links end to end, when each link is present, the per_page limit as echoed, the
 * default page size from the settings, pages past the end, the count headers, and links built from
 * the root the request came in on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { at, crawl, expectError, expectInvalidParam, follow, idsOf, mkEvent, mkOrganizer, mkTerm, mkVenue, queryOf, type Res, word } from './_queries';

const FAR = 'start_date=2031-01-01&end_date=2031-12-31';
type Coll = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';
const POSTS: Coll[] = ['events', 'venues', 'organizers'];
const TERMS: Coll[] = ['categories', 'tags'];
const N = 7;

let t: TestServer;
let w: string;
let cat: number;
/** The query selecting this file's N records of each collection. */
const scope: Record<Coll, () => string> = {
  events: () => `categories=${cat}&${FAR}`,
  venues: () => `search=${w}`,
  organizers: () => `search=${w}`,
  categories: () => `search=${w}&hide_empty=false`,
  tags: () => `search=${w}&hide_empty=false`,
};
const made: Record<Coll, number[]> = { events: [], venues: [], organizers: [], categories: [], tags: [] };

beforeAll(async () => {
  t = await startTestServer();
  w = word('pg');
  cat = (await mkTerm(t, 'categories', { name: `${w} bucket` })).id;
  made.categories.push(cat);
  for (let i = 0; i < N; i++) {
    made.events.push((await mkEvent(t, { categories: [cat], start_date: `2031-02-${String(i + 1).padStart(2, '0')} 10:00`, end_date: `2031-02-${String(i + 1).padStart(2, '0')} 11:00` })).id);
    made.venues.push((await mkVenue(t, { venue: `${w} venue ${i}` })).id);
    made.organizers.push((await mkOrganizer(t, { organizer: `${w} organizer ${i}` })).id);
    if (i < N - 1) made.categories.push((await mkTerm(t, 'categories', { name: `${w} cat ${i}` })).id);
    made.tags.push((await mkTerm(t, 'tags', { name: `${w} tag ${i}` })).id);
  }
});
afterAll(async () => {
  await t?.close();
});

const page = (c: Coll, q: string) => t.api('get', `${c}?${scope[c]()}&${q}`);
const keysOf = (res: Res) => Object.keys(res.body);

describe.each(POSTS)('%s: following the links', (c) => {
  it('next_rest_url from page 1 visits every record once, in the order of one big page', async () => {
    const whole = idsOf(await page(c, 'per_page=50'), c);
    expect(whole.sort((a, b) => a - b)).toEqual([...made[c]].sort((a, b) => a - b));
    const oneBig = idsOf(await page(c, 'per_page=50'), c);
    expect(await crawl(t, await page(c, 'per_page=3'), c)).toEqual(oneBig);
  });

  it('previous_rest_url from the last page walks back to page 1', async () => {
    const oneBig = idsOf(await page(c, 'per_page=50'), c);
    let res = await page(c, 'per_page=3&page=3');
    const pages: number[][] = [];
    for (;;) {
      pages.unshift(idsOf(res, c));
      if (!res.body.previous_rest_url) break;
      res = await follow(t, res.body.previous_rest_url);
    }
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(oneBig);
  });

  it('links: page 1 next only; middle both; last previous only; a single page neither', async () => {
    expect(keysOf(await page(c, 'per_page=3'))).toEqual([c, 'rest_url', 'next_rest_url', 'total', 'total_pages']);
    expect(keysOf(await page(c, 'per_page=3&page=2'))).toEqual([c, 'rest_url', 'next_rest_url', 'previous_rest_url', 'total', 'total_pages']);
    expect(keysOf(await page(c, 'per_page=3&page=3'))).toEqual([c, 'rest_url', 'previous_rest_url', 'total', 'total_pages']);
    expect(keysOf(await page(c, `per_page=${N}`))).toEqual([c, 'rest_url', 'total', 'total_pages']);
  });

  it('an exactly full last page has no next link', async () => {
    const last = await page(c, 'per_page=7');
    expect([last.body.total, last.body.total_pages]).toEqual([7, 1]);
    const full = await page(c, 'per_page=1&page=7');
    expect(idsOf(full, c)).toHaveLength(1);
    expect(full.body).not.toHaveProperty('next_rest_url');
    expect(queryOf(full.body.previous_rest_url).page).toBe('6');
  });

  it('each link names its page once, and previous of page 2 has no page at all', async () => {
    const p2 = await page(c, 'per_page=2&page=2');
    for (const u of [p2.body.rest_url, p2.body.next_rest_url, p2.body.previous_rest_url]) expect(new URL(u).searchParams.getAll('page').length).toBeLessThanOrEqual(1);
    expect(new URL(p2.body.next_rest_url).searchParams.getAll('page')).toEqual(['3']);
    expect(new URL(p2.body.previous_rest_url).searchParams.has('page')).toBe(false);
    expect(queryOf(p2.body.rest_url).page).toBe('2');
  });

  it('per_page above 50 is clamped and the links say per_page=50', async () => {
    for (const asked of ['51', '100', '100000']) {
      const res = await page(c, `per_page=${asked}`);
      expect(res.status).toBe(200);
      expect(queryOf(res.body.rest_url).per_page).toBe('50');
      expect([res.body.total, res.body.total_pages]).toEqual([N, 1]);
    }
    expect(queryOf((await page(c, 'per_page=50')).body.rest_url).per_page).toBe('50');
  });

  it('a page past the end → 404, also when there is nothing at all', async () => {
    const code = { events: 'event-archive-page-not-found', venues: 'venue-archive-page-not-found', organizers: 'organizer-archive-page-not-found' }[c as 'events'];
    expectError(await page(c, 'per_page=3&page=4'), 404, code);
    expectError(await page(c, 'per_page=50&page=2'), 404, code);
    const nothing = c === 'events' ? `categories=${(await mkTerm(t, 'categories')).id}&${FAR}` : 'search=nothingmatcheszz';
    const empty = await t.api('get', `${c}?${nothing}`);
    expect([empty.status, empty.body.total, empty.body.total_pages, empty.headers['x-cal-total'], empty.headers['x-wp-totalpages']]).toEqual([200, 0, 0, '0', '0']);
    expect(keysOf(empty)).toEqual([c, 'rest_url', 'total', 'total_pages']);
    expectError(await t.api('get', `${c}?${nothing}&page=2`), 404, code);
  });
});

describe('query strings read as PHP reads them', () => {
  it.each(POSTS)('%s: a client appending &page=2 to rest_url gets page 2 (a repeated parameter takes its last value)', async (c) => {
    const p1 = await page(c, 'per_page=3');
    expect(queryOf(p1.body.rest_url).page).toBe('1');
    const res = await follow(t, `${p1.body.rest_url}&page=2`);
    expect(idsOf(res, c)).toEqual(idsOf(await page(c, 'per_page=3&page=2'), c));
  });

  it.each(TERMS)('%s: per_page given twice: the last one counts', async (c) => {
    const res = await page(c, 'per_page=50&per_page=2');
    expect(idsOf(res, c)).toHaveLength(2);
  });
});

describe.each(TERMS)('%s: the links of term lists', (c) => {
  it('rest_url is the bare collection; next and previous carry the page only (reference §2.2)', async () => {
    const base = `${t.server.apiRoot}${c}/`;
    const p1 = await page(c, 'per_page=3');
    expect([p1.body.rest_url, p1.body.next_rest_url, p1.body.total, p1.body.total_pages]).toEqual([base, `${base}?page=2`, N, 3]);
    const p2 = await page(c, 'per_page=3&page=2');
    expect([p2.body.previous_rest_url, p2.body.next_rest_url]).toEqual([base, `${base}?page=3`]);
    const p3 = await page(c, 'per_page=3&page=3');
    expect([p3.body.previous_rest_url, p3.body.next_rest_url]).toEqual([`${base}?page=2`, undefined]);
    expect(idsOf(p3, c)).toHaveLength(1);
  });

  it('pages in name order; the pages together are the whole list', async () => {
    const oneBig = idsOf(await page(c, 'per_page=50'), c);
    const parts: number[] = [];
    for (let p = 1; p <= 3; p++) parts.push(...idsOf(await page(c, `per_page=3&page=${p}`), c));
    expect(parts).toEqual(oneBig);
    expect([...oneBig].sort((a, b) => a - b)).toEqual([...made[c]].sort((a, b) => a - b));
  });

  it('per_page above 50 is clamped; total_pages follows the clamped size', async () => {
    const res = await page(c, 'per_page=500');
    expect([res.status, res.body.total, res.body.total_pages]).toEqual([200, N, 1]);
  });

  it('count headers on every page, past the end included', async () => {
    for (const p of [1, 3, 9]) {
      const res = await page(c, `per_page=3&page=${p}`);
      expect(res.status).toBe(200);
      expect([res.headers['x-cal-total'], res.headers['x-cal-totalpages'], res.headers['x-wp-total'], res.headers['x-wp-totalpages']]).toEqual([String(N), '3', String(N), '3']);
    }
  });
});

describe('page and per_page values', () => {
  const all: Coll[] = [...POSTS, ...TERMS];
  it.each(all.flatMap((c) => ['page', 'per_page'].flatMap((p) => ['', 'abc', '1.5', '2abc', '0', '-1'].map((v) => [c, p, v]))))('%s %s=%j → 400', async (c, p, v) => {
    expectInvalidParam(await t.api('get', `${c}?${p}=${encodeURIComponent(v)}`), p);
  });

  it.each(all)('%s: page and per_page as numeric strings with spaces are numbers', async (c) => {
    const res = await t.api('get', `${c}?${scope[c as Coll]()}&per_page=%202&page=%202`);
    expect(res.status).toBe(200);
    expect(idsOf(res, c)).toHaveLength(2);
  });
});

describe('the default page size is the site setting (10 unless changed)', () => {
  it.each([...POSTS, ...TERMS])('%s', async (c) => {
    expect(idsOf(await page(c as Coll, ''), c)).toHaveLength(N);
    t.server.store.settings.update({ per_page: 3 });
    try {
      const res = await page(c as Coll, '');
      expect(idsOf(res, c)).toHaveLength(3);
      expect([res.body.total, res.body.total_pages]).toEqual([N, 3]);
      if (POSTS.includes(c as Coll)) expect(queryOf(res.body.rest_url).per_page).toBe('3');
    } finally {
      t.server.store.settings.update({ per_page: 10 });
    }
  });
});

describe('links are built from the root the request came in on', () => {
  const roots = ['/wp-json', '/en', '/en/wp-json'];
  it.each(roots.flatMap((r) => [...POSTS, ...TERMS].map((c) => [r, c])))('%s: %s', async (root, c) => {
    const base = `${t.server.url}${root}/cal/events/v1/${c}/`;
    const res = await at(t, root, 'get', `${c}?${scope[c as Coll]()}&per_page=3&page=2`);
    expect(res.status).toBe(200);
    for (const k of ['rest_url', 'next_rest_url', 'previous_rest_url']) expect(res.body[k].startsWith(base), `${k}: ${res.body[k]}`).toBe(true);
    if (POSTS.includes(c as Coll)) {
      const next = await follow(t, res.body.next_rest_url);
      expect(next.status).toBe(200);
      expect(idsOf(next, c)).toHaveLength(1);
    }
  });
});
