/**
 * Pushing to a website (issue 26 item 4) through a recording proxy in front of a second real
 * Almanac: edits carry the whole event, new venues/organizers/terms go first and are linked by
 * id, deletes and trash go both ways, and a create whose answer was lost makes one event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { connect, startHere, hereEvent as findHere, listedEvents } from './_sites';
import { startProxy, type Proxy } from './_proxy';

let site: TestServer;
let here: TestServer;
let proxy: Proxy;
let siteId: number;
let calendar: number;
const made: Record<string, any> = {};

async function sync(allowError = false) {
  const [report] = await here.server.sync.syncSitesNow([siteId]);
  if (!allowError) expect(report.error, JSON.stringify(report)).toBeUndefined();
  return report;
}

const siteEvents = (status?: string) => listedEvents(site, status ? { status } : {});

async function hereEvent(title: string): Promise<Record<string, any>> {
  return (await findHere(here, calendar, title, { status: 'publish,draft,pending,private,future,trash' }))!;
}

/** Every field an update must carry: the original resets what is left out. */
const WHOLE = ['title', 'description', 'excerpt', 'status', 'date', 'start_date', 'end_date', 'all_day', 'timezone', 'cost', 'website', 'featured', 'sticky', 'show_map', 'show_map_link', 'hide_from_listings', 'organizer', 'categories', 'tags'];

beforeAll(async () => {
  site = await startTestServer({ syncIntervalMs: 0, syncDebounceMs: 0 });
  proxy = await startProxy(site.server.url);
  made.venue = (await site.api('post', 'venues').send({ venue: 'Pier 9', address: '9 Dock Rd' })).body;
  made.organizer = (await site.api('post', 'organizers').send({ organizer: 'Harbour Club' })).body;
  made.event = (
    await site.api('post', 'events').send({
      title: 'Regatta',
      status: 'draft',
      start_date: '2031-06-01 09:00:00',
      end_date: '2031-06-01 17:00:00',
      timezone: 'Europe/Lisbon',
      all_day: false,
      cost: '15€',
      website: 'https://regatta.example.org/',
      sticky: true,
      featured: true,
      show_map: true,
      venue: made.venue.id,
      organizer: [made.organizer.id],
      date: '2026-01-02 03:04:05',
    })
  ).body;
  here = await startHere();
  ({ siteId, calendarId: calendar } = await connect(here, site, { name: 'Harbour' }, proxy.url));
}, 60_000);

afterAll(async () => {
  await here?.close();
  await proxy?.close();
  await site?.close();
});

describe('an edit here', () => {
  it('reaches the site carrying the whole event, so nothing there is reset', async () => {
    const mine = await hereEvent('Regatta');
    proxy.clear();
    expect((await here.api('post', `events/${mine.id}`).send({ title: 'Regatta 2031', description: 'Bring a hat' })).status).toBe(200);
    const report = await sync();
    expect(report.sent.updated).toBe(1);
    const updates = proxy.sent.filter((s) => s.method === 'POST' && /\/events\/\d+$/.test(s.path));
    expect(updates).toHaveLength(1);
    for (const key of WHOLE) expect(updates[0].body, key).toHaveProperty(key);
    expect(updates[0].body.start_date).toBe('2031-06-01 09:00:00');
    expect(updates[0].body.timezone).toBe('Europe/Lisbon');
    // At most 3 requests to push one changed event (the site's copy and the update; the login's
    // proof is made once per round, before the push).
    expect(report.pushRequests).toBeLessThanOrEqual(3);
    expect(updates[0].body).not.toHaveProperty('venue', 0);
    const there = (await site.api('get', `events/${made.event.id}`)).body;
    expect(there).toMatchObject({ title: 'Regatta 2031', status: 'draft', timezone: 'Europe/Lisbon', sticky: true, featured: true, show_map: true, all_day: false, website: 'https://regatta.example.org/', date: '2026-01-02 03:04:05' });
    expect(there.cost).toBe('15€');
    expect(there.venue.id).toBe(made.venue.id);
    expect(there.organizer.map((o: any) => o.id)).toEqual([made.organizer.id]);
    expect(there.description).toContain('Bring a hat');
  });

  it('refuses to take the venue off an event of a site, where the user does it', async () => {
    const mine = await hereEvent('Regatta 2031');
    const res = await here.api('post', `events/${mine.id}`).send({ venue: 0 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('site-venue-unlink');
    expect(res.body.message).toContain('Harbour');
    expect((await hereEvent('Regatta 2031')).venue.id).toBeTruthy();
  });
});

describe('a change made on the site between our read and our write', () => {
  it('is not overwritten: the site refuses our write (If-Match, 412) and the two are merged', async () => {
    const mine = await hereEvent('Regatta 2031');
    expect((await here.api('post', `events/${mine.id}`).send({ excerpt: 'Short words here' })).status).toBe(200);
    let changed = false;
    proxy.before = async (r) => {
      if (changed || r.method !== 'POST' || !r.path.endsWith(`/events/${made.event.id}`)) return;
      changed = true;
      expect((await site.api('post', `events/${made.event.id}`).send({ cost: '18€' })).status).toBe(200);
    };
    proxy.clear();
    await sync();
    proxy.before = undefined;
    expect(changed).toBe(true);
    const writes = proxy.sent.filter((s) => s.method === 'POST' && s.path.endsWith(`/events/${made.event.id}`));
    expect(writes.map((w) => w.status)).toEqual([412, 200]);
    const there = (await site.api('get', `events/${made.event.id}`)).body;
    expect(there.cost).toBe('18€');
    expect(there.excerpt).toContain('Short words here');
  });
});

describe('a new event here', () => {
  it('goes with its new venue, organizer and terms, created on the site first and linked by id', async () => {
    const parent = (await here.api('post', 'categories').send({ name: 'Sports' })).body;
    const child = (await here.api('post', 'categories').send({ name: 'Sailing', parent: parent.id })).body;
    const res = await here.api('post', 'events').send({
      title: 'Night sail',
      calendar,
      start_date: '2031-06-02 21:00:00',
      end_date: '2031-06-02 23:00:00',
      timezone: 'Europe/Lisbon',
      venue: { venue: 'Lighthouse', address: '1 Cape' },
      organizer: [{ organizer: 'Night Crew', email: 'crew@example.org' }],
      categories: [child.id],
      tags: ['moonlight'],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    proxy.clear();
    const report = await sync();
    expect(report.sent.created).toBe(6);
    const order = proxy.sent.filter((s) => s.method === 'POST').map((s) => s.path.replace(/^.*\/v1\//, ''));
    expect(order).toEqual(['venues', 'organizers', 'categories', 'categories', 'tags', 'events']);
    const there = (await siteEvents()).find((e) => e.title === 'Night sail')!;
    expect(there.venue.venue).toBe('Lighthouse');
    expect(there.organizer[0].email).toBe('crew@example.org');
    expect(there.categories[0].name).toBe('Sailing');
    const cats = (await site.api('get', 'categories').query({ hide_empty: false })).body.categories;
    expect(cats.find((c: any) => c.name === 'Sailing').parent).toBe(cats.find((c: any) => c.name === 'Sports').id);
    expect(there.tags[0].name).toBe('moonlight');
    // Nothing more to send, nothing duplicated.
    const again = await sync();
    expect(again.sent).toEqual({ created: 0, updated: 0, deleted: 0 });
    expect((await site.api('get', 'venues')).body.venues.filter((v: any) => v.venue === 'Lighthouse')).toHaveLength(1);
  });

  it('an edit that sends the whole event back, terms included, still costs at most 3 requests', async () => {
    const mine = await hereEvent('Night sail');
    const res = await here.api('post', `events/${mine.id}`).send({ title: 'Night sail (full moon)', categories: mine.categories.map((c: any) => c.id), tags: mine.tags.map((t: any) => t.id), organizer: mine.organizer.map((o: any) => o.id), venue: mine.venue.id });
    expect(res.status).toBe(200);
    proxy.clear();
    const report = await sync();
    expect(report.sent).toEqual({ created: 0, updated: 1, deleted: 0 });
    expect(report.pushRequests).toBeLessThanOrEqual(3);
    expect(proxy.sent.filter((s) => s.method === 'POST').map((s) => s.path.replace(/^.*\/v1\//, '').replace(/\d+$/, 'N'))).toEqual(['events/N']);
  });

  it('adopts a term the site has already (term_exists) instead of failing', async () => {
    expect((await site.api('post', 'tags').send({ name: 'sunset' })).status).toBe(201);
    const res = await here.api('post', 'events').send({ title: 'Sunset sail', calendar, start_date: '2031-06-03 19:00:00', end_date: '2031-06-03 21:00:00', tags: ['Sunset'] });
    expect(res.status).toBe(201);
    await sync();
    const there = (await siteEvents()).find((e) => e.title === 'Sunset sail')!;
    expect(there.tags.map((t: any) => t.name)).toEqual(['sunset']);
    expect((await site.api('get', 'tags').query({ hide_empty: false, per_page: 50 })).body.tags.filter((t: any) => t.name.toLowerCase() === 'sunset')).toHaveLength(1);
  });

  it('whose create answer was lost is looked up, not sent twice: one event on the site', async () => {
    const res = await here.api('post', 'events').send({ title: 'Lost answer', calendar, start_date: '2031-06-04 10:00:00', end_date: '2031-06-04 11:00:00' });
    expect(res.status).toBe(201);
    proxy.fault({ kind: 'lose-answer', times: 1, match: (r) => r.method === 'POST' && r.path.endsWith('/events') });
    const failed = await sync(true);
    expect(failed.ok).toBe(false);
    expect((await siteEvents()).filter((e) => e.title === 'Lost answer')).toHaveLength(1);
    const report = await sync();
    expect(report.error).toBeUndefined();
    expect((await siteEvents()).filter((e) => e.title === 'Lost answer')).toHaveLength(1);
    expect(proxy.sent.filter((s) => s.method === 'POST' && s.path.endsWith('/events') && s.body?.title === 'Lost answer')).toHaveLength(1);
    expect(report.pending).toBe(0);
  });
});

describe('a venue, organizer or category changed here', () => {
  it('goes to the site\'s own record (queued by the change itself)', async () => {
    const venue = (await here.api('get', 'venues').query({ per_page: 50 })).body.venues.find((v: any) => v.venue === 'Pier 9');
    expect((await here.api('post', `venues/${venue.id}`).send({ phone: '555-0199', city: 'Porto' })).status).toBe(200);
    const organizer = (await here.api('get', 'organizers').query({ per_page: 50 })).body.organizers.find((o: any) => o.organizer === 'Harbour Club');
    expect((await here.api('post', `organizers/${organizer.id}`).send({ email: 'club@harbour.example' })).status).toBe(200);
    const sports = (await here.api('get', 'categories').query({ per_page: 50, hide_empty: false })).body.categories.find((c: any) => c.name === 'Sports');
    expect((await here.api('post', `categories/${sports.id}`).send({ name: 'Sport' })).status).toBe(200);
    const report = await sync();
    expect(report.sent.updated).toBe(3);
    expect((await site.api('get', `venues/${made.venue.id}`)).body).toMatchObject({ phone: '555-0199', city: 'Porto', venue: 'Pier 9' });
    expect((await site.api('get', `organizers/${made.organizer.id}`)).body.email).toBe('club@harbour.example');
    expect((await site.api('get', 'categories').query({ hide_empty: false })).body.categories.map((c: any) => c.name)).toContain('Sport');
    expect((await sync()).sent).toEqual({ created: 0, updated: 0, deleted: 0 });
  });
});

describe('a record the site refuses', () => {
  it('waits, told in words, while the rest goes', async () => {
    expect((await here.api('post', 'events').send({ title: 'At the refused venue', calendar, start_date: '2031-06-05 10:00:00', end_date: '2031-06-05 11:00:00', venue: { venue: 'Refused Hall' } })).status).toBe(201);
    expect((await here.api('post', 'events').send({ title: 'Goes anyway', calendar, start_date: '2031-06-05 12:00:00', end_date: '2031-06-05 13:00:00' })).status).toBe(201);
    proxy.fault({ kind: 'answer', times: 1, status: 400, headers: { 'Content-Type': 'application/json' }, body: '{"code":"rest_invalid_param","message":"Invalid venue.","data":{"status":400}}', match: (r) => r.method === 'POST' && r.path.endsWith('/venues') });
    const report = await sync();
    expect(report.ok).toBe(true);
    const titles = (await siteEvents()).map((e) => e.title);
    expect(titles).toContain('Goes anyway');
    expect(titles).not.toContain('At the refused venue');
    const state = (await here.api('get', 'sync')).body.sites[0];
    expect(state.pending).toBe(1);
    expect(state.last_error).toMatch(/refused "Refused Hall" \(HTTP 400: Invalid venue\.\)/);
  });
});

describe('deletes', () => {
  it('here go to the site\'s trash; there come here', async () => {
    const mine = await hereEvent('Sunset sail');
    expect((await here.api('delete', `events/${mine.id}`)).status).toBe(200);
    const gone = await hereEvent('Night sail (full moon)');
    expect((await here.api('delete', `events/${gone.id}`)).status).toBe(200);
    expect((await here.api('delete', `events/${gone.id}`).query({ force: true })).status).toBe(200);
    const report = await sync();
    expect(report.sent.deleted).toBe(2);
    const trash = (await siteEvents('trash')).map((e) => e.title);
    expect(trash).toEqual(expect.arrayContaining(['Sunset sail', 'Night sail (full moon)']));
    // The one deleted for good here does not come back from the site's trash.
    await sync();
    expect(await hereEvent('Night sail (full moon)')).toBeUndefined();
    // Trashed on the site: trashed here.
    const lost = (await siteEvents()).find((e) => e.title === 'Lost answer')!;
    expect((await site.api('delete', `events/${lost.id}`)).status).toBe(200);
    await sync();
    expect((await hereEvent('Lost answer')).status).toBe('trash');
  });
});
