/**
 * A VEVENT as an event body for the API: its dates (span, zone, all-day) and its fields (title,
 * description, status, venue, organizers, categories and tags, Almanac's own X- properties).
 */
import ICAL from 'ical.js';
import { X, icalStatus, venueAddressLine } from './record-to-vevent';
import { describeHtml, descriptionToHtml, sameWords, textDigest, unescapeText } from './text';
import type { EventBody, IcsImportOptions, OrganizerBody, VenueBody } from './import-types';
import { EventProblem, NO_START } from './problems';
import { periodEnd, periodKey } from './fixups';
import { property, type Entry } from './entries';
import { addDays, epochOfWall, formatWall, isoDate, sourceOf, utcWall, wallOfEpoch } from './ical-times';
import { offsetFinder } from './zone-times';
import { allProps, booleanOf, compact, firstProp, firstValue, hasProp, listProperty, param, stringProperty, textOf, unique, type Prop } from './props';
import { apiZone, offsetZone, type Zones } from './zones';
import { alarmsOf } from './valarm';

type IcalComponent = InstanceType<typeof ICAL.Component>;
type IcalTime = InstanceType<typeof ICAL.Time>;

const UNTITLED = '(No title)';

export interface Span {
  start: string;
  end: string;
  zone: string;
  allDay: boolean;
  startMs: number;
}

export type EventFields = Omit<EventBody, 'start_date' | 'end_date' | 'timezone' | 'all_day'>;

/** Occurrences share their VEVENT's fields; each body gets its own copy so that editing one is safe. */
function copyFields<T extends object>(fields: T): T {
  const copy = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(copy) : value && typeof value === 'object' ? { ...value } : value;
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, copy(value)])) as T;
}

/** Makes event bodies of one file's VEVENTs; a VEVENT's fields are read once for all its occurrences. */
export class VeventToRecord {
  private readonly fieldCache = new Map<IcalComponent, EventFields>();

  constructor(
    private readonly opts: Pick<IcsImportOptions, 'siteZone'>,
    private readonly zones: Zones,
    private readonly warn: (entry: Entry, message: string) => void,
  ) {}

  /** Forgets the fields read so far (their VEVENTs are done with). */
  forget(): void {
    this.fieldCache.clear();
  }

  /** Where the event starts and ends, as local times in the zone the body will carry. */
  span(entry: Entry, getStart: () => IcalTime | undefined, getEnd: () => IcalTime | undefined): Span {
    const start = property(entry, 'DTSTART', getStart);
    if (!start) throw new EventProblem(NO_START, 'DTSTART');
    const source = sourceOf(start);
    const periodEndText = entry.periodEnds?.get(periodKey(start, source.kind === 'tz' ? source.tzid : undefined));
    const end = periodEndText
      ? property(entry, 'RDATE', () => periodEnd(start, periodEndText))
      : (property(entry, hasProp(entry.component, 'dtend') ? 'DTEND' : 'DURATION', getEnd) ?? undefined);
    const almanacZone = apiZone(stringProperty(entry.component, `${X}TIMEZONE`));

    if (start.isDate) {
      const zone = almanacZone ?? this.opts.siteZone;
      const firstDay = isoDate(start);
      let lastDay = firstDay;
      if (end) {
        // DTEND of a date event is exclusive; the API's end is the last day itself.
        const endsAtMidnight = end.isDate || (end.hour === 0 && end.minute === 0 && end.second === 0);
        lastDay = endsAtMidnight ? addDays(isoDate(end), -1) : isoDate(end);
        if (lastDay < firstDay) lastDay = firstDay;
      }
      const [year, month, day] = firstDay.split('-').map(Number);
      const startMs = epochOfWall({ year, month, day, hour: 0, minute: 0, second: 0 }, zone);
      return { start: `${firstDay} 00:00:00`, end: `${lastDay} 23:59:59`, zone, allDay: true, startMs };
    }

    const zone = this.zoneOf(start, entry, almanacZone);
    const from = this.place(start, zone);
    let to = end ? this.place(end, zone) : from;
    if (to.ms < from.ms) to = from;
    return { start: from.local, end: to.local, zone, allDay: false, startMs: from.ms };
  }

  /**
   * The zone a timed event is shown in. DTSTART's TZID is the truth: X-ALMANAC-TIMEZONE (`own`)
   * is used only where no standard property says a zone (UTC and floating times), or beside a
   * zone the file defines but no IANA name gives, when its offset at the start agrees.
   */
  private zoneOf(start: IcalTime, entry: Entry, own: string | undefined): string {
    const source = sourceOf(start);
    if (source.kind === 'tz') {
      // The API's own `UTC+2` form is written as the TZID itself (not as its `Etc/GMT-2`).
      const offsetForm = offsetZone(source.tzid);
      if (offsetForm) return offsetForm;
      const resolution = this.zones.resolve(source.tzid);
      if ('zone' in resolution) return resolution.zone;
      if ('custom' in resolution) {
        const instant = start.toUnixTime();
        const offset = Date.UTC(start.year, start.month - 1, start.day, start.hour, start.minute, start.second) / 1000 - instant;
        return own && offsetFinder(own)?.(instant) === offset ? own : this.opts.siteZone;
      }
      return own ?? this.opts.siteZone;
    }
    if (source.kind === 'utc') return own ?? entry.calendarZone ?? this.opts.siteZone;
    return own ?? this.opts.siteZone;
  }

  /** A time as a local wall time in `zone`; wall times already in that zone are kept as written. */
  place(t: IcalTime, zone: string): { local: string; ms: number } {
    const wall = { year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second };
    const source = sourceOf(t);
    let instant: number | undefined;
    if (source.kind === 'utc') instant = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
    else if (source.kind === 'tz') {
      const resolution = this.zones.resolve(source.tzid);
      if ('zone' in resolution && resolution.zone !== zone) {
        instant = epochOfWall(wall, resolution.zone);
      } else if ('custom' in resolution) {
        instant = t.toUnixTime() * 1000;
      }
    }
    if (instant === undefined) return { local: formatWall(wall), ms: epochOfWall(wall, zone) };
    return { local: wallOfEpoch(instant, zone), ms: instant };
  }

  /** `shared`: other occurrences of the VEVENT use its fields too (a single event's are its own). */
  body(entry: Entry, span: Span, shared = true): EventBody {
    const { title, ...rest } = this.fields(entry, shared);
    const dates = { start_date: span.start, end_date: span.end, timezone: span.zone, all_day: span.allDay };
    return { title, ...dates, ...(shared ? copyFields(rest) : rest) };
  }

  /** Everything but the dates, read once per VEVENT however many occurrences share it. */
  fields(entry: Entry, shared: boolean): EventFields {
    const cached = this.fieldCache.get(entry.component);
    if (cached) return cached;
    const c = entry.component;
    const title = stringProperty(c, 'summary')?.trim();
    if (!title) this.warn(entry, `Line ${entry.info.line}: the event has no title (SUMMARY); it was imported as "${UNTITLED}".`);

    const fields: EventFields = { title: title || UNTITLED };
    const description = descriptionOf(c, entry.root);
    if (description) fields.description = description;
    const excerpt = stringProperty(c, `${X}EXCERPT`);
    if (excerpt) fields.excerpt = excerpt;
    const slug = stringProperty(c, `${X}SLUG`);
    if (slug) fields.slug = slug;
    const status = statusOf(c);
    if (status) fields.status = status;
    const created = property(entry, 'CREATED', () => firstValue(c, 'created'));
    if (created instanceof ICAL.Time && !created.isDate) fields.date_utc = utcWall(created);

    const website = stringProperty(c, 'url')?.trim();
    if (website) fields.website = website;
    const image = imageOf(c);
    if (image) fields.image = image;

    const cost = listProperty(c, `${X}COST`).filter(Boolean);
    if (cost.length) fields.cost = cost.length === 1 ? cost[0] : cost;
    // Almanac writes a flag only when it is set, and X-ALMANAC-STATUS always (older files: every flag).
    const almanacs = hasProp(c, 'x-almanac-status');
    for (const [flag, name] of FLAGS) {
      const value = booleanOf(stringProperty(c, X + name)) ?? (almanacs ? false : undefined);
      if (value !== undefined) fields[flag] = value;
    }

    const { categories, tags } = termsOf(c);
    if (categories.length) fields.categories = categories;
    if (tags.length) fields.tags = tags;
    const venue = venueOf(c);
    if (venue) fields.venue = venue;
    const organizers = organizersOf(c);
    if (organizers.length) fields.organizer = organizers;
    const language = stringProperty(c, `${X}LANGUAGE`);
    if (language) fields.i18n_language = language;
    const reminders = alarmsOf(c, (m) => this.warn(entry, `Line ${entry.info.line}: ${m}.`));
    if (reminders.length) fields.reminders = reminders;

    if (shared) this.fieldCache.set(c, fields);
    return fields;
  }

}

const FLAGS = [
  ['featured', 'FEATURED'],
  ['sticky', 'STICKY'],
  ['hide_from_listings', 'HIDE-FROM-LISTINGS'],
  ['show_map', 'SHOW-MAP'],
  ['show_map_link', 'SHOW-MAP-LINK'],
] as const;

const STATUSES = new Set(['publish', 'future', 'draft', 'pending', 'private', 'trash']);

export function isRecurring(c: IcalComponent): boolean {
  return hasProp(c, 'rrule') || hasProp(c, 'rdate');
}

/**
 * Cancelled in another program. Almanac's own trash goes out as CANCELLED with X-ALMANAC-STATUS
 * saying trash, and stays a status.
 */
export function isCancelled(c: IcalComponent): boolean {
  return stringProperty(c, 'status')?.toUpperCase() === 'CANCELLED' && stringProperty(c, `${X}STATUS`)?.trim().toLowerCase() !== 'trash';
}

/**
 * X-ALMANAC-STATUS says what STATUS cannot (draft or pending, future, trash), so it is used
 * while STATUS and CLASS still say what it was written with; a status changed elsewhere wins.
 */
function statusOf(c: IcalComponent): string | undefined {
  const own = stringProperty(c, `${X}STATUS`)?.trim().toLowerCase();
  const access = stringProperty(c, 'class')?.toUpperCase();
  const isPrivate = access === 'PRIVATE' || access === 'CONFIDENTIAL';
  if (own && STATUSES.has(own) && (own === 'private') === isPrivate) {
    const standard = stringProperty(c, 'status')?.trim().toUpperCase() ?? 'CONFIRMED';
    // STATUS as Almanac writes it for that status (record-to-vevent.ts): unchanged elsewhere.
    if (icalStatus(own) === standard) return own;
  }
  return isPrivate ? 'private' : undefined;
}

/**
 * The description as the API's HTML content. DESCRIPTION is the truth: X-ALT-DESC (Almanac's,
 * Outlook's) gives its markup only while it still goes with DESCRIPTION (the digest Almanac writes
 * beside it matches, or, without one, its text has the same words). DESCRIPTION is plain text
 * (kept literally: `<b>` and `&` are text), except in Google's files, which put HTML there.
 */
function descriptionOf(c: IcalComponent, root: IcalComponent): string | undefined {
  const plain = stringProperty(c, 'description') ?? '';
  const alternative = allProps(c, 'x-alt-desc').find((p) => /html/i.test(param(p, 'fmttype') ?? ''));
  if (alternative) {
    const html = htmlBody(textOf(alternative));
    const digest = param(alternative, `${X}DESCRIPTION-HASH`);
    const agrees = digest !== undefined ? digest === textDigest(plain) : sameWords(describeHtml(html).text, plain);
    if (html && agrees) return html;
  }
  if (!plain.trim()) return undefined;
  if (HTML_TAG.test(plain) && writesHtmlDescriptions(root)) return plain.trim();
  return descriptionToHtml(plain);
}

const HTML_TAG = /<\/?(p|br|a|b|i|u|em|strong|ul|ol|li|div|span|h[1-6])\b[^>]*>/i;
const htmlWriters = new WeakMap<IcalComponent, boolean>();

/** Google Calendar writes its descriptions' HTML into DESCRIPTION. */
function writesHtmlDescriptions(root: IcalComponent): boolean {
  let writes = htmlWriters.get(root);
  if (writes === undefined) {
    writes = /\bGoogle\b/i.test(stringProperty(root, 'prodid') ?? '');
    htmlWriters.set(root, writes);
  }
  return writes;
}

/** The content of a full HTML document (Outlook writes one), or the fragment as it is. */
function htmlBody(html: string): string {
  const inner = /<body\b[^>]*>([\s\S]*?)<\/body>/i.exec(html)?.[1] ?? html;
  return inner
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<\/?o:p>/gi, '')
    .trim();
}

function imageOf(c: IcalComponent): string | undefined {
  const isUrl = (v: unknown): v is string => typeof v === 'string' && /^(https?|file):/i.test(v.trim());
  const image = firstValue(c, 'image');
  if (isUrl(image)) return image.trim();
  const attachment = allProps(c, 'attach')
    .find((p) => /^image\//i.test(param(p, 'fmttype') ?? '') && isUrl(p.getFirstValue()));
  return attachment ? String(attachment.getFirstValue()).trim() : undefined;
}

/**
 * Categories and tags. Almanac writes both into CATEGORIES (other programs know nothing else) and
 * lists the tags again in X-ALMANAC-TAGS; one CATEGORIES entry per tag is taken back out.
 */
function termsOf(c: IcalComponent): { categories: string[]; tags: string[] } {
  const all = listProperty(c, 'categories').filter(Boolean);
  const tags = unique(listProperty(c, `${X}TAGS`).filter(Boolean));
  const remaining = [...all];
  // Tags were written after the categories, so a name that is both is removed from the end. A
  // tag no longer in CATEGORIES was taken out elsewhere.
  const kept: string[] = [];
  for (const tag of tags) {
    const at = remaining.lastIndexOf(tag);
    if (at < 0) continue;
    remaining.splice(at, 1);
    kept.push(tag);
  }
  return { categories: unique(remaining), tags: kept };
}

/**
 * The venue: X-ALMANAC-VENUE (with what LOCATION cannot hold: phone, website, the address in
 * parts) while the LOCATION derived from it again is the LOCATION the file has; else LOCATION.
 */
function venueOf(c: IcalComponent): VenueBody | undefined {
  const geo = geoOf(c);
  const own = firstProp(c, `${X}VENUE`.toLowerCase());
  const location = stringProperty(c, 'location')?.trim() ?? '';
  if (own) {
    const venue = compact<VenueBody>({
      venue: textOf(own).trim(),
      address: param(own, 'address'),
      city: param(own, 'city'),
      country: param(own, 'country'),
      state: param(own, 'state'),
      province: param(own, 'province'),
      zip: param(own, 'zip'),
      phone: param(own, 'phone'),
      website: param(own, 'website'),
      ...geo,
    });
    if (venue.venue && sameSpaced(venueAddressLine(venue), location)) return venue;
  }

  const apple = firstProp(c, 'x-apple-structured-location');
  const appleTitle = apple ? param(apple, 'x-title') : undefined;
  // Apple and others write "Name\nStreet\nCity": the first line names the place.
  const [firstLine, ...otherLines] = location.split(/\r?\n/).map((s) => s.trim()).filter(Boolean);
  const name = appleTitle ?? firstLine;
  if (!name) return undefined;
  // Apple escapes the newlines of X-ADDRESS as in a TEXT value, although it is a parameter.
  const appleAddress = apple ? param(apple, 'x-address') : undefined;
  const addressLines = appleTitle
    ? (appleAddress ? unescapeText(appleAddress).replace(/\\n/gi, '\n') : location).split(/\r?\n/)
    : otherLines;
  const address = addressLines.map((s) => s.trim()).filter((s) => s && s !== name).join(', ');
  return compact<VenueBody>({ venue: name, address, ...geo, ...(geo ? {} : appleGeo(apple)) });
}

const sameSpaced = (a: string, b: string) => a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();

function geoOf(c: IcalComponent): { geo_lat: number; geo_lng: number } | undefined {
  const value = firstValue(c, 'geo') as unknown;
  if (Array.isArray(value) && value.length === 2) {
    const [lat, lng] = value.map(Number);
    if (Number.isFinite(lat) && Number.isFinite(lng)) return { geo_lat: lat, geo_lng: lng };
  }
  return undefined;
}

function appleGeo(p: Prop | null | undefined): { geo_lat?: number; geo_lng?: number } {
  const match = p ? /^geo:(-?[\d.]+),(-?[\d.]+)/i.exec(String(p.getFirstValue() ?? '')) : null;
  return match ? { geo_lat: Number(match[1]), geo_lng: Number(match[2]) } : {};
}

/**
 * Organizers: X-ALMANAC-ORGANIZER holds all of them (iCalendar has one ORGANIZER, and no phone or
 * website); the one with an e-mail is what ORGANIZER restates. When ORGANIZER says someone else
 * (or no one), it replaces that one; the others stay.
 */
function organizersOf(c: IcalComponent): OrganizerBody[] {
  const own = allProps(c, `${X}ORGANIZER`.toLowerCase())
    .map((p) =>
      compact<OrganizerBody>({
        organizer: textOf(p).trim(),
        email: param(p, 'email'),
        phone: param(p, 'phone'),
        website: param(p, 'website'),
      }),
    )
    .filter((o) => o.organizer);
  if (!own.length) return allProps(c, 'organizer').map(organizerOf).filter((o) => o.organizer);
  const first = firstProp(c, 'organizer');
  const now = first ? organizerOf(first) : undefined;
  const restated = own.findIndex((o) => o.email);
  const agrees = restated < 0 ? !now?.organizer : now?.email?.toLowerCase() === own[restated].email!.toLowerCase() && now?.organizer === own[restated].organizer;
  if (agrees) return own;
  const out = [...own];
  if (restated < 0) out.unshift(now!);
  else if (now?.organizer) out[restated] = now;
  else out.splice(restated, 1);
  return out;
}

/** ORGANIZER as an organizer: its CN (else its address) and its e-mail. */
function organizerOf(p: Prop): OrganizerBody {
  const address = String(p.getFirstValue() ?? '').trim();
  const email = /^mailto:/i.test(address) ? address.replace(/^mailto:/i, '').trim() : undefined;
  const validEmail = email && /^[^@\s]+@[^@\s]+$/.test(email) ? email : undefined;
  return compact<OrganizerBody>({ organizer: param(p, 'cn') ?? validEmail ?? '', email: validEmail });
}
