/**
 * Bad input on every write route: wrong types, empty strings, huge strings, NUL bytes, unknown ids,
 * bad dates, bad JSON, objects where strings belong. Each gets the right 4xx, and nothing in the
 * database changes: `snapshot()` (row counts and an event checksum) and a full dump of every table
 * are identical before and after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TABLES, type TestServer } from '../../helpers/server';
import { expectError, expectInvalidParam, expectJson, expectMissing, mkEvent, mkOrganizer, mkTerm, mkVenue, type Res } from './_support';

let t: TestServer;
let ev: { id: number; slug: string };
let venue: { id: number; slug: string };
let org: { id: number; slug: string };
let cat: { id: number; name: string };
let tag: { id: number; name: string };

beforeAll(async () => {
  t = await startTestServer();
  venue = await mkVenue(t, { address: '1 Main St' });
  org = await mkOrganizer(t, { email: 'a@example.org' });
  cat = await mkTerm(t, 'categories');
  tag = await mkTerm(t, 'tags');
  ev = await mkEvent(t, { venue: venue.id, organizer: [org.id], categories: [cat.id], tags: [tag.id], cost: '$5' });
});
afterAll(async () => {
  await t?.close();
});

/** Every row of every table, so a refused request provably changed nothing. */
function dump() {
  const out: Record<string, unknown> = { snapshot: t.snapshot() };
  for (const table of TABLES) out[table] = t.server.db.prepare(`SELECT * FROM ${table}`).all();
  return JSON.stringify(out);
}

async function refused(send: () => Promise<Res>, check: (res: Res) => void) {
  const before = dump();
  const snap = t.snapshot();
  const res = await send();
  check(res);
  expectJson(res);
  expect(t.snapshot()).toEqual(snap);
  expect(dump()).toBe(before);
}

const NUL = 'bad\u0000value';
const base = { title: 'Valid title', start_date: '2031-01-01 10:00', end_date: '2031-01-01 11:00' };

const eventFieldCases: Array<[string, unknown]> = [
  ['title', {}],
  ['title', []],
  ['title', ['a', 'b']],
  ['title', true],
  ['title', ''],
  ['title', NUL],
  ['start_date', {}],
  ['start_date', []],
  ['start_date', ''],
  ['start_date', 'the twelfth of never'],
  ['start_date', '2031-01-01\u000010:00'],
  ['end_date', { date: '2031-01-01' }],
  ['end_date', 'not-a-date'],
  ['description', {}],
  ['description', ['x']],
  ['description', NUL],
  ['excerpt', { x: 1 }],
  ['slug', {}],
  ['slug', ''],
  ['status', {}],
  ['status', 'bogus'],
  ['author', 'abc'],
  ['author', 23],
  ['author', -1],
  ['author', {}],
  ['date', 'nope'],
  ['date', {}],
  ['date_utc', []],
  ['timezone', []],
  ['timezone', 'Nowhere/Special'],
  ['timezone', {}],
  ['all_day', 'maybe'],
  ['all_day', {}],
  ['show_map', 'perhaps'],
  ['featured', []],
  ['sticky', { a: 1 }],
  ['hide_from_listings', 'sometimes'],
  ['cost', {}],
  ['cost', [{}]],
  ['cost', NUL],
  ['website', {}],
  ['website', 'not a url'],
  ['website', 'javascript:alert(1)'],
  ['image', {}],
  ['image', 'relative/path.jpg'],
  ['image', -5],
  ['image', 999999],
  ['categories', [999999]],
  ['categories', { a: 1 }],
  ['categories', [{}]],
  ['tags', [999999]],
  ['tags', [[]]],
  ['venue', 999999],
  ['venue', 'abc'],
  ['venue', { id: 999999 }],
  ['venue', { venue: 'Hall', website: 'bad url' }],
  ['venue', [999998, 999999]],
  ['venue', true],
  ['organizer', 'abc'],
  ['organizer', [999999]],
  ['organizer', [{ organizer: 'Org', website: 'bad url' }]],
  ['organizer', [[1]]],
];

describe('POST /events with a bad field', () => {
  it.each(eventFieldCases)('%s = %j → 400 rest_invalid_param, nothing stored', async (field, value) => {
    await refused(() => t.api('post', 'events').send({ ...base, [field]: value }), (res) => expectInvalidParam(res, field));
  });

  it('missing required fields → rest_missing_callback_param, nothing stored', async () => {
    await refused(() => t.api('post', 'events').send({ description: 'only this' }), (res) => expectMissing(res, ['title', 'start_date', 'end_date']));
  });

  it('a huge title (body over 1 MB) → 413, nothing stored', async () => {
    await refused(() => t.api('post', 'events').send({ ...base, title: 'x'.repeat(1_200_000) }), (res) => expect(res.status).toBe(413));
  });

  it('inline venue, organizer and new terms are not created when another field is bad', async () => {
    await refused(
      () =>
        t.api('post', 'events').send({
          ...base,
          venue: { venue: 'Never Created Hall', city: 'Nowhere' },
          organizer: [{ organizer: 'Never Created Org' }],
          categories: ['Never Created Category'],
          tags: ['Never Created Tag'],
          website: 'bad url',
        }),
      (res) => expectInvalidParam(res, 'website'),
    );
  });

  it('a valid inline venue and new category are rolled back when the organizer is bad', async () => {
    await refused(
      () =>
        t.api('post', 'events').send({
          ...base,
          venue: { venue: 'Rolled Back Hall' },
          categories: ['Rolled Back Category'],
          organizer: [{ organizer: 'Rolled Back Org' }, 999999],
        }),
      (res) => expectInvalidParam(res, 'organizer'),
    );
  });

  it('a new category name followed by an unknown category id is rolled back', async () => {
    await refused(() => t.api('post', 'events').send({ ...base, categories: ['Fresh Name', 999999] }), (res) => expectInvalidParam(res, 'categories'));
  });
});

describe('updating an event with a bad field changes nothing', () => {
  it.each(eventFieldCases)('%s = %j → 400', async (field, value) => {
    await refused(() => t.api('put', `events/${ev.id}`).send({ title: 'Changed title', [field]: value }), (res) => expectInvalidParam(res, field));
  });

  it('by slug, PATCH and POST too', async () => {
    await refused(() => t.api('patch', `events/by-slug/${ev.slug}`).send({ title: 'x', venue: 999999 }), (res) => expectInvalidParam(res, 'venue'));
    await refused(() => t.api('post', `events/${ev.id}`).send({ title: 'x', start_date: 'never' }), (res) => expectInvalidParam(res, 'start_date'));
  });

  it('unknown ids → 404 / 400, nothing changes', async () => {
    await refused(() => t.api('put', 'events/999999').send({ title: 'x' }), (res) => expectError(res, 404, 'rest-event-not-found'));
    await refused(() => t.api('put', `events/${venue.id}`).send({ title: 'x' }), (res) => expectError(res, 400, 'rest-invalid-event-id'));
    await refused(() => t.api('delete', 'events/999999'), (res) => expectError(res, 404, 'rest-event-not-found'));
    await refused(() => t.api('put', 'events/by-slug/no-such-slug').send({ title: 'x' }), (res) => expectInvalidParam(res, 'slug'));
  });
});

describe('venues and organizers', () => {
  const venueCases: Array<[string, unknown]> = [
    ['venue', {}],
    ['venue', ''],
    ['venue', NUL],
    ['venue', ['a']],
    ['address', {}],
    ['city', []],
    ['phone', NUL],
    ['website', 'not a url'],
    ['show_map', 'perhaps'],
    ['image', 'relative.jpg'],
    ['image', 999999],
    ['author', 99],
    ['status', 'bogus'],
    ['date', 'never'],
    ['description', {}],
  ];
  it.each(venueCases)('POST /venues %s = %j → 400', async (field, value) => {
    await refused(() => t.api('post', 'venues').send({ venue: 'Fine Name', [field]: value }), (res) => expectInvalidParam(res, field));
  });
  it.each(venueCases)('PUT /venues/{id} %s = %j → 400', async (field, value) => {
    await refused(() => t.api('put', `venues/${venue.id}`).send({ venue: 'Changed', [field]: value }), (res) => expectInvalidParam(res, field));
  });

  const orgCases: Array<[string, unknown]> = [
    ['organizer', {}],
    ['organizer', ''],
    ['organizer', NUL],
    ['phone', {}],
    ['website', 'nope'],
    ['email', {}],
    ['image', {}],
    ['author', 'abc'],
    ['status', []],
    ['date_utc', 'nope'],
  ];
  it.each(orgCases)('POST /organizers %s = %j → 400', async (field, value) => {
    await refused(() => t.api('post', 'organizers').send({ organizer: 'Fine Name', [field]: value }), (res) => expectInvalidParam(res, field));
  });
  it.each(orgCases)('PATCH /organizers/{id} %s = %j → 400', async (field, value) => {
    await refused(() => t.api('patch', `organizers/${org.id}`).send({ organizer: 'Changed', [field]: value }), (res) => expectInvalidParam(res, field));
  });

  it('names missing → rest_missing_callback_param', async () => {
    await refused(() => t.api('post', 'venues').send({ city: 'x' }), (res) => expectMissing(res, ['venue']));
    await refused(() => t.api('post', 'organizers').send({ phone: '1' }), (res) => expectMissing(res, ['organizer']));
  });

  it('ids that are not venues/organizers → 400; by unknown slug → 400', async () => {
    await refused(() => t.api('put', `venues/${org.id}`).send({ city: 'x' }), (res) => expectInvalidParam(res, 'id'));
    await refused(() => t.api('delete', `organizers/${venue.id}`), (res) => expectInvalidParam(res, 'id'));
    await refused(() => t.api('delete', 'venues/by-slug/nope-nope'), (res) => expectInvalidParam(res, 'slug'));
  });
});

describe('length errors say the limit (issue 27 §5.6)', () => {
  it('a 2,000-character venue name: the venue itself and a venue an event creates name the name field and its limit', async () => {
    const long = 'V'.repeat(2000);
    await refused(
      () => t.api('post', 'venues').send({ venue: long }),
      (res) => expect(res.body.data.params).toEqual({ venue: 'Is too long: at most 1000 characters.' }),
    );
    await refused(
      () => t.api('post', 'events').send({ ...base, venue: { venue: long, city: 'Lisboa' } }),
      (res) => {
        expectInvalidParam(res, 'venue');
        expect(res.body.data.details.venue.code).toBe('could-not-create-venue');
        expect(res.body.data.details.venue.data.params).toEqual({ venue: 'Is too long: at most 1000 characters.' });
      },
    );
    await refused(
      () => t.api('post', 'events').query({ i18n_language: 'pt-br' }).send({ ...base, venue: { venue: long } }),
      (res) => expect(res.body.data.details.venue.data.params).toEqual({ venue: 'É longo demais: no máximo 1000 caracteres.' }),
    );
  });

  it('a slug names its own limit, 200', async () => {
    await refused(
      () => t.api('post', 'events').query({ i18n_language: 'es' }).send({ ...base, slug: 's'.repeat(201) }),
      (res) => expect(res.body.data.params).toEqual({ slug: 'Es demasiado largo: como máximo 200 caracteres.' }),
    );
  });
});

describe('categories and tags', () => {
  const termCases: Array<[string, unknown]> = [
    ['name', {}],
    ['name', ''],
    ['name', NUL],
    ['name', ['a']],
    ['description', ''],
    ['description', {}],
    ['slug', ''],
    ['slug', []],
  ];
  it.each(termCases)('POST /tags %s = %j → 400', async (field, value) => {
    await refused(() => t.api('post', 'tags').send({ name: 'Fine', [field]: value }), (res) => expectInvalidParam(res, field));
  });
  it.each(termCases)('PUT /categories/{id} %s = %j → 400', async (field, value) => {
    await refused(() => t.api('put', `categories/${cat.id}`).send({ [field]: value }), (res) => expectInvalidParam(res, field));
  });
  it.each([[''], ['abc'], [999999], [-1], [{}]])('category parent %j → 400', async (parent) => {
    await refused(() => t.api('post', 'categories').send({ name: 'Child', parent }), (res) => expectInvalidParam(res, 'parent'));
  });
  it('a category cannot become its own parent', async () => {
    await refused(() => t.api('put', `categories/${cat.id}`).send({ parent: cat.id }), (res) => expectInvalidParam(res, 'parent'));
  });
  it('duplicate name → term_exists; missing name → missing', async () => {
    await refused(() => t.api('post', 'tags').send({ name: tag.name }), (res) => expectError(res, 400, 'term_exists'));
    await refused(() => t.api('post', 'categories').send({ description: 'x' }), (res) => expectMissing(res, ['name']));
  });
  it('ids of the other taxonomy or unknown → 400', async () => {
    await refused(() => t.api('delete', `categories/${tag.id}`), (res) => expectInvalidParam(res, 'id'));
    await refused(() => t.api('put', 'tags/999999').send({ name: 'x' }), (res) => expectInvalidParam(res, 'id'));
  });
});

describe('bad JSON and wrong content types', () => {
  it.each(['{"title": "x",}', "{'title': 'x'}", '{"title": NaN}', '{"title": "x"', 'title=x'])('%s → 400 rest_invalid_json', async (body) => {
    await refused(() => t.api('post', 'events').set('Content-Type', 'application/json').send(body), (res) => expectError(res, 400, 'rest_invalid_json'));
  });
  it('bad JSON on an update → 400, nothing changes', async () => {
    await refused(() => t.api('put', `events/${ev.id}`).set('Content-Type', 'application/json').send('{"title": '), (res) => expectError(res, 400, 'rest_invalid_json'));
  });
  it('text/plain → 415', async () => {
    await refused(() => t.api('post', 'categories').set('Content-Type', 'text/plain').send('{"name":"x"}'), (res) => expect(res.status).toBe(415));
  });
});
