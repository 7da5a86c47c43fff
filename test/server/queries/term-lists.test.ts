/**
 * GET /categories and GET /tags query parameters (reference §2.4, §3.1, §4.3): hide_empty and what
 * counts as a use, order/orderby, include/exclude, parent, post/event, slug, search, pages past
 * the end, and every invalid value, for both taxonomies. The API suite covers the basics.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { expectInvalidParam, idsOf, mkEvent, mkVenue, word } from './_queries';

type Plural = 'categories' | 'tags';
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

async function mk(kind: Plural, body: Record<string, unknown>) {
  const res = await t.api('post', kind).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
const get = (kind: Plural, q: string) => t.api('get', `${kind}?per_page=50&${q}`);
const ids = async (kind: Plural, q: string) => idsOf(await get(kind, q), kind);
const sorted = (a: number[]) => [...a].sort((x, y) => x - y);

describe.each<Plural>(['categories', 'tags'])('%s: hide_empty', (kind) => {
  const m: Record<string, number> = {};
  let w: string;
  beforeAll(async () => {
    w = word('he');
    for (const s of ['publish', 'draft', 'pending', 'private', 'future', 'trash', 'unused']) {
      m[s] = (await mk(kind, { name: `${w} ${s}` })).id;
      if (s === 'unused') continue;
      const ev = await mkEvent(t, { [kind]: [m[s]], status: s === 'trash' ? 'publish' : s });
      if (s === 'trash') await t.api('delete', `events/${ev.id}`);
    }
  });

  it('default true: only terms a published event uses', async () => {
    expect(await ids(kind, `search=${w}`)).toEqual([m.publish]);
    expect(await ids(kind, `search=${w}&hide_empty=true`)).toEqual([m.publish]);
    expect(await ids(kind, `search=${w}&hide_empty=1`)).toEqual([m.publish]);
  });

  it('false or 0: every term, with its count of published events', async () => {
    const res = await get(kind, `search=${w}&hide_empty=false`);
    expect(sorted(idsOf(res, kind))).toEqual(sorted(Object.values(m)));
    const counts = Object.fromEntries(res.body[kind].map((x: { id: number; count: number }) => [x.id, x.count]));
    expect(counts[m.publish]).toBe(1);
    for (const s of ['draft', 'pending', 'private', 'future', 'trash', 'unused']) expect(counts[m[s]], s).toBe(0);
    expect(await ids(kind, `search=${w}&hide_empty=0`)).toHaveLength(7);
  });

  it('a term disappears from the default list when its only published event is trashed, and comes back when it is restored', async () => {
    const term = (await mk(kind, { name: `${w} volatile` })).id;
    const ev = await mkEvent(t, { [kind]: [term] });
    expect(await ids(kind, `search=${w}`)).toContain(term);
    await t.api('delete', `events/${ev.id}`);
    expect(await ids(kind, `search=${w}`)).not.toContain(term);
    await t.api('put', `events/${ev.id}`).send({ status: 'publish' });
    expect(await ids(kind, `search=${w}`)).toContain(term);
  });

  it.each(['maybe', '2'])('hide_empty=%s → 400', async (bad) => {
    expectInvalidParam(await get(kind, `hide_empty=${bad}`), 'hide_empty');
  });
});

describe.each<Plural>(['categories', 'tags'])('%s: order, orderby, include, exclude, slug, search', (kind) => {
  const m: Record<string, any> = {};
  let w: string;
  beforeAll(async () => {
    w = word('oo');
    m.b = await mk(kind, { name: `${w} Banana`, slug: `${w}-c`, description: 'zz 4242' });
    m.a = await mk(kind, { name: `${w} apple`, slug: `${w}-b`, description: 'yy' });
    m.c = await mk(kind, { name: `${w} Cherry`, slug: `${w}-a`, description: 'xx' });
  });
  const q = () => `search=${w}&hide_empty=false`;

  it('orderby=include follows the include list; without include it falls back to name', async () => {
    expect(await ids(kind, `${q()}&include=${m.c.id},${m.a.id},${m.b.id}&orderby=include`)).toEqual([m.c.id, m.a.id, m.b.id]);
    expect(await ids(kind, `${q()}&orderby=include`)).toEqual([m.a.id, m.b.id, m.c.id]);
  });

  it('orderby id / term_id / slug / description, ascending and descending', async () => {
    expect(await ids(kind, `${q()}&orderby=id`)).toEqual([m.b.id, m.a.id, m.c.id]);
    expect(await ids(kind, `${q()}&orderby=term_id&order=desc`)).toEqual([m.c.id, m.a.id, m.b.id]);
    expect(await ids(kind, `${q()}&orderby=slug&order=desc`)).toEqual([m.b.id, m.a.id, m.c.id]);
    expect(await ids(kind, `${q()}&orderby=description`)).toEqual([m.c.id, m.a.id, m.b.id]);
  });

  it('include and exclude together: exclude wins', async () => {
    expect(await ids(kind, `${q()}&include=${m.a.id},${m.b.id}&exclude=${m.b.id}`)).toEqual([m.a.id]);
    expect(await ids(kind, `${q()}&exclude=${m.a.id},${m.b.id},${m.c.id}`)).toEqual([]);
    expect(await ids(kind, `${q()}&include[]=${m.c.id}`)).toEqual([m.c.id]);
  });

  it('include reaches terms that hide_empty would hide only when hide_empty=false', async () => {
    expect(await ids(kind, `include=${m.a.id}`)).toEqual([]);
    expect(await ids(kind, `include=${m.a.id}&hide_empty=false`)).toEqual([m.a.id]);
  });

  it('slug: exactly one; a slug of the other taxonomy finds nothing here', async () => {
    expect(await ids(kind, `slug=${w}-b&hide_empty=false`)).toEqual([m.a.id]);
    expect(await ids(kind, `slug=${w}&hide_empty=false`)).toEqual([]);
    const other = kind === 'tags' ? 'categories' : 'tags';
    const o = await mk(other, { name: `${w} elsewhere`, slug: `${w}-elsewhere` });
    expect(o.slug).toBe(`${w}-elsewhere`);
    expect(await ids(kind, `slug=${w}-elsewhere&hide_empty=false`)).toEqual([]);
  });

  it('search looks in names and slugs, not descriptions; case-insensitive', async () => {
    expect(await ids(kind, `search=${w.toUpperCase()}%20CHERRY&hide_empty=false`)).toEqual([m.c.id]);
    expect(await ids(kind, `search=4242&hide_empty=false&include=${m.b.id}`)).toEqual([]);
  });

  it('search is case-insensitive beyond ASCII (música finds MÚSICA)', async () => {
    const x = await mk(kind, { name: `MÚSICA ${w}` });
    expect(await ids(kind, `search=${encodeURIComponent('música')}&hide_empty=false&include=${x.id}`)).toEqual([x.id]);
  });
});

describe('categories: parent', () => {
  const m: Record<string, number> = {};
  let w: string;
  beforeAll(async () => {
    w = word('pa');
    m.top = (await mk('categories', { name: `${w} top` })).id;
    m.child1 = (await mk('categories', { name: `${w} child one`, parent: m.top })).id;
    m.child2 = (await mk('categories', { name: `${w} child two`, parent: m.top })).id;
    m.grandchild = (await mk('categories', { name: `${w} grandchild`, parent: m.child1 })).id;
    m.otherTop = (await mk('categories', { name: `${w} other top` })).id;
    await mkEvent(t, { categories: [m.child2] });
  });

  it('direct children only, not grandchildren', async () => {
    expect(await ids('categories', `parent=${m.top}&hide_empty=false`)).toEqual([m.child1, m.child2]);
    expect(await ids('categories', `parent=${m.child1}&hide_empty=false`)).toEqual([m.grandchild]);
    expect(await ids('categories', `parent=${m.grandchild}&hide_empty=false`)).toEqual([]);
  });

  it('parent=0: top-level categories only', async () => {
    expect(await ids('categories', `parent=0&search=${w}&hide_empty=false`)).toEqual([m.otherTop, m.top]);
  });

  it('with the default hide_empty only used children remain', async () => {
    expect(await ids('categories', `parent=${m.top}`)).toEqual([m.child2]);
  });

  it('orderby=parent', async () => {
    const got = await ids('categories', `search=${w}&hide_empty=false&orderby=parent`);
    expect(got.slice(0, 2).sort()).toEqual([m.otherTop, m.top].sort());
    expect(got[got.length - 1]).toBe(m.grandchild);
  });

  it.each(['', 'abc', '-1', '999999'])('parent=%j → 400', async (bad) => {
    expectInvalidParam(await get('categories', `parent=${bad}`), 'parent');
  });

  it('a tag id is not a category parent → 400', async () => {
    const tag = await mk('tags', { name: `${w} a tag` });
    expectInvalidParam(await get('categories', `parent=${tag.id}`), 'parent');
  });

  it('tags have no parent parameter: it is ignored', async () => {
    const tw = word('tp');
    const a = await mk('tags', { name: `${tw} a` });
    const res = await get('tags', `search=${tw}&hide_empty=false&parent=${m.top}`);
    expect(idsOf(res, 'tags')).toEqual([a.id]);
  });
});

describe.each<Plural>(['categories', 'tags'])('%s: post / event', (kind) => {
  it('the terms of that event only, of this taxonomy only, by name', async () => {
    const w = word('pe');
    const z = await mk(kind, { name: `${w} zulu` });
    const a = await mk(kind, { name: `${w} alpha` });
    await mk(kind, { name: `${w} unused` });
    const other = kind === 'tags' ? 'categories' : 'tags';
    const o = await mk(other, { name: `${w} other` });
    const ev = await mkEvent(t, { [kind]: [z.id, a.id], [other]: [o.id] });
    expect(await ids(kind, `post=${ev.id}`)).toEqual([a.id, z.id]);
    expect(await ids(kind, `event=${ev.id}`)).toEqual([a.id, z.id]);
    expect(await ids(kind, `event=${(await mkEvent(t)).id}`)).toEqual([]);
  });

  it('hide_empty still applies: the terms of a draft event show only with hide_empty=false', async () => {
    const x = await mk(kind, { name: word('dr') });
    const ev = await mkEvent(t, { [kind]: [x.id], status: 'draft' });
    expect(await ids(kind, `post=${ev.id}`)).toEqual([]);
    expect(await ids(kind, `post=${ev.id}&hide_empty=false`)).toEqual([x.id]);
  });
});

describe.each<Plural>(['categories', 'tags'])('%s: a page past the end', (kind) => {
  it('200 with an empty list, the real totals and headers, a previous link and no next', async () => {
    const w = word('pp');
    for (let i = 0; i < 3; i++) await mk(kind, { name: `${w} ${i}` });
    const res = await t.api('get', `${kind}?search=${w}&hide_empty=false&per_page=2&page=5`);
    expect(res.status).toBe(200);
    expect(res.body[kind]).toEqual([]);
    expect([res.body.total, res.body.total_pages]).toEqual([3, 2]);
    expect([res.headers['x-cal-total'], res.headers['x-cal-totalpages'], res.headers['x-wp-total'], res.headers['x-wp-totalpages']]).toEqual(['3', '2', '3', '2']);
    expect(res.body.previous_rest_url).toBe(`${t.server.apiRoot}${kind}/?page=4`);
    expect(res.body).not.toHaveProperty('next_rest_url');
  });
});

describe.each<Plural>(['categories', 'tags'])('%s: every invalid value → 400 rest_invalid_param naming the parameter', (kind) => {
  let venueId: number;
  let otherTerm: number;
  beforeAll(async () => {
    venueId = (await mkVenue(t)).id;
    otherTerm = (await mk(kind === 'tags' ? 'categories' : 'tags', { name: word('ot') })).id;
  });
  const cases: Array<[string, () => string]> = [
    ['page', () => '0'], ['page', () => 'abc'], ['page', () => '-1'], ['page', () => '1.5'],
    ['per_page', () => '0'], ['per_page', () => 'abc'], ['per_page', () => '-1'],
    ['search', () => ''],
    ['include', () => 'abc'], ['include', () => '0'], ['include', () => '999999'], ['include', () => String(otherTerm)],
    ['exclude', () => 'abc'], ['exclude', () => '999999'],
    ['order', () => ''], ['orderby', () => ''],
    ['hide_empty', () => 'maybe'],
    ['post', () => ''], ['post', () => 'abc'], ['post', () => '999999'], ['post', () => String(venueId)],
    ['event', () => ''], ['event', () => '0'], ['event', () => String(venueId)],
    ['slug', () => ''],
    ['i18n_language', () => 'xx'],
  ];
  it.each(cases.map(([p, v], i) => [p, i, v] as const))('%s (case %i)', async (param, _i, value) => {
    expectInvalidParam(await t.api('get', `${kind}?${param}=${encodeURIComponent(value())}`), param);
  });
});
