/**
 * Venue, organizers, categories and tags in event bodies (reference §5.2, §5.3, §7.1, §7.4b;
 * corrections 7, 9, 10, 11, 12).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedTerm, Event, Organizer, Venue } from '../../../shared/api/records';
import { startTestServer, type TestServer } from '../../helpers/server';
import {
  EMBEDDED_TERM_KEYS, ORGANIZER_KEYS, VENUE_KEYS, expectError, expectInvalidParam, expectKeyOrder, mkEvent, mkOrganizer, mkTerm, mkVenue, uniq,
} from './_support';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const ids = (list: Array<{ id: number }>) => list.map((x) => x.id);

describe('venue', () => {
  it('no venue → [] (not null, not an object)', async () => {
    const ev = await mkEvent(t);
    expect(ev.venue).toEqual([]);
  });

  it('an id (number) links the venue; it is embedded as the venue object without json_ld', async () => {
    const v = await mkVenue(t, { address: '1 Main St', city: 'Springfield' });
    const ev = await mkEvent(t, { venue: v.id });
    const venue = Venue.parse(ev.venue);
    expect(venue.id).toBe(v.id);
    expect(venue.json_ld).toBeUndefined();
    expect(ev.venue).toEqual(v);
    expectKeyOrder(ev.venue, VENUE_KEYS);
  });

  it('a numeric string id links the venue', async () => {
    const v = await mkVenue(t);
    expect((await mkEvent(t, { venue: String(v.id) })).venue.id).toBe(v.id);
  });

  it('an object {id} links the venue', async () => {
    const v = await mkVenue(t);
    expect((await mkEvent(t, { venue: { id: v.id } })).venue.id).toBe(v.id);
  });

  it('venue data creates a venue, which then exists on its own', async () => {
    const name = uniq('Inline Hall');
    const ev = await mkEvent(t, { venue: { venue: name, address: '2 High St', city: 'Lisbon', country: 'Portugal', show_map: true } });
    expect(ev.venue.venue).toBe(name);
    expect(ev.venue.city).toBe('Lisbon');
    const read = await t.api('get', `venues/${ev.venue.id}`);
    expect(read.status).toBe(200);
    expect(read.body.venue).toBe(name);
  });

  it('identical venue data reuses the existing venue', async () => {
    const name = uniq('Reuse Hall');
    const a = await mkEvent(t, { venue: { venue: name, city: 'Porto' } });
    const b = await mkEvent(t, { venue: { venue: name.toUpperCase(), city: 'porto' } });
    expect(b.venue.id).toBe(a.venue.id);
  });

  it.each([['""', ''], ['0', 0], ['[]', []], ['{} of empty values', { venue: '', address: '' }]])('%s → no venue', async (_n, value) => {
    const ev = await mkEvent(t, { venue: value });
    expect(ev.venue).toEqual([]);
  });

  it.each([['0', 0], ['""', ''], ['[]', []]])('update with venue %s unlinks it', async (_n, value) => {
    const v = await mkVenue(t);
    const ev = await mkEvent(t, { venue: v.id });
    const res = await t.api('put', `events/${ev.id}`).send({ venue: value });
    expect(res.status).toBe(200);
    expect(res.body.venue).toEqual([]);
    expect((await t.api('get', `events/${ev.id}`)).body.venue).toEqual([]);
  });

  it('an update without venue keeps it (correction 11)', async () => {
    const v = await mkVenue(t);
    const ev = await mkEvent(t, { venue: v.id });
    const res = await t.api('put', `events/${ev.id}`).send({ title: 'still at the venue' });
    expect(res.body.venue.id).toBe(v.id);
  });

  it('an id that does not exist → 400 rest_invalid_param', async () => {
    expectInvalidParam(await t.api('post', 'events').send({ title: 'x', start_date: '2031-01-01', end_date: '2031-01-01', venue: 999999 }), 'venue');
  });

  it('an id that is an organizer or an event → 400 rest_invalid_param', async () => {
    const o = await mkOrganizer(t);
    const e = await mkEvent(t);
    for (const venue of [o.id, e.id, String(o.id)]) {
      expectInvalidParam(await t.api('post', 'events').send({ title: 'x', start_date: '2031-01-01', end_date: '2031-01-01', venue }), 'venue');
    }
  });

  it('{id} that is not a venue → 400 rest_invalid_param (correction 7)', async () => {
    const o = await mkOrganizer(t);
    expectInvalidParam(await t.api('post', 'events').send({ title: 'x', start_date: '2031-01-01', end_date: '2031-01-01', venue: { id: o.id } }), 'venue');
  });

  it('venue data that is not valid (bad website, no name) → 400 rest_invalid_param', async () => {
    for (const venue of [{ venue: 'Bad Site Hall', website: 'not a url' }, { address: '1 Nameless St' }]) {
      expectInvalidParam(await t.api('post', 'events').send({ title: 'x', start_date: '2031-01-01', end_date: '2031-01-01', venue }), 'venue');
    }
  });

  it('trashing the venue unlinks it from its events', async () => {
    const v = await mkVenue(t);
    const ev = await mkEvent(t, { venue: v.id });
    expect((await t.api('delete', `venues/${v.id}`)).status).toBe(200);
    expect((await t.api('get', `events/${ev.id}`)).body.venue).toEqual([]);
  });
});

describe('organizer', () => {
  it('is always a list: [] when none', async () => {
    expect((await mkEvent(t)).organizer).toEqual([]);
  });

  it('a single id → a list of one organizer object without json_ld', async () => {
    const o = await mkOrganizer(t, { email: 'info@arts.example.org', phone: '555-0101' });
    const ev = await mkEvent(t, { organizer: o.id });
    expect(ev.organizer).toHaveLength(1);
    const got = Organizer.parse(ev.organizer[0]);
    expect(got.json_ld).toBeUndefined();
    expect(ev.organizer[0]).toEqual(o);
    expectKeyOrder(ev.organizer[0], ORGANIZER_KEYS);
  });

  it('an array of ids keeps the order given', async () => {
    const a = await mkOrganizer(t);
    const b = await mkOrganizer(t);
    const c = await mkOrganizer(t);
    expect(ids((await mkEvent(t, { organizer: [c.id, a.id, b.id] })).organizer)).toEqual([c.id, a.id, b.id]);
  });

  it('a comma-separated string of ids links them all, in order (correction 10)', async () => {
    const a = await mkOrganizer(t);
    const b = await mkOrganizer(t);
    expect(ids((await mkEvent(t, { organizer: `${b.id},${a.id}` })).organizer)).toEqual([b.id, a.id]);
    expect(ids((await mkEvent(t, { organizer: `${a.id}, ${b.id}` })).organizer)).toEqual([a.id, b.id]);
  });

  it('an object {id}, organizer data, and a mix of both keep their order', async () => {
    const a = await mkOrganizer(t);
    expect(ids((await mkEvent(t, { organizer: { id: a.id } })).organizer)).toEqual([a.id]);
    const name = uniq('Inline Org');
    const ev = await mkEvent(t, { organizer: [{ organizer: name, email: 'x@example.org' }, { id: a.id }] });
    expect(ev.organizer.map((o: { organizer: string }) => o.organizer)).toEqual([name, a.organizer]);
    expect((await t.api('get', `organizers/${ev.organizer[0].id}`)).body.organizer).toBe(name);
  });

  it('identical organizer data reuses the existing organizer', async () => {
    const name = uniq('Reuse Org');
    const a = await mkEvent(t, { organizer: { organizer: name, phone: '123' } });
    const b = await mkEvent(t, { organizer: [{ organizer: name, phone: '123' }] });
    expect(b.organizer[0].id).toBe(a.organizer[0].id);
  });

  it.each([['[]', []], ['""', '']])('update with organizer %s removes them all', async (_n, value) => {
    const a = await mkOrganizer(t);
    const ev = await mkEvent(t, { organizer: [a.id] });
    const res = await t.api('put', `events/${ev.id}`).send({ organizer: value });
    expect(res.body.organizer).toEqual([]);
  });

  it('an update without organizer keeps them (correction 11)', async () => {
    const a = await mkOrganizer(t);
    const b = await mkOrganizer(t);
    const ev = await mkEvent(t, { organizer: [a.id, b.id] });
    const res = await t.api('put', `events/${ev.id}`).send({ title: 'keeps organizers' });
    expect(ids(res.body.organizer)).toEqual([a.id, b.id]);
  });

  it('an update replaces the list', async () => {
    const a = await mkOrganizer(t);
    const b = await mkOrganizer(t);
    const ev = await mkEvent(t, { organizer: [a.id] });
    expect(ids((await t.api('put', `events/${ev.id}`).send({ organizer: [b.id, a.id] })).body.organizer)).toEqual([b.id, a.id]);
  });

  it('an id that does not exist or is a venue → 400 rest_invalid_param', async () => {
    const v = await mkVenue(t);
    for (const organizer of [999999, [v.id], `${v.id}`]) {
      expectInvalidParam(await t.api('post', 'events').send({ title: 'x', start_date: '2031-01-01', end_date: '2031-01-01', organizer }), 'organizer');
    }
  });

  it('{id} that is not an organizer → 400 invalid-linked-post-id (reference §3)', async () => {
    const v = await mkVenue(t);
    const res = await t.api('post', 'events').send({ title: 'x', start_date: '2031-01-01', end_date: '2031-01-01', organizer: [{ id: v.id }] });
    expectError(res, 400, 'invalid-linked-post-id');
  });

  it('trashing one organizer unlinks only that one (correction 12)', async () => {
    const a = await mkOrganizer(t);
    const b = await mkOrganizer(t);
    const ev = await mkEvent(t, { organizer: [a.id, b.id] });
    expect((await t.api('delete', `organizers/${a.id}`)).status).toBe(200);
    expect(ids((await t.api('get', `events/${ev.id}`)).body.organizer)).toEqual([b.id]);
  });
});

describe('categories and tags', () => {
  it('[] when none', async () => {
    const ev = await mkEvent(t);
    expect([ev.categories, ev.tags]).toEqual([[], []]);
  });

  it('ids link existing terms, embedded in the event form (§7.4b) in the order given', async () => {
    const c1 = await mkTerm(t, 'categories', { description: 'first' });
    const c2 = await mkTerm(t, 'categories');
    const tg = await mkTerm(t, 'tags');
    const ev = await mkEvent(t, { categories: [c1.id, c2.id], tags: [tg.id] });
    expect(ids(ev.categories)).toEqual([c1.id, c2.id]);
    expect(ids(ev.tags)).toEqual([tg.id]);
    for (const term of [...ev.categories, ...ev.tags]) {
      EmbeddedTerm.parse(term);
      expectKeyOrder(term, EMBEDDED_TERM_KEYS, EMBEDDED_TERM_KEYS);
      expect(term.filter).toBe('raw');
    }
    expect(ev.categories[0]).toMatchObject({ id: c1.id, name: c1.name, slug: c1.slug, taxonomy: c1.taxonomy, description: 'first', parent: 0 });
    expect(ev.categories[0].urls).toEqual({ self: `${t.server.apiRoot}categories/${c1.id}`, collection: `${t.server.apiRoot}categories` });
    expect(ev.tags[0].taxonomy).toBe('post_tag');
    expect(ev.categories[0].taxonomy).toMatch(/_events_cat$/);
  });

  it('embedded term count = published events using it', async () => {
    const c = await mkTerm(t, 'categories');
    await mkEvent(t, { categories: [c.id] });
    await mkEvent(t, { categories: [c.id], status: 'draft' });
    const ev = await mkEvent(t, { categories: [c.id] });
    expect(ev.categories[0].count).toBe(2);
  });

  it('an embedded child category carries parent and urls.up', async () => {
    const parent = await mkTerm(t, 'categories');
    const child = await mkTerm(t, 'categories', { parent: parent.id });
    const ev = await mkEvent(t, { categories: [child.id] });
    expect(ev.categories[0].parent).toBe(parent.id);
    expect(ev.categories[0].urls.up).toBe(`${t.server.apiRoot}categories/${parent.id}`);
  });

  it('a CSV of ids', async () => {
    const c1 = await mkTerm(t, 'categories');
    const c2 = await mkTerm(t, 'categories');
    expect(ids((await mkEvent(t, { categories: `${c1.id},${c2.id}` })).categories)).toEqual([c1.id, c2.id]);
  });

  it('unknown names create new terms that then exist in the collection', async () => {
    const name = uniq('Brand New Cat');
    const ev = await mkEvent(t, { categories: [name] });
    expect(ev.categories).toHaveLength(1);
    expect(ev.categories[0].name).toBe(name);
    const read = await t.api('get', `categories/${ev.categories[0].id}`);
    expect(read.status).toBe(200);
    expect(read.body.name).toBe(name);
  });

  it('an existing name links the existing term instead of creating one', async () => {
    const c = await mkTerm(t, 'categories');
    const ev = await mkEvent(t, { categories: [c.name] });
    expect(ids(ev.categories)).toEqual([c.id]);
  });

  it('tags given by slug resolve to the existing tag (correction 9)', async () => {
    const tag = await mkTerm(t, 'tags', { name: uniq('Outdoor Fun'), slug: uniq('outdoor-fun').replace(/\s/g, '-') });
    const before = (await t.api('get', 'tags?hide_empty=false&per_page=50')).body.total;
    const ev = await mkEvent(t, { tags: [tag.slug] });
    expect(ids(ev.tags)).toEqual([tag.id]);
    expect((await t.api('get', 'tags?hide_empty=false&per_page=50')).body.total).toBe(before);
  });

  it('categories by slug resolve to the existing category', async () => {
    const c = await mkTerm(t, 'categories', { slug: 'music-by-slug' });
    expect(ids((await mkEvent(t, { categories: 'music-by-slug' })).categories)).toEqual([c.id]);
  });

  it('a mix of ids and names in one CSV', async () => {
    const c = await mkTerm(t, 'categories');
    const name = uniq('Mixed New');
    const ev = await mkEvent(t, { categories: `${c.id},${name}` });
    expect(ev.categories.map((x: { name: string }) => x.name)).toEqual([c.name, name]);
  });

  it('an id that does not exist (or is a tag, for categories) → 400', async () => {
    const tag = await mkTerm(t, 'tags');
    const before = t.snapshot();
    expectInvalidParam(await t.api('post', 'events').send({ title: 'x', start_date: '2031-01-01', end_date: '2031-01-01', categories: [999999] }), 'categories');
    expectInvalidParam(await t.api('post', 'events').send({ title: 'x', start_date: '2031-01-01', end_date: '2031-01-01', tags: [999999] }), 'tags');
    expectInvalidParam(await t.api('post', 'events').send({ title: 'x', start_date: '2031-01-01', end_date: '2031-01-01', categories: [tag.id] }), 'categories');
    expect(t.snapshot()).toEqual(before);
  });

  it.each([['""', ''], ['[]', []]])('%s removes all terms of that taxonomy only', async (_n, value) => {
    const c = await mkTerm(t, 'categories');
    const tg = await mkTerm(t, 'tags');
    const ev = await mkEvent(t, { categories: [c.id], tags: [tg.id] });
    const res = await t.api('put', `events/${ev.id}`).send({ categories: value });
    expect(res.body.categories).toEqual([]);
    expect(ids(res.body.tags)).toEqual([tg.id]);
  });

  it('left out of an update, terms stay', async () => {
    const c = await mkTerm(t, 'categories');
    const ev = await mkEvent(t, { categories: [c.id] });
    expect(ids((await t.api('put', `events/${ev.id}`).send({ title: 'same terms' })).body.categories)).toEqual([c.id]);
  });

  it('deleting a category removes it from its events', async () => {
    const c = await mkTerm(t, 'categories');
    const c2 = await mkTerm(t, 'categories');
    const ev = await mkEvent(t, { categories: [c.id, c2.id] });
    expect((await t.api('delete', `categories/${c.id}`)).status).toBe(200);
    expect(ids((await t.api('get', `events/${ev.id}`)).body.categories)).toEqual([c2.id]);
  });

  it('the full event with every link still validates strictly', async () => {
    const v = await mkVenue(t);
    const o = await mkOrganizer(t);
    const c = await mkTerm(t, 'categories');
    const tg = await mkTerm(t, 'tags');
    const ev = await mkEvent(t, { venue: v.id, organizer: o.id, categories: c.id, tags: tg.name });
    Event.parse(ev);
    Event.parse((await t.api('get', `events/${ev.id}`)).body);
  });
});
