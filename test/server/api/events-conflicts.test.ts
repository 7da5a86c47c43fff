/**
 * Double bookings through the API (issue 27 §2): `GET /events/conflicts` names the events holding a
 * venue or any of some organizers at an overlapping time — not touching ends, not trashed ones, not
 * the event being checked (nor its own series), repeating events by their occurrences, also past
 * the repeat horizon — and refuses a question it cannot answer with 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { EVENT_KEYS, expectError, expectInvalidParam, expectKeyOrder, expectMissing, mkEvent, mkOrganizer, mkVenue, uniq } from './_support';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  // Times without a zone are read in the calendar's zone: Lisbon, UTC+0 in winter.
  expect((await t.api('patch', 'settings').send({ timezone: 'Europe/Lisbon' })).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

type Q = Record<string, string | number>;
async function conflicts(query: Q): Promise<Array<{ id: number; title: string; start_date: string }>> {
  const res = await t.api('get', 'events/conflicts').query(query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(Object.keys(res.body)).toEqual(['events']);
  return res.body.events;
}
const titles = async (query: Q) => (await conflicts(query)).map((e) => e.title);

describe('who holds a venue', () => {
  let venue: number;
  let recital: { id: number; title: string };
  beforeAll(async () => {
    venue = (await mkVenue(t, { venue: 'Sala Luso' })).id;
    recital = await mkEvent(t, { title: 'Recital', start_date: '2031-01-14 19:00:00', end_date: '2031-01-14 21:00:00', timezone: 'Europe/Lisbon', venue });
    // Elsewhere at the same time: never a conflict of Sala Luso.
    await mkEvent(t, { title: 'Elsewhere', start_date: '2031-01-14 19:00:00', end_date: '2031-01-14 21:00:00', venue: (await mkVenue(t)).id });
  });

  it('names an event overlapping the time, in the list record shape', async () => {
    const found = await conflicts({ start_date: '2031-01-14 20:00:00', end_date: '2031-01-14 22:00:00', venue });
    expect(found.map((e) => e.title)).toEqual(['Recital']);
    expectKeyOrder(found[0] as unknown as Record<string, unknown>, EVENT_KEYS);
    expect((found[0] as unknown as { venue: { venue: string } }).venue.venue).toBe('Sala Luso');
    // A time inside it, and one around it.
    expect(await titles({ start_date: '2031-01-14 19:30:00', end_date: '2031-01-14 20:00:00', venue })).toEqual(['Recital']);
    expect(await titles({ start_date: '2031-01-14 08:00:00', end_date: '2031-01-14 23:00:00', venue })).toEqual(['Recital']);
  });

  it('does not count touching ends, nor times around them', async () => {
    expect(await titles({ start_date: '2031-01-14 21:00:00', end_date: '2031-01-14 22:00:00', venue })).toEqual([]);
    expect(await titles({ start_date: '2031-01-14 18:00:00', end_date: '2031-01-14 19:00:00', venue })).toEqual([]);
    expect(await titles({ start_date: '2031-01-14 18:00:00', end_date: '2031-01-14 19:01:00', venue })).toEqual(['Recital']);
  });

  it('compares real instants: an event of another zone meets it where it overlaps', async () => {
    // 14:30 in New York is 19:30 in Lisbon in January.
    const v = (await mkVenue(t)).id;
    await mkEvent(t, { title: 'Call from New York', start_date: '2031-01-14 14:30:00', end_date: '2031-01-14 15:00:00', timezone: 'America/New_York', venue: v });
    expect(await titles({ start_date: '2031-01-14 19:00:00', end_date: '2031-01-14 20:00:00', venue: v })).toEqual(['Call from New York']);
    expect(await titles({ start_date: '2031-01-14 14:00:00', end_date: '2031-01-14 16:00:00', venue: v })).toEqual([]);
    // A time that names its own offset is read as given.
    expect(await titles({ start_date: '2031-01-14T14:00:00-05:00', end_date: '2031-01-14T14:45:00-05:00', venue: v })).toEqual(['Call from New York']);
  });

  it('finds an event of several days that began long before the time asked', async () => {
    const v = (await mkVenue(t)).id;
    await mkEvent(t, { title: 'Festival', start_date: '2031-06-01 10:00:00', end_date: '2031-06-05 23:00:00', venue: v });
    expect(await titles({ start_date: '2031-06-04 12:00:00', end_date: '2031-06-04 13:00:00', venue: v })).toEqual(['Festival']);
    expect(await titles({ start_date: '2031-06-05 23:00:00', end_date: '2031-06-06 01:00:00', venue: v })).toEqual([]);
  });

  it('leaves out the event being checked, and trashed events', async () => {
    const q = { start_date: '2031-01-14 20:00:00', end_date: '2031-01-14 22:00:00', venue };
    expect(await titles({ ...q, exclude: recital.id })).toEqual([]);
    const other = await mkEvent(t, { title: uniq('Rehearsal'), start_date: '2031-01-14 20:30:00', end_date: '2031-01-14 21:30:00', venue });
    expect(await titles(q)).toEqual(['Recital', other.title]);
    expect((await t.api('delete', `events/${other.id}`)).status).toBe(200);
    expect(await titles(q)).toEqual(['Recital']);
  });
});

describe('who holds an organizer', () => {
  it('names events holding any organizer of the list, or the venue', async () => {
    const [ana, rui, eva] = [await mkOrganizer(t), await mkOrganizer(t), await mkOrganizer(t)];
    const venue = (await mkVenue(t)).id;
    await mkEvent(t, { title: 'Duo', start_date: '2031-02-03 10:00:00', end_date: '2031-02-03 11:00:00', organizer: [ana.id, rui.id] });
    await mkEvent(t, { title: 'Talk', start_date: '2031-02-03 10:30:00', end_date: '2031-02-03 12:00:00', venue });
    const time = { start_date: '2031-02-03 10:15:00', end_date: '2031-02-03 10:45:00' };
    expect(await titles({ ...time, organizer: `${eva.id},${rui.id}` })).toEqual(['Duo']);
    expect(await titles({ ...time, organizer: eva.id })).toEqual([]);
    expect(await titles({ ...time, organizer: ana.id, venue })).toEqual(['Duo', 'Talk']);
  });
});

describe('repeating events', () => {
  let venue: number;
  let series: { id: number };
  beforeAll(async () => {
    venue = (await mkVenue(t)).id;
    const res = await t.api('post', 'events').send({
      title: 'Choir',
      start_date: '2031-03-04 18:00:00',
      end_date: '2031-03-04 20:00:00',
      timezone: 'Europe/Lisbon',
      venue,
      recurrence: { rules: ['FREQ=WEEKLY;BYDAY=TU'] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    series = res.body;
  });

  it('counts a series by its occurrences', async () => {
    const found = await conflicts({ start_date: '2031-04-01 19:00:00', end_date: '2031-04-01 19:30:00', venue });
    expect(found.map((e) => [e.title, e.start_date])).toEqual([['Choir', '2031-04-01 18:00:00']]);
    expect(found[0].id).not.toBe(series.id);
    // A Wednesday: no occurrence.
    expect(await titles({ start_date: '2031-04-02 19:00:00', end_date: '2031-04-02 19:30:00', venue })).toEqual([]);
  });

  it('counts occurrences far past the repeat horizon', async () => {
    // 2090: decades past the rows the series has; 4 April 2090 is a Tuesday.
    const found = await conflicts({ start_date: '2090-04-04 19:00:00', end_date: '2090-04-04 19:30:00', venue });
    expect(found.map((e) => [e.title, e.start_date])).toEqual([['Choir', '2090-04-04 18:00:00']]);
    // Asked without writing a row (series-virtual.ts).
    expect(t.server.store.db.prepare("SELECT count(*) FROM events WHERE start_local >= '2090-01-01'").pluck().get()).toBe(0);
    // The record is the occurrence a list of that day shows.
    const day = await t.api('get', 'events').query({ start_date: '2090-04-04', end_date: '2090-04-04', venue });
    expect(day.body.events.map((e: { id: number }) => e.id)).toEqual([found[0].id]);
    // Checked for itself (a drag of it), it conflicts with nothing of its series.
    expect(await titles({ start_date: '2090-04-04 19:00:00', end_date: '2090-04-11 19:30:00', venue, exclude: found[0].id })).toEqual([]);
  });

  it('an occurrence does not conflict with its own series', async () => {
    const [occurrence] = await conflicts({ start_date: '2031-04-08 18:00:00', end_date: '2031-04-08 20:00:00', venue });
    expect(await titles({ start_date: '2031-04-08 18:00:00', end_date: '2031-04-15 20:00:00', venue, exclude: occurrence.id })).toEqual([]);
    expect(await titles({ start_date: '2031-04-08 18:00:00', end_date: '2031-04-08 20:00:00', venue, exclude: series.id })).toEqual([]);
  });

  it('does not count an occurrence deleted from the series', async () => {
    const [occurrence] = await conflicts({ start_date: '2031-05-06 18:00:00', end_date: '2031-05-06 20:00:00', venue });
    expect((await t.api('delete', `events/${occurrence.id}`)).status).toBe(200);
    expect(await titles({ start_date: '2031-05-06 18:00:00', end_date: '2031-05-06 20:00:00', venue })).toEqual([]);
  });
});

describe('questions it cannot answer', () => {
  it('needs both times, the end after the start', async () => {
    const venue = (await mkVenue(t)).id;
    expectMissing(await t.api('get', 'events/conflicts').query({ venue }), ['start_date', 'end_date']);
    expectInvalidParam(await t.api('get', 'events/conflicts').query({ start_date: '2031-01-14 20:00', end_date: '2031-01-14 20:00', venue }), 'end_date');
    expectInvalidParam(await t.api('get', 'events/conflicts').query({ start_date: '2031-01-14 21:00', end_date: '2031-01-14 20:00', venue }), 'end_date');
    expectInvalidParam(await t.api('get', 'events/conflicts').query({ start_date: 'soonish', end_date: '2031-01-14 20:00', venue }), 'start_date');
  });

  it('needs a venue or organizers that exist, and an event to exclude that exists', async () => {
    const time = { start_date: '2031-01-14 20:00', end_date: '2031-01-14 21:00' };
    const none = await t.api('get', 'events/conflicts').query(time);
    expectInvalidParam(none, 'venue');
    expect(none.body.data.params.venue).toMatch(/venue/i);
    expectInvalidParam(await t.api('get', 'events/conflicts').query({ ...time, venue: 999999 }), 'venue');
    expectInvalidParam(await t.api('get', 'events/conflicts').query({ ...time, organizer: '999999' }), 'organizer');
    expectInvalidParam(await t.api('get', 'events/conflicts').query({ ...time, venue: 'hall' }), 'venue');
    const venue = (await mkVenue(t)).id;
    expectInvalidParam(await t.api('get', 'events/conflicts').query({ ...time, venue, exclude: 999999 }), 'exclude');
  });

  it('says so in the request language', async () => {
    const res = await t.api('get', 'events/conflicts').query({ start_date: '2031-01-14 20:00', end_date: '2031-01-14 21:00', i18n_language: 'pt-br' });
    expectError(res, 400, 'rest_invalid_param');
    expect(res.body.data.params.venue).toMatch(/local/);
  });

  it('is described in /doc', async () => {
    const doc = await t.api('get', 'doc');
    const op = doc.body.paths['/events/conflicts'].get;
    expect(op.summary).toMatch(/Almanac/);
    expect(op.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['start_date', 'end_date', 'venue', 'organizer', 'exclude']));
  });
});
