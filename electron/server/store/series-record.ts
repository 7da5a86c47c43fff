/**
 * A series' own row (`event_series`): its rule, timing and template of series values, read and
 * saved here, with the edits of its rule that a single occurrence makes (an EXDATE when it is
 * deleted, an RDATE when it is restored past the series' end). The other series modules build on
 * this one: `series-rows.ts` (expansion into rows), `series-horizon.ts` (rows as time passes and
 * far windows), `series-values.ts` (the series' values and the first event's own), `series-scopes.ts`
 * (edits of this / following / all) and `series-trash.ts` (trash, restore, delete for good).
 */
import { wallAsUtc } from '../../../shared/dates/format';
import { ApiError, invalidParams } from '../errors';
import { expand, icalValue, lastStart, RecurrenceProblem, type Recurrence, type SeriesTiming } from '../icalendar/recurrence';
import { statementCache, type DB } from './db';
import type { EventRow, EventStore } from './events';

export interface SeriesRow {
  id: number;
  recurrence: string;
  start_local: string;
  timezone: string;
  all_day: number;
  duration_s: number;
  last_start: string | null;
  generated_until: string;
  template: string;
  trashed: number;
  /** Its first event was deleted for good: it stays hidden, its date excluded, whatever the series does. */
  first_deleted: number;
}

export type RecurrenceScope = 'this' | 'following' | 'all';

/** Series values of the groups the anchor changed on its own. */
export interface Template {
  cols?: Record<string, unknown>;
  organizers?: number[];
  categories?: number[];
  tags?: number[];
}

/** How many rows a piece of work may still write. */
export interface Budget {
  left: number;
  /** `performance.now()` after which no more rows are written (background steps). */
  until?: number;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
export const wallMs = (s: string) =>
  wallAsUtc({ year: +s.slice(0, 4), month: +s.slice(5, 7), day: +s.slice(8, 10), hour: +s.slice(11, 13) || 0, minute: +s.slice(14, 16) || 0, second: +s.slice(17, 19) || 0 });
export function wallOfMs(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}
export const addSeconds = (local: string, s: number) => wallOfMs(wallMs(local) + s * 1000);
export function addMonths(local: string, months: number): string {
  const d = new Date(wallMs(local));
  d.setUTCMonth(d.getUTCMonth() + months);
  return wallOfMs(d.getTime());
}

export function recurrenceProblem(err: unknown): ApiError {
  const reason = err instanceof Error ? err.message : String(err);
  return invalidParams({ recurrence: 'invalid_recurrence' }, {
    recurrence: { code: 'invalid-recurrence', messageKey: 'invalid-recurrence', vars: { reason }, data: { status: 400 } },
  });
}

/** A rule's problem as the API's error. */
export function checked<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof RecurrenceProblem) throw recurrenceProblem(err);
    throw err;
  }
}

export const timingOf = (s: SeriesRow): SeriesTiming => ({ start: s.start_local, zone: s.timezone, allDay: !!s.all_day });
export const recurrenceOf = (s: SeriesRow): Recurrence => JSON.parse(s.recurrence) as Recurrence;
export const templateOf = (s: SeriesRow): Template => JSON.parse(s.template) as Template;

export type MemberRow = { id: number; recurrence_id: string | null; own_fields: number; status: string; start_local: string; end_local: string };

export function createSeriesRecords(db: DB, events: EventStore) {
  const stmt = statementCache(db);
  const byId = db.prepare<[number], SeriesRow>('SELECT * FROM event_series WHERE id = ?');
  const membersOf = db.prepare<[number, number], MemberRow>(
    'SELECT id, recurrence_id, own_fields, status, start_local, end_local FROM events WHERE id = ? OR parent_id = ? ORDER BY recurrence_id',
  );

  function saveSeries(s: SeriesRow): void {
    stmt(
      `INSERT INTO event_series (id, recurrence, start_local, timezone, all_day, duration_s, last_start, generated_until, template, trashed, first_deleted)
       VALUES (@id, @recurrence, @start_local, @timezone, @all_day, @duration_s, @last_start, @generated_until, @template, @trashed, @first_deleted)
       ON CONFLICT (id) DO UPDATE SET recurrence = excluded.recurrence, start_local = excluded.start_local, timezone = excluded.timezone,
         all_day = excluded.all_day, duration_s = excluded.duration_s, last_start = excluded.last_start,
         generated_until = excluded.generated_until, template = excluded.template, trashed = excluded.trashed,
         first_deleted = excluded.first_deleted`,
    ).run(s);
  }

  /** The series an event belongs to: its own (when it is the first event) or its parent's. */
  function seriesOfRow(row: Pick<EventRow, 'id' | 'parent_id' | 'recurrence_id'>): SeriesRow | undefined {
    if (row.recurrence_id === null) return undefined;
    return byId.get(row.parent_id ?? row.id);
  }

  /** Adds or removes an occurrence's key in the EXDATEs. */
  function setExcluded(s: SeriesRow, key: string, excluded: boolean): void {
    const rec = recurrenceOf(s);
    const value = icalValue(key, !!s.all_day);
    const has = rec.exdates.includes(value);
    if (excluded === has) return;
    rec.exdates = excluded ? [...rec.exdates, value].sort() : rec.exdates.filter((v) => v !== value);
    s.recurrence = JSON.stringify(rec);
    saveSeries(s);
  }

  /**
   * Makes the series include `key` again: an occurrence restored from the trash after its series was
   * ended before it ("delete this and following") becomes an RDATE, so the rule keeps it (through a
   * move of all) and an export writes it.
   */
  function keepDate(s: SeriesRow, key: string): void {
    const rec = recurrenceOf(s);
    const timing = timingOf(s);
    if (expand(rec, timing, key, addSeconds(key, 1)).starts.includes(key)) return;
    rec.rdates = [...rec.rdates, icalValue(key, !!s.all_day)].sort();
    s.recurrence = JSON.stringify(rec);
    s.last_start = checked(() => lastStart(rec, timing));
    saveSeries(s);
  }

  return {
    stmt,
    byId,
    membersOf,
    saveSeries,
    seriesOfRow,
    setExcluded,
    keepDate,
    removeRow: (id: number): void => events.deleteForever(id),
  };
}

export type SeriesRecords = ReturnType<typeof createSeriesRecords>;
