/**
 * Records' JSON served from the store's cache while the calendar is unchanged (any write, here or
 * by another process, empties it). It is kept as UTF-8 bytes: a list's body is its records' bytes
 * copied into the envelope, and a read's body is one record's bytes, with nothing to serialise or
 * encode (encoding a 35 KB list page as UTF-8 on every request cost more than building it).
 */
import type { CacheView } from '../store/derived-cache';
import type { UrlContext } from './context';

/**
 * The JSON of these records as UTF-8, in the order of `ids`; the ones not cached are made by
 * `build` (given the missing ids, answering in the same order) in one batch and cached.
 * `cache`: the store's `recordJson` or `linkedJson`, as of now.
 */
export function cachedJson(cache: CacheView<Buffer>, kind: string, ctx: UrlContext, ids: number[], build: (missing: number[]) => object[]): Buffer[] {
  // Links in the JSON are absolute, so the same record reads differently on another root.
  const prefix = `${kind}\u0000${ctx.apiRoot}\u0000`;
  const out = ids.map((id) => cache.get(prefix + id));
  const missing = ids.filter((_, i) => out[i] === undefined);
  if (missing.length > 0) {
    const made = new Map(build(missing).map((record, i) => [missing[i], utf8(JSON.stringify(record))]));
    for (const [id, bytes] of made) cache.set(prefix + id, bytes);
    ids.forEach((id, i) => (out[i] ??= made.get(id)));
  }
  return out as Buffer[];
}

/** In memory of its own: a small Buffer.from is a slice of a shared 8 KB pool, which it would keep alive. */
function utf8(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text, 'utf8');
  return bytes;
}
