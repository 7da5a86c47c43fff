/**
 * Records a website refuses (issue 26 item 6), against a second real Almanac: a change the site
 * refuses stays waiting and is shown per site in GET /sync with the site's reason, until it goes
 * through (tried again), is discarded (the site's version comes back) or is deleted here. A record
 * of the site that cannot be stored here is shown the same way until a pull stores it (a proxy
 * gives it a start no calendar takes: a real site's data cannot be made so).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { connect, startHere, hereEvent as findHere } from './_sites';
import { startProxy, type Proxy } from './_proxy';
import { describeSites } from '../../../electron/cli/sync';

let site: TestServer;
let here: TestServer;
let proxy: Proxy;
let siteId: number;
let calendar: number;
const there: Record<string, number> = {};

async function sync() {
  const [report] = await here.server.sync.syncSitesNow([siteId]);
  expect(report.error, JSON.stringify(report)).toBeUndefined();
  return report;
}

async function hereEvent(title: string): Promise<Record<string, any>> {
  return (await findHere(here, calendar, title))!;
}

async function hereVenue(name: string): Promise<Record<string, any>> {
  const res = await here.api('get', 'venues').query({ per_page: 50 });
  return res.body.venues.find((v: any) => v.venue === name);
}

const state = async (lang?: string) => (await here.api('get', 'sync').query(lang ? { i18n_language: lang } : {})).body.sites[0];

/** The site deletes a venue for good (trash, then force) while here it is linked still. */
async function deleteVenueThere(id: number) {
  expect((await site.api('delete', `venues/${id}`)).status).toBe(200);
  expect((await site.api('delete', `venues/${id}`).query({ force: true })).status).toBe(200);
}

beforeAll(async () => {
  site = await startTestServer({ syncIntervalMs: 0, syncDebounceMs: 0 });
  for (const name of ['Old Hall', 'Annex', 'Crypt']) there[name] = (await site.api('post', 'venues').send({ venue: name, address: `${name} Street 1` })).body.id;
  for (const [title, day] of [['Choir practice', 3], ['Quiz night', 4], ['Bake sale', 5], ['Film club', 6]] as const) {
    there[title] = (await site.api('post', 'events').send({ title, start_date: `2031-03-0${day} 19:00:00`, end_date: `2031-03-0${day} 21:00:00` })).body.id;
  }
  proxy = await startProxy(site.server.url);
  here = await startHere();
  ({ siteId, calendarId: calendar } = await connect(here, site, { name: 'Parish' }, proxy.url));
}, 60_000);

afterAll(async () => {
  await here?.close();
  await proxy?.close();
  await site?.close();
});

describe('a change the site refuses', () => {
  it('is shown in GET /sync with the site\'s reason and waits; tried again once fixed, it goes and the refusal goes', async () => {
    await deleteVenueThere(there['Old Hall']);
    const choir = await hereEvent('Choir practice');
    const hall = await hereVenue('Old Hall');
    expect((await here.api('post', `events/${choir.id}`).send({ venue: hall.id, description: 'Bring the hymn books' })).status).toBe(200);
    const report = await sync();
    expect(report.ok).toBe(true);
    // The CLI's `sync` says it too.
    expect(describeSites([report]).join('\n')).toMatch(/not sent: The site refused "Choir practice" \(HTTP 400: Invalid parameter\(s\): venue\)/);
    expect((await site.api('get', `events/${there['Choir practice']}`)).body.description).toBe('');
    let s = await state();
    expect(s.pending).toBe(1);
    expect(s.refused).toHaveLength(1);
    expect(s.refused[0]).toMatchObject({ direction: 'push', kind: 'event', title: 'Choir practice', status: 400, local_id: choir.id, remote_id: there['Choir practice'] });
    expect(s.refused[0].reason).toMatch(/The site refused "Choir practice" \(HTTP 400: Invalid parameter\(s\): venue\)/);
    expect(Date.parse(s.refused[0].at)).toBeGreaterThan(Date.now() - 60_000);
    // In the reader's language.
    expect((await state('pt-br')).refused[0].reason).toMatch(/O site recusou "Choir practice"/);
    // Not dropped: another round leaves it waiting, still shown.
    await sync();
    s = await state();
    expect(s.pending).toBe(1);
    expect(s.refused).toHaveLength(1);

    // The pull saw the venue gone there, so this time it is made there first: tried again, it goes.
    const retried = await here.api('post', `sync/refusals/${s.refused[0].id}/retry`);
    expect(retried.status).toBe(202);
    await here.server.sync.siteSettled(siteId);
    s = await state();
    expect(s.refused).toEqual([]);
    expect(s.pending).toBe(0);
    const atSite = (await site.api('get', `events/${there['Choir practice']}`)).body;
    expect(atSite.description).toMatch(/Bring the hymn books/);
    expect(atSite.venue.venue).toBe('Old Hall');
  });

  it('discarded: no longer waiting, and the site\'s version comes back here', async () => {
    await deleteVenueThere(there['Annex']);
    const quiz = await hereEvent('Quiz night');
    expect((await here.api('post', `events/${quiz.id}`).send({ venue: (await hereVenue('Annex')).id, title: 'Quiz night' , excerpt: 'Teams of four' })).status).toBe(200);
    await sync();
    const s = await state();
    expect(s.refused.map((r: any) => r.title)).toEqual(['Quiz night']);
    proxy.clear();
    const discarded = await here.api('delete', `sync/refusals/${s.refused[0].id}`);
    expect(discarded.status).toBe(200);
    await here.server.sync.siteSettled(siteId);
    const after = await state();
    expect(after.refused).toEqual([]);
    expect(after.pending).toBe(0);
    const back = await hereEvent('Quiz night');
    expect(back.excerpt).toBe('');
    expect(back.venue).toEqual([]);
    // Nothing of it was sent.
    expect(proxy.sent.filter((r) => r.method !== 'GET')).toEqual([]);
    expect((await here.api('delete', `sync/refusals/${s.refused[0].id}`)).status).toBe(404);
  });

  it('deleted here: the delete goes through and the refusal goes', async () => {
    await deleteVenueThere(there['Crypt']);
    const bake = await hereEvent('Bake sale');
    expect((await here.api('post', `events/${bake.id}`).send({ venue: (await hereVenue('Crypt')).id })).status).toBe(200);
    await sync();
    expect((await state()).refused.map((r: any) => r.title)).toEqual(['Bake sale']);
    expect((await here.api('delete', `events/${bake.id}`)).status).toBe(200);
    await sync();
    const s = await state();
    expect(s.refused).toEqual([]);
    expect(s.pending).toBe(0);
    expect((await site.api('get', `events/${there['Bake sale']}`)).status).not.toBe(200);
  });
});

describe('a record of the site that cannot be stored here', () => {
  it('is shown with our reason until a pull stores it', async () => {
    proxy.rewrite = { event: (e) => (e.id === there['Film club'] ? { ...e, title: 'Film club (moved)', start_date: 'soon', end_date: 'later' } : e) };
    await sync();
    let s = await state();
    expect(s.refused).toHaveLength(1);
    expect(s.refused[0]).toMatchObject({ direction: 'pull', kind: 'event', title: 'Film club (moved)', status: null, remote_id: there['Film club'] });
    expect(s.refused[0].reason).toMatch(/start_date/);
    expect((await hereEvent('Film club')).start_date).toBe('2031-03-06 19:00:00');
    proxy.rewrite = undefined;
    await sync();
    s = await state();
    expect(s.refused).toEqual([]);
  });
});
