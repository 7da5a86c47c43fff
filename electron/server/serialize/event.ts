/**
 * Events as the original returns them (reference §7.1). Lists serialise a page at once, loading
 * the venues, organizers and terms of all its events in one query each.
 */
import { DateTime } from 'luxon';
import type { Event, Recurrence } from '../../../shared/api/records';
import { describeCost } from '../../../shared/cost';
import { dateDetails } from '../../../shared/dates/format';
import { timezoneAbbr, zoneFor } from '../../../shared/dates/zones';
import type { EventRow } from '../store/events';
import type { Settings } from '../store/settings';
import type { VenueRow, OrganizerRow } from '../store/linked-posts';
import type { Store } from '../store';
import { isHidden } from '../store/series-fields';
import { isVirtualId } from '../store/series-virtual';
import { renderContent, plainText } from './content';
import { permalink, globalId, type UrlContext } from './context';
import { linkedObjects, venueJsonLd, organizerJsonLd } from './linked-posts';
import { embedTerm } from './terms';
import { loadLookups } from './lookups';
import { cachedJson, writtenRecord } from './json-cache';
import { LOCAL_CALENDAR_ID } from '../../../shared/schema/accounts';

/** `cost` and `cost_details` of a stored cost list, in the site's currency. */
export function eventCost(stored: string, s: Settings): Pick<Event, 'cost' | 'cost_details'> {
  return describeCost(JSON.parse(stored) as string[], { symbol: s.currency_symbol, position: s.currency_position, code: s.currency_code });
}

/** The website (the event's own page when it has none) and the yes/no fields, from their columns. */
export function eventFlags(e: Pick<EventRow, 'website' | 'show_map' | 'show_map_link' | 'hide_from_listings' | 'sticky' | 'featured'>, url: string) {
  return {
    website: e.website ?? url,
    show_map: !!e.show_map,
    show_map_link: !!e.show_map_link,
    hide_from_listings: !!e.hide_from_listings,
    sticky: !!e.sticky,
    featured: !!e.featured,
  };
}

function isoWithOffset(utc: string, zone: string): string {
  return DateTime.fromSQL(utc, { zone: 'UTC' }).setZone(zoneFor(zone)).toISO({ suppressMilliseconds: true }) ?? '';
}

function jsonLd(e: EventRow, out: Event, venue: VenueRow | undefined, organizers: OrganizerRow[], ctx: UrlContext) {
  const ld: Record<string, unknown> = {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: e.title,
    description: plainText(out.description),
    url: out.url,
    eventStatus: 'https://schema.org/EventScheduled',
    startDate: isoWithOffset(e.start_utc, e.timezone),
    endDate: isoWithOffset(e.end_utc, e.timezone),
  };
  if (out.image) ld.image = out.image.url;
  if (venue) ld.location = venueJsonLd(venue, ctx);
  if (organizers.length) ld.organizer = organizers.map((o) => organizerJsonLd(o, ctx));
  if (out.cost_details.values.length) {
    ld.offers = {
      '@type': 'Offer',
      price: out.cost_details.values[0],
      priceCurrency: out.cost_details.currency_code || ctx.settings.currency_code,
      url: out.url,
    };
  }
  return ld;
}

export function serializeEvents(rows: EventRow[], ctx: UrlContext, store: Store, opts: { jsonLd?: boolean } = {}): Event[] {
  // An occurrence without a row (series-virtual.ts) has its series' first event's links.
  const linkId = (r: EventRow) => (isVirtualId(r.id) ? r.parent_id! : r.id);
  const ids = [...new Set(rows.map(linkId))];
  const venueIds = [...new Set(rows.map((r) => r.venue_id).filter((v): v is number => v !== null))];
  const organizerIds = store.events.organizersFor(ids);
  const allOrganizerIds = [...new Set([...organizerIds.values()].flat())];
  // An event's venue and organizers are often shared by other events on the page, and their JSON
  // outlives writes to events.
  const venueJson = linkedObjects('venue', venueIds, ctx, store);
  const organizerJson = linkedObjects('organizer', allOrganizerIds, ctx, store);
  // Rows only for `json_ld`, which is made from them.
  const venues = opts.jsonLd ? (store.venues.byIds(venueIds) as Map<number, VenueRow>) : undefined;
  const organizers = opts.jsonLd ? (store.organizers.byIds(allOrganizerIds) as Map<number, OrganizerRow>) : undefined;
  const terms = store.terms.forEvents(ids);
  const look = loadLookups(store, { event: rows });
  const series = seriesOfRows(rows, store);
  // A website's occurrences its site generates are read-only (sites/records.ts); only site calendars' rows are asked.
  const siteRows = rows.filter((r) => r.calendar_id !== LOCAL_CALENDAR_ID && !isVirtualId(r.id)).map((r) => r.id);
  const readOnly = siteRows.length ? store.sites.readOnlyEvents(siteRows) : undefined;

  return rows.map((e) => {
    const url = permalink(ctx, 'event', e.slug);
    const eventOrganizers = (organizerIds.get(linkId(e)) ?? []).filter((id) => organizerJson.has(id));
    const eventTerms = terms.get(linkId(e)) ?? [];
    const out: Event = {
      id: e.id,
      global_id: globalId(ctx, e.id),
      global_id_lineage: [globalId(ctx, e.id)],
      author: String(e.author),
      // A hidden first event (its date excluded) answers a write to its series with the series' status.
      status: isHidden(e.status) ? (e.status_before_trash ?? 'publish') : e.status,
      date: e.date_local,
      date_utc: e.date_utc,
      modified: e.modified_local,
      modified_utc: e.modified_utc,
      url,
      rest_url: `${ctx.apiRoot}events/${e.id}`,
      title: e.title,
      description: renderContent(e.content),
      excerpt: renderContent(e.excerpt),
      slug: e.slug,
      image: look.image(e.image_id),
      all_day: !!e.all_day,
      start_date: e.start_local,
      start_date_details: dateDetails(e.start_local),
      end_date: e.end_local,
      end_date_details: dateDetails(e.end_local),
      utc_start_date: e.start_utc,
      utc_start_date_details: dateDetails(e.start_utc),
      utc_end_date: e.end_utc,
      utc_end_date_details: dateDetails(e.end_utc),
      timezone: e.timezone,
      timezone_abbr: timezoneAbbr(e.timezone, e.start_utc),
      ...eventCost(e.cost, ctx.settings),
      ...eventFlags(e, url),
      categories: eventTerms.filter((t) => t.taxonomy === 'category').map((t) => embedTerm(t, ctx)),
      tags: eventTerms.filter((t) => t.taxonomy === 'tag').map((t) => embedTerm(t, ctx)),
      venue: ((e.venue_id !== null && venueJson.get(e.venue_id)) || []) as Event['venue'],
      organizer: eventOrganizers.map((id) => organizerJson.get(id)!) as Event['organizer'],
      custom_fields: [],
      i18n_language: e.lang,
      translations: look.translations('event', e),
      recurrence: null,
      series_id: null,
      recurrence_id: null,
      is_exception: false,
      reminders: reminders(e, store),
      calendar: e.calendar_id,
    };
    const s = e.recurrence_id === null ? undefined : series.get(e.parent_id ?? e.id);
    if (s) {
      out.recurrence = s;
      out.series_id = e.parent_id ?? e.id;
      out.recurrence_id = e.recurrence_id;
      out.is_exception = e.own_fields !== 0;
    }
    const ro = readOnly?.get(e.id);
    if (ro) out.read_only = ro;
    if (opts.jsonLd) {
      const venue = e.venue_id !== null ? venues!.get(e.venue_id) : undefined;
      // Rows read after the linked cache was: one deleted meanwhile (by another process) is left out.
      out.json_ld = jsonLd(e, out, venue, eventOrganizers.map((id) => organizers!.get(id)).filter((o): o is OrganizerRow => !!o), ctx);
    }
    return out;
  });
}

/** An event's reminders as the API shows them (what an import kept of the VALARM stays inside). */
function reminders(e: EventRow, store: Store): Event['reminders'] {
  return store.reminders.of(e).map(({ ical: _ical, ...r }) => r);
}

/** The recurrences of the series a page's events belong to, by series id. */
function seriesOfRows(rows: EventRow[], store: Store): Map<number, Recurrence> {
  const ids = [...new Set(rows.filter((r) => r.recurrence_id !== null).map((r) => r.parent_id ?? r.id))];
  const out = new Map<number, Recurrence>();
  for (const id of ids) {
    const s = store.series.get(id);
    if (s) out.set(id, store.series.recurrenceOf(s));
  }
  return out;
}

export function serializeEvent(row: EventRow, ctx: UrlContext, store: Store, opts: { jsonLd?: boolean } = {}): Event {
  return serializeEvents([row], ctx, store, opts)[0];
}

/**
 * A written event's answer (no `json_ld`, as the original answers writes), from the serialisation
 * that also fills the JSON a read of it answers: the write's ETag and the read that follows take
 * that entry, and the event is not serialised a second time for them.
 */
export function writtenEvent(row: EventRow, ctx: UrlContext, store: Store): Event {
  return writtenRecord(store.recordJson.current(), 'event+ld', ctx, row.id, () => serializeEvent(row, ctx, store, { jsonLd: true }), () => serializeEvent(row, ctx, store));
}

/** Events' JSON (UTF-8) by id for reads and lists, in the order given, from the JSON cache where possible. */
export function eventsJson(ids: number[], ctx: UrlContext, store: Store, opts: { jsonLd?: boolean } = {}): Buffer[] {
  return cachedJson(store.recordJson.current(), opts.jsonLd ? 'event+ld' : 'event', ctx, ids, (missing) => {
    const rows = store.events.byIds(missing);
    return serializeEvents(missing.map((id) => rows.get(id)!), ctx, store, opts);
  });
}
