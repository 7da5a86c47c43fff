/**
 * iCalendar (RFC 5545) export of API event records.
 *
 * Every field an event body can express goes out either as a standard property or, where
 * iCalendar has no slot for it, as an `X-ALMANAC-*` property, so that exporting and importing the
 * file again (ics-import.ts) gives back the same events. Other calendar programs ignore the X- props.
 *
 * `exportIcs` writes a list of records as one text; the database export (ics-export-threaded.ts)
 * streams the same pieces (`icsHead`, `veventsText`, `ICS_END`) batch by batch, so that a
 * 100,000-event export never sits in memory whole. VTIMEZONE blocks are generated from the
 * system's time zone database (via Intl) for just the zones and years the events use.
 */
import type { Event, Organizer, Venue } from '../../../shared/api/records';
import type { WallTime } from '../../../shared/dates/format';
import { isValidTimeZone, zoneFor } from '../../../shared/dates/zones';

/**
 * What of an event the export writes. An API record has it all; the database export builds just
 * these fields from its rows (ics-rows.ts), because making whole API records cost ten times more.
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
};

export interface IcsExportOptions<E extends IcsEvent = IcsEvent> {
  calendarName?: string;
  /** Host part of generated UIDs (`almanac-<id>@<uidHost>`); keep it stable so UIDs survive re-exports. */
  uidHost: string;
  /** UID the event was imported with, if any: re-exporting it keeps the other calendar's identity. */
  uidOf?: (e: E) => string | null | undefined;
}

export const PRODID = '-//Almanac//Almanac Calendar//EN';
/** Prefix of our own properties; ics-import.ts reads them back. */
export const X = 'X-ALMANAC-';

/** A calendar file of these events. */
export function exportIcs<E extends IcsEvent>(events: readonly E[], opts: IcsExportOptions<E>): string {
  return icsHead(zonesUsed(events), opts) + veventsText(events, opts) + ICS_END;
}

/** The calendar's opening lines and the VTIMEZONE blocks of these zones. */
export function icsHead(zones: Map<string, { from: number; to: number }>, opts: Pick<IcsExportOptions, 'calendarName'>): string {
  const head = ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:${PRODID}`, 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH'];
  if (opts.calendarName) head.push(contentLine('X-WR-CALNAME', {}, escapeText(opts.calendarName)));
  let text = joinLines(head);
  // One year of margin on each side: an event's UTC instant can fall in the neighbouring year.
  for (const [tzid, years] of zones) text += joinLines(vtimezoneLines(tzid, years.from - 1, years.to + 1));
  return text;
}

/** The VEVENTs of these events, in order. */
export function veventsText<E extends IcsEvent>(events: Iterable<E>, opts: IcsExportOptions<E>): string {
  let text = '';
  for (const event of events) text += veventText(event, opts);
  return text;
}

export const ICS_END = 'END:VCALENDAR\r\n';

/* ------------------------------------------------------------------------------------------------
 * VEVENT
 *
 * Written straight into one string, line by line as folded text: an export of 100,000 events
 * writes three million lines, and arrays of lines and parameter objects per event were a good
 * part of its time. What many events share (a venue, an organizer) is written once and reused.
 * ---------------------------------------------------------------------------------------------- */

const CRLF = '\r\n';
const line = (name: string, value: string) => foldLine(`${name}:${value}`) + CRLF;
const flagLine = (name: string) => [`${X}${name}:FALSE${CRLF}`, `${X}${name}:TRUE${CRLF}`];
const FLAGS = {
  featured: flagLine('FEATURED'),
  sticky: flagLine('STICKY'),
  hide: flagLine('HIDE-FROM-LISTINGS'),
  map: flagLine('SHOW-MAP'),
  mapLink: flagLine('SHOW-MAP-LINK'),
};

function veventText<E extends IcsEvent>(e: E, opts: IcsExportOptions<E>): string {
  let out = `BEGIN:VEVENT${CRLF}`;
  out += line('UID', escapeText(opts.uidOf?.(e) || `almanac-${e.id}@${opts.uidHost}`));
  // Without METHOD semantics DTSTAMP is "last revised in the store", so the record's own time keeps
  // repeated exports identical (and diffable).
  const created = utcStamp(e.date_utc);
  const modified = utcStamp(e.modified_utc) ?? created ?? nowStamp();
  out += `DTSTAMP:${modified}${CRLF}`;
  if (created) out += `CREATED:${created}${CRLF}`;
  out += `LAST-MODIFIED:${modified}${CRLF}`;

  out += dateLines(e);
  out += line(`${X}TIMEZONE`, escapeText(e.timezone));

  out += line('SUMMARY', escapeText(decodeEntities(e.title)));
  if (e.description.trim()) {
    out += line('DESCRIPTION', escapeText(htmlToText(e.description)));
    out += line('X-ALT-DESC;FMTTYPE=text/html', escapeText(e.description));
  }
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

  return out + `END:VEVENT${CRLF}`;
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

function icalStatus(status: string): string {
  if (status === 'trash') return 'CANCELLED';
  if (status === 'draft' || status === 'pending') return 'TENTATIVE';
  return 'CONFIRMED';
}

/** "Town Hall, 1 Main St, Springfield, IL 62701, United States": what other programs show and map. */
function venueAddressLine(v: Venue): string {
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

function parts(s: string): string[] | undefined {
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

/* ------------------------------------------------------------------------------------------------
 * Text: escaping, folding, HTML
 * ---------------------------------------------------------------------------------------------- */

export type Params = Record<string, string | undefined>;

const TEXT_SPECIALS = /\\|;|,|\r\n|\r|\n/g;

/** TEXT value escaping (RFC 5545 §3.3.11). */
export function escapeText(s: string): string {
  TEXT_SPECIALS.lastIndex = 0;
  if (!TEXT_SPECIALS.test(s)) return s;
  return s.replace(TEXT_SPECIALS, (c) => (c === '\\' || c === ';' || c === ',' ? `\\${c}` : '\\n'));
}

/** Inverse of escapeText, tolerant of the `\N` and stray backslashes real files contain. */
export function unescapeText(s: string): string {
  return s.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

/** Splits a TEXT list on the commas that are not escaped, then unescapes each item. */
export function splitTextList(raw: string): string[] {
  const items: string[] = [];
  let current = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '\\' && i + 1 < raw.length) {
      current += c + raw[i + 1];
      i++;
    } else if (c === ',') {
      items.push(current);
      current = '';
    } else current += c;
  }
  items.push(current);
  return items.map(unescapeText);
}

const PARAM_SPECIALS = /[\x00-\x1f\x7f"^;:,\s]/;

/**
 * A parameter value: RFC 6868 caret-encoding for quotes and newlines, and DQUOTEs around values
 * with the characters that would otherwise end the parameter.
 */
export function paramValue(v: string): string {
  if (v !== '' && !PARAM_SPECIALS.test(v)) return v;
  const encoded = v
    .replace(/\^/g, '^^')
    .replace(/\r\n|\r|\n/g, '^n')
    .replace(/"/g, "^'")
    // Other control characters are not allowed anywhere in a parameter.
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');
  return /[;:,\s]/.test(encoded) || encoded === '' ? `"${encoded}"` : encoded;
}

export function contentLine(name: string, params: Params, value: string): string {
  let line = name;
  for (const [key, v] of Object.entries(params)) {
    if (v !== undefined && v !== '') line += `;${key}=${paramValue(v)}`;
  }
  return `${line}:${value}`;
}

const NON_ASCII = /[^\x00-\x7f]/;

/** Folds a content line into lines of at most 75 octets, never splitting a UTF-8 character. */
export function foldLine(line: string): string {
  // An export of 100,000 events folds millions of lines: skip the per-character work where we can.
  if (line.length <= 25) return line;
  if (!NON_ASCII.test(line)) {
    if (line.length <= 75) return line;
    const ascii = [line.slice(0, 75)];
    for (let i = 75; i < line.length; i += 74) ascii.push(line.slice(i, i + 74));
    return ascii.join('\r\n ');
  }
  if (Buffer.byteLength(line, 'utf8') <= 75) return line;
  const pieces: string[] = [];
  let start = 0;
  let octets = 0;
  // The first line holds 75 octets; continuation lines 74 after their leading space.
  let limit = 75;
  for (let i = 0; i < line.length; ) {
    const code = line.charCodeAt(i);
    const pair = code >= 0xd800 && code <= 0xdbff && (line.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3;
    if (octets + size > limit) {
      pieces.push(line.slice(start, i));
      start = i;
      octets = 0;
      limit = 74;
    }
    octets += size;
    i += pair ? 2 : 1;
  }
  pieces.push(line.slice(start));
  return pieces.join('\r\n ');
}

function joinLines(lines: string[]): string {
  return lines.map(foldLine).join('\r\n') + '\r\n';
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  ndash: '\u2013',
  mdash: '\u2014',
  hellip: '\u2026',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  euro: '\u20ac',
  pound: '\u00a3',
  copy: '\u00a9',
};

export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const cp = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
    }
    return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

const PLAIN_PARAGRAPH = /^<p>([^<>&\t\r\n]*)<\/p>$/;

/** Plain text for DESCRIPTION: what a reader sees of the HTML, with paragraphs and line breaks kept. */
export function htmlToText(html: string): string {
  // Most descriptions are one paragraph of plain text as renderContent wraps it; for those the
  // replacements below come down to this (a fifth of the export's time otherwise).
  const plain = PLAIN_PARAGRAPH.exec(html);
  if (plain) return plain[1].replace(/ {2,}/g, ' ').trim();
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n• ')
    .replace(/<\/(p|div|h[1-6]|blockquote|pre|ul|ol|table)>/gi, '\n\n')
    .replace(/<\/(li|tr)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    // Source formatting whitespace inside the HTML is not part of the text.
    .replace(/[ \t]*\n[ \t]*/g, '\n')
    .replace(/[ \t]+/g, ' ');
  return decodeEntities(text)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/* ------------------------------------------------------------------------------------------------
 * Time zones
 * ---------------------------------------------------------------------------------------------- */

const UTC_NAMES = new Set(['utc', 'etc/utc', 'gmt', 'etc/gmt', 'z', 'etc/universal', 'etc/zulu', 'universal', 'zulu', 'utc+0', 'utc-0']);
const API_OFFSET_ZONE = /^UTC([+-])(\d{1,2})(?::?(\d{2}))?$/i;

/** How an event's zone is written: as UTC (`Z` times) or with a TZID and a VTIMEZONE. */
function exportZone(zone: string): 'utc' | { tzid: string } {
  const z = zone.trim();
  if (!z || UTC_NAMES.has(z.toLowerCase()) || !offsetFinder(z)) return 'utc';
  return { tzid: z };
}

export type ZoneSpanSource = Pick<Event, 'all_day' | 'timezone' | 'start_date' | 'end_date'>;

/**
 * The VTIMEZONE blocks a set of events needs: each zone with the first and last year it is used,
 * in the order of their names, so a file does not depend on where its events come from.
 */
export function zonesUsed(events: Iterable<ZoneSpanSource>): Map<string, { from: number; to: number }> {
  const zones = new Map<string, { from: number; to: number }>();
  for (const e of events) {
    if (e.all_day) continue;
    const zone = exportZone(e.timezone);
    if (zone === 'utc') continue;
    const years = [e.start_date, e.end_date].map((s) => Number(parts(s)?.[0])).filter((y) => y > 0);
    if (!years.length) continue;
    const span = zones.get(zone.tzid) ?? { from: Infinity, to: -Infinity };
    span.from = Math.min(span.from, ...years);
    span.to = Math.max(span.to, ...years);
    zones.set(zone.tzid, span);
  }
  return new Map([...zones].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Seconds east of UTC at a given epoch second. */
export type OffsetFinder = (epochSeconds: number) => number;

const finders = new Map<string, OffsetFinder | undefined>();

/**
 * UTC offsets of an IANA zone (from the Intl time zone database) or of the API's fixed `UTC+2`
 * form; undefined for anything else.
 */
export function offsetFinder(zone: string): OffsetFinder | undefined {
  if (finders.has(zone)) return finders.get(zone);
  let finder: OffsetFinder | undefined;
  const fixed = API_OFFSET_ZONE.exec(zone);
  if (fixed) {
    const offset = (fixed[1] === '-' ? -1 : 1) * (Number(fixed[2]) * 3600 + Number(fixed[3] ?? 0) * 60);
    finder = () => offset;
  } else {
    try {
      // format() and a regex is several times faster than formatToParts(), which matters when a
      // VTIMEZONE for decades is built by sampling every day.
      const dtf = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
      finder = (sec) => {
        const m = /(\d+)\/(\d+)\/(\d+),? (\d+):(\d+):(\d+)/.exec(dtf.format(sec * 1000));
        if (!m) throw new Error(`Unexpected date format from Intl for ${zone}`);
        const local = Date.UTC(+m[3], +m[1] - 1, +m[2], +m[4], +m[5], +m[6]) / 1000;
        return local - sec;
      };
    } catch {
      finder = undefined;
    }
  }
  finders.set(zone, finder);
  return finder;
}

export type { WallTime };

const cachedFinders = new Map<string, OffsetFinder | undefined>();

/**
 * `offsetFinder` answered from zones.ts's remembered offsets: an import converts the times of
 * thousands of events, which fall on a few hundred days, and Intl costs microseconds a question.
 */
function cachedOffsetFinder(zone: string): OffsetFinder | undefined {
  if (cachedFinders.has(zone)) return cachedFinders.get(zone);
  let finder = offsetFinder(zone);
  if (finder && API_OFFSET_ZONE.exec(zone) === null && isValidTimeZone(zone)) {
    const z = zoneFor(zone);
    // Luxon's offsets are minutes, to the second (local mean times).
    finder = (sec) => Math.round(z.offset(sec * 1000) * 60);
  }
  cachedFinders.set(zone, finder);
  return finder;
}

/**
 * The instant (epoch ms) of a wall time in a zone, probing the offset twice as luxon does. A time
 * in a DST gap moves forward by the gap (02:30 that never happens reads as 03:30).
 */
export function epochOfWall(w: WallTime, zone: string): number {
  const offsetAt = cachedOffsetFinder(zone);
  if (!offsetAt) throw new Error(`Unknown time zone "${zone}"`);
  return epochOfWallWith(offsetAt, w);
}

/** `Y-m-d H:i:s` of an instant in a zone. */
export function wallOfEpoch(ms: number, zone: string): string {
  const offsetAt = cachedOffsetFinder(zone);
  if (!offsetAt) throw new Error(`Unknown time zone "${zone}"`);
  return wallOfEpochWith(offsetAt, ms);
}

/** `epochOfWall` with the given offsets (tests compare the remembered ones with Intl's). */
export function epochOfWallWith(offsetAt: OffsetFinder, w: WallTime): number {
  const local = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) / 1000;
  const o1 = offsetAt(local);
  let t = local - o1;
  const o2 = offsetAt(t);
  if (o1 === o2) return t * 1000;
  t -= o2 - o1;
  const o3 = offsetAt(t);
  if (o2 === o3) return t * 1000;
  return (local - Math.min(o2, o3)) * 1000;
}

/** `wallOfEpoch` with the given offsets. */
export function wallOfEpochWith(offsetAt: OffsetFinder, ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const w = wallAt(seconds + offsetAt(seconds));
  const p = (n: number, len = 2) => String(n).padStart(len, '0');
  return `${p(w.y, 4)}-${p(w.m)}-${p(w.d)} ${p(w.hh)}:${p(w.mi)}:${p(w.ss)}`;
}

interface Onset {
  at: number; // epoch seconds
  from: number;
  to: number;
  daylight: boolean;
  name: string;
  local: Wall; // wall time of the onset, in the `from` offset (as DTSTART in a VTIMEZONE wants)
}

interface Wall {
  y: number;
  m: number;
  d: number;
  hh: number;
  mi: number;
  ss: number;
}

const DAY = 86_400;
const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

/**
 * A VTIMEZONE for `zone` covering fromYear…toYear, named `tzid` (default: the zone itself).
 * Transitions are found by sampling the offset daily and bisecting to the second, then folded
 * into yearly RRULEs where consecutive years follow the same rule (Outlook reads RRULEs far better
 * than long RDATE lists). The last rule is left open-ended so that dates after the range still
 * resolve the way the zone most likely continues.
 */
export function vtimezoneLines(zone: string, fromYear: number, toYear: number, tzid = zone): string[] {
  const offsetAt = offsetFinder(zone);
  if (!offsetAt) throw new Error(`Unknown time zone "${zone}"`);
  const nameAt = shortNameFinder(zone);
  // Local midnight of 1 January, so that the base observance reads 0101T000000.
  const start = Date.UTC(fromYear, 0, 1) / 1000 - offsetAt(Date.UTC(fromYear, 0, 1) / 1000);
  const end = Date.UTC(toYear + 1, 0, 1) / 1000;

  const isDaylight = (offset: number, year: number) => {
    const standard = Math.min(offsetAt(Date.UTC(year, 0, 1) / 1000), offsetAt(Date.UTC(year, 6, 1) / 1000));
    return offset > standard;
  };

  const onsets: Onset[] = [];
  let previous = offsetAt(start);
  for (let t = start + DAY; t <= end; t += DAY) {
    const offset = offsetAt(t);
    if (offset === previous) continue;
    let lo = t - DAY;
    let hi = t;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (offsetAt(mid) === previous) lo = mid;
      else hi = mid;
    }
    const local = wallAt(hi + previous);
    onsets.push({ at: hi, from: previous, to: offset, daylight: isDaylight(offset, local.y), name: nameAt(hi), local });
    previous = offset;
  }

  const base = offsetAt(start);
  const baseLocal = wallAt(start + base);
  const lines = ['BEGIN:VTIMEZONE', contentLine('TZID', {}, escapeText(tzid))];
  if (!API_OFFSET_ZONE.test(zone)) lines.push(contentLine('X-LIC-LOCATION', {}, escapeText(zone)));
  lines.push(
    ...observance(isDaylight(base, baseLocal.y), base, base, nameAt(start), baseLocal, undefined),
  );

  for (const daylight of [false, true]) {
    const ofKind = onsets.filter((o) => o.daylight === daylight);
    for (const run of yearlyRuns(ofKind)) {
      const first = run.onsets[0];
      const last = run.onsets[run.onsets.length - 1];
      let rrule: string | undefined;
      if (run.onsets.length > 1) {
        const byDay = `${run.week}${WEEKDAYS[weekday(first.local)]}`;
        rrule = `FREQ=YEARLY;BYMONTH=${first.local.m};BYDAY=${byDay}`;
        const continuesPastRange = last === ofKind[ofKind.length - 1] && last.local.y >= toYear;
        if (!continuesPastRange) rrule += `;UNTIL=${compactWall(wallAt(last.at))}Z`;
      }
      lines.push(...observance(daylight, first.from, first.to, first.name, first.local, rrule));
    }
  }
  lines.push('END:VTIMEZONE');
  return lines;
}

function observance(daylight: boolean, from: number, to: number, name: string, local: Wall, rrule?: string): string[] {
  const kind = daylight ? 'DAYLIGHT' : 'STANDARD';
  const lines = [
    `BEGIN:${kind}`,
    `TZOFFSETFROM:${formatOffset(from)}`,
    `TZOFFSETTO:${formatOffset(to)}`,
    contentLine('TZNAME', {}, escapeText(name)),
    `DTSTART:${compactWall(local)}`,
  ];
  if (rrule) lines.push(`RRULE:${rrule}`);
  lines.push(`END:${kind}`);
  return lines;
}

/**
 * Groups onsets of one kind into runs that one yearly rule describes: same month, weekday, local
 * time, offsets and name in consecutive years, with a common "nth weekday" (or "last weekday").
 */
function yearlyRuns(onsets: Onset[]): { onsets: Onset[]; week: number }[] {
  const runs: { onsets: Onset[]; week: number }[] = [];
  let run: Onset[] = [];
  let weeks = new Set<number>();
  const flush = () => {
    if (!run.length) return;
    // "Last Sunday" (-1) reads right in every year of an open-ended rule; prefer it when it fits.
    const week = weeks.has(-1) ? -1 : Math.min(...weeks);
    runs.push({ onsets: run, week });
  };
  for (const onset of onsets) {
    const candidates = weekCandidates(onset.local);
    const prev = run[run.length - 1];
    const common = new Set([...weeks].filter((w) => candidates.has(w)));
    const continues =
      prev &&
      onset.local.y === prev.local.y + 1 &&
      onset.local.m === prev.local.m &&
      weekday(onset.local) === weekday(prev.local) &&
      onset.local.hh === prev.local.hh &&
      onset.local.mi === prev.local.mi &&
      onset.local.ss === prev.local.ss &&
      onset.from === prev.from &&
      onset.to === prev.to &&
      onset.name === prev.name &&
      common.size > 0;
    if (continues) {
      run.push(onset);
      weeks = common;
    } else {
      flush();
      run = [onset];
      weeks = candidates;
    }
  }
  flush();
  return runs;
}

function weekCandidates(w: Wall): Set<number> {
  const candidates = new Set([Math.ceil(w.d / 7)]);
  const daysInMonth = new Date(Date.UTC(w.y, w.m, 0)).getUTCDate();
  if (w.d + 7 > daysInMonth) candidates.add(-1);
  return candidates;
}

function weekday(w: Wall): number {
  return new Date(Date.UTC(w.y, w.m - 1, w.d)).getUTCDay();
}

function wallAt(localSeconds: number): Wall {
  const d = new Date(localSeconds * 1000);
  return {
    y: d.getUTCFullYear(),
    m: d.getUTCMonth() + 1,
    d: d.getUTCDate(),
    hh: d.getUTCHours(),
    mi: d.getUTCMinutes(),
    ss: d.getUTCSeconds(),
  };
}

function compactWall(w: Wall): string {
  const p = (n: number, len = 2) => String(n).padStart(len, '0');
  return `${p(w.y, 4)}${p(w.m)}${p(w.d)}T${p(w.hh)}${p(w.mi)}${p(w.ss)}`;
}

function formatOffset(seconds: number): string {
  const sign = seconds < 0 ? '-' : '+';
  const abs = Math.abs(seconds);
  const p = (n: number) => String(n).padStart(2, '0');
  const hhmm = `${p(Math.floor(abs / 3600))}${p(Math.floor((abs % 3600) / 60))}`;
  return sign + hhmm + (abs % 60 ? p(abs % 60) : '');
}

function shortNameFinder(zone: string): (epochSeconds: number) => string {
  const fixed = API_OFFSET_ZONE.exec(zone);
  if (fixed) return () => zone.toUpperCase();
  const dtf = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' });
  return (sec) => dtf.formatToParts(sec * 1000).find((p) => p.type === 'timeZoneName')?.value ?? zone;
}
