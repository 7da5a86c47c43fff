/**
 * List envelopes: `rest_url`, `next_rest_url`, `previous_rest_url`, `total`, `total_pages` and the
 * count headers, by the original's rules (reference §2).
 */
import { MAX_PER_PAGE } from '../store/settings';
import type { ApiRequest, ApiResponse } from './route-table';
import { withQuery } from './site';

export function pageSize(req: ApiRequest): number {
  const asked = (req.values.per_page as number | undefined) ?? req.url.settings.per_page;
  return Math.min(asked, MAX_PER_PAGE);
}

export function countHeaders(total: number, totalPages: number): Record<string, string> {
  return {
    'X-Cal-Total': String(total),
    'X-Cal-TotalPages': String(totalPages),
    'X-WP-Total': String(total),
    'X-WP-TotalPages': String(totalPages),
  };
}

function queryString(params: Record<string, unknown>): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    qs.set(k, Array.isArray(v) ? v.join(',') : typeof v === 'boolean' ? (v ? 'true' : 'false') : String(v));
  }
  return qs.toString();
}

/**
 * Envelope keys of an events/venues/organizers list. `echo` is the effective query (request
 * parameter names), `page` included; next/previous exist only when that page has items.
 */
export function postListLinks(collectionUrl: string, echo: Record<string, unknown>, page: number, total: number, perPage: number) {
  const totalPages = total === 0 ? 0 : Math.ceil(total / perPage);
  // The collection's address may be of the `?rest_route=` form already: the query then follows with `&`.
  const restUrl = withQuery(collectionUrl, queryString(echo));
  const out: { rest_url: string; next_rest_url?: string; previous_rest_url?: string } = { rest_url: restUrl };
  const rest = { ...echo };
  delete rest.page;
  if (page < totalPages) out.next_rest_url = withQuery(collectionUrl, queryString({ ...rest, page: page + 1 }));
  if (page > 1 && page - 1 <= totalPages) {
    out.previous_rest_url = withQuery(collectionUrl, queryString(page - 1 >= 2 ? { ...rest, page: page - 1 } : rest));
  }
  return { links: out, totalPages };
}

/** Term lists link pages of the bare collection URL, without the other filters (reference §2.2). */
export function termListLinks(collectionUrl: string, page: number, total: number, perPage: number) {
  const totalPages = total === 0 ? 0 : Math.ceil(total / perPage);
  const out: { next_rest_url?: string; previous_rest_url?: string } = {};
  if (page < totalPages) out.next_rest_url = withQuery(collectionUrl, `page=${page + 1}`);
  if (page > 1) out.previous_rest_url = page === 2 ? collectionUrl : withQuery(collectionUrl, `page=${page - 1}`);
  return { links: out, totalPages };
}

/**
 * An events/venues/organizers list in the original's key order: items, `rest_url`, the page links
 * (never on an empty list), `total`, `total_pages`; with the count headers. The items come as
 * their JSON bytes (from the records' JSON cache), and the envelope is built around them.
 */
export function postListResponse(key: string, items: Buffer[], links: ReturnType<typeof postListLinks>['links'], total: number, totalPages: number): ApiResponse {
  const rest: Record<string, unknown> = items.length === 0 ? { rest_url: links.rest_url } : { ...links };
  rest.total = total;
  rest.total_pages = totalPages;
  const parts = [Buffer.from(`{${JSON.stringify(key)}:[`), ...joined(items), Buffer.from(`],${JSON.stringify(rest).slice(1)}`)];
  return { json: Buffer.concat(parts), headers: countHeaders(total, totalPages) };
}

/** A categories/tags list in the original's key order: `rest_url`, `total`, `total_pages`, items, page links. */
export function termListResponse(key: string, collectionUrl: string, items: Buffer[], links: ReturnType<typeof termListLinks>['links'], total: number, totalPages: number): ApiResponse {
  const head = `{"rest_url":${JSON.stringify(collectionUrl)},"total":${total},"total_pages":${totalPages},${JSON.stringify(key)}:[`;
  const tail = Object.keys(links).length ? `],${JSON.stringify(links).slice(1)}` : ']}';
  return { json: Buffer.concat([Buffer.from(head), ...joined(items), Buffer.from(tail)]), headers: countHeaders(total, totalPages) };
}

/** Records' JSON with commas between them, for an answer written as one buffer. */
export function joined(items: Buffer[]): Buffer[] {
  const parts: Buffer[] = [];
  items.forEach((item, i) => (i > 0 ? parts.push(COMMA, item) : parts.push(item)));
  return parts;
}

const COMMA = Buffer.from(',');
