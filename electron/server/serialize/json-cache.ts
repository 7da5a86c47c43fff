/**
 * Records' JSON served from the store's cache while the calendar is unchanged (any write, here or
 * by another process, empties it). It is kept as text: a list's body is its records' text
 * spliced into the envelope, and a read's body is one record's text, with nothing to serialise.
 */
import type { Store } from '../store';
import type { UrlContext } from './context';

/**
 * The JSON text of these records, in the order of `ids`; the ones not cached are made by `build`
 * (given the missing ids, answering in the same order) in one batch and cached.
 */
export function cachedJson(store: Store, kind: string, ctx: UrlContext, ids: number[], build: (missing: number[]) => object[]): string[] {
  const cache = store.recordJson.current();
  // Links in the JSON are absolute, so the same record reads differently on another root.
  const prefix = `${kind}\u0000${ctx.apiRoot}\u0000`;
  const out = ids.map((id) => cache.get(prefix + id));
  const missing = ids.filter((_, i) => out[i] === undefined);
  if (missing.length > 0) {
    const made = new Map(build(missing).map((record, i) => [missing[i], JSON.stringify(record)]));
    for (const [id, text] of made) cache.set(prefix + id, text);
    ids.forEach((id, i) => (out[i] ??= made.get(id)));
  }
  return out as string[];
}
