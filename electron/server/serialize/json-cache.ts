/**
 * Records' JSON served from the store's cache while the calendar is unchanged (any write, here or
 * by another process, empties it). The values are shared between responses, so nothing may
 * modify a record's JSON after it is made.
 */
import type { Store } from '../store';
import type { UrlContext } from './context';

/**
 * The JSON of these records, in the order of `ids`; the ones not cached are made by `build` (given
 * the missing ids, answering in the same order) in one batch and cached.
 */
export function cachedJson<T extends object>(
  store: Store,
  kind: string,
  ctx: UrlContext,
  ids: number[],
  build: (missing: number[]) => T[],
): T[] {
  const cache = store.recordJson.current();
  // Links in the JSON are absolute, so the same record reads differently on another root.
  const key = (id: number) => `${kind}\u0000${ctx.apiRoot}\u0000${id}`;
  const out = ids.map((id) => cache.get(key(id)) as T | undefined);
  const missing = ids.filter((_, i) => out[i] === undefined);
  if (missing.length > 0) {
    const made = new Map(build(missing).map((json, i) => [missing[i], json]));
    for (const [id, json] of made) cache.set(key(id), json);
    ids.forEach((id, i) => (out[i] ??= made.get(id)));
  }
  return out as T[];
}
