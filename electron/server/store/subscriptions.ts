/**
 * Read-only iCalendar subscriptions (issue 17 item 7): a calendar whose events are a published
 * feed's (`calendars.subscription_url`), refreshed from it, never written by the user. The feed's
 * validators (ETag, Last-Modified) make refreshes conditional; `subscription_items` holds a hash
 * of what each UID said, so a refresh rewrites only what changed and removes what went.
 */
import type { DB } from './db';
import type { CalendarRow } from './caldav-accounts';
import type { EventStore } from './events';

export interface NewSubscription {
  url: string;
  name: string;
  color: string | null;
}

export function createSubscriptionStore(db: DB, events: Pick<EventStore, 'deleteForever'>) {
  const insert = db.prepare<[string, string | null, string]>('INSERT INTO calendars (account_id, name, color, synced, read_only, subscription_url) VALUES (NULL, ?, ?, 0, 1, ?)');
  const byId = db.prepare<[number], CalendarRow>('SELECT * FROM calendars WHERE id = ? AND subscription_url IS NOT NULL');
  const all = db.prepare<[], CalendarRow>('SELECT * FROM calendars WHERE subscription_url IS NOT NULL ORDER BY name COLLATE NOCASE, id');
  const fetched = db.prepare<[string | null, string | null, string, number]>(
    'UPDATE calendars SET subscription_etag = ?, subscription_last_modified = ?, subscription_refreshed_utc = ?, last_error = NULL WHERE id = ?',
  );
  const unchanged = db.prepare<[string, number]>('UPDATE calendars SET subscription_refreshed_utc = ?, last_error = NULL WHERE id = ?');
  const failed = db.prepare<[string, number]>('UPDATE calendars SET last_error = ? WHERE id = ?');
  const anchored = db.prepare<[number], string>('SELECT DISTINCT ics_uid FROM events WHERE calendar_id = ? AND parent_id IS NULL AND ics_uid IS NOT NULL').pluck();
  const items = db.prepare<[number], { uid: string; hash: string }>('SELECT uid, hash FROM subscription_items WHERE calendar_id = ?');
  const putItem = db.prepare<[number, string, string]>('INSERT INTO subscription_items (calendar_id, uid, hash) VALUES (?, ?, ?) ON CONFLICT (calendar_id, uid) DO UPDATE SET hash = excluded.hash');
  const dropItem = db.prepare<[number, string]>('DELETE FROM subscription_items WHERE calendar_id = ? AND uid = ?');
  // Occurrence rows point at their series' first event: they go first.
  const eventIds = db.prepare<[number, number], number>('SELECT id FROM events WHERE calendar_id = ? ORDER BY parent_id IS NULL, id LIMIT ?').pluck();
  const deleteCalendar = db.prepare<[number]>('DELETE FROM calendars WHERE id = ? AND subscription_url IS NOT NULL');

  return {
    /** Adds the calendar of a subscription. Call inside a write transaction. */
    add: (s: NewSubscription): CalendarRow => byId.get(Number(insert.run(s.name, s.color, s.url).lastInsertRowid))!,
    get: (id: number): CalendarRow | undefined => byId.get(id),
    list: (): CalendarRow[] => all.all(),
    /** A new body was applied whole: its validators are the ones to send next time. */
    markFetched: (id: number, v: { etag: string | null; lastModified: string | null; nowUtc: string }) => void fetched.run(v.etag, v.lastModified, v.nowUtc, id),
    /** 304: the feed is as it was. */
    markUnchanged: (id: number, nowUtc: string) => void unchanged.run(nowUtc, id),
    markFailed: (id: number, error: string) => void failed.run(error, id),
    items: (id: number): Map<string, string> => new Map(items.all(id).map((r) => [r.uid, r.hash])),
    /** UIDs the calendar has events of (its first events' or single events'). */
    uids: (id: number): Set<string> => new Set(anchored.all(id)),
    putItem: (id: number, uid: string, hash: string) => void putItem.run(id, uid, hash),
    dropItem: (id: number, uid: string) => void dropItem.run(id, uid),
    /**
     * Removes up to `limit` of the subscription's events for good (occurrence rows before the
     * first events they point at; reminders, series and links go with them by ON DELETE
     * CASCADE), then, once none is left, the calendar and its item hashes. Returns whether there
     * is more to remove. Call inside a write transaction, again until it says false.
     */
    removeSome(id: number, limit: number): boolean {
      if (!byId.get(id)) return false;
      const ids = eventIds.all(id, limit);
      for (const e of ids) events.deleteForever(e);
      if (ids.length === limit) return true;
      deleteCalendar.run(id);
      return false;
    },
    /** All of it at once (a subscription whose first filling failed, so small). Call in a write transaction. */
    remove(id: number): boolean {
      if (!byId.get(id)) return false;
      while (this.removeSome(id, 1000));
      return true;
    },
  };
}

export type SubscriptionStore = ReturnType<typeof createSubscriptionStore>;
