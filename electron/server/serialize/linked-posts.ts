/**
 * Venues and organizers as the original returns them (reference §7.2, §7.3): every falsy value is
 * left out, then the keys that are always there are appended.
 */
import type { Venue, Organizer } from '../../../shared/api/records';
import type { LinkedRow, VenueRow, OrganizerRow, LinkedKind } from '../store/linked-posts';
import type { Store } from '../store';
import { loadLookups, type Lookups } from './lookups';
import { cachedJson, cachedRecords, writtenRecord } from './json-cache';
import { renderContent, plainText } from './content';
import { permalink, globalId, type UrlContext } from './context';

function dropFalsy(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v === '' || v === false || v === null || v === undefined || v === 0 || v === '0') continue;
    out[k] = v;
  }
  return out;
}

function header(row: LinkedRow, kind: LinkedKind, ctx: UrlContext, look: Lookups) {
  return {
    id: row.id,
    author: String(row.author),
    status: row.status,
    date: row.date_local,
    date_utc: row.date_utc,
    modified: row.modified_local,
    modified_utc: row.modified_utc,
    url: permalink(ctx, kind, row.slug),
    [kind]: row.title,
    description: renderContent(row.content),
    excerpt: renderContent(row.excerpt),
    slug: row.slug,
    image: look.image(row.image_id),
  };
}

export function venueJsonLd(v: VenueRow, ctx: UrlContext) {
  const ld: Record<string, unknown> = {
    '@context': 'http://schema.org',
    '@type': 'Place',
    name: v.title,
    description: plainText(renderContent(v.content)),
    url: permalink(ctx, 'venue', v.slug),
    address: dropFalsy({
      '@type': 'PostalAddress',
      streetAddress: v.address,
      addressLocality: v.city,
      addressRegion: v.stateprovince || v.state || v.province,
      postalCode: v.zip,
      addressCountry: v.country,
    }),
    telephone: v.phone,
    sameAs: v.website,
  };
  if (v.geo_lat !== null && v.geo_lng !== null) ld.geo = { '@type': 'GeoCoordinates', latitude: v.geo_lat, longitude: v.geo_lng };
  return dropFalsy(ld);
}

export function organizerJsonLd(o: OrganizerRow, ctx: UrlContext) {
  return dropFalsy({
    '@context': 'http://schema.org',
    '@type': 'Person',
    name: o.title,
    description: plainText(renderContent(o.content)),
    url: permalink(ctx, 'organizer', o.slug),
    telephone: o.phone,
    email: o.email,
    sameAs: o.website,
  });
}

export function serializeVenue(v: VenueRow, ctx: UrlContext, look: Lookups, opts: { jsonLd?: boolean } = {}): Venue {
  const base: Record<string, unknown> = {
    ...header(v, 'venue', ctx, look),
    address: v.address,
    city: v.city,
    country: v.country,
    province: v.province,
    state: v.state,
    zip: v.zip,
    phone: v.phone,
    website: v.website,
    stateprovince: v.stateprovince,
  };
  const out = dropFalsy(base);
  // Coordinates are Almanac's own keys; 0 is a real latitude, so they are kept whenever set.
  if (v.geo_lat !== null && v.geo_lng !== null) {
    out.geo_lat = v.geo_lat;
    out.geo_lng = v.geo_lng;
  }
  if (opts.jsonLd) out.json_ld = venueJsonLd(v, ctx);
  return {
    ...out,
    show_map: !!v.show_map,
    show_map_link: !!v.show_map_link,
    global_id: globalId(ctx, v.id),
    global_id_lineage: [globalId(ctx, v.id)],
    i18n_language: v.lang,
    translations: look.translations('venue', v),
  } as Venue;
}

export function serializeOrganizer(o: OrganizerRow, ctx: UrlContext, look: Lookups, opts: { jsonLd?: boolean } = {}): Organizer {
  const out = dropFalsy({ ...header(o, 'organizer', ctx, look), phone: o.phone, website: o.website, email: o.email });
  if (opts.jsonLd) out.json_ld = organizerJsonLd(o, ctx);
  return {
    ...out,
    global_id: globalId(ctx, o.id),
    global_id_lineage: [globalId(ctx, o.id)],
    i18n_language: o.lang,
    translations: look.translations('organizer', o),
  } as Organizer;
}

/** Venues or organizers, with their images and translations loaded at once. */
export function serializeLinked(kind: LinkedKind, rows: LinkedRow[], ctx: UrlContext, store: Store, opts: { jsonLd?: boolean } = {}) {
  const look = loadLookups(store, { [kind]: rows });
  return rows.map((row) =>
    kind === 'venue' ? serializeVenue(row as VenueRow, ctx, look, opts) : serializeOrganizer(row as OrganizerRow, ctx, look, opts),
  );
}

/**
 * Venues or organizers by id as the API shows them (without `json_ld`), for lists and for the
 * events that embed them: from the linked-records cache, which writes to events leave valid.
 */
export function linkedObjects(kind: LinkedKind, ids: number[], ctx: UrlContext, store: Store): Map<number, Venue | Organizer> {
  return cachedRecords(store.linkedObjects.current(), kind, ctx, ids, (missing) => {
    const rows = [...(kind === 'venue' ? store.venues : store.organizers).byIds(missing).values()];
    const made = serializeLinked(kind, rows, ctx, store);
    return new Map(rows.map((row, i) => [row.id, made[i]]));
  });
}

/** A written venue's or organizer's answer (no `json_ld`), as writtenEvent makes an event's. */
export function writtenLinked(kind: LinkedKind, row: LinkedRow, ctx: UrlContext, store: Store): Venue | Organizer {
  return writtenRecord<Venue | Organizer>(store.linkedJson.current(), `${kind}+ld`, ctx, row.id, () => serializeLinked(kind, [row], ctx, store, { jsonLd: true })[0], () => serializeLinked(kind, [row], ctx, store)[0]);
}

/**
 * The same as JSON (UTF-8), for reads and lists, from the JSON cache where possible: rows are read
 * only for the records not cached.
 */
export function linkedJson(kind: LinkedKind, ids: number[], ctx: UrlContext, store: Store, opts: { jsonLd?: boolean } = {}): Buffer[] {
  return cachedJson(store.linkedJson.current(), opts.jsonLd ? `${kind}+ld` : kind, ctx, ids, (missing) => {
    if (!opts.jsonLd) {
      const objects = linkedObjects(kind, missing, ctx, store);
      return missing.map((id) => objects.get(id)!);
    }
    const rows = (kind === 'venue' ? store.venues : store.organizers).byIds(missing);
    return serializeLinked(kind, missing.map((id) => rows.get(id)!), ctx, store, opts);
  });
}
