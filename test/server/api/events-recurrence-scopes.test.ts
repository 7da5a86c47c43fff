/**
 * Repeating events, edits with a scope that a user makes one after the other: each change to all
 * must reach every occurrence not changed on its own, whatever came before it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { seriesHelpers } from './_series';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const { mkSeries, seriesEvents } = seriesHelpers(() => t);

describe('changes to all, one after the other', () => {
  it('a change to all made from another occurrence reaches them all after one made from the first event, which had its own title', async () => {
    const s = await mkSeries({ title: 'Class', start_date: '2038-05-03 10:00:00', end_date: '2038-05-03 11:00:00', timezone: 'UTC', recurrence: 'FREQ=DAILY;COUNT=3' });
    const all = await seriesEvents(s.id);
    await t.api('patch', `events/${s.id}`).send({ title: 'Kickoff' });
    expect((await t.api('patch', `events/${s.id}`).query({ recurrence_scope: 'all' }).send({ title: 'Yoga' })).status).toBe(200);
    expect((await seriesEvents(s.id)).map((e) => e.title)).toEqual(['Yoga', 'Yoga', 'Yoga']);
    expect((await t.api('patch', `events/${all[2].id}`).query({ recurrence_scope: 'all' }).send({ title: 'Pilates' })).status).toBe(200);
    expect((await seriesEvents(s.id)).map((e) => e.title)).toEqual(['Pilates', 'Pilates', 'Pilates']);
  });

  it('a venue for all after the first event had its own and gave it to all', async () => {
    const v1 = (await t.api('post', 'venues').send({ venue: 'Hall A' })).body.id as number;
    const v2 = (await t.api('post', 'venues').send({ venue: 'Hall B' })).body.id as number;
    const s = await mkSeries({ start_date: '2038-06-03 10:00:00', end_date: '2038-06-03 11:00:00', timezone: 'UTC', recurrence: 'FREQ=DAILY;COUNT=3' });
    const all = await seriesEvents(s.id);
    await t.api('patch', `events/${s.id}`).send({ venue: v1 });
    await t.api('patch', `events/${s.id}`).query({ recurrence_scope: 'all' }).send({ venue: v1 });
    await t.api('patch', `events/${all[1].id}`).query({ recurrence_scope: 'all' }).send({ venue: v2 });
    expect((await seriesEvents(s.id)).map((e) => (Array.isArray(e.venue) ? null : e.venue.id))).toEqual([v2, v2, v2]);
  });
});
