/**
 * Conflicts with a website (issue 26 item 5), against a second real Almanac: merged when each
 * side changed other fields; the site's version wins the same field and ours is kept as a
 * conflict copy with "Keep mine"; trashed there while edited here comes back with the change;
 * deleted here while changed there comes back with the site's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPair, FULL, type SitePair } from './_sites';

let p: SitePair;

async function siteMade(title: string) {
  const res = await p.site.api('post', 'events').send({ title, description: 'First words', start_date: '2031-09-01 10:00:00', end_date: '2031-09-01 11:00:00' });
  expect(res.status).toBe(201);
  return res.body;
}

async function hereOf(title: string) {
  const res = await p.here.api('get', 'events').query({ ...FULL, calendar: String(p.calendarId), search: title, status: 'publish,draft,trash' });
  return res.body.events.find((e: any) => e.title.startsWith(title));
}

beforeAll(async () => {
  p = await startPair();
  await p.sync();
}, 60_000);

afterAll(async () => {
  await p?.close();
});

describe('changed on both sides', () => {
  it('in different fields: merged, both changes on both sides, no conflict copy', async () => {
    const there = await siteMade('Merge me');
    await p.sync();
    const mine = await hereOf('Merge me');
    expect((await p.site.api('post', `events/${there.id}`).send({ description: 'Words from the site' })).status).toBe(200);
    expect((await p.here.api('post', `events/${mine.id}`).send({ title: 'Merge me, renamed here' })).status).toBe(200);
    const report = await p.sync();
    expect(report.merged).toBe(1);
    expect(report.conflicts).toBe(0);
    const site = (await p.site.api('get', `events/${there.id}`)).body;
    expect(site.title).toBe('Merge me, renamed here');
    expect(site.description).toContain('Words from the site');
    const here = await hereOf('Merge me');
    expect(here.title).toBe('Merge me, renamed here');
    expect(here.description).toContain('Words from the site');
  });

  it('in the same field: the site wins, ours is kept as a conflict copy, and "Keep mine" sends it', async () => {
    const there = await siteMade('Clash');
    await p.sync();
    const mine = await hereOf('Clash');
    expect((await p.site.api('post', `events/${there.id}`).send({ title: 'Clash (site)' })).status).toBe(200);
    expect((await p.here.api('post', `events/${mine.id}`).send({ title: 'Clash (mine)' })).status).toBe(200);
    const report = await p.sync();
    expect(report.conflicts).toBe(1);
    expect((await hereOf('Clash')).title).toBe('Clash (site)');
    expect((await p.site.api('get', `events/${there.id}`)).body.title).toBe('Clash (site)');
    const status = (await p.here.api('get', 'sync')).body;
    const copy = status.conflicts.find((c: any) => c.title === 'Clash (mine)');
    expect(copy).toMatchObject({ target: 'site', kind: 'event', calendar: p.calendarId });
    expect(status.sites[0].conflicts).toBe(1);
    const restored = await p.here.api('post', `sync/conflicts/${copy.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.event).toBe(mine.id);
    await p.sync();
    expect((await p.site.api('get', `events/${there.id}`)).body.title).toBe('Clash (mine)');
    expect((await p.here.api('get', 'sync')).body.conflicts.find((c: any) => c.title === 'Clash (mine)')).toBeUndefined();
  });
});

describe('deleted on one side, changed on the other', () => {
  it('trashed there while edited here: comes back there with the change', async () => {
    const there = await siteMade('Rescue me');
    await p.sync();
    const mine = await hereOf('Rescue me');
    expect((await p.site.api('delete', `events/${there.id}`)).status).toBe(200);
    expect((await p.here.api('post', `events/${mine.id}`).send({ title: 'Rescue me, edited' })).status).toBe(200);
    await p.sync();
    const site = (await p.site.api('get', `events/${there.id}`)).body;
    expect(site.status).toBe('publish');
    expect(site.title).toBe('Rescue me, edited');
    expect((await hereOf('Rescue me')).status).toBe('publish');
  });

  it('deleted here while changed there: comes back here with the site\'s version', async () => {
    const there = await siteMade('Keep it');
    await p.sync();
    const mine = await hereOf('Keep it');
    expect((await p.site.api('post', `events/${there.id}`).send({ title: 'Keep it, changed there' })).status).toBe(200);
    expect((await p.here.api('delete', `events/${mine.id}`)).status).toBe(200);
    expect((await p.here.api('delete', `events/${mine.id}`).query({ force: true })).status).toBe(200);
    await p.sync();
    const here = await hereOf('Keep it');
    expect(here?.title).toBe('Keep it, changed there');
    expect((await p.site.api('get', `events/${there.id}`)).body.status).toBe('publish');
  });
});
