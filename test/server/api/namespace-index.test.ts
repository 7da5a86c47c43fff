/**
 * The namespace index (reference §8.1) and the OpenAPI document /doc (§8.2, correction 1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { startTestServer, type TestServer } from '../../helpers/server';

let t: TestServer;
let index: any;
let doc: any;
const NS = '/cal/events/v1';
const ROUTES = [
  NS,
  `${NS}/doc`,
  `${NS}/events`,
  `${NS}/events/(?P<id>\\d+)`,
  `${NS}/events/by-slug/(?P<slug>[^/]+)`,
  `${NS}/events/conflicts`,
  `${NS}/venues`,
  `${NS}/venues/(?P<id>\\d+)`,
  `${NS}/venues/by-slug/(?P<slug>[^/]+)`,
  `${NS}/organizers`,
  `${NS}/organizers/(?P<id>\\d+)`,
  `${NS}/organizers/by-slug/(?P<slug>[^/]+)`,
  `${NS}/categories`,
  `${NS}/categories/(?P<id>\\d+)`,
  `${NS}/tags`,
  `${NS}/tags/(?P<id>\\d+)`,
  // Almanac's additions come after the original's routes, so the original's order is kept.
  `${NS}/export`,
  `${NS}/import`,
  `${NS}/import/jobs/(?P<job>[^/]+)`,
  `${NS}/reminders/due`,
  `${NS}/reminders/stream`,
  `${NS}/reminders/(?P<key>[^/]+)/snooze`,
  `${NS}/reminders/(?P<key>[^/]+)/dismiss`,
  `${NS}/settings`,
  `${NS}/accounts`,
  `${NS}/accounts/(?P<id>\\d+)`,
  `${NS}/calendars`,
  `${NS}/calendars/(?P<id>\\d+)`,
  `${NS}/sites`,
  `${NS}/sites/(?P<id>\\d+)`,
  `${NS}/sync`,
  `${NS}/sync/calendars/(?P<id>\\d+)/deletions`,
  `${NS}/sync/refusals/(?P<id>\\d+)/retry`,
  `${NS}/sync/refusals/(?P<id>\\d+)`,
  `${NS}/sync/conflicts/(?P<id>\\d+)/restore`,
  `${NS}/sync/conflicts/(?P<id>\\d+)`,
  `${NS}/subscriptions`,
  `${NS}/subscriptions/(?P<id>\\d+)/refresh`,
  `${NS}/subscriptions/(?P<id>\\d+)`,
  `${NS}/trash`,
  `${NS}/quick-add`,
];
const SCHEMA_KEYWORDS = new Set(['type', 'description', 'default', 'enum', 'items', 'format', 'required', 'minimum', 'maximum', 'pattern', 'oneOf', 'anyOf', 'properties', 'minItems', 'maxItems', 'uniqueItems', 'context', 'readonly']);

beforeAll(async () => {
  t = await startTestServer();
  index = (await t.api('get', '')).body;
  doc = (await t.api('get', 'doc')).body;
});
afterAll(async () => {
  await t?.close();
});

const endpoint = (route: string, method: string) => index.routes[route].endpoints.find((e: { methods: string[] }) => e.methods.includes(method));

describe('namespace index (reference §8.1)', () => {
  it('names the namespace and lists every route, in registration order', async () => {
    const res = await t.api('get', '');
    expect(res.status).toBe(200);
    expect(res.body.namespace).toBe('cal/events/v1');
    expect(Object.keys(res.body.routes)).toEqual(ROUTES);
    // The trailing-slash form answers too.
    expect((await request(t.server.url).get(`${NS}/`).set('Authorization', `Bearer ${t.server.token}`)).body.namespace).toBe('cal/events/v1');
  });

  it('each route: namespace, methods = union of its endpoints', () => {
    const expected: Record<string, string[]> = {
      [NS]: ['GET'],
      [`${NS}/doc`]: ['GET'],
      [`${NS}/events`]: ['GET', 'POST'],
      [`${NS}/events/(?P<id>\\d+)`]: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      [`${NS}/events/by-slug/(?P<slug>[^/]+)`]: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      [`${NS}/venues`]: ['GET', 'POST'],
      [`${NS}/categories/(?P<id>\\d+)`]: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      [`${NS}/tags`]: ['GET', 'POST'],
    };
    for (const [route, methods] of Object.entries(expected)) {
      const r = index.routes[route];
      expect(r.namespace).toBe('cal/events/v1');
      expect([...r.methods].sort()).toEqual([...methods].sort());
      const union = new Set(r.endpoints.flatMap((e: { methods: string[] }) => e.methods));
      expect([...union].sort()).toEqual([...methods].sort());
    }
  });

  it('args expose only schema keywords and a boolean required', () => {
    for (const r of Object.values<any>(index.routes)) {
      for (const e of r.endpoints) {
        expect(Array.isArray(e.methods)).toBe(true);
        for (const [name, arg] of Object.entries<any>(e.args)) {
          expect(typeof arg.required, name).toBe('boolean');
          for (const k of Object.keys(arg)) expect(SCHEMA_KEYWORDS.has(k), `${name}.${k}`).toBe(true);
        }
      }
    }
  });

  it('the index route takes namespace and context with their defaults', () => {
    const args = endpoint(NS, 'GET').args;
    expect(args.namespace).toMatchObject({ default: 'cal/events/v1', required: false });
    expect(args.context).toMatchObject({ default: 'view', required: false });
  });

  it('events GET: page default 1 (integer), per_page, filters; POST: title/start_date/end_date required', () => {
    const get = endpoint(`${NS}/events`, 'GET').args;
    expect(get.page).toMatchObject({ default: 1, type: 'integer', required: false });
    expect(get.per_page).toMatchObject({ type: 'integer', required: false });
    for (const a of ['start_date', 'end_date', 'search', 'categories', 'tags', 'venue', 'organizer', 'featured', 'status', 'include', 'post_parent', 'starts_before', 'starts_after', 'ends_before', 'ends_after', 'strict_dates', 'ticketed', 'geoloc', 'geoloc_lat', 'geoloc_lng', 'i18n_language']) {
      expect(get, a).toHaveProperty(a);
    }
    const post = endpoint(`${NS}/events`, 'POST').args;
    expect(post.title).toMatchObject({ type: 'string', required: true });
    expect(post.start_date.required).toBe(true);
    expect(post.end_date.required).toBe(true);
    for (const a of ['description', 'excerpt', 'slug', 'status', 'author', 'date', 'date_utc', 'timezone', 'all_day', 'image', 'cost', 'website', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured', 'categories', 'tags', 'venue', 'organizer']) {
      expect(post[a], a).toBeDefined();
      expect(post[a].required, a).toBe(false);
    }
  });

  it('single routes: id integer required; updates require nothing else', () => {
    const route = `${NS}/events/(?P<id>\\d+)`;
    expect(endpoint(route, 'GET').args.id).toMatchObject({ type: 'integer', required: true });
    const put = endpoint(route, 'PUT').args;
    expect(put.id.required).toBe(true);
    for (const [name, a] of Object.entries<any>(put)) if (name !== 'id') expect(a.required, name).toBe(false);
    expect(endpoint(`${NS}/events/by-slug/(?P<slug>[^/]+)`, 'GET').args.slug).toMatchObject({ type: 'string', required: true });
  });

  it('venues, organizers, categories, tags: the name is required on create', () => {
    expect(endpoint(`${NS}/venues`, 'POST').args.venue.required).toBe(true);
    expect(endpoint(`${NS}/organizers`, 'POST').args.organizer.required).toBe(true);
    expect(endpoint(`${NS}/categories`, 'POST').args.name.required).toBe(true);
    expect(endpoint(`${NS}/tags`, 'POST').args.name.required).toBe(true);
    expect(endpoint(`${NS}/categories`, 'POST').args.parent).toBeDefined();
    expect(endpoint(`${NS}/tags`, 'POST').args.parent).toBeUndefined();
    const cats = endpoint(`${NS}/categories`, 'GET').args;
    expect(cats.hide_empty).toMatchObject({ default: true });
    for (const a of ['page', 'per_page', 'search', 'exclude', 'include', 'order', 'orderby', 'hide_empty', 'post', 'event', 'slug', 'parent']) expect(cats, a).toHaveProperty(a);
    const venues = endpoint(`${NS}/venues`, 'GET').args;
    for (const a of ['page', 'per_page', 'search', 'event', 'has_events', 'only_with_upcoming', 'status']) expect(venues, a).toHaveProperty(a);
  });

  it('_links.self only on routes without path parameters; _links.up at the top', () => {
    const base = t.server.apiRoot.replace(/\/$/, '');
    for (const [key, r] of Object.entries<any>(index.routes)) {
      if (key.includes('(?P<')) expect(r._links, key).toBeUndefined();
      else expect(r._links.self).toEqual([{ href: `${base}${key.slice(NS.length)}` }]);
    }
    expect(index._links.up[0].href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('links follow the root the request came in on (/wp-json/)', async () => {
    const res = await request(t.server.url).get('/wp-json/cal/events/v1').set('Authorization', `Bearer ${t.server.token}`);
    expect(res.status).toBe(200);
    expect(res.body.routes[`${NS}/events`]._links.self[0].href).toBe(`${t.server.url}/wp-json/cal/events/v1/events`);
    expect(res.body._links.up[0].href).toBe(`${t.server.url}/wp-json/`);
  });
});

describe('/doc (reference §8.2, correction 1)', () => {
  it('is OpenAPI 3 without Swagger 2 keys', () => {
    expect(doc.openapi).toBe('3.0.0');
    expect(doc.info).toMatchObject({ version: '1.0.0' });
    expect(typeof doc.info.title).toBe('string');
    expect(typeof doc.info.description).toBe('string');
    for (const k of ['swagger', 'host', 'basePath', 'definitions']) expect(doc).not.toHaveProperty(k);
  });

  it('servers[0].url is the namespace root with its port and a trailing slash', () => {
    expect(doc.servers[0].url).toBe(t.server.apiRoot);
    expect(doc.servers[0].url).toMatch(/:\d+\/cal\/events\/v1\/$/);
  });

  it('every $ref names a component schema that is there', () => {
    const refs = new Set(JSON.stringify(doc).match(/#\/components\/schemas\/[\w]+/g) ?? []);
    expect(refs.size).toBeGreaterThan(5);
    for (const r of refs) expect(doc.components.schemas, r).toHaveProperty(r.split('/').at(-1)!);
  });

  it('background imports answer 202 with a job, documented as such', () => {
    const post = doc.paths['/import'].post;
    expect(post.parameters.map((p: { name: string }) => p.name)).toContain('background');
    expect(JSON.stringify(post.responses['202'])).toContain('#/components/schemas/ImportJob');
    expect(Object.keys(doc.paths['/import/jobs/{job}'])).toEqual(['get', 'delete']);
    expect(doc.paths['/export'].get.responses['200'].content['text/calendar'].schema).toEqual({ type: 'string', format: 'binary' });
  });

  it('has every path and the component schemas', () => {
    expect(Object.keys(doc.paths)).toEqual([
      '/doc', '/events', '/events/{id}', '/events/by-slug/{slug}', '/events/conflicts', '/venues', '/venues/{id}', '/venues/by-slug/{slug}',
      '/organizers', '/organizers/{id}', '/organizers/by-slug/{slug}', '/categories', '/categories/{id}', '/tags', '/tags/{id}',
      '/export', '/import', '/import/jobs/{job}', '/reminders/due', '/reminders/stream', '/reminders/{key}/snooze', '/reminders/{key}/dismiss',
      '/settings', '/accounts', '/accounts/{id}', '/calendars', '/calendars/{id}', '/sites', '/sites/{id}', '/sync', '/sync/calendars/{id}/deletions', '/sync/refusals/{id}/retry', '/sync/refusals/{id}', '/sync/conflicts/{id}/restore', '/sync/conflicts/{id}', '/subscriptions', '/subscriptions/{id}/refresh', '/subscriptions/{id}', '/trash', '/quick-add',
    ]);
    for (const s of ['ImageSize', 'CostDetails', 'Term', 'Image', 'DateDetails', 'Event', 'Venue', 'Organizer', 'ImportReport', 'RestoreReport', 'ImportJob']) expect(doc.components.schemas, s).toHaveProperty(s);
    expect(doc.paths['/doc'].get.responses['200']).toBeDefined();
    expect(Object.keys(doc.paths['/events/{id}'])).toEqual(expect.arrayContaining(['get', 'post', 'delete']));
    expect(Object.keys(doc.paths['/events'].get.responses)).toEqual(expect.arrayContaining(['200', '400', '404']));
  });

  it('parameters: name, in, description, schema, required; CSV arrays are form/explode false', () => {
    const params = doc.paths['/events'].get.parameters;
    for (const p of params) {
      expect(p).toMatchObject({ name: expect.any(String), in: expect.stringMatching(/^(query|path|body)$/), schema: expect.any(Object), required: expect.any(Boolean) });
    }
    const include = params.find((p: { name: string }) => p.name === 'include');
    expect(include).toMatchObject({ style: 'form', explode: false, schema: { type: 'array' } });
    const id = doc.paths['/events/{id}'].get.parameters.find((p: { name: string }) => p.name === 'id');
    expect(id).toMatchObject({ in: 'path', required: true });
  });

  it('POST operations carry a form-urlencoded request body with the fields', () => {
    const props = doc.paths['/events'].post.requestBody.content['application/x-www-form-urlencoded'].schema.properties;
    for (const f of ['title', 'start_date', 'end_date', 'venue', 'organizer', 'categories', 'cost']) expect(props, f).toHaveProperty(f);
    expect(doc.paths['/venues'].post.requestBody.content['application/x-www-form-urlencoded'].schema.properties).toHaveProperty('venue');
    expect(doc.paths['/tags'].post.requestBody.content['application/x-www-form-urlencoded'].schema.properties).toHaveProperty('name');
  });

  it('schemas: Event mirrors §7.1 and refers to the others', () => {
    const ev = doc.components.schemas.Event.properties;
    for (const k of ['id', 'global_id', 'author', 'start_date_details', 'utc_start_date', 'timezone_abbr', 'cost_details', 'venue', 'organizer', 'categories', 'tags', 'image', 'custom_fields']) expect(ev, k).toHaveProperty(k);
    expect(JSON.stringify(ev.venue)).toContain('#/components/schemas/Venue');
    expect(ev.organizer).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/Organizer' } });
    expect(JSON.stringify(ev.start_date_details)).toContain('#/components/schemas/DateDetails');
    expect(JSON.stringify(ev.cost_details)).toContain('#/components/schemas/CostDetails');
  });

  // The reference's document says "array of Term", but terms embedded in events have their own
  // shape (term_group, term_taxonomy_id, filter; no url or meta). Almanac documents what it sends.
  it('schemas: Event categories and tags are arrays of embedded terms with the term keys clients read', () => {
    const s = doc.components.schemas;
    const ev = s.Event.properties;
    expect(ev.categories).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/EmbeddedTerm' } });
    expect(ev.tags).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/EmbeddedTerm' } });
    expect(Object.keys(s.EmbeddedTerm.properties)).toEqual(expect.arrayContaining(['id', 'name', 'slug', 'taxonomy', 'description', 'parent', 'count', 'urls']));
  });

  it('schemas: Term, Image, CostDetails properties', () => {
    const s = doc.components.schemas;
    expect(Object.keys(s.Term.properties)).toEqual(expect.arrayContaining(['id', 'name', 'slug', 'taxonomy', 'description', 'parent', 'count', 'url', 'urls']));
    expect(Object.keys(s.Image.properties)).toEqual(expect.arrayContaining(['url', 'id', 'extension', 'width', 'height', 'sizes']));
    expect(s.CostDetails.properties.currency_position.enum).toEqual(expect.arrayContaining(['prefix', 'postfix']));
    expect(s.CostDetails.properties).toHaveProperty('currency_symbol');
    expect(s.CostDetails.properties).toHaveProperty('values');
  });

  it('writes document 503 (the calendar held by another process), reads do not', () => {
    expect(doc.paths['/events'].post.responses['503'].description).toMatch(/Retry-After/);
    expect(doc.paths['/events/{id}'].delete.responses).toHaveProperty('503');
    expect(doc.paths['/categories'].post.responses).toHaveProperty('503');
    expect(doc.paths['/events'].get.responses).not.toHaveProperty('503');
  });

  it('list responses describe an array of the item schema', () => {
    const schema = doc.paths['/events'].get.responses['200'].content['application/json'].schema;
    expect(JSON.stringify(schema)).toContain('#/components/schemas/Event');
    expect(JSON.stringify(doc.paths['/venues'].get.responses['200'])).toContain('#/components/schemas/Venue');
  });
});
