/**
 * /doc against what the server really answers (reference §8; issue item 7): every documented
 * path and method answers (never rest_no_route, and with a status the document lists); every route
 * of the namespace index is documented and every documented path is in the index, with the same
 * methods and the same parameters; what is not documented answers 404 rest_no_route; and the
 * documented query parameters are the ones the server checks.
 */
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { startFeedServer, type FeedServer } from '../../helpers/feed-server';
import { at, expectError, expectInvalidParam, mkEvent, mkOrganizer, mkTerm, mkVenue, uniq, type Res } from './_queries';

const NS = '/cal/events/v1';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];

let t: TestServer;
let feed: FeedServer;
let doc: any;
let index: any;
beforeAll(async () => {
  t = await startTestServer();
  feed = await startFeedServer();
  feed.setFeed(ICS);
  doc = (await t.api('get', 'doc')).body;
  index = (await t.api('get', '')).body;
});
afterAll(async () => {
  await t?.close();
  await feed?.close();
});

/**
 * Operations a valid request cannot complete in this test, answered with a documented refusal:
 * adding a CalDAV account needs a CalDAV server (test/server/api/accounts.test.ts adds one on a
 * real Radicale); here nothing listens at the address, which the API says as documented.
 */
const REFUSED_HERE: Record<string, string> = { 'POST /accounts': 'caldav_unreachable', 'POST /sites': 'site-unreachable' };
/** What an operation with required query parameters needs besides the one a test sends. */
const REQUIRED_QUERY: Record<string, Record<string, string>> = { '/events/conflicts': { start_date: '2031-05-01 10:00', end_date: '2031-05-01 11:00' } };
let feeds = 0;
/** A subscription to the test's feed (a new address each time: the same one twice is refused). */
const subscribe = () => t.api('post', 'subscriptions').send({ url: `${feed.url}/feed.ics?copy=${++feeds}` });

/** `/cal/events/v1/events/(?P<id>\d+)` → `/events/{id}` */
const docPathOf = (route: string) => route.slice(NS.length).replace(/\(\?P<(\w+)>[^)]*\)/g, '{$1}');
const docOps = (path: string) => Object.keys(doc.paths[path]).filter((k) => (METHODS as readonly string[]).includes(k));
const collectionOf = (path: string) => path.split('/')[1] as 'events' | 'venues' | 'organizers' | 'categories' | 'tags' | 'doc' | 'export' | 'import';

/** A new record of the collection a path belongs to. */
async function fresh(coll: string): Promise<{ id: number; slug?: string }> {
  if (coll === 'events') return mkEvent(t);
  if (coll === 'venues') return mkVenue(t);
  if (coll === 'organizers') return mkOrganizer(t);
  if (coll === 'categories' || coll === 'tags') return mkTerm(t, coll);
  throw new Error(coll);
}

const createBody: Record<string, () => Record<string, unknown>> = {
  events: () => ({ title: uniq('Doc event'), start_date: '2031-05-01 10:00', end_date: '2031-05-01 11:00' }),
  venues: () => ({ venue: uniq('Doc venue') }),
  organizers: () => ({ organizer: uniq('Doc organizer') }),
  categories: () => ({ name: uniq('Doc category') }),
  tags: () => ({ name: uniq('Doc tag') }),
};
const updateBody: Record<string, Record<string, unknown>> = {
  events: { description: 'updated' },
  venues: { phone: '555' },
  organizers: { phone: '555' },
  categories: { description: 'updated' },
  tags: { description: 'updated' },
};
const ICS = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//doc test//EN', 'BEGIN:VEVENT', 'UID:doc-test@x', 'DTSTAMP:20250101T000000Z', 'DTSTART:20310501T100000Z', 'DTEND:20310501T110000Z', 'SUMMARY:Doc', 'END:VEVENT', 'END:VCALENDAR'].join('\r\n');

/** The reminders' stream stays open: its status and type are the answer, then it is closed. */
function openStream(): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = get(`${t.server.apiRoot}reminders/stream`, { headers: { Authorization: `Bearer ${t.server.token}` } }, (res) => {
      const answer = { status: res.statusCode, body: {}, headers: res.headers } as unknown as Res;
      req.destroy();
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      resolve(answer);
    });
    req.on('error', reject);
  });
}

/** A real request for a documented operation, with real ids and a valid body. */
async function call(path: string, method: Method): Promise<Res> {
  const coll = collectionOf(path);
  let real = path;
  if (path.includes('{job}')) {
    const started = await t.api('post', 'import').query({ background: 'true', dry_run: 'true' }).set('Content-Type', 'text/calendar').send(ICS);
    expect(started.status).toBe(202);
    return t.api(method, path.replace('{job}', started.body.id).slice(1));
  }
  if (path === '/reminders/stream') return openStream();
  // The double-booking question needs its times and a venue (or organizers).
  if (path === '/events/conflicts') return t.api('get', 'events/conflicts').query({ ...REQUIRED_QUERY[path], venue: (await mkVenue(t)).id });
  // The settings are one record: read, or a change of one of them.
  if (path === '/settings') return method === 'get' ? t.api('get', 'settings') : t.api(method, 'settings').send({ theme: 'dark' });
  if (path.includes('{key}')) {
    // A reminder due now: an event starting in a minute, reminded five minutes before.
    const soon = new Date(Date.now() + 60_000).toISOString().slice(0, 19).replace('T', ' ');
    const e = await t.api('post', 'events').send({ title: 'Due', timezone: 'UTC', start_date: soon, end_date: soon, reminders: ['-PT5M'] });
    const due = await t.api('get', 'reminders/due');
    const key = due.body.reminders.find((r: { event_id: number }) => r.event_id === e.body.id).key;
    return t.api(method, path.replace('{key}', key).slice(1)).send({});
  }
  if (path === '/sync/calendars/{id}/deletions') {
    // A server calendar with deletions a sync held for the user.
    const store = t.server.store;
    const account = store.write(() =>
      store.accounts.add({ name: uniq('held'), serverUrl: 'http://127.0.0.1:9/', username: 'doc', principalUrl: 'http://127.0.0.1:9/p/', homeUrl: 'http://127.0.0.1:9/h/', createdUtc: new Date().toISOString() }, [
        { url: 'http://127.0.0.1:9/h/held/', name: 'Held', color: null, ctag: null, syncToken: null, hasSyncCollection: false, readOnly: false, synced: true },
      ]),
    );
    const calendar = store.accounts.calendarsOf(account.id)[0].id;
    store.write(() => store.davSync.setHeldDeletes(calendar, JSON.stringify({ count: 9, total: 10, decision: null })));
    return t.api(method, `sync/calendars/${calendar}/deletions`).send({ allow: false });
  }
  if (path.startsWith('/sync/refusals')) {
    // A change a site refused: a site's calendar and its refusal, as a push records them.
    const store = t.server.store;
    const refusal = store.write(() => {
      const site = store.sites.add({ name: uniq('doc'), url: 'http://127.0.0.1:9', apiRoot: `http://127.0.0.1:9/${uniq('r')}/`, username: 'doc', color: null, capabilities: {}, createdUtc: new Date().toISOString() });
      store.sites.refuse({ calendar_id: site.calendar_id, direction: 'push', kind: 'venue', record_key: uniq('v'), local_id: null, remote_id: null, title: 'Doc venue', reason: 'refused', status: 400, at_utc: new Date().toISOString() });
      return store.sites.refusals(site.calendar_id)[0];
    });
    return t.api(method, path.replace('{id}', String(refusal.id)).slice(1)).send({});
  }
  if (path.startsWith('/sync')) {
    // "Sync now" with no accounts, and a conflict copy a sync kept for the conflict routes.
    if (!path.includes('{id}')) return t.api(method, path.slice(1)).send({});
    const local = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'BEGIN:VEVENT', `UID:doc-${Date.now()}-${Math.random()}`, 'DTSTART:20310201T100000Z', 'DTEND:20310201T110000Z', 'SUMMARY:Kept', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
    const id = t.server.store.write(() => t.server.store.davSync.keepConflict(1, 'doc', 'Kept', local, new Date().toISOString()));
    return t.api(method, path.replace('{id}', String(id)).slice(1)).send({});
  }
  if (path.startsWith('/sites')) {
    if (!path.includes('{id}')) return method === 'post' ? t.api('post', 'sites').send({ url: 'http://127.0.0.1:9/', user: 'doc', password: 'secret' }) : t.api(method, 'sites');
    const store = t.server.store;
    const site = store.write(() => store.sites.add({ name: uniq('doc'), url: 'http://127.0.0.1:9', apiRoot: `http://127.0.0.1:9/${uniq('r')}/`, username: 'doc', color: null, capabilities: {}, createdUtc: new Date().toISOString() }));
    return t.api(method, `sites/${site.id}`);
  }
  if (path.startsWith('/accounts')) {
    if (!path.includes('{id}')) return method === 'post' ? t.api('post', 'accounts').send({ url: 'http://127.0.0.1:9/', username: 'doc', password: 'secret' }) : t.api(method, 'accounts');
    const store = t.server.store;
    const account = store.write(() =>
      store.accounts.add({ name: uniq('doc'), serverUrl: 'http://127.0.0.1:9/', username: 'doc', principalUrl: 'http://127.0.0.1:9/p/', homeUrl: 'http://127.0.0.1:9/h/', createdUtc: new Date().toISOString() }, []),
    );
    return t.api(method, `accounts/${account.id}`);
  }
  if (path === '/calendars') return method === 'post' ? t.api('post', 'calendars').send({ name: uniq('Doc calendar'), color: '#336699' }) : t.api(method, 'calendars');
  if (path === '/calendars/{id}') {
    if (method !== 'delete') return t.api(method, 'calendars/1').send({ name: 'On this computer' });
    const made = await t.api('post', 'calendars').send({ name: uniq('Doc calendar'), color: '#336699' });
    return t.api('delete', `calendars/${made.body.id}`).query({ events: 'delete' });
  }
  if (path === '/quick-add') return t.api('post', 'quick-add').send({ text: 'Doc lunch tomorrow 1pm' });
  if (path === '/trash') return t.api(method, 'trash').query({ kind: 'events' });
  if (path.startsWith('/subscriptions')) {
    if (!path.includes('{id}')) return method === 'post' ? subscribe() : t.api(method, 'subscriptions');
    const made = await subscribe();
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return t.api(method, path.replace('{id}', String(made.body.id)).slice(1)).send({});
  }
  if (path.includes('{')) {
    const rec = await fresh(coll);
    real = path.replace('{id}', String(rec.id)).replace('{slug}', String(rec.slug));
  }
  const r = t.api(method, real.slice(1));
  if (coll === 'import') return r.query({ dry_run: 'true' }).set('Content-Type', 'text/calendar').send(ICS);
  if (method === 'get' || method === 'delete') return r;
  return r.send(path.includes('{') ? updateBody[coll] : createBody[coll]());
}

describe('every documented operation is answered', () => {
  it('the document has operations to check', () => {
    const ops = Object.keys(doc.paths).flatMap((p) => docOps(p));
    expect(ops.length).toBeGreaterThan(40);
  });

  it('no documented path and method answers rest_no_route, and each answers with a status the document lists', async () => {
    const problems: string[] = [];
    for (const path of Object.keys(doc.paths)) {
      for (const m of docOps(path)) {
        const res = await call(path, m as Method);
        const listed = Object.keys(doc.paths[path][m].responses);
        const op = `${m.toUpperCase()} ${path}`;
        if (res.body?.code === 'rest_no_route') problems.push(`${op}: rest_no_route`);
        else if (!listed.includes(String(res.status))) problems.push(`${op}: ${res.status} ${res.body?.code ?? ''} not in [${listed}]`);
        else if (REFUSED_HERE[op] !== undefined) {
          if (res.body?.code !== REFUSED_HERE[op]) problems.push(`${op}: ${res.status} ${res.body?.code}, expected ${REFUSED_HERE[op]}`);
        } else if (res.status >= 300) problems.push(`${op}: ${res.status} ${res.body?.code} for a valid request`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the documented success status is the one served (201 for creates, 200 otherwise)', async () => {
    for (const path of Object.keys(doc.paths)) {
      for (const m of docOps(path)) {
        // 202 is the answer of work started in the background, besides the usual success.
        const statuses = Object.keys(doc.paths[path][m].responses);
        if (statuses.includes('202')) expect(`${m} ${path}`).toMatch(/^(post \/import|delete \/import\/jobs\/\{job\}|post \/sync|post \/sync\/refusals\/\{id\}\/retry)$/);
        // A create with a dry run (quick add) also answers 200 with what it would make.
        const dryRun = statuses.includes('201') && (doc.paths[path][m].responses['200']?.description ?? '').includes('dry_run');
        const ok = statuses.filter((s) => s.startsWith('2') && s !== '202' && !(dryRun && s === '200'));
        expect(ok.length, `${m} ${path}`).toBe(1);
        const creates = m === 'post' && !path.includes('{') && path !== '/import' && path !== '/sync' && path !== '/settings';
        expect(ok[0], `${m} ${path}`).toBe(creates ? '201' : '200');
      }
    }
  });
});

describe('the namespace index and the document describe the same routes', () => {
  it('every route of the index is a documented path with the same methods (the index itself aside)', () => {
    const missing: string[] = [];
    for (const [route, r] of Object.entries<any>(index.routes)) {
      // The namespace root is the core route listing, not one of the namespace's own operations:
      // the reference's document (§8.2) has no "/" path either.
      if (route === NS) continue;
      const p = docPathOf(route);
      if (!doc.paths[p]) {
        missing.push(route);
        continue;
      }
      expect(docOps(p).map((m) => m.toUpperCase()).sort(), route).toEqual([...r.methods].sort());
    }
    expect(missing).toEqual([]);
  });

  it('every documented path is a route of the index', () => {
    const routes = new Set(Object.keys(index.routes).map(docPathOf));
    expect(Object.keys(doc.paths).filter((p) => !routes.has(p))).toEqual([]);
  });

  it('each operation documents the same parameters the index lists for it', () => {
    for (const [route, r] of Object.entries<any>(index.routes)) {
      if (route === NS) continue;
      const p = docPathOf(route);
      for (const endpoint of r.endpoints) {
        for (const method of endpoint.methods as string[]) {
          const op = doc.paths[p][method.toLowerCase()];
          // Request headers (If-Match, If-None-Match) are documented as parameters but are not arguments.
          const documented = new Set<string>(op.parameters.filter((x: { in: string }) => x.in !== 'header').map((x: { name: string }) => x.name));
          const props = op.requestBody?.content?.['application/json']?.schema?.properties ?? {};
          for (const k of Object.keys(props)) documented.add(k);
          expect([...documented].sort(), `${method} ${p}`).toEqual(Object.keys(endpoint.args).sort());
          // By-slug updates have a path `slug` and an optional body field `slug` under one name
          // (seed §4.2: "here slug as a body field is optional"); the index can show only one.
          for (const x of op.parameters) if (endpoint.args[x.name] && !(x.in === 'path' && x.name in props)) expect(x.required, `${method} ${p} ${x.name}`).toBe(endpoint.args[x.name].required);
        }
      }
    }
  });

  it('the document is the same through every root, but for servers[0].url', async () => {
    for (const root of ['/wp-json', '/es', '/pt-br/wp-json']) {
      const other = (await at(t, root, 'get', 'doc')).body;
      expect(other.servers[0].url).toBe(`${t.server.url}${root}${NS}/`);
      expect(other.paths).toEqual(doc.paths);
    }
  });
});

describe('what the document does not have answers 404 rest_no_route', () => {
  it('every documented path with a method it does not document', async () => {
    const answered: string[] = [];
    for (const path of Object.keys(doc.paths)) {
      for (const m of METHODS.filter((x) => !docOps(path).includes(x))) {
        const real = path.replace('{id}', '1').replace('{slug}', 'any-slug');
        const res = await t.api(m, real.slice(1)).send(m === 'get' || m === 'delete' ? undefined : {});
        if (res.status !== 404 || res.body?.code !== 'rest_no_route') answered.push(`${m.toUpperCase()} ${path}: ${res.status} ${res.body?.code}`);
      }
    }
    expect(answered).toEqual([]);
  });

  it('writes to the namespace index', async () => {
    for (const m of ['post', 'put', 'patch', 'delete'] as const) expectError(await t.api(m, '').send({}), 404, 'rest_no_route');
  });

  it.each([
    'nope', 'event', 'events/abc', 'events/1.5', 'events/-1', 'events/1/2', 'events/by-slug', 'events/by-slug/a/b', 'venues/abc',
    'organizers/by-slug', 'categories/by-slug/music', 'tags/by-slug/free', 'categories/abc', 'tags/1/children', 'doc/x', 'export/ics', 'import/x',
  ])('GET %s', async (path) => {
    expectError(await t.api('get', path), 404, 'rest_no_route');
  });

  it('the same under every root', async () => {
    for (const root of ['/wp-json', '/en', '/pt-br', '/es/wp-json']) {
      expectError(await at(t, root, 'get', 'nope'), 404, 'rest_no_route');
      expectError(await at(t, root, 'delete', 'events'), 404, 'rest_no_route');
    }
  });

  it('OPTIONS is not documented: 404 rest_no_route', async () => {
    const res = await request(t.server.url).options(`${NS}/events`).set('Authorization', `Bearer ${t.server.token}`);
    expectError(res, 404, 'rest_no_route');
  });
});

describe('the documented query parameters are the ones the server checks', () => {
  const checkable = (x: any) => {
    const s = x.schema ?? {};
    if (x.in !== 'query') return false;
    if (['integer', 'number', 'boolean'].includes(s.type)) return true;
    if (s.enum || s.format === 'date-time') return true;
    return s.type === 'array';
  };

  it('a value no declaration accepts is refused with 400 naming the documented parameter', async () => {
    const accepted: string[] = [];
    for (const path of Object.keys(doc.paths)) {
      for (const m of docOps(path)) {
        for (const x of doc.paths[path][m].parameters.filter(checkable)) {
          const real = path.replace('{id}', '999999999').replace('{slug}', 'no-such-slug');
          const r = t.api(m as Method, real.slice(1)).query({ ...REQUIRED_QUERY[path], [x.name]: 'zz-not-valid' });
          const res = await (m === 'get' || m === 'delete' ? r : path === '/import' ? r.set('Content-Type', 'text/calendar').send(ICS) : r.send({}));
          if (res.status !== 400 || res.body?.code !== 'rest_invalid_param' || !(x.name in (res.body.data?.params ?? {}))) {
            accepted.push(`${m.toUpperCase()} ${path} ${x.name}: ${res.status} ${res.body?.code}`);
          }
        }
      }
    }
    expect(accepted).toEqual([]);
  });

  it('a create without its documented required fields → 400 rest_missing_callback_param naming exactly them', async () => {
    for (const path of Object.keys(doc.paths)) {
      const post = doc.paths[path].post;
      const required = post?.requestBody?.content?.['application/json']?.schema?.required;
      if (!required) continue;
      const res = await t.api('post', path.slice(1)).send({});
      expectError(res, 400, 'rest_missing_callback_param');
      expect(res.body.data.params, path).toEqual(required);
    }
  });

  it('a parameter the document does not list is ignored', async () => {
    const res = await t.api('get', 'events?no_such_parameter=zz&orderby=nonsense');
    expect(res.status).toBe(200);
    expectInvalidParam(await t.api('get', 'events?per_page=zz&no_such_parameter=zz'), 'per_page');
  });
});
