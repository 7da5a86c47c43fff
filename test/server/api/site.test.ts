/**
 * Almanac is a site too (issue 26 item 2): a client of WordPress finds the API from the site's
 * address (`Link`), reads the `/wp-json/` index, addresses routes as `?rest_route=`, signs in with
 * HTTP Basic (the token as the application password) and proves it with `wp/v2/users/me`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { expectError, expectJson, uniq } from './_support';

let t: TestServer;
let basic: string;
const NS = '/cal/events/v1';
const site = () => request(t.server.url);

beforeAll(async () => {
  t = await startTestServer({ ownerName: 'Ana Owner' });
  basic = `Basic ${Buffer.from(`whoever:${t.server.token}`).toString('base64')}`;
  for (let i = 0; i < 3; i++) {
    const res = await t.api('post', 'events').send({ title: uniq('Site event'), start_date: `2031-06-0${i + 1} 10:00`, end_date: `2031-06-0${i + 1} 11:00` });
    expect(res.status).toBe(201);
  }
});
afterAll(async () => {
  await t?.close();
});

describe('discovery: Link header and the /wp-json/ index', () => {
  it('GET / sends the Link to the index, signed in or not', async () => {
    for (const res of [await site().get('/'), await site().get('/').set('Authorization', basic)]) {
      expect(res.headers.link).toBe(`<${t.server.url}/wp-json/>; rel="https://api.w.org/"`);
    }
  });

  it('every API answer sends it, errors too, under its language root', async () => {
    expect((await t.api('get', 'events')).headers.link).toBe(`<${t.server.url}/wp-json/>; rel="https://api.w.org/"`);
    expect((await t.anon('get', 'events')).headers.link).toBe(`<${t.server.url}/wp-json/>; rel="https://api.w.org/"`);
    const pt = await site().get(`/pt-br${NS}/events`).set('Authorization', basic);
    expect(pt.headers.link).toBe(`<${t.server.url}/pt-br/wp-json/>; rel="https://api.w.org/"`);
  });

  it('the index is WordPress-shaped, answered without credentials, its routes those of the route table', async () => {
    const res = await site().get('/wp-json/');
    expect(res.status).toBe(200);
    expectJson(res);
    const idx = res.body;
    expect(idx).toMatchObject({ name: 'Almanac', url: t.server.url, home: t.server.url, almanac: { conditional_writes: true, repeats: true } });
    expect(idx.namespaces).toEqual(expect.arrayContaining(['cal/events/v1', 'wp/v2']));
    // No "authorize application" page: none is advertised.
    expect(idx.authentication).toEqual({});
    // The namespace's own index lists the same routes with the same methods and endpoints.
    const ns = (await t.api('get', '')).body;
    for (const [route, r] of Object.entries<any>(ns.routes)) {
      expect(idx.routes[route], route).toBeDefined();
      expect(idx.routes[route].methods, route).toEqual(r.methods);
      expect(idx.routes[route].endpoints, route).toEqual(r.endpoints);
    }
    expect(idx.routes[`${NS}/events`]).toMatchObject({ namespace: 'cal/events/v1', methods: ['GET', 'POST'], _links: { self: [{ href: `${t.server.url}/wp-json${NS}/events` }] } });
    expect(idx.routes['/wp/v2/users/me']).toMatchObject({ namespace: 'wp/v2', methods: ['GET'] });
    // A client finds the events namespace by its shape: these five collections under it.
    for (const c of ['events', 'venues', 'organizers', 'categories', 'tags']) expect(Object.keys(idx.routes)).toContain(`${NS}/${c}`);
  });

  it('the index tells a stranger nothing of this calendar: the timezone only with credentials', async () => {
    expect((await t.api('patch', 'settings').send({ timezone: 'America/Sao_Paulo' })).status).toBe(200);
    for (const anon of [await site().get('/wp-json/'), await site().get('/?rest_route=/')]) {
      expect(anon.status).toBe(200);
      expect(anon.body.namespaces).toEqual(expect.arrayContaining(['cal/events/v1', 'wp/v2']));
      expect(anon.body).not.toHaveProperty('timezone_string');
      expect(anon.body).not.toHaveProperty('gmt_offset');
      expect(anon.text).not.toMatch(/Sao_Paulo|Ana Owner/);
    }
    for (const signedIn of [await site().get('/wp-json/').set('Authorization', basic), await site().get('/wp-json/').set('Authorization', `Bearer ${t.server.token}`)]) {
      expect(signedIn.status).toBe(200);
      expect(signedIn.body).toMatchObject({ timezone_string: 'America/Sao_Paulo', gmt_offset: expect.any(Number) });
    }
  });

  it('the index is served at /wp-json (no slash) and under each language, its home there', async () => {
    expect((await site().get('/wp-json')).status).toBe(200);
    const es = await site().get('/es/wp-json/');
    expect(es.status).toBe(200);
    expect(es.body.home).toBe(`${t.server.url}/es`);
    expect(es.body.routes[`${NS}/events`]._links.self[0].href).toBe(`${t.server.url}/es/wp-json${NS}/events`);
  });

  it('a wrong password is refused even on the public index, in the API error shape, without a challenge', async () => {
    const wrong = `Basic ${Buffer.from('whoever:not-the-token').toString('base64')}`;
    const res = await site().get('/wp-json/').set('Authorization', wrong);
    expectError(res, 401, 'incorrect_password');
    expect(res.headers['www-authenticate']).toBeUndefined();
  });

  it('other methods and unknown site routes: 404 rest_no_route', async () => {
    expectError(await site().post('/wp-json/').set('Authorization', basic).send({}), 404, 'rest_no_route');
    expectError(await site().get('/wp-json/wp/v2/posts').set('Authorization', basic), 404, 'rest_no_route');
  });
});

describe('wp/v2/users/me proves the login', () => {
  it('answers the owner with the token as the Basic password, whatever the user name', async () => {
    for (const user of ['admin', 'ana', '']) {
      const res = await site().get('/wp-json/wp/v2/users/me').set('Authorization', `Basic ${Buffer.from(`${user}:${t.server.token}`).toString('base64')}`);
      expect(res.status, user).toBe(200);
      expect(res.body).toMatchObject({ id: 1, name: 'Ana Owner', slug: 'ana-owner' });
    }
    expect((await site().get('/wp-json/wp/v2/users/me').set('Authorization', `Bearer ${t.server.token}`)).body.id).toBe(1);
  });

  it('without credentials: 401 rest_not_logged_in, as WordPress; a wrong password: 401 incorrect_password', async () => {
    const anon = await site().get('/wp-json/wp/v2/users/me');
    expectError(anon, 401, 'rest_not_logged_in');
    const wrong = await site().get('/wp-json/wp/v2/users/me').set('Authorization', `Basic ${Buffer.from(`admin:${t.server.token}x`).toString('base64')}`);
    expectError(wrong, 401, 'incorrect_password');
    for (const res of [anon, wrong]) expect(res.headers['www-authenticate']).toBeUndefined();
    // Worded in the language of the root.
    const pt = await site().get('/pt-br/wp-json/wp/v2/users/me');
    expect(pt.body.message).toBe('Você não está conectado.');
  });
});

describe('HTTP Basic with the token as the password', () => {
  it('reads and writes like the token', async () => {
    const made = await site().post(`/wp-json${NS}/events`).set('Authorization', basic).send({ title: 'Basic made', start_date: '2031-07-01 10:00', end_date: '2031-07-01 11:00' });
    expect(made.status).toBe(201);
    const read = await site().get(`${NS}/events/${made.body.id}`).set('Authorization', basic);
    expect(read.body.title).toBe('Basic made');
  });

  it('a wrong one is 401 incorrect_password on every kind of route, nothing written, no challenge', async () => {
    const before = t.snapshot();
    const wrong = `Basic ${Buffer.from(`admin:${t.server.token.slice(0, -1)}`).toString('base64')}`;
    for (const res of [
      await site().get(`${NS}/events`).set('Authorization', wrong),
      await site().post(`${NS}/events`).set('Authorization', wrong).send({ title: 'No', start_date: '2031-07-01 10:00', end_date: '2031-07-01 11:00' }),
      await site().get(`/?rest_route=${NS}/events`).set('Authorization', wrong),
    ]) {
      expectError(res, 401, 'incorrect_password');
      expect(res.headers['www-authenticate']).toBeUndefined();
    }
    expect(t.snapshot()).toEqual(before);
  });

  it('the Host and Origin checks apply to it as to the token', async () => {
    expectError(await site().get(`${NS}/events`).set('Authorization', basic).set('Host', 'evil.example'), 403, 'rest_forbidden');
    const before = t.snapshot();
    const cross = await site().post(`${NS}/events`).set('Authorization', basic).set('Origin', 'https://evil.example').send({ title: 'No', start_date: '2031-07-01 10:00', end_date: '2031-07-01 11:00' });
    expectError(cross, 403, 'rest_forbidden');
    expect(t.snapshot()).toEqual(before);
  });
});

describe('?rest_route= answers as the pretty route', () => {
  it('a list, with its page links in the same form', async () => {
    const window = 'start_date=2031-01-01&end_date=2031-12-31';
    const pretty = await t.api('get', `events?per_page=1&${window}`);
    expect(pretty.body.total).toBeGreaterThan(1);
    for (const form of ['/', '/index.php']) {
      const res = await site().get(`${form}?rest_route=${NS}/events&per_page=1&${window}`).set('Authorization', basic);
      expect(res.status).toBe(200);
      expect(res.body.events).toEqual(pretty.body.events.map((e: any) => expect.objectContaining({ id: e.id, title: e.title })));
      expect(res.body.total).toBe(pretty.body.total);
      expect(res.headers['x-wp-total']).toBe(pretty.headers['x-wp-total']);
      const root = `${t.server.url}${form}?rest_route=${NS}/`;
      expect(res.body.rest_url.startsWith(`${root}events/&`)).toBe(true);
      expect(res.body.next_rest_url).toMatch(new RegExp(`^${root.replace(/[.?]/g, '\\$&')}events/&.*page=2`));
      expect(res.body.events[0].rest_url).toBe(`${root}events/${res.body.events[0].id}`);
      // Following the link works and gives the second page.
      const next = await request(res.body.next_rest_url).get('').set('Authorization', basic);
      expect(next.status).toBe(200);
      expect(next.body.events[0].id).not.toBe(res.body.events[0].id);
      expect(next.body.previous_rest_url.startsWith(`${root}events/`)).toBe(true);
    }
  });

  it('term lists link their pages with & too', async () => {
    for (let i = 0; i < 2; i++) await t.api('post', 'tags').send({ name: uniq('rr tag') });
    const res = await site().get(`/?rest_route=${NS}/tags&per_page=1&hide_empty=false`).set('Authorization', basic);
    expect(res.status).toBe(200);
    expect(res.body.rest_url).toBe(`${t.server.url}/?rest_route=${NS}/tags/`);
    expect(res.body.next_rest_url).toBe(`${t.server.url}/?rest_route=${NS}/tags/&page=2`);
  });

  it('a single record, a write, an error in the language root, the namespace index, the site index', async () => {
    const made = await site().post(`/index.php?rest_route=${NS}/events`).set('Authorization', basic).send({ title: 'RR made', start_date: '2031-08-01 10:00', end_date: '2031-08-01 11:00' });
    expect(made.status).toBe(201);
    const read = await site().get(`/?rest_route=${NS}/events/${made.body.id}`).set('Authorization', basic);
    expect(read.body.title).toBe('RR made');
    const missing = await site().get(`/pt-br/?rest_route=${NS}/events/99999999`).set('Authorization', basic);
    expectError(missing, 404, 'rest-event-not-found');
    expect(missing.body.message).toBe('O evento com ID 99999999 não existe.');
    const ns = await site().get(`/?rest_route=${NS}`).set('Authorization', basic);
    expect(ns.body.namespace).toBe('cal/events/v1');
    const idx = await site().get('/?rest_route=/');
    expect(idx.body.namespaces).toContain('cal/events/v1');
    expect(idx.body.routes[`${NS}/events`]._links.self[0].href).toBe(`${t.server.url}/?rest_route=${NS}/events`);
    const me = await site().get('/?rest_route=/wp/v2/users/me').set('Authorization', basic);
    expect(me.body.id).toBe(1);
    expectError(await site().get('/?rest_route=/nope/v1/things').set('Authorization', basic), 404, 'rest_no_route');
  });

  it('needs the credentials like the pretty route', async () => {
    expectError(await site().get(`/?rest_route=${NS}/events`), 401, 'rest_forbidden');
  });
});
