/**
 * Geolocation (Almanac builds in what the original leaves to its pro add-on): venue coordinates
 * (geo_lat/geo_lng accepted on create and update, returned when set), `geoloc=true`, and
 * `geoloc_lat` + `geoloc_lng` (+ `geoloc_radius`, default 10 km, great-circle distance) that keep
 * the events around a point, nearest first.
 *
 * Lisbon, Sintra (~23 km away), Porto (~274 km) and Madrid (~502 km). Events start in the
 * opposite order of their distance from Lisbon, so an answer in start order is visibly wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { expectError, expectInvalidParam, follow, idsOf, km, mkEvent, mkVenue, queryOf, uniq } from './_queries';

const LISBON: [number, number] = [38.7223, -9.1393];
const PORTO: [number, number] = [41.1579, -8.6291];
const SINTRA: [number, number] = [38.8029, -9.3817];
const MADRID: [number, number] = [40.4168, -3.7038];
const W = 'start_date=2031-06-01&end_date=2031-06-30';
const W2 = 'start_date=2031-07-01&end_date=2031-07-31';

let t: TestServer;
const v: Record<string, any> = {};
const e: Record<string, number> = {};
const geo = (p: [number, number]) => ({ geo_lat: p[0], geo_lng: p[1] });
const on = (day: number, extra: Record<string, unknown>) =>
  mkEvent(t, { start_date: `2031-06-0${day} 10:00:00`, end_date: `2031-06-0${day} 11:00:00`, ...extra }).then((x) => x.id as number);

beforeAll(async () => {
  t = await startTestServer();
  t.server.store.settings.update({ timezone: 'Europe/Lisbon' });
  v.lisbon = await mkVenue(t, { venue: uniq('Lisbon'), ...geo(LISBON) });
  v.porto = await mkVenue(t, { venue: uniq('Porto'), ...geo(PORTO) });
  v.sintra = await mkVenue(t, { venue: uniq('Sintra'), ...geo(SINTRA) });
  v.madrid = await mkVenue(t, { venue: uniq('Madrid'), ...geo(MADRID) });
  v.nowhere = await mkVenue(t, { venue: uniq('Nowhere'), city: 'Lisbon' });
  e.madrid = await on(1, { venue: v.madrid.id });
  e.porto = await on(2, { venue: v.porto.id });
  e.sintra = await on(3, { venue: v.sintra.id });
  e.lisbon = await on(4, { venue: v.lisbon.id });
  e.lisbon2 = await on(5, { venue: v.lisbon.id });
  e.noGeo = await on(6, { venue: v.nowhere.id });
  e.noVenue = await on(7, {});
});
afterAll(async () => {
  await t?.close();
});

const list = (q: string) => t.api('get', `events?${W}&per_page=50&${q}`);
const ids = async (q: string) => idsOf(await list(q));
const near = (p: [number, number], extra = '') => `geoloc_lat=${p[0]}&geoloc_lng=${p[1]}${extra}`;

describe('venue coordinates', () => {
  it('are returned on create, on read, in lists and in events, as numbers', async () => {
    expect([v.lisbon.geo_lat, v.lisbon.geo_lng]).toEqual(LISBON);
    const read = await t.api('get', `venues/${v.lisbon.id}`);
    expect([read.body.geo_lat, read.body.geo_lng]).toEqual(LISBON);
    const listed = (await t.api('get', `venues?search=${encodeURIComponent(v.porto.venue)}`)).body.venues[0];
    expect([listed.geo_lat, listed.geo_lng]).toEqual(PORTO);
    const ev = await t.api('get', `events/${e.sintra}`);
    expect([ev.body.venue.geo_lat, ev.body.venue.geo_lng]).toEqual(SINTRA);
  });

  it('are left out when not set', async () => {
    expect(v.nowhere).not.toHaveProperty('geo_lat');
    expect(v.nowhere).not.toHaveProperty('geo_lng');
  });

  it('numeric strings are accepted; 0,0 is a real place and is returned', async () => {
    const s = await mkVenue(t, { geo_lat: '38.5', geo_lng: '-9.25' });
    expect([s.geo_lat, s.geo_lng]).toEqual([38.5, -9.25]);
    const zero = await mkVenue(t, { geo_lat: 0, geo_lng: 0 });
    expect([zero.geo_lat, zero.geo_lng]).toEqual([0, 0]);
  });

  it('an update changes them; "" clears them', async () => {
    const x = await mkVenue(t, geo(LISBON));
    const moved = await t.api('put', `venues/${x.id}`).send(geo(PORTO));
    expect([moved.status, moved.body.geo_lat, moved.body.geo_lng]).toEqual([200, ...PORTO]);
    const kept = await t.api('put', `venues/${x.id}`).send({ city: 'Porto' });
    expect([kept.body.geo_lat, kept.body.geo_lng]).toEqual(PORTO);
    const cleared = await t.api('put', `venues/${x.id}`).send({ geo_lat: '', geo_lng: '' });
    expect(cleared.status).toBe(200);
    expect(cleared.body).not.toHaveProperty('geo_lat');
    expect(cleared.body).not.toHaveProperty('geo_lng');
  });

  it.each([
    ['geo_lat', 91], ['geo_lat', -90.5], ['geo_lat', 'north'], ['geo_lat', '12abc'],
    ['geo_lng', 180.5], ['geo_lng', -181], ['geo_lng', 'west'],
  ])('%s = %j → 400 on create and update, nothing stored', async (field, value) => {
    const before = t.snapshot();
    expectInvalidParam(await t.api('post', 'venues').send({ venue: uniq('Bad geo'), [field]: value }), field);
    expectInvalidParam(await t.api('put', `venues/${v.nowhere.id}`).send({ [field]: value }), field);
    expect(t.snapshot()).toEqual(before);
  });
});

describe('geoloc=true', () => {
  it('keeps the events whose venue has coordinates, in start order', async () => {
    expect(await ids('geoloc=true')).toEqual([e.madrid, e.porto, e.sintra, e.lisbon, e.lisbon2]);
    expect(await ids('geoloc=1')).toEqual([e.madrid, e.porto, e.sintra, e.lisbon, e.lisbon2]);
  });

  it('false or absent: no geolocation filter', async () => {
    const all = [e.madrid, e.porto, e.sintra, e.lisbon, e.lisbon2, e.noGeo, e.noVenue];
    expect(await ids('geoloc=false')).toEqual(all);
    expect(await ids('')).toEqual(all);
  });

  it('is echoed', async () => {
    expect(queryOf((await list('geoloc=true')).body.rest_url)).toHaveProperty('geoloc');
  });
});

describe('geoloc_lat + geoloc_lng: within the radius, nearest first', () => {
  it('default radius 10 km: only Lisbon (Sintra is ~23 km away)', async () => {
    expect(km(LISBON, SINTRA)).toBeGreaterThan(20);
    expect(await ids(near(LISBON))).toEqual([e.lisbon, e.lisbon2]);
  });

  it('30 km: Lisbon, then Sintra, although Sintra starts first', async () => {
    expect(await ids(near(LISBON, '&geoloc_radius=30'))).toEqual([e.lisbon, e.lisbon2, e.sintra]);
  });

  it('300 km: Lisbon, Sintra, Porto; 600 km adds Madrid', async () => {
    expect(await ids(near(LISBON, '&geoloc_radius=300'))).toEqual([e.lisbon, e.lisbon2, e.sintra, e.porto]);
    expect(await ids(near(LISBON, '&geoloc_radius=600'))).toEqual([e.lisbon, e.lisbon2, e.sintra, e.porto, e.madrid]);
  });

  it('from Porto: Sintra (~270 km) comes before Lisbon (~274 km), Madrid (~423 km) last', async () => {
    expect(km(PORTO, SINTRA)).toBeLessThan(km(PORTO, LISBON));
    expect(await ids(near(PORTO, '&geoloc_radius=273'))).toEqual([e.porto, e.sintra]);
    expect(await ids(near(PORTO, '&geoloc_radius=450'))).toEqual([e.porto, e.sintra, e.lisbon, e.lisbon2, e.madrid]);
  });

  it('the radius is a great-circle distance: half a kilometre either side of Sintra', async () => {
    const d = km(LISBON, SINTRA);
    expect(await ids(near(LISBON, `&geoloc_radius=${(d - 0.5).toFixed(2)}`))).toEqual([e.lisbon, e.lisbon2]);
    expect(await ids(near(LISBON, `&geoloc_radius=${(d + 0.5).toFixed(2)}`))).toEqual([e.lisbon, e.lisbon2, e.sintra]);
  });

  it('radius 0 keeps venues exactly at the point', async () => {
    expect(await ids(near(PORTO, '&geoloc_radius=0'))).toEqual([e.porto]);
  });

  it('an empty answer when no venue is near (mid-Atlantic)', async () => {
    const res = await list(near([35, -40], '&geoloc_radius=500'));
    expect([res.status, res.body.events, res.body.total]).toEqual([200, [], 0]);
  });

  it('the same with geoloc=true', async () => {
    expect(await ids(`geoloc=true&${near(LISBON, '&geoloc_radius=30')}`)).toEqual([e.lisbon, e.lisbon2, e.sintra]);
  });

  it('combines with the other filters', async () => {
    expect(await ids(`${near(LISBON, '&geoloc_radius=300')}&venue=${v.porto.id},${v.sintra.id}`)).toEqual([e.sintra, e.porto]);
    expect(await ids(`${near(LISBON, '&geoloc_radius=300')}&search=${encodeURIComponent('no such words')}`)).toEqual([]);
  });

  it('pages in distance order, with totals and links that keep the point and the radius', async () => {
    const p1 = await t.api('get', `events?${W}&per_page=2&${near(LISBON, '&geoloc_radius=300')}`);
    expect(idsOf(p1)).toEqual([e.lisbon, e.lisbon2]);
    expect([p1.body.total, p1.body.total_pages]).toEqual([4, 2]);
    expect(queryOf(p1.body.rest_url)).toMatchObject({ geoloc_lat: String(LISBON[0]), geoloc_lng: String(LISBON[1]), geoloc_radius: '300' });
    const p2 = await follow(t, p1.body.next_rest_url);
    expect(idsOf(p2)).toEqual([e.sintra, e.porto]);
  });

  it('follows a venue that moves or loses its coordinates', async () => {
    const x = await mkVenue(t, { venue: uniq('Mobile') });
    const ev = (await mkEvent(t, { venue: x.id, start_date: '2031-07-02 10:00', end_date: '2031-07-02 11:00' })).id;
    const q = () => t.api('get', `events?${W2}&${near(LISBON)}`);
    expect(idsOf(await q())).toEqual([]);
    await t.api('put', `venues/${x.id}`).send(geo([38.72, -9.14]));
    expect(idsOf(await q())).toEqual([ev]);
    await t.api('put', `venues/${x.id}`).send(geo(PORTO));
    expect(idsOf(await q())).toEqual([]);
  });

  it('across the antimeridian (±180°) the distance is still the short way round', async () => {
    const east = await mkVenue(t, { geo_lat: 0, geo_lng: 179.95 });
    const ev = (await mkEvent(t, { venue: east.id, start_date: '2031-07-03 10:00', end_date: '2031-07-03 11:00' })).id;
    expect(idsOf(await t.api('get', `events?${W2}&geoloc_lat=0&geoloc_lng=-179.95&geoloc_radius=20`))).toEqual([ev]);
    expect(idsOf(await t.api('get', `events?${W2}&geoloc_lat=0&geoloc_lng=-179.95&geoloc_radius=5`))).toEqual([]);
  });

  it('near a pole every longitude is close', async () => {
    const north = await mkVenue(t, { geo_lat: 89.95, geo_lng: 0 });
    const ev = (await mkEvent(t, { venue: north.id, start_date: '2031-07-04 10:00', end_date: '2031-07-04 11:00' })).id;
    expect(km([89.95, 0], [89.95, 180])).toBeLessThan(12);
    expect(idsOf(await t.api('get', `events?${W2}&geoloc_lat=89.95&geoloc_lng=180&geoloc_radius=15`))).toEqual([ev]);
  });
});

describe('invalid geolocation parameters → 400 rest_invalid_param', () => {
  const named = (res: Awaited<ReturnType<typeof list>>, names: string[]) => {
    expectError(res, 400, 'rest_invalid_param');
    expect(Object.keys(res.body.data.params).some((k) => names.includes(k)), JSON.stringify(res.body.data.params)).toBe(true);
  };

  it('geoloc_lat without geoloc_lng, and the other way round', async () => {
    named(await list(`geoloc_lat=${LISBON[0]}`), ['geoloc_lat', 'geoloc_lng']);
    named(await list(`geoloc_lng=${LISBON[1]}`), ['geoloc_lat', 'geoloc_lng']);
    named(await list(`geoloc=true&geoloc_lat=${LISBON[0]}`), ['geoloc_lat', 'geoloc_lng']);
  });

  it.each([
    ['geoloc_lat', `geoloc_lat=91&geoloc_lng=0`],
    ['geoloc_lat', `geoloc_lat=-90.01&geoloc_lng=0`],
    ['geoloc_lat', `geoloc_lat=north&geoloc_lng=0`],
    ['geoloc_lat', `geoloc_lat=&geoloc_lng=0`],
    ['geoloc_lng', `geoloc_lat=0&geoloc_lng=181`],
    ['geoloc_lng', `geoloc_lat=0&geoloc_lng=west`],
    ['geoloc_lng', `geoloc_lat=0&geoloc_lng=`],
    ['geoloc_radius', `${near(LISBON)}&geoloc_radius=-1`],
    ['geoloc_radius', `${near(LISBON)}&geoloc_radius=far`],
    ['geoloc_radius', `${near(LISBON)}&geoloc_radius=`],
    ['geoloc', 'geoloc=maybe'],
  ])('%s: %s', async (param, q) => {
    expectInvalidParam(await list(q), param);
  });
});
