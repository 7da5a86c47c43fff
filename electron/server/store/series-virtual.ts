/**
 * Occurrences shown without rows (issue 27 §4). A list of a window past the rows a series has (a
 * month of 2091, or next month while the horizon's rows are still being written) used to write
 * that window's rows first: some 4,000 rows for a month of 1,000 weekly series, a second of work
 * before the month could be drawn. Now the series whose occurrences are all alike (no template of
 * series values, a first event neither trashed nor hidden on its own: nearly all of them) give
 * that window's occurrences on the fly, from the one recurrence engine, and nothing is written.
 *
 * Such an occurrence has an id all the same, made from its series and its start (`virtualId`), so
 * a client can read, change or delete it like any event: a read is answered from its series, a
 * change or delete first writes its row (`materialise`), which keeps its own id from then on; the
 * occurrence's id in lists stays an alias of that row. A row written later for the same start (the
 * horizon moving on) is found before the alias is made, so no occurrence is ever listed twice.
 */
import { localToUtc } from '../../../shared/dates/format';
import { expand } from '../icalendar/recurrence';
import type { DB } from './db';
import { statementCache } from './db';
import type { CacheView } from './derived-cache';
import type { EventListQuery, EventRow, EventStore } from './events';
import { addSeconds, recurrenceOf, timingOf, wallMs, wallOfMs, type SeriesRecords, type SeriesRow } from './series-record';
import type { SeriesRows } from './series-rows';
import { HIDDEN_STATUS } from './series-fields';

/** Ids from here on are occurrences without rows: no post id comes near (2^52). */
const VIRTUAL_BASE = 2 ** 52;
/** Minutes since 1900 a start may be: 2^28 minutes reach past 2400. */
const MINUTES = 2 ** 28;
const SINCE = Date.UTC(1900, 0, 1);
/** Series ids that fit beside the minutes under 2^53 (a calendar has far fewer posts). */
const MAX_SERIES = 2 ** 24;

/**
 * The rule of which series show occurrences without rows, written once for the list's query and
 * the check of one series (`isVirtual`): a condition on `event_series s` joined to its first event
 * `a`, with `@maxId` bound to MAX_SERIES. Their occurrences are all alike (no template of series
 * values, a first event neither trashed nor hidden on its own), and each has an id: the series'
 * fits beside the minutes, and it starts on a whole minute (an id counts minutes).
 */
const SHOWN_WITHOUT_ROWS = `s.trashed = 0 AND s.template = '{}' AND s.id < @maxId
  AND a.status NOT IN ('trash', '${HIDDEN_STATUS}') AND substr(s.start_local, 18, 2) = '00'`;

export const isVirtualId = (id: number): boolean => Number.isSafeInteger(id) && id >= VIRTUAL_BASE;

/** The id of the occurrence of `seriesId` starting at `start` (a wall time), or undefined when it has none. */
export function virtualId(seriesId: number, start: string): number | undefined {
  const minutes = (wallMs(start) - SINCE) / 60_000;
  if (seriesId >= MAX_SERIES || !Number.isInteger(minutes) || minutes < 0 || minutes >= MINUTES) return undefined;
  return VIRTUAL_BASE + seriesId * MINUTES + minutes;
}

/** The series an occurrence's id belongs to. */
export const seriesOfVirtual = (id: number): number => Math.floor((id - VIRTUAL_BASE) / MINUTES);

function decode(id: number): { seriesId: number; start: string } {
  const n = id - VIRTUAL_BASE;
  const seriesId = Math.floor(n / MINUTES);
  return { seriesId, start: wallOfMs(SINCE + (n - seriesId * MINUTES) * 60_000) };
}

export interface VirtualOccurrence {
  id: number;
  seriesId: number;
  start_local: string;
  end_local: string;
}

export function createSeriesVirtual(db: DB, events: EventStore, records: SeriesRecords, rows: SeriesRows) {
  const stmt = statementCache(db);
  const { byId } = records;
  /**
   * Series that may show occurrences without rows in [from, to): rows stop before `to`, they do
   * not end before `from`, and the rule lets them (SHOWN_WITHOUT_ROWS).
   */
  const candidates = db.prepare<{ from: string; to: string; maxId: number }, SeriesRow>(
    `SELECT s.* FROM event_series s JOIN events a ON a.id = s.id
     WHERE (s.last_start IS NULL OR s.last_start >= s.generated_until) AND s.generated_until < @to
       AND (s.last_start IS NULL OR s.last_start >= @from) AND ${SHOWN_WITHOUT_ROWS}`,
  );
  const shownWithoutRows = db.prepare<{ id: number; maxId: number }, number>(
    `SELECT 1 FROM event_series s JOIN events a ON a.id = s.id WHERE s.id = @id AND ${SHOWN_WITHOUT_ROWS}`,
  ).pluck();
  /** Its rows' original starts in a window (the first event's own row among them). */
  const keysIn = db.prepare<{ id: number; from: string; to: string }, { recurrence_id: string }>(
    `SELECT recurrence_id FROM events WHERE parent_id = @id AND recurrence_id >= @from AND recurrence_id < @to
     UNION ALL SELECT recurrence_id FROM events WHERE id = @id AND recurrence_id >= @from AND recurrence_id < @to`,
  );
  /** Series with rows written past where their rows reach (far windows, materialised occurrences) in a window. */
  const withFarRows = db.prepare<{ from: string; to: string }, number>('SELECT DISTINCT series_id FROM series_windows WHERE to_local > @from AND from_local < @to').pluck();
  const rowAt = db.prepare<{ id: number; key: string }, { id: number }>(
    'SELECT id FROM events WHERE parent_id = @id AND recurrence_id = @key UNION ALL SELECT id FROM events WHERE id = @id AND recurrence_id = @key',
  );

  /** Whether the series makes an occurrence starting at `start`. */
  const makes = (s: SeriesRow, start: string) => expand(recurrenceOf(s), timingOf(s), start, addSeconds(start, 1)).starts.includes(start);

  return {
    /** Whether the series shows occurrences without rows past where its rows reach (SHOWN_WITHOUT_ROWS). */
    isVirtual(seriesId: number): boolean {
      return shownWithoutRows.get({ id: seriesId, maxId: MAX_SERIES }) !== undefined;
    },
    /** The series a list of [from, to) shows without rows (a list leaves their rows unwritten). */
    seriesFor(from: string, to: string): SeriesRow[] {
      return candidates.all({ from, to, maxId: MAX_SERIES });
    },
    /** Their occurrences in [from, to) (by start) that have no row, with the ids lists give them. */
    occurrences(series: SeriesRow[], from: string, to: string, opts: { firstPerSeries?: number } = {}): VirtualOccurrence[] {
      const out: VirtualOccurrence[] = [];
      // Past where a series' rows reach, only its far windows have rows: the others need no look.
      const farRows = new Set(withFarRows.all({ from, to }));
      for (const s of series) {
        const lo = from > s.generated_until ? from : s.generated_until;
        if (lo >= to) continue;
        const starts = expand(recurrenceOf(s), timingOf(s), lo, to, { maxResults: opts.firstPerSeries }).starts;
        if (!starts.length) continue;
        const have = farRows.has(s.id) ? new Set(keysIn.all({ id: s.id, from: lo, to }).map((r) => r.recurrence_id)) : undefined;
        for (const start of starts) {
          if (have?.has(start)) continue;
          const id = virtualId(s.id, start);
          if (id !== undefined) out.push({ id, seriesId: s.id, start_local: start, end_local: addSeconds(start, s.duration_s) });
        }
      }
      return out;
    },
    /**
     * A page of a list of [from, to) whose `series` show their occurrences without rows: the
     * list's rows and those occurrences its filters let through, merged by start. The whole
     * window's list is kept in `cache` (a month's pages are asked together) until the data changes.
     */
    listPage(q: EventListQuery, series: SeriesRow[], from: string, to: string, cache: CacheView<number[]>): { ids: number[]; total: number } {
      const key = JSON.stringify({ ...q, page: 0, perPage: 0 });
      let all = cache.get(key);
      if (!all) {
        const shown = events.matchingApartFromDates(q, series.map((s) => s.id));
        const inWindow = (o: VirtualOccurrence) =>
          (q.startDate === undefined || o.start_local >= q.startDate) && (q.endDate === undefined || o.end_local <= q.endDate) &&
          (q.startsAfter === undefined || o.start_local >= q.startsAfter) && (q.startsBefore === undefined || o.start_local <= q.startsBefore) &&
          (q.endsAfter === undefined || o.end_local >= q.endsAfter) && (q.endsBefore === undefined || o.end_local <= q.endsBefore);
        const unwritten = this.occurrences(series.filter((s) => shown.has(s.id)), from, to).filter(inWindow);
        all = [...events.listKeys(q), ...unwritten].sort((a, b) => (a.start_local < b.start_local ? -1 : a.start_local > b.start_local ? 1 : a.id - b.id)).map((e) => e.id);
        cache.set(key, all);
      }
      const offset = (q.page - 1) * q.perPage;
      return { ids: all.slice(offset, offset + q.perPage), total: all.length };
    },
    /** Rows standing for occurrences by their ids, made from their series' first events. */
    rowsFor(ids: number[]): Map<number, EventRow> {
      const out = new Map<number, EventRow>();
      // A page's occurrences are mostly of a few series: each series and first event read once.
      const read = new Map<number, { s?: SeriesRow; anchor?: EventRow }>();
      for (const id of ids) {
        const { seriesId, start } = decode(id);
        let known = read.get(seriesId);
        if (!known) {
          const s = byId.get(seriesId);
          read.set(seriesId, (known = { s, anchor: s && events.get(seriesId) }));
        }
        const { s, anchor } = known;
        if (!s || !anchor) continue;
        const end = addSeconds(start, s.duration_s);
        out.set(id, {
          ...anchor,
          id,
          slug: `${anchor.slug}-${start.slice(0, 10)}`,
          translation_group: id,
          parent_id: s.id,
          recurrence_id: start,
          own_fields: 0,
          ics_uid: null,
          start_local: start,
          end_local: end,
          start_utc: localToUtc(start, s.timezone),
          end_utc: localToUtc(end, s.timezone),
          timezone: s.timezone,
          all_day: s.all_day,
        });
      }
      return out;
    },
    /**
     * The event an occurrence's id stands for: its row when it has one (written since), else
     * `undefined` with `exists` telling whether the series still makes it (a read is answered
     * from `rowsFor` then).
     */
    resolve(id: number): { row?: number; exists: boolean } {
      const { seriesId, start } = decode(id);
      const s = byId.get(seriesId);
      if (!s) return { exists: false };
      const row = rowAt.get({ id: seriesId, key: start })?.id;
      if (row !== undefined) return { row, exists: true };
      return { exists: !s.trashed && makes(s, start) };
    },
    /** Writes the row of the occurrence `id` stands for (once), and gives its id. Call in a write. */
    materialise(id: number): number | undefined {
      const { seriesId, start } = decode(id);
      const s = byId.get(seriesId);
      if (!s || s.trashed) return undefined;
      const have = rowAt.get({ id: seriesId, key: start })?.id;
      if (have !== undefined) return have;
      if (!makes(s, start)) return undefined;
      rows.generate(s, start, addSeconds(start, 1));
      // A far window's row, kept by later changes to the series as the windows' rows are.
      if (start >= s.generated_until) stmt('INSERT INTO series_windows (series_id, from_local, to_local) VALUES (?, ?, ?)').run(s.id, start, addSeconds(start, 1));
      return rowAt.get({ id: seriesId, key: start })?.id;
    },
  };
}

export type SeriesVirtual = ReturnType<typeof createSeriesVirtual>;
