/**
 * A client written only from the original's documentation, talking to the /wp-json/ root: it creates
 * a venue, an organizer, two categories and an event linking them, reads it by id and by slug,
 * updates it, lists it and trashes it, and checks the original's responses at every step (status
 * codes, key names and order of reference §7, value formats).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { Event, EventList, Organizer, Term, Venue } from '../../../shared/api/records';
import { startTestServer, type TestServer } from '../../helpers/server';
import { CATEGORY_KEYS, EMBEDDED_TERM_KEYS, EVENT_KEYS, ORGANIZER_KEYS, VENUE_KEYS, details, expectError, expectKeyOrder } from './_support';

let t: TestServer;
let base: string;
let origin: string;
const call = (m: 'get' | 'post' | 'put' | 'delete', path: string) => request(origin)[m](`/wp-json/cal/events/v1/${path}`).set('Authorization', `Bearer ${t.server.token}`);

beforeAll(async () => {
  t = await startTestServer();
  origin = t.server.url;
  base = `${origin}/wp-json/cal/events/v1/`;
});
afterAll(async () => {
  await t?.close();
});

describe('walkthrough of an original client', () => {
  const s: Record<string, any> = {};

  it('1. creates a venue', async () => {
    const res = await call('post', 'venues').send({
      venue: 'Town Hall', description: 'Historic hall on the square.', address: '1 Main St', city: 'Springfield', country: 'United States',
      state: 'IL', zip: '62701', phone: '+1 217 555 0100', website: 'http://townhall.example.org', stateprovince: 'IL',
    });
    expect(res.status).toBe(201);
    Venue.parse(res.body);
    expectKeyOrder(res.body, VENUE_KEYS, ['id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'venue', 'description', 'slug', 'address', 'city', 'country', 'state', 'zip', 'phone', 'website', 'stateprovince', 'show_map', 'show_map_link', 'global_id', 'global_id_lineage']);
    expect(res.body).toMatchObject({
      author: '1', status: 'publish', venue: 'Town Hall', description: '<p>Historic hall on the square.</p>', slug: 'town-hall',
      url: `${origin}/venue/town-hall/`, show_map: true, show_map_link: true, global_id: `localhost?id=${res.body.id}`, global_id_lineage: [`localhost?id=${res.body.id}`],
    });
    for (const k of ['excerpt', 'province', 'image']) expect(res.body).not.toHaveProperty(k);
    expect(res.body.date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    s.venue = res.body;
  });

  it('2. creates an organizer', async () => {
    const res = await call('post', 'organizers').send({ organizer: 'Arts Council', description: 'Local arts nonprofit.', phone: '555-0101', website: 'http://arts.example.org', email: 'info@arts.example.org' });
    expect(res.status).toBe(201);
    Organizer.parse(res.body);
    expectKeyOrder(res.body, ORGANIZER_KEYS, ['id', 'author', 'organizer', 'slug', 'phone', 'website', 'email', 'global_id', 'global_id_lineage']);
    expect(res.body).toMatchObject({ author: '1', organizer: 'Arts Council', slug: 'arts-council', url: `${origin}/organizer/arts-council/`, email: 'info@arts.example.org' });
    s.organizer = res.body;
  });

  it('3. creates two categories, the second under the first', async () => {
    const music = await call('post', 'categories').send({ name: 'Music', description: 'Concerts and recitals' });
    expect(music.status).toBe(201);
    Term.parse(music.body);
    expectKeyOrder(music.body, CATEGORY_KEYS, CATEGORY_KEYS);
    expect(music.headers.location).toBe(`${base}categories/${music.body.id}`);
    expect(music.body).toMatchObject({ name: 'Music', slug: 'music', parent: 0, count: 0, meta: [], urls: { self: `${base}categories/${music.body.id}`, collection: `${base}categories` } });
    const concerts = await call('post', 'categories').send({ name: 'Chamber', parent: music.body.id });
    expect(concerts.status).toBe(201);
    expect(concerts.body.urls.up).toBe(`${base}categories/${music.body.id}`);
    s.music = music.body;
    s.chamber = concerts.body;
  });

  it('4. creates an event linking them all (201, §7.1 shape)', async () => {
    const res = await call('post', 'events').send({
      title: 'Spring Concert',
      description: 'An evening of chamber music.',
      excerpt: 'Chamber music night',
      start_date: '2031-03-14 19:00:00',
      end_date: '2031-03-14 21:30:00',
      timezone: 'America/New_York',
      venue: s.venue.id,
      organizer: s.organizer.id,
      categories: [s.music.id, s.chamber.id],
      cost: '$23',
      website: 'http://example.com/concert-info',
    });
    expect(res.status).toBe(201);
    const ev = Event.parse(res.body);
    expectKeyOrder(res.body, EVENT_KEYS, EVENT_KEYS);
    expect(ev.json_ld).toBeUndefined();
    expect(res.body).toMatchObject({
      global_id: `localhost?id=${ev.id}`,
      global_id_lineage: [`localhost?id=${ev.id}`],
      author: '1',
      status: 'publish',
      url: `${origin}/event/spring-concert/`,
      rest_url: `${base}events/${ev.id}`,
      title: 'Spring Concert',
      description: '<p>An evening of chamber music.</p>',
      excerpt: '<p>Chamber music night</p>',
      slug: 'spring-concert',
      image: false,
      all_day: false,
      start_date: '2031-03-14 19:00:00',
      start_date_details: { year: '2031', month: '03', day: '14', hour: '19', minutes: '00', seconds: '00' },
      end_date: '2031-03-14 21:30:00',
      end_date_details: { year: '2031', month: '03', day: '14', hour: '21', minutes: '30', seconds: '00' },
      utc_start_date: '2031-03-14 23:00:00',
      utc_start_date_details: { year: '2031', month: '03', day: '14', hour: '23', minutes: '00', seconds: '00' },
      utc_end_date: '2031-03-15 01:30:00',
      utc_end_date_details: { year: '2031', month: '03', day: '15', hour: '01', minutes: '30', seconds: '00' },
      timezone: 'America/New_York',
      timezone_abbr: 'EDT',
      cost: '$23',
      website: 'http://example.com/concert-info',
      show_map: false,
      show_map_link: false,
      hide_from_listings: false,
      sticky: false,
      featured: false,
      tags: [],
      custom_fields: [],
    });
    expect(res.body.cost_details).toMatchObject({ currency_symbol: '$', currency_position: 'prefix', values: ['23'] });
    // venue: the venue object (no json_ld); organizer: always a list.
    expect(Array.isArray(res.body.venue)).toBe(false);
    expect(res.body.venue).toEqual(s.venue);
    expect(res.body.organizer).toEqual([s.organizer]);
    // Embedded terms (§7.4b), in the order given.
    expect(res.body.categories.map((c: { id: number }) => c.id)).toEqual([s.music.id, s.chamber.id]);
    for (const c of res.body.categories) expectKeyOrder(c, EMBEDDED_TERM_KEYS, EMBEDDED_TERM_KEYS);
    expect(res.body.categories[0]).toMatchObject({ name: 'Music', slug: 'music', taxonomy: s.music.taxonomy, description: 'Concerts and recitals', term_group: 0, parent: 0, count: 1, filter: 'raw' });
    expect(res.body.categories[1]).toMatchObject({ name: 'Chamber', parent: s.music.id, urls: { up: `${base}categories/${s.music.id}` } });
    expect(typeof res.body.author).toBe('string');
    s.event = res.body;
  });

  it('5. reads it by id: the same event plus json_ld', async () => {
    const res = await call('get', `events/${s.event.id}`);
    expect(res.status).toBe(200);
    Event.parse(res.body);
    expectKeyOrder(res.body, [...EVENT_KEYS, 'json_ld'], [...EVENT_KEYS, 'json_ld']);
    const { json_ld, ...rest } = res.body;
    expect(rest).toEqual(s.event);
    expect(json_ld).toMatchObject({
      '@context': 'http://schema.org',
      '@type': 'Event',
      name: 'Spring Concert',
      startDate: '2031-03-14T19:00:00-04:00',
      endDate: '2031-03-14T21:30:00-04:00',
      location: { name: 'Town Hall' },
    });
    s.read = res.body;
  });

  it('6. reads it by slug: identical', async () => {
    const res = await call('get', 'events/by-slug/spring-concert');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(s.read);
  });

  it('7. updates it (PUT with a few fields): 200, the rest kept, UTC recomputed', async () => {
    const res = await call('put', `events/${s.event.id}`).send({ title: 'Spring Concert (moved)', start_date: '2031-03-15 19:00:00', end_date: '2031-03-15 21:30:00' });
    expect(res.status).toBe(200);
    Event.parse(res.body);
    expect(res.body.json_ld).toBeUndefined();
    expect(res.body).toMatchObject({
      id: s.event.id,
      title: 'Spring Concert (moved)',
      slug: 'spring-concert',
      start_date: '2031-03-15 19:00:00',
      utc_start_date: '2031-03-15 23:00:00',
      utc_end_date: '2031-03-16 01:30:00',
      utc_end_date_details: details('2031-03-16 01:30:00'),
      cost: '$23',
      website: 'http://example.com/concert-info',
    });
    expect(res.body.venue.id).toBe(s.venue.id);
    expect(res.body.organizer.map((o: { id: number }) => o.id)).toEqual([s.organizer.id]);
    expect(res.body.categories.map((c: { id: number }) => c.id)).toEqual([s.music.id, s.chamber.id]);
  });

  it('8. lists it, with the envelope and count headers', async () => {
    const plain = await call('post', 'events').send({ title: 'Plain Event', start_date: '2031-03-20 10:00:00', end_date: '2031-03-20 11:00:00' });
    expect(plain.status).toBe(201);
    expect(plain.body.venue).toEqual([]);
    expect(plain.body.organizer).toEqual([]);
    const res = await call('get', 'events?start_date=2031-03-01&end_date=2031-03-31');
    expect(res.status).toBe(200);
    EventList.parse(res.body);
    expect(Object.keys(res.body)).toEqual(['events', 'rest_url', 'total', 'total_pages']);
    expect(res.body.events.map((e: { id: number }) => e.id)).toEqual([s.event.id, plain.body.id]);
    expect([res.body.total, res.body.total_pages]).toEqual([2, 1]);
    expect(res.body.rest_url.startsWith(`${base}events/?`)).toBe(true);
    expect(new URL(res.body.rest_url).searchParams.get('start_date')).toBe('2031-03-01 00:00:00');
    expect(new URL(res.body.rest_url).searchParams.get('end_date')).toBe('2031-03-31 23:59:59');
    expect(res.headers['x-cal-total']).toBe('2');
    expect(res.headers['x-cal-totalpages']).toBe('1');
    expect(res.headers['x-wp-total']).toBe('2');
    expect(res.headers['x-wp-totalpages']).toBe('1');
    const listed = res.body.events[0];
    expect(listed).not.toHaveProperty('json_ld');
    expectKeyOrder(listed, EVENT_KEYS, EVENT_KEYS);
    expect(listed.venue).toEqual(s.venue);
  });

  it('9. trashes it: 200 with status trash; then 403 on read, 410 on delete, gone from the list', async () => {
    const res = await call('delete', `events/${s.event.id}`);
    expect(res.status).toBe(200);
    Event.parse(res.body);
    expect(res.body).toMatchObject({ id: s.event.id, status: 'trash', title: 'Spring Concert (moved)' });
    expectError(await call('get', `events/${s.event.id}`), 403, 'event-no-longer-available');
    expectError(await call('delete', `events/${s.event.id}`), 410, 'event-is-in-trash');
    const list = await call('get', 'events?start_date=2031-03-01&end_date=2031-03-31');
    expect(list.body.events.map((e: { id: number }) => e.id)).not.toContain(s.event.id);
    expect((await call('get', `categories/${s.music.id}`)).body.count).toBe(0);
  });
});
