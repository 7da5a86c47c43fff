/**
 * The total of an events list from the per-day counts (migration 7, `event_day_counts`), for the
 * lists that filter on language, status, calendar and a window alone: the default list, the
 * calendar's months and weeks, a deep page. Counting their rows one by one costs as many index
 * steps as there are events in the window (47,000 in a two-year window with 1,000 weekly series);
 * the sum costs a few thousand, whatever the events. Lists with other filters count their rows.
 *
 * The window is start ≥ S and end ≤ E. Grouped by start day and end day, every group strictly
 * inside (start day after S's day, end day before E's) is wholly in the list and every group
 * outside is wholly out: only events that start on S's day, or end on E's day, are read and
 * checked one by one.
 */
import type { DB, Stmt } from './db';
import { statementCache } from './db';
import type { EventListQuery } from './events';

/** The day after a `Y-m-d` day, as `Y-m-d` (UTC arithmetic on a date alone is exact). */
function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

const isDay = (day: string) => /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(Date.parse(`${day}T00:00:00Z`));
const latest = (a: string | undefined, b: string | undefined) => (a === undefined ? b : b === undefined || a > b ? a : b);
const earliest = (a: string | undefined, b: string | undefined) => (a === undefined ? b : b === undefined || a < b ? a : b);

export function createEventCounts(db: DB) {
  const stmt: (sql: string) => Stmt = statementCache(db);
  const marks = (n: number) => Array(n).fill('?').join(',');

  /**
   * The list's total, or undefined when a filter the counts do not hold (search, terms, venue,
   * featured, series, geography, ids, a lower bound on the end or an upper one on the start) is set.
   */
  /** `langs`: the list's language, and NO_LANGUAGE when events without one exist (they show in every list). */
  return function total(q: EventListQuery, langs: string[] = [q.lang]): number | undefined {
    if (
      q.include || q.search !== undefined || q.categories || q.tags || q.venues || q.organizers || q.featured !== undefined ||
      q.postParent !== undefined || q.geoloc || q.near || q.startsBefore !== undefined || q.endsAfter !== undefined
    ) {
      return undefined;
    }
    // The same bounds as the list's WHERE: start ≥ both lower bounds, end ≤ both upper ones.
    const from = latest(q.startDate, q.startsAfter);
    const to = earliest(q.endDate, q.endsBefore);
    if (q.statuses.length === 0) return 0;
    const keyWhere = [langs.length === 1 ? 'lang = ?' : `lang IN (${marks(langs.length)})`, `status IN (${marks(q.statuses.length)})`];
    const keyParams: unknown[] = [...langs, ...q.statuses];
    if (q.calendars) {
      if (q.calendars.length === 0) return 0;
      keyWhere.push(`calendar_id IN (${marks(q.calendars.length)})`);
      keyParams.push(...q.calendars);
    }
    const fromDay = from?.slice(0, 10);
    const toDay = to?.slice(0, 10);
    // The bounds come checked from the API; anything else is counted row by row rather than guessed.
    if ((fromDay !== undefined && !isDay(fromDay)) || (toDay !== undefined && !isDay(toDay))) return undefined;

    // Groups wholly inside the window.
    const inside = [...keyWhere];
    const insideParams = [...keyParams];
    if (fromDay !== undefined) {
      inside.push('start_day > ?');
      insideParams.push(fromDay);
    }
    if (toDay !== undefined) {
      inside.push('end_day < ?');
      insideParams.push(toDay);
    }
    let n = (stmt(`SELECT coalesce(sum(n), 0) FROM event_day_counts WHERE ${inside.join(' AND ')}`).pluck().get(...insideParams) as number);

    const rowWhere = keyWhere.map((c) => `e.${c}`);
    // Events that start on the first day: checked against the exact bounds.
    if (from !== undefined) {
      const where = [...rowWhere, 'e.start_local >= ?', 'e.start_local < ?'];
      const params = [...keyParams, from, nextDay(fromDay!)];
      if (to !== undefined) {
        where.push('e.end_local <= ?');
        params.push(to);
      }
      n += stmt(`SELECT count(*) FROM events e WHERE ${where.join(' AND ')}`).pluck().get(...params) as number;
    }
    // Events that end on the last day and start after the first: read between the earliest and
    // the latest day any of them starts (usually that same day; a long event reaches further back).
    if (to !== undefined) {
      const starts = stmt(
        `SELECT min(start_day) AS first, max(start_day) AS last FROM event_day_counts WHERE lang IN (${marks(langs.length)}) AND end_day = ?${fromDay === undefined ? '' : ' AND start_day > ?'}`,
      ).get(...langs, toDay, ...(fromDay === undefined ? [] : [fromDay])) as { first: string | null; last: string | null };
      if (starts.first !== null && starts.last !== null) {
        n += stmt(`SELECT count(*) FROM events e WHERE ${[...rowWhere, 'e.start_local >= ?', 'e.start_local < ?', 'e.end_local >= ?', 'e.end_local <= ?'].join(' AND ')}`)
          .pluck()
          .get(...keyParams, starts.first, nextDay(starts.last), toDay, to) as number;
      }
    }
    return n;
  };
}
