/** The events routes: list, create, and read/update/delete by id or by slug. */
import { isVirtualId } from '../store/series-virtual';
import { addMonths } from '../store/series-record';
import { eventFields } from '../../../shared/schema/resources';
import { eventListParams, deleteParams, recurrenceScopeParams } from '../../../shared/schema/queries';
import type { RecurrenceScope } from '../store/series';
import { isHidden } from '../store/series-fields';
import type { PostStatus, RefList } from '../../../shared/schema/kinds';
import { parseDate } from '../../../shared/dates/parse';
import { formatLocal, startOfDay, endOfDay } from '../../../shared/dates/format';
import { ApiError, invalidParam, invalidParams } from '../errors';
import { defaultStatuses } from '../store/posts';
import type { EventRow, EventStatusRow, EventListQuery } from '../store/events';
import { serializeEvent, eventsJson, writtenEvent } from '../serialize/event';
import { pageSize, postListLinks, postListResponse } from '../http/paging';
import type { Reminder } from '../../../shared/reminders';
import { storedReminders } from '../store/settings';
import { refuseWhatSitesCannot } from '../sites/limits';
import { route, type ApiRequest, type ApiResponse, type RouteDef } from '../http/route-table';

/** Statuses a list shows: the default for the viewer, or the ones asked for if the viewer may. */
export function listStatuses(req: ApiRequest): PostStatus[] {
  const asked = req.values.status as PostStatus[] | undefined;
  if (!asked) return defaultStatuses(req.viewer);
  if (!req.viewer.canEdit && (asked.length !== 1 || asked[0] !== 'publish')) throw invalidParam('status', 'invalid_status');
  return asked;
}

/** Reads a list date in the site's zone; whole-day normalisation unless `strict_dates`. */
function listDate(req: ApiRequest, name: string, edge: 'start' | 'end', fallback?: string): string | undefined {
  const raw = req.values[name] ?? fallback;
  if (raw === undefined) return undefined;
  const zone = req.url.settings.timezone;
  const dt = parseDate(raw as string | number, { zone, now: req.now });
  if (!dt) throw invalidParam(name, 'invalid_date');
  const local = formatLocal(dt); // parseDate answers in `zone` already
  if (req.values.strict_dates) return local;
  return edge === 'start' ? startOfDay(local) : endOfDay(local);
}

function resolveTermFilter(req: ApiRequest, name: 'categories' | 'tags'): number[] | undefined {
  const refs = req.values[name] as RefList | undefined;
  if (!refs) return undefined;
  const taxonomy = name === 'categories' ? 'category' : 'tag';
  return refs.map((ref) => {
    // A value is tried as a slug first, then as an id (reference §4.1).
    const row = req.store.terms.getBySlug(taxonomy, String(ref)) ?? (typeof ref === 'number' ? req.store.terms.get(taxonomy, ref) : undefined);
    if (!row) throw invalidParam(name, 'invalid_term_ref');
    return row.id;
  });
}

function checkLinked(req: ApiRequest, name: 'venue' | 'organizer'): number[] | undefined {
  const ids = req.values[name] as number[] | undefined;
  if (!ids) return undefined;
  const store = name === 'venue' ? req.store.venues : req.store.organizers;
  for (const id of ids) if (!store.get(id)) throw invalidParam(name, name === 'venue' ? 'invalid_venue_ref' : 'invalid_organizer_ref');
  return ids;
}

/**
 * The store query for the events list's parameters. The list applies the original's default
 * window (start of yesterday to 24 months ahead); an export asks for the whole calendar.
 */
export function eventQuery(req: ApiRequest, opts: { defaultWindow: boolean }): EventListQuery {
  const v = req.values;
  if (v.ticketed === true) {
    throw invalidParams({ ticketed: 'event-tickets-not-active' }, {
      ticketed: { code: 'event-tickets-not-active', messageKey: 'event-tickets-not-active', data: { status: 400 } },
    });
  }
  if ((v.geoloc_lat === undefined) !== (v.geoloc_lng === undefined)) {
    throw invalidParam(v.geoloc_lat === undefined ? 'geoloc_lat' : 'geoloc_lng', 'invalid_number');
  }
  if (v.post_parent !== undefined && !req.store.events.get(v.post_parent as number)) throw invalidParam('post_parent', 'invalid_event_ref');

  const q: EventListQuery = {
    lang: req.lang,
    statuses: listStatuses(req),
    page: (v.page as number | undefined) ?? 1,
    perPage: pageSize(req),
    search: v.search as string | undefined,
    searchPlaces: v.search_places as boolean | undefined,
    categories: resolveTermFilter(req, 'categories'),
    tags: resolveTermFilter(req, 'tags'),
    venues: checkLinked(req, 'venue'),
    organizers: checkLinked(req, 'organizer'),
    featured: v.featured as boolean | undefined,
    calendars: v.calendar as number[] | undefined,
    include: v.include as number[] | undefined,
    postParent: v.post_parent as number | undefined,
    geoloc: v.geoloc === true ? true : undefined,
  };
  if (v.geoloc_lat !== undefined && v.geoloc_lng !== undefined) {
    q.near = { lat: v.geoloc_lat as number, lng: v.geoloc_lng as number, radiusKm: (v.geoloc_radius as number | undefined) ?? 10 };
  }
  if (!q.include) {
    // The default window is the original's: "yesterday 23:59" to "+24 months", read like any
    // other value (so whole days unless strict_dates), and only when no relative date is given.
    const defaults = opts.defaultWindow && !usesRelativeDates(req);
    q.startDate = listDate(req, 'start_date', 'start', defaults ? 'yesterday 23:59' : undefined);
    q.endDate = listDate(req, 'end_date', 'end', defaults ? '+24 months' : undefined);
    q.startsBefore = listDate(req, 'starts_before', 'end');
    q.startsAfter = listDate(req, 'starts_after', 'end');
    q.endsBefore = listDate(req, 'ends_before', 'end');
    q.endsAfter = listDate(req, 'ends_after', 'end');
  }
  return q;
}

/**
 * Occurrence rows for the window a list or export shows: they exist up to the horizon already;
 * a window beyond it gets its own (store/series-horizon.ts).
 */
export function prepareOccurrences(req: ApiRequest, q: EventListQuery, skip?: ReadonlySet<number>): void {
  if (q.include) return;
  const { from, to } = windowOf(q);
  req.store.series.ensureWindow(from, to, req.store.write, undefined, q.postParent, skip);
}

/** The window of starts a list's dates allow (the tightest of its bounds). */
function windowOf(q: EventListQuery): { from?: string; to?: string } {
  const lows = [q.startDate, q.startsAfter, q.endsAfter].filter((d): d is string => d !== undefined);
  const highs = [q.endDate, q.startsBefore, q.endsBefore].filter((d): d is string => d !== undefined);
  return { from: lows.length ? lows.reduce((a, b) => (a > b ? a : b)) : undefined, to: highs.length ? highs.reduce((a, b) => (a < b ? a : b)) : undefined };
}

/** The longest window shown without rows: a month view's six weeks, with room. */
const VIRTUAL_WINDOW_MONTHS = 3;

/**
 * A list's page when some series show their occurrences in its window without rows (a window past
 * the horizon: series-virtual.ts); undefined when none do (the window is within the rows, or the
 * list is not one of a window of a few months at most, by start, as the calendar's months, weeks
 * and days are: a longer one writes its rows in bounded steps as before, where this would hold a
 * year of every series in memory). Nothing is written for them.
 */
function virtualPage(req: ApiRequest, q: EventListQuery): { ids: number[]; total: number } | undefined {
  const { from, to } = windowOf(q);
  if (q.include || q.postParent !== undefined || q.near || from === undefined || to === undefined || to > addMonths(from, VIRTUAL_WINDOW_MONTHS)) {
    prepareOccurrences(req, q);
    return undefined;
  }
  const virtual = req.store.series.virtual;
  const series = virtual.seriesFor(from, to);
  prepareOccurrences(req, q, new Set(series.map((s) => s.id)));
  if (!series.length) return undefined;
  return virtual.listPage(q, series, from, to, req.store.virtualLists.current());
}

/** Any of the relative date parameters turns the default window off (reference §4.1.1). */
const usesRelativeDates = (req: ApiRequest) => ['starts_before', 'starts_after', 'ends_before', 'ends_after'].some((n) => req.values[n] !== undefined);

function listEvents(req: ApiRequest): ApiResponse {
  const v = req.values;
  const q = eventQuery(req, { defaultWindow: true });
  const { page, perPage } = q;
  const relative = usesRelativeDates(req);
  const { ids, total } = virtualPage(req, q) ?? req.store.events.list(q);
  if (ids.length === 0 && page > 1) throw new ApiError('event-archive-page-not-found', 404, 'event-archive-page-not-found');

  const echo: Record<string, unknown> = {
    page,
    per_page: perPage,
    start_date: relative && v.start_date === undefined ? undefined : q.startDate,
    end_date: relative && v.end_date === undefined ? undefined : q.endDate,
    starts_before: q.startsBefore,
    starts_after: q.startsAfter,
    ends_before: q.endsBefore,
    ends_after: q.endsAfter,
    strict_dates: v.strict_dates ? 'true' : undefined,
    search: v.search,
    search_places: v.search_places ? 'true' : undefined,
    status: v.status,
    include: v.include,
    post_parent: v.post_parent,
    categories: v.categories,
    tags: v.tags,
    venue: v.venue,
    organizer: v.organizer,
    featured: v.featured,
    calendar: v.calendar,
    geoloc: v.geoloc,
    geoloc_lat: v.geoloc_lat,
    geoloc_lng: v.geoloc_lng,
    geoloc_radius: q.near ? q.near.radiusKm : undefined,
    // A language asked for in the query stays in the page links (a prefix stays in the root).
    i18n_language: req.raw.i18n_language !== undefined ? req.lang : undefined,
  };
  const { links, totalPages } = postListLinks(`${req.url.apiRoot}events/`, echo, page, total, perPage);
  return postListResponse('events', eventsJson(ids, req.url, req.store), links, total, totalPages);
}

interface EventLookup<R> {
  get(id: number): R | undefined;
  getBySlug(slug: string): R | undefined;
}

/**
 * The event a by-id or by-slug route names, with the original's errors when there is none; as a
 * whole row, or as what `lookup` gives. An occurrence shown without a row (series-virtual.ts) is
 * found as the row it stands for, written nowhere: a write's checks read it, and `rowToWrite`
 * writes its row inside the write's own transaction, so a refused write leaves nothing behind.
 */
function findEvent(req: ApiRequest): EventRow;
function findEvent<R extends EventStatusRow>(req: ApiRequest, lookup: EventLookup<R>): R;
function findEvent(req: ApiRequest, lookup: EventLookup<EventStatusRow> = req.store.events): EventStatusRow {
  if (req.path.slug !== undefined) {
    const row = lookup.getBySlug(req.path.slug);
    if (!row) throw invalidParam('slug', 'invalid_slug_ref');
    return row;
  }
  let id = Number(req.path.id);
  if (isVirtualId(id)) {
    const { row, exists } = req.store.series.virtual.resolve(id);
    if (row !== undefined) id = row;
    else if (exists) {
      const shown = req.store.series.virtual.rowsFor([id]).get(id);
      if (shown) return shown;
    }
  }
  const row = lookup.get(id);
  if (row) return row;
  if (req.store.registry.kindOf(id)) throw new ApiError('rest-invalid-event-id', 400, 'rest-invalid-event-id', { id });
  throw new ApiError('rest-event-not-found', 404, 'rest-event-not-found', { id });
}

function readEvent(req: ApiRequest): ApiResponse {
  // An occurrence shown without a row is found as the row it stands for (findEvent): reading writes nothing.
  const row = findEvent(req, req.store.events.statusOf);
  // The first event of a series whose own date was deleted for good: gone, for clients.
  if (isHidden(row.status)) throw new ApiError('rest-event-not-found', 404, 'rest-event-not-found', { id: row.id });
  if (row.status === 'trash') throw new ApiError('event-no-longer-available', 403, 'event-no-longer-available', { id: row.id });
  if (row.status !== 'publish' && !req.viewer.canEdit) throw new ApiError('event-not-accessible', 403, 'event-not-accessible');
  return { json: eventsJson([row.id], req.url, req.store, { jsonLd: true })[0] };
}

/** The settings' default reminders for a new event. */
function defaultReminders(req: ApiRequest, allDay: boolean): Reminder[] {
  const s = req.store.settings.get();
  return storedReminders(allDay ? s.reminders_all_day : s.reminders_timed);
}

/**
 * A new event made in Almanac, from checked values (POST /events' fields): the event, its series,
 * its reminders (the settings' defaults when it names none) and their schedule. Call inside a
 * write transaction; POST /events and POST /quick-add both make events through this.
 */
export function insertEvent(req: ApiRequest, checked: Record<string, unknown>): number {
  const { recurrence, reminders, ...values } = checked;
  const id = req.store.events.create(values, req.write);
  // The first months of rows now, the rest of the horizon in the background right after.
  if (recurrence !== undefined && recurrence !== null) req.store.series.create(id, recurrence, { firstMonths: FIRST_ROWS_MONTHS });
  // Defaults only here, for events made in Almanac: imports and sync never get them.
  const list = (reminders as Reminder[] | undefined) ?? defaultReminders(req, !!req.store.events.get(id)!.all_day);
  if (list.length) req.store.reminders.set(req.store.events.get(id)!, list, 'all');
  req.store.reminders.reschedule([id], req.now);
  return id;
}

function createEvent(req: ApiRequest): ApiResponse {
  const id = req.store.write(() => insertEvent(req, req.values));
  return { status: 201, body: writtenEvent(req.store.events.get(id)!, req.url, req.store) };
}

/** Months of occurrence rows a new series gets before its creation is answered. */
const FIRST_ROWS_MONTHS = 3;

/** An old client sends no scope, and so changes or deletes the one occurrence it names. */
const scopeOf = (req: ApiRequest): RecurrenceScope => (req.values.recurrence_scope as RecurrenceScope | undefined) ?? 'this';

/**
 * The row a write changes, in the write's transaction: an occurrence found without one (findEvent)
 * gets it now, so the write and its row are kept or rolled back together.
 */
function rowToWrite(req: ApiRequest, found: EventRow): EventRow {
  if (!isVirtualId(found.id)) return found;
  const id = req.store.series.virtual.materialise(found.id);
  const row = id === undefined ? undefined : req.store.events.get(id);
  if (!row) throw new ApiError('rest-event-not-found', 404, 'rest-event-not-found', { id: found.id });
  return row;
}

function updateEvent(req: ApiRequest): ApiResponse {
  const found = findEvent(req);
  // A hidden first event is gone as an occurrence, but it is still the handle of its series.
  if (isHidden(found.status) && scopeOf(req) === 'this') throw new ApiError('rest-event-not-found', 404, 'rest-event-not-found', { id: found.id });
  req.store.events.refuseReadOnlyEvent(found);
  const { recurrence_scope: _scope, ...values } = req.values;
  refuseWhatSitesCannot(req.store, found, values);
  const scope = scopeOf(req);
  const id = req.store.write(() => {
    const row = rowToWrite(req, found);
    // An occurrence that leaves its series (a split, or the one left of a series ended) keeps the
    // series' reminders it had.
    const leaves = scope === 'following' || (scope === 'all' && values.recurrence === null);
    const kept = leaves ? req.store.reminders.beforeSplit(row) : undefined;
    const id = req.store.series.update(row, values, scope, req.write);
    if (kept) req.store.reminders.afterSplit(id, kept);
    if (values.reminders !== undefined) req.store.reminders.set(row, values.reminders as Reminder[], scope);
    rescheduleAround(req, row, id);
    return id;
  });
  return { body: writtenEvent(req.store.events.get(id)!, req.url, req.store) };
}

function deleteEvent(req: ApiRequest): ApiResponse {
  const found = findEvent(req);
  if (isHidden(found.status) && scopeOf(req) === 'this') throw new ApiError('rest-event-not-found', 404, 'rest-event-not-found', { id: found.id });
  req.store.events.refuseReadOnlyEvent(found);
  if (found.status === 'trash') {
    if (!req.values.force) throw new ApiError('event-is-in-trash', 410, 'event-is-in-trash', { id: found.id });
    const before = serializeEvent(found, req.url, req.store);
    // The schedule's rows of a deleted event go with it (ON DELETE CASCADE).
    req.store.write(() => req.store.series.deleteForever(rowToWrite(req, found)));
    return { body: before };
  }
  const id = req.store.write(() => {
    const row = rowToWrite(req, found);
    const id = req.store.series.trash(row, scopeOf(req), req.write);
    rescheduleAround(req, row, id);
    return id;
  });
  return { body: writtenEvent(req.store.events.get(id)!, req.url, req.store) };
}

/**
 * The schedule after a write to `row`: the event, and for a write to more than it, its series'
 * first event (whose reschedule covers the occurrences in the window), before and after a split.
 */
function rescheduleAround(req: ApiRequest, row: EventRow, answered: number): void {
  const ids = [row.id, answered];
  if (row.parent_id !== null && scopeOf(req) !== 'this') ids.push(row.parent_id);
  req.store.reminders.reschedule(ids, req.now);
}

const single = (name: string) => [
  { methods: ['GET' as const], summary: `Read an event by ${name}.`, args: {}, write: false, response: 'Event' as const, record: 'event' as const, errors: [400, 403, 404], handler: readEvent },
  {
    methods: ['POST' as const, 'PUT' as const, 'PATCH' as const],
    summary: `Update an event by ${name}; fields left out stay as they are.`,
    args: { ...eventFields, ...recurrenceScopeParams },
    body: true,
    write: true,
    response: 'Event' as const,
    record: 'event' as const,
    errors: [400, 403, 404],
    handler: updateEvent,
  },
  { methods: ['DELETE' as const], summary: `Move an event to the trash by ${name} (force=true on a trashed one deletes it for good).`, args: { ...deleteParams, ...recurrenceScopeParams }, write: true, response: 'Event' as const, record: 'event' as const, errors: [400, 403, 404, 410], handler: deleteEvent },
];

export const eventRoutes: RouteDef[] = [
  route('/events', [
    { methods: ['GET'], summary: 'List events.', args: eventListParams, write: false, response: 'EventList', errors: [400, 404], handler: listEvents },
    { methods: ['POST'], summary: 'Create an event.', args: eventFields, body: true, creates: true, write: true, response: 'Event', record: 'event', errors: [400, 403], handler: createEvent },
  ]),
  route('/events/{id}', single('id')),
  route('/events/by-slug/{slug}', single('slug')),
];
