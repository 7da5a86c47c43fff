/**
 * The API answers without Express's router and writes JSON text itself, and lists splice their
 * records' cached JSON text into the envelope. These pin what that must not change: the bytes of
 * a body, HEAD, conditional requests, and a record changed between two lists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { createServer, silentLogger } from '../../../electron/server';
import { startTestServer, type TestServer } from '../../helpers/server';

let t: TestServer;
let id: number;
beforeAll(async () => {
  t = await startTestServer();
  const venue = (await t.api('post', 'venues').send({ venue: 'Riverside "Hall" \u2603' })).body.id;
  for (let i = 0; i < 3; i++) {
    const res = await t.api('post', 'events').send({ title: `Answer ${i} "quoted" \u00e9\u2028`, start_date: `2032-01-0${i + 1} 10:00:00`, end_date: `2032-01-0${i + 1} 11:00:00`, venue, categories: [`Genre ${i} \u00e9`], tags: ['late'] });
    id = res.body.id;
  }
});
afterAll(() => t?.close());

describe('JSON answers', () => {
  it('a list is one JSON document, in the key order and bytes JSON.stringify gives, with its byte length', async () => {
    for (const path of ['events?start_date=2032-01-01&end_date=2032-01-31', 'events?start_date=2032-01-01&end_date=2032-01-31&per_page=1&page=2', 'venues', 'events?start_date=2040-01-01&end_date=2040-01-31']) {
      const res = await t.api('get', path);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.text).toBe(JSON.stringify(JSON.parse(res.text)));
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
      const keys = Object.keys(res.body);
      expect(keys.slice(-2)).toEqual(['total', 'total_pages']);
      expect(keys[0]).toBe(path.split('?')[0]);
    }
  });

  it('answers from the caches are the answers built afresh, byte for byte', async () => {
    const paths = ['events?start_date=2032-01-01&end_date=2032-01-31', 'events?start_date=2032-01-01&end_date=2032-01-31&per_page=1&page=2', 'venues', `events/${id}`, 'categories', 'categories?per_page=1&page=2', 'tags'];
    const warm: string[] = [];
    for (const path of paths) {
      await t.api('get', path); // fills the caches
      warm.push((await t.api('get', path)).text);
    }
    // A second server on the same file has nothing cached: it builds every record again.
    const cold = await createServer({ dbPath: t.server.dbPath, port: 0, log: silentLogger, token: t.server.token });
    try {
      for (const [i, path] of paths.entries()) {
        const res = await request(cold.url).get(`/cal/events/v1/${path}`).set('Authorization', `Bearer ${cold.token}`);
        expect(res.text.replaceAll(cold.url, t.server.url), path).toBe(warm[i]);
      }
    } finally {
      await cold.close();
    }
  });

  it('a cached list page shows what another process wrote to the file since', async () => {
    const before = (await t.api('get', 'categories?hide_empty=false')).body;
    await t.api('get', 'categories?hide_empty=false');
    const other = await createServer({ dbPath: t.server.dbPath, port: 0, log: silentLogger, token: t.server.token });
    try {
      const made = await request(other.url).post('/cal/events/v1/categories').set('Authorization', `Bearer ${other.token}`).send({ name: 'Aardvark walks' });
      expect(made.status).toBe(201);
    } finally {
      await other.close();
    }
    const after = (await t.api('get', 'categories?hide_empty=false')).body;
    expect(after.total).toBe(before.total + 1);
    expect(after.categories[0].name).toBe('Aardvark walks');
  });

  it('HEAD has the headers of GET and no body', async () => {
    const get = await t.api('get', `events/${id}`);
    const head = await t.api('head' as 'get', `events/${id}`);
    expect(head.status).toBe(200);
    expect(head.text ?? '').toBe('');
    for (const h of ['content-type', 'content-length', 'x-content-type-options', 'referrer-policy']) expect(head.headers[h], h).toBe(get.headers[h]);
  });

  it('conditional requests are answered as Express answers them', async () => {
    expect((await t.api('get', `events/${id}`).set('If-None-Match', '*')).status).toBe(304);
    expect((await t.api('get', `events/${id}`).set('If-None-Match', '"abc"')).status).toBe(200);
  });

  it('a record changed through the API is changed in the next list, read and page', async () => {
    const list = async () => (await t.api('get', 'events?start_date=2032-01-01&end_date=2032-01-31')).body.events.map((e: { title: string }) => e.title);
    expect(await list()).toContain(`Answer 2 "quoted" \u00e9\u2028`);
    await t.api('patch', `events/${id}`).send({ title: 'Answer renamed' });
    expect(await list()).toContain('Answer renamed');
    expect((await t.api('get', `events/${id}`)).body.title).toBe('Answer renamed');
    expect((await t.api('get', 'events?start_date=2032-01-01&end_date=2032-01-31&per_page=1&page=3')).body.events[0].title).toBe('Answer renamed');
  });

  // Venues' and organizers' JSON outlives writes to events; these are the changes it must not outlive.
  describe('an event shows its venue and organizer as they are now', () => {
    const embedded = async (eventId: number) => {
      const read = (await t.api('get', `events/${eventId}`)).body;
      const listed = (await t.api('get', 'events?start_date=2033-05-01&end_date=2033-05-31')).body.events.find((e: { id: number }) => e.id === eventId);
      expect(listed.venue).toEqual(read.venue);
      expect(listed.organizer).toEqual(read.organizer);
      return read as { venue: Record<string, unknown>; organizer: Array<Record<string, unknown>> };
    };
    let eventId: number;
    let venueId: number;
    let organizerId: number;
    beforeAll(async () => {
      venueId = (await t.api('post', 'venues').send({ venue: 'Old Mill', city: 'Porto' })).body.id;
      organizerId = (await t.api('post', 'organizers').send({ organizer: 'Ana' })).body.id;
      eventId = (await t.api('post', 'events').send({ title: 'Mill night', start_date: '2033-05-02 20:00:00', end_date: '2033-05-02 22:00:00', venue: venueId, organizer: [organizerId] })).body.id;
    });

    it('after the venue or organizer is edited', async () => {
      expect((await embedded(eventId)).venue.city).toBe('Porto');
      await t.api('post', 'events').send({ title: 'Another', start_date: '2033-05-03 20:00:00', end_date: '2033-05-03 22:00:00', venue: venueId });
      await t.api('patch', `venues/${venueId}`).send({ city: 'Braga' });
      await t.api('patch', `organizers/${organizerId}`).send({ email: 'ana@example.com' });
      const now = await embedded(eventId);
      expect(now.venue.city).toBe('Braga');
      expect(now.organizer[0].email).toBe('ana@example.com');
    });

    it('after the venue gets an image or a translation', async () => {
      await embedded(eventId);
      await t.api('patch', `venues/${venueId}`).send({ image: 'https://example.com/mill.png' });
      expect((await embedded(eventId)).venue.image).toMatchObject({ url: 'https://example.com/mill.png' });
      const pt = await t.api('post', 'venues?i18n_language=pt-br').send({ venue: 'Moinho Velho', translation_of: venueId });
      expect(pt.status).toBe(201);
      expect((await embedded(eventId)).venue.translations).toEqual({ 'pt-br': pt.body.id });
    });

    it('after another process edits the venue', async () => {
      await embedded(eventId);
      const other = await createServer({ dbPath: t.server.dbPath, port: 0, log: silentLogger, token: t.server.token });
      try {
        const res = await request(other.url).patch(`/cal/events/v1/venues/${venueId}`).set('Authorization', `Bearer ${other.token}`).send({ city: 'Faro' });
        expect(res.status).toBe(200);
      } finally {
        await other.close();
      }
      expect((await embedded(eventId)).venue.city).toBe('Faro');
      expect((await t.api('get', `venues/${venueId}`)).body.city).toBe('Faro');
    });

    it('after the venue goes to the trash, the event shows none', async () => {
      await embedded(eventId);
      expect((await t.api('delete', `venues/${venueId}`)).status).toBe(200);
      const listed = (await t.api('get', 'venues')).body.venues.map((v: { id: number }) => v.id);
      expect(listed).not.toContain(venueId);
      await t.api('delete', `organizers/${organizerId}?force=true`);
      expect((await embedded(eventId)).organizer).toEqual([]);
    });
  });
});
