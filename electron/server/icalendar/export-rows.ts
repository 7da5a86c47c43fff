/**
 * The events of a database export, read for export.ts: the fields a VEVENT writes, made from
 * the rows of one query per batch. Building whole API records (serializeEvents) for this took 90%
 * of an export's time: every record's JSON-LD-ready dates, links, term objects and translations,
 * and each batch's venues and organizers serialised again.
 *
 * Each field is what the API record has (serialize/event.ts), made with the same helpers; a test
 * (export-rows.test.ts) checks that the file is the same as one written from API records. Venues,
 * organizers and terms are serialised once per export, when an event first names them: a
 * calendar has far fewer of them than events.
 */
import type { Image, Organizer, Recurrence, Venue } from '../../../shared/api/records';
import type { Store } from '../store';
import { parseExportRow, type EventExportBatch, type EventExportRow, type ExportRowLinks, type ReminderTuple } from '../store/event-export-row';
import type { StoredReminder } from '../store/reminders';
import type { LinkedKind } from '../store/linked-posts';
import type { Taxonomy } from '../store/terms';
import { renderContent } from '../serialize/content';
import { permalink, type UrlContext } from '../serialize/context';
import { linkedObjects } from '../serialize/linked-posts';
import { eventCost, eventFlags } from '../serialize/event';
import { veventsText, type IcsEvent } from './record-to-vevent';
import { BoundedMemo } from '../store/bounded-memo';
import { isHidden, OWN } from '../store/series-fields';

export type IcsRowEvent = IcsEvent & { ics_uid: string | null };

type TermName = { taxonomy: Taxonomy; name: string };

/**
 * What a batch of events links to and was not read before: venues and organizers as API records,
 * terms' names, images. `null`: linked to but gone. Plain data, so it can go to the export's thread.
 */
export interface LinkedData {
  venues: Array<[number, Venue | null]>;
  organizers: Array<[number, Organizer | null]>;
  terms: Array<[number, TermName | null]>;
  images: Array<[number, Image]>;
}

/** Reads what the export's events link to, each record once per export. */
export function createLinkLoader(store: Store, ctx: UrlContext) {
  const seen = { venue: new Set<number>(), organizer: new Set<number>(), term: new Set<number>(), image: new Set<number>() };
  // Events repeat the same few lists of ids ("3,7"): each list is read into ids once.
  const organizerListsSeen = new Set<string>();
  const termListsSeen = new Set<string>();
  const unseen = (set: Set<number>, ids: Array<number | null>) => {
    const out: number[] = [];
    for (const id of ids) {
      if (id === null || set.has(id)) continue;
      set.add(id);
      out.push(id);
    }
    return out;
  };
  const linked = <T extends Venue | Organizer>(kind: LinkedKind, ids: number[]): Array<[number, T | null]> => {
    const found = linkedObjects(kind, ids, ctx, store);
    return ids.map((id) => [id, (found.get(id) as T | undefined) ?? null]);
  };
  return {
    load(batch: ExportRowLinks[]): LinkedData {
      // A first event's own changes aside, its master VEVENT carries the series' values: read what those link to too.
      const rows = batch.flatMap((r) => (r.template === null ? [r] : [r, templateLinks(r, JSON.parse(r.template) as SeriesTemplate)]));
      const termIds = unseen(seen.term, newIds(rows.map((r) => r.term_ids), termListsSeen));
      const termRows = store.terms.byIds(termIds);
      const imageIds = unseen(seen.image, rows.map((r) => r.image_id));
      return {
        venues: linked<Venue>('venue', unseen(seen.venue, rows.map((r) => r.venue_id))),
        organizers: linked<Organizer>('organizer', unseen(seen.organizer, newIds(rows.map((r) => r.organizer_ids), organizerListsSeen))),
        terms: termIds.map((id) => {
          const row = termRows.get(id);
          return [id, row ? { taxonomy: row.taxonomy, name: row.name } : null];
        }),
        images: [...store.images.toApi(imageIds)],
      };
    },
  };
}

/**
 * Writes batches of the export's rows as VEVENT text, with the linked data given so far. It reads
 * nothing itself: the server's thread and the export's thread (export-worker.ts) each have one
 * and write the same text for the same batch.
 */
export function createBatchWriter(ctx: UrlContext, uidHost: string) {
  const maker = createIcsEventMaker(ctx);
  const opts = { uidHost, uidOf: (e: IcsRowEvent) => e.ics_uid };
  return {
    add: (linked: LinkedData) => maker.add(linked),
    write: (batch: EventExportBatch) => veventsText(batch.texts.map((text, i) => maker.make(parseExportRow(text, batch.links[i]))), opts),
  };
}

/** Makes the export's events from their rows and the linked data loaded so far. */
function createIcsEventMaker(ctx: UrlContext) {
  const venues = new Map<number, Venue | null>();
  const organizers = new Map<number, Organizer | null>();
  const terms = new Map<number, TermName | null>();
  const images = new Map<number, Image>();
  const termLists = new BoundedMemo<{ categories: Array<{ name: string }>; tags: Array<{ name: string }> }>(10_000);
  const termsOf = (ids: string) =>
    termLists.get(ids, () => {
      const lists: { categories: Array<{ name: string }>; tags: Array<{ name: string }> } = { categories: [], tags: [] };
      for (const id of idList(ids)) {
        const term = terms.get(id);
        if (term) (term.taxonomy === 'category' ? lists.categories : lists.tags).push(term);
      }
      return lists;
    });
  const organizerLists = new BoundedMemo<Organizer[]>(10_000);
  const organizersOf = (ids: string) => organizerLists.get(ids, () => idList(ids).map((id) => organizers.get(id)).filter((o): o is Organizer => !!o));
  // Costs repeat across a calendar ("$10", "Free"), and describing one parses every value.
  const costs = new BoundedMemo<Pick<IcsEvent, 'cost' | 'cost_details'>>(10_000);
  const costOf = (stored: string) => costs.get(stored, () => eventCost(stored, ctx.settings));
  return {
    add(data: LinkedData): void {
      for (const [id, v] of data.venues) venues.set(id, v);
      for (const [id, o] of data.organizers) organizers.set(id, o);
      for (const [id, t] of data.terms) terms.set(id, t);
      for (const [id, i] of data.images) images.set(id, i);
    },
    make(e: EventExportRow): IcsRowEvent {
      const event = this.makeOne(e);
      if (e.template === null || !event.series_start) return event;
      // The master VEVENT is the series: the values of the fields this first event changed on its own
      // are the series', kept in its template; the first event itself goes out as an override.
      const t = JSON.parse(e.template) as SeriesTemplate;
      const links = templateLinks(e, t);
      const ownTaxonomies = new Set([t.categories && 'category', t.tags && 'tag']);
      const keptTerms = e.term_ids === null ? [] : idList(e.term_ids).filter((id) => !ownTaxonomies.has(terms.get(id)?.taxonomy));
      const series = this.makeOne({ ...e, ...(t.cols as Partial<EventExportRow>), ...links, term_ids: [...keptTerms, ...(links.term_ids === null ? [] : idList(links.term_ids))].join(',') || null, template: null });
      const { id: _id, slug: _slug, url: _url, status: _status, date_utc: _date, modified_utc: _modified, start_date: _s, end_date: _e, utc_start_date: _us, utc_end_date: _ue, ...values } = series;
      return { ...event, series_values: values, is_exception: true };
    },
    makeOne(e: EventExportRow): IcsRowEvent {
      const url = permalink(ctx, 'event', e.slug);
      const { categories, tags } = e.term_ids === null ? NO_TERMS : termsOf(e.term_ids);
      return {
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
        reminders: remindersOf(e.reminders, inheritsReminders(e)),
        ...(e.series_reminders.length ? { series_reminders: remindersOf(e.series_reminders, false) } : {}),
        ...seriesFields(e),
        ...(e.series ? { series_values: seriesValues(e.series[3], e, url) } : {}),
      };
    },
  };
}

const NO_TERMS = { categories: [], tags: [] };

/** The series' values of the groups a first event changed on its own (store/series-values.ts keeps them). */
interface SeriesTemplate {
  cols?: Record<string, unknown>;
  organizers?: number[];
  categories?: number[];
  tags?: number[];
}

/** A first event's links with the template's in place of its own. */
function templateLinks(r: ExportRowLinks, t: SeriesTemplate): ExportRowLinks {
  const cols = t.cols ?? {};
  return {
    venue_id: 'venue_id' in cols ? (cols.venue_id as number | null) : r.venue_id,
    image_id: 'image_id' in cols ? (cols.image_id as number | null) : r.image_id,
    organizer_ids: t.organizers ? t.organizers.join(',') || null : r.organizer_ids,
    term_ids: t.categories || t.tags ? [...(t.categories ?? []), ...(t.tags ?? [])].join(',') || null : null,
    template: null,
  };
}

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

/** What tells the export an event belongs to a series (record-to-vevent.ts writes series whole). */
function seriesFields(e: EventExportRow): Partial<IcsRowEvent> {
  if (e.recurrence_id === null) return {};
  const base = { recurrence_id: e.recurrence_id, is_exception: e.own_fields !== 0, series_id: e.parent_id ?? e.id, series_uid: e.series_uid };
  if (e.parent_id !== null) return { ...base, recurrence: NOT_A_MASTER };
  if (e.series === null) return {};
  const [recurrence, start, durationS] = e.series;
  const end = new Date(Date.parse(`${start.replace(' ', 'T')}Z`) + durationS * 1000).toISOString().slice(0, 19).replace('T', ' ');
  // A first event in the trash on its own (its date is excluded) still carries the series.
  const status = e.status === 'trash' || isHidden(e.status) ? (e.status_before_trash ?? 'publish') : e.status;
  return { ...base, status, recurrence: JSON.parse(recurrence) as Recurrence, series_start: start, series_end: end, is_exception: base.is_exception || start !== e.start_local };
}

/**
 * The series' values of the plain fields its first event changed on its own (store/series-values.ts
 * keeps them): the master VEVENT carries those, the first occurrence its own. Links (venue,
 * organizers, terms) changed on the first event alone are written as the first event has them.
 */
function seriesValues(template: string, e: EventExportRow, url: string): Partial<IcsRowEvent> | undefined {
  const cols = (JSON.parse(template) as { cols?: Record<string, unknown> }).cols;
  if (!cols) return undefined;
  const out: Partial<IcsRowEvent> = {};
  if (typeof cols.title === 'string') out.title = cols.title;
  if (typeof cols.content === 'string') out.description = renderContent(cols.content);
  if (typeof cols.excerpt === 'string') out.excerpt = renderContent(cols.excerpt);
  if (typeof cols.status === 'string') out.status = cols.status;
  if ('website' in cols || 'featured' in cols) Object.assign(out, eventFlags({ ...e, ...cols } as EventExportRow, url));
  return out;
}

/** Occurrences only need to know they are in a series; the rule is on their first event. */
const NOT_A_MASTER: Recurrence = { rules: [], rdates: [], exdates: [] };

const inheritsReminders = (e: EventExportRow) => e.parent_id !== null && e.recurrence_id !== null && !(e.own_fields & OWN.reminders);

/** Reminders from their export tuples; an inherited absolute one stays on the first event (store/reminders.ts). */
function remindersOf(tuples: ReminderTuple[], inherited: boolean): StoredReminder[] {
  const out: StoredReminder[] = [];
  for (const [action, trigger, related, at, repeat, every, description, summary, attendees, ical] of tuples) {
    if (inherited && at !== null) continue;
    const r: StoredReminder = { action: action as StoredReminder['action'] };
    if (trigger !== null) {
      r.trigger = trigger;
      if (related === 'end') r.related = 'end';
    } else r.at = `${at!.replace(' ', 'T')}Z`;
    if (repeat > 0) {
      r.repeat = repeat;
      r.repeat_every = every!;
    }
    if (description !== null) r.description = description;
    if (summary !== null) r.summary = summary;
    if (attendees !== null) r.attendees = JSON.parse(attendees) as string[];
    if (ical !== null) r.ical = ical;
    out.push(r);
  }
  return out;
}
