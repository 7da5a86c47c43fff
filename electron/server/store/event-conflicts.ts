/**
 * Double bookings: the events that hold a venue, or any of some organizers, at a time overlapping
 * a window (`GET /events/conflicts`). Times are compared in UTC, so events of different zones meet
 * where they really do; touching ends (one ends as the other starts) do not overlap.
 *
 * An interval query answered from indexes (migration 11): events shorter than a day that overlap
 * the window start less than a day before it, a short range of `events_when`; the few a day long
 * or more are in the partial index `events_long`, by their end. Past the rows a series has (the
 * horizon), the occurrences of the series that would hold the venue or an organizer count too:
 * expanded on the fly (series-virtual.ts), or, for the few series that cannot be, their rows for
 * that window written first (series-horizon.ts).
 */
import { addSeconds } from './series-record';
import type { DB } from './db';
import { statementCache } from './db';
import type { PostStatus } from '../../../shared/schema/kinds';
import type { SeriesStore } from './series';
import { localToUtc, utcToLocal } from '../../../shared/dates/format';
import type { EventStore } from './events';
import type { SeriesRow } from './series-record';
import { isVirtualId, seriesOfVirtual } from './series-virtual';

/** At most this many conflicts are answered: a booking check needs the first few, never thousands. */
const MAX_CONFLICTS = 100;

export interface ConflictQuery {
  /** UTC `Y-m-d H:i:s`; start < end. */
  startUtc: string;
  endUtc: string;
  venue?: number;
  organizers?: number[];
  /** An event that does not conflict with itself, nor with the other occurrences of its series. */
  exclude?: number;
  statuses: PostStatus[];
}

/** The "long" events of `events_long`: keep this expression as the migration's index writes it. */
const LONG = 'julianday(e.end_utc) - julianday(e.start_utc) >= 1';

export function createEventConflicts(db: DB, events: EventStore, series: SeriesStore, write: <T>(fn: () => T) => T) {
  const stmt = statementCache(db);
  const seriesOfEvent = db.prepare<[number], { id: number; parent_id: number | null; recurrence_id: string | null }>('SELECT id, parent_id, recurrence_id FROM events WHERE id = ?');

  function matchSql(q: ConflictQuery, params: unknown[]): string {
    const parts: string[] = [];
    if (q.venue !== undefined) {
      parts.push('e.venue_id = ?');
      params.push(q.venue);
    }
    if (q.organizers?.length) {
      parts.push(`EXISTS (SELECT 1 FROM event_organizers o WHERE o.event_id = e.id AND o.organizer_id IN (${q.organizers.map(() => '?').join(',')}))`);
      params.push(...q.organizers);
    }
    return `(${parts.join(' OR ')})`;
  }

  /**
   * Series that would hold the venue or an organizer and whose rows stop before the window's end:
   * their occurrences in the window are written first. The series' own values (its template) win
   * over its first event's, as they do for the rows it writes.
   */
  function seriesShortOf(q: ConflictQuery): SeriesRow[] {
    const params: unknown[] = [addSeconds(q.endUtc, 86_400), q.startUtc];
    const parts: string[] = [];
    if (q.venue !== undefined) {
      parts.push("coalesce(json_extract(s.template, '$.cols.venue_id'), e.venue_id) = ?");
      params.push(q.venue);
    }
    if (q.organizers?.length) {
      const marks = q.organizers.map(() => '?').join(',');
      parts.push(`CASE WHEN json_type(s.template, '$.organizers') IS NOT NULL
        THEN EXISTS (SELECT 1 FROM json_each(s.template, '$.organizers') WHERE value IN (${marks}))
        ELSE EXISTS (SELECT 1 FROM event_organizers o WHERE o.event_id = s.id AND o.organizer_id IN (${marks})) END`);
      params.push(...q.organizers, ...q.organizers);
    }
    // Wall times against UTC ones: a day's slack covers every zone's offset.
    return stmt(
      `SELECT s.* FROM event_series s JOIN events e ON e.id = s.id
       WHERE s.trashed = 0 AND (s.last_start IS NULL OR s.last_start >= s.generated_until) AND s.generated_until < ?
         AND (s.last_start IS NULL OR s.last_start >= datetime(?, '-1 day', printf('-%d seconds', s.duration_s)))
         AND (${parts.join(' OR ')})`,
    ).all(...params) as SeriesRow[];
  }

  return {
    /** Event ids, by start, of the events that conflict with `q` (at most MAX_CONFLICTS). */
    find(q: ConflictQuery): number[] {
      // An occurrence shown without a row is excluded with its series, as a row of it would be.
      const exclude = q.exclude === undefined ? undefined : isVirtualId(q.exclude) ? { id: q.exclude, parent_id: seriesOfVirtual(q.exclude), recurrence_id: '' } : seriesOfEvent.get(q.exclude);
      const excludedSeries = exclude && exclude.recurrence_id !== null ? (exclude.parent_id ?? exclude.id) : undefined;
      // Occurrences past the rows: shown without rows where the series allows (series-virtual.ts),
      // else that window's rows written first.
      const unwritten: Array<{ id: number; start_utc: string }> = [];
      for (const s of seriesShortOf(q)) {
        if (s.id === excludedSeries) continue;
        const from = addSeconds(utcToLocal(q.startUtc, s.timezone), -s.duration_s);
        const to = utcToLocal(q.endUtc, s.timezone);
        if (!series.virtual.isVirtual(s.id)) {
          series.ensureWindow(from, to, write, undefined, s.id);
          continue;
        }
        if (!q.statuses.includes(events.statusOf.get(s.id)!.status)) continue;
        // The first ones of each series are all a bounded answer can need, however long the time asked.
        for (const o of series.virtual.occurrences([s], from, to, { firstPerSeries: MAX_CONFLICTS })) {
          const start = localToUtc(o.start_local, s.timezone);
          if (start < q.endUtc && localToUtc(o.end_local, s.timezone) > q.startUtc) unwritten.push({ id: o.id, start_utc: start });
        }
      }
      const common = (params: unknown[]): string => {
        const where = [`e.end_utc > ?`, `e.start_utc < ?`, `e.status IN (${q.statuses.map(() => '?').join(',')})`];
        params.push(q.startUtc, q.endUtc, ...q.statuses);
        where.push(matchSql(q, params));
        if (exclude) {
          where.push('e.id != ?');
          params.push(exclude.id);
          if (exclude.recurrence_id !== null) {
            // The other occurrences of its series are the same booking.
            where.push('NOT (e.recurrence_id IS NOT NULL AND coalesce(e.parent_id, e.id) = ?)');
            params.push(exclude.parent_id ?? exclude.id);
          }
        }
        return where.join(' AND ');
      };
      const params: unknown[] = [addSeconds(q.startUtc, -86_400)];
      const short = `SELECT e.id, e.start_utc FROM events e WHERE e.start_utc > ? AND ${common(params)}`;
      const long = `SELECT e.id, e.start_utc FROM events e WHERE ${LONG} AND ${common(params)}`;
      params.push(MAX_CONFLICTS);
      const rows = stmt(`${short} UNION ${long} ORDER BY 2, 1 LIMIT ?`).all(...params) as Array<{ id: number; start_utc: string }>;
      if (!unwritten.length) return rows.map((r) => r.id);
      return [...rows, ...unwritten]
        .sort((a, b) => (a.start_utc < b.start_utc ? -1 : a.start_utc > b.start_utc ? 1 : a.id - b.id))
        .slice(0, MAX_CONFLICTS)
        .map((r) => r.id);
    },
  };
}

export type EventConflicts = ReturnType<typeof createEventConflicts>;
