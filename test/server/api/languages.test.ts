/**
 * Languages (decisions "Where the API lives", "Languages"): the /{lang}/ roots, i18n_language,
 * per-language lists, reads across languages, translations, error messages in the request's
 * language with unchanged codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { expectError, expectInvalidParam, uniq } from './_support';

let t: TestServer;
const at = (root: string, m: 'get' | 'post' | 'put' | 'delete', path: string) =>
  request(t.server.url)[m](`${root}/cal/events/v1/${path}`).set('Authorization', `Bearer ${t.server.token}`);
const body = () => ({ title: uniq('Evento'), start_date: '2031-06-01 10:00', end_date: '2031-06-01 11:00' });
const Q = 'start_date=2031-01-01&end_date=2032-01-01';

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

describe('language of created records', () => {
  it('default en; the root prefix; i18n_language in the query; every prefix form', async () => {
    expect((await t.api('post', 'events').send(body())).body.i18n_language).toBe('en');
    expect((await at('/pt-br', 'post', 'events').send(body())).body.i18n_language).toBe('pt-br');
    expect((await at('/es/wp-json', 'post', 'venues').send({ venue: uniq('Lugar') })).body.i18n_language).toBe('es');
    expect((await t.api('post', 'events?i18n_language=es').send(body())).body.i18n_language).toBe('es');
    expect((await at('/pt-br', 'post', 'tags?i18n_language=es').send({ name: uniq('etiqueta') })).body.i18n_language).toBe('es');
  });

  it('links are built from the root the request came in on', async () => {
    const res = await at('/pt-br/wp-json', 'post', 'events').send(body());
    expect(res.body.rest_url).toBe(`${t.server.url}/pt-br/wp-json/cal/events/v1/events/${res.body.id}`);
    const cat = await at('/es', 'post', 'categories').send({ name: uniq('Categoria') });
    expect(cat.body.urls.self).toBe(`${t.server.url}/es/cal/events/v1/categories/${cat.body.id}`);
    expect(cat.headers.location).toBe(`${t.server.url}/es/cal/events/v1/categories/${cat.body.id}`);
  });

  it('venues, organizers and terms created inside an event body belong to the request language', async () => {
    const cat = uniq('Nova Categoria');
    const res = await at('/pt-br', 'post', 'events').send({ ...body(), categories: [cat], venue: { venue: uniq('Casa Nova') }, organizer: [{ organizer: uniq('Grupo') }] });
    expect(res.status).toBe(201);
    expect(res.body.venue.i18n_language).toBe('pt-br');
    expect(res.body.organizer[0].i18n_language).toBe('pt-br');
    const ptCats = await at('/pt-br', 'get', 'categories?hide_empty=false&per_page=50');
    expect(ptCats.body.categories.map((c: { name: string }) => c.name)).toContain(cat);
    const enCats = await t.api('get', 'categories?hide_empty=false&per_page=50');
    expect(enCats.body.categories.map((c: { name: string }) => c.name)).not.toContain(cat);
  });

  it('an update through another language root does not move the record', async () => {
    const en = await t.api('post', 'events').send(body());
    const res = await at('/es', 'put', `events/${en.body.id}`).send({ title: 'Título' });
    expect([res.status, res.body.i18n_language]).toEqual([200, 'en']);
  });
});

describe('lists hold the request language only', () => {
  it('events', async () => {
    const en = await t.api('post', 'events').send(body());
    const pt = await at('/pt-br', 'post', 'events').send(body());
    const es = await at('/es', 'post', 'events').send(body());
    const idsOf = (res: request.Response) => res.body.events.map((e: { id: number }) => e.id);
    const enList = idsOf(await t.api('get', `events?${Q}&per_page=50`));
    expect(enList).toContain(en.body.id);
    expect(enList).not.toContain(pt.body.id);
    expect(enList).not.toContain(es.body.id);
    const ptList = idsOf(await at('/pt-br', 'get', `events?${Q}&per_page=50`));
    expect(ptList).toContain(pt.body.id);
    expect(ptList).not.toContain(en.body.id);
    const esByParam = idsOf(await at('/pt-br', 'get', `events?${Q}&per_page=50&i18n_language=es`));
    expect(esByParam).toContain(es.body.id);
    expect(esByParam).not.toContain(pt.body.id);
  });

  it('venues, organizers, categories, tags', async () => {
    const v = await at('/es', 'post', 'venues').send({ venue: uniq('Sala') });
    const o = await at('/es', 'post', 'organizers').send({ organizer: uniq('Org') });
    const c = await at('/es', 'post', 'categories').send({ name: uniq('Cat') });
    const tg = await at('/es', 'post', 'tags').send({ name: uniq('Tag') });
    const ids = (res: request.Response, key: string) => res.body[key].map((x: { id: number }) => x.id);
    expect(ids(await t.api('get', 'venues?per_page=50'), 'venues')).not.toContain(v.body.id);
    expect(ids(await at('/es', 'get', 'venues?per_page=50'), 'venues')).toContain(v.body.id);
    expect(ids(await t.api('get', 'organizers?per_page=50'), 'organizers')).not.toContain(o.body.id);
    expect(ids(await at('/es', 'get', 'organizers?per_page=50'), 'organizers')).toContain(o.body.id);
    expect(ids(await t.api('get', 'categories?hide_empty=false&per_page=50'), 'categories')).not.toContain(c.body.id);
    expect(ids(await at('/es', 'get', 'categories?hide_empty=false&per_page=50'), 'categories')).toContain(c.body.id);
    expect(ids(await at('/es', 'get', 'tags?hide_empty=false&per_page=50'), 'tags')).toContain(tg.body.id);
  });
});

describe('single reads find a record whatever its language', () => {
  it('by id and by slug, through any root', async () => {
    const pt = await at('/pt-br', 'post', 'events').send(body());
    expect((await t.api('get', `events/${pt.body.id}`)).status).toBe(200);
    expect((await at('/es', 'get', `events/by-slug/${pt.body.slug}`)).body.id).toBe(pt.body.id);
    const v = await at('/pt-br', 'post', 'venues').send({ venue: uniq('Casa') });
    expect((await t.api('get', `venues/${v.body.id}`)).status).toBe(200);
  });
});

describe('translations', () => {
  it('translation_of links a record to its translation, both ways', async () => {
    const en = await t.api('post', 'events').send(body());
    const pt = await at('/pt-br', 'post', 'events').send({ ...body(), translation_of: en.body.id });
    expect(pt.status).toBe(201);
    expect(pt.body.translations).toEqual({ en: en.body.id });
    expect((await t.api('get', `events/${en.body.id}`)).body.translations).toEqual({ 'pt-br': pt.body.id });
  });
});

describe('i18n_language validation and error messages', () => {
  it('an unknown code → 400 rest_invalid_param (reads and writes), nothing stored', async () => {
    expectInvalidParam(await t.api('get', 'events?i18n_language=xx'), 'i18n_language');
    const before = t.snapshot();
    expectInvalidParam(await t.api('post', 'events?i18n_language=fr').send(body()), 'i18n_language');
    expect(t.snapshot()).toEqual(before);
  });

  it('errors are worded in the request language; codes never change', async () => {
    const en = await t.api('get', 'events/999999');
    const pt = await at('/pt-br', 'get', 'events/999999');
    const es = await at('', 'get', 'events/999999?i18n_language=es');
    for (const res of [en, pt, es]) expectError(res, 404, 'rest-event-not-found');
    expect(pt.body.message).not.toBe(en.body.message);
    expect(es.body.message).not.toBe(en.body.message);
    expect(es.body.message).not.toBe(pt.body.message);
    expect(pt.body.message).toContain('999999');
    const missing = await at('/es', 'post', 'events').send({});
    expectError(missing, 400, 'rest_missing_callback_param');
    expect(missing.body.data.params).toEqual(['title', 'start_date', 'end_date']);
    expect(missing.body.message).not.toBe((await t.api('post', 'events').send({})).body.message);
  });

  it('an unknown language prefix is not a root', async () => {
    const res = await request(t.server.url).get('/fr/cal/events/v1/events').set('Authorization', `Bearer ${t.server.token}`);
    expectError(res, 404, 'rest_no_route');
  });
});
