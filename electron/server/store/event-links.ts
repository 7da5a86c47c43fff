/**
 * How an event body's links are resolved and written: its venue and organizers (ids, `{id}`, or
 * data to create), its categories and tags, and what a bulk write remembers of them (`LinkMemo`).
 */
import type { RefList } from '../../../shared/schema/kinds';
import { toInteger } from '../../../shared/schema/kinds';
import type { DB } from './db';
import type { Values, WriteContext } from './post-fields';
import type { LinkedPostStore } from './linked-posts';
import { FIELDS } from './linked-posts';
import type { TermStore } from './terms';
import { ApiError, invalidParam, invalidParams } from '../errors';
import { validateFields, isEmptyLink } from '../validate';

/**
 * What a bulk write (an import: thousands of events naming the same few venues, organizers and
 * terms, in one transaction) has resolved already, so each is looked up once instead of per event.
 * Keys hold everything the lookup depends on (language, the data as given). A venue or organizer
 * answer stays right while the transaction lasts: it is the lowest matching id, and records created
 * later have higher ids. A term answer may change when a term is created (its slug can match a
 * reference that matched by name before), so creating one forgets the terms resolved so far.
 * Whoever rolls back part of the transaction must `clear()` the memo: it may name rolled-back rows.
 */
export class LinkMemo {
  readonly linked = new Map<string, number>();
  /** Terms resolved by name, and (keyed `#taxonomy\u0000id`) term ids found of their taxonomy. */
  readonly terms = new Map<string, number>();
  /** Ids found usable: a venue or organizer not in the trash (`venue:N`), a calendar one may write to (`calendar:N`). */
  readonly usable = new Set<string>();
  clear(): void {
    this.linked.clear();
    this.terms.clear();
    this.usable.clear();
  }
}

export function createEventLinks(db: DB, venues: LinkedPostStore, organizers: LinkedPostStore, terms: TermStore) {
  const clearOrganizers = db.prepare('DELETE FROM event_organizers WHERE event_id = ?');
  const addOrganizer = db.prepare('INSERT OR IGNORE INTO event_organizers (event_id, organizer_id, position) VALUES (?, ?, ?)');

  /** Venue in an event body: an id, `{id}`, venue data to create (or reuse), or empty (reference §5.3). */
  function resolveVenue(input: unknown, ctx: WriteContext, memo?: LinkMemo): number | null {
    if (isEmptyLink(input)) return null;
    if (Array.isArray(input)) {
      // The base product links one venue; a list of one is accepted for clients that send lists.
      if (input.length !== 1) throw invalidParam('venue', 'invalid_venue');
      input = input[0];
    }
    const asId = toInteger(input);
    if (asId !== undefined) {
      if (memo?.usable.has(`venue:${asId}`)) return asId;
      const status = venues.statusOf(asId);
      if (!status || status === 'trash') throw invalidParam('venue', 'invalid_venue');
      memo?.usable.add(`venue:${asId}`);
      return asId;
    }
    if (typeof input !== 'object' || input === null) throw invalidParam('venue', 'invalid_venue');
    const obj = input as Record<string, unknown>;
    if (obj.id !== undefined && obj.id !== null && obj.id !== '') {
      const id = toInteger(obj.id);
      if (id === undefined || !venues.statusOf(id)) throw invalidParam('venue', 'invalid_venue');
      return id;
    }
    return createLinked(venues, 'venue', obj, ctx, memo);
  }

  function createLinked(store: LinkedPostStore, param: string, data: Record<string, unknown>, ctx: WriteContext, memo?: LinkMemo): number {
    // Only successes are remembered: a failure throws again the same way next time.
    const key = memo && `${store.kind}\u0000${ctx.lang}\u0000${JSON.stringify(data)}`;
    const known = key === undefined ? undefined : memo!.linked.get(key);
    if (known !== undefined) return known;
    const id = createLinkedNow(store, param, data, ctx);
    if (key !== undefined) memo!.linked.set(key, id);
    return id;
  }

  function createLinkedNow(store: LinkedPostStore, param: string, data: Record<string, unknown>, ctx: WriteContext): number {
    let values: Values;
    try {
      values = validateFields(FIELDS[store.kind], data, 'create');
    } catch (err) {
      if (err instanceof ApiError) {
        throw invalidParams({ [param]: store.kind === 'venue' ? 'invalid_venue' : 'invalid_organizer' }, {
          [param]: {
            code: `could-not-create-${store.kind}`,
            messageKey: `could-not-create-${store.kind}`,
            vars: { reason: Object.keys(err.invalid ?? {}).concat(err.missing ?? []).join(', ') },
            // Worded in the request's language by the HTTP layer, so a form can mark the venue's own field.
            data: { status: 400, params: err.invalid ?? err.missing, param_vars: err.invalidVars },
          },
        });
      }
      throw err;
    }
    return store.create(values, ctx).id;
  }

  /** Organizers in an event body: ids, a CSV of ids, `{id}` objects, data objects, or a mix. */
  function resolveOrganizers(input: unknown, ctx: WriteContext, memo?: LinkMemo): number[] {
    if (isEmptyLink(input)) return [];
    let items: unknown[];
    if (Array.isArray(input)) items = input;
    else if (typeof input === 'string') items = input.split(',').map((s) => s.trim()).filter(Boolean);
    else items = [input];
    if (items.length > 100) throw invalidParam('organizer', 'invalid_organizer');
    const ids: number[] = [];
    for (const item of items) {
      let id = toInteger(item);
      if (id !== undefined) {
        if (!memo?.usable.has(`organizer:${id}`)) {
          const status = organizers.statusOf(id);
          if (!status || status === 'trash') throw invalidParam('organizer', 'invalid_organizer');
          memo?.usable.add(`organizer:${id}`);
        }
      } else if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
        const obj = item as Record<string, unknown>;
        if (obj.id !== undefined && obj.id !== null && obj.id !== '') {
          id = toInteger(obj.id);
          // The original's own code for an {id} that is not an organizer (reference §3; only the
          // venue's case was corrected to rest_invalid_param).
          if (id === undefined || !organizers.statusOf(id)) {
            throw new ApiError('invalid-linked-post-id', 400, 'invalid-linked-post-id', { id: String(obj.id), kind: 'organizer' });
          }
        } else if (isEmptyLink(obj)) continue;
        else id = createLinked(organizers, 'organizer', obj, ctx, memo);
      } else throw invalidParam('organizer', 'invalid_organizer');
      if (!ids.includes(id)) ids.push(id);
    }
    return ids;
  }

  /** `fresh`: the event was just created, so it has no links to clear. */
  function writeLinks(id: number, values: Values, ctx: WriteContext, fresh: boolean, memo?: LinkMemo) {
    if (values.organizer !== undefined) {
      const ids = resolveOrganizers(values.organizer, ctx, memo);
      if (!fresh) clearOrganizers.run(id);
      ids.forEach((oid, i) => addOrganizer.run(id, oid, i));
    }
    for (const [field, taxonomy] of [['categories', 'category'], ['tags', 'tag']] as const) {
      if (values[field] === undefined) continue;
      const ids = terms.resolveRefs(taxonomy, values[field] as RefList, field, ctx, memo?.terms);
      if (fresh) terms.linkEventTerms(id, ids);
      else terms.setEventTerms(id, taxonomy, ids);
    }
  }

  return { resolveVenue, writeLinks };
}
