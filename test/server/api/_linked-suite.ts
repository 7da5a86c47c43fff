/**
 * What venues and organizers share (reference §2, §3.1 "Venues / organizers", §4.2, §5.7, §5.9,
 * §5.10, §7.2, §7.3), run once per kind by venues.test.ts and organizers.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Organizer, OrganizerList, Venue, VenueList } from '../../../shared/api/records';
import { startTestServer, type TestServer } from '../../helpers/server';
import { ORGANIZER_KEYS, VENUE_KEYS, expectError, expectInvalidParam, expectKeyOrder, expectMissing, mkEvent, uniq, type Res } from './_support';

export type Kind = 'venue' | 'organizer';

export function linkedSuite(kind: Kind, extra: (ctx: { t: () => TestServer; mk: (body?: Record<string, unknown>) => Promise<any> }) => void) {
  const plural = kind === 'venue' ? 'venues' : 'organizers';
  const other = kind === 'venue' ? 'organizers' : 'venues';
  const schema = kind === 'venue' ? Venue : Organizer;
  const listSchema = kind === 'venue' ? VenueList : OrganizerList;
  const keys = kind === 'venue' ? VENUE_KEYS : ORGANIZER_KEYS;
  /** A searchable field every kind has. */
  const phoneField = 'phone';

  let server: TestServer;
  const t = () => server;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function mk(body: Record<string, unknown> = {}) {
    const res = await server.api('post', plural).send({ [kind]: uniq(kind), ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }
  const linkTo = (id: number) => (kind === 'venue' ? { venue: id } : { organizer: [id] });
  const ids = (res: Res) => res.body[plural].map((x: { id: number }) => x.id);

  describe(`create ${kind}`, () => {
    it('201 with the record in the original shape and key order, falsy values left out', async () => {
      const res = await server.api('post', plural).send({ [kind]: 'Town Hall', description: 'Historic hall on the square.' });
      expect(res.status).toBe(201);
      const rec = schema.parse(res.body);
      expect(rec.json_ld).toBeUndefined();
      expectKeyOrder(res.body, keys, ['id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', kind, 'description', 'slug', 'global_id', 'global_id_lineage']);
      expect(res.body[kind]).toBe('Town Hall');
      expect(res.body.description).toBe('<p>Historic hall on the square.</p>');
      expect(res.body.author).toBe('1');
      expect(res.body.status).toBe('publish');
      for (const k of ['excerpt', 'image', 'phone', 'website']) expect(res.body).not.toHaveProperty(k);
      expect(res.body.url).toBe(`${server.server.url}/${kind}/${res.body.slug}/`);
      expect(res.body.global_id).toBe(`localhost?id=${res.body.id}`);
      expect(res.body.global_id_lineage).toEqual([res.body.global_id]);
    });

    it('name missing → 400 rest_missing_callback_param; empty → 400 rest_invalid_param', async () => {
      expectMissing(await server.api('post', plural).send({ description: 'no name' }), [kind]);
      expectInvalidParam(await server.api('post', plural).send({ [kind]: '' }), kind);
    });

    it.each([
      ['author', 23],
      ['author', ''],
      ['date', 'whenever'],
      ['date_utc', 'some day'],
      ['status', 'bogus'],
      ['website', 'not a url'],
      ['image', 'not an image'],
      ['image', 999999],
    ])('%s = %j → 400 rest_invalid_param', async (field, value) => {
      expectInvalidParam(await server.api('post', plural).send({ [kind]: uniq('Bad'), [field]: value }), field);
    });

    it('an identical record (case-insensitive) is returned instead of a new one, still 201', async () => {
      const name = uniq('Dup');
      const a = await mk({ [kind]: name, phone: '555 0100' });
      const res = await server.api('post', plural).send({ [kind]: name.toUpperCase(), phone: '555 0100' });
      expect(res.status).toBe(201);
      expect(res.body.id).toBe(a.id);
      const differs = await mk({ [kind]: name, phone: '555 0199' });
      expect(differs.id).not.toBe(a.id);
    });

    it('keeps the status asked for; a draft is readable by the owner', async () => {
      const rec = await mk({ status: 'draft' });
      expect(rec.status).toBe('draft');
      const res = await server.api('get', `${plural}/${rec.id}`);
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('draft');
    });

    it('publication date and date_utc', async () => {
      const rec = await mk({ date_utc: '2029-06-07 08:09:10' });
      expect(rec.date_utc).toBe('2029-06-07 08:09:10');
    });

    it('image URL → image object', async () => {
      const rec = await mk({ image: 'https://example.com/logo.png' });
      expect(rec.image).toMatchObject({ url: 'https://example.com/logo.png', extension: 'png' });
    });
  });

  describe(`read ${kind}`, () => {
    it('GET by id: 200 with json_ld; by slug the same', async () => {
      const rec = await mk({ phone: '555-0101' });
      const res = await server.api('get', `${plural}/${rec.id}`);
      expect(res.status).toBe(200);
      const got = schema.parse(res.body);
      expect(got.json_ld).toBeTypeOf('object');
      expectKeyOrder(res.body, keys);
      const { json_ld: _j, ...rest } = res.body;
      expect(rest).toEqual(rec);
      const bySlug = await server.api('get', `${plural}/by-slug/${rec.slug}`);
      expect(bySlug.status).toBe(200);
      expect(bySlug.body).toEqual(res.body);
    });

    it('an id that is not a ' + kind + ' (missing, an event, the other kind) → 400 rest_invalid_param', async () => {
      const ev = await mkEvent(server);
      const o = await server.api('post', other).send(kind === 'venue' ? { organizer: uniq('o') } : { venue: uniq('v') });
      for (const id of [999999, ev.id, o.body.id]) {
        expectInvalidParam(await server.api('get', `${plural}/${id}`), 'id');
        expectInvalidParam(await server.api('put', `${plural}/${id}`).send({ phone: '1' }), 'id');
        expectInvalidParam(await server.api('delete', `${plural}/${id}`), 'id');
      }
    });

    it('unknown slug → 400 rest_invalid_param on GET, update and DELETE', async () => {
      expectInvalidParam(await server.api('get', `${plural}/by-slug/no-such-slug-here`), 'slug');
      expectInvalidParam(await server.api('patch', `${plural}/by-slug/no-such-slug-here`).send({ phone: '1' }), 'slug');
      expectInvalidParam(await server.api('delete', `${plural}/by-slug/no-such-slug-here`), 'slug');
    });

    it('non-numeric id → 404 rest_no_route', async () => {
      expectError(await server.api('get', `${plural}/abc`), 404, 'rest_no_route');
    });
  });

  describe(`update ${kind}`, () => {
    it.each(['post', 'put', 'patch'] as const)('%s is partial and answers 200 without json_ld', async (method) => {
      const rec = await mk({ phone: '555 1234', website: 'http://example.org', description: 'Kept' });
      const res = await server.api(method, `${plural}/${rec.id}`).send({ [kind]: `Renamed ${method} ${rec.id}` });
      expect(res.status).toBe(200);
      schema.parse(res.body);
      expect(res.body).not.toHaveProperty('json_ld');
      expect(res.body[kind]).toBe(`Renamed ${method} ${rec.id}`);
      expect([res.body.phone, res.body.website, res.body.description]).toEqual(['555 1234', 'http://example.org', '<p>Kept</p>']);
    });

    it('a field set to "" is cleared and its key disappears', async () => {
      const rec = await mk({ phone: '555 9876', description: 'x' });
      const res = await server.api('put', `${plural}/${rec.id}`).send({ phone: '', description: '' });
      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty('phone');
      expect(res.body).not.toHaveProperty('description');
    });

    it('image "" removes the image (the key disappears)', async () => {
      const rec = await mk({ image: 'https://example.com/remove-me.jpg' });
      expect(rec.image).toBeTypeOf('object');
      const res = await server.api('put', `${plural}/${rec.id}`).send({ image: '' });
      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty('image');
    });

    it('the name cannot be emptied', async () => {
      const rec = await mk();
      expectInvalidParam(await server.api('put', `${plural}/${rec.id}`).send({ [kind]: '' }), kind);
    });

    it('update does not deduplicate: two records may end up with the same name', async () => {
      const a = await mk();
      const b = await mk();
      const res = await server.api('put', `${plural}/${b.id}`).send({ [kind]: a[kind] });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(b.id);
      expect(res.body[kind]).toBe(a[kind]);
    });

    it('by-slug update', async () => {
      const rec = await mk();
      const res = await server.api('put', `${plural}/by-slug/${rec.slug}`).send({ phone: '42' });
      expect([res.status, res.body.id, res.body.phone]).toEqual([200, rec.id, '42']);
    });

    it('a bad field changes nothing', async () => {
      const rec = await mk();
      expectInvalidParam(await server.api('put', `${plural}/${rec.id}`).send({ [kind]: 'Changed?', website: 'nope' }), 'website');
      expect((await server.api('get', `${plural}/${rec.id}`)).body[kind]).toBe(rec[kind]);
    });
  });

  describe(`delete ${kind}`, () => {
    it('moves to the trash: 200 with status trash; again → 410', async () => {
      const rec = await mk();
      const res = await server.api('delete', `${plural}/${rec.id}`);
      expect(res.status).toBe(200);
      schema.parse(res.body);
      expect([res.body.id, res.body.status]).toEqual([rec.id, 'trash']);
      expectError(await server.api('delete', `${plural}/${rec.id}`), 410, `${kind}-is-in-trash`);
    });

    it('by slug', async () => {
      const rec = await mk();
      const res = await server.api('delete', `${plural}/by-slug/${rec.slug}`);
      expect([res.status, res.body.status]).toEqual([200, 'trash']);
    });

    it('force=true on a trashed record deletes it for good; on a live one it only trashes', async () => {
      const rec = await mk();
      expect((await server.api('delete', `${plural}/${rec.id}?force=true`)).body.status).toBe('trash');
      expect((await server.api('delete', `${plural}/${rec.id}?force=true`)).status).toBe(200);
      expectInvalidParam(await server.api('get', `${plural}/${rec.id}`), 'id');
    });

    it('a status update restores it from the trash', async () => {
      const rec = await mk();
      await server.api('delete', `${plural}/${rec.id}`);
      const res = await server.api('put', `${plural}/${rec.id}`).send({ status: 'publish' });
      expect([res.status, res.body.status]).toEqual([200, 'publish']);
    });

    it('trashed records leave the default list', async () => {
      const name = uniq('TrashList');
      const rec = await mk({ [kind]: name });
      await server.api('delete', `${plural}/${rec.id}`);
      const res = await server.api('get', `${plural}?search=${encodeURIComponent(name)}`);
      expect(res.body.total).toBe(0);
      expect(ids(await server.api('get', `${plural}?search=${encodeURIComponent(name)}&status=trash`))).toEqual([rec.id]);
    });
  });

  describe(`list ${plural}`, () => {
    it('envelope keys in order, strict shape, newest publication date first, headers', async () => {
      const word = uniq('Orderword').replace(/\W/g, '');
      const old = await mk({ [kind]: `${word} old`, date: '2020-01-01 10:00:00' });
      const newest = await mk({ [kind]: `${word} newest`, date: '2024-01-01 10:00:00' });
      const mid = await mk({ [kind]: `${word} mid`, date: '2022-01-01 10:00:00' });
      const res = await server.api('get', `${plural}?search=${word}`);
      expect(res.status).toBe(200);
      listSchema.parse(res.body);
      expect(Object.keys(res.body)).toEqual([plural, 'rest_url', 'total', 'total_pages']);
      expect(ids(res)).toEqual([newest.id, mid.id, old.id]);
      for (const r of res.body[plural]) expect(r).not.toHaveProperty('json_ld');
      expect([res.headers['x-cal-total'], res.headers['x-cal-totalpages'], res.headers['x-wp-total'], res.headers['x-wp-totalpages']]).toEqual(['3', '1', '3', '1']);
      expect(res.body.rest_url.startsWith(`${server.server.apiRoot}${plural}/`)).toBe(true);
      expect(new URL(res.body.rest_url).searchParams.get('search')).toBe(word);
    });

    it('paging: next/previous, totals; past the end → 404 ' + `${kind}-archive-page-not-found`, async () => {
      const word = uniq('Pageword').replace(/\W/g, '');
      await Promise.all(Array.from({ length: 5 }, (_, i) => mk({ [kind]: `${word} ${i}` })));
      const p1 = await server.api('get', `${plural}?search=${word}&per_page=2`);
      expect(Object.keys(p1.body)).toEqual([plural, 'rest_url', 'next_rest_url', 'total', 'total_pages']);
      expect([p1.body.total, p1.body.total_pages]).toEqual([5, 3]);
      expect(new URL(p1.body.next_rest_url).searchParams.get('page')).toBe('2');
      const p2 = await server.api('get', `${plural}?search=${word}&per_page=2&page=2`);
      expect(Object.keys(p2.body)).toEqual([plural, 'rest_url', 'next_rest_url', 'previous_rest_url', 'total', 'total_pages']);
      expect(new URL(p2.body.previous_rest_url).searchParams.has('page')).toBe(false);
      const p3 = await server.api('get', `${plural}?search=${word}&per_page=2&page=3`);
      expect(p3.body[plural]).toHaveLength(1);
      expect(new URL(p3.body.previous_rest_url).searchParams.get('page')).toBe('2');
      expect(p3.body).not.toHaveProperty('next_rest_url');
      expectError(await server.api('get', `${plural}?search=${word}&per_page=2&page=4`), 404, `${kind}-archive-page-not-found`);
    });

    it('per_page above 50 is clamped; default is 10', async () => {
      const word = uniq('Clampword').replace(/\W/g, '');
      await Promise.all(Array.from({ length: 52 }, (_, i) => mk({ [kind]: `${word} ${i}` })));
      const res = await server.api('get', `${plural}?search=${word}&per_page=80`);
      expect(res.body[plural]).toHaveLength(50);
      expect([res.body.total, res.body.total_pages]).toEqual([52, 2]);
      const def = await server.api('get', `${plural}?search=${word}`);
      expect(def.body[plural]).toHaveLength(10);
      expect(def.body.total_pages).toBe(6);
    });

    it.each(['page', 'per_page'])('%s not a positive integer → 400', async (p) => {
      for (const v of ['foo', '-1', '0', 'foo%20bar']) expectInvalidParam(await server.api('get', `${plural}?${p}=${v}`), p);
    });

    it('search with no match → empty list with total 0 (correction 13)', async () => {
      const res = await server.api('get', `${plural}?search=zzzznomatchzzzz`);
      expect(res.status).toBe(200);
      expect([res.body[plural], res.body.total, res.body.total_pages]).toEqual([[], 0, 0]);
      expect(Object.keys(res.body)).toEqual([plural, 'rest_url', 'total', 'total_pages']);
    });

    it('search: all words in ONE field, case-insensitive; words split on anything but letters, digits and -', async () => {
      const w = uniq('Qx').replace(/\W/g, '');
      const both = await mk({ [kind]: `${w} Grand Hall`, [phoneField]: '555' });
      const split = await mk({ [kind]: `${w} Grand`, description: 'Hall' });
      const phone = await mk({ [phoneField]: `${w}-777 grand`, description: 'Hall' });
      expect(ids(await server.api('get', `${plural}?search=${encodeURIComponent(`${w.toLowerCase()}, HALL`)}`))).toEqual([both.id]);
      expect(ids(await server.api('get', `${plural}?search=${encodeURIComponent(`${w}-777`)}`))).toEqual([phone.id]);
      expect(ids(await server.api('get', `${plural}?search=${encodeURIComponent(`grand ${w}`)}`)).sort()).toEqual([both.id, split.id, phone.id].sort());
    });

    it('search="" → 400', async () => {
      expectInvalidParam(await server.api('get', `${plural}?search=`), 'search');
    });

    it('event: only the records linked to it; not an existing event → 400', async () => {
      const a = await mk();
      await mk();
      const ev = await mkEvent(server, linkTo(a.id));
      expect(ids(await server.api('get', `${plural}?event=${ev.id}`))).toEqual([a.id]);
      for (const bad of ['999999', 'abc', String(a.id)]) expectInvalidParam(await server.api('get', `${plural}?event=${bad}`), 'event');
    });

    it('has_events: true only linked (to a non-draft event), false only unlinked', async () => {
      const w = uniq('Hasev').replace(/\W/g, '');
      const linked = await mk({ [kind]: `${w} linked` });
      const lonely = await mk({ [kind]: `${w} lonely` });
      const draftOnly = await mk({ [kind]: `${w} draftonly` });
      await mkEvent(server, linkTo(linked.id));
      await mkEvent(server, { ...linkTo(draftOnly.id), status: 'draft' });
      expect(ids(await server.api('get', `${plural}?search=${w}&has_events=true`))).toEqual([linked.id]);
      expect(ids(await server.api('get', `${plural}?search=${w}&has_events=false`)).sort()).toEqual([lonely.id, draftOnly.id].sort());
    });

    it('only_with_upcoming: only records with an event starting now or later, counting every upcoming event (correction 14)', async () => {
      const w = uniq('Upc').replace(/\W/g, '');
      const future = await mk({ [kind]: `${w} future` });
      const past = await mk({ [kind]: `${w} past` });
      await mk({ [kind]: `${w} none` });
      // Many upcoming events before the one linking `future`, so it is not on their first page.
      await Promise.all(Array.from({ length: 12 }, () => mkEvent(server, { start_date: '2030-01-01 10:00', end_date: '2030-01-01 11:00' })));
      await mkEvent(server, { ...linkTo(future.id), start_date: '2035-01-01 10:00', end_date: '2035-01-01 11:00' });
      await mkEvent(server, { ...linkTo(past.id), start_date: '2020-01-01 10:00', end_date: '2020-01-01 11:00' });
      expect(ids(await server.api('get', `${plural}?search=${w}&only_with_upcoming=true`))).toEqual([future.id]);
      expect((await server.api('get', `${plural}?search=${w}&only_with_upcoming=false`)).body.total).toBe(3);
    });

    it('status: the owner sees drafts by default; status filters; unknown → 400', async () => {
      const w = uniq('Stat').replace(/\W/g, '');
      const pub = await mk({ [kind]: `${w} pub` });
      const draft = await mk({ [kind]: `${w} draft`, status: 'draft' });
      expect(ids(await server.api('get', `${plural}?search=${w}`)).sort()).toEqual([pub.id, draft.id].sort());
      expect(ids(await server.api('get', `${plural}?search=${w}&status=draft`))).toEqual([draft.id]);
      expect(ids(await server.api('get', `${plural}?search=${w}&status=publish`))).toEqual([pub.id]);
      expectInvalidParam(await server.api('get', `${plural}?status=bogus`), 'status');
    });
  });

  extra({ t, mk });
}
