/** The venues and organizers routes: list, create, and read/update/delete by id or by slug. */
import { linkedListParams, deleteParams } from '../../../shared/schema/queries';
import { ApiError, invalidParam } from '../errors';
import { FIELDS, type LinkedKind, type LinkedRow } from '../store/linked-posts';
import { serializeLinked, linkedJson, writtenLinked } from '../serialize/linked-posts';
import { pageSize, postListLinks, postListResponse } from '../http/paging';
import { route, type ApiRequest, type ApiResponse, type RouteDef, type Endpoint } from '../http/route-table';
import { listStatuses } from './events';

const PLURAL: Record<LinkedKind, 'venues' | 'organizers'> = { venue: 'venues', organizer: 'organizers' };

export function linkedRoutes(kind: LinkedKind): RouteDef[] {
  const plural = PLURAL[kind];
  const fields = FIELDS[kind];
  const storeOf = (req: ApiRequest) => (kind === 'venue' ? req.store.venues : req.store.organizers);
  const shape = kind === 'venue' ? ('Venue' as const) : ('Organizer' as const);

  function find(req: ApiRequest): LinkedRow {
    const store = storeOf(req);
    if (req.path.slug !== undefined) {
      const row = store.getBySlug(req.path.slug);
      if (!row) throw invalidParam('slug', 'invalid_slug_ref');
      return row;
    }
    const row = store.get(Number(req.path.id));
    // The original's id validator answers 400 for any id that is not a venue (organizer).
    if (!row) throw invalidParam('id', 'invalid_id_ref');
    return row;
  }

  function list(req: ApiRequest): ApiResponse {
    const v = req.values;
    if (v.event !== undefined && !req.store.events.get(v.event as number)) throw invalidParam('event', 'invalid_event_ref');
    const page = v.page as number;
    const perPage = pageSize(req);
    const { ids, total } = storeOf(req).list(
      {
        lang: req.lang,
        statuses: listStatuses(req),
        page,
        perPage,
        search: v.search as string | undefined,
        event: v.event as number | undefined,
        hasEvents: v.has_events as boolean | undefined,
        onlyWithUpcoming: v.only_with_upcoming as boolean,
      },
      req.viewer,
      req.now,
    );
    if (ids.length === 0 && page > 1) throw new ApiError(`${kind}-archive-page-not-found`, 404, `${kind}-archive-page-not-found`);
    const echo = { page, per_page: perPage, search: v.search, event: v.event, has_events: v.has_events, only_with_upcoming: v.only_with_upcoming || undefined, status: v.status, i18n_language: req.raw.i18n_language !== undefined ? req.lang : undefined };
    const { links, totalPages } = postListLinks(`${req.url.apiRoot}${plural}/`, echo, page, total, perPage);
    return postListResponse(plural, linkedJson(kind, ids, req.url, req.store), links, total, totalPages);
  }

  function read(req: ApiRequest): ApiResponse {
    const row = find(req);
    if (row.status !== 'publish' && !req.viewer.canEdit) throw new ApiError(`${kind}-not-accessible`, 403, `${kind}-not-accessible`);
    return { json: linkedJson(kind, [row.id], req.url, req.store, { jsonLd: true })[0] };
  }

  function create(req: ApiRequest): ApiResponse {
    const values = req.values;
    const { id } = req.store.write(() => storeOf(req).create(values, req.write));
    return { status: 201, body: writtenLinked(kind, storeOf(req).get(id)!, req.url, req.store) };
  }

  function update(req: ApiRequest): ApiResponse {
    const row = find(req);
    const values = req.values;
    req.store.write(() => storeOf(req).update(row.id, values, req.write));
    return { body: writtenLinked(kind, storeOf(req).get(row.id)!, req.url, req.store) };
  }

  function remove(req: ApiRequest): ApiResponse {
    const row = find(req);
    const store = storeOf(req);
    if (row.status === 'trash') {
      if (!req.values.force) throw new ApiError(`${kind}-is-in-trash`, 410, `${kind}-is-in-trash`, { id: row.id });
      const before = serializeLinked(kind, [row], req.url, req.store)[0];
      req.store.write(() => store.deleteForever(row.id));
      return { body: before };
    }
    req.store.write(() => store.trash(row.id, req.write));
    return { body: writtenLinked(kind, store.get(row.id)!, req.url, req.store) };
  }

  const single = (by: string): Endpoint[] => [
    { methods: ['GET'], summary: `Read a ${kind} by ${by}.`, args: {}, write: false, response: shape, record: kind, errors: [400, 403], handler: read },
    { methods: ['POST', 'PUT', 'PATCH'], summary: `Update a ${kind} by ${by}; fields left out stay as they are.`, args: fields, body: true, write: true, response: shape, record: kind, errors: [400], handler: update },
    { methods: ['DELETE'], summary: `Move a ${kind} to the trash by ${by} (force=true on a trashed one deletes it for good).`, args: deleteParams, write: true, response: shape, record: kind, errors: [400, 410], handler: remove },
  ];

  return [
    route(`/${plural}`, [
      { methods: ['GET'], summary: `List ${plural}.`, args: linkedListParams, write: false, response: kind === 'venue' ? 'VenueList' : 'OrganizerList', errors: [400, 404], handler: list },
      { methods: ['POST'], summary: `Create a ${kind} (an identical existing one is returned instead).`, args: fields, body: true, creates: true, write: true, response: shape, record: kind, errors: [400], handler: create },
    ]),
    route(`/${plural}/{id}`, single('id')),
    route(`/${plural}/by-slug/{slug}`, single('slug')),
  ];
}
