/**
 * The error catalogue as a token holder meets it (reference §1, §3, §3.1): every code and status
 * that applies, the error envelope, and transport errors (bad JSON, too large, wrong type, no
 * route). Never HTML, never a stack trace, never a 500 for bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { expectError, expectInvalidParam, expectJson, expectMissing, mkEvent, mkOrganizer, mkTerm, mkVenue } from './_support';

let t: TestServer;
const auth = () => ({ Authorization: `Bearer ${t.server.token}` });
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

describe('domain codes of reference §3 (token holder)', () => {
  it('rest-event-not-found 404 (GET, update, DELETE; message names the id)', async () => {
    for (const m of ['get', 'put', 'post', 'patch', 'delete'] as const) {
      const res = await t.api(m, 'events/424242').send(m === 'get' || m === 'delete' ? undefined : { title: 'x' });
      expectError(res, 404, 'rest-event-not-found');
      expect(res.body.message).toContain('424242');
    }
  });

  it('rest-invalid-event-id 400 for the id of a venue', async () => {
    const v = await mkVenue(t);
    for (const m of ['get', 'patch', 'delete'] as const) expectError(await t.api(m, `events/${v.id}`).send(m === 'patch' ? { title: 'x' } : undefined), 400, 'rest-invalid-event-id');
  });

  it('event-no-longer-available 403 and event-is-in-trash 410', async () => {
    const ev = await mkEvent(t);
    await t.api('delete', `events/${ev.id}`);
    expectError(await t.api('get', `events/${ev.id}`), 403, 'event-no-longer-available');
    expectError(await t.api('delete', `events/${ev.id}`), 410, 'event-is-in-trash');
    expectError(await t.api('delete', `events/by-slug/${ev.slug}`), 410, 'event-is-in-trash');
  });

  it('venue-is-in-trash / organizer-is-in-trash 410', async () => {
    const v = await mkVenue(t);
    const o = await mkOrganizer(t);
    await t.api('delete', `venues/${v.id}`);
    await t.api('delete', `organizers/${o.id}`);
    expectError(await t.api('delete', `venues/${v.id}`), 410, 'venue-is-in-trash');
    expectError(await t.api('delete', `organizers/${o.id}`), 410, 'organizer-is-in-trash');
  });

  it('*-archive-page-not-found 404 for events, venues, organizers; terms give 200', async () => {
    expectError(await t.api('get', 'events?page=50'), 404, 'event-archive-page-not-found');
    expectError(await t.api('get', 'venues?page=50'), 404, 'venue-archive-page-not-found');
    expectError(await t.api('get', 'organizers?page=50'), 404, 'organizer-archive-page-not-found');
    expect((await t.api('get', 'categories?page=50')).status).toBe(200);
    expect((await t.api('get', 'tags?page=50')).status).toBe(200);
  });

  it('term_exists 400 with data.term_id', async () => {
    const c = await mkTerm(t, 'categories');
    const res = await t.api('post', 'categories').send({ name: c.name });
    expectError(res, 400, 'term_exists');
    expect(res.body.data).toEqual({ status: 400, term_id: c.id });
  });

  it('invalid-linked-post-id 400: organizer object whose id is not an organizer', async () => {
    const v = await mkVenue(t);
    expectError(await t.api('post', 'events').send({ title: 'x', start_date: '2031-01-01', end_date: '2031-01-01', organizer: { id: v.id } }), 400, 'invalid-linked-post-id');
  });

  it('rest_missing_callback_param: params is an array of names', async () => {
    const res = await t.api('post', 'venues').send({});
    expectMissing(res, ['venue']);
    expect(res.body.data).toEqual({ status: 400, params: ['venue'] });
  });

  it('rest_invalid_param: params is an object name → message; details [] when none (correction 2)', async () => {
    const res = await t.api('get', 'events?per_page=abc');
    expectInvalidParam(res, 'per_page');
    expect(Object.keys(res.body.data).sort()).toEqual(['details', 'params', 'status']);
    expect(res.body.data.details).toEqual([]);
    expect(res.body.message).toBe('Invalid parameter(s): per_page');
  });

  it('rest_invalid_param with details: ticketed=true names event-tickets-not-active (correction 3)', async () => {
    const res = await t.api('get', 'events?ticketed=1');
    expectInvalidParam(res, 'ticketed');
    expect(res.body.data.details.ticketed).toMatchObject({ code: 'event-tickets-not-active' });
  });
});

describe('no route (reference §0, §1)', () => {
  it.each([
    ['get', 'nope'],
    ['get', 'events/foo'],
    ['get', 'events/12abc'],
    ['get', 'events/-1'],
    ['get', 'events/by-slug/'],
    ['get', 'events/1/extra'],
    ['get', 'venues/foo'],
    ['get', 'organizers/1.5'],
    ['get', 'categories/foo%20bar'],
    ['get', 'tags/abc'],
    ['get', 'categories/by-slug/music'],
    ['delete', 'events'],
    ['put', 'events'],
    ['patch', 'venues'],
    ['delete', 'organizers'],
    ['post', 'doc'],
    ['delete', ''],
    ['put', 'tags'],
  ] as const)('%s %s → 404 rest_no_route', async (m, path) => {
    const res = await t.api(m, path);
    expectError(res, 404, 'rest_no_route');
    expect(res.body.message).toBe('No route was found matching the URL and request method.');
  });

  it('an unknown path outside the namespace is JSON rest_no_route too', async () => {
    const res = await request(t.server.url).get('/definitely/not/here').set(auth());
    expectError(res, 404, 'rest_no_route');
    expectError(await request(t.server.url).get('/wp-json/other/v2/things').set(auth()), 404, 'rest_no_route');
  });
});

describe('transport errors', () => {
  it('malformed JSON → 400 rest_invalid_json, nothing stored', async () => {
    const before = t.snapshot();
    const res = await t.api('post', 'events').set('Content-Type', 'application/json').send('{"title": "x", "start_date": ');
    expectError(res, 400, 'rest_invalid_json');
    const res2 = await t.api('put', 'venues/1').set('Content-Type', 'application/json').send("{'single': 'quotes'}");
    expectError(res2, 400, 'rest_invalid_json');
    expect(t.snapshot()).toEqual(before);
  });

  it('a JSON body that is not an object → 400 rest_invalid_json', async () => {
    for (const body of ['[1,2]', '"title"', '42']) {
      expectError(await t.api('post', 'categories').set('Content-Type', 'application/json').send(body), 400, 'rest_invalid_json');
    }
  });

  it('a body over 1 MB → 413 (JSON and form)', async () => {
    const before = t.snapshot();
    const big = 'x'.repeat(1_100_000);
    const res = await t.api('post', 'events').send({ title: 'Big', start_date: '2031-01-01', end_date: '2031-01-01', description: big });
    expect(res.status).toBe(413);
    expectJson(res);
    expect(res.body.data.status).toBe(413);
    const form = await t.api('post', 'organizers').type('form').send(`organizer=Big&description=${big}`);
    expect(form.status).toBe(413);
    expectJson(form);
    expect(t.snapshot()).toEqual(before);
  });

  it('a large body under 1 MB (150 KB description) is accepted', async () => {
    const res = await t.api('post', 'events').send({ title: 'Almost big', start_date: '2031-01-01', end_date: '2031-01-01', description: 'y'.repeat(150_000) });
    expect(res.status).toBe(201);
  });

  it.each(['text/plain', 'application/xml', 'text/html'])('Content-Type %s → 415', async (type) => {
    const before = t.snapshot();
    const res = await t.api('post', 'events').set('Content-Type', type).send('title=x&start_date=2031-01-01&end_date=2031-01-01');
    expect(res.status).toBe(415);
    expectJson(res);
    expect(res.body.data.status).toBe(415);
    expect(t.snapshot()).toEqual(before);
  });

  it('multipart form data → 415', async () => {
    const res = await t.api('post', 'tags').field('name', 'multipart tag');
    expect(res.status).toBe(415);
    expectJson(res);
  });

  it('application/json with a charset is read', async () => {
    const res = await t.api('post', 'tags').set('Content-Type', 'application/json; charset=utf-8').send(JSON.stringify({ name: 'charset tag' }));
    expect(res.status).toBe(201);
  });
});

describe('never a 500 or a stack trace for bad input', () => {
  it('a malformed percent-encoded slug → 4xx', async () => {
    for (const path of ['events/by-slug/%E0%A4%A', 'venues/by-slug/%ZZ', 'organizers/by-slug/%']) {
      const res = await t.api('get', path);
      expect(res.status, `${path}: ${res.text}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${path}: ${res.text}`).toBeLessThan(500);
      expectJson(res);
    }
  });

  it('timestamps outside years 0-9999 → 400, not 500', async () => {
    for (const ts of [-99999999999, 253402300800]) {
      const res = await t.api('post', 'events').send({ title: 'x', start_date: ts, end_date: ts });
      expect(res.status, `${ts}: ${res.text}`).toBe(400);
      expectInvalidParam(res, 'start_date');
      const list = await t.api('get', `events?start_date=${ts}`);
      expect(list.status, `${ts}: ${list.text}`).toBe(400);
    }
  });

  it('errors are JSON with the envelope, for every kind of failure', async () => {
    const responses = [
      await t.api('get', 'events/999999'),
      await t.api('get', 'nope'),
      await t.api('post', 'events').set('Content-Type', 'application/json').send('{'),
      await t.api('get', 'events?page=0'),
      await request(t.server.url).get('/cal/events/v1/events'),
    ];
    for (const res of responses) {
      expectJson(res);
      expect(Object.keys(res.body)).toEqual(['code', 'message', 'data']);
    }
  });
});
