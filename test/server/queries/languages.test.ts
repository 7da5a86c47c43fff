/**
 * Languages beyond test/server/api/languages.test.ts (decisions "Where the API lives",
 * "Languages"): i18n_language on every route and in bodies, which language wins, records that
 * belong to a language (duplicates and names per language), reads across languages, translations
 * of every kind (three-way groups, refusals, links made by update, links removed by deletion),
 * every kind of error worded in all three languages, and links built from the language roots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { at, expectError, expectInvalidParam, idsOf, uniq, type Res } from './_queries';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const LANGS = [['en', ''], ['pt-br', '/pt-br'], ['es', '/es/wp-json']] as const;
const evBody = () => ({ title: uniq('Evento'), start_date: '2031-06-01 10:00', end_date: '2031-06-01 11:00' });
const FAR = 'start_date=2031-01-01&end_date=2031-12-31&per_page=50';
type Kind = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';
const body: Record<Kind, () => Record<string, unknown>> = {
  events: evBody,
  venues: () => ({ venue: uniq('Lugar') }),
  organizers: () => ({ organizer: uniq('Grupo') }),
  categories: () => ({ name: uniq('Categoria') }),
  tags: () => ({ name: uniq('Etiqueta') }),
};
async function mk(root: string, kind: Kind, extra: Record<string, unknown> = {}) {
  const res = await at(t, root, 'post', kind).send({ ...body[kind](), ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
const listQ = (kind: Kind) => (kind === 'events' ? FAR : kind === 'categories' || kind === 'tags' ? 'hide_empty=false&per_page=50' : 'per_page=50');

describe('i18n_language on every route', () => {
  let ev: any, venue: any, org: any, cat: any, tag: any;
  beforeAll(async () => {
    ev = await mk('', 'events');
    venue = await mk('', 'venues');
    org = await mk('', 'organizers');
    cat = await mk('', 'categories');
    tag = await mk('', 'tags');
  });
  const reads = () => [
    '', 'doc', 'events', `events/${ev.id}`, `events/by-slug/${ev.slug}`, 'venues', `venues/${venue.id}`, `venues/by-slug/${venue.slug}`,
    'organizers', `organizers/${org.id}`, `organizers/by-slug/${org.slug}`, 'categories', `categories/${cat.id}`, 'tags', `tags/${tag.id}`, 'export',
  ];

  it('every GET accepts each language', async () => {
    for (const path of reads()) {
      for (const [lang] of LANGS) {
        const sep = path.includes('?') ? '&' : '?';
        const res = await t.api('get', `${path}${sep}i18n_language=${lang}`);
        expect(res.status, `${path} ${lang}`).toBe(200);
      }
    }
  });

  it('every GET refuses an unknown code with 400 naming i18n_language', async () => {
    for (const path of reads()) expectInvalidParam(await t.api('get', `${path}?i18n_language=fr`), 'i18n_language');
  });

  it('writes and deletes too, and a refused write stores nothing', async () => {
    const before = t.snapshot();
    const writes: Array<['post' | 'put' | 'patch' | 'delete', string]> = [
      ['post', 'events'], ['put', `events/${ev.id}`], ['patch', `events/by-slug/${ev.slug}`], ['delete', `events/${ev.id}`],
      ['post', 'venues'], ['post', `venues/${venue.id}`], ['delete', `venues/by-slug/${venue.slug}`],
      ['post', 'organizers'], ['put', `organizers/${org.id}`], ['delete', `organizers/${org.id}`],
      ['post', 'categories'], ['put', `categories/${cat.id}`], ['delete', `categories/${cat.id}`],
      ['post', 'tags'], ['patch', `tags/${tag.id}`], ['delete', `tags/${tag.id}`],
      ['post', 'import'],
    ];
    for (const [m, path] of writes) {
      const res = await t.api(m, `${path}?i18n_language=xx`).send(m === 'delete' ? undefined : { ...evBody(), venue: uniq('v'), organizer: uniq('o'), name: uniq('n') });
      expectInvalidParam(res, 'i18n_language');
    }
    expect(t.snapshot()).toEqual(before);
  });

  it.each(['', 'EN_US', 'pt', 'pt_BR', 'english'])('i18n_language=%j → 400', async (bad) => {
    expectInvalidParam(await t.api('get', `events?i18n_language=${encodeURIComponent(bad)}`), 'i18n_language');
  });

  it('a list of languages → 400', async () => {
    expectInvalidParam(await t.api('get', 'events?i18n_language[]=es'), 'i18n_language');
  });
});

describe('which language a request has', () => {
  it('the body may carry i18n_language (JSON and form)', async () => {
    const json = await t.api('post', 'events').send({ ...evBody(), i18n_language: 'es' });
    expect([json.status, json.body.i18n_language]).toEqual([201, 'es']);
    const form = await t.api('post', 'organizers').type('form').send({ organizer: uniq('Org'), i18n_language: 'pt-br' });
    expect([form.status, form.body.i18n_language]).toEqual([201, 'pt-br']);
  });

  it('an unknown code in the body → 400, nothing stored', async () => {
    const before = t.snapshot();
    expectInvalidParam(await t.api('post', 'venues').send({ venue: uniq('V'), i18n_language: 'de' }), 'i18n_language');
    expect(t.snapshot()).toEqual(before);
  });

  it('the query parameter wins over the root prefix for lists too', async () => {
    const es = await mk('/es', 'venues');
    const pt = await mk('/pt-br', 'venues');
    const got = idsOf(await at(t, '/pt-br', 'get', 'venues?per_page=50&i18n_language=es'), 'venues');
    expect(got).toContain(es.id);
    expect(got).not.toContain(pt.id);
  });

  it('/en/ is a root like the others', async () => {
    const res = await at(t, '/en', 'post', 'tags').send({ name: uniq('tag') });
    expect([res.status, res.body.i18n_language]).toEqual([201, 'en']);
    expect(res.body.urls.self).toBe(`${t.server.url}/en/cal/events/v1/tags/${res.body.id}`);
  });
});

describe('records belong to a language', () => {
  it.each<Kind>(['events', 'venues', 'organizers', 'categories', 'tags'])('%s: each language lists its own only', async (kind) => {
    const made = Object.fromEntries(await Promise.all(LANGS.map(async ([lang, root]) => [lang, (await mk(root, kind)).id])));
    for (const [lang, root] of LANGS) {
      const got = idsOf(await at(t, root, 'get', `${kind}?${listQ(kind)}`), kind);
      for (const [other] of LANGS) expect(got.includes(made[other]), `${lang} list, ${other} record`).toBe(other === lang);
    }
  });

  it('an identical venue or organizer in another language is a new record, not the existing one', async () => {
    const data = { venue: uniq('Teatro'), city: 'Lisboa' };
    const en = await mk('', 'venues', data);
    const pt = await mk('/pt-br', 'venues', data);
    expect(pt.id).not.toBe(en.id);
    expect(pt.i18n_language).toBe('pt-br');
    expect((await mk('/pt-br', 'venues', data)).id).toBe(pt.id);
    const o = { organizer: uniq('Coro') };
    expect((await mk('/es', 'organizers', o)).id).not.toBe((await mk('', 'organizers', o)).id);
  });

  it('the same category name may exist once per language', async () => {
    const name = uniq('Música');
    const en = await mk('', 'categories', { name });
    const es = await mk('/es', 'categories', { name });
    expect(es.id).not.toBe(en.id);
    expect(es.slug).not.toBe(en.slug);
    const again = await at(t, '/es', 'post', 'categories').send({ name });
    expectError(again, 400, 'term_exists');
    expect(again.body.data.term_id).toBe(es.id);
  });

  it('an event body naming a category links the one of its own language', async () => {
    const name = uniq('Teatro');
    const en = await mk('', 'categories', { name });
    const res = await at(t, '/pt-br', 'post', 'events').send({ ...evBody(), categories: [name] });
    expect(res.status).toBe(201);
    expect(res.body.categories).toHaveLength(1);
    expect(res.body.categories[0].id).not.toBe(en.id);
    expect(res.body.categories[0].name).toBe(name);
  });
});

describe('single reads, updates and deletes find a record whatever its language', () => {
  it.each<Kind>(['events', 'venues', 'organizers'])('%s by id and by slug, through every root', async (kind) => {
    const rec = await mk('/es', kind);
    for (const [, root] of LANGS) {
      expect((await at(t, root, 'get', `${kind}/${rec.id}`)).body.id).toBe(rec.id);
      expect((await at(t, root, 'get', `${kind}/by-slug/${rec.slug}`)).body.id).toBe(rec.id);
    }
    const upd = await at(t, '/pt-br', 'patch', `${kind}/by-slug/${rec.slug}`).send({ description: 'Atualizado' });
    expect([upd.status, upd.body.i18n_language]).toEqual([200, 'es']);
    const del = await at(t, '', 'delete', `${kind}/${rec.id}`);
    expect([del.status, del.body.status]).toEqual([200, 'trash']);
  });

  it.each<Kind>(['categories', 'tags'])('%s by id, through every root', async (kind) => {
    const rec = await mk('/pt-br', kind);
    for (const [, root] of LANGS) expect((await at(t, root, 'get', `${kind}/${rec.id}`)).body.id).toBe(rec.id);
    const upd = await at(t, '/es', 'put', `${kind}/${rec.id}`).send({ description: 'Actualizado' });
    expect([upd.status, upd.body.i18n_language]).toEqual([200, 'pt-br']);
    expect((await at(t, '', 'delete', `${kind}/${rec.id}`)).status).toBe(200);
  });
});

describe('translations', () => {
  it.each<Kind>(['venues', 'organizers', 'categories', 'tags'])('%s: translation_of links both records', async (kind) => {
    const en = await mk('', kind);
    const es = await mk('/es', kind, { translation_of: en.id });
    expect(es.translations).toEqual({ en: en.id });
    expect((await t.api('get', `${kind}/${en.id}`)).body.translations).toEqual({ es: es.id });
  });

  it.each<Kind>(['events', 'venues', 'organizers', 'categories', 'tags'])('%s: three languages, each lists the other two, in reads and in lists', async (kind) => {
    const en = await mk('', kind);
    const pt = await mk('/pt-br', kind, { translation_of: en.id });
    const es = await mk('/es', kind, { translation_of: pt.id });
    expect(es.translations).toEqual({ en: en.id, 'pt-br': pt.id });
    expect((await t.api('get', `${kind}/${en.id}`)).body.translations).toEqual({ 'pt-br': pt.id, es: es.id });
    expect((await at(t, '/pt-br', 'get', `${kind}/${pt.id}`)).body.translations).toEqual({ en: en.id, es: es.id });
    const listed = (await at(t, '/es', 'get', `${kind}?${listQ(kind)}`)).body[kind].find((x: { id: number }) => x.id === es.id);
    expect(listed.translations).toEqual({ en: en.id, 'pt-br': pt.id });
  });

  it.each<Kind>(['events', 'venues', 'organizers', 'categories', 'tags'])('%s: a second translation in the same language is refused, nothing stored', async (kind) => {
    const en = await mk('', kind);
    const pt = await mk('/pt-br', kind, { translation_of: en.id });
    const before = t.snapshot();
    expectInvalidParam(await at(t, '/pt-br', 'post', kind).send({ ...body[kind](), translation_of: en.id }), 'translation_of');
    expect(t.snapshot()).toEqual(before);
    expect((await t.api('get', `${kind}/${en.id}`)).body.translations).toEqual({ 'pt-br': pt.id });
  });

  it.each<Kind>(['events', 'venues', 'categories'])('%s: translation_of a record of the same language, of another kind, or of nothing → 400', async (kind) => {
    const en = await mk('', kind);
    const otherKind: Kind = kind === 'venues' ? 'organizers' : kind === 'categories' ? 'tags' : 'venues';
    const other = await mk('', otherKind);
    const before = t.snapshot();
    for (const target of [en.id, other.id, 999999]) {
      expectInvalidParam(await at(t, target === en.id ? '' : '/es', 'post', kind).send({ ...body[kind](), translation_of: target }), 'translation_of');
    }
    expect(t.snapshot()).toEqual(before);
  });

  it.each<Kind>(['events', 'venues', 'tags'])('%s: an update may link an existing record as a translation', async (kind) => {
    const en = await mk('', kind);
    const es = await mk('/es', kind);
    const res = await at(t, '/es', 'put', `${kind}/${es.id}`).send({ translation_of: en.id });
    expect([res.status, res.body.translations]).toEqual([200, { en: en.id }]);
    expect((await t.api('get', `${kind}/${en.id}`)).body.translations).toEqual({ es: es.id });
  });

  it('a record deleted for good leaves its translations', async () => {
    const en = await mk('', 'events');
    const es = await mk('/es', 'events', { translation_of: en.id });
    await t.api('delete', `events/${es.id}`);
    await t.api('delete', `events/${es.id}?force=true`);
    expect((await t.api('get', `events/${en.id}`)).body.translations).toEqual({});
    const cEn = await mk('', 'categories');
    const cPt = await mk('/pt-br', 'categories', { translation_of: cEn.id });
    await t.api('delete', `categories/${cPt.id}`);
    expect((await t.api('get', `categories/${cEn.id}`)).body.translations).toEqual({});
  });
});

describe('errors are worded in the request language, codes unchanged', () => {
  let venueId: number;
  let trashedEvent: number;
  let trashedVenue: number;
  let termName: string;
  beforeAll(async () => {
    venueId = (await mk('', 'venues')).id;
    trashedEvent = (await mk('', 'events')).id;
    await t.api('delete', `events/${trashedEvent}`);
    trashedVenue = (await mk('', 'venues')).id;
    await t.api('delete', `venues/${trashedVenue}`);
    termName = uniq('Dup');
    for (const [, root] of LANGS) await mk(root, 'tags', { name: termName });
  });

  const cases: Array<[string, number, string, () => [method: 'get' | 'post' | 'put' | 'delete', path: string, body?: Record<string, unknown>]]> = [
    ['no route', 404, 'rest_no_route', () => ['get', 'events/abc']],
    ['method not allowed', 404, 'rest_no_route', () => ['delete', 'events']],
    ['invalid parameter', 400, 'rest_invalid_param', () => ['get', 'events?per_page=0']],
    ['missing parameter', 400, 'rest_missing_callback_param', () => ['post', 'venues', {}]],
    ['event not found', 404, 'rest-event-not-found', () => ['get', 'events/999999']],
    ['not an event', 400, 'rest-invalid-event-id', () => ['get', `events/${venueId}`]],
    ['event trashed', 403, 'event-no-longer-available', () => ['get', `events/${trashedEvent}`]],
    ['event already trashed', 410, 'event-is-in-trash', () => ['delete', `events/${trashedEvent}`]],
    ['venue already trashed', 410, 'venue-is-in-trash', () => ['delete', `venues/${trashedVenue}`]],
    ['events page past the end', 404, 'event-archive-page-not-found', () => ['get', `events?${FAR}&page=99`]],
    ['venues page past the end', 404, 'venue-archive-page-not-found', () => ['get', 'venues?page=999']],
    ['organizers page past the end', 404, 'organizer-archive-page-not-found', () => ['get', 'organizers?page=999']],
    ['term exists', 400, 'term_exists', () => ['post', 'tags', { name: termName }]],
    ['linked post id', 400, 'invalid-linked-post-id', () => ['post', 'events', { ...evBody(), organizer: [{ id: venueId }] }]],
  ];

  const send = (root: string, [m, path, b]: ReturnType<(typeof cases)[number][3]>) => {
    const r = at(t, root, m, path);
    return b ? r.send(b) : r;
  };

  it.each(cases)('%s: same status and code, three different messages', async (_name, status, code, req) => {
    const res: Res[] = [];
    for (const [, root] of LANGS) res.push(await send(root, req()));
    for (const r of res) expectError(r, status, code);
    const [en, pt, es] = res.map((r) => r.body.message);
    expect(new Set([en, pt, es]).size, JSON.stringify([en, pt, es])).toBe(3);
    expect(res.map((r) => JSON.stringify(Object.keys(r.body.data).sort()))).toEqual(Array(3).fill(JSON.stringify(Object.keys(res[0].body.data).sort())));
  });

  it('the per-parameter messages of rest_invalid_param are worded too, under the same names', async () => {
    const res: Res[] = [];
    for (const [, root] of LANGS) res.push(await at(t, root, 'get', 'events?per_page=0&featured=maybe'));
    expect(res.map((r) => Object.keys(r.body.data.params).sort())).toEqual(Array(3).fill(['featured', 'per_page']));
    expect(new Set(res.map((r) => r.body.data.params.featured)).size).toBe(3);
    expect(new Set(res.map((r) => r.body.data.params.per_page)).size).toBe(3);
  });

  it('details messages too (ticketed), with the same code', async () => {
    const res: Res[] = [];
    for (const [, root] of LANGS) res.push(await at(t, root, 'get', 'events?ticketed=true'));
    expect(res.map((r) => r.body.data.details.ticketed.code)).toEqual(Array(3).fill('event-tickets-not-active'));
    expect(new Set(res.map((r) => r.body.data.details.ticketed.message)).size).toBe(3);
  });

  it('the i18n_language parameter picks the wording over the root', async () => {
    const viaRoot = await at(t, '/es', 'get', 'events/999999');
    const viaParam = await at(t, '/pt-br', 'get', 'events/999999?i18n_language=es');
    expect(viaParam.body.message).toBe(viaRoot.body.message);
    const noRoute = await at(t, '', 'get', 'events/abc?i18n_language=pt-br');
    expect(noRoute.body.message).toBe((await at(t, '/pt-br', 'get', 'events/abc')).body.message);
  });

  it('an unknown language is reported in the language of the root', async () => {
    const en = await at(t, '', 'get', 'events?i18n_language=xx');
    const es = await at(t, '/es', 'get', 'events?i18n_language=xx');
    expectInvalidParam(es, 'i18n_language');
    expect(es.body.message).not.toBe(en.body.message);
  });

  it('401 without the token is worded in the request language, by root or by parameter', async () => {
    const anon = (path: string) => request(t.server.url).get(path);
    const en = await anon('/cal/events/v1/events');
    const es = await anon('/es/cal/events/v1/events');
    const esParam = await anon('/cal/events/v1/events?i18n_language=es');
    for (const r of [en, es, esParam]) expectError(r, 401, 'rest_forbidden');
    expect(es.body.message).not.toBe(en.body.message);
    expect(esParam.body.message).toBe(es.body.message);
  });

  it('route matching comes before argument checks: an unknown route with a bad language is still rest_no_route', async () => {
    expectError(await t.api('get', 'no-such-route?i18n_language=xx'), 404, 'rest_no_route');
    expectError(await t.api('delete', 'events?i18n_language=xx'), 404, 'rest_no_route');
  });
});

describe('links follow the language root', () => {
  it('event list: rest_url of the list, of each event and of its embedded terms', async () => {
    const root = '/pt-br/wp-json';
    const base = `${t.server.url}${root}/cal/events/v1/`;
    const cat = await mk(root, 'categories');
    const ev = await mk(root, 'events', { categories: [cat.id] });
    const res = await at(t, root, 'get', `events?categories=${cat.id}&${FAR}`);
    expect(res.body.rest_url.startsWith(`${base}events/`)).toBe(true);
    expect(res.body.events[0].rest_url).toBe(`${base}events/${ev.id}`);
    expect(res.body.events[0].categories[0].urls.self).toBe(`${base}categories/${cat.id}`);
    expect(res.body.events[0].categories[0].urls.collection).toBe(`${base}categories`);
  });

  it('term list: rest_url and each term urls; venue list rest_url', async () => {
    const root = '/es';
    const base = `${t.server.url}${root}/cal/events/v1/`;
    const tag = await mk(root, 'tags');
    const res = await at(t, root, 'get', `tags?include=${tag.id}&hide_empty=false`);
    expect(res.body.rest_url).toBe(`${base}tags/`);
    expect(res.body.tags[0].urls).toEqual({ self: `${base}tags/${tag.id}`, collection: `${base}tags` });
    expect((await at(t, root, 'get', 'venues')).body.rest_url.startsWith(`${base}venues/`)).toBe(true);
  });

  it('namespace index and /doc', async () => {
    const root = '/pt-br/wp-json';
    const base = `${t.server.url}${root}/cal/events/v1`;
    const index = await at(t, root, 'get', '');
    expect(index.body.routes['/cal/events/v1/events']._links.self[0].href).toBe(`${base}/events`);
    expect((await at(t, root, 'get', 'doc')).body.servers[0].url).toBe(`${base}/`);
  });
});
