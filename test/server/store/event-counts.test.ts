/**
 * List totals come from per-day counts kept by triggers (store/event-counts.ts). A wrong total is
 * a wrong "X-WP-Total" and a missing last page, so these compare it with the events counted one by
 * one, after random writes of every kind (the store's and raw SQL, as another process would) and
 * for random windows that start and end mid-day, on the day of long events, or nowhere.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { closeDatabase, openDatabase } from '../../../electron/server/store/db';
import { createStore, type Store } from '../../../electron/server/store';
import type { EventListQuery } from '../../../electron/server/store/events';
import type { PostStatus } from '../../../shared/schema/kinds';

const ctx = { lang: 'en' as const, now: new Date('2026-05-01T12:00:00Z'), siteZone: 'UTC' };
const STATUSES: PostStatus[] = ['publish', 'draft', 'future', 'pending', 'private', 'trash'];

/** A day of March 2031 and an hour: few enough days that windows and events meet often. */
const at = (day: number, hour: number) => `2031-03-${String(day).padStart(2, '0')} ${String(hour).padStart(2, '0')}:${hour % 2 ? '30' : '00'}:00`;

/** An in-memory calendar with a second calendar to count apart. */
function memoryStore(): Store {
  const store = createStore(openDatabase(':memory:'));
  store.db.prepare("INSERT INTO calendars (id, name) VALUES (2, 'Second')").run();
  return store;
}

/** The list's WHERE, counted row by row: what the total must equal. */
function counted(store: Store, q: EventListQuery): number {
  const where = ['lang = ?', `status IN (${q.statuses.map(() => '?').join(',') || 'NULL'})`];
  const params: unknown[] = [q.lang, ...q.statuses];
  if (q.calendars) {
    where.push(`calendar_id IN (${q.calendars.map(() => '?').join(',') || 'NULL'})`);
    params.push(...q.calendars);
  }
  for (const [bound, sql] of [
    [q.startDate, 'start_local >= ?'],
    [q.startsAfter, 'start_local >= ?'],
    [q.endDate, 'end_local <= ?'],
    [q.endsBefore, 'end_local <= ?'],
  ] as const) {
    if (bound === undefined) continue;
    where.push(sql);
    params.push(bound);
  }
  return store.db.prepare(`SELECT count(*) FROM events WHERE ${where.join(' AND ')}`).pluck().get(...params) as number;
}

const eventArb = fc.record({
  day: fc.integer({ min: 1, max: 9 }),
  hour: fc.integer({ min: 0, max: 22 }),
  days: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 6 })),
  hours: fc.integer({ min: 1, max: 23 }),
  status: fc.constantFrom(...STATUSES.slice(0, 5)),
  lang: fc.constantFrom('en', 'es'),
  calendar: fc.constantFrom(1, 2),
});
type EventSpec = typeof eventArb extends fc.Arbitrary<infer T> ? T : never;

const endOf = (e: EventSpec) => at(Math.min(28, e.day + e.days), e.days === 0 ? Math.min(23, e.hour + 1) : e.hours);

const opArb = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), event: eventArb }),
  fc.record({ kind: fc.constant('move' as const), which: fc.nat(), event: eventArb }),
  fc.record({ kind: fc.constant('status' as const), which: fc.nat(), status: fc.constantFrom(...STATUSES) }),
  fc.record({ kind: fc.constant('delete' as const), which: fc.nat() }),
  fc.record({ kind: fc.constant('sql' as const), which: fc.nat(), event: eventArb }),
);

const boundArb = fc.option(fc.tuple(fc.integer({ min: 1, max: 11 }), fc.integer({ min: 0, max: 23 })), { nil: undefined });
const queryArb = fc.record({
  statuses: fc.subarray(STATUSES),
  lang: fc.constantFrom('en' as const, 'es' as const),
  calendars: fc.option(fc.subarray([1, 2]), { nil: undefined }),
  start: boundArb,
  end: boundArb,
  startsAfter: boundArb,
  endsBefore: boundArb,
});

type Op = typeof opArb extends fc.Arbitrary<infer T> ? T : never;

function apply(store: Store, ids: number[], op: Op) {
  const pick = (n: number) => ids[n % ids.length];
  if (op.kind === 'create') {
    const e = op.event;
    store.write(() => {
      const id = store.events.create(
        { title: 'E', start_date: at(e.day, e.hour), end_date: endOf(e), status: e.status, calendar: e.calendar },
        { ...ctx, lang: e.lang },
      );
      ids.push(id);
    });
    return;
  }
  if (ids.length === 0) return;
  const id = pick(op.which);
  if (op.kind === 'move') store.write(() => store.events.update(id, { start_date: at(op.event.day, op.event.hour), end_date: endOf(op.event) }, ctx));
  else if (op.kind === 'status') store.write(() => store.events.update(id, { status: op.status }, ctx));
  else if (op.kind === 'delete') {
    store.write(() => store.events.deleteForever(id));
    ids.splice(ids.indexOf(id), 1);
  } else {
    // Another process on the same file writes behind the store's back: the triggers still count.
    store.db
      .prepare('UPDATE events SET lang = ?, calendar_id = ?, start_local = ?, end_local = ? WHERE id = ?')
      .run(op.event.lang, op.event.calendar, at(op.event.day, op.event.hour), endOf(op.event), id);
  }
}

describe('list totals from per-day counts', () => {
  it('equal the events counted one by one, after any writes, for any window', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 40 }), fc.array(queryArb, { minLength: 1, maxLength: 8 }), (ops, queries) => {
        const store = memoryStore();
        try {
        const ids: number[] = [];
        for (const op of ops) apply(store, ids, op);
        for (const g of queries) {
          const bound = (b: [number, number] | undefined) => (b === undefined ? undefined : at(b[0], b[1]));
          const q: EventListQuery = {
            lang: g.lang,
            statuses: g.statuses,
            page: 1,
            perPage: 10,
            calendars: g.calendars,
            startDate: bound(g.start),
            endDate: bound(g.end),
            startsAfter: bound(g.startsAfter),
            endsBefore: bound(g.endsBefore),
          };
          expect(store.events.count(q)).toBe(counted(store, q));
        }
        } finally {
          closeDatabase(store.db);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('are what the API answers as X-WP-Total for a window that cuts through a long event', () => {
    const store = memoryStore();
    store.write(() => {
      store.events.create({ title: 'Festival', start_date: '2031-03-02 18:00:00', end_date: '2031-03-06 02:00:00' }, ctx);
      store.events.create({ title: 'Talk', start_date: '2031-03-06 01:00:00', end_date: '2031-03-06 01:30:00' }, ctx);
      store.events.create({ title: 'Late', start_date: '2031-03-06 03:00:00', end_date: '2031-03-06 04:00:00' }, ctx);
    });
    const q = (startDate: string, endDate: string): EventListQuery => ({ lang: 'en', statuses: ['publish'], page: 1, perPage: 10, startDate, endDate });
    // Ends at 02:00 on the last day: the festival is in, the late one is not.
    expect(store.events.count(q('2031-03-01 00:00:00', '2031-03-06 02:00:00'))).toBe(2);
    expect(store.events.count(q('2031-03-02 18:00:01', '2031-03-06 23:59:59'))).toBe(2);
    expect(store.events.count(q('2031-03-02 18:00:00', '2031-03-06 23:59:59'))).toBe(3);
  });
});
