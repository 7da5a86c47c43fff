/**
 * A server started with --public-read: anonymous GETs behave as the original's anonymous reader
 * (published records only, reference §6), anonymous writes are 401; the token holder still sees all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { expectError, expectInvalidParam, mkEvent, mkOrganizer, mkTerm, mkVenue } from './_support';

let t: TestServer;
const made: Record<string, any> = {};
const Q = 'start_date=2031-01-01&end_date=2033-01-01';

beforeAll(async () => {
  t = await startTestServer({ publicRead: true });
  made.cat = await mkTerm(t, 'categories');
  for (const [i, status] of ['publish', 'draft', 'pending', 'private', 'future'].entries()) {
    made[status] = await mkEvent(t, { status, categories: [made.cat.id], start_date: `2031-04-0${i + 1} 10:00`, end_date: `2031-04-0${i + 1} 11:00` });
  }
  made.trashed = await mkEvent(t, { categories: [made.cat.id] });
  await t.api('delete', `events/${made.trashed.id}`);
  made.venue = await mkVenue(t);
  made.draftVenue = await mkVenue(t, { status: 'draft' });
  made.org = await mkOrganizer(t);
  made.draftOrg = await mkOrganizer(t, { status: 'draft' });
});
afterAll(async () => {
  await t?.close();
});

describe('anonymous reads', () => {
  it('the events list shows published events only', async () => {
    const res = await t.anon('get', `events?categories=${made.cat.id}&${Q}`);
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: { id: number }) => e.id)).toEqual([made.publish.id]);
    expect(res.body.total).toBe(1);
  });

  it('the token holder on the same server sees every status but trash', async () => {
    const res = await t.api('get', `events?categories=${made.cat.id}&${Q}`);
    expect(res.body.total).toBe(5);
  });

  it('status=publish is allowed; any other status → 400 (reference §6)', async () => {
    expect((await t.anon('get', `events?status=publish&${Q}`)).status).toBe(200);
    for (const s of ['draft', 'publish,draft', 'private', 'any']) expectInvalidParam(await t.anon('get', `events?status=${s}`), 'status');
    expectInvalidParam(await t.anon('get', 'venues?status=draft'), 'status');
  });

  it('a published event reads; a non-published one → 403 event-not-accessible; trashed → 403 event-no-longer-available', async () => {
    expect((await t.anon('get', `events/${made.publish.id}`)).status).toBe(200);
    for (const s of ['draft', 'pending', 'private', 'future']) {
      expectError(await t.anon('get', `events/${made[s].id}`), 403, 'event-not-accessible');
      expectError(await t.anon('get', `events/by-slug/${made[s].slug}`), 403, 'event-not-accessible');
    }
    expectError(await t.anon('get', `events/${made.trashed.id}`), 403, 'event-no-longer-available');
  });

  it('draft venues and organizers → 403 *-not-accessible, and are not listed', async () => {
    expectError(await t.anon('get', `venues/${made.draftVenue.id}`), 403, 'venue-not-accessible');
    expectError(await t.anon('get', `organizers/${made.draftOrg.id}`), 403, 'organizer-not-accessible');
    expect((await t.anon('get', `venues/${made.venue.id}`)).status).toBe(200);
    const v = await t.anon('get', 'venues?per_page=50');
    expect(v.body.venues.map((x: { id: number }) => x.id)).toEqual([made.venue.id]);
    const o = await t.anon('get', 'organizers?per_page=50');
    expect(o.body.organizers.map((x: { id: number }) => x.id)).toEqual([made.org.id]);
  });

  it('embedded venues of a published event stay visible; term counts are of published events', async () => {
    const c = await t.anon('get', `categories/${made.cat.id}`);
    expect(c.status).toBe(200);
    expect(c.body.count).toBe(1);
  });

  it('only_with_upcoming counts only published events for an anonymous reader', async () => {
    const v = await mkVenue(t);
    await mkEvent(t, { venue: v.id, status: 'draft', start_date: '2035-01-01', end_date: '2035-01-01' });
    const anon = await t.anon('get', 'venues?only_with_upcoming=true&per_page=50');
    expect(anon.body.venues.map((x: { id: number }) => x.id)).not.toContain(v.id);
    const owner = await t.api('get', 'venues?only_with_upcoming=true&per_page=50');
    expect(owner.body.venues.map((x: { id: number }) => x.id)).toContain(v.id);
  });

  it('the namespace index and /doc are public', async () => {
    expect((await t.anon('get', '')).status).toBe(200);
    expect((await t.anon('get', 'doc')).status).toBe(200);
  });
});

describe('anonymous writes', () => {
  it('every write route → 401 rest_forbidden, nothing changes', async () => {
    const before = t.snapshot();
    const writes: Array<['post' | 'put' | 'patch' | 'delete', string]> = [
      ['post', 'events'], ['put', `events/${made.publish.id}`], ['patch', `events/by-slug/${made.publish.slug}`], ['delete', `events/${made.publish.id}`],
      ['post', 'venues'], ['post', `venues/${made.venue.id}`], ['delete', `venues/${made.venue.id}`],
      ['post', 'organizers'], ['put', `organizers/${made.org.id}`], ['delete', `organizers/by-slug/${made.org.slug}`],
      ['post', 'categories'], ['put', `categories/${made.cat.id}`], ['delete', `categories/${made.cat.id}`],
      ['post', 'tags'],
    ];
    for (const [m, path] of writes) {
      const res = await t.anon(m, path).send(m === 'delete' ? undefined : { title: 'x', start_date: '2031-01-01', end_date: '2031-01-01', name: 'x', venue: 'x', organizer: 'x' });
      expectError(res, 401, 'rest_forbidden');
    }
    expect(t.snapshot()).toEqual(before);
  });
});
