/**
 * Migration 17 (occurrences of a site's series changed on their own): a calendar file from before
 * it may hold occurrences changed here on their own that were never sent (the sync then sent only
 * whole series); their series are queued again so that the next round sends them.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openDatabase, closeDatabase } from '../../../electron/server/store/db';
import { createStore } from '../../../electron/server/store';
import { tempDir } from '../../helpers/temp-dir';

const ctx = { lang: 'en' as const, now: new Date(), siteZone: 'Europe/Lisbon' };

describe('migration 17', () => {
  it('queues again the series of a site whose occurrences were changed here on their own, and no other', () => {
    const file = join(tempDir('almanac-mig17-'), 'almanac.sqlite');
    let db = openDatabase(file);
    const store = createStore(db);
    const uids = store.write(() => {
      const site = store.sites.add({ name: 'Club', url: 'https://club.example.org', apiRoot: 'https://club.example.org/wp-json/cal/events/v1/', username: 'owner', color: null, capabilities: {}, createdUtc: '2031-01-01T00:00:00Z' });
      const make = (title: string) => {
        const id = store.events.create({ title, start_date: '2031-10-07 19:00:00', end_date: '2031-10-07 21:00:00', timezone: 'Europe/Lisbon' }, ctx, { calendarId: site.calendar_id });
        store.series.create(id, { rules: ['FREQ=WEEKLY;COUNT=4'] });
        return id;
      };
      const changed = make('Changed');
      const second = store.db.prepare('SELECT id FROM events WHERE parent_id = ? ORDER BY recurrence_id LIMIT 1').pluck().get(changed) as number;
      store.series.update(store.events.get(second)!, { title: 'Changed, once' }, 'this', ctx);
      const untouched = make('Untouched');
      return { changed: store.events.icsUid(changed), untouched: store.events.icsUid(untouched) };
    });
    // As a file from before (16): the old sync had marked everything sent, it had no table for
    // occurrences, and its conflict copies a target column (dropped by 18).
    db.exec("DELETE FROM dav_outbox; DROP TABLE sync_occurrences; ALTER TABLE sync_conflicts ADD COLUMN target TEXT NOT NULL DEFAULT 'caldav'; PRAGMA user_version = 16;");
    closeDatabase(db);

    db = openDatabase(file);
    const queued = db.prepare('SELECT uid FROM dav_outbox').pluck().all();
    expect(queued).toEqual([uids.changed]);
    expect(queued).not.toContain(uids.untouched);
    expect(db.prepare('SELECT count(*) FROM sync_occurrences').pluck().get()).toBe(0);
    closeDatabase(db);
  });
});
