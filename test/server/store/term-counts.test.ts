/** Term counts are stored and kept by triggers; these tests catch any path that lets them drift. */
import { describe, it, expect, beforeEach } from 'vitest';
import { openDatabase } from '../../../electron/server/store/db';
import { createStore, type Store } from '../../../electron/server/store';
import { importFile } from '../../../electron/server/import-export/import-file';
import { exportIcs } from '../../../electron/server/icalendar/export';
import { event as record, term } from '../import-export/records';

const ctx = { lang: 'en' as const, now: new Date('2026-05-01T12:00:00Z'), siteZone: 'UTC' };
let store: Store;

function counts() {
  return Object.fromEntries(store.db.prepare('SELECT name, count FROM terms ORDER BY id').all().map((r) => [(r as { name: string }).name, (r as { count: number }).count]));
}

/** The count recomputed from scratch, to compare with the stored one. */
function recomputed() {
  return Object.fromEntries(
    store.db
      .prepare(`SELECT t.name, (SELECT count(*) FROM event_terms et JOIN events e ON e.id = et.event_id WHERE et.term_id = t.id AND e.status = 'publish') AS n FROM terms t ORDER BY t.id`)
      .all()
      .map((r) => [(r as { name: string }).name, (r as { n: number }).n]),
  );
}

const event = (extra: Record<string, unknown>) =>
  store.write(() => store.events.create({ title: 'E', start_date: '2031-01-01 10:00', end_date: '2031-01-01 11:00', ...extra }, ctx));

beforeEach(() => {
  store = createStore(openDatabase(':memory:'));
});

describe('term counts', () => {
  it('count published events only, through every status change', () => {
    const a = event({ categories: ['Music', 'Art'], tags: ['outdoor'] });
    const b = event({ categories: ['Music'], status: 'draft' });
    expect(counts()).toEqual({ Music: 1, Art: 1, outdoor: 1 });
    store.write(() => store.events.update(b, { status: 'publish' }, ctx));
    expect(counts()).toMatchObject({ Music: 2 });
    store.write(() => store.events.trash(a, ctx));
    expect(counts()).toEqual({ Music: 1, Art: 0, outdoor: 0 });
    store.write(() => store.events.update(a, { status: 'publish' }, ctx));
    expect(counts()).toEqual({ Music: 2, Art: 1, outdoor: 1 });
    expect(counts()).toEqual(recomputed());
  });

  it('follow terms added to and removed from an event', () => {
    const a = event({ categories: ['Music'] });
    store.write(() => store.events.update(a, { categories: ['Art'] }, ctx));
    expect(counts()).toEqual({ Music: 0, Art: 1 });
    store.write(() => store.events.update(a, { categories: [] }, ctx));
    expect(counts()).toEqual({ Music: 0, Art: 0 });
    expect(counts()).toEqual(recomputed());
  });

  it('drop when a published event is deleted for good, and stay right when a trashed one is', () => {
    const a = event({ tags: ['x', 'y'] });
    const b = event({ tags: ['x'] });
    store.write(() => store.events.deleteForever(a));
    expect(counts()).toEqual({ x: 1, y: 0 });
    store.write(() => store.events.trash(b, ctx));
    store.write(() => store.events.deleteForever(b));
    expect(counts()).toEqual({ x: 0, y: 0 });
    expect(counts()).toEqual(recomputed());
  });

  // An import writes many events in one transaction, updating the ones a file imported before.
  it('are right after an import, and after a second import that changes terms and statuses', () => {
    const before = event({ categories: ['Music'], tags: ['outdoor'] });
    const file = (variant: 0 | 1) =>
      Buffer.from(
        exportIcs(
          Array.from({ length: 30 }, (_, i) =>
            record({
              id: 100 + i,
              title: `Imported ${i}`,
              start_date: `2031-02-${String(1 + (i % 28)).padStart(2, '0')} 10:00:00`,
              end_date: `2031-02-${String(1 + (i % 28)).padStart(2, '0')} 11:00:00`,
              timezone: 'UTC',
              status: variant === 1 && i % 3 === 0 ? 'draft' : 'publish',
              categories: [term(1, (variant === 0 ? ['Music', 'Art'] : ['Art', 'Film'])[i % 2], 'categories')],
              tags: i % 4 === 0 ? [term(2, 'outdoor', 'tags')] : [],
            }),
          ),
          { uidHost: 'counts.test' },
        ),
      );
    importFile(store, file(0), { format: 'ics', ctx });
    expect(counts()).toEqual({ Music: 16, outdoor: 9, Art: 15 });
    expect(counts()).toEqual(recomputed());
    // The same events (same UIDs), now with other terms and some drafts: updated, not added.
    importFile(store, file(1), { format: 'ics', ctx });
    expect(counts()).toEqual(recomputed());
    expect(counts()).toMatchObject({ Music: 1, Film: 10, Art: 10 });
    // The triggers are back: an event written afterwards counts at once.
    store.write(() => store.events.update(before, { status: 'draft' }, ctx));
    expect(counts()).toMatchObject({ Music: 0 });
    expect(counts()).toEqual(recomputed());
  });
});
