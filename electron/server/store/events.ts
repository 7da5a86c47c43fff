/**
 * Events: writing them (dates in the event's zone, venue, organizers, terms, cost) and the events
 * list query. Dates are stored twice, local to the event's zone (what lists compare, as the
 * original does) and UTC (what calendars place events by).
 */
import { eventFields } from '../../../shared/schema/resources';
import { NO_LANGUAGE, type Language } from '../../../shared/i18n/languages';
import type { PostStatus } from '../../../shared/schema/kinds';
import { randomUUID } from 'node:crypto';
import { columnsStatement, rowsByIds, statementCache, type DB } from './db';
import { createListCache, createDerivedCache, type DataStamp } from './derived-cache';
import { createEventCounts } from './event-counts';
import { LOCAL_CALENDAR_ID } from '../../../shared/schema/accounts';
import { createPagePositions, type ListFilter } from './page-positions';
import type { PostRegistry, PostRow } from './posts';
import type { PostFieldWriter, Values, WriteContext } from './post-fields';
import type { LinkedPostStore } from './linked-posts';
import { fold, likePattern, eventSearchTerms, LINKED_ANY_SQL, LINKED_SEARCH_SQL, linkedSearchParams } from './search-text';
import type { TermStore } from './terms';
import { ApiError, invalidParam, readOnlyCalendar, readOnlyServerCalendar } from '../errors';
import { EventDateMemo, resolveEventDates, type EventDates } from './event-dates';
import { EXPORT_COLUMNS, SERIES_EXPORT_SQL, type EventExportBatch } from './event-export-row';
import { isVirtualId } from './series-virtual';
import { createEventLinks, LinkMemo } from './event-links';

// Where importers have always found it.
export { LinkMemo };

export interface EventRow extends PostRow {
  parent_id: number | null;
  start_local: string;
  end_local: string;
  start_utc: string;
  end_utc: string;
  timezone: string;
  all_day: number;
  cost: string;
  currency_symbol: string;
  currency_code: string;
  currency_position: string;
  website: string | null;
  show_map: number;
  show_map_link: number;
  hide_from_listings: number;
  sticky: number;
  featured: number;
  venue_id: number | null;
  ics_uid: string | null;
  /** The calendar it belongs to (calendars.id; 1 is "On this computer"). */
  calendar_id: number;
  /** The occurrence's original start, for events of a series (store/series.ts). */
  recurrence_id: string | null;
  /** Field groups an occurrence changed on its own (store/series-fields.ts). */
  own_fields: number;
}

export type EventStatusRow = Pick<EventRow, 'id' | 'status'>;

export interface EventListQuery {
  lang: Language;
  statuses: PostStatus[];
  page: number;
  perPage: number;
  /** Local `Y-m-d H:i:s` bounds: start ≥ startDate, end ≤ endDate, and the relative ones. */
  startDate?: string;
  endDate?: string;
  startsBefore?: string;
  startsAfter?: string;
  endsBefore?: string;
  endsAfter?: string;
  search?: string;
  /** A search word may also be in the venue's or organizers' text (search_places). */
  searchPlaces?: boolean;
  categories?: number[];
  tags?: number[];
  venues?: number[];
  organizers?: number[];
  featured?: boolean;
  /** Only events of these calendars (Almanac). */
  calendars?: number[];
  include?: number[];
  postParent?: number;
  geoloc?: boolean;
  near?: { lat: number; lng: number; radiusKm: number };
}

/** The search index of a bulk write, kept by it rather than by the row triggers (`deferSearchIndex`). */
export interface DeferredSearchIndex {
  /**
   * Indexes the events created since the last call. A large import calls it every few thousand
   * events: indexing rows just written, in runs of that size, costs less than one run over all
   * of them at the end, and leaves less to do after the last event.
   */
  catchUp(): void;
  /** Indexes what is left and puts the triggers back: call before the transaction commits. */
  finish(): void;
  /** The transaction is rolling back (and restores the triggers): stop deferring. */
  abandon(): void;
}

/** Fields an import may set that the API body does not offer. */
export interface EventInternals {
  icsUid?: string;
  /** The calendar a new event goes to when its body does not say (a sync's pull). */
  calendarId?: number;
  parentId?: number | null;
  /** A bulk write's memory of the venues, organizers and terms it has resolved already. */
  memo?: LinkMemo;
  /**
   * A create's dates, worked out already by `resolveEventDates` from the same values and context
   * (an import's reading thread does, while this thread writes the events before).
   */
  dates?: EventDates;
}

const EARTH_RADIUS_KM = 6371.0088;

/** Great-circle distance (haversine), used by the geoloc filter. */
export function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

export function createEventStore(
  db: DB,
  registry: PostRegistry,
  writer: PostFieldWriter,
  venues: LinkedPostStore,
  organizers: LinkedPostStore,
  terms: TermStore,
  stamp: DataStamp,
) {
  const stmt = statementCache(db);
  const byId = db.prepare<[number], EventRow>('SELECT * FROM events WHERE id = ?');
  const uidById = db.prepare<[number], string | null>('SELECT ics_uid FROM events WHERE id = ?').pluck();
  const trashedIn = db.prepare<[string, string], number>("SELECT id FROM events WHERE lang IN (?, ?) AND status = 'trash' ORDER BY parent_id IS NOT NULL, id").pluck();
  const bySlug = db.prepare<[string], EventRow>('SELECT * FROM events WHERE slug = ?');
  // A file imported into no calendar in particular never updates an event of a read-only calendar
  // (a subscription's, whose copy follows the feed, or a server's the account may only read, as
  // refuseReadOnly says): an event there with the same UID is that calendar's; the file's is another.
  const byUid = db.prepare<[string], EventRow>(
    'SELECT * FROM events WHERE ics_uid = ? AND calendar_id IN (SELECT id FROM calendars WHERE read_only = 0) ORDER BY id LIMIT 1',
  );
  const byUidIn = db.prepare<[string, number], EventRow>('SELECT * FROM events WHERE ics_uid = ? AND calendar_id = ? ORDER BY id LIMIT 1');
  const calendarExists = db.prepare<[number], { id: number; name: string; subscription_url: string | null; read_only: number }>('SELECT id, name, subscription_url, read_only FROM calendars WHERE id = ?');
  // A website's occurrence its add-on generates (sync_objects.read_only, sites/records.ts): its site's name.
  const siteOccurrenceOf = db.prepare<[number, number], string>(
    "SELECT s.name FROM sync_objects o JOIN sites s ON s.calendar_id = o.calendar_id WHERE o.calendar_id = ? AND o.kind = 'event' AND o.local_id = ? AND o.read_only IS NOT NULL",
  ).pluck();
  const statusById = db.prepare<[number], EventStatusRow>('SELECT id, status FROM events WHERE id = ?');
  const statusBySlug = db.prepare<[string], EventStatusRow>('SELECT id, status FROM events WHERE slug = ?');
  const deleteRow = db.prepare('DELETE FROM events WHERE id = ?');
  const { resolveVenue, writeLinks } = createEventLinks(db, venues, organizers, terms);
  const unindexEvent = db.prepare("INSERT INTO events_search (events_search, rowid, title, excerpt, content) SELECT 'delete', id, title, excerpt, content FROM events WHERE id = ?");
  const indexEvent = db.prepare('INSERT INTO events_search (rowid, title, excerpt, content) SELECT id, title, excerpt, content FROM events WHERE id = ?');
  const indexEventsBetween = db.prepare('INSERT INTO events_search (rowid, title, excerpt, content) SELECT id, title, excerpt, content FROM events WHERE id > ? AND id <= ? ORDER BY id');
  const lastEventId = db.prepare('SELECT coalesce(max(id), 0) FROM events').pluck();
  const insertEvent = columnsStatement(stmt, (keys) => `INSERT INTO events (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`);
  /**
   * While a bulk write defers the search index: the events indexed so far (ids up to `indexed`;
   * those the write created are indexed as it goes, see `catchUp`), and those of them whose text
   * it changed since, unindexed and to be indexed again at the end.
   */
  let deferred: { indexed: number; updated: Set<number> } | undefined;
  /** Takes an event out of a deferred search index if it is in it there (indexed, not since unindexed). */
  const unindexDeferred = (id: number): boolean => {
    if (!deferred || id > deferred.indexed || deferred.updated.has(id)) return false;
    unindexEvent.run(id);
    return true;
  };
  const lists = createListCache(stmt, stamp);
  // Ordered matches of recent text searches (a few hundred KB at most for a common word).
  const searches = createDerivedCache<number[]>(stamp, 8);
  const deepPage = createPagePositions(stmt, stamp);
  const dayCounts = createEventCounts(db);
  /** A list's total: from the per-day counts where its filters allow, else its rows counted. */
  const countOf = (q: EventListQuery, f: ListFilter): number =>
    lists.remember(`total\u0000${JSON.stringify({ ...q, page: 0, perPage: 0 })}`, () => dayCounts(q, listLanguages(q)) ?? (stmt(`SELECT count(*) AS n FROM ${f.from} WHERE ${f.where}`).get(...f.params) as { n: number }).n);
  // Events without a language of their own (a sync's, a subscription's, a file's that said none)
  // show in every language's lists. Most calendars have none: their lists keep the one-language
  // index range, which needs no sort.
  const anyWithoutLanguage = db.prepare<[string], number>('SELECT 1 FROM events WHERE lang = ? LIMIT 1').pluck();
  let withoutLanguage = { at: '', any: false };
  function listLanguages(q: Pick<EventListQuery, 'lang'>): string[] {
    const at = stamp();
    if (withoutLanguage.at !== at) withoutLanguage = { at, any: anyWithoutLanguage.get(NO_LANGUAGE) !== undefined };
    // An event without a language asking for its own list (a sync's resource) reads that one only.
    return withoutLanguage.any && (q.lang as string) !== NO_LANGUAGE ? [q.lang, NO_LANGUAGE] : [q.lang];
  }
  db.function('distance_km', { deterministic: true }, (a, b, c, d) =>
    a === null || b === null ? null : distanceKm(Number(a), Number(b), Number(c), Number(d)),
  );

  const dateMemo = new EventDateMemo();
  let virtualRows: ((ids: number[]) => Map<number, EventRow>) | undefined;

  /**
   * Refuses a change through the API to an event of a read-only calendar: a subscription's (it
   * changes when its feed does) or a server's the account may only read (it changes only there).
   * The sync and the refresh write such events through the store, never through this check.
   */
  function refuseReadOnly(calendar: { name: string; subscription_url: string | null; read_only: number } | undefined): void {
    if (!calendar) return;
    if (calendar.subscription_url !== null) throw readOnlyCalendar(calendar.name, calendar.subscription_url);
    if (calendar.read_only) throw readOnlyServerCalendar(calendar.name);
  }

  function checkCalendar(id: number): void {
    const calendar = calendarExists.get(id);
    if (!calendar) throw invalidParam('calendar', 'invalid_calendar');
    refuseReadOnly(calendar);
  }

  function eventColumns(values: Values, existing: EventRow | undefined, id: number, ctx: WriteContext, memo?: LinkMemo, given?: EventDates): Record<string, unknown> {
    const dates = given ?? resolveEventDates(values, existing, ctx, dateMemo);
    const cols = writer.columns('event', eventFields, values, id, dates.timezone, ctx, existing);
    Object.assign(cols, dates);
    if (values.cost !== undefined) cols.cost = JSON.stringify(values.cost);
    if (values.venue !== undefined) cols.venue_id = resolveVenue(values.venue, ctx, memo);
    if (values.calendar !== undefined && !memo?.usable.has(`calendar:${values.calendar}`)) {
      checkCalendar(values.calendar as number);
      memo?.usable.add(`calendar:${values.calendar}`);
    }
    return cols;
  }

  function addInternalColumns(cols: Record<string, unknown>, internals: EventInternals): void {
    if (internals.icsUid !== undefined) cols.ics_uid = internals.icsUid;
    if (internals.parentId !== undefined) cols.parent_id = internals.parentId;
  }

  /** FROM and WHERE of the events a list query matches (every filter of reference §4.1). */
  function filterSql(q: EventListQuery, only?: string): ListFilter {
    const langs = only !== undefined ? [only] : listLanguages(q);
    const where: string[] = [langs.length === 1 ? 'e.lang = ?' : `e.lang IN (${langs.map(() => '?').join(',')})`, `e.status IN (${q.statuses.map(() => '?').join(',')})`];
    const params: unknown[] = [...langs, ...q.statuses];
    const add = (sql: string, ...p: unknown[]) => {
      where.push(sql);
      params.push(...p);
    };
    const list = (ids: unknown[]) => ids.map(() => '?').join(',');
    if (q.include) add(`e.id IN (${list(q.include)})`, ...q.include);
    else {
      if (q.startDate !== undefined) add('e.start_local >= ?', q.startDate);
      if (q.endDate !== undefined) add('e.end_local <= ?', q.endDate);
      if (q.startsAfter !== undefined) add('e.start_local >= ?', q.startsAfter);
      if (q.startsBefore !== undefined) add('e.start_local <= ?', q.startsBefore);
      if (q.endsAfter !== undefined) add('e.end_local >= ?', q.endsAfter);
      if (q.endsBefore !== undefined) add('e.end_local <= ?', q.endsBefore);
    }
    if (q.search !== undefined) {
      // Every word is found in the event's text, or (search_places) in its venue's or organizers' (search-text.ts).
      // The trigram index answers words of three characters or more; shorter ones are checked on
      // the rows. A word some venue or organizer holds also takes their events, as one list of
      // ids; the words none holds (most) go to the index together, which is quicker.
      const own: string[] = [];
      for (const term of eventSearchTerms(q.search)) {
        const p = likePattern(fold(term));
        const linked = !!q.searchPlaces && (stmt(LINKED_ANY_SQL).get(...linkedSearchParams(p)) as { found: number }).found === 1;
        const indexed = [...term].length >= 3;
        const match = `"${term.replace(/"/g, '""')}"`;
        if (indexed && !linked) own.push(match);
        else if (indexed) add(`e.id IN (SELECT rowid FROM events_search WHERE events_search MATCH ? UNION ${LINKED_SEARCH_SQL})`, match, ...linkedSearchParams(p));
        else add(`(fold(e.title) LIKE ? ESCAPE '\\' OR fold(e.excerpt) LIKE ? ESCAPE '\\' OR fold(e.content) LIKE ? ESCAPE '\\'${linked ? ` OR e.id IN (${LINKED_SEARCH_SQL})` : ''})`, p, p, p, ...(linked ? linkedSearchParams(p) : []));
      }
      if (own.length) add('e.id IN (SELECT rowid FROM events_search WHERE events_search MATCH ?)', own.join(' AND '));
    }
    // IN (subquery) rather than EXISTS: it lets the planner start from the few linked events.
    // A venue has fewer events than a category, but the planner prefers a rowid list to the venue
    // index; `+e.id` stops that when there is a venue to start from (0.3 ms instead of 1.7 on a
    // 100,000-event calendar). From a venue, terms are checked per event through the index
    // rather than read whole into a list first: a category of a calendar with series has
    // thousands of rows, the venue's events a few hundred (1.6 ms to 0.9 with 1,000 series).
    const linked = q.venues ? '+e.id' : 'e.id';
    for (const ids of [q.categories, q.tags]) {
      if (!ids) continue;
      if (q.venues) add(`EXISTS (SELECT 1 FROM event_terms t WHERE t.event_id = e.id AND t.term_id IN (${list(ids)}))`, ...ids);
      else add(`e.id IN (SELECT event_id FROM event_terms WHERE term_id IN (${list(ids)}))`, ...ids);
    }
    if (q.venues) add(`e.venue_id IN (${list(q.venues)})`, ...q.venues);
    if (q.organizers) add(`${linked} IN (SELECT event_id FROM event_organizers WHERE organizer_id IN (${list(q.organizers)}))`, ...q.organizers);
    if (q.featured !== undefined) add('e.featured = ?', q.featured ? 1 : 0);
    if (q.calendars) add(`e.calendar_id IN (${list(q.calendars)})`, ...q.calendars);
    if (q.postParent !== undefined) add('e.parent_id = ?', q.postParent);
    let from = 'events e';
    if (q.geoloc || q.near) {
      from = 'events e JOIN venues v ON v.id = e.venue_id';
      add('v.geo_lat IS NOT NULL AND v.geo_lng IS NOT NULL');
    }
    if (q.near) {
      // A bounding box first lets SQLite skip the trigonometry for far venues.
      const dLat = q.near.radiusKm / 111.2;
      const cosLat = Math.max(Math.cos((q.near.lat * Math.PI) / 180), 0.01);
      const dLng = Math.min(180, q.near.radiusKm / (111.32 * cosLat));
      add('v.geo_lat BETWEEN ? AND ?', q.near.lat - dLat, q.near.lat + dLat);
      if (q.near.lng - dLng >= -180 && q.near.lng + dLng <= 180) add('v.geo_lng BETWEEN ? AND ?', q.near.lng - dLng, q.near.lng + dLng);
      add('distance_km(v.geo_lat, v.geo_lng, ?, ?) <= ?', q.near.lat, q.near.lng, q.near.radiusKm);
    }
    return { from, where: where.join(' AND '), params };
  }

  return {
    byIds(ids: number[]): Map<number, EventRow> {
      const rows = rowsByIds<EventRow>(stmt, 'events', ids.filter((id) => !isVirtualId(id)));
      if (virtualRows && ids.some(isVirtualId)) for (const [id, row] of virtualRows(ids.filter(isVirtualId))) rows.set(id, row);
      return rows;
    },
    /** Where occurrences without rows come from (series-virtual.ts), set by the series store. */
    setVirtualRows(source: (ids: number[]) => Map<number, EventRow>): void {
      virtualRows = source;
    },
    /**
     * Every event a list matches, by start, with its start: what occurrences without rows are
     * merged into (a far window holds few rows). Dates, language, status and every other filter
     * apply; paging does not.
     */
    listKeys(q: EventListQuery): Array<{ id: number; start_local: string }> {
      const f = filterSql(q);
      return stmt(`SELECT e.id, e.start_local FROM ${f.from} WHERE ${f.where} ORDER BY e.start_local, e.id`).all(...f.params) as Array<{ id: number; start_local: string }>;
    },
    /** Those of `ids` (events) that a list's filters other than its dates let through. */
    matchingApartFromDates(q: EventListQuery, ids: number[]): Set<number> {
      if (!ids.length) return new Set();
      const f = filterSql({ ...q, startDate: undefined, endDate: undefined, startsAfter: undefined, startsBefore: undefined, endsAfter: undefined, endsBefore: undefined, include: undefined, postParent: undefined });
      return new Set(stmt(`SELECT e.id FROM ${f.from} WHERE ${f.where} AND e.id IN (SELECT value FROM json_each(?))`).pluck().all(...f.params, JSON.stringify(ids)) as number[]);
    },
    get(id: number): EventRow | undefined {
      return byId.get(id);
    },
    /** An event's UID alone (a sync's link to it), without reading its text. */
    icsUid(id: number): string | null {
      return uidById.get(id) ?? null;
    },
    /** The trash of one language: series' first events before their occurrences (Empty trash). */
    /** The trash as the records language lists it: its own events and those without a language (synced, subscribed, imported). */
    trashedIds(lang: Language): number[] {
      const [own, other = own] = listLanguages({ lang });
      return trashedIn.all(own, other);
    },
    /** Slugs are stored lower-case, so `Spring-Concert` finds `spring-concert`. */
    getBySlug(slug: string): EventRow | undefined {
      return bySlug.get(slug.toLowerCase());
    },
    /**
     * Id and status only, by id or slug: all a read checks before answering with the event's
     * cached JSON (a whole row, its text included, costs three times as much to read).
     */
    statusOf: {
      get: (id: number): EventStatusRow | undefined => statusById.get(id),
      getBySlug: (slug: string): EventStatusRow | undefined => statusBySlug.get(slug.toLowerCase()),
    },
    /** Refuses an id that is not a calendar, or one that takes no changes, in the API's error shape. */
    checkCalendar,
    /**
     * Refuses a change to an event of a read-only calendar, or to a website's occurrence that its
     * site generates from a repeating event (403, in words: as for a read-only calendar, the
     * event may be read and never written by anyone here; changing it is not a matter of the
     * request's timing, which 409 would suggest).
     */
    refuseReadOnlyEvent(row: Pick<EventRow, 'id' | 'calendar_id'>): void {
      // The local calendar takes every change: no query for it.
      if (row.calendar_id === LOCAL_CALENDAR_ID) return;
      refuseReadOnly(calendarExists.get(row.calendar_id));
      const site = siteOccurrenceOf.get(row.calendar_id, row.id) as string | undefined;
      if (site !== undefined) throw new ApiError('event-read-only', 403, 'event-read-only-occurrence', { id: row.id, site });
    },
    /** `calendarId`: in that calendar only (the same UID may be in two: a file imported here, a server's copy). */
    getByIcsUid(uid: string, calendarId?: number): EventRow | undefined {
      return calendarId === undefined ? byUid.get(uid) : byUidIn.get(uid, calendarId);
    },
    /** Creates an event and whatever it links to that does not exist yet. Call in a transaction. */
    create(values: Values, ctx: WriteContext, internals: EventInternals = {}): number {
      const id = registry.allocate('event');
      // Added to the object eventColumns made rather than spread into a new one: an import creates
      // events by the hundred thousand, and copying their thirty-odd columns showed.
      const cols = eventColumns(values, undefined, id, ctx, internals.memo, internals.dates);
      cols.id = id;
      addInternalColumns(cols, internals);
      // Its UID for life (RFC 9253 §3): what other calendars and CalDAV servers know it by. An
      // occurrence row has its series' instead.
      if (cols.ics_uid === undefined && !cols.parent_id) cols.ics_uid = randomUUID();
      if (cols.calendar_id === undefined && internals.calendarId !== undefined) cols.calendar_id = internals.calendarId;
      const keys = Object.keys(cols);
      insertEvent(keys).run(...keys.map((k) => cols[k]));
      writeLinks(id, values, ctx, true, internals.memo);
      return id;
    },
    /**
     * Call before changing the title, excerpt or description of these events by other means than
     * `update` (a whole series' change): while a bulk write defers the search index, it keeps it right.
     */
    beforeTextChange(ids: Iterable<number>): void {
      if (!deferred) return;
      // What the update trigger would remove: the text indexed now, to be indexed again at the end.
      for (const id of ids) if (unindexDeferred(id)) deferred.updated.add(id);
    },
    /** Partial update: fields left out stay as they are (decisions page). Call in a transaction. */
    update(id: number, values: Values, ctx: WriteContext, internals: EventInternals = {}): void {
      const existing = byId.get(id)!;
      this.beforeTextChange([id]);
      const cols = eventColumns(values, existing, id, ctx, internals.memo);
      addInternalColumns(cols, internals);
      const keys = Object.keys(cols);
      stmt(`UPDATE events SET ${keys.map((k) => `${k} = ?`).join(', ')} WHERE id = ?`).run(...keys.map((k) => cols[k]), id);
      writeLinks(id, values, ctx, false, internals.memo);
    },
    /**
     * For a bulk write of many events in one transaction: the search index's triggers are dropped
     * (they were half of the cost of an import) and `finish()` indexes every created or updated
     * event once, with its final text, which gives the index the triggers would have built. Call
     * inside the transaction, and `finish()` before it commits; on a rollback SQLite restores the
     * triggers itself. Nothing may roll back part of the work in between, nor change the text of
     * an event or delete one but through this store (`update`, `beforeTextChange`, `deleteForever`).
     */
    deferSearchIndex(): DeferredSearchIndex {
      const triggers = db
        .prepare<[], { name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events' AND name LIKE 'events\\_search\\_%' ESCAPE '\\' ORDER BY name")
        .all();
      // No triggers, no index kept by them: nothing to stand in for.
      if (triggers.length === 0) return { catchUp() {}, finish() {}, abandon() {} };
      for (const t of triggers) db.exec(`DROP TRIGGER "${t.name}"`);
      const state = { indexed: lastEventId.get() as number, updated: new Set<number>() };
      deferred = state;
      const catchUp = () => {
        const last = lastEventId.get() as number;
        indexEventsBetween.run(state.indexed, last);
        state.indexed = last;
      };
      return {
        catchUp,
        finish() {
          catchUp();
          deferred = undefined;
          for (const id of state.updated) indexEvent.run(id);
          for (const t of triggers) db.exec(t.sql);
        },
        abandon() {
          if (deferred === state) deferred = undefined;
        },
      };
    },
    trash(id: number, ctx: WriteContext): void {
      this.update(id, { status: 'trash' }, ctx);
    },
    deleteForever(id: number): void {
      // What the delete trigger would remove, while a bulk write stands in for it.
      unindexDeferred(id);
      deleteRow.run(id);
      registry.release(id);
    },
    /** Organizers of many events, in their order. */
    organizersFor(eventIds: number[]): Map<number, number[]> {
      const out = new Map<number, number[]>();
      if (eventIds.length === 0) return out;
      const rows = stmt(
        `SELECT event_id, organizer_id FROM event_organizers WHERE event_id IN (${eventIds.map(() => '?').join(',')}) ORDER BY event_id, position`,
      ).all(...eventIds) as Array<{ event_id: number; organizer_id: number }>;
      for (const r of rows) {
        const list = out.get(r.event_id) ?? [];
        list.push(r.organizer_id);
        out.set(r.event_id, list);
      }
      return out;
    },
    list(q: EventListQuery): { ids: number[]; total: number } {
      const f = filterSql(q);
      let select = 'e.id';
      let order = q.include ? 'e.date_utc ASC, e.id ASC' : 'e.start_local ASC, e.id ASC';
      const selectParams: unknown[] = [];
      if (q.near) {
        select = 'e.id, distance_km(v.geo_lat, v.geo_lng, ?, ?) AS distance';
        selectParams.push(q.near.lat, q.near.lng);
        order = `distance ASC, ${order}`;
      }
      const offset = (q.page - 1) * q.perPage;
      const sql = `SELECT ${select} FROM ${f.from} WHERE ${f.where} ORDER BY ${order}`;
      if (q.search !== undefined) {
        // A text search has to find and sort every match before it can answer one page, so the
        // whole ordered match list is kept: its length is the total and every page is a slice.
        const cache = searches.current();
        const key = `${sql}\u0000${JSON.stringify([...selectParams, ...f.params])}`;
        let matches = cache.get(key);
        if (!matches) {
          matches = stmt(sql).pluck().all(...selectParams, ...f.params) as number[];
          cache.set(key, matches);
        }
        return { ids: matches.slice(offset, offset + q.perPage), total: matches.length };
      }
      const total = countOf(q, f);
      const langs = listLanguages(q);
      if (langs.length > 1 && !q.near && !q.include) {
        // Two languages (the list's and events without one): one ordered index range each,
        // merged, rather than one IN that must sort the whole window (16 ms for 40,000 events
        // against 0.03).
        const k = offset + q.perPage;
        const parts = langs.map((lang) => filterSql(q, lang));
        const merged = `${parts.map((p) => `SELECT * FROM (SELECT e.id AS id, e.start_local AS start FROM ${p.from} WHERE ${p.where} ORDER BY e.start_local, e.id LIMIT ?)`).join(' UNION ALL ')} ORDER BY start, id LIMIT ? OFFSET ?`;
        return { ids: lists.ids(merged, [...parts.flatMap((p) => [...p.params, k]), q.perPage, offset]), total };
      }
      if (offset > 0 && !q.near && !q.include) {
        const later = (bound: string | undefined, start: string) => (bound === undefined || bound < start ? start : bound);
        const startingAt = (start: string) => filterSql({ ...q, startDate: later(q.startDate, start), startsAfter: q.startsAfter === undefined ? undefined : later(q.startsAfter, start) });
        return { ids: deepPage(f, startingAt, offset, q.perPage), total };
      }
      // Ids only: the index answers this alone, and the records usually come from the JSON cache.
      const ids = lists.ids(`${sql} LIMIT ? OFFSET ?`, [...selectParams, ...f.params, q.perPage, offset]);
      return { ids, total };
    },
    count(q: EventListQuery): number {
      return countOf(q, filterSql(q));
    },
    /** Each time zone the matching timed events use, with their earliest start and latest end. */
    zoneSpans(q: EventListQuery): Array<{ timezone: string; start_date: string; end_date: string; all_day: false }> {
      const f = filterSql(q);
      const rows = stmt(
        `SELECT e.timezone, min(e.start_local) AS start_date, max(e.end_local) AS end_date FROM ${f.from} WHERE ${f.where} AND e.all_day = 0 GROUP BY e.timezone`,
      ).all(...f.params) as Array<{ timezone: string; start_date: string; end_date: string }>;
      return rows.map((r) => ({ ...r, all_day: false as const }));
    },
    /**
     * What the iCalendar export reads, in start order, a batch at a time. One statement walks the
     * whole selection: with keyset paging (what the export did before) SQLite started each batch's
     * index range at the filter's start_date bound rather than at the last row, so every batch
     * rescanned all the rows before it (2.5 s of CPU for 100,000 events), and a filter that is not
     * index-ordered would re-sort the whole selection per batch. Only this connection's reads may
     * run while a batch is out: the statement stays open until the generator ends. Each row comes
     * as JSON text (`parseExportRow`) with its links beside: the export (icalendar/export-threaded.ts)
     * loads the links and hands the texts to its thread as they are.
     */
    *exportBatchTexts(q: EventListQuery, size = 1000, opts: { seriesFirstEvents?: boolean } = {}): Generator<EventExportBatch> {
      const f = filterSql(q);
      const links = (table: string, column: string) => `(SELECT group_concat(${column} ORDER BY position) FROM ${table} WHERE event_id = e.id)`;
      // A series is written as its first event's rule (icalendar/record-to-vevent.ts), so a
      // selection holding some of its occurrences holds its first event too, whatever that one's
      // status or dates.
      const withSeries = opts.seriesFirstEvents
        ? `events e WHERE e.id IN (SELECT e.id FROM ${f.from} WHERE ${f.where} UNION SELECT e.parent_id FROM ${f.from} WHERE ${f.where} AND e.parent_id IS NOT NULL)`
        : `${f.from} WHERE ${f.where}`;
      const params = opts.seriesFirstEvents ? [...f.params, ...f.params] : f.params;
      const rows = stmt(
        `SELECT json_array(${EXPORT_COLUMNS.map((c) => `e.${c}`).join(', ')}, ${SERIES_EXPORT_SQL.join(', ')}),
          e.venue_id, e.image_id, ${links('event_organizers', 'organizer_id')}, ${links('event_terms', 'term_id')},
          (SELECT s.template FROM event_series s WHERE s.id = e.id AND s.template <> '{}')
        FROM ${withSeries} ORDER BY e.start_local, e.id`,
      )
        // One JSON text per row: better-sqlite3 makes a JS value per column, and 27 columns cost
        // 15% more that way (JSON.parse gives back the same strings and numbers).
        .raw(true)
        .iterate(...params) as IterableIterator<[string, number | null, number | null, string | null, string | null, string | null]>;
      let batch: EventExportBatch = { texts: [], links: [] };
      for (const [text, venue_id, image_id, organizer_ids, term_ids, template] of rows) {
        batch.texts.push(text);
        batch.links.push({ venue_id, image_id, organizer_ids, term_ids, template });
        if (batch.texts.length === size) {
          yield batch;
          batch = { texts: [], links: [] };
        }
      }
      if (batch.texts.length) yield batch;
    },
  };
}

export type EventStore = ReturnType<typeof createEventStore>;
