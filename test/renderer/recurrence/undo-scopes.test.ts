// @vitest-environment node
/**
 * Undo of "this and following" and "all events" against a real server: the calendar must be given
 * back exactly as it was, the occurrence the change was made on included, with what it had changed
 * on its own.
 * The renderer's event actions run as the calendar runs them; the checks read the API.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Event } from '@shared/api/records';
import { ApiClient } from '../../../renderer/src/api/client';
import { setApiClient } from '../../../renderer/src/state/api';
import { trashEvent, updateEvent, undoLast } from '../../../renderer/src/state/eventActions';
import { useUndo } from '../../../renderer/src/state/undo';
import { startTestServer, type TestServer } from '../../helpers/server';

let t: TestServer;
/** Requests the calendar sent. */
let sent = 0;
beforeAll(async () => {
  t = await startTestServer();
  const counted = ((...args: Parameters<typeof fetch>) => {
    sent++;
    return fetch(...args);
  }) as typeof fetch;
  setApiClient(new ApiClient({ base: `${t.server.url}/cal/events/v1/`, token: 'test-token-0123456789abcdef', language: () => 'en', fetch: counted }));
});
afterAll(async () => {
  setApiClient(null);
  await t?.close();
});
beforeEach(() => useUndo.getState().clear());

const get = async (id: number) => (await t.api('get', `events/${id}`)).body as Event;

/** What a user sees of the days around a series: each event's time, title, text, and whether it is its own. */
async function shown(from: string, to: string) {
  const res = await t.api('get', 'events').query({ start_date: from, end_date: to, per_page: 50 });
  return (res.body.events as Event[]).map((e) => [e.start_date, e.end_date, e.title, e.description, e.is_exception]);
}

/** A daily series of 6 at 10:00 whose third occurrence was retitled and moved on its own. */
async function seriesWithException(day: string) {
  const res = await t.api('post', 'events').send({ title: 'Class', description: 'Room 1', start_date: `${day} 10:00:00`, end_date: `${day} 11:00:00`, timezone: 'UTC', recurrence: 'FREQ=DAILY;COUNT=6' });
  const first = res.body as Event;
  const list = await t.api('get', 'events').query({ post_parent: first.id, start_date: day, end_date: '2040-01-01' });
  const others = list.body.events as Event[];
  const third = others[1];
  const own = await t.api('patch', `events/${third.id}`).send({ title: 'Guest talk', start_date: third.start_date.replace('10:00', '15:00'), end_date: third.end_date.replace('11:00', '16:00') });
  expect(own.body.is_exception).toBe(true);
  return { first, third: await get(third.id), others };
}

describe('undo of "this and following"', () => {
  it('gives back the occurrence it was made on with its own title and time, the series whole again', async () => {
    const { first, third } = await seriesWithException('2038-03-01');
    const before = await shown('2038-03-01', '2038-03-08');
    await updateEvent(third, { description: 'Room 2' }, 'following');
    expect((await shown('2038-03-01', '2038-03-08')).map((e) => e[3])).toEqual(['<p>Room 1</p>', '<p>Room 1</p>', '<p>Room 2</p>', '<p>Room 2</p>', '<p>Room 2</p>', '<p>Room 2</p>']);
    await undoLast();
    expect(await shown('2038-03-01', '2038-03-08')).toEqual(before);
    const list = await t.api('get', 'events').query({ post_parent: first.id, start_date: '2038-03-01', end_date: '2038-03-08' });
    expect(list.body.events.length).toBe(5);
  });

  it('gives back a move of this and following made on an occurrence moved on its own', async () => {
    const { third } = await seriesWithException('2038-05-01');
    const before = await shown('2038-05-01', '2038-05-08');
    await updateEvent(third, { start_date: '2038-05-03 17:00:00', end_date: '2038-05-03 18:00:00' }, 'following');
    expect((await shown('2038-05-01', '2038-05-08')).map((e) => e[0])).toEqual([
      '2038-05-01 10:00:00',
      '2038-05-02 10:00:00',
      '2038-05-03 17:00:00',
      '2038-05-04 17:00:00',
      '2038-05-05 17:00:00',
      '2038-05-06 17:00:00',
    ]);
    await undoLast();
    expect(await shown('2038-05-01', '2038-05-08')).toEqual(before);
  });

  it('gives back every value when another occurrence after it was changed on its own too', async () => {
    const { third, others } = await seriesWithException('2038-04-01');
    await t.api('patch', `events/${others[3].id}`).send({ title: 'Field trip' });
    const before = await shown('2038-04-01', '2038-04-08');
    await updateEvent(third, { title: 'Workshop', description: 'Room 2' }, 'following');
    expect((await shown('2038-04-01', '2038-04-08')).map((e) => e[2])).toEqual(['Class', 'Class', 'Workshop', 'Workshop', 'Field trip', 'Workshop']);
    await undoLast();
    expect(await shown('2038-04-01', '2038-04-08')).toEqual(before);
  });

  it('of an open-ended daily series reads the rows there are, not every day up to 2200', async () => {
    // Before, the undo listed the new series up to 2200, so the server wrote a row for every day
    // until then, 5,000 a request: the undo took 25 s and 113 requests.
    const first = (await t.api('post', 'events').send({ title: 'Daily', start_date: '2038-07-01 10:00:00', end_date: '2038-07-01 11:00:00', timezone: 'UTC', recurrence: 'FREQ=DAILY' })).body as Event;
    const list = await t.api('get', 'events').query({ post_parent: first.id, start_date: '2038-07-05', end_date: '2038-07-06' });
    const before = await shown('2038-07-01', '2038-07-10');
    await updateEvent(list.body.events[0] as Event, { title: 'Later' }, 'following');
    sent = 0;
    await undoLast();
    expect(await shown('2038-07-01', '2038-07-10')).toEqual(before);
    expect(sent).toBeLessThan(30);
    // Out of the other tests' days.
    await t.api('delete', `events/${first.id}`).query({ recurrence_scope: 'all' });
    await t.api('delete', `events/${first.id}`).query({ force: true });
  });
});

describe('undo of "all events"', () => {
  it('made on an occurrence with its own title gives the others back the series\' title, not its own', async () => {
    const { third } = await seriesWithException('2038-08-01');
    const before = await shown('2038-08-01', '2038-08-08');
    await updateEvent(third, { title: 'Yoga', description: 'Room 2' }, 'all');
    expect((await shown('2038-08-01', '2038-08-08')).map((e) => e[2])).toEqual(['Yoga', 'Yoga', 'Yoga', 'Yoga', 'Yoga', 'Yoga']);
    await undoLast();
    expect(await shown('2038-08-01', '2038-08-08')).toEqual(before);
  });

  it('of a time made on an occurrence moved on its own puts every one back where it was', async () => {
    const { third } = await seriesWithException('2038-09-01');
    const before = await shown('2038-09-01', '2038-09-08');
    await updateEvent(third, { start_date: '2038-09-03 17:00:00', end_date: '2038-09-03 18:00:00' }, 'all');
    expect((await shown('2038-09-01', '2038-09-08')).map((e) => String(e[0]).slice(11))).toEqual(['17:00:00', '17:00:00', '17:00:00', '17:00:00', '17:00:00', '17:00:00']);
    await undoLast();
    expect(await shown('2038-09-01', '2038-09-08')).toEqual(before);
  });
});

describe('undo of "delete all events"', () => {
  it('brings the series back when its first event was deleted for good before', async () => {
    const { first, others } = await seriesWithException('2038-10-01');
    await t.api('delete', `events/${first.id}`);
    await t.api('delete', `events/${first.id}`).query({ force: true });
    const before = await shown('2038-10-01', '2038-10-08');
    expect(before.length).toBe(5);
    await trashEvent(others[2], 'all');
    expect(await shown('2038-10-01', '2038-10-08')).toEqual([]);
    await undoLast();
    expect(await shown('2038-10-01', '2038-10-08')).toEqual(before);
    expect((await t.api('get', `events/${first.id}`)).status).toBe(404);
  });
});
