/**
 * Conditional requests on single records (issue 26 item 5, an Almanac extension): a record read
 * or written answers an `ETag`; `If-None-Match` on a read answers 304 when it still matches
 * (dispatch.ts sendJson), and `If-Match` on a write refuses it with 412 when the record changed
 * since the client read it, so a sync client has no window between its read and its write in
 * which another change could be overwritten. The original has no such thing: clients tell the two
 * apart by the `X-Cal-Conditional-Writes` header and the index's `almanac.conditional_writes`.
 */
import { ApiError } from '../errors';
import type { Store } from '../store';
import type { UrlContext } from '../serialize/context';
import { eventsJson } from '../serialize/event';
import { linkedJson } from '../serialize/linked-posts';
import { serializeTerm } from '../serialize/terms';
import { etagOf } from '../serialize/json-cache';
import type { ApiRequest } from './route-table';
import { isVirtualId } from '../store/series-virtual';

export type RecordKind = 'event' | 'venue' | 'organizer' | 'category' | 'tag';

/** Sent on every API answer, so a client can tell an Almanac (which honours `If-Match`) from the original. */
export const CONDITIONAL_HEADER = 'X-Cal-Conditional-Writes';

/** The id of the record a by-id or by-slug route names, or undefined when there is none. */
function namedRecord(kind: RecordKind, req: Pick<ApiRequest, 'path' | 'store'>): number | undefined {
  const { path, store } = req;
  const slug = path.slug;
  const id = Number(path.id);
  if (kind === 'event') {
    if (slug !== undefined) return store.events.getBySlug(slug)?.id;
    // An occurrence shown without a row (series-virtual.ts) is named by its own id until it has one.
    if (isVirtualId(id)) {
      const { row, exists } = store.series.virtual.resolve(id);
      return row ?? (exists ? id : undefined);
    }
    return store.events.get(id)?.id;
  }
  if (kind === 'venue' || kind === 'organizer') {
    const s = kind === 'venue' ? store.venues : store.organizers;
    return (slug !== undefined ? s.getBySlug(slug) : s.get(id))?.id;
  }
  return store.terms.get(kind, id)?.id;
}

/**
 * The record's tag as a read of it would answer, or undefined when it does not exist. Built at the
 * request's own address, so the read that follows a write finds its JSON made already.
 */
export function recordEtag(kind: RecordKind, id: number, store: Store, ctx: UrlContext): string | undefined {
  let bytes: Buffer | string | undefined;
  if (kind === 'event') bytes = store.events.get(id) || isVirtualId(id) ? eventsJson([id], ctx, store, { jsonLd: true })[0] : undefined;
  else if (kind === 'venue' || kind === 'organizer') bytes = (kind === 'venue' ? store.venues : store.organizers).get(id) ? linkedJson(kind, [id], ctx, store, { jsonLd: true })[0] : undefined;
  else {
    const row = store.terms.get(kind, id);
    bytes = row ? JSON.stringify(serializeTerm(row, ctx, store.terms.translations(row))) : undefined;
  }
  return bytes === undefined ? undefined : etagOf(bytes, ctx);
}

/** `If-Match` values: `*` or a list of tags; weak tags never match (a strong comparison, RFC 9110 §13.1.1). */
function matches(header: string, current: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim() === current);
}

/**
 * Refuses a write with 412 when `If-Match` names another version of the record. Called in the same
 * tick as the write itself, so nothing can change the record in between. A record that does not
 * exist is left to the route to refuse with its own 404 or 400, as RFC 9110 §13.2.2 orders.
 */
export function checkIfMatch(header: string | undefined, kind: RecordKind, req: Pick<ApiRequest, 'path' | 'store' | 'url'>): void {
  if (header === undefined) return;
  const id = namedRecord(kind, req);
  if (id === undefined) return;
  const current = recordEtag(kind, id, req.store, req.url);
  if (current !== undefined && !matches(header, current)) throw new ApiError('rest_precondition_failed', 412, 'rest_precondition_failed', { id });
}
