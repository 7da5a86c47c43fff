/**
 * Trash, restore and delete for good, of one occurrence or a whole series. An occurrence in the
 * trash is an EXDATE of its series; restoring it takes the EXDATE out and gives it the series'
 * values and time of now (it may have changed meanwhile). A series trashed whole
 * (`event_series.trashed`) writes no rows until its first event is restored, which restores it
 * whole; restoring another occurrence brings the series back with that one only. Deleting the
 * first event of a series trashed whole for good deletes every row of the series.
 */
import { localToUtc } from '../../../shared/dates/format';
import { icalValue, lastStart, splitAt } from '../icalendar/recurrence';
import type { EventRow, EventStore } from './events';
import type { WriteContext } from './post-fields';
import { ALL_GROUPS, HIDDEN_STATUS, OWN, isHidden } from './series-fields';
import { addSeconds, checked, recurrenceOf, templateOf, timingOf, type RecurrenceScope, type SeriesRecords, type SeriesRow } from './series-record';
import type { SeriesRows } from './series-rows';
import type { SeriesValues } from './series-values';

export function createSeriesTrash(events: EventStore, records: SeriesRecords, rows: SeriesRows, values: SeriesValues) {
  const { stmt, membersOf, saveSeries, seriesOfRow, setExcluded, keepDate, removeRow } = records;
  const { fill } = rows;

  /**
   * A series trashed whole, one occurrence of which (not its first event) is restored: the series
   * is back with that one only. The others stay in the trash as deleted dates (EXDATEs, each to be
   * restored on its own, as after "delete this event"), and the rule ends where its rows end, so
   * that no later occurrence comes back as time passes. Without this the occurrence was alive in a
   * trashed series: an export made every date of the rule, and emptying the trash deleted it.
   */
  function reviveFor(s: SeriesRow): void {
    const timing = timingOf(s);
    let rec = recurrenceOf(s);
    const end = s.generated_until;
    if (s.last_start === null || s.last_start >= end) rec = checked(() => splitAt(rec, timing, end)).before;
    const trashed = stmt("SELECT recurrence_id FROM events WHERE (id = ? OR parent_id = ?) AND status = 'trash' AND recurrence_id < ?").pluck().all(s.id, s.id, end) as string[];
    rec.exdates = [...new Set([...rec.exdates, ...trashed.map((k) => icalValue(k, !!s.all_day))])].sort();
    s.recurrence = JSON.stringify(rec);
    s.last_start = checked(() => lastStart(rec, timing));
    s.trashed = 0;
    saveSeries(s);
  }

  /**
   * An occurrence back from the trash takes what its series has now in the groups it did not
   * change on its own: a whole-series change made while it was in the trash passed it by (its key
   * moved with the series, its time did not). The first event holds the series' values itself.
   */
  function catchUp(s: SeriesRow, id: number): void {
    const row = events.get(id)!;
    if (id !== s.id) {
      const bits = ALL_GROUPS & ~row.own_fields & ~OWN.status & ~OWN.when;
      events.beforeTextChange([id]);
      values.restoreSnapshot(id, values.seriesValues(s, bits));
      // Back in its series, it has the series' status (a series made a draft meanwhile stays one).
      if (!(row.own_fields & OWN.status)) stmt('UPDATE events SET status = ? WHERE id = ?').run(rows.seriesStatus(events.get(s.id)!, templateOf(s)), id);
    }
    if (!(row.own_fields & OWN.when) && row.recurrence_id !== null) {
      const start = row.recurrence_id;
      const end = addSeconds(start, s.duration_s);
      stmt('UPDATE events SET start_local = ?, end_local = ?, start_utc = ?, end_utc = ?, timezone = ?, all_day = ? WHERE id = ?').run(
        start,
        end,
        localToUtc(start, s.timezone),
        localToUtc(end, s.timezone),
        s.timezone,
        s.all_day,
        id,
      );
    }
  }

  /**
   * After a change of one occurrence's status (`row` before, `now` after): one restored from the
   * trash is an occurrence again, and restoring the first event of a trashed series restores it
   * all; one moved to the trash is an EXDATE.
   */
  function afterStatusChange(s: SeriesRow, row: EventRow, now: EventRow, ctx: WriteContext): void {
    const wasTrash = row.status === 'trash';
    if (wasTrash && now.status !== 'trash') {
      // Restored: it is an occurrence again; restoring the first event of a trashed series restores it all.
      if (s.trashed && row.id !== s.id) reviveFor(s);
      setExcluded(s, row.recurrence_id!, false);
      keepDate(s, row.recurrence_id!);
      catchUp(s, row.id);
      if (row.id === s.id && s.trashed) restoreWhole(s, ctx);
    } else if (!wasTrash && now.status === 'trash') {
      setExcluded(s, row.recurrence_id!, true);
    }
  }

  /**
   * A series trashed whole back from the trash: every event of it that went to the trash with it
   * (not the ones deleted on their own before, whose dates are excluded) gets the status it had.
   */
  function restoreWhole(s: SeriesRow, ctx: WriteContext): void {
    s.trashed = 0;
    saveSeries(s);
    const trashed = stmt("SELECT id FROM events WHERE (id = ? OR parent_id = ?) AND status = 'trash'").pluck().all(s.id, s.id) as number[];
    const excluded = new Set(recurrenceOf(s).exdates);
    for (const id of trashed) {
      const r = events.get(id)!;
      if (!excluded.has(icalValue(r.recurrence_id!, !!s.all_day))) events.update(id, { status: r.status_before_trash ?? 'publish' }, ctx);
    }
    fill(s);
  }

  return {
    afterStatusChange,
    restoreWhole,
    /** A DELETE with a scope (to the trash). Returns the id to answer with. */
    trash(row: EventRow, scope: RecurrenceScope, ctx: WriteContext): number {
      const s = seriesOfRow(row);
      if (!s || scope === 'this') {
        events.trash(row.id, ctx);
        if (s) setExcluded(s, row.recurrence_id!, true);
        return row.id;
      }
      if (scope === 'all' || row.id === s.id) {
        s.trashed = 1;
        saveSeries(s);
        for (const m of membersOf.all(s.id, s.id)) if (m.status !== 'trash' && !isHidden(m.status)) events.trash(m.id, ctx);
        return row.id;
      }
      // This and following: the series ends before it; it and the later ones go to the trash.
      const key = row.recurrence_id!;
      const { before } = checked(() => splitAt(recurrenceOf(s), timingOf(s), key));
      s.recurrence = JSON.stringify(before);
      s.last_start = checked(() => lastStart(before, timingOf(s)));
      saveSeries(s);
      const later = stmt("SELECT id FROM events WHERE parent_id = ? AND recurrence_id >= ? AND status NOT IN ('trash', 'inherit')").pluck().all(s.id, key) as number[];
      for (const id of later) events.trash(id, ctx);
      return row.id;
    },
    /** Deleting a trashed event for good: a whole trashed series goes with its first event. */
    deleteForever(row: EventRow): void {
      const s = seriesOfRow(row);
      if (s && row.id === s.id) {
        if (s.trashed) {
          for (const m of membersOf.all(s.id, s.id)) if (m.id !== s.id) removeRow(m.id);
          removeRow(s.id);
        } else {
          // The first event is the series' id: it stays, hidden, and its date stays excluded, for
          // good: whatever the series does next (its EXDATE taken out, the series ended) it is gone.
          stmt('UPDATE events SET status = ? WHERE id = ?').run(HIDDEN_STATUS, s.id);
          s.first_deleted = 1;
          saveSeries(s);
          setExcluded(s, s.start_local, true);
        }
        return;
      }
      removeRow(row.id);
      // Gone for good from a series trashed whole (its date was not excluded then): restoring the
      // series must not make it again.
      if (s?.trashed && row.recurrence_id !== null) setExcluded(s, row.recurrence_id, true);
      // The last occurrence of a series whose first event is hidden (gone for good, or excluded by
      // its file), when no more can come (the series is in the trash, or its rule makes nothing past
      // its rows): nothing can show or restore the series now, so its first event goes too.
      const noMore = s && (s.trashed || (s.last_start !== null && s.last_start < s.generated_until));
      if (s && noMore && isHidden(events.get(s.id)?.status ?? '') && !stmt('SELECT 1 FROM events WHERE parent_id = ? LIMIT 1').get(s.id)) removeRow(s.id);
    },
  };
}

export type SeriesTrash = ReturnType<typeof createSeriesTrash>;
