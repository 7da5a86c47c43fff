/**
 * Repeating events in the store: the bounds on the rows one import or one request writes, the
 * background extension that completes them, and calendars imported before series existed.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Store } from '../../../electron/server/store';
import { freshStore } from '../../helpers/fresh-store';
import { importFile } from '../../../electron/server/import-export/import-file';
import type { ImportReport } from '../../../electron/server/import-export/import-records';

const ctx = { lang: 'en' as const, now: new Date(), siteZone: 'Europe/Lisbon' };

const calendar = (...lines: string[]) => Buffer.from(['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n'));
const daily = (uid: string) => ['BEGIN:VEVENT', `UID:${uid}`, 'SUMMARY:Daily', 'DTSTART:20260105T090000Z', 'DTEND:20260105T100000Z', 'RRULE:FREQ=DAILY', 'END:VEVENT'];
const count = (store: Store) => store.db.prepare('SELECT count(*) FROM events').pluck().get() as number;

describe('rows written for series', () => {
  it('an import writes at most its allowance of occurrence rows, says so, and the background extension completes the rest', () => {
    const store = freshStore();
    const report = importFile(store, calendar(...daily('a'), ...daily('b'), ...daily('c')), { ctx, maxOccurrenceRows: 500 }) as ImportReport;
    expect(report.created).toBe(3);
    // The three first events, and 500 more rows.
    expect(count(store)).toBe(503);
    expect(report.warnings.map((w) => w.message)).toEqual([expect.stringContaining('more than 500 occurrences in the next two years; from "Daily" on')]);

    let batches = 0;
    while (store.series.extendHorizonBatch(store.write, 400)) batches++;
    expect(batches).toBeGreaterThan(1);
    const full = freshStore();
    importFile(full, calendar(...daily('a'), ...daily('b'), ...daily('c')), { ctx });
    expect(count(store)).toBe(count(full));
    expect(store.series.extendHorizonBatch(store.write)).toBe(false);
  });

  it('a list far beyond the horizon writes that window only, and at most a bounded number of rows per request', () => {
    const store = freshStore();
    importFile(store, calendar(...Array.from({ length: 4 }, (_, i) => daily(`d${i}`)).flat()), { ctx });
    const before = count(store);
    // 4 daily series, a two-year window in 2090: 2,920 occurrences, more than one request of 2,000
    // rows writes (the server's allowance is larger; the bound works the same).
    store.series.ensureWindow('2090-01-01 00:00:00', '2092-01-01 00:00:00', store.write, 2_000);
    const first = count(store) - before;
    expect(first).toBe(2_000);
    store.series.ensureWindow('2090-01-01 00:00:00', '2092-01-01 00:00:00', store.write, 2_000);
    expect(count(store) - before).toBe(4 * 730);
    // Nothing was written for the 62 years between.
    const between = store.db.prepare("SELECT count(*) FROM events WHERE start_local >= '2030-01-01' AND start_local < '2090-01-01'").pluck().get();
    expect(between).toBe(0);
  });

  it('a list of a month far beyond the horizon shows every open-ended series, however many there are', () => {
    const store = freshStore();
    const weekly = (uid: string) => ['BEGIN:VEVENT', `UID:${uid}`, 'SUMMARY:Weekly', 'DTSTART:20260105T090000Z', 'DTEND:20260105T100000Z', 'RRULE:FREQ=WEEKLY', 'END:VEVENT'];
    // More series than the store reads in one batch; a short horizon keeps the test quick.
    store.settings.update({ recurrence_horizon_months: 1 });
    importFile(store, calendar(...Array.from({ length: 130 }, (_, i) => weekly(`w${i}`)).flat()), { ctx });
    store.series.ensureWindow('2090-03-01 00:00:00', '2090-03-31 23:59:59', store.write);
    const seriesInMarch = store.db
      .prepare("SELECT count(DISTINCT parent_id) FROM events WHERE start_local >= '2090-03-01' AND start_local < '2090-04-01'")
      .pluck()
      .get();
    expect(seriesInMarch).toBe(130);
  });
});

describe('how far a list writes rows', () => {
  const between = (store: Store, from: string, to: string) =>
    store.db.prepare('SELECT count(*) FROM events WHERE start_local >= ? AND start_local < ?').pluck().get(from, to) as number;
  const monthsAhead = (n: number) => {
    const d = new Date();
    d.setUTCMonth(d.getUTCMonth() + n, 1);
    return d.toISOString().slice(0, 7);
  };

  it('a window longer than the horizon that starts inside it shows the rows there are and writes none past the horizon', () => {
    const store = freshStore();
    importFile(store, calendar(...Array.from({ length: 4 }, (_, i) => daily(`l${i}`)).flat()), { ctx });
    const before = count(store);
    // As the deep pages of a list of 2000-2100 ask, request after request.
    store.series.ensureWindow('2000-01-01 00:00:00', '2100-01-01 00:00:00', store.write);
    store.series.ensureWindow('2000-01-01 00:00:00', '2100-01-01 00:00:00', store.write);
    expect(count(store)).toBe(before);
    expect(between(store, `${monthsAhead(25)}-01`, '2100-01-01')).toBe(0);
  });

  it('a month that straddles the horizon gets all of its days', () => {
    const store = freshStore();
    importFile(store, calendar(...daily('s')), { ctx });
    const month = monthsAhead(24);
    const next = monthsAhead(25);
    store.series.ensureWindow(`${month}-01 00:00:00`, `${next}-01 00:00:00`, store.write);
    const days = Math.round((Date.parse(`${next}-01`) - Date.parse(`${month}-01`)) / 86_400_000);
    expect(between(store, `${month}-01`, `${next}-01`)).toBe(days);
  });

  it('a month more than a month past the rows there are writes that month only, not the months between', () => {
    const store = freshStore();
    importFile(store, calendar(...Array.from({ length: 3 }, (_, i) => daily(`m${i}`)).flat()), { ctx });
    const month = monthsAhead(38);
    const next = monthsAhead(39);
    store.series.ensureWindow(`${month}-01 00:00:00`, `${next}-01 00:00:00`, store.write);
    const days = Math.round((Date.parse(`${next}-01`) - Date.parse(`${month}-01`)) / 86_400_000);
    expect(between(store, `${month}-01`, `${next}-01`)).toBe(3 * days);
    expect(between(store, `${monthsAhead(26)}-01`, `${month}-01`)).toBe(0);
  });

  it('the default list asked again minutes later writes nothing (a write would empty every cache)', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const store = freshStore();
      importFile(store, calendar(...daily('q')), { ctx });
      const day = (d: Date) => d.toISOString().slice(0, 10);
      const window = () => {
        const until = new Date();
        until.setUTCMonth(until.getUTCMonth() + 24);
        return [`${day(new Date(Date.now() - 86_400_000))} 23:59:00`, `${day(until)} 23:59:59`] as const;
      };
      store.series.ensureWindow(...window(), store.write);
      const changes = () => store.db.prepare('SELECT total_changes()').pluck().get() as number;
      const before = changes();
      vi.setSystemTime(Date.now() + 5 * 60_000);
      store.series.ensureWindow(...window(), store.write);
      expect(store.series.extendHorizonBatch(store.write)).toBe(false);
      expect(changes()).toBe(before);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a background step with no time left still writes a row, so the extension always moves on', () => {
    const store = freshStore();
    const weekly = ['BEGIN:VEVENT', 'UID:t', 'SUMMARY:Weekly', 'DTSTART:20260105T090000Z', 'DTEND:20260105T100000Z', 'RRULE:FREQ=WEEKLY', 'END:VEVENT'];
    importFile(store, calendar(...weekly), { ctx, maxOccurrenceRows: 10 });
    const before = count(store);
    expect(store.series.extendHorizonBatch(store.write, 1000, 0)).toBe(true);
    expect(count(store)).toBe(before + 1);
    let steps = 1;
    while (store.series.extendHorizonBatch(store.write, 1000, 0)) steps++;
    const full = freshStore();
    importFile(full, calendar(...weekly), { ctx });
    expect(count(store)).toBe(count(full));
    expect(steps).toBeGreaterThan(80);
  });
});

describe('calendars imported before series existed', () => {
  it('become series on the next import of their file, keeping their rows and ids', () => {
    const store = freshStore();
    // What the importer wrote before: one row per occurrence, keyed <UID>#<original start>.
    const ids = store.write(() => {
      const first = store.events.create({ title: 'Old weekly', start_date: '2026-01-05 09:00:00', end_date: '2026-01-05 10:00:00', timezone: 'UTC' }, ctx, { icsUid: 'old#20260105T090000Z' });
      const rest = ['2026-01-12', '2026-01-19'].map((d) =>
        store.events.create({ title: 'Old weekly', start_date: `${d} 09:00:00`, end_date: `${d} 10:00:00`, timezone: 'UTC' }, ctx, { icsUid: `old#${d.replace(/-/g, '')}T090000Z`, parentId: first }),
      );
      return [first, ...rest];
    });
    const file = calendar('BEGIN:VEVENT', 'UID:old', 'SUMMARY:Old weekly', 'DTSTART:20260105T090000Z', 'DTEND:20260105T100000Z', 'X-ALMANAC-TIMEZONE:UTC', 'RRULE:FREQ=WEEKLY;COUNT=4', 'END:VEVENT');
    const report = importFile(store, file, { ctx }) as ImportReport;
    expect(report).toMatchObject({ created: 0, updated: 1 });
    const rows = store.db.prepare('SELECT id, parent_id, recurrence_id FROM events ORDER BY start_local').all();
    expect(rows).toEqual([
      { id: ids[0], parent_id: null, recurrence_id: '2026-01-05 09:00:00' },
      { id: ids[1], parent_id: ids[0], recurrence_id: '2026-01-12 09:00:00' },
      { id: ids[2], parent_id: ids[0], recurrence_id: '2026-01-19 09:00:00' },
      { id: expect.any(Number), parent_id: ids[0], recurrence_id: '2026-01-26 09:00:00' },
    ]);
    expect(store.series.get(ids[0])).toBeTruthy();
  });
});
