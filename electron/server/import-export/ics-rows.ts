/**
 * The events of a database export, read for ics-export.ts: the fields a VEVENT writes, made from
 * the rows of one query per batch. Building whole API records (serializeEvents) for this took 90%
 * of an export's time: every record's JSON-LD-ready dates, links, term objects and translations,
 * and each batch's venues and organizers serialised again.
 *
 * Each field is what the API record has (serialize/event.ts), made with the same helpers; a test
 * (ics-rows.test.ts) checks that the file is the same as one written from API records. Venues,
 * organizers and terms are serialised once per export, when an event first names them: a
 * calendar has far fewer of them than events.
 */
import type { Organizer, Venue } from '../../../shared/api/records';
import type { Store } from '../store';
import type { EventExportRow, EventListQuery } from '../store/events';
import type { LinkedKind, LinkedRow } from '../store/linked-posts';
import type { Taxonomy } from '../store/terms';
import { renderContent } from '../serialize/content';
import { permalink, type UrlContext } from '../serialize/context';
import { serializeLinked } from '../serialize/linked-posts';
import { eventCost, eventFlags } from '../serialize/event';
import type { IcsEvent } from './ics-export';
import { BoundedMemo } from '../store/bounded-memo';

export type IcsRowEvent = IcsEvent & { ics_uid: string | null };

export function* icsEvents(store: Store, q: EventListQuery, ctx: UrlContext, batchSize?: number): Generator<IcsRowEvent> {
  const venues = linkedCache<Venue>(store, 'venue', ctx);
  const organizers = linkedCache<Organizer>(store, 'organizer', ctx);
  // Terms an event names, read once per export: a calendar has far fewer of them than events.
  const terms = new Map<number, { taxonomy: Taxonomy; name: string } | undefined>();
  const loadTerms = (ids: number[]) => {
    const missing = [...new Set(ids.filter((id) => !terms.has(id)))];
    const rows = store.terms.byIds(missing);
    for (const id of missing) {
      const row = rows.get(id);
      terms.set(id, row && { taxonomy: row.taxonomy, name: row.name });
    }
  };
  const termLists = new BoundedMemo<{ categories: Array<{ name: string }>; tags: Array<{ name: string }> }>(10_000);
  const termsOf = (ids: string) => termLists.get(ids, () => {
    const lists: { categories: Array<{ name: string }>; tags: Array<{ name: string }> } = { categories: [], tags: [] };
    for (const id of idList(ids)) {
      const term = terms.get(id);
      if (term) (term.taxonomy === 'category' ? lists.categories : lists.tags).push(term);
    }
    return lists;
  });
  const organizerLists = new BoundedMemo<Organizer[]>(10_000);
  const organizersOf = (ids: string) => organizerLists.get(ids, () => organizers.list(idList(ids)));
  // Costs repeat across a calendar ("$10", "Free"), and describing one parses every value.
  const costs = new BoundedMemo<Pick<IcsEvent, 'cost' | 'cost_details'>>(10_000);
  const costOf = (stored: string) => costs.get(stored, () => eventCost(stored, ctx.settings));

  // Events repeat the same few lists of ids ("3,7"): each list is read into ids once.
  const organizerListsSeen = new Set<string>();
  const termListsSeen = new Set<string>();

  for (const rows of store.events.exportBatches(q, batchSize)) {
    venues.load(rows.map((r) => r.venue_id));
    organizers.load(newIds(rows.map((r) => r.organizer_ids), organizerListsSeen));
    loadTerms(newIds(rows.map((r) => r.term_ids), termListsSeen));
    const images = store.images.toApi(rows.map((r) => r.image_id));
    for (const e of rows) {
      const url = permalink(ctx, 'event', e.slug);
      const { categories, tags } = e.term_ids === null ? NO_TERMS : termsOf(e.term_ids);
      yield {
        id: e.id,
        status: e.status,
        date_utc: e.date_utc,
        modified_utc: e.modified_utc,
        url,
        title: e.title,
        description: renderContent(e.content),
        excerpt: renderContent(e.excerpt),
        slug: e.slug,
        image: (e.image_id !== null && images.get(e.image_id)) || false,
        all_day: !!e.all_day,
        start_date: e.start_local,
        end_date: e.end_local,
        utc_start_date: e.start_utc,
        utc_end_date: e.end_utc,
        timezone: e.timezone,
        ...costOf(e.cost),
        ...eventFlags(e, url),
        categories,
        tags,
        venue: (e.venue_id !== null && venues.get(e.venue_id)) || [],
        organizer: e.organizer_ids === null ? [] : organizersOf(e.organizer_ids),
        i18n_language: e.lang,
        ics_uid: e.ics_uid,
      };
    }
  }
}

const NO_TERMS = { categories: [], tags: [] };

function idList(csv: string): number[] {
  return csv.split(',').map(Number);
}

/** The ids of the lists not seen before (and now seen). */
function newIds(lists: Array<string | null>, seen: Set<string>): number[] {
  const ids: number[] = [];
  for (const csv of lists) {
    if (csv === null || seen.has(csv)) continue;
    seen.add(csv);
    ids.push(...idList(csv));
  }
  return ids;
}

/** Venues or organizers as API records, each serialised the first time an event names it. */
function linkedCache<T>(store: Store, kind: LinkedKind, ctx: UrlContext) {
  const records = new Map<number, T | undefined>();
  const table = kind === 'venue' ? store.venues : store.organizers;
  return {
    load(ids: Array<number | null>) {
      const missing = [...new Set(ids.filter((id): id is number => id !== null && !records.has(id)))];
      if (missing.length === 0) return;
      const rows = [...table.byIds(missing).values()] as LinkedRow[];
      const made = serializeLinked(kind, rows, ctx, store) as T[];
      rows.forEach((row, i) => records.set(row.id, made[i]));
      // Linked to but gone: remembered too, so it is not looked for again.
      for (const id of missing) if (!records.has(id)) records.set(id, undefined);
    },
    get: (id: number) => records.get(id),
    list: (ids: number[]) => ids.map((id) => records.get(id)).filter((r): r is T => r !== undefined),
  };
}
