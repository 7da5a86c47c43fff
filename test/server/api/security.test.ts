/**
 * Access rules (decisions "Who may do what", "The calendar UI in a browser tab"): the token on
 * every route, loopback Host only, no foreign Origin, no CORS, the login URL and its cookie, and the
 * token never echoed back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { expectError, expectNoSecret, mkEvent, mkOrganizer, mkTerm, mkVenue, type Res } from './_support';

let t: TestServer;
let ids: { event: number; eventSlug: string; venue: number; venueSlug: string; organizer: number; organizerSlug: string; category: number; tag: number };
const seen: Res[] = [];
const keep = (res: Res) => {
  seen.push(res);
  return res;
};

beforeAll(async () => {
  t = await startTestServer();
  const e = await mkEvent(t);
  const v = await mkVenue(t);
  const o = await mkOrganizer(t);
  ids = {
    event: e.id, eventSlug: e.slug, venue: v.id, venueSlug: v.slug, organizer: o.id, organizerSlug: o.slug,
    category: (await mkTerm(t, 'categories')).id, tag: (await mkTerm(t, 'tags')).id,
  };
});
afterAll(async () => {
  await t?.close();
});

type M = 'get' | 'post' | 'put' | 'patch' | 'delete';
function everyRoute(): Array<[M, string]> {
  const out: Array<[M, string]> = [['get', ''], ['get', 'doc']];
  const single: M[] = ['get', 'post', 'put', 'patch', 'delete'];
  for (const [plural, id, slug] of [['events', ids.event, ids.eventSlug], ['venues', ids.venue, ids.venueSlug], ['organizers', ids.organizer, ids.organizerSlug]] as const) {
    out.push(['get', plural], ['post', plural]);
    for (const m of single) out.push([m, `${plural}/${id}`], [m, `${plural}/by-slug/${slug}`]);
  }
  for (const [plural, id] of [['categories', ids.category], ['tags', ids.tag]] as const) {
    out.push(['get', plural], ['post', plural]);
    for (const m of single) out.push([m, `${plural}/${id}`]);
  }
  return out;
}

describe('the token (decisions: without it every route answers 401 rest_forbidden)', () => {
  it('no token: 401 rest_forbidden on every route and method, nothing changes', async () => {
    const before = t.snapshot();
    for (const [m, path] of everyRoute()) {
      const res = keep(await t.anon(m, path).send(m === 'get' || m === 'delete' ? undefined : { title: 'x', name: 'x', venue: 'x', organizer: 'x' }));
      expect(res.status, `${m} ${path}`).toBe(401);
      expectError(res, 401, 'rest_forbidden');
    }
    expect(t.snapshot()).toEqual(before);
  });

  it('a wrong token: 401 rest_forbidden on every route and method', async () => {
    for (const [m, path] of everyRoute()) {
      const res = keep(await t.anon(m, path).set('Authorization', 'Bearer wrong-token-0123456789abcdef'));
      expect(res.status, `${m} ${path}`).toBe(401);
      expectError(res, 401, 'rest_forbidden');
    }
  });

  it('a token in another scheme, empty, or with extra text is refused', async () => {
    for (const header of ['Bearer ', `Bearer ${t.server.token} extra`, `Bearer ${t.server.token}x`, t.server.token]) {
      expectError(keep(await t.anon('get', 'events').set('Authorization', header)), 401, 'rest_forbidden');
    }
    // Basic carries the token as the password of `user:password`, base64-encoded; the bare token is no such pair.
    expectError(keep(await t.anon('get', 'events').set('Authorization', `Basic ${t.server.token}`)), 401, 'incorrect_password');
  });

  it('the /wp-json/ and language roots need the token too', async () => {
    for (const root of ['/wp-json/cal/events/v1/events', '/pt-br/cal/events/v1/events', '/es/wp-json/cal/events/v1/']) {
      expectError(keep(await request(t.server.url).get(root)), 401, 'rest_forbidden');
    }
  });

  it('the token works on every root', async () => {
    for (const root of ['/cal/events/v1/events', '/wp-json/cal/events/v1/events', '/pt-br/cal/events/v1/events', '/en/wp-json/cal/events/v1/events']) {
      expect(keep(await request(t.server.url).get(root).set('Authorization', `Bearer ${t.server.token}`)).status, root).toBe(200);
    }
  });
});

describe('Host and Origin (decisions: loopback Host only; no foreign Origin)', () => {
  const port = () => t.server.port;

  it.each(['evil.example.com', 'example.com:PORT', '127.0.0.1.nip.io:PORT', '192.168.1.10:PORT', '10.0.0.1'])('Host %s → 403, even with the token', async (host) => {
    const res = keep(await t.api('get', 'events').set('Host', host.replace('PORT', String(port()))));
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toMatch(/json/);
  });

  it('a foreign Host cannot write either', async () => {
    const before = t.snapshot();
    const res = await t.api('post', 'tags').set('Host', 'attacker.example').send({ name: 'rebinding' });
    expect(res.status).toBe(403);
    expect(t.snapshot()).toEqual(before);
  });

  it.each(['127.0.0.1:PORT', 'localhost:PORT', '[::1]:PORT', 'LOCALHOST:PORT', 'localhost'])('Host %s is accepted', async (host) => {
    expect(keep(await t.api('get', 'events').set('Host', host.replace('PORT', String(port())))).status).toBe(200);
  });

  it.each(['http://evil.example', 'null', 'http://localhost.evil.example', 'https://127.0.0.1:1'])('Origin %s → 403, even with the token; nothing changes', async (origin) => {
    const before = t.snapshot();
    const get = keep(await t.api('get', 'events').set('Origin', origin));
    expect(get.status).toBe(403);
    const post = keep(await t.api('post', 'tags').set('Origin', origin).send({ name: `cross ${origin}` }));
    expect(post.status).toBe(403);
    expect(t.snapshot()).toEqual(before);
  });

  it('the server\'s own Origin is accepted', async () => {
    expect(keep(await t.api('get', 'events').set('Origin', t.server.url)).status).toBe(200);
  });

  it('no Access-Control-Allow-Origin header, ever (including preflights)', async () => {
    for (const origin of ['http://evil.example', t.server.url]) {
      keep(await request(t.server.url).options('/cal/events/v1/events').set('Origin', origin).set('Access-Control-Request-Method', 'POST').set('Access-Control-Request-Headers', 'authorization'));
      keep(await t.api('get', 'events').set('Origin', origin));
    }
    keep(await t.api('get', 'doc'));
    for (const res of seen) {
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });
});

describe('login URL and session cookie (decisions: the calendar UI in a browser tab)', () => {
  let cookie: string;

  it('/?token=TOKEN sets an HttpOnly SameSite=Strict cookie and redirects to /', async () => {
    const res = keep(await request(t.server.url).get(`/?token=${encodeURIComponent(t.server.token)}`));
    expect([301, 302, 303, 307]).toContain(res.status);
    expect(res.headers.location).toBe('/');
    const set = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    expect(set).toHaveLength(1);
    expect(set[0]).toMatch(/;\s*HttpOnly/i);
    expect(set[0]).toMatch(/;\s*SameSite=Strict/i);
    cookie = set[0].split(';')[0];
    expect(cookie).not.toContain(t.server.token);
  });

  it('the cookie authenticates API reads and same-origin writes', async () => {
    const read = keep(await request(t.server.url).get('/cal/events/v1/events').set('Cookie', cookie));
    expect(read.status).toBe(200);
    const write = keep(await request(t.server.url).post('/cal/events/v1/tags').set('Cookie', cookie).set('Origin', t.server.url).send({ name: 'cookie tag' }));
    expect(write.status).toBe(201);
  });

  it('the cookie does not help a foreign origin', async () => {
    const res = keep(await request(t.server.url).post('/cal/events/v1/tags').set('Cookie', cookie).set('Origin', 'http://evil.example').send({ name: 'csrf tag' }));
    expect(res.status).toBe(403);
  });

  it('a forged or stale cookie is refused', async () => {
    const [name] = cookie.split('=');
    expectError(keep(await request(t.server.url).get('/cal/events/v1/events').set('Cookie', `${name}=forged`)), 401, 'rest_forbidden');
    expectError(keep(await request(t.server.url).get('/cal/events/v1/events').set('Cookie', `${name}=${t.server.token}`)), 401, 'rest_forbidden');
  });

  it('a wrong login token sets no cookie and does not redirect into the app', async () => {
    const res = keep(await request(t.server.url).get('/?token=wrong-token'));
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.status).toBeGreaterThanOrEqual(400);
  });

  it('/ without a session shows how to log in, without the token', async () => {
    const res = keep(await request(t.server.url).get('/'));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('the token is never sent back', () => {
  it('in no body and no header of any response of this file', async () => {
    // A few more kinds of answer: created records, errors, the documents.
    keep(await t.api('get', ''));
    keep(await t.api('get', 'doc'));
    keep(await t.api('post', 'events').send({ title: 'token check', start_date: '2031-01-01', end_date: '2031-01-01' }));
    keep(await t.api('post', 'events').send({ title: '' }));
    keep(await t.api('get', 'events/999999'));
    keep(await t.api('get', 'nope'));
    expect(seen.length).toBeGreaterThan(50);
    for (const res of seen) expectNoSecret(res, t.server.token);
  });
});
