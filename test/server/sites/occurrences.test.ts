/**
 * Occurrences of an Almanac site's series changed on their own (moved, retitled, given another
 * venue, trashed) sync one by one, both ways, identified by their series and original start
 * (RECURRENCE-ID), never by the row ids each side gives them; unchanged occurrences are never sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPair, type SitePair } from './_sites';

let p: SitePair;
const series: Record<string, number> = {};

const OCT = { start_date: '2031-10-01 00:00:00', end_date: '2031-11-30 23:59:59', per_page: '50' };
const STARTS = ['2031-10-07 19:00:00', '2031-10-14 19:00:00', '2031-10-21 19:00:00', '2031-10-28 19:00:00'];

async function siteOccurrences(name: string, status?: string): Promise<Array<Record<string, any>>> {
  const res = await p.site.api('get', 'events').query({ ...OCT, ...(status ? { status } : {}) });
  expect(res.status).toBe(200);
  return res.body.events.filter((e: any) => e.series_id === series[name]);
}

async function hereOccurrences(name: string, status?: string): Promise<Array<Record<string, any>>> {
  const res = await p.here.api('get', 'events').query({ ...OCT, calendar: String(p.calendarId), ...(status ? { status } : {}) });
  expect(res.status).toBe(200);
  const all = res.body.events as Array<Record<string, any>>;
  const first = (await p.hereEvents()).find((e) => e.title.startsWith(name) && e.series_id === e.id);
  return all.filter((e) => e.series_id === first?.id);
}

/** What a person sees of each occurrence, by original start. */
const seen = (list: Array<Record<string, any>>) =>
  Object.fromEntries(list.map((e) => [e.recurrence_id, { title: e.title, description: e.description, start: e.start_date, end: e.end_date, venue: e.venue?.venue ?? null, status: e.status }]));

async function expectSameOnBothSides(name: string): Promise<void> {
  expect(seen(await hereOccurrences(name))).toEqual(seen(await siteOccurrences(name)));
  expect(seen(await hereOccurrences(name, 'trash'))).toEqual(seen(await siteOccurrences(name, 'trash')));
}

const byKey = (list: Array<Record<string, any>>) => Object.fromEntries(list.map((e) => [e.recurrence_id, e]));

beforeAll(async () => {
  p = await startPair();
  for (const name of ['Moved there', 'Edited here', 'Trashed', 'Clash', 'First']) {
    const res = await p.site.api('post', 'events').send({ title: name, start_date: STARTS[0], end_date: '2031-10-07 21:00:00', timezone: 'Europe/Lisbon', recurrence: { rules: ['FREQ=WEEKLY;COUNT=4'] } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    series[name] = res.body.id;
  }
  // Changed on its own before the first pull.
  const before = await p.site.api('post', 'events').send({ title: 'Before', start_date: STARTS[0], end_date: '2031-10-07 21:00:00', timezone: 'Europe/Lisbon', recurrence: { rules: ['FREQ=WEEKLY;COUNT=4'] } });
  series['Before'] = before.body.id;
  const third = (await siteOccurrences('Before')).find((e) => e.recurrence_id === STARTS[2])!;
  expect((await p.site.api('post', `events/${third.id}`).query({ recurrence_scope: 'this' }).send({ title: 'Before, in the garden', start_date: '2031-10-21 17:00:00', end_date: '2031-10-21 19:00:00' })).status).toBe(200);
  const far = await p.site.api('post', 'events').send({ title: 'Far', start_date: STARTS[0], end_date: '2031-10-07 21:00:00', timezone: 'Europe/Lisbon', recurrence: { rules: ['FREQ=WEEKLY;COUNT=300'] } });
  expect(far.status, JSON.stringify(far.body)).toBe(201);
  series['Far'] = far.body.id;
  await p.sync();
}, 60_000);

afterAll(async () => {
  await p?.close();
});

describe('an occurrence changed on its own', () => {
  it('before the first pull: comes with its series, the others as the series makes them', async () => {
    const here = byKey(await hereOccurrences('Before'));
    expect(here[STARTS[2]]).toMatchObject({ title: 'Before, in the garden', start_date: '2031-10-21 17:00:00', is_exception: true });
    for (const k of [STARTS[0], STARTS[1], STARTS[3]]) expect(here[k]).toMatchObject({ title: 'Before', start_date: k, is_exception: false });
    await expectSameOnBothSides('Before');
  });

  it('in a series made here before it was ever sent: goes right after its series, in the same round', async () => {
    const made = await p.here.api('post', 'events').send({ title: 'Made here', start_date: STARTS[0], end_date: '2031-10-07 21:00:00', timezone: 'Europe/Lisbon', calendar: p.calendarId, recurrence: { rules: ['FREQ=WEEKLY;COUNT=4'] } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const second = byKey(await hereOccurrences('Made here'))[STARTS[1]];
    expect((await p.here.api('post', `events/${second.id}`).query({ recurrence_scope: 'this' }).send({ title: 'Made here, cancelled', status: 'draft' })).status).toBe(200);
    const report = await p.sync();
    expect(report.sent).toMatchObject({ created: 1, updated: 1 });
    const there = (await p.site.api('get', 'events').query({ ...OCT, status: 'publish,draft' })).body.events.filter((e: any) => e.title.startsWith('Made here'));
    expect(Object.fromEntries(there.map((e: any) => [e.recurrence_id, [e.title, e.status]]))).toEqual({
      [STARTS[0]]: ['Made here', 'publish'],
      [STARTS[1]]: ['Made here, cancelled', 'draft'],
      [STARTS[2]]: ['Made here', 'publish'],
      [STARTS[3]]: ['Made here', 'publish'],
    });
    const again = await p.sync();
    expect(again.sent).toEqual({ created: 0, updated: 0, deleted: 0 });
    expect(again.received).toEqual({ changed: 0, deleted: 0 });
  });

  it('the first occurrence of a series made here, changed on its own before it was ever sent: the series goes as the series, that one alone', async () => {
    const made = await p.here.api('post', 'events').send({ title: 'Premiere', start_date: STARTS[0], end_date: '2031-10-07 21:00:00', timezone: 'Europe/Lisbon', calendar: p.calendarId, recurrence: { rules: ['FREQ=WEEKLY;COUNT=4'] } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await p.here.api('post', `events/${made.body.id}`).query({ recurrence_scope: 'this' }).send({ title: 'Premiere, gala night', start_date: '2031-10-07 20:00:00', end_date: '2031-10-07 23:00:00' })).status).toBe(200);
    await p.sync();
    const there = (await p.site.api('get', 'events').query(OCT)).body.events.filter((e: any) => e.title.startsWith('Premiere'));
    expect(Object.fromEntries(there.map((e: any) => [e.recurrence_id, [e.title, e.start_date]]))).toEqual({
      [STARTS[0]]: ['Premiere, gala night', '2031-10-07 20:00:00'],
      [STARTS[1]]: ['Premiere', STARTS[1]],
      [STARTS[2]]: ['Premiere', STARTS[2]],
      [STARTS[3]]: ['Premiere', STARTS[3]],
    });
    const again = await p.sync();
    expect(again.sent).toEqual({ created: 0, updated: 0, deleted: 0 });
    expect(again.received).toEqual({ changed: 0, deleted: 0 });
  });

  it('on the site (moved, retitled): arrives here as the same change on the same occurrence, the others untouched', async () => {
    const there = byKey(await siteOccurrences('Moved there'));
    const moved = await p.site.api('post', `events/${there[STARTS[1]].id}`).query({ recurrence_scope: 'this' }).send({ start_date: '2031-10-15 20:00:00', end_date: '2031-10-15 22:00:00' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await p.site.api('post', `events/${there[STARTS[2]].id}`).query({ recurrence_scope: 'this' }).send({ title: 'Moved there, with guests' })).status).toBe(200);

    const report = await p.sync();
    expect(report.received.changed).toBe(2);
    const here = byKey(await hereOccurrences('Moved there'));
    expect(Object.keys(here).sort()).toEqual(STARTS);
    expect(here[STARTS[1]]).toMatchObject({ start_date: '2031-10-15 20:00:00', end_date: '2031-10-15 22:00:00', title: 'Moved there', is_exception: true });
    expect(here[STARTS[2]]).toMatchObject({ start_date: STARTS[2], title: 'Moved there, with guests', is_exception: true });
    for (const k of [STARTS[0], STARTS[3]]) expect(here[k]).toMatchObject({ start_date: k, title: 'Moved there', is_exception: false });

    // Taken as the site's: nothing goes back, and the next round changes nothing.
    const again = await p.sync();
    expect(again.sent).toEqual({ created: 0, updated: 0, deleted: 0 });
    expect(again.received).toEqual({ changed: 0, deleted: 0 });
    expect(again.pushRequests).toBe(0);
  });

  it('here (retitled, another venue): sent for that occurrence only, the rest untouched there, and the next round sends nothing', async () => {
    const venue = (await p.here.api('post', 'venues').send({ venue: 'Crypt', address: '1 Church Lane' })).body;
    const here = byKey(await hereOccurrences('Edited here'));
    const res = await p.here.api('post', `events/${here[STARTS[2]].id}`).query({ recurrence_scope: 'this' }).send({ title: 'Edited here, in the crypt', venue: venue.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const report = await p.sync();
    expect(report.sent.updated).toBe(1);
    const there = byKey(await siteOccurrences('Edited here'));
    expect(Object.keys(there).sort()).toEqual(STARTS);
    expect(there[STARTS[2]]).toMatchObject({ title: 'Edited here, in the crypt', start_date: STARTS[2], is_exception: true });
    expect(there[STARTS[2]].venue.venue).toBe('Crypt');
    for (const k of [STARTS[0], STARTS[1], STARTS[3]]) {
      expect(there[k]).toMatchObject({ title: 'Edited here', start_date: k, is_exception: false });
      expect(there[k].venue).toEqual([]);
    }
    expect((await p.site.api('get', `events/${series['Edited here']}`)).body.recurrence.rules).toEqual(['FREQ=WEEKLY;COUNT=4']);

    const again = await p.sync();
    expect(again.sent).toEqual({ created: 0, updated: 0, deleted: 0 });
    expect(again.received).toEqual({ changed: 0, deleted: 0 });
    expect(again.pushRequests).toBe(0);
    expect(byKey(await hereOccurrences('Edited here'))[STARTS[2]].title).toBe('Edited here, in the crypt');
  });

  it('trashed on either side: in the other side\'s trash, the others alive on both', async () => {
    const there = byKey(await siteOccurrences('Trashed'));
    expect((await p.site.api('delete', `events/${there[STARTS[1]].id}`).query({ recurrence_scope: 'this' })).status).toBe(200);
    const here = byKey(await hereOccurrences('Trashed'));
    expect((await p.here.api('delete', `events/${here[STARTS[3]].id}`).query({ recurrence_scope: 'this' })).status).toBe(200);

    const report = await p.sync();
    expect(report).toMatchObject({ conflicts: 0, sent: { deleted: 1 }, received: { deleted: 1 } });
    const hereTrash = byKey(await hereOccurrences('Trashed', 'trash'));
    expect(Object.keys(hereTrash).sort()).toEqual([STARTS[1], STARTS[3]]);
    const siteTrash = byKey(await siteOccurrences('Trashed', 'trash'));
    expect(Object.keys(siteTrash).sort()).toEqual([STARTS[1], STARTS[3]]);
    expect(Object.keys(byKey(await hereOccurrences('Trashed'))).sort()).toEqual([STARTS[0], STARTS[2]]);
    expect(Object.keys(byKey(await siteOccurrences('Trashed'))).sort()).toEqual([STARTS[0], STARTS[2]]);

    const again = await p.sync();
    expect(again.sent).toEqual({ created: 0, updated: 0, deleted: 0 });
    expect(again.received).toEqual({ changed: 0, deleted: 0 });
  });

  it('changed in the same field on both sides: the site wins that occurrence, ours is kept as a conflict copy', async () => {
    const there = byKey(await siteOccurrences('Clash'));
    const here = byKey(await hereOccurrences('Clash'));
    expect((await p.site.api('post', `events/${there[STARTS[1]].id}`).query({ recurrence_scope: 'this' }).send({ title: 'Clash (site)' })).status).toBe(200);
    expect((await p.here.api('post', `events/${here[STARTS[1]].id}`).query({ recurrence_scope: 'this' }).send({ title: 'Clash (mine)' })).status).toBe(200);

    const report = await p.sync();
    expect(report.conflicts).toBe(1);
    const after = byKey(await hereOccurrences('Clash'));
    expect(after[STARTS[1]].title).toBe('Clash (site)');
    for (const k of [STARTS[0], STARTS[2], STARTS[3]]) expect(after[k].title).toBe('Clash');
    expect(byKey(await siteOccurrences('Clash'))[STARTS[1]].title).toBe('Clash (site)');
    const copy = (await p.here.api('get', 'sync')).body.conflicts.find((c: any) => c.title === 'Clash (mine)');
    expect(copy).toMatchObject({ target: 'site', kind: 'event', calendar: p.calendarId });

    // "Keep mine" restores that occurrence, not the series, and sends it for that occurrence only.
    expect((await p.here.api('post', `sync/conflicts/${copy.id}/restore`)).status).toBe(200);
    await p.sync();
    const final = byKey(await siteOccurrences('Clash'));
    expect(final[STARTS[1]].title).toBe('Clash (mine)');
    for (const k of [STARTS[0], STARTS[2], STARTS[3]]) expect(final[k].title).toBe('Clash');
  });

  it('trashed there while changed here: comes back there with the change, the others untouched', async () => {
    const there = byKey(await siteOccurrences('Clash'));
    const here = byKey(await hereOccurrences('Clash'));
    expect((await p.site.api('delete', `events/${there[STARTS[2]].id}`).query({ recurrence_scope: 'this' })).status).toBe(200);
    expect((await p.here.api('post', `events/${here[STARTS[2]].id}`).query({ recurrence_scope: 'this' }).send({ title: 'Clash, rescued' })).status).toBe(200);
    const report = await p.sync();
    expect(report.problems).toEqual([]);
    const after = byKey(await siteOccurrences('Clash'));
    expect(after[STARTS[2]]).toMatchObject({ title: 'Clash, rescued', status: 'publish' });
    expect(await siteOccurrences('Clash', 'trash')).toEqual([]);
    await expectSameOnBothSides('Clash');
    const again = await p.sync();
    expect(again.sent).toEqual({ created: 0, updated: 0, deleted: 0 });
    expect(again.received).toEqual({ changed: 0, deleted: 0 });
  });

  it('changed in different fields on both sides, once known: merged, both changes on both sides', async () => {
    const there = byKey(await siteOccurrences('Moved there'));
    const here = byKey(await hereOccurrences('Moved there'));
    expect((await p.site.api('post', `events/${there[STARTS[1]].id}`).query({ recurrence_scope: 'this' }).send({ description: 'Bring the new scores.' })).status).toBe(200);
    expect((await p.here.api('post', `events/${here[STARTS[1]].id}`).query({ recurrence_scope: 'this' }).send({ title: 'Moved there, rehearsal' })).status).toBe(200);
    const report = await p.sync();
    expect(report.conflicts).toBe(0);
    for (const side of [await hereOccurrences('Moved there'), await siteOccurrences('Moved there')]) {
      expect(byKey(side)[STARTS[1]]).toMatchObject({ title: 'Moved there, rehearsal', start_date: '2031-10-15 20:00:00' });
      expect(byKey(side)[STARTS[1]].description).toContain('Bring the new scores.');
    }
    await expectSameOnBothSides('Moved there');
  });

  it('a series changed whole still goes whole: each occurrence changed on its own keeps what it changed, on both sides', async () => {
    const first = (await hereOccurrences('Moved there'))[0];
    expect((await p.here.api('post', `events/${first.id}`).query({ recurrence_scope: 'all' }).send({ title: 'Moved there (autumn)', description: 'For everyone.' })).status).toBe(200);
    const report = await p.sync();
    expect(report.sent.updated).toBe(1);
    const there = byKey(await siteOccurrences('Moved there'));
    expect(there[STARTS[0]].title).toBe('Moved there (autumn)');
    expect(there[STARTS[3]].title).toBe('Moved there (autumn)');
    expect(there[STARTS[2]].title).toBe('Moved there, with guests');
    expect(there[STARTS[1]].start_date).toBe('2031-10-15 20:00:00');
    await expectSameOnBothSides('Moved there');
    const again = await p.sync();
    expect(again.sent).toEqual({ created: 0, updated: 0, deleted: 0 });
    expect(again.received).toEqual({ changed: 0, deleted: 0 });
  });

  it('a series changed whole on the site reaches the occurrences changed here as it does there', async () => {
    expect((await p.site.api('post', `events/${series['Edited here']}`).query({ recurrence_scope: 'all' }).send({ description: 'Doors at 18:30.' })).status).toBe(200);
    await p.sync();
    await expectSameOnBothSides('Edited here');
    const again = await p.sync();
    expect(again.sent).toEqual({ created: 0, updated: 0, deleted: 0 });
    expect(again.received).toEqual({ changed: 0, deleted: 0 });
    await expectSameOnBothSides('Edited here');
  });

  it('the first occurrence changed on its own here: only it changes there, not the series', async () => {
    const first = (await hereOccurrences('First'))[0];
    expect(first.recurrence_id).toBe(STARTS[0]);
    expect((await p.here.api('post', `events/${first.id}`).query({ recurrence_scope: 'this' }).send({ title: 'First, opening night' })).status).toBe(200);
    await p.sync();
    const there = byKey(await siteOccurrences('First'));
    expect(there[STARTS[0]].title).toBe('First, opening night');
    for (const k of STARTS.slice(1)) expect(there[k].title).toBe('First');
    await expectSameOnBothSides('First');
    const again = await p.sync();
    expect(again.sent).toEqual({ created: 0, updated: 0, deleted: 0 });
    expect(again.received).toEqual({ changed: 0, deleted: 0 });
  });

  it('the first occurrence changed on its own on the site: only it changes here', async () => {
    expect((await p.site.api('post', `events/${series['First']}`).query({ recurrence_scope: 'this' }).send({ start_date: '2031-10-08 19:00:00', end_date: '2031-10-08 21:00:00' })).status).toBe(200);
    await p.sync();
    const here = byKey(await hereOccurrences('First'));
    expect(here[STARTS[0]].start_date).toBe('2031-10-08 19:00:00');
    for (const k of STARTS.slice(1)) expect(here[k].start_date).toBe(k);
    await expectSameOnBothSides('First');
  });

  it('a series whose first occurrence changed on its own, changed whole on the site: every occurrence takes it, the first keeps its own', async () => {
    expect((await p.site.api('post', `events/${series['First']}`).query({ recurrence_scope: 'all' }).send({ description: 'Tickets at the door.' })).status).toBe(200);
    await p.sync();
    const here = byKey(await hereOccurrences('First'));
    for (const k of STARTS) expect(here[k].description).toContain('Tickets at the door.');
    expect(here[STARTS[0]]).toMatchObject({ title: 'First, opening night', start_date: '2031-10-08 19:00:00' });
    for (const k of STARTS.slice(1)) expect(here[k]).toMatchObject({ title: 'First', start_date: k });
    await expectSameOnBothSides('First');
    const again = await p.sync();
    expect(again.sent).toEqual({ created: 0, updated: 0, deleted: 0 });
    expect(again.received).toEqual({ changed: 0, deleted: 0 });
  });

  it('the same series changed whole here: it goes whole there, the first occurrence keeping its own there too', async () => {
    const first = byKey(await hereOccurrences('First'))[STARTS[0]];
    expect((await p.here.api('post', `events/${first.id}`).query({ recurrence_scope: 'all' }).send({ excerpt: 'Season opener.' })).status).toBe(200);
    const report = await p.sync();
    expect(report.sent.updated).toBe(1);
    const there = byKey(await siteOccurrences('First'));
    for (const k of STARTS) expect(there[k].excerpt).toContain('Season opener.');
    expect(there[STARTS[0]]).toMatchObject({ title: 'First, opening night', start_date: '2031-10-08 19:00:00' });
    for (const k of STARTS.slice(1)) expect(there[k]).toMatchObject({ title: 'First', start_date: k });
    await expectSameOnBothSides('First');
    const again = await p.sync();
    expect(again.sent).toEqual({ created: 0, updated: 0, deleted: 0 });
    expect(again.received).toEqual({ changed: 0, deleted: 0 });
  });

  it('far beyond the rows either side has written (occurrences shown without rows): the same, both ways', async () => {
    const window = { start_date: '2036-03-01 00:00:00', end_date: '2036-03-31 23:59:59', per_page: '50' };
    const firstHere = (await hereOccurrences('Far'))[0];
    const hereFar = async () => (await p.here.api('get', 'events').query({ ...window, calendar: String(p.calendarId) })).body.events.filter((e: any) => e.series_id === firstHere.id);
    const siteFar = async () => (await p.site.api('get', 'events').query(window)).body.events.filter((e: any) => e.series_id === series['Far']);
    const [a, b] = await hereFar();
    expect((await p.here.api('post', `events/${a.id}`).query({ recurrence_scope: 'this' }).send({ title: 'Far, reunion' })).status).toBe(200);
    const there = await siteFar();
    const bThere = there.find((e: any) => e.recurrence_id === b.recurrence_id);
    const moved = await p.site.api('post', `events/${bThere.id}`).query({ recurrence_scope: 'this' }).send({ start_date: b.start_date.slice(0, 11) + '20:00:00', end_date: b.start_date.slice(0, 11) + '22:00:00' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);

    const report = await p.sync();
    expect(report.sent.updated).toBe(1);
    expect(report.received.changed).toBe(1);
    const after = Object.fromEntries((await siteFar()).map((e: any) => [e.recurrence_id, e]));
    expect(after[a.recurrence_id].title).toBe('Far, reunion');
    expect(Object.values(after).filter((e: any) => e.title !== 'Far').length).toBe(1);
    const hereAfter = Object.fromEntries((await hereFar()).map((e: any) => [e.recurrence_id, e]));
    expect(hereAfter[b.recurrence_id].start_date).toBe(b.start_date.slice(0, 11) + '20:00:00');
    expect(hereAfter[a.recurrence_id].title).toBe('Far, reunion');
    expect(Object.values(hereAfter).filter((e: any) => e.start_date.endsWith('19:00:00')).length).toBe(Object.keys(hereAfter).length - 1);
    const again = await p.sync();
    expect(again.sent).toEqual({ created: 0, updated: 0, deleted: 0 });
    expect(again.received).toEqual({ changed: 0, deleted: 0 });
  });
});
