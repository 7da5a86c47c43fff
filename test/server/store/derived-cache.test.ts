/**
 * Lists, searches and records' JSON are served from caches while the calendar is unchanged. These
 * check the promise that makes that safe: any change, by this server or by another connection to
 * the same file (a CLI import while the app runs), is seen by the very next request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openDatabase, closeDatabase, type DB } from '../../../electron/server/store/db';
import { startTestServer, type TestServer } from '../../helpers/server';

let t: TestServer;
let other: DB;
beforeAll(async () => {
  t = await startTestServer();
  other = openDatabase(join(t.dataDir, 'almanac.sqlite'));
});
afterAll(async () => {
  closeDatabase(other);
  await t?.close();
});

const make = async (title: string, start = '2031-05-10 10:00:00') => {
  const res = await t.api('post', 'events').send({ title, start_date: start, end_date: start.replace('10:00', '11:00') });
  expect(res.status).toBe(201);
  return res.body.id as number;
};
const list = async (query: string) => (await t.api('get', `events?start_date=2031-01-01&end_date=2031-12-31&${query}`)).body;

describe('cached lists and records follow every change', () => {
  it('a read after an update through the API shows the update', async () => {
    const id = await make('Choir rehearsal');
    expect((await t.api('get', `events/${id}`)).body.title).toBe('Choir rehearsal');
    await t.api('patch', `events/${id}`).send({ title: 'Choir concert' });
    expect((await t.api('get', `events/${id}`)).body.title).toBe('Choir concert');
    expect((await list('search=choir')).events.map((e: { title: string }) => e.title)).toContain('Choir concert');
  });

  it('a change made by another connection to the file is seen by the next list, search and read', async () => {
    const id = await make('Pottery workshop');
    const before = await list('search=pottery');
    expect([before.total, before.events[0].title]).toEqual([1, 'Pottery workshop']);
    expect((await t.api('get', `events/${id}`)).body.title).toBe('Pottery workshop');

    other.prepare("UPDATE events SET title = 'Pottery for beginners', content = 'Wheel and clay' WHERE id = ?").run(id);
    expect((await t.api('get', `events/${id}`)).body.title).toBe('Pottery for beginners');
    const after = await list('search=pottery');
    expect([after.total, after.events[0].title]).toEqual([1, 'Pottery for beginners']);

    other.prepare('UPDATE events SET status = ? WHERE id = ?').run('trash', id);
    expect((await list('search=pottery')).total ?? 0).toBe(0);
  });

  it('a search cached for one page pages correctly and grows when a match is added', async () => {
    for (let i = 0; i < 5; i++) await make(`Lantern walk ${i}`, `2031-06-0${i + 1} 10:00:00`);
    const first = await list('search=lantern&per_page=2');
    expect([first.total, first.total_pages, first.events.map((e: { title: string }) => e.title)]).toEqual([5, 3, ['Lantern walk 0', 'Lantern walk 1']]);
    expect((await list('search=lantern&per_page=2&page=3')).events.map((e: { title: string }) => e.title)).toEqual(['Lantern walk 4']);
    await make('Lantern walk early', '2031-05-31 10:00:00');
    const grown = await list('search=lantern&per_page=2');
    expect([grown.total, grown.events[0].title]).toEqual([6, 'Lantern walk early']);
  });

  it('a venue renamed is renamed inside the events that embed it', async () => {
    const venue = (await t.api('post', 'venues').send({ venue: 'Old Mill' })).body.id as number;
    const id = (await t.api('post', 'events').send({ title: 'Harvest fair', start_date: '2031-09-01 10:00:00', end_date: '2031-09-01 12:00:00', venue })).body.id;
    expect((await t.api('get', `events/${id}`)).body.venue.venue).toBe('Old Mill');
    expect((await t.api('get', 'venues')).body.venues.map((v: { venue: string }) => v.venue)).toContain('Old Mill');
    await t.api('patch', `venues/${venue}`).send({ venue: 'New Mill' });
    expect((await t.api('get', `events/${id}`)).body.venue.venue).toBe('New Mill');
    expect((await list('search=harvest')).events[0].venue.venue).toBe('New Mill');
    expect((await t.api('get', 'venues')).body.venues.map((v: { venue: string }) => v.venue)).toContain('New Mill');
  });

  it('the same record read on another address links to that address', async () => {
    const id = await make('Book swap');
    const viaIp = (await t.api('get', `events/${id}`)).body;
    const viaName = (await t.api('get', `events/${id}`).set('Host', `localhost:${new URL(t.server.url).port}`)).body;
    expect(viaIp.rest_url.startsWith(t.server.url)).toBe(true);
    expect(viaName.rest_url).toBe(`http://localhost:${new URL(t.server.url).port}/cal/events/v1/events/${id}`);
  });

  it('deep pages start where they should, among equal start times, and follow inserts by another connection', async () => {
    // Eleven events at the same hour and a few around them: pages of 3 split the tie several ways.
    for (let i = 0; i < 11; i++) await make(`Quiz night ${i}`, '2031-10-10 10:00:00');
    for (const day of ['09', '11', '12']) await make(`Quiz eve ${day}`, `2031-10-${day} 10:00:00`);
    const window = 'start_date=2031-10-01&end_date=2031-10-31&per_page=3';
    const page = async (n: number) => ((await t.api('get', `events?${window}&page=${n}`)).body.events ?? []).map((e: { id: number }) => e.id);
    const whole = (await t.api('get', `events?start_date=2031-10-01&end_date=2031-10-31&per_page=50`)).body.events.map((e: { id: number }) => e.id);
    expect(whole).toHaveLength(14);
    // Out of order, and again: each page from a remembered start or a new one.
    for (const n of [4, 5, 2, 3, 4, 1, 5, 3]) expect(await page(n), `page ${n}`).toEqual(whole.slice((n - 1) * 3, n * 3));

    const sneaked = other.prepare('SELECT id FROM events WHERE title = ?').pluck().get('Quiz eve 09') as number;
    other.prepare("UPDATE events SET start_local = '2031-10-10 10:00:00' WHERE id = ?").run(sneaked);
    const reordered = (await t.api('get', `events?start_date=2031-10-01&end_date=2031-10-31&per_page=50`)).body.events.map((e: { id: number }) => e.id);
    expect(reordered).not.toEqual(whole);
    for (const n of [4, 3, 5]) expect(await page(n), `page ${n} after the change`).toEqual(reordered.slice((n - 1) * 3, n * 3));
  });
});
