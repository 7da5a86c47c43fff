/**
 * An API event record as a VEVENT: every field an event body can express goes out either as a
 * standard property or, where iCalendar has no slot for it, as an `X-ALMANAC-*` property, so that
 * importing the file again (import.ts) gives back the same events.
 */
import type { Event, Organizer, Venue } from '../../../shared/api/records';
import { contentLine, describeHtml, escapeText, foldLine, paramValue, textDigest, type Params } from './text';
import { decodeEntities } from '../../../shared/content';
import { exportZone } from './zone-times';
import { valarmText } from './valarm';
import type { StoredReminder } from '../store/reminders';
import { localToUtc } from '../../../shared/dates/format';


/**
 * What of an event the export writes. An API record has it all; the database export builds just
 * these fields from its rows (export-rows.ts), because making whole API records cost ten times more.
 */
export type IcsEvent = Pick<
  Event,
  | 'id'
  | 'status'
  | 'date_utc'
  | 'modified_utc'
  | 'url'
  | 'title'
  | 'description'
  | 'excerpt'
  | 'slug'
  | 'all_day'
  | 'start_date'
  | 'end_date'
  | 'utc_start_date'
  | 'utc_end_date'
  | 'timezone'
  | 'cost'
  | 'cost_details'
  | 'website'
  | 'show_map'
  | 'show_map_link'
  | 'hide_from_listings'
  | 'sticky'
  | 'featured'
  | 'venue'
  | 'organizer'
  | 'i18n_language'
> & {
  image: { url: string } | false;
  categories: ReadonlyArray<{ name: string }>;
  tags: ReadonlyArray<{ name: string }>;
} & Partial<Pick<Event, 'recurrence' | 'series_id' | 'recurrence_id' | 'is_exception'>> & {
  /** For an occurrence: the UID of its series (its first event's), when known. */
  series_uid?: string | null;
  /** For a series' first event: where the series starts and how long an occurrence lasts, when it moved on its own. */
  series_start?: string;
  series_end?: string;
  /** For a series' first event changed on its own: the series' own values of what it changed (the master's). */
  series_values?: Partial<IcsEvent>;
  /** Reminders (VALARMs); the database export adds what an import kept of each. */
  reminders?: ReadonlyArray<StoredReminder>;
  /** For a series' first event that changed its reminders on its own: the series' (the master's). */
  series_reminders?: ReadonlyArray<StoredReminder>;
};

export interface IcsExportOptions<E extends IcsEvent = IcsEvent> {
  calendarName?: string;
  /** Host part of generated UIDs (`almanac-<id>@<uidHost>`); keep it stable so UIDs survive re-exports. */
  uidHost: string;
  /** UID the event was imported with, if any: re-exporting it keeps the other calendar's identity. */
  uidOf?: (e: E) => string | null | undefined;
  /** The UID of a series by its id (its first event's), for occurrences that do not carry it. */
  seriesUidOf?: (seriesId: number) => string | null | undefined;
}

/** Prefix of our own properties; import.ts reads them back. */
export const X = 'X-ALMANAC-';

/** The VEVENTs of these events, in order. */
export function veventsText<E extends IcsEvent>(events: Iterable<E>, opts: IcsExportOptions<E>): string {
  let text = '';
  for (const event of events) text += seriesAwareText(event, opts);
  return text;
}

/**
 * A series goes out as RFC 5545 has it: its first event as the master VEVENT (DTSTART at the
 * series' start, with RRULE, RDATE and EXDATE), and only the occurrences changed on their own as
 * VEVENTs of their own with the master's UID and a RECURRENCE-ID; the others the rule makes.
 */
function seriesAwareText<E extends IcsEvent>(e: E, opts: IcsExportOptions<E>): string {
  if (!e.recurrence || e.series_id === null || e.series_id === undefined || !e.recurrence_id) return veventText(e, opts);
  const uid = (e.series_id === e.id ? opts.uidOf?.(e) : (e.series_uid ?? opts.seriesUidOf?.(e.series_id))) || `almanac-${e.series_id}@${opts.uidHost}`;
  const recurrenceId = recurrenceIdLine(e);
  if (e.series_id !== e.id) return e.is_exception ? veventText(e, opts, { uid, extra: recurrenceId }) : '';
  const start = e.series_start ?? e.recurrence_id;
  const end = e.series_end ?? shiftedEnd(e, start);
  const master = veventText({ ...e, ...e.series_values, start_date: start, end_date: end, ...utcDates(e, start, end), reminders: e.series_reminders ?? e.reminders }, opts, { uid, extra: ruleLines(e) });
  // The first event moved or changed on its own: the master keeps the series' values and the
  // first occurrence is an override of it, like any other.
  return e.is_exception ? master + veventText(e, opts, { uid, extra: recurrenceId }) : master;
}

/** The end of the first event moved to `start`, keeping its length (wall time). */
function shiftedEnd(e: IcsEvent, start: string): string {
  const ms = (s: string) => {
    const p = parts(s)!;
    return Date.UTC(+p[0], +p[1] - 1, +p[2], +p[3], +p[4], +p[5]);
  };
  const d = new Date(ms(start) + (ms(e.end_date) - ms(e.start_date)));
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/** UTC dates for a timed event written in UTC (a `UTC` or fixed-offset zone). */
function utcDates(e: IcsEvent, start: string, end: string): Pick<IcsEvent, 'utc_start_date' | 'utc_end_date'> {
  if (start === e.start_date && end === e.end_date) return { utc_start_date: e.utc_start_date, utc_end_date: e.utc_end_date };
  return { utc_start_date: localToUtc(start, e.timezone), utc_end_date: localToUtc(end, e.timezone) };
}

/** How a wall time of the event's zone is written for DTSTART-like properties (RECURRENCE-ID, RDATE, EXDATE). */
function datePropertyValue(e: IcsEvent, name: string, values: string[]): string {
  if (e.all_day) return `${name};VALUE=DATE:${values.map((v) => v.replace(/[-: ]/g, '').slice(0, 8)).join(',')}${CRLF}`;
  const zone = exportZone(e.timezone);
  const stamp = (v: string) => v.replace(/[-:]/g, '').replace(' ', 'T').slice(0, 15);
  if (zone === 'utc') return line(name, values.map((v) => `${stamp(localToUtc(v, e.timezone))}Z`).join(','));
  return line(`${name};TZID=${paramValue(zone.tzid)}`, values.map(stamp).join(','));
}

function recurrenceIdLine(e: IcsEvent): string {
  return datePropertyValue(e, 'RECURRENCE-ID', [e.recurrence_id!]);
}

/** RRULE, RDATE and EXDATE lines of a series' master, typed like its DTSTART. */
function ruleLines(e: IcsEvent): string {
  const rec = e.recurrence!;
  const wall = (v: string) => (v.length === 8 ? `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)} 00:00:00` : `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)} ${v.slice(9, 11)}:${v.slice(11, 13)}:${v.slice(13, 15)}`);
  let out = '';
  for (const rule of rec.rules) out += line('RRULE', rule);
  if (rec.rdates.length) out += datePropertyValue(e, 'RDATE', rec.rdates.map(wall));
  if (rec.exdates.length) out += datePropertyValue(e, 'EXDATE', rec.exdates.map(wall));
  return out;
}

/* ------------------------------------------------------------------------------------------------
 * VEVENT
 *
 * Written straight into one string, line by line as folded text: an export of 100,000 events
 * writes three million lines, and arrays of lines and parameter objects per event were a good
 * part of its time. What many events share (a venue, an organizer) is written once and reused.
 * ---------------------------------------------------------------------------------------------- */

const CRLF = '\r\n';
const line = (name: string, value: string) => foldLine(`${name}:${value}`) + CRLF;
/** Only a flag that is set is written: X-ALMANAC-STATUS, always there, tells the reader the others are not. */
const flagLine = (name: string) => ['', `${X}${name}:TRUE${CRLF}`];
const FLAGS = {
  featured: flagLine('FEATURED'),
  sticky: flagLine('STICKY'),
  hide: flagLine('HIDE-FROM-LISTINGS'),
  map: flagLine('SHOW-MAP'),
  mapLink: flagLine('SHOW-MAP-LINK'),
};

function veventText<E extends IcsEvent>(e: E, opts: IcsExportOptions<E>, series?: { uid: string; extra: string }): string {
  let out = `BEGIN:VEVENT${CRLF}`;
  out += line('UID', escapeText(series?.uid ?? (opts.uidOf?.(e) || `almanac-${e.id}@${opts.uidHost}`)));
  if (series) out += series.extra;
  // Without METHOD semantics DTSTAMP is "last revised in the store", so the record's own time keeps
  // repeated exports identical (and diffable).
  const created = utcStamp(e.date_utc);
  const modified = utcStamp(e.modified_utc) ?? created ?? nowStamp();
  out += `DTSTAMP:${modified}${CRLF}`;
  if (created) out += `CREATED:${created}${CRLF}`;
  out += `LAST-MODIFIED:${modified}${CRLF}`;

  out += dateLines(e);
  // The zone of a zoned time is its TZID; dates and UTC times have no standard place for one.
  if (e.all_day || exportZone(e.timezone) === 'utc') out += line(`${X}TIMEZONE`, escapeText(e.timezone));

  out += line('SUMMARY', escapeText(decodeEntities(e.title)));
  if (e.description.trim()) out += descriptionLines(e.description);
  if (e.excerpt.trim()) out += line(`${X}EXCERPT`, escapeText(e.excerpt));

  if (!Array.isArray(e.venue)) out += venueText(e.venue);

  const withEmail = e.organizer.find((o) => o.email);
  if (withEmail) out += organizerText(withEmail).organizer;
  // iCalendar allows one ORGANIZER; ours can be several and carry phone and website too.
  for (const o of e.organizer) out += organizerText(o).almanac;

  // Other programs only know CATEGORIES, so tags go there as well; X-ALMANAC-TAGS says which are tags.
  if (e.categories.length + e.tags.length) {
    let names = '';
    for (const t of e.categories) names += (names ? ',' : '') + escapeText(t.name);
    for (const t of e.tags) names += (names ? ',' : '') + escapeText(t.name);
    out += line('CATEGORIES', names);
  }
  if (e.tags.length) out += line(`${X}TAGS`, e.tags.map((t) => escapeText(t.name)).join(','));

  // `website` falls back to the permalink when unset; a localhost permalink is useless elsewhere.
  if (e.website && e.website !== e.url) out += line('URL', e.website);
  if (e.image) out += line('IMAGE;VALUE=URI;DISPLAY=BADGE', e.image.url);

  out += `STATUS:${icalStatus(e.status)}${CRLF}`;
  if (e.status === 'private') out += `CLASS:PRIVATE${CRLF}`;
  out += line(`${X}STATUS`, escapeText(e.status));
  if (e.slug) out += line(`${X}SLUG`, escapeText(e.slug));
  if (e.i18n_language) out += line(`${X}LANGUAGE`, escapeText(e.i18n_language));

  const cost = costValues(e);
  if (cost.length) out += line(`${X}COST`, cost.map(escapeText).join(','));
  out += FLAGS.featured[+e.featured] + FLAGS.sticky[+e.sticky] + FLAGS.hide[+e.hide_from_listings] + FLAGS.map[+e.show_map] + FLAGS.mapLink[+e.show_map_link];
  if (e.reminders) for (const r of e.reminders) out += valarmText(r);

  return out + `END:VEVENT${CRLF}`;
}

/**
 * DESCRIPTION is the text a reader sees. HTML with markup the text cannot say goes beside it in
 * X-ALT-DESC, with a digest of the DESCRIPTION it goes with: a client that edits DESCRIPTION and
 * keeps X-ALT-DESC as it was leaves a digest that no longer matches, and its text wins.
 */
function descriptionLines(html: string): string {
  const { text, plain } = describeHtml(html);
  let out = text ? line('DESCRIPTION', escapeText(text)) : '';
  if (!plain) out += foldLine(contentLine('X-ALT-DESC', { FMTTYPE: 'text/html', [`${X}DESCRIPTION-HASH`]: textDigest(text) }, escapeText(html))) + CRLF;
  return out;
}

function dateLines(e: IcsEvent): string {
  if (e.all_day) {
    const start = dateOf(e.start_date, e, 'start_date');
    const end = dateOf(e.end_date, e, 'end_date');
    // DTEND of a DATE event is exclusive: the day after the last day.
    const endExclusive = addDays(end < start ? start : end, 1);
    return `DTSTART;VALUE=DATE:${compactDate(start)}${CRLF}DTEND;VALUE=DATE:${compactDate(endExclusive)}${CRLF}`;
  }
  const zone = exportZone(e.timezone);
  if (zone === 'utc') {
    return line('DTSTART', utcStampOrThrow(e.utc_start_date, e, 'utc_start_date')) + line('DTEND', utcStampOrThrow(e.utc_end_date, e, 'utc_end_date'));
  }
  const tzid = `;TZID=${paramValue(zone.tzid)}`;
  return line(`DTSTART${tzid}`, wallStamp(e.start_date, e, 'start_date')) + line(`DTEND${tzid}`, wallStamp(e.end_date, e, 'end_date'));
}

/**
 * A venue's lines, kept with the venue object: an export's events share a few venue records (the
 * database export hands out one object per venue). Records are never modified once made (json-cache.ts).
 */
const venueTexts = new WeakMap<object, string>();

function venueText(venue: Venue): string {
  let text = venueTexts.get(venue);
  if (text !== undefined) return text;
  text = '';
  const location = venueAddressLine(venue);
  if (location) text += line('LOCATION', escapeText(location));
  if (typeof venue.geo_lat === 'number' && typeof venue.geo_lng === 'number') {
    text += line('GEO', `${venue.geo_lat};${venue.geo_lng}`);
  }
  text += foldLine(contentLine(X + 'VENUE', venueParams(venue), escapeText(venue.venue ?? ''))) + CRLF;
  venueTexts.set(venue, text);
  return text;
}

const organizerTexts = new WeakMap<object, { organizer: string; almanac: string }>();

function organizerText(o: Organizer): { organizer: string; almanac: string } {
  let text = organizerTexts.get(o);
  if (text) return text;
  text = {
    organizer: o.email ? foldLine(contentLine('ORGANIZER', { CN: o.organizer }, `mailto:${o.email}`)) + CRLF : '',
    almanac: foldLine(contentLine(X + 'ORGANIZER', organizerParams(o), escapeText(o.organizer ?? ''))) + CRLF,
  };
  organizerTexts.set(o, text);
  return text;
}

/** STATUS as Almanac writes it for each status (CLASS says private); the import reads it back (vevent-to-record.ts). */
export function icalStatus(status: string): string {
  if (status === 'trash') return 'CANCELLED';
  if (status === 'draft' || status === 'pending') return 'TENTATIVE';
  return 'CONFIRMED';
}

/**
 * "Town Hall, 1 Main St, Springfield, IL 62701, United States": what other programs show and map.
 * The import derives it again from X-ALMANAC-VENUE to tell whether LOCATION was edited elsewhere.
 */
export function venueAddressLine(v: Partial<Record<'venue' | 'address' | 'city' | 'state' | 'province' | 'stateprovince' | 'zip' | 'country', string>>): string {
  const region = [v.state || v.province || v.stateprovince, v.zip].filter(Boolean).join(' ');
  return [v.venue, v.address, v.city, region, v.country]
    .map((s) => (s ?? '').trim())
    .filter(Boolean)
    .join(', ');
}

function venueParams(v: Venue): Params {
  return {
    ADDRESS: v.address,
    CITY: v.city,
    STATE: v.state,
    PROVINCE: v.province,
    ZIP: v.zip,
    COUNTRY: v.country,
    PHONE: v.phone,
    WEBSITE: v.website,
  };
}

function organizerParams(o: Organizer): Params {
  return { EMAIL: o.email, PHONE: o.phone, WEBSITE: o.website };
}

/**
 * The cost as the strings an event body takes back (`"$20"`, `"20€"`), one per value, so a range
 * ("Free – $30") survives as its values rather than as display text.
 */
function costValues(e: IcsEvent): string[] {
  const { currency_symbol: symbol, currency_position: position, values } = e.cost_details;
  if (!values.length) return e.cost ? [e.cost] : [];
  return values.map((value) => {
    if (!symbol || !/\d/.test(value)) return value;
    return position === 'postfix' ? `${value}${symbol}` : `${symbol}${value}`;
  });
}

/* ------------------------------------------------------------------------------------------------
 * Dates
 * ---------------------------------------------------------------------------------------------- */

const API_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

export function parts(s: string): string[] | undefined {
  const m = API_DATE.exec(s.trim());
  return m ? [m[1], m[2], m[3], m[4] ?? '00', m[5] ?? '00', m[6] ?? '00'] : undefined;
}

function dateOf(s: string, e: IcsEvent, field: string): string {
  const p = parts(s);
  if (!p) throw new Error(`Event ${e.id} has an invalid ${field} "${s}"`);
  return `${p[0]}-${p[1]}-${p[2]}`;
}

function compactDate(isoDate: string): string {
  return isoDate.replaceAll('-', '');
}

function addDays(isoDate: string, days: number): string {
  const [y, m, d] = isoDate.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

function wallStamp(s: string, e: IcsEvent, field: string): string {
  const p = parts(s);
  if (!p) throw new Error(`Event ${e.id} has an invalid ${field} "${s}"`);
  return `${p[0]}${p[1]}${p[2]}T${p[3]}${p[4]}${p[5]}`;
}

function utcStamp(s: string | undefined): string | undefined {
  const p = s ? parts(s) : undefined;
  return p && p[0] !== '0000' ? `${p[0]}${p[1]}${p[2]}T${p[3]}${p[4]}${p[5]}Z` : undefined;
}

function utcStampOrThrow(s: string, e: IcsEvent, field: string): string {
  const stamp = utcStamp(s);
  if (!stamp) throw new Error(`Event ${e.id} has an invalid ${field} "${s}"`);
  return stamp;
}

function nowStamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
}
