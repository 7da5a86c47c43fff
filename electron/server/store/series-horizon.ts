/**
 * The horizon: occurrence rows exist up to `recurrence_horizon_months` (a setting) after today,
 * extended as time passes (`extendHorizonBatch`, in bounded steps). A list or export asking for a
 * window far beyond it gets that window's rows only (`ensureWindow`), so no request writes every
 * row in between.
 */
import type { DB } from './db';
import type { SettingsStore } from './settings';
import { addMonths, addSeconds, type Budget, type SeriesRecords, type SeriesRow } from './series-record';
import type { SeriesRows } from './series-rows';

/** Most occurrence rows one request (or one background batch) writes: some 0.4 s of work (about 80 µs a row). */
export const MAX_REQUEST_ROWS = 5_000;

const spent = (b: Budget) => b.left <= 0 || (b.until !== undefined && performance.now() >= b.until);

export function createSeriesHorizon(db: DB, settings: SettingsStore, records: SeriesRecords, rows: SeriesRows) {
  const { stmt, byId, saveSeries } = records;
  const { horizonEnd, rowsUntil, generate } = rows;
  /**
   * Series whose rows stop short of where they should reach (`due`: the horizon, or a horizon
   * from the series' start when that is later, as `rowsUntil` says), with that point, computed
   * here so that a series the step finishes never comes round again.
   */
  const DUE = 'max(@until, datetime(start_local, @plus))';
  const LAGGING = `FROM event_series WHERE trashed = 0 AND (last_start IS NULL OR last_start >= generated_until) AND generated_until < ${DUE}`;
  const lagging = db.prepare<{ until: string; plus: string }, SeriesRow & { due: string }>(`SELECT *, ${DUE} AS due ${LAGGING} ORDER BY generated_until LIMIT 100`);
  const anyLagging = db.prepare<{ until: string; plus: string }>(`SELECT 1 ${LAGGING} LIMIT 1`);
  /**
   * The same, in pages after (generated_until, id): a series given a window of its own keeps its
   * generated_until and would head every page again, hiding the ones after it.
   */
  const laggingAfter = db.prepare<{ end: string; g: string; id: number }, SeriesRow>(
    `SELECT * FROM event_series WHERE trashed = 0 AND generated_until < @end AND (last_start IS NULL OR last_start >= generated_until)
       AND (generated_until, id) > (@g, @id) ORDER BY generated_until, id LIMIT 100`,
  );
  const lowestGenerated = db.prepare<[], { g: string | null }>(
    'SELECT min(generated_until) AS g FROM event_series WHERE trashed = 0 AND (last_start IS NULL OR last_start >= generated_until)',
  );
  const windowCovers = db.prepare<[number, string, string], { n: number }>('SELECT count(*) AS n FROM series_windows WHERE series_id = ? AND from_local <= ? AND to_local >= ?');

  return {
    /**
     * Makes sure rows exist for the occurrences a list or export over [from, to) shows (wall
     * times). Cheap when the window is within the horizon; else writes that window's rows only.
     * `write` runs work in a write transaction.
     */
    ensureWindow(
      from: string | undefined,
      to: string | undefined,
      write: <T>(fn: () => T) => T,
      maxRows = MAX_REQUEST_ROWS,
      /** Only this series (a `post_parent` list): its whole window, and the others' rows left as they are. */
      seriesId?: number,
      /** Series whose occurrences the list shows without rows (series-virtual.ts): none written for them. */
      skip?: ReadonlySet<number>,
    ): void {
      const months = settings.get().recurrence_horizon_months || 24;
      const horizon = horizonEnd();
      const one = seriesId === undefined ? undefined : byId.get(seriesId);
      // How far rows are written: a window at most one horizon long (a month, a year, the default
      // list) gets all of its occurrences, wherever it lies. A longer one (2000-2100, or no start)
      // shows them up to the horizon, as the original's add-on does, or its first horizon-long
      // stretch when it starts beyond: otherwise one list would write decades of every open-ended
      // series, a few thousand rows a request, and the next list the same.
      if (seriesId !== undefined && (!one || one.trashed)) return;
      // One series' own list (post_parent) gets its whole window: a single series' rows, and
      // the row budget bounds each request.
      const short = one !== undefined || (from !== undefined && to !== undefined && to <= addMonths(from, months));
      const reach = from !== undefined && from > horizon ? addMonths(from, months) : one ? rowsUntil(one) : horizon;
      const end = to !== undefined && (short || to < reach) ? to : reach;
      const lowest = one ? (one.last_start !== null && one.last_start < one.generated_until ? null : one.generated_until) : lowestGenerated.get()?.g;
      if (lowest === null || lowest === undefined || end <= lowest) return;
      // Bounded: a request writes at most this many rows; what is left waits for the next request
      // or the background extension.
      const budget = { left: maxRows };
      write(() => {
        const far = new Set<number>();
        let after = { g: '', id: 0 };
        while (budget.left > 0) {
          const current = one && byId.get(one.id)!;
          const page = current ? (far.has(current.id) || current.generated_until >= end ? [] : [current]) : laggingAfter.all({ end, ...after });
          if (!page.length) break;
          // Read before the loop below moves their generated_until on; a series it moves comes round again.
          after = { g: page[page.length - 1].generated_until, id: page[page.length - 1].id };
          const batch = page.filter((s) => !far.has(s.id) && !skip?.has(s.id));
          for (const s of batch) {
            const start = from && from > s.start_local ? from : s.start_local;
            if (start > addMonths(s.generated_until, 1)) {
              // Beyond the rows there are by more than a month: this window only, never the
              // months between (a month of 2030 must not wait for every series' rows of 2029).
              // The row budget bounds the work; a window cut by it is finished by the next request.
              far.add(s.id);
              if (!windowCovers.get(s.id, start, end)?.n) {
                const reach = generate(s, start, end, budget);
                stmt('INSERT INTO series_windows (series_id, from_local, to_local) VALUES (?, ?, ?)').run(s.id, start, reach);
              }
            } else {
              s.generated_until = generate(s, s.generated_until, end, budget);
              saveSeries(s);
            }
            if (budget.left <= 0) break;
          }
        }
      });
    },
    /**
     * Extends series' rows toward the horizon (at start-up, every few hours, and after an import
     * that left some short): one transaction of at most `maxRows` rows and about `maxMs` of work.
     * Returns whether any series still lags, so the caller can come back for the next batch
     * without holding the server.
     */
    extendHorizonBatch(write: <T>(fn: () => T) => T, maxRows = MAX_REQUEST_ROWS, maxMs?: number): boolean {
      const params = { until: horizonEnd(), plus: `+${settings.get().recurrence_horizon_months || 24} months` };
      return write(() => {
        const budget: Budget = { left: maxRows, until: maxMs === undefined ? undefined : performance.now() + maxMs };
        for (const { due, ...s } of lagging.all(params)) {
          const target = s.last_start !== null && s.last_start < due ? addSeconds(s.last_start, 1) : due;
          const reach = generate(s, s.generated_until, target, budget);
          // A series that has nothing more to make still counts as extended to where it should reach.
          s.generated_until = reach < target ? reach : due;
          saveSeries(s);
          if (spent(budget)) return true;
        }
        return anyLagging.get(params) !== undefined;
      });
    },
  };
}

export type SeriesHorizon = ReturnType<typeof createSeriesHorizon>;
