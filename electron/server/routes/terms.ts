/** The categories and tags routes: list, create, read, update, delete (terms are deleted for good). */
import { categoryFields, tagFields } from '../../../shared/schema/resources';
import { categoryListParams, tagListParams } from '../../../shared/schema/queries';
import { invalidParam } from '../errors';
import type { Taxonomy, TermRow } from '../store/terms';
import { serializeTerm, termsJson } from '../serialize/terms';
import { pageSize, termListLinks, termListResponse } from '../http/paging';
import { route, type ApiRequest, type ApiResponse, type RouteDef } from '../http/route-table';

export function termRoutes(taxonomy: Taxonomy): RouteDef[] {
  const plural = taxonomy === 'category' ? 'categories' : 'tags';
  const fields = taxonomy === 'category' ? categoryFields : tagFields;
  const listParams = taxonomy === 'category' ? categoryListParams : tagListParams;
  const show = (req: ApiRequest, row: TermRow) => serializeTerm(row, req.url, req.store.terms.translations(row));

  function find(req: ApiRequest): TermRow {
    const row = req.store.terms.get(taxonomy, Number(req.path.id));
    if (!row) throw invalidParam('id', 'invalid_id_ref');
    return row;
  }

  function checkIds(req: ApiRequest, name: 'include' | 'exclude' | 'parent'): void {
    const v = req.values[name];
    if (v === undefined) return;
    for (const id of Array.isArray(v) ? (v as number[]) : [v as number]) {
      if (name === 'parent' && id === 0) continue;
      if (!req.store.terms.exists(taxonomy, id)) throw invalidParam(name, name === 'parent' ? 'invalid_parent' : 'invalid_term_ref');
    }
  }

  function list(req: ApiRequest): ApiResponse {
    const v = req.values;
    checkIds(req, 'include');
    checkIds(req, 'exclude');
    checkIds(req, 'parent');
    // `event` is an alias of `post`; when both are given, `event` wins.
    const event = (v.event ?? v.post) as number | undefined;
    if (event !== undefined && !req.store.events.get(event)) throw invalidParam(v.event !== undefined ? 'event' : 'post', 'invalid_event_ref');
    const page = v.page as number;
    const perPage = pageSize(req);
    const { ids, total } = req.store.terms.list(taxonomy, {
      lang: req.lang,
      page,
      perPage,
      hideEmpty: v.hide_empty as boolean,
      search: v.search as string | undefined,
      include: v.include as number[] | undefined,
      exclude: v.exclude as number[] | undefined,
      parent: v.parent as number | undefined,
      event,
      slug: v.slug as string | undefined,
      order: String(v.order).toLowerCase() === 'asc' ? 'asc' : 'desc',
      orderby: String(v.orderby).toLowerCase(),
    });
    const collection = `${req.url.apiRoot}${plural}/`;
    const { links, totalPages } = termListLinks(collection, page, total, perPage);
    return termListResponse(plural, collection, termsJson(taxonomy, ids, req.url, req.store), links, total, totalPages);
  }

  function create(req: ApiRequest): ApiResponse {
    const values = req.values;
    const id = req.store.write(() => req.store.terms.create(taxonomy, values, req.write));
    return {
      status: 201,
      body: show(req, req.store.terms.get(taxonomy, id)!),
      headers: { Location: `${req.url.apiRoot}${plural}/${id}` },
    };
  }

  function update(req: ApiRequest): ApiResponse {
    const row = find(req);
    const values = req.values;
    req.store.write(() => req.store.terms.update(taxonomy, row.id, values));
    return { body: show(req, req.store.terms.get(taxonomy, row.id)!) };
  }

  function remove(req: ApiRequest): ApiResponse {
    const row = find(req);
    const before = show(req, row);
    req.store.write(() => req.store.terms.delete(taxonomy, row.id));
    return { body: before };
  }

  const listShape = taxonomy === 'category' ? ('CategoryList' as const) : ('TagList' as const);
  return [
    route(`/${plural}`, [
      { methods: ['GET'], summary: `List ${plural}.`, args: listParams, write: false, response: listShape, errors: [400], handler: list },
      { methods: ['POST'], summary: `Create a ${taxonomy}.`, args: fields, body: true, creates: true, write: true, response: 'Term', record: taxonomy, errors: [400], handler: create },
    ]),
    route(`/${plural}/{id}`, [
      { methods: ['GET'], summary: `Read a ${taxonomy}.`, args: {}, write: false, response: 'Term', record: taxonomy, errors: [400], handler: (req) => ({ body: show(req, find(req)) }) },
      { methods: ['POST', 'PUT', 'PATCH'], summary: `Update a ${taxonomy}.`, args: fields, body: true, write: true, response: 'Term', record: taxonomy, errors: [400], handler: update },
      { methods: ['DELETE'], summary: `Delete a ${taxonomy} for good.`, args: {}, write: true, response: 'Term', record: taxonomy, errors: [400], handler: remove },
    ]),
  ];
}
