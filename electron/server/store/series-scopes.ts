/**
 * Edits of a series with a scope (`recurrence_scope`): this occurrence (it becomes an exception,
 * RFC 5545 RECURRENCE-ID), this and following (the series is split: the old one ends before it, a
 * new one starts at it) or all (every occurrence not changed on its own follows; a move of the
 * start moves the rule, its EXDATEs and exceptions with it).
 */
import { randomUUID } from 'node:crypto';
import { ApiError, invalidParams } from '../errors';
import { lastStart, normalizeRecurrence, shiftRecurrence, splitAt, type Recurrence } from '../icalendar/recurrence';
import type { EventRow, EventStore } from './events';
import type { Values, WriteContext } from './post-fields';
import { OWN, groupsOf } from './series-fields';
import {
  addSeconds,
  checked,
  recurrenceOf,
  templateOf,
  timingOf,
  wallMs,
  wallOfMs,
  type RecurrenceScope,
  type SeriesRecords,
  type SeriesRow,
} from './series-record';
import type { SeriesRows } from './series-rows';
import type { SeriesTrash } from './series-trash';
import type { SeriesValues } from './series-values';

export function createSeriesScopes(events: EventStore, records: SeriesRecords, rows: SeriesRows, values: SeriesValues, trashing: SeriesTrash) {
  const { stmt, byId, membersOf, saveSeries, seriesOfRow } = records;
  const { startSeries, regenerate, placeFirstEvent, endSeries, endSeriesAt } = rows;
  const { snapshot, keepInTemplate, dropFromTemplate, restoreSnapshot, propagate, seriesValues } = values;

  /**
   * A whole-series change, made from the occurrence `row` (whose shown start anchors a move).
   * Returns the event to answer with when it is not `row` or the first event.
   */
  function updateAll(s: SeriesRow, row: EventRow, values: Values, ctx: WriteContext): number | undefined {
    const { recurrence, ...fields } = values;
    const whenFields = ['start_date', 'end_date', 'timezone', 'all_day'].filter((f) => fields[f] !== undefined);
    const other: Values = {};
    for (const [k, v] of Object.entries(fields)) if (!whenFields.includes(k)) other[k] = v;
    const bits = groupsOf(other);

    if (bits) {
      // The occurrence the change was made on takes it, even in groups it had changed on its own.
      const messenger = row.own_fields & bits;
      if (messenger) stmt('UPDATE events SET own_fields = own_fields & ? WHERE id = ?').run(~messenger, row.id);
      const anchor = events.get(s.id)!;
      // The anchor's own groups keep its values; the series' new values go to the template.
      const ownOnAnchor = anchor.own_fields & bits;
      const kept = ownOnAnchor ? snapshot(s.id, ownOnAnchor) : undefined;
      events.update(s.id, other, ctx);
      if (kept) {
        const fresh = snapshot(s.id, ownOnAnchor);
        const t = templateOf(s);
        s.template = JSON.stringify({ ...t, ...fresh, cols: { ...t.cols, ...fresh.cols } });
        restoreSnapshot(s.id, kept);
      }
      // Where the first event does not change them on its own (now: it may have been the
      // messenger), its new values are the series': none stays in the template.
      if (bits & ~ownOnAnchor) dropFromTemplate(s, bits & ~ownOnAnchor);
      saveSeries(s);
      propagate(s, bits);
    }

    let rec = recurrenceOf(s);
    let timing = timingOf(s);
    let changedTiming = false;
    if (whenFields.length) {
      // Read the new dates as an edit of the occurrence they were made on, on a scratch copy of its
      // values: the store's own date rules (all-day rounding, end after start, the zone).
      const probe: Values = {};
      for (const f of whenFields) probe[f] = fields[f];
      const ownsWhen = !!(row.own_fields & OWN.when);
      const restarted = ownsWhen && fields.start_date !== undefined;
      events.update(row.id, probe, ctx);
      const moved = events.get(row.id)!;
      // An occurrence moved on its own, given a new start for all: the others take its new time of
      // day (measured from the series' time, not its own, so "15:00 for all" puts them all at 15:00)
      // and move by the days it moved.
      const from = restarted ? row.start_local.slice(0, 10) + row.recurrence_id!.slice(10) : row.start_local;
      const delta = wallMs(moved.start_local) - wallMs(from);
      const allDay = !!moved.all_day;
      // Where the series puts an occurrence it had at `key` from now on.
      let place: (key: string) => string;
      if (allDay !== !!s.all_day) {
        // All-day ↔ timed: the dates move by the days the edited occurrence moved, the time of day
        // becomes midnight or the new one.
        const days = Math.round((wallMs(moved.start_local.slice(0, 10)) - wallMs(from.slice(0, 10))) / 86_400_000);
        const time = allDay ? '00:00:00' : moved.start_local.slice(11);
        place = (key) => `${addSeconds(key, days * 86_400).slice(0, 10)} ${time}`;
        rec = checked(() => shiftRecurrence(rec, timing, days * 86_400_000));
        timing = { start: place(s.start_local), zone: moved.timezone, allDay };
        rec = checked(() => normalizeRecurrence(convertDates(rec, allDay), timing));
      } else {
        place = (key) => wallOfMs(wallMs(key) + delta);
        rec = checked(() => shiftRecurrence(rec, timing, delta));
        timing = { start: place(s.start_local), zone: moved.timezone, allDay };
      }
      // Keys move with the series so exceptions stay attached (Thunderbird does the same), and the
      // others keep their ids. Two passes through a scratch key: the unique (series, key) index must
      // hold at each step.
      const members = membersOf.all(s.id, s.id).filter((m) => m.recurrence_id !== null && place(m.recurrence_id) !== m.recurrence_id);
      const rekey = stmt('UPDATE events SET recurrence_id = ? WHERE id = ?');
      for (const m of members) rekey.run(`~${m.recurrence_id}`, m.id);
      for (const m of members) rekey.run(place(m.recurrence_id!), m.id);
      s.start_local = timing.start;
      s.timezone = timing.zone;
      s.all_day = allDay ? 1 : 0;
      s.duration_s = Math.max(0, Math.round((wallMs(moved.end_local) - wallMs(moved.start_local)) / 1000));
      // The occurrence edited was only the messenger: it follows the series like the others, unless
      // it was moved on its own and is still elsewhere than the series puts it (another day).
      const inLine = !ownsWhen || (restarted && place(row.recurrence_id!) === moved.start_local);
      if (inLine) stmt('UPDATE events SET own_fields = own_fields & ? WHERE id = ?').run(~OWN.when, row.id);
      changedTiming = true;
    }
    if (recurrence !== undefined) {
      if (recurrence === null) {
        if (!s.first_deleted) {
          endSeries(s);
          return undefined;
        }
        const kept = endSeriesAt(s, row.id);
        if (kept === undefined) throw new ApiError('rest-event-not-found', 404, 'rest-event-not-found', { id: row.id });
        return kept;
      }
      rec = checked(() => normalizeRecurrence(recurrence, timing));
    }
    if (changedTiming || recurrence !== undefined) {
      s.recurrence = JSON.stringify(rec);
      s.last_start = checked(() => lastStart(rec, timing));
      stmt('UPDATE events SET recurrence_id = ? WHERE id = ?').run(s.start_local, s.id);
      regenerate(s);
    }
    // Only a change that can move the first date in or out of the set, or write the first
    // event's status over its hidden one, needs the first event placed again.
    if (changedTiming || recurrence !== undefined || bits & OWN.status) placeFirstEvent(s);
    return undefined;
  }

  function convertDates(rec: Recurrence, allDay: boolean): Recurrence {
    const conv = (v: string) => (allDay ? v.slice(0, 8) : v);
    return { rules: rec.rules, rdates: rec.rdates.map(conv), exdates: rec.exdates.map(conv) };
  }

  /** "This and following" from occurrence `row` (not the first): the old series ends before it. */
  function split(s: SeriesRow, row: EventRow): SeriesRow {
    const key = row.recurrence_id!;
    const timing = timingOf(s);
    const { before, after } = checked(() => splitAt(recurrenceOf(s), timing, key));
    s.recurrence = JSON.stringify(before);
    s.last_start = checked(() => lastStart(before, timing));
    saveSeries(s);
    stmt('DELETE FROM series_windows WHERE series_id = ? AND from_local >= ?').run(s.id, key);
    // The occurrence keeps what it changed on its own; the new series keeps the old one's values of those.
    const next: SeriesRow = {
      ...s,
      id: row.id,
      recurrence: JSON.stringify(after),
      start_local: key,
      last_start: after.rules.length || after.rdates.length ? checked(() => lastStart(after, { ...timing, start: key })) : key,
      template: JSON.stringify(seriesValues(s, row.own_fields & ~OWN.when)),
      first_deleted: 0,
    };
    // A new UID: the first part keeps the old one, as Google and Thunderbird do.
    stmt('UPDATE events SET parent_id = NULL, ics_uid = ? WHERE id = ?').run(randomUUID(), row.id);
    stmt('UPDATE events SET parent_id = ? WHERE parent_id = ? AND recurrence_id > ?').run(row.id, s.id, key);
    if (!after.rules.length && !after.rdates.length) {
      // Nothing repeats after this one: it is a single event now.
      stmt('UPDATE events SET recurrence_id = NULL WHERE id = ?').run(row.id);
      return next;
    }
    next.generated_until = s.generated_until;
    saveSeries(next);
    return next;
  }

  const scopes = {
    /**
     * An update of `row` with a scope. Returns the id of the event to answer with (the new
     * series' first event after a "following" split). Call in a write transaction.
     */
    update(row: EventRow, values: Values, scope: RecurrenceScope, ctx: WriteContext): number {
      const s = seriesOfRow(row);
      if (s && values.calendar !== undefined) {
        // A series is one resource on a CalDAV server, so it is in one calendar whatever the scope.
        const { calendar, ...rest } = values;
        events.checkCalendar(calendar as number);
        stmt('UPDATE events SET calendar_id = ? WHERE id = ? OR parent_id = ?').run(calendar, s.id, s.id);
        if (!Object.keys(rest).length) return row.id;
        values = rest;
      }
      if (s && values.status === 'trash' && scope !== 'this') {
        // To the trash beyond this occurrence is a DELETE with that scope: a status copied to every
        // row left the series alive, writing published rows as time passed.
        const { status: _status, ...rest } = values;
        const id = Object.keys(rest).length ? scopes.update(row, rest, scope, ctx) : row.id;
        const now = events.get(id);
        return now ? trashing.trash(now, scope, ctx) : id;
      }
      if (s && s.trashed && scope === 'all' && values.status !== undefined && values.status !== 'trash') {
        // Out of the trash for all: the series trashed whole comes back whole, each event with the
        // status it had, also when its first event (the usual handle) was deleted for good.
        const { status: _status, ...rest } = values;
        trashing.restoreWhole(s, ctx);
        return Object.keys(rest).length ? scopes.update(events.get(row.id)!, rest, scope, ctx) : row.id;
      }
      if (!s) {
        // A single event: `recurrence` makes it a series.
        const { recurrence, ...rest } = values;
        if (Object.keys(rest).length) events.update(row.id, rest, ctx);
        if (recurrence !== undefined && recurrence !== null) startSeries(row.id, recurrence);
        return row.id;
      }
      if (scope === 'following' && row.id !== s.id) {
        const next = split(s, row);
        const fresh = events.get(row.id)!;
        if (next.id === row.id && byId.get(row.id)) updateAll(byId.get(row.id)!, fresh, values, ctx);
        else if (Object.keys(values).length) {
          const { recurrence, ...rest } = values;
          if (Object.keys(rest).length) events.update(row.id, rest, ctx);
          if (recurrence) startSeries(row.id, recurrence);
        }
        return row.id;
      }
      if (scope === 'all' || scope === 'following') {
        const answer = updateAll(s, row, values, ctx);
        if (answer !== undefined) return answer;
        return row.id === s.id || events.get(row.id) ? row.id : s.id;
      }
      // This occurrence only.
      if (values.recurrence !== undefined) {
        throw invalidParams({ recurrence_scope: 'invalid_recurrence_scope' });
      }
      const bits = groupsOf(values);
      if (row.id === s.id) {
        // The first event's own change must not become the series' value: keep that in the template.
        const fresh = bits & ~row.own_fields & ~OWN.when;
        if (fresh) keepInTemplate(s, snapshot(s.id, fresh));
      }
      const wasTrash = row.status === 'trash';
      events.update(row.id, values, ctx);
      const now = events.get(row.id)!;
      let own = bits;
      if (values.status !== undefined && (wasTrash || now.status === 'trash')) own &= ~OWN.status;
      if (own) stmt('UPDATE events SET own_fields = own_fields | ? WHERE id = ?').run(own, row.id);
      trashing.afterStatusChange(s, row, now, ctx);
      return row.id;
    },
  };
  return scopes;
}

export type SeriesScopes = ReturnType<typeof createSeriesScopes>;
