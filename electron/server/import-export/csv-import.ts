/**
 * CSV import in the original plugin's column format, for events, venues and organizers.
 *
 * Columns are recognised by their key (`event_name`) or by the label the original shows and
 * writes (`Event Name`, `All Day Event`), in any letter case and with spaces, dashes or
 * underscores. Each data row becomes an API body; rows are numbered as a spreadsheet shows them
 * (the header is row 1), so an error message can be found in Excel or LibreOffice directly.
 *
 * Dates are read the way the original's importer reads them (PHP strtotime): `2025-03-14`,
 * US `03/14/2025`, European `14-03-2025` / `14.03.2025`, `March 14, 2025`, with times such as
 * `19:00` or `7:00 PM`, and turned into the API's `Y-m-d H:i:s`.
 */
import Papa from 'papaparse';
import { IANAZone } from 'luxon';

export type CsvKind = 'events' | 'venues' | 'organizers';

export interface CsvRowError {
  row: number;
  column?: string;
  message: string;
}

export interface CsvImportResult {
  rows: { row: number; body: Record<string, unknown> }[];
  errors: CsvRowError[];
}

export interface CsvImportOptions {
  /** Zone of rows that have no event_timezone. */
  siteZone: string;
}

interface ColumnSet {
  required: string[];
  /** Column key → the original's label for it. */
  labels: Record<string, string>;
}

const COLUMNS: Record<CsvKind, ColumnSet> = {
  events: {
    required: ['event_name', 'event_start_date'],
    labels: {
      event_name: 'Event Name',
      event_description: 'Event Description',
      event_excerpt: 'Event Excerpt',
      event_start_date: 'Event Start Date',
      event_start_time: 'Event Start Time',
      event_end_date: 'Event End Date',
      event_end_time: 'Event End Time',
      event_timezone: 'Event Time Zone',
      event_all_day: 'All Day Event',
      event_hide: 'Hide Event From Event Listings',
      event_sticky: 'Event Sticky in Month View',
      feature_event: 'Feature Event',
      event_venue_name: 'Event Venue Name',
      event_organizer_name: 'Event Organizer Name(s) or ID(s)',
      event_show_map_link: 'Event Show Map Link',
      event_show_map: 'Event Show Map',
      event_cost: 'Event Cost',
      event_currency_symbol: 'Event Currency Symbol',
      event_currency_position: 'Event Currency Position',
      event_category: 'Event Category',
      event_tags: 'Event Tags',
      event_website: 'Event Website',
      featured_image: 'Event Featured Image',
    },
  },
  venues: {
    required: ['venue_name'],
    labels: {
      venue_name: 'Venue Name',
      venue_description: 'Venue Description',
      venue_country: 'Venue Country',
      venue_address: 'Venue Address',
      venue_address2: 'Venue Address 2',
      venue_city: 'Venue City',
      venue_state: 'Venue State/Province',
      venue_zip: 'Venue Zip',
      venue_phone: 'Venue Phone',
      venue_url: 'Venue Website',
      featured_image: 'Venue Featured Image',
    },
  },
  organizers: {
    required: ['organizer_name'],
    labels: {
      organizer_name: 'Organizer Name',
      organizer_description: 'Organizer Description',
      organizer_email: 'Organizer Email',
      organizer_website: 'Organizer Website',
      organizer_phone: 'Organizer Phone',
      featured_image: 'Organizer Featured Image',
    },
  },
};

/** `Event Name`, `EVENT_NAME`, `event-name` → `event_name`. */
export function normalizeHeader(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

export function parseCsv(text: string, kind: CsvKind, opts: CsvImportOptions): CsvImportResult {
  const result: CsvImportResult = { rows: [], errors: [] };
  const columns = COLUMNS[kind];
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { header: false, skipEmptyLines: false });
  const records = parsed.data;

  // Broken quoting swallows the rest of the file into one cell; that row cannot be trusted.
  const brokenRows = new Set<number>();
  for (const error of parsed.errors) {
    if (error.code === 'UndetectableDelimiter' || error.row === undefined) continue;
    const row = error.row + 1;
    brokenRows.add(row);
    const message =
      error.code === 'MissingQuotes'
        ? `Row ${row}: a quoted cell is never closed; the file may be truncated or a quote is missing.`
        : `Row ${row}: ${error.message}.`;
    result.errors.push({ row, message });
  }

  const header = records[0] ?? [];
  const keyOf = headerResolver(columns);
  const indexOf = new Map<string, number>();
  header.forEach((cell, index) => {
    const key = keyOf(cell);
    if (key && !indexOf.has(key)) indexOf.set(key, index);
  });

  const missing = columns.required.filter((key) => !indexOf.has(key));
  if (missing.length) {
    for (const key of missing) {
      result.errors.push({
        row: 1,
        column: key,
        message: `Row 1: the required column "${columns.labels[key]}" (${key}) is missing from the header.`,
      });
    }
    return result;
  }

  for (let i = 1; i < records.length; i++) {
    const row = i + 1;
    const cells = records[i].map((cell) => cell.trim());
    if (brokenRows.has(row) || cells.every((cell) => cell === '')) continue;
    const extra = cells.slice(header.length).filter(Boolean).length;
    if (extra) {
      result.errors.push({
        row,
        message:
          `Row ${row} has ${cells.length} cells but the header has ${header.length} columns; ` +
          'cells containing the separator must be in quotes.',
      });
      continue;
    }
    const get = (key: string) => {
      const index = indexOf.get(key);
      return index === undefined ? '' : (cells[index] ?? '');
    };
    const rowErrors: CsvRowError[] = [];
    const fail = (column: string, message: string) => rowErrors.push({ row, column, message: `Row ${row}: ${message}` });
    for (const key of columns.required) {
      if (!get(key)) fail(key, `"${columns.labels[key]}" is empty.`);
    }
    if (rowErrors.length) {
      result.errors.push(...rowErrors);
      continue;
    }
    const body =
      kind === 'events' ? eventBody(get, fail, opts) : kind === 'venues' ? venueBody(get) : organizerBody(get);
    if (rowErrors.length) result.errors.push(...rowErrors);
    else result.rows.push({ row, body });
  }

  if (!result.rows.length && !result.errors.length) {
    result.errors.push({ row: 2, message: 'The file has a header row but no rows to import.' });
  }
  result.errors.sort((a, b) => a.row - b.row);
  return result;
}

function headerResolver(columns: ColumnSet): (header: string) => string | undefined {
  const byName = new Map<string, string>();
  for (const [key, label] of Object.entries(columns.labels)) {
    byName.set(normalizeHeader(key), key);
    byName.set(normalizeHeader(label), key);
  }
  return (header) => byName.get(normalizeHeader(header));
}

type Get = (key: string) => string;
type Fail = (column: string, message: string) => void;

function eventBody(get: Get, fail: Fail, opts: CsvImportOptions): Record<string, unknown> {
  const body: Record<string, unknown> = { title: get('event_name') };
  setText(body, 'description', get('event_description'));
  setText(body, 'excerpt', get('event_excerpt'));

  const allDay = isTrue(get('event_all_day'));
  const start = dateAndTime(get('event_start_date'), get('event_start_time'), 'event_start', fail);
  const endDateCell = get('event_end_date');
  const end = dateAndTime(endDateCell, get('event_end_time'), 'event_end', fail);
  if (start.date) {
    const endDate = end.date ?? start.date;
    if (allDay) {
      body.start_date = `${start.date} 00:00:00`;
      body.end_date = `${endDate < start.date ? start.date : endDate} 23:59:59`;
    } else {
      const startTime = start.time ?? '00:00:00';
      // As in the original: no end at all means "ends when it starts"; an end date without a time
      // means midnight at the start of that day.
      const endTime = end.time ?? (endDateCell ? '00:00:00' : startTime);
      body.start_date = `${start.date} ${startTime}`;
      const endText = `${endDate} ${endTime}`;
      body.end_date = endText < (body.start_date as string) ? body.start_date : endText;
    }
  }

  const zoneCell = get('event_timezone');
  const zone = zoneCell ? apiZone(zoneCell) : opts.siteZone;
  if (zone) body.timezone = zone;
  else fail('event_timezone', `"${zoneCell}" is not a time zone (use an id such as Europe/Lisbon or UTC+2).`);
  body.all_day = allDay;

  setFlag(body, 'hide_from_listings', get('event_hide'));
  setFlag(body, 'sticky', get('event_sticky'));
  setFlag(body, 'featured', get('feature_event'));
  setFlag(body, 'show_map', get('event_show_map'));
  setFlag(body, 'show_map_link', get('event_show_map_link'));

  const venue = get('event_venue_name');
  // The original's column also takes an existing record's id.
  if (venue) body.venue = /^\d+$/.test(venue) ? Number(venue) : { venue };
  const organizers = splitList(get('event_organizer_name'));
  if (organizers.length) {
    body.organizer = organizers.map((name) => (/^\d+$/.test(name) ? Number(name) : { organizer: name }));
  }

  const cost = costWithCurrency(get('event_cost'), get('event_currency_symbol'), get('event_currency_position'));
  if (cost) body.cost = cost;

  const categories = splitList(get('event_category'));
  if (categories.length) body.categories = categories;
  const tags = splitList(get('event_tags'));
  if (tags.length) body.tags = tags;
  setText(body, 'website', get('event_website'));
  setText(body, 'image', get('featured_image'));
  return body;
}

function venueBody(get: Get): Record<string, unknown> {
  const body: Record<string, unknown> = { venue: get('venue_name') };
  setText(body, 'description', get('venue_description'));
  // The original joins the two address lines with a space and files the one state/province
  // column under both keys.
  setText(body, 'address', [get('venue_address'), get('venue_address2')].filter(Boolean).join(' '));
  setText(body, 'city', get('venue_city'));
  setText(body, 'state', get('venue_state'));
  setText(body, 'province', get('venue_state'));
  setText(body, 'zip', get('venue_zip'));
  setText(body, 'country', get('venue_country'));
  setText(body, 'phone', get('venue_phone'));
  setText(body, 'website', get('venue_url'));
  setText(body, 'image', get('featured_image'));
  return body;
}

function organizerBody(get: Get): Record<string, unknown> {
  const body: Record<string, unknown> = { organizer: get('organizer_name') };
  setText(body, 'description', get('organizer_description'));
  setText(body, 'email', get('organizer_email'));
  setText(body, 'website', get('organizer_website'));
  setText(body, 'phone', get('organizer_phone'));
  setText(body, 'image', get('featured_image'));
  return body;
}

function setText(body: Record<string, unknown>, key: string, value: string): void {
  if (value) body[key] = value;
}

/** Flags are only sent when the cell says something, so an empty cell leaves the API default. */
function setFlag(body: Record<string, unknown>, key: string, value: string): void {
  if (value) body[key] = isTrue(value);
}

function isTrue(value: string): boolean {
  return /^(yes|true|1)$/i.test(value.trim());
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `20` + `$` + prefix → `$20`; `20` + `€` + suffix/after → `20€` (the original's aliases). */
function costWithCurrency(cost: string, symbol: string, position: string): string {
  if (!cost || !symbol || cost.includes(symbol) || !/\d/.test(cost)) return cost;
  return /suffix|after|postfix/i.test(position) ? `${cost}${symbol}` : `${symbol}${cost}`;
}

function apiZone(value: string): string | undefined {
  if (/^UTC[+-]\d{1,2}(?::\d{2})?$/i.test(value)) return value.toUpperCase();
  if (/^(utc|gmt|z)$/i.test(value)) return 'UTC';
  return IANAZone.isValidZone(value) ? value : undefined;
}

/* ------------------------------------------------------------------------------------------------
 * Dates and times
 * ---------------------------------------------------------------------------------------------- */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * A date cell (which may carry a time, `2025-03-14 19:00`) plus a time cell; the time cell wins.
 * `date` is missing when the cell is empty or unreadable (the latter reported through `fail`).
 */
function dateAndTime(
  dateCell: string,
  timeCell: string,
  prefix: 'event_start' | 'event_end',
  fail: Fail,
): { date?: string; time?: string } {
  let time: string | undefined;
  if (timeCell) {
    time = parseTime(timeCell);
    if (!time) fail(`${prefix}_time`, `"${timeCell}" is not a time (use 19:00 or 7:00 PM).`);
  }
  if (!dateCell) return { time };

  let date = parseDate(dateCell);
  if (!date) {
    // "2025-03-14 19:00", "2025-03-14T19:00:00", "03/14/2025 7:00 PM"
    const split = /^(.*?\d)(?:\s+|T)(\d{1,2}(?::\d{2}){0,2}(?:\s*[ap]\.?\s*m\.?)?)$/i.exec(dateCell);
    if (split) {
      date = parseDate(split[1]);
      const embedded = parseTime(split[2]);
      if (date && embedded) time ??= embedded;
      else date = undefined;
    }
  }
  if (!date) {
    fail(`${prefix}_date`, `"${dateCell}" is not a date (use 2025-03-14, 03/14/2025 or March 14, 2025).`);
    return { time };
  }
  return { date, time };
}

/** Y-m-d, or undefined. */
export function parseDate(input: string): string | undefined {
  const s = input.trim().replace(/^(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+/i, '');
  let y: number;
  let m: number;
  let d: number;
  let match: RegExpExecArray | null;
  if ((match = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(s))) {
    [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  } else if ((match = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(s))) {
    // Slashes are American month/day/year, as in PHP's strtotime.
    [m, d, y] = [Number(match[1]), Number(match[2]), fullYear(match[3])];
  } else if ((match = /^(\d{1,2})[-.](\d{1,2})[-.](\d{4})$/.exec(s))) {
    // Dashes and dots with the year last are day-month-year, as in PHP's strtotime.
    [d, m, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
  } else if ((match = /^(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]+)\.?,?\s+(\d{4})$/i.exec(s))) {
    [d, m, y] = [Number(match[1]), monthNumber(match[2]), Number(match[3])];
  } else if ((match = /^([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/i.exec(s))) {
    [m, d, y] = [monthNumber(match[1]), Number(match[2]), Number(match[3])];
  } else return undefined;

  if (!(m >= 1 && m <= 12) || d < 1 || d > new Date(Date.UTC(y, m, 0)).getUTCDate() || y < 1000) return undefined;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/** H:i:s, or undefined. */
export function parseTime(input: string): string | undefined {
  const s = input.trim().toLowerCase();
  if (s === 'noon') return '12:00:00';
  if (s === 'midnight') return '00:00:00';
  let match = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([ap])\.?\s*m\.?$/.exec(s);
  if (match) {
    const hour12 = Number(match[1]);
    if (hour12 < 1 || hour12 > 12) return undefined;
    const hour = (hour12 % 12) + (match[4] === 'p' ? 12 : 0);
    return clock(hour, Number(match[2] ?? 0), Number(match[3] ?? 0));
  }
  match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(s);
  if (match) return clock(Number(match[1]), Number(match[2]), Number(match[3] ?? 0));
  return undefined;
}

function clock(h: number, m: number, s: number): string | undefined {
  if (h > 23 || m > 59 || s > 59) return undefined;
  return `${pad(h)}:${pad(m)}:${pad(s)}`;
}

function monthNumber(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;
}

function fullYear(text: string): number {
  const n = Number(text);
  // PHP's two-digit years: 00–69 → 2000s, 70–99 → 1900s.
  return text.length === 2 ? (n < 70 ? 2000 + n : 1900 + n) : n;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
