/**
 * Conditional requests on single records (issue 26 item 5, an Almanac extension): an `ETag` that
 * changes whenever the record as served changes, `If-None-Match` → 304, `If-Match` → 412 when the
 * record changed since the client read it, so two Almanacs syncing have no race window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { expectError, uniq } from './_support';

let t: TestServer;
const NS = '/cal/events/v1';
const at = (path: string) => request(t.server.url).get(path).set('Authorization', `Bearer ${t.server.token}`);

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const mkEvent = async (extra: Record<string, unknown> = {}) => {
  const res = await t.api('post', 'events').send({ title: uniq('Cond'), start_date: '2031-05-01 10:00', end_date: '2031-05-01 11:00', ...extra });
  expect(res.status).toBe(201);
  return res;
};

describe('every API answer says conditional writes are honoured', () => {
  it('X-Cal-Conditional-Writes: 1 on lists, records and errors', async () => {
    expect((await t.api('get', 'events')).headers['x-cal-conditional-writes']).toBe('1');
    expect((await t.api('get', 'events/999999')).headers['x-cal-conditional-writes']).toBe('1');
    expect((await request(t.server.url).get('/wp-json/')).headers['x-cal-conditional-writes']).toBe('1');
  });
});

describe('events', () => {
  it('a read answers an ETag, the same through every root and language, and If-None-Match → 304', async () => {
    const made = await mkEvent();
    const id = made.body.id;
    const read = await t.api('get', `events/${id}`);
    const tag = read.headers.etag;
    expect(tag).toMatch(/^"[\w-]+"$/);
    // The create answered the same tag: a client can write next without reading first.
    expect(made.headers.etag).toBe(tag);
    for (const path of [`/wp-json${NS}/events/${id}`, `/pt-br${NS}/events/${id}`, `/es/wp-json${NS}/events/${id}`, `/?rest_route=${NS}/events/${id}`, `${NS}/events/by-slug/${read.body.slug}`]) {
      expect((await at(path)).headers.etag, path).toBe(tag);
    }
    const again = await t.api('get', `events/${id}`).set('If-None-Match', tag);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect((await t.api('get', `events/${id}`).set('If-None-Match', '"other"')).status).toBe(200);
  });

  it('If-Match with the current tag writes and answers the new tag; with an old one, 412 and nothing changes', async () => {
    const { body } = await mkEvent();
    const first = (await t.api('get', `events/${body.id}`)).headers.etag;
    const ok = await t.api('put', `events/${body.id}`).set('If-Match', first).send({ title: 'Changed once' });
    expect(ok.status).toBe(200);
    const second = ok.headers.etag;
    expect(second).not.toBe(first);
    expect((await t.api('get', `events/${body.id}`)).headers.etag).toBe(second);

    const before = t.snapshot();
    for (const m of ['put', 'post', 'patch'] as const) {
      const stale = await t.api(m, `events/${body.id}`).set('If-Match', first).send({ title: 'Lost update' });
      expectError(stale, 412, 'rest_precondition_failed');
    }
    expectError(await t.api('delete', `events/${body.id}`).set('If-Match', first), 412, 'rest_precondition_failed');
    expect(t.snapshot()).toEqual(before);
    expect((await t.api('get', `events/${body.id}`)).body.title).toBe('Changed once');

    // In the reader's language, like every error.
    const pt = await request(t.server.url).put(`/pt-br${NS}/events/${body.id}`).set('Authorization', `Bearer ${t.server.token}`).set('If-Match', first).send({ title: 'x' });
    expect(pt.body.message).toMatch(/^O registro com ID \d+ mudou/);

    expect((await t.api('delete', `events/${body.id}`).set('If-Match', `"x", ${second}`)).status).toBe(200);
  });

  it('If-Match: * needs only the record; a weak tag never matches; a missing record is 404 as without it', async () => {
    const { body } = await mkEvent();
    expect((await t.api('patch', `events/${body.id}`).set('If-Match', '*').send({ title: 'Star' })).status).toBe(200);
    const tag = (await t.api('get', `events/${body.id}`)).headers.etag;
    expectError(await t.api('patch', `events/${body.id}`).set('If-Match', `W/${tag}`).send({ title: 'Weak' }), 412, 'rest_precondition_failed');
    expectError(await t.api('patch', 'events/99999999').set('If-Match', tag).send({ title: 'x' }), 404, 'rest-event-not-found');
  });

  it('the tag changes when a linked venue changes, though the event itself did not', async () => {
    const venue = await t.api('post', 'venues').send({ venue: uniq('Hall') });
    const { body } = await mkEvent({ venue: venue.body.id });
    const before = (await t.api('get', `events/${body.id}`)).headers.etag;
    expect((await t.api('post', `venues/${venue.body.id}`).send({ city: 'Lisbon' })).status).toBe(200);
    const after = (await t.api('get', `events/${body.id}`)).headers.etag;
    expect(after).not.toBe(before);
    expectError(await t.api('put', `events/${body.id}`).set('If-Match', before).send({ title: 'x' }), 412, 'rest_precondition_failed');
  });

  it('lists carry no ETag', async () => {
    expect((await t.api('get', 'events')).headers.etag).toBeUndefined();
  });
});

describe('venues, organizers, categories and tags', () => {
  const kinds = [
    { plural: 'venues', body: () => ({ venue: uniq('V') }), change: { city: 'Porto' }, slug: true },
    { plural: 'organizers', body: () => ({ organizer: uniq('O') }), change: { phone: '555' }, slug: true },
    { plural: 'categories', body: () => ({ name: uniq('C') }), change: { description: 'new' }, slug: false },
    { plural: 'tags', body: () => ({ name: uniq('T') }), change: { description: 'new' }, slug: false },
  ];
  it.each(kinds)('$plural: ETag, 304, 412 on a stale write and delete', async ({ plural, body, change, slug }) => {
    const made = await t.api('post', plural).send(body());
    expect(made.status).toBe(201);
    const id = made.body.id;
    const read = await t.api('get', `${plural}/${id}`);
    const tag = read.headers.etag;
    expect(tag).toMatch(/^"[\w-]+"$/);
    if (slug) expect((await t.api('get', `${plural}/by-slug/${read.body.slug}`)).headers.etag).toBe(tag);
    expect((await t.api('get', `${plural}/${id}`).set('If-None-Match', tag)).status).toBe(304);
    const changed = await t.api('post', `${plural}/${id}`).set('If-Match', tag).send(change);
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(tag);
    const before = t.snapshot();
    expectError(await t.api('put', `${plural}/${id}`).set('If-Match', tag).send(change), 412, 'rest_precondition_failed');
    expectError(await t.api('delete', `${plural}/${id}`).set('If-Match', tag), 412, 'rest_precondition_failed');
    expect(t.snapshot()).toEqual(before);
    expect((await t.api('get', `${plural}/${id}`)).status).toBe(200);
  });
});

describe('/doc documents the extensions', () => {
  it('ETag, If-Match/412 and If-None-Match/304 on single records; HTTP Basic; the site routes, rest_route and headers', async () => {
    const doc = (await t.api('get', 'doc')).body;
    const put = doc.paths['/events/{id}'].put;
    expect(put.parameters).toContainEqual(expect.objectContaining({ name: 'If-Match', in: 'header' }));
    expect(put.responses['412']).toBeDefined();
    expect(put.responses['200'].headers.ETag).toBeDefined();
    const get = doc.paths['/venues/by-slug/{slug}'].get;
    expect(get.parameters).toContainEqual(expect.objectContaining({ name: 'If-None-Match', in: 'header' }));
    expect(get.responses['304']).toBeDefined();
    expect(doc.paths['/events'].get.responses['200'].headers).toBeUndefined();
    expect(doc.components.securitySchemes.applicationPassword).toMatchObject({ type: 'http', scheme: 'basic' });
    const ext = doc['x-almanac-site'];
    expect(Object.keys(ext.paths)).toEqual(['/wp-json/', '/wp-json/wp/v2/users/me']);
    expect(ext.rest_route).toMatch(/rest_route=/);
    expect(Object.keys(ext.headers)).toEqual(['Link', 'X-Cal-Conditional-Writes']);
  });

  it('each documented site path answers with a status it documents', async () => {
    const doc = (await t.api('get', 'doc')).body;
    for (const [path, item] of Object.entries<any>(doc['x-almanac-site'].paths)) {
      const listed = Object.keys(item.get.responses);
      for (const res of [await request(t.server.url).get(path), await at(path)]) expect(listed, path).toContain(String(res.status));
    }
  });
});

describe('an occurrence shown without a row (a far month of a series)', () => {
  it('answers an ETag, and If-Match refuses a write once the series changed since it was read', async () => {
    const series = await mkEvent({ start_date: '2031-01-06 09:00', end_date: '2031-01-06 10:00', timezone: 'UTC', recurrence: 'FREQ=WEEKLY' });
    const far = await t.api('get', 'events').query({ start_date: '2091-03-01 00:00:00', end_date: '2091-03-31 23:59:59', search: series.body.title, per_page: 50 });
    const occurrence = far.body.events[0];
    expect(occurrence.id).toBeGreaterThanOrEqual(2 ** 52);
    const read = await t.api('get', `events/${occurrence.id}`);
    expect(read.status).toBe(200);
    const tag = read.headers.etag;
    expect(tag).toMatch(/^"/);
    // Another client retitles the whole series: the occurrence reads differently now.
    expect((await t.api('post', `events/${series.body.id}`).send({ title: uniq('Retitled') })).status).toBe(200);
    const stale = await t.api('post', `events/${occurrence.id}`).set('If-Match', tag).send({ description: 'mine' });
    expectError(stale, 412, 'rest_precondition_failed');
    // Read again, the write goes through.
    const again = await t.api('get', `events/${occurrence.id}`);
    expect((await t.api('post', `events/${occurrence.id}`).set('If-Match', again.headers.etag).send({ description: 'mine' })).status).toBe(200);
  });
});
