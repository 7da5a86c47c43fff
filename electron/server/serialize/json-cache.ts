/**
 * Records' JSON served from the store's cache while the calendar is unchanged (any write, here or
 * by another process, empties it). It is kept as UTF-8 bytes: a list's body is its records' bytes
 * copied into the envelope, and a read's body is one record's bytes, with nothing to serialise or
 * encode (encoding a 35 KB list page as UTF-8 on every request cost more than building it).
 */
import { hash } from 'node:crypto';
import type { CacheView } from '../store/derived-cache';
import type { UrlContext } from './context';

/**
 * Records of `kind` by id, from `cache` (a store's derived cache as of now) where it has them; the
 * others are made by `build` in one batch and kept. `build` leaves out ids it cannot make (a record
 * gone), and so does the answer.
 */
export function cachedRecords<V>(cache: CacheView<V>, kind: string, ctx: UrlContext, ids: readonly number[], build: (missing: number[]) => Map<number, V>): Map<number, V> {
  // Links in the JSON are absolute, so the same record reads differently on another root.
  const prefix = `${kind}\u0000${ctx.apiRoot}\u0000`;
  const out = new Map<number, V>();
  const missing: number[] = [];
  for (const id of ids) {
    const known = cache.get(prefix + id);
    if (known === undefined) missing.push(id);
    else out.set(id, known);
  }
  if (missing.length > 0) {
    for (const [id, value] of build(missing)) {
      cache.set(prefix + id, value);
      out.set(id, value);
    }
  }
  return out;
}

/**
 * The JSON of these records as UTF-8, in the order of `ids`; the ones not cached are made by
 * `build` (given the missing ids, answering in the same order) in one batch and cached.
 * `cache`: the store's `recordJson` or `linkedJson`, as of now.
 */
export function cachedJson(cache: CacheView<Buffer>, kind: string, ctx: UrlContext, ids: number[], build: (missing: number[]) => object[]): Buffer[] {
  const found = cachedRecords(cache, kind, ctx, ids, (missing) => {
    const made = build(missing);
    return new Map(missing.map((id, i) => [id, utf8(JSON.stringify(made[i]))]));
  });
  return ids.map((id) => found.get(id)!);
}

/** Tags of cached JSON, by the very bytes the cache holds: made once per entry, gone with it. */
const tags = new WeakMap<Buffer, string>();

/**
 * The entity tag (strong) of a record as a read serves it (`bytes`). Its addresses are taken out
 * first, so the tag is the same through every root (`/wp-json/…`, `?rest_route=`, a language
 * prefix) and host name, and changes exactly when what the record reads as changes: its own
 * fields, an embedded venue, organizer or term, a setting that shows in it. Bytes from the JSON
 * cache are hashed once, the first time their tag is asked (the write that filled the entry, or
 * the first read): every later read of the same entry, and its If-Match check, reuse the tag.
 */
export function etagOf(bytes: Buffer | string, ctx: UrlContext): string {
  if (typeof bytes !== 'string') {
    const known = tags.get(bytes);
    if (known !== undefined) return known;
  }
  const text = (typeof bytes === 'string' ? bytes : bytes.toString('utf8')).split(ctx.apiRoot).join('\u0000').split(ctx.origin).join('\u0001');
  // A fingerprint of what was served, not a secret: the fastest of Node's one-shot hashes.
  const tag = `"${hash('sha1', text, 'base64url')}"`;
  if (typeof bytes !== 'string') tags.set(bytes, tag);
  return tag;
}

/**
 * One serialisation for a record just written: `build` makes the read's form (with `json_ld`),
 * which fills the cache entry a read and the write's ETag take (`kind` its cache kind); the
 * answer is that object without `json_ld`, as the original answers writes. When the entry was
 * cached already, the answer is made by `plain`.
 */
export function writtenRecord<V extends { json_ld?: unknown }>(cache: CacheView<Buffer>, kind: string, ctx: UrlContext, id: number, build: () => V, plain: () => V): Omit<V, 'json_ld'> {
  let made: V | undefined;
  cachedJson(cache, kind, ctx, [id], () => [(made = build())]);
  if (made === undefined) return plain();
  const { json_ld: _ld, ...answer } = made;
  return answer;
}

/** In memory of its own: a small Buffer.from is a slice of a shared 8 KB pool, which it would keep alive. */
function utf8(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text, 'utf8');
  return bytes;
}
