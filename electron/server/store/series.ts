/**
 * Repeating events. A series is its first event (the anchor: occurrence #1, and `post_parent` of
 * every other occurrence, as the original's recurrence add-on stores them) plus an `event_series`
 * row with its rule. This module puts the series store together; the work is by concept in:
 * - `series-record.ts`: the `event_series` row, its rule, EXDATEs and RDATEs;
 * - `series-rows.ts`: expansion of a series into event rows, and its first event's place;
 * - `series-horizon.ts`: rows as time passes, and windows far beyond the horizon;
 * - `series-values.ts`: the series' values and what an occurrence changed on its own;
 * - `series-scopes.ts`: edits of this occurrence, this and following, or all;
 * - `series-trash.ts`: trash, restore and delete for good;
 * and here, what an iCalendar import or export asks of series.
 */
import { wallOfValue, type SeriesTiming } from '../icalendar/recurrence';
import { NO_LANGUAGE } from '../../../shared/i18n/languages';
import { statementCache, type DB } from './db';
import type { EventListQuery, EventRow, EventStore, LinkMemo } from './events';
import type { PostRegistry } from './posts';
import type { Values, WriteContext } from './post-fields';
import type { SettingsStore } from './settings';
import { ALL_GROUPS, OWN, type OwnGroup } from './series-fields';
import { createSeriesHorizon } from './series-horizon';
import { createSeriesRecords, recurrenceOf, timingOf, type Budget, type SeriesRow } from './series-record';
import { createSeriesRows } from './series-rows';
import { createSeriesScopes } from './series-scopes';
import { createSeriesTrash } from './series-trash';
import { createSeriesValues } from './series-values';
import { createSeriesVirtual } from './series-virtual';

export { recurrenceProblem, type Budget, type RecurrenceScope, type SeriesRow } from './series-record';

export function createSeriesStore(db: DB, registry: PostRegistry, events: EventStore, settings: SettingsStore) {
  const stmt = statementCache(db);
  const records = createSeriesRecords(db, events);
  const rows = createSeriesRows(db, registry, events, settings, records);
  const values = createSeriesValues(db, events, records);
  const horizon = createSeriesHorizon(db, settings, records, rows);
  const trashing = createSeriesTrash(events, records, rows, values);
  const scopes = createSeriesScopes(events, records, rows, values, trashing);
  const virtual = createSeriesVirtual(db, events, records, rows);
  events.setVirtualRows(virtual.rowsFor);
  const { byId, seriesOfRow } = records;
  const { groupValues, snapshot, keepInTemplate, pick } = values;
  const occurrenceAt = db.prepare<{ id: number; key: string }, EventRow>(
    'SELECT * FROM events WHERE parent_id = @id AND recurrence_id = @key UNION ALL SELECT * FROM events WHERE id = @id AND recurrence_id = @key',
  );
  const anySeries = db.prepare('SELECT 1 FROM event_series LIMIT 1');

  return {
    get: (id: number) => byId.get(id),
    seriesOf: seriesOfRow,
    recurrenceOf,
    timingOf,
    horizonEnd: rows.horizonEnd,
    /**
     * Makes `anchorId` the first event of a series; call in the write transaction that created it.
     * `firstMonths`: write only the first months of rows now (an API create answers at once; an
     * open-ended daily series has 730 rows to the horizon), the rest right after in the background.
     */
    create(anchorId: number, recurrence: unknown, opts?: { uid?: string; budget?: Budget; firstMonths?: number }): SeriesRow {
      return rows.startSeries(anchorId, recurrence, opts);
    },
    onLagging: rows.onLagging,
    /** Occurrences shown without rows (far windows): see series-virtual.ts. */
    virtual,
    update: scopes.update,
    trash: trashing.trash,
    deleteForever: trashing.deleteForever,
    ensureWindow: horizon.ensureWindow,
    extendHorizonBatch: horizon.extendHorizonBatch,
    /**
     * An occurrence changed on its own, from an imported file (a VEVENT with RECURRENCE-ID): the
     * occurrence at `key` takes the values, and owns the groups in which they differ from the
     * series'. An original start the rule does not make becomes an occurrence of its own.
     */
    importException(s: SeriesRow, key: string, values: Values, ctx: WriteContext, memo?: LinkMemo): { id: number; created: boolean } {
      const row = occurrenceAt.get({ id: s.id, key });
      if (!row) {
        const id = events.create(values, ctx, { parentId: s.id, memo });
        stmt('UPDATE events SET recurrence_id = ?, own_fields = ? WHERE id = ?').run(key, ALL_GROUPS, id);
        return { id, created: true };
      }
      const before = groupValues(row.id);
      // The first event's values are the series' (its master VEVENT's) until its override changes them.
      const masterValues = row.id === s.id ? snapshot(s.id, ALL_GROUPS & ~OWN.when & ~row.own_fields) : undefined;
      events.update(row.id, values, ctx, { memo });
      const after = groupValues(row.id);
      let bits = 0;
      for (const [group, value] of Object.entries(after)) if (value !== before[group]) bits |= OWN[group as OwnGroup];
      if (bits) stmt('UPDATE events SET own_fields = own_fields | ? WHERE id = ?').run(bits, row.id);
      const fresh = bits & ~row.own_fields & ~OWN.when;
      if (masterValues && fresh) keepInTemplate(s, pick(masterValues, fresh));
      return { id: row.id, created: false };
    },
    /**
     * Rows of a series imported before series existed (each keyed `<UID>#<original start>`, the
     * others' post_parent the first): made the occurrences of a series of `uid`, whose first event
     * is returned (its series is then started by the caller). Their ids stay.
     */
    adoptLegacyRows(uid: string): EventRow | undefined {
      const rows = stmt("SELECT id, parent_id, ics_uid FROM events WHERE ics_uid > ? AND ics_uid < ? ORDER BY parent_id IS NOT NULL, id").all(`${uid}#`, `${uid}$`) as Array<{
        id: number;
        parent_id: number | null;
        ics_uid: string;
      }>;
      const anchor = rows.length ? events.get(rows[0].id) : undefined;
      if (!anchor || anchor.parent_id !== null) return undefined;
      const timing: SeriesTiming = { start: anchor.start_local, zone: anchor.timezone, allDay: !!anchor.all_day };
      const setKey = stmt('UPDATE events SET recurrence_id = ?, ics_uid = NULL, parent_id = ? WHERE id = ?');
      for (const r of rows.slice(1)) {
        const key = wallOfValue(r.ics_uid.slice(uid.length + 1), timing);
        if (key && r.parent_id === anchor.id) setKey.run(key, anchor.id, r.id);
      }
      stmt('UPDATE events SET ics_uid = ? WHERE id = ?').run(uid, anchor.id);
      return events.get(anchor.id);
    },
    /**
     * Whether a selection of events (an export's) may hold occurrences of a series without its
     * first event: it filters on more than language and status, or some first event has a status
     * it leaves out (trashed on its own, or hidden).
     */
    selectionMayMissFirstEvents(q: EventListQuery): boolean {
      if (!anySeries.get()) return false;
      const { lang, statuses, page, perPage, ...filters } = q;
      void page;
      void perPage;
      if (Object.values(filters).some((v) => v !== undefined)) return true;
      return !!stmt(`SELECT 1 FROM event_series s JOIN events e ON e.id = s.id WHERE e.lang IN (?, ?) AND e.status NOT IN (${statuses.map(() => '?').join(',')}) LIMIT 1`).get(lang, NO_LANGUAGE, ...statuses);
    },
  };
}

export type SeriesStore = ReturnType<typeof createSeriesStore>;
