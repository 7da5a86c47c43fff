/**
 * The subscription service on its own: the background refresh on its interval (conditional, so
 * an unchanged feed is a 304), and a refresh that puts back events lost behind its back while
 * the feed's hashes still say they are there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshStore } from '../../helpers/fresh-store';
import { startFeedServer, icsFeed, type FeedServer } from '../../helpers/feed-server';
import { createSubscriptionService } from '../../../electron/server/subscriptions/service';
import type { Store } from '../../../electron/server/store';

let feed: FeedServer;
beforeAll(async () => {
  feed = await startFeedServer();
});
afterAll(async () => {
  await feed.close();
});

const write = () => ({ lang: 'en' as const, now: new Date(), siteZone: 'UTC' });
const titles = (store: Store, calendar: number) =>
  (store.db.prepare('SELECT title FROM events WHERE calendar_id = ? ORDER BY title').pluck().all(calendar) as string[]);

describe('subscription service', () => {
  it('refreshes on its interval, asking conditionally, and takes a new version when there is one', async () => {
    const store = freshStore();
    feed.setFeed(icsFeed('Club', [{ uid: 'meet@club', summary: 'Meeting', start: '20270110T180000Z', end: '20270110T190000Z' }]));
    const service = createSubscriptionService({ store, write, intervalMs: 150 });
    try {
      const { calendar } = await service.subscribe({ url: `${feed.url}/feed.ics` });
      const seen = feed.counts.notModified;
      service.start();
      await expect.poll(() => feed.counts.notModified, { timeout: 5000 }).toBeGreaterThan(seen);
      feed.setFeed(icsFeed('Club', [{ uid: 'meet@club', summary: 'Meeting (room 2)', start: '20270110T180000Z', end: '20270110T190000Z' }]));
      await expect.poll(() => titles(store, calendar.id), { timeout: 5000 }).toEqual(['Meeting (room 2)']);
    } finally {
      await service.close();
    }
  });

  it('writes a resource again when its events are gone though its hash is unchanged', async () => {
    const store = freshStore();
    feed.setFeed(icsFeed('Club', [
      { uid: 'a@club', summary: 'A', start: '20270110T180000Z', end: '20270110T190000Z' },
      { uid: 'b@club', summary: 'B', start: '20270111T180000Z', end: '20270111T190000Z' },
    ]));
    const service = createSubscriptionService({ store, write, intervalMs: 0 });
    try {
      const { calendar } = await service.subscribe({ url: `${feed.url}/feed.ics` });
      const kept = store.db.prepare("SELECT id FROM events WHERE title = 'A'").pluck().get();
      // As a backup restored over the calendar would leave it: B's row gone, the hashes not.
      store.write(() => store.davSync.asServer(() => store.davSync.deleteResource(calendar.id, 'b@club')));
      feed.setFeed(icsFeed('Club', [
        { uid: 'a@club', summary: 'A', start: '20270110T180000Z', end: '20270110T190000Z' },
        { uid: 'b@club', summary: 'B', start: '20270111T180000Z', end: '20270111T190000Z' },
        { uid: 'c@club', summary: 'C', start: '20270112T180000Z', end: '20270112T190000Z' },
      ]));
      const report = await service.refresh(calendar.id);
      expect(report).toMatchObject({ ok: true, added: 1, updated: 1, removed: 0 });
      expect(titles(store, calendar.id)).toEqual(['A', 'B', 'C']);
      expect(store.db.prepare("SELECT id FROM events WHERE title = 'A'").pluck().get()).toBe(kept);
    } finally {
      await service.close();
    }
  });
});
