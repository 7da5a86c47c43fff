/**
 * The sync core's decisions, one code for every transport (CalDAV, websites): the three-way
 * merge of a record changed on both sides, field by field against the copy both started from,
 * and what to do when both sides changed it. A transport supplies its records as flat field maps
 * (CalDAV: a VEVENT's mapped body per RECURRENCE-ID, caldav/merge.ts; a site: the normalized
 * record, sites/records.ts) and applies the outcome.
 */

/** A value as comparable text: objects with their keys sorted, so key order never counts as a change. */
export function canonical(v: unknown): string {
  const sort = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(sort);
    if (x && typeof x === 'object') return Object.fromEntries(Object.keys(x).sort().map((k) => [k, sort((x as Record<string, unknown>)[k])]));
    return x;
  };
  return JSON.stringify(sort(v)) ?? 'undefined';
}

export const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/** The side's value that changed, or null when both changed it differently. */
export function pick<T>(base: T, local: T, remote: T): { value: T } | null {
  if (same(local, remote)) return { value: local };
  if (same(local, base)) return { value: remote };
  if (same(remote, base)) return { value: local };
  return null;
}

/**
 * A flat record merged field by field: each field takes the side that changed it; null when a
 * field was changed on both sides to different values (a real conflict: no merge).
 */
export function mergeFields<R extends Record<string, unknown>>(base: R, local: R, remote: R): R | null {
  const out: Record<string, unknown> = {};
  for (const field of new Set([...Object.keys(remote), ...Object.keys(local), ...Object.keys(base)])) {
    const chosen = pick(base[field], local[field], remote[field]);
    if (!chosen) return null;
    if (chosen.value !== undefined) out[field] = chosen.value;
  }
  return out as R;
}

/**
 * What to do with a record changed here (a change waits to be sent) that the other side changed
 * too since the last sync:
 * - `same`: both say the same now; nothing to keep aside, nothing to send for it.
 * - `merged`: each side changed other fields; the merge is applied here and sent.
 * - `conflict`: the same field changed differently; the other side's version wins the record and
 *   the local one is kept as a conflict copy (never dropped silently).
 * - `theirs`: nothing of ours is left to keep (the local record is gone): the other side's wins.
 */
export type BothChanged<T> = { outcome: 'same' } | { outcome: 'merged'; merged: T } | { outcome: 'conflict' } | { outcome: 'theirs' };

export function decideBothChanged<L, T>(local: L | undefined, how: { same(local: L): boolean; merge(local: L): T | null }): BothChanged<T> {
  if (local === undefined) return { outcome: 'theirs' };
  if (how.same(local)) return { outcome: 'same' };
  const merged = how.merge(local);
  return merged === null ? { outcome: 'conflict' } : { outcome: 'merged', merged };
}

/**
 * The same decision for two flat records (a site's): the same now, merged field by field against
 * the copy both started from (none known: no merge), or a conflict; `theirs` when ours is gone.
 */
export function decideRecords<R extends Record<string, unknown>>(base: R | undefined, local: R | undefined, remote: R): BothChanged<R> {
  return decideBothChanged(local, { same: (l) => same(l, remote), merge: (l) => (base ? mergeFields(base, l, remote) : null) });
}
