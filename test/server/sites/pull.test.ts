/**
 * Pulling a website (issue 26 item 3) from a second real Almanac: all five kinds, drafts, past
 * events, hidden-from-listings and trashed ones; existing venues/organizers/terms linked, not
 * duplicated; a second pull with nothing changed changes nothing; changes, trash and deletes there
 * arrive.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, pairOf, startHere, FULL, type SitePair } from './_sites';
import { startTestServer } from '../../helpers/server';

let p: SitePair;
const made: Record<string, any> = {};

beforeAll(async () => {
  const site = await startTestServer({ syncIntervalMs: 0, syncDebounceMs: 0 });
  const post = async (path: string, body: Record<string, unknown>) => {
    const res = await site.api('post', path).send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  made.parent = await post('categories', { name: 'Music & Arts' });
  made.child = await post('categories', { name: 'Jazz', parent: made.parent.id });
  made.empty = await post('categories', { name: 'Unused' });
  made.tag = await post('tags', { name: 'outdoor' });
  made.venue = await post('venues', { venue: 'Town Hall', address: '1 Main St', city: 'Springfield' });
  made.organizer = await post('organizers', { organizer: 'Friends of Jazz', email: 'jazz@example.org' });
  made.published = await post('events', {
    title: "Tom & Jerry's show",
    description: 'Line one\nLine two\n\nSecond paragraph',
    start_date: '2031-05-10 20:00:00',
    end_date: '2031-05-10 22:00:00',
    timezone: 'America/New_York',
    venue: made.venue.id,
    organizer: [made.organizer.id],
    categories: [made.child.id],
    tags: [made.tag.id],
    cost: '$20',
    featured: true,
  });
  made.draft = await post('events', { title: 'A draft', status: 'draft', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' });
  made.allDay = await post('events', { title: 'Fair day', all_day: true, start_date: '2031-09-09 00:00:00', end_date: '2031-09-10 23:59:59', timezone: 'Europe/Lisbon' });
  made.pending = await post('events', { title: 'Awaiting review', status: 'pending', start_date: '2031-09-11 10:00:00', end_date: '2031-09-11 11:00:00' });
  made.private = await post('events', { title: 'Board only', status: 'private', start_date: '2031-09-12 10:00:00', end_date: '2031-09-12 11:00:00' });
  made.past = await post('events', { title: 'Long ago', start_date: '1950-06-01 09:00:00', end_date: '1950-06-01 10:00:00' });
  made.hidden = await post('events', { title: 'Hidden one', hide_from_listings: true, start_date: '2031-07-01 09:00:00', end_date: '2031-07-01 10:00:00' });
  made.trashed = await post('events', { title: 'In the trash', start_date: '2031-08-01 09:00:00', end_date: '2031-08-01 10:00:00' });
  expect((await site.api('delete', `events/${made.trashed.id}`)).status).toBe(200);
  for (let i = 0; i < 60; i++) await post('events', { title: `Weekly ${i}`, start_date: `2032-01-${String((i % 28) + 1).padStart(2, '0')} 10:00:00`, end_date: `2032-01-${String((i % 28) + 1).padStart(2, '0')} 11:00:00` });

  const here = await startHere();
  // Already here before the site is connected: linked, not duplicated.
  made.localVenue = (await here.api('post', 'venues').send({ venue: 'town hall', address: '1 Main St' })).body;
  made.localOrganizer = (await here.api('post', 'organizers').send({ organizer: 'FoJ', email: 'JAZZ@example.org' })).body;
  made.localTag = (await here.api('post', 'tags').send({ name: 'Outdoor' })).body;
  p = await pairOf(site, here, await connect(here, site));
}, 60_000);

afterAll(async () => {
  await p?.close();
});

describe('the first pull', () => {
  it('brings every event the login may see, drafts and past ones, into the site\'s calendar', async () => {
    const here = await p.hereEvents();
    const titles = here.map((e) => e.title);
    expect(titles).toEqual(expect.arrayContaining(["Tom & Jerry's show", 'A draft', 'Long ago', 'Hidden one', 'Awaiting review', 'Board only', 'Fair day']));
    const byTitle = new Map(here.map((e) => [e.title, e]));
    expect(byTitle.get('Awaiting review')!.status).toBe('pending');
    expect(byTitle.get('Board only')!.status).toBe('private');
    expect(byTitle.get('A draft')!.status).toBe('draft');
    expect(byTitle.get('Fair day')).toMatchObject({ all_day: true, start_date: '2031-09-09 00:00:00', end_date: '2031-09-10 23:59:59', timezone: 'Europe/Lisbon' });
    expect(titles.filter((t) => t.startsWith('Weekly'))).toHaveLength(60);
    expect(titles).not.toContain('In the trash');
    const trash = await p.here.api('get', 'events').query({ ...FULL, calendar: String(p.calendarId), status: 'trash' });
    expect(trash.body.events.map((e: any) => e.title)).toEqual(['In the trash']);
    expect(here.every((e) => e.calendar === p.calendarId)).toBe(true);
  });

  it('can be searched at once: a first pull builds the search index of what it stored', async () => {
    const search = async (text: string) =>
      (await p.here.api('get', 'events').query({ ...FULL, calendar: String(p.calendarId), search: text, per_page: 50 })).body.events?.map((e: any) => e.title).sort() ?? [];
    expect(await search('Jerry')).toEqual(["Tom & Jerry's show"]);
    expect(await search('eekly')).toHaveLength(50);
    expect(await search('Second paragraph')).toEqual(["Tom & Jerry's show"]);
    // The index holds each row once, with the text the row has.
    expect(() => p.here.server.db.prepare("INSERT INTO events_search (events_search, rank) VALUES ('integrity-check', 1)").run()).not.toThrow();
  });

  it('keeps what the user sees: text, zone, cost, flags, links', async () => {
    const [show] = (await p.hereEvents()).filter((e) => e.title === "Tom & Jerry's show");
    expect(show.description).toBe('<p>Line one<br />\nLine two</p>\n<p>Second paragraph</p>');
    expect(show.start_date).toBe('2031-05-10 20:00:00');
    expect(show.timezone).toBe('America/New_York');
    expect(show.cost).toBe('$20');
    expect(show.featured).toBe(true);
    expect(show.venue.id).toBe(made.localVenue.id);
    expect(show.organizer.map((o: any) => o.id)).toEqual([made.localOrganizer.id]);
    expect(show.tags.map((t: any) => t.id)).toEqual([made.localTag.id]);
    expect(show.categories.map((c: any) => c.name)).toEqual(['Jazz']);
  });

  it('links existing venues, organizers and tags instead of duplicating them, and takes empty categories and parents', async () => {
    const venues = (await p.here.api('get', 'venues').query({ per_page: 50 })).body.venues;
    expect(venues.filter((v: any) => v.venue.toLowerCase() === 'town hall')).toHaveLength(1);
    const organizers = (await p.here.api('get', 'organizers').query({ per_page: 50 })).body.organizers;
    expect(organizers).toHaveLength(1);
    const tags = (await p.here.api('get', 'tags').query({ per_page: 50, hide_empty: false })).body.tags;
    expect(tags).toHaveLength(1);
    const cats = (await p.here.api('get', 'categories').query({ per_page: 50, hide_empty: false })).body.categories;
    const byName = new Map(cats.map((c: any) => [c.name, c]));
    expect([...byName.keys()].sort()).toEqual(['Jazz', 'Music & Arts', 'Unused']);
    expect((byName.get('Jazz') as any).parent).toBe((byName.get('Music & Arts') as any).id);
  });
});

describe('later pulls', () => {
  it('change nothing when nothing changed there', async () => {
    const before = p.here.snapshot();
    const report = await p.sync();
    expect(report.received).toEqual({ changed: 0, deleted: 0 });
    expect(report.sent).toEqual({ created: 0, updated: 0, deleted: 0 });
    expect(p.here.snapshot()).toEqual(before);
  });

  it('take what changed, was trashed or went there, hidden events included', async () => {
    expect((await p.site.api('post', `events/${made.hidden.id}`).send({ title: 'Hidden one, moved' })).status).toBe(200);
    expect((await p.site.api('post', `venues/${made.venue.id}`).send({ city: 'Shelbyville' })).status).toBe(200);
    expect((await p.site.api('delete', `events/${made.draft.id}`)).status).toBe(200);
    // Gone for good there.
    expect((await p.site.api('delete', `events/${made.past.id}`)).status).toBe(200);
    expect((await p.site.api('delete', `events/${made.past.id}`).query({ force: true })).status).toBe(200);
    const report = await p.sync();
    expect(report.received.deleted).toBe(2);
    const titles = (await p.hereEvents()).map((e) => e.title);
    expect(titles).toContain('Hidden one, moved');
    expect(titles).not.toContain('A draft');
    expect(titles).not.toContain('Long ago');
    const venue = (await p.here.api('get', `venues/${made.localVenue.id}`)).body;
    expect(venue.city).toBe('Shelbyville');
    // Nothing of this goes back: the pull is the site's.
    expect((await p.sync()).sent).toEqual({ created: 0, updated: 0, deleted: 0 });
  });
});
