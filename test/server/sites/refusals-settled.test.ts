/**
 * A refusal is about a change waiting to be sent: when a pull settles that change (the site's
 * version kept, ours as a conflict copy; or the same on both sides), nothing waits any more and
 * the refusal goes with it, or the sidebar would offer "Try again" for good on nothing (issue 26).
 * Against a second real Almanac as the site.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPair, type SitePair } from './_sites';

let p: SitePair;
let choir: number;
let hall: number;

beforeAll(async () => {
  p = await startPair();
  hall = (await p.site.api('post', 'venues').send({ venue: 'Old Hall', address: 'Church Street 1' })).body.id;
  choir = (await p.site.api('post', 'events').send({ title: 'Choir', start_date: '2031-03-03 19:00:00', end_date: '2031-03-03 21:00:00' })).body.id;
  await p.sync();
}, 60_000);

afterAll(async () => {
  await p?.close();
});

it('a refused change that the site then supersedes (ours kept as a conflict copy) leaves no refusal behind', async () => {
  // The site deletes a venue this side still has: an edit naming it is refused there.
  expect((await p.site.api('delete', `venues/${hall}`).query({ force: true })).status).toBe(200);
  const here = (await p.hereEvents()).find((e) => e.title === 'Choir')!;
  const venueHere = (await p.here.api('get', 'venues')).body.venues.find((v: any) => v.venue === 'Old Hall');
  expect((await p.here.api('post', `events/${here.id}`).send({ venue: venueHere.id, description: 'mine' })).status).toBe(200);
  await p.sync();
  expect((await p.here.api('get', 'sync')).body.sites[0].refused).toHaveLength(1);

  // The site changes the same field: its version wins, ours is a conflict copy, nothing waits.
  expect((await p.site.api('post', `events/${choir}`).send({ description: 'theirs' })).status).toBe(200);
  await p.sync();
  await p.sync();
  const state = (await p.here.api('get', 'sync')).body;
  expect(state.conflicts.length).toBe(1);
  expect(state.sites[0].pending).toBe(0);
  expect(state.sites[0].refused).toEqual([]);
});
