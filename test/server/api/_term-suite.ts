/**
 * What categories and tags share (reference §2, §3.1 "Categories / tags", §4.3, §5.8, §5.9, §7.4a),
 * run once per taxonomy by categories.test.ts and tags.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CategoryList, TagList, Term } from '../../../shared/api/records';
import { startTestServer, type TestServer } from '../../helpers/server';
import { CATEGORY_KEYS, TAG_KEYS, expectError, expectInvalidParam, expectKeyOrder, expectMissing, mkEvent, mkVenue, uniq, type Res } from './_support';

export type Plural = 'categories' | 'tags';

export function termSuite(plural: Plural, extra: (ctx: { t: () => TestServer; mk: (body?: Record<string, unknown>) => Promise<any> }) => void) {
  const other: Plural = plural === 'categories' ? 'tags' : 'categories';
  const keys = plural === 'categories' ? CATEGORY_KEYS : TAG_KEYS;
  const listSchema = plural === 'categories' ? CategoryList : TagList;

  let server: TestServer;
  const t = () => server;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  async function mk(body: Record<string, unknown> = {}) {
    const res = await server.api('post', plural).send({ name: uniq('Term'), ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }
  const ids = (res: Res) => res.body[plural].map((x: { id: number }) => x.id);
  /** A word only this test's terms contain, to isolate it from the rest of the file. */
  const word = () => uniq('w').replace(/\W/g, '').toLowerCase();

  describe(`create ${plural}`, () => {
    it('201 with the term in the original shape and key order, and a Location header', async () => {
      const res = await server.api('post', plural).send({ name: 'Live Music', description: 'Concerts and recitals' });
      expect(res.status).toBe(201);
      Term.parse(res.body);
      expectKeyOrder(res.body, keys, keys);
      const base = server.server.apiRoot;
      expect(res.body).toMatchObject({ name: 'Live Music', slug: 'live-music', description: 'Concerts and recitals', count: 0, meta: [] });
      expect(res.body.urls).toEqual({ self: `${base}${plural}/${res.body.id}`, collection: `${base}${plural}` });
      expect(res.headers.location).toBe(`${base}${plural}/${res.body.id}`);
      expect(res.body.url.startsWith(server.server.url)).toBe(true);
      expect(res.body.url).toContain('live-music');
    });

    it('explicit slug', async () => {
      const s = word();
      expect((await mk({ slug: s })).slug).toBe(s);
    });

    it('name missing → rest_missing_callback_param', async () => {
      expectMissing(await server.api('post', plural).send({ description: 'x' }), ['name']);
    });

    it.each(['name', 'description', 'slug'])('%s "" → 400 rest_invalid_param', async (f) => {
      expectInvalidParam(await server.api('post', plural).send({ name: uniq('x'), [f]: '' }), f);
    });

    it('a name already used → 400 term_exists with data.term_id', async () => {
      const a = await mk();
      const before = server.snapshot();
      const res = await server.api('post', plural).send({ name: a.name });
      expectError(res, 400, 'term_exists');
      expect(res.body.data.term_id).toBe(a.id);
      expect(server.snapshot()).toEqual(before);
    });
  });

  describe(`read, update, delete ${plural}`, () => {
    it('GET by id', async () => {
      const a = await mk({ description: 'd' });
      const res = await server.api('get', `${plural}/${a.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(a);
    });

    it('an id that is not a term of this taxonomy → 400 rest_invalid_param (GET, update, DELETE)', async () => {
      const o = await server.api('post', other).send({ name: uniq('o') });
      for (const id of [999999, o.body.id]) {
        expectInvalidParam(await server.api('get', `${plural}/${id}`), 'id');
        expectInvalidParam(await server.api('put', `${plural}/${id}`).send({ description: 'x' }), 'id');
        expectInvalidParam(await server.api('delete', `${plural}/${id}`), 'id');
      }
    });

    it('non-numeric id → 404 rest_no_route', async () => {
      expectError(await server.api('get', `${plural}/abc`), 404, 'rest_no_route');
      expectError(await server.api('get', `${plural}/foo%20bar`), 404, 'rest_no_route');
    });

    it.each(['post', 'put', 'patch'] as const)('%s updates only the fields sent (200)', async (m) => {
      const a = await mk({ description: 'kept' });
      const res = await server.api(m, `${plural}/${a.id}`).send({ name: `${a.name} renamed` });
      expect(res.status).toBe(200);
      Term.parse(res.body);
      expect([res.body.name, res.body.description, res.body.slug]).toEqual([`${a.name} renamed`, 'kept', a.slug]);
    });

    it('update slug; "" for name/description/slug → 400', async () => {
      const a = await mk();
      const s = word();
      expect((await server.api('put', `${plural}/${a.id}`).send({ slug: s })).body.slug).toBe(s);
      for (const f of ['name', 'description', 'slug']) expectInvalidParam(await server.api('put', `${plural}/${a.id}`).send({ [f]: '' }), f);
    });

    it('DELETE removes for good and answers 200 with the term as it was', async () => {
      const a = await mk({ description: 'bye' });
      const res = await server.api('delete', `${plural}/${a.id}`);
      expect(res.status).toBe(200);
      Term.parse(res.body);
      expect(res.body).toEqual(a);
      expectInvalidParam(await server.api('get', `${plural}/${a.id}`), 'id');
      expectInvalidParam(await server.api('delete', `${plural}/${a.id}`), 'id');
      // The name is free again.
      expect((await server.api('post', plural).send({ name: a.name })).status).toBe(201);
    });

    it('count = published events using the term', async () => {
      const a = await mk();
      await mkEvent(server, { [plural]: [a.id] });
      await mkEvent(server, { [plural]: [a.id] });
      await mkEvent(server, { [plural]: [a.id], status: 'draft' });
      expect((await server.api('get', `${plural}/${a.id}`)).body.count).toBe(2);
    });
  });

  describe(`list ${plural}`, () => {
    it('envelope keys in the term order, bare rest_url, strict shape, headers', async () => {
      const w = word();
      const a = await mk({ name: `${w} a` });
      const res = await server.api('get', `${plural}?search=${w}&hide_empty=false`);
      expect(res.status).toBe(200);
      listSchema.parse(res.body);
      expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', plural]);
      expect(res.body.rest_url).toBe(`${server.server.apiRoot}${plural}/`);
      expect(ids(res)).toEqual([a.id]);
      expect([res.headers['x-cal-total'], res.headers['x-cal-totalpages'], res.headers['x-wp-total'], res.headers['x-wp-totalpages']]).toEqual(['1', '1', '1', '1']);
    });

    it('hide_empty defaults to true: terms without published events are hidden', async () => {
      const w = word();
      const used = await mk({ name: `${w} used` });
      const unused = await mk({ name: `${w} unused` });
      const draftOnly = await mk({ name: `${w} draftonly` });
      await mkEvent(server, { [plural]: [used.id] });
      await mkEvent(server, { [plural]: [draftOnly.id], status: 'draft' });
      expect(ids(await server.api('get', `${plural}?search=${w}`))).toEqual([used.id]);
      expect(ids(await server.api('get', `${plural}?search=${w}&hide_empty=false`)).sort()).toEqual([used.id, unused.id, draftOnly.id].sort());
      expect(ids(await server.api('get', `${plural}?search=${w}&hide_empty=0`))).toHaveLength(3);
    });

    it('paging: next/previous on the bare URL, past the end → 200 empty with previous_rest_url', async () => {
      const w = word();
      await Promise.all(Array.from({ length: 5 }, (_, i) => mk({ name: `${w} ${i}` })));
      const base = `${server.server.apiRoot}${plural}/`;
      const q = `${plural}?search=${w}&hide_empty=false&per_page=2`;
      const p1 = await server.api('get', q);
      expect(Object.keys(p1.body)).toEqual(['rest_url', 'total', 'total_pages', plural, 'next_rest_url']);
      expect([p1.body.total, p1.body.total_pages, p1.body.next_rest_url]).toEqual([5, 3, `${base}?page=2`]);
      const p2 = await server.api('get', `${q}&page=2`);
      expect(Object.keys(p2.body)).toEqual(['rest_url', 'total', 'total_pages', plural, 'next_rest_url', 'previous_rest_url']);
      expect([p2.body.next_rest_url, p2.body.previous_rest_url]).toEqual([`${base}?page=3`, base]);
      const p3 = await server.api('get', `${q}&page=3`);
      expect(p3.body.previous_rest_url).toBe(`${base}?page=2`);
      expect(p3.body).not.toHaveProperty('next_rest_url');
      const p9 = await server.api('get', `${q}&page=9`);
      expect(p9.status).toBe(200);
      expect(p9.body[plural]).toEqual([]);
      expect(p9.body.previous_rest_url).toBe(`${base}?page=8`);
    });

    it('an empty list: total 0, total_pages 0, no next/previous', async () => {
      const res = await server.api('get', `${plural}?search=nothingmatcheszz&hide_empty=false`);
      expect(res.body).toEqual({ rest_url: `${server.server.apiRoot}${plural}/`, total: 0, total_pages: 0, [plural]: [] });
    });

    it('per_page above 50 is clamped; default 10', async () => {
      const w = word();
      await Promise.all(Array.from({ length: 52 }, (_, i) => mk({ name: `${w} ${String(i).padStart(2, '0')}` })));
      const res = await server.api('get', `${plural}?search=${w}&hide_empty=false&per_page=500`);
      expect(res.body[plural]).toHaveLength(50);
      expect([res.body.total, res.body.total_pages]).toEqual([52, 2]);
      expect((await server.api('get', `${plural}?search=${w}&hide_empty=false`)).body[plural]).toHaveLength(10);
    });

    it.each(['page', 'per_page'])('%s not a positive integer → 400', async (p) => {
      for (const v of ['foo', '-1', '0', 'foo%20bar']) expectInvalidParam(await server.api('get', `${plural}?${p}=${v}`), p);
    });

    it('default order: name ascending, case-insensitive; order and orderby', async () => {
      const w = word();
      const b = await mk({ name: `${w} Banana`, slug: `${w}-3`, description: 'b' });
      const a = await mk({ name: `${w} apple`, slug: `${w}-2`, description: 'c' });
      const c = await mk({ name: `${w} cherry`, slug: `${w}-1`, description: 'a' });
      await mkEvent(server, { [plural]: [c.id] });
      await mkEvent(server, { [plural]: [c.id] });
      await mkEvent(server, { [plural]: [b.id] });
      const q = `${plural}?search=${w}&hide_empty=false`;
      expect(ids(await server.api('get', q))).toEqual([a.id, b.id, c.id]);
      expect(ids(await server.api('get', `${q}&order=desc`))).toEqual([c.id, b.id, a.id]);
      expect(ids(await server.api('get', `${q}&order=DESC`))).toEqual([c.id, b.id, a.id]);
      expect(ids(await server.api('get', `${q}&order=ASC`))).toEqual([a.id, b.id, c.id]);
      expect(ids(await server.api('get', `${q}&order=sideways`))).toEqual([c.id, b.id, a.id]);
      expect(ids(await server.api('get', `${q}&orderby=slug`))).toEqual([c.id, a.id, b.id]);
      expect(ids(await server.api('get', `${q}&orderby=id`))).toEqual([b.id, a.id, c.id]);
      expect(ids(await server.api('get', `${q}&orderby=description`))).toEqual([c.id, b.id, a.id]);
      expect(ids(await server.api('get', `${q}&orderby=count&order=desc`))).toEqual([c.id, b.id, a.id]);
      expect(ids(await server.api('get', `${q}&orderby=nonsense`))).toEqual([a.id, b.id, c.id]);
      // A name every object has is no column either (it was a 500).
      expect(ids(await server.api('get', `${q}&orderby=__proto__`))).toEqual([a.id, b.id, c.id]);
      expect(ids(await server.api('get', `${q}&orderby=constructor`))).toEqual([a.id, b.id, c.id]);
    });

    it('search matches name or slug', async () => {
      const w = word();
      const byName = await mk({ name: `${w} by name` });
      const bySlug = await mk({ name: uniq('Other'), slug: `${w}-slug` });
      expect(ids(await server.api('get', `${plural}?search=${w}&hide_empty=false`)).sort()).toEqual([byName.id, bySlug.id].sort());
    });

    it('include and exclude; ids that do not exist → 400', async () => {
      const w = word();
      const a = await mk({ name: `${w} a` });
      const b = await mk({ name: `${w} b` });
      const c = await mk({ name: `${w} c` });
      const q = `${plural}?search=${w}&hide_empty=false`;
      expect(ids(await server.api('get', `${q}&include=${a.id},${c.id}`))).toEqual([a.id, c.id]);
      expect(ids(await server.api('get', `${q}&exclude=${b.id}`))).toEqual([a.id, c.id]);
      expect(ids(await server.api('get', `${q}&exclude[]=${a.id}&exclude[]=${c.id}`))).toEqual([b.id]);
      expectInvalidParam(await server.api('get', `${plural}?include=999999`), 'include');
      expectInvalidParam(await server.api('get', `${plural}?exclude=${a.id},999999`), 'exclude');
    });

    it('post / event: terms of that event; event wins over post; bad ids → 400', async () => {
      const a = await mk();
      const b = await mk();
      const e1 = await mkEvent(server, { [plural]: [a.id] });
      const e2 = await mkEvent(server, { [plural]: [b.id] });
      expect(ids(await server.api('get', `${plural}?post=${e1.id}`))).toEqual([a.id]);
      expect(ids(await server.api('get', `${plural}?event=${e2.id}`))).toEqual([b.id]);
      expect(ids(await server.api('get', `${plural}?post=${e1.id}&event=${e2.id}`))).toEqual([b.id]);
      const v = await mkVenue(server);
      for (const p of ['post', 'event']) {
        for (const bad of ['', '999999', String(v.id), 'abc']) expectInvalidParam(await server.api('get', `${plural}?${p}=${bad}`), p);
      }
    });

    it('slug: exact slug', async () => {
      const w = word();
      const a = await mk({ slug: `${w}-exact` });
      await mk({ slug: `${w}-exact-not` });
      expect(ids(await server.api('get', `${plural}?slug=${w}-exact&hide_empty=false`))).toEqual([a.id]);
    });

    it.each(['order', 'orderby', 'search', 'slug'])('%s="" → 400', async (p) => {
      expectInvalidParam(await server.api('get', `${plural}?${p}=`), p);
    });
  });

  extra({ t, mk });
}
