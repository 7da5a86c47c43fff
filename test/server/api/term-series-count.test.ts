/**
 * Issue 27 §5.17: a category's events counted as a person counts them: a repeating event once
 * (`series_count`), while `count` stays the original's count of every published occurrence.
 * Kept by the database's triggers through trashing, restoring, splitting and deleting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { mkEvent, mkTerm } from './_support';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const counts = async (id: number) => {
  const { body } = await t.api('get', `categories/${id}`);
  return [body.count, body.series_count];
};
const recount = (id: number) =>
  (t.server.db.prepare("SELECT count(*) AS n FROM event_terms et JOIN events e ON e.id = et.event_id WHERE et.term_id = ? AND e.status = 'publish' AND e.parent_id IS NULL").get(id) as { n: number }).n;

describe('series_count', () => {
  it('counts a weekly class once and a single event once, through trash, restore, split and delete', async () => {
    const cat = await mkTerm(t, 'categories', { name: 'Classes' });
    const series = await mkEvent(t, { title: 'Yoga', categories: [cat.id], start_date: '2031-03-10 09:00', end_date: '2031-03-10 10:00', recurrence: { rules: ['FREQ=WEEKLY;COUNT=6'], rdates: [], exdates: [] } });
    const single = await mkEvent(t, { title: 'Workshop', categories: [cat.id] });
    expect(await counts(cat.id)).toEqual([7, 2]);

    expect((await t.api('delete', `events/${single.id}`)).status).toBe(200);
    expect(await counts(cat.id)).toEqual([6, 1]);
    expect((await t.api('post', `events/${single.id}`).send({ status: 'publish' })).status).toBe(200);
    expect(await counts(cat.id)).toEqual([7, 2]);

    // "This and following" from the fourth: two series now.
    const list = await t.api('get', 'events').query({ search: 'Yoga', start_date: '2031-01-01', end_date: '2031-12-31' });
    const fourth = list.body.events[3];
    const split = await t.api('post', `events/${fourth.id}`).query({ recurrence_scope: 'following' }).send({ title: 'Yoga (new room)' });
    expect(split.status).toBe(200);
    const [total, once] = await counts(cat.id);
    expect(total).toBe(7);
    expect(once).toBe(3);
    expect(once).toBe(recount(cat.id));

    expect((await t.api('delete', `events/${series.id}`).query({ recurrence_scope: 'all' })).status).toBe(200);
    expect((await counts(cat.id))[1]).toBe(recount(cat.id));
    expect((await t.api('delete', `events/${single.id}`)).status).toBe(200);
    expect((await t.api('delete', `events/${single.id}`).query({ force: true })).status).toBe(200);
    expect((await counts(cat.id))[1]).toBe(recount(cat.id));
  });
});
