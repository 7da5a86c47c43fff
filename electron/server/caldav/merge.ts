/**
 * Three-way merge of one resource changed on both sides since the last sync: per mapped field
 * (the event body the iCalendar mapping reads) and per occurrence (RECURRENCE-ID), against the
 * copy both started from (`base_ical`). A field changed on one side only takes that side's value;
 * a field both changed to different values is a real conflict, and then there is no merge (the
 * caller keeps the server's version and the local one as a conflict copy). Texts are compared as
 * the mapping reads them, never byte for byte: servers rewrite what they store.
 */
import type { WriteContext } from '../store/post-fields';
import type { ImportItem } from '../import-export/import-records';
import { mappedItems } from './resource';
import { mergeFields, same } from '../sync/merge';

const keyOf = (i: ImportItem) => i.recurrenceId ?? '';

/**
 * The merged events of the resource (the items to write here, then send), or null when the two
 * sides changed the same thing differently.
 */
export function mergeThreeWay(baseText: string, localText: string, serverText: string, ctx: WriteContext): ImportItem[] | null {
  const [base, local, server] = [baseText, localText, serverText].map((t) => new Map(mappedItems(t, ctx).map((i) => [keyOf(i), i])));
  if (local.size === 0 || server.size === 0) return null;
  const keys = [...new Set([...server.keys(), ...local.keys(), ...base.keys()])];
  // The master first: the importer reads a series' exceptions after it.
  keys.sort((a, b) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0));
  const out: ImportItem[] = [];
  for (const key of keys) {
    const [b, l, s] = [base.get(key), local.get(key), server.get(key)];
    if (!l || !s) {
      const kept = l ?? s;
      // Dropped on both sides, or dropped on one while the other left it as it was: dropped.
      if (!kept || (b && same(kept.body, b.body))) continue;
      // Added on one side: kept. Dropped on one side while changed on the other: a conflict.
      if (b) return null;
      out.push(kept);
      continue;
    }
    const body = mergeFields(b?.body ?? {}, l.body, s.body);
    if (!body) return null;
    out.push({ ...s, body });
  }
  return out;
}
