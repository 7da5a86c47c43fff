/**
 * A site's records as the sync compares, merges and sends them: one flat, normalized form per
 * kind (the "record" of the sync core), built by the same code from the site's JSON and from the
 * local record's JSON (Almanac serves its own records in the same REST shape). Text is what the
 * user sees (entities decoded, the site's `<p>`/`<br />` rendering undone), so a pull never looks
 * like a change; links are the site's ids, or `local:N` for a local record the site has not got yet.
 */
import { createHash } from 'node:crypto';
import { canonical } from '../sync/merge';
import { decodeEntities } from '../../../shared/content';
import type { SiteKind } from '../store/sites';

export type Ref = number | string;
/** The site's id (or a `local:N` token) of a linked record, from the id the JSON names. */
export type RefOf = (kind: Exclude<SiteKind, 'event'>, id: number) => Ref;
export const identity: RefOf = (_kind, id) => id;

export interface SiteEvent {
  title: string;
  description: string;
  excerpt: string;
  status: string;
  date: string | null;
  start_date: string;
  end_date: string;
  all_day: boolean;
  timezone: string;
  cost: string[];
  website: string;
  featured: boolean;
  sticky: boolean;
  show_map: boolean;
  show_map_link: boolean;
  hide_from_listings: boolean;
  venue: Ref | null;
  organizer: Ref[];
  categories: Ref[];
  tags: Ref[];
  /** How it repeats, where the site takes a series as a series (an Almanac); absent otherwise. */
  recurrence?: unknown;
}

export type SiteRecord = Record<string, unknown>;

/**
 * Rendered content as the text a person typed to get it: paragraphs wrapped in `<p>` with single
 * breaks as `<br />` (WordPress's wpautop, Almanac's renderContent) back to blank lines and line
 * breaks; other HTML kept.
 */
export function visibleText(html: unknown): string {
  if (typeof html !== 'string') return '';
  let t = html.replace(/\r\n?/g, '\n').trim();
  const blocks = t.split(/\n*(?=<p>)|(?<=<\/p>)\n*/).filter((b) => b.trim() !== '');
  if (blocks.length && blocks.every((b) => /^<p>[\s\S]*<\/p>$/.test(b) && !/<p>/.test(b.slice(3)))) {
    t = blocks.map((b) => b.slice(3, -4).replace(/<br\s*\/?>\n?/g, '\n')).join('\n\n');
  }
  return decodeEntities(t).trim();
}

const str = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const idOf = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : (v as { id?: unknown } | null)?.id !== undefined ? Number((v as { id: unknown }).id) : NaN;
  return Number.isInteger(n) && n > 0 ? n : undefined;
};
const refList = (v: unknown, kind: Exclude<SiteKind, 'event'>, ref: RefOf): Ref[] =>
  (Array.isArray(v) ? v : [])
    .map(idOf)
    .filter((n): n is number => n !== undefined)
    .map((n) => ref(kind, n))
    .sort(byRef);

/** Site ids in order, then `local:N` tokens in order (no collator: this runs for every record of a pull). */
function byRef(a: Ref, b: Ref): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return Number(a.slice(6)) - Number(b.slice(6));
}

/** The cost's values with their currency symbol in place ("$20", "20€"); the display string when there are none. */
function costValues(json: Record<string, unknown>): string[] {
  const d = json.cost_details as { values?: unknown; currency_symbol?: unknown; currency_position?: unknown } | undefined;
  const values = Array.isArray(d?.values) ? d!.values.map(str).filter(Boolean) : [];
  if (values.length) {
    const symbol = str(d?.currency_symbol);
    return values.map((v) => (!symbol || v.includes(symbol) ? v : d?.currency_position === 'postfix' ? `${v}${symbol}` : `${symbol}${v}`));
  }
  const display = decodeEntities(str(json.cost)).trim();
  return display ? [display] : [];
}

export function normEvent(json: Record<string, unknown>, ref: RefOf, opts: { series?: boolean } = {}): SiteEvent {
  const website = str(json.website);
  const venueId = idOf(json.venue);
  const out: SiteEvent = {
    title: decodeEntities(str(json.title)),
    description: visibleText(json.description),
    excerpt: visibleText(json.excerpt),
    status: str(json.status) || 'publish',
    date: typeof json.date === 'string' ? json.date : null,
    start_date: str(json.start_date),
    end_date: str(json.end_date),
    all_day: !!json.all_day,
    timezone: str(json.timezone),
    cost: costValues(json),
    // Almanac gives the event's own page when it has no website: not a website of its own.
    website: website && website !== json.url ? website : '',
    featured: !!json.featured,
    sticky: !!json.sticky,
    show_map: !!json.show_map,
    show_map_link: !!json.show_map_link,
    hide_from_listings: !!json.hide_from_listings,
    venue: venueId === undefined ? null : ref('venue', venueId),
    organizer: refList(json.organizer, 'organizer', ref),
    categories: refList(json.categories, 'category', ref),
    tags: refList(json.tags, 'tag', ref),
  };
  if (opts.series && 'series_id' in json) out.recurrence = json.recurrence ?? null;
  return out;
}

/**
 * The id base of Events Calendar Pro's provisional ids (TEC's custom tables, 6.0+): an occurrence
 * of a repeating event is listed with `base + occurrence_id`, not a post id. The base is the option
 * `tec_custom_tables_v1_provisional_post_base_provisional_id`, 10,000,000 unless a site moved it
 * (TEC's Provisional_Post / ID_Generator, and its WPML integration's filter of the same name).
 */
const TEC_PROVISIONAL_ID_BASE = 10_000_000;

/**
 * Whether the site's event is an occurrence its Events Calendar Pro generates from a Series, which
 * must never be written as a single event (a PUT or DELETE of a provisional id would reach the
 * Series or another post): read-only here, with the Series named when the JSON names it.
 *
 * Told from the JSON alone, by any of: a `post_parent` naming another post (the Series, as the
 * knowledge base says occurrences carry it; Pro before 6.0 made occurrences child posts of the
 * first event, the same rule); a Pro flag `is_recurring`/`recurring` set true; or an id at or past
 * the provisional base. UNVERIFIED without a real Pro site: which of these a given Pro version's
 * REST v1 answer carries was read from docs and code (site-sync.md §3), never observed; a site
 * with its base moved below its post ids and none of the other keys would be missed. An Almanac
 * site sends its series as series (series_id, recurrence), never so: never asked of one.
 */
export function siteOccurrence(json: Record<string, unknown>): { reason: 'site_occurrence'; series: number | null } | null {
  const id = idOf(json.id);
  const parent = idOf(json.post_parent);
  const flagged = json.is_recurring === true || json.recurring === true;
  if ((parent !== undefined && parent !== id) || flagged || (id !== undefined && id >= TEC_PROVISIONAL_ID_BASE)) {
    return { reason: 'site_occurrence', series: parent !== undefined && parent !== id ? parent : null };
  }
  return null;
}

const VENUE_TEXT = ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website'] as const;

function normVenue(json: Record<string, unknown>): SiteRecord {
  const out: SiteRecord = { venue: decodeEntities(str(json.venue)), description: visibleText(json.description) };
  for (const k of VENUE_TEXT) out[k] = decodeEntities(str(json[k]));
  out.show_map = !!json.show_map;
  out.show_map_link = !!json.show_map_link;
  return out;
}

function normOrganizer(json: Record<string, unknown>): SiteRecord {
  return {
    organizer: decodeEntities(str(json.organizer)),
    description: visibleText(json.description),
    phone: decodeEntities(str(json.phone)),
    website: str(json.website),
    email: str(json.email),
  };
}

export function normTerm(kind: 'category' | 'tag', json: Record<string, unknown>, ref: RefOf): SiteRecord {
  const out: SiteRecord = { name: decodeEntities(str(json.name)), slug: str(json.slug), description: decodeEntities(str(json.description)) };
  if (kind === 'category') {
    const parent = idOf(json.parent);
    out.parent = parent === undefined ? null : ref('category', parent);
  }
  return out;
}

export function normRecord(kind: SiteKind, json: Record<string, unknown>, ref: RefOf, opts: { series?: boolean } = {}): SiteRecord {
  switch (kind) {
    case 'event':
      return normEvent(json, ref, opts) as unknown as SiteRecord;
    case 'venue':
      return normVenue(json);
    case 'organizer':
      return normOrganizer(json);
    default:
      return normTerm(kind, json, ref);
  }
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

/** The hash a later pull compares: the API has no modified-since filter. */
export const recordHash = (r: SiteRecord | SiteEvent) => hashOf(canonical(r));

/**
 * What a sync object keeps of the copy both sides agree on: the record's canonical JSON and its
 * hash, the text made once for both (a first pull keeps thousands).
 */
export function baseOf(r: SiteRecord | SiteEvent): { base_json: string; base_hash: string } {
  const base_json = canonical(r);
  return { base_json, base_hash: hashOf(base_json) };
}

/** What the user calls a record (conflict copies, errors). */
export function recordTitle(kind: SiteKind, r: SiteRecord): string {
  return str(kind === 'event' ? r.title : kind === 'venue' ? r.venue : kind === 'organizer' ? r.organizer : r.name);
}

/**
 * The body sent to the site. An event update there is not partial (left out, the original resets
 * status, zone, all-day, flags, cost, website, organizers and the post date), so every event
 * body carries the whole state, `date` included; dates as wall times with an IANA zone. A venue
 * cannot be unlinked there: a null venue is left out (the user was told where they removed it).
 */
export function payload(kind: SiteKind, r: SiteRecord, opts: { almanac: boolean }): Record<string, unknown> {
  const onlyIds = (refs: unknown) => (refs as Ref[]).map((x) => {
    if (typeof x !== 'number') throw new Error(`a ${kind} names a record the site has not got yet (${x})`);
    return x;
  });
  if (kind === 'event') {
    const e = r as unknown as SiteEvent;
    const body: Record<string, unknown> = {
      title: e.title,
      description: e.description,
      excerpt: e.excerpt,
      status: e.status,
      start_date: e.start_date,
      end_date: e.end_date,
      all_day: e.all_day,
      timezone: e.timezone,
      // Almanac keeps a list of values; the original one display string.
      cost: opts.almanac ? e.cost : e.cost.join(' – '),
      website: e.website,
      featured: e.featured,
      sticky: e.sticky,
      show_map: e.show_map,
      show_map_link: e.show_map_link,
      hide_from_listings: e.hide_from_listings,
      organizer: onlyIds(e.organizer),
      categories: onlyIds(e.categories),
      tags: onlyIds(e.tags),
    };
    if (e.date) body.date = e.date;
    if (e.venue !== null) body.venue = onlyIds([e.venue])[0];
    // A series goes as a series, changed whole (an old client's default scope is one occurrence).
    if (opts.almanac && e.recurrence) {
      body.recurrence = e.recurrence;
      body.recurrence_scope = 'all';
    }
    return body;
  }
  if (kind === 'category') {
    const parent = r.parent === null || r.parent === undefined ? 0 : onlyIds([r.parent])[0];
    return withoutEmptyDescription({ name: r.name, slug: r.slug, description: r.description, parent });
  }
  if (kind === 'tag') return withoutEmptyDescription({ name: r.name, slug: r.slug, description: r.description });
  return { ...r };
}

/** A term's description may not be empty where it is sent (a term without one has none to send). */
function withoutEmptyDescription(body: Record<string, unknown>): Record<string, unknown> {
  if (!body.description) delete body.description;
  return body;
}
