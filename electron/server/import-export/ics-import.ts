/**
 * iCalendar import: turns a calendar file from Google, Outlook, Thunderbird, Apple (or Almanac's
 * own export) into event bodies for the cal/events/v1 API.
 *
 * The file is first read line by line by our own scanner, which unfolds lines, checks the
 * BEGIN/END structure and the syntax of every line, and remembers where each VEVENT starts: ical.js
 * parses well but reports neither line numbers nor truncation, and a user with a broken file needs
 * to be told where to look. The checked text then goes to ical.js, whose recurrence engine expands
 * RRULE/RDATE/EXDATE and applies RECURRENCE-ID overrides: the calendars and time zones first, then
 * each VEVENT on its own when its UID's turn comes, so that the file is never held parsed whole.
 *
 * Dates come out as local `Y-m-d H:i:s` in the body's IANA `timezone`: a TZID keeps its wall time
 * (Windows zone names are mapped to IANA), UTC times are shown in the calendar's zone, floating
 * times and dates are taken to be in the site zone.
 */
import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import { IANAZone } from 'luxon';
import { X, epochOfWall as epochOfWallNow, splitTextList, unescapeText, vtimezoneLines, wallOfEpoch as wallOfEpochNow } from './ics-export';
import { BoundedMemo } from '../store/bounded-memo';

type IcalComponent = InstanceType<typeof ICAL.Component>;
type IcalProperty = InstanceType<typeof ICAL.Property>;
type IcalTime = InstanceType<typeof ICAL.Time>;
type IcalEvent = InstanceType<typeof ICAL.Event>;
type IcalTimezone = InstanceType<typeof ICAL.Timezone>;

export interface ImportProblem {
  line: number;
  message: string;
}

export interface VenueBody {
  venue: string;
  address?: string;
  city?: string;
  country?: string;
  state?: string;
  province?: string;
  zip?: string;
  phone?: string;
  website?: string;
  geo_lat?: number;
  geo_lng?: number;
}

export interface OrganizerBody {
  organizer: string;
  email?: string;
  phone?: string;
  website?: string;
}

/** An event body as `POST /events` takes it (reference §5.1). */
export interface EventBody {
  title: string;
  description?: string;
  excerpt?: string;
  slug?: string;
  status?: string;
  /** Publication date in UTC, from CREATED. */
  date_utc?: string;
  start_date: string;
  end_date: string;
  timezone: string;
  all_day: boolean;
  image?: string;
  cost?: string | string[];
  website?: string;
  show_map?: boolean;
  show_map_link?: boolean;
  hide_from_listings?: boolean;
  sticky?: boolean;
  featured?: boolean;
  categories?: string[];
  tags?: string[];
  venue?: VenueBody;
  organizer?: OrganizerBody[];
  i18n_language?: string;
}

export interface ImportedEvent {
  /**
   * What a re-import matches on: the VEVENT's UID, or for an occurrence of a recurring series
   * `<UID>#<occurrence key>` where the key is the RECURRENCE-ID value (`20240105T090000`,
   * `20240105` for dates, a trailing `Z` for UTC series).
   */
  uid: string;
  /** For the second and later occurrences of a series: the `uid` of its first imported occurrence. */
  recurrenceOf?: string;
  /** Line of the VEVENT's BEGIN in the file (of the override, for a replaced occurrence). */
  line: number;
  body: EventBody;
}

export interface IcsImportResult {
  events: ImportedEvent[];
  errors: ImportProblem[];
  warnings: ImportProblem[];
}

export interface IcsImportOptions {
  /** Zone for floating times and dates, and for UTC times when the calendar names no zone. */
  siteZone: string;
  /** Occurrences of recurring events starting in [start, end) are imported. */
  window?: { start: Date; end: Date };
  /** "Today" for the default window (series start … two years from now). */
  now?: Date;
  /** Most occurrences imported per series (default 1000). */
  maxOccurrences?: number;
  /** Called about every 1% of the VEVENTs scanned, and at the end with the exact count (`openIcs`). */
  onProgress?: (done: number, total: number) => void;
}

const DEFAULT_MAX_OCCURRENCES = 1000;
/** Recurrence steps examined per series; stops runaway rules (FREQ=SECONDLY since 1970). */
const MAX_RECURRENCE_STEPS = 200_000;
const MAX_REPORTED_SYNTAX_ERRORS = 20;
const UNTITLED = '(No title)';

export function parseIcs(text: string, opts: IcsImportOptions): IcsImportResult {
  const file = openIcs(text, opts);
  const events: ImportedEvent[] = [];
  const result = file.read((event) => events.push(event));
  if (result.unreadable || file.broken) return { events: [], errors: result.errors, warnings: result.warnings };
  return { events, errors: result.errors, warnings: result.warnings };
}

/** A scanned file, whose events are made (and can be made again, the same) one VEVENT at a time. */
export interface IcsFile {
  /** VEVENTs in the file. */
  vevents: number;
  /** The scan found syntax or structure errors: `read` gives only those. */
  broken: boolean;
  /**
   * Makes the events, in order, handing each to `onEvent` as soon as its UID's VEVENTs are read
   * (nothing is kept); `onRead` counts the VEVENTs read. Returns the problems (those of the
   * scan included). `unreadable`: ical.js could not parse part of the file, which refuses all of it
   * (events already handed over are to be discarded).
   */
  read(onEvent: (event: ImportedEvent) => void, onRead?: (n: number) => void): { errors: ImportProblem[]; warnings: ImportProblem[]; unreadable?: boolean };
  /** Lets go of what reading holds when `read` will not be called (a file read on a thread). */
  close?(): void;
}

/**
 * Scans a file (checks its syntax and structure, finds its VEVENTs); `opts.onProgress` is told
 * about every 1% of the VEVENTs scanned, and at the end.
 */
export function openIcs(text: string, opts: IcsImportOptions): IcsFile {
  if (!apiZone(opts.siteZone)) throw new TypeError(`parseIcs: siteZone "${opts.siteZone}" is not a time zone`);
  const progress = opts.onProgress && scanProgress(text, opts.onProgress);
  const scan = scanCalendar(text, progress?.scanned);
  progress?.end(scan.vevents.length);
  if (scan.errors.length) {
    return { vevents: scan.vevents.length, broken: true, read: () => ({ errors: [...scan.errors], warnings: [...scan.warnings] }) };
  }
  return { vevents: scan.vevents.length, broken: false, read: (onEvent, onRead) => readEvents(text, scan, opts, onEvent, onRead) };
}

function readEvents(
  text: string,
  scan: Scan,
  opts: IcsImportOptions,
  onEvent: (event: ImportedEvent) => void,
  onRead?: (n: number) => void,
): { errors: ImportProblem[]; warnings: ImportProblem[]; unreadable?: boolean } {
  const result: IcsImportResult = { events: [], errors: [], warnings: [...scan.warnings] };
  // What ical.js cannot parse, anywhere in the file, makes the whole file unreadable.
  const unreadable = (err: unknown) => ({
    errors: [{ line: 1, message: `The file could not be read as iCalendar: ${messageOf(wholeFileError(text) ?? err)}` }],
    warnings: [...scan.warnings],
    unreadable: true,
  });

  // The calendars and their time zones first; each VEVENT is read on its own when its turn comes.
  let roots: IcalComponent[];
  try {
    const jcal = ICAL.parse(scan.skeleton);
    const list = typeof jcal[0] === 'string' ? [jcal] : jcal;
    roots = list.map((c: unknown) => new ICAL.Component(c as unknown[]));
  } catch (err) {
    return unreadable(err);
  }

  const now = opts.now ?? new Date();
  const windowEnd = opts.window?.end ?? new Date(Date.UTC(now.getUTCFullYear() + 2, now.getUTCMonth(), now.getUTCDate()));
  const zones = new Zones(roots, scan, opts.siteZone, result.warnings);
  zones.register(scan.years.min - 1, Math.max(scan.years.max, windowEnd.getUTCFullYear()) + 1);
  try {
    const importer = new Importer(opts, windowEnd, zones, result, onEvent);
    importer.run(collectEntries(text, roots, scan, result), onRead);
  } catch (err) {
    if (err instanceof Unreadable) return unreadable(err.reason);
    throw err;
  } finally {
    zones.unregister();
  }
  return { errors: result.errors, warnings: result.warnings };
}

/** The error ical.js gives for the whole file (the first in it), as when it was parsed at once. */
function wholeFileError(text: string): unknown {
  const lines: string[] = [];
  unfoldLines(text, text.charCodeAt(0) === 0xfeff ? 1 : 0, text.length, 1, (s) => lines.push(s));
  try {
    ICAL.parse(lines.join('\r\n') + '\r\n');
  } catch (err) {
    return err;
  }
  return undefined;
}

/** Progress of the scan in VEVENTs: about every 1%, and once at the end with the exact count. */
function scanProgress(text: string, report: (done: number, total: number) => void) {
  // Until the scan has counted them exactly, a plain count of the BEGIN lines stands in.
  let vevents = 0;
  for (let at = text.indexOf('BEGIN:VEVENT'); at >= 0; at = text.indexOf('BEGIN:VEVENT', at + 12)) vevents++;
  const step = Math.max(1, Math.floor(vevents / 100));
  let done = 0;
  return {
    scanned() {
      done++;
      if (done % step === 0) report(done, Math.max(done, vevents));
    },
    end(exact: number) {
      report(exact, exact);
    },
  };
}

/* ------------------------------------------------------------------------------------------------
 * Line scanner: unfolding, syntax, structure and line numbers
 * ---------------------------------------------------------------------------------------------- */

/**
 * A VEVENT directly inside a VCALENDAR, as the scan found it: where its text is, so that it can be
 * read with ical.js on its own when its turn comes instead of the whole file at once.
 */
interface VeventBlock {
  line: number;
  /** Offsets of its text in the file: from its BEGIN line to the start of the next logical line. */
  start: number;
  end: number;
  /** Index of its VCALENDAR among the file's. */
  root: number;
  /** Its UID as written (no parameters), `null` if that is not enough to know what ical.js reads. */
  uidRaw?: string | null;
  /** It has a RECURRENCE-ID of its own. */
  recurrence: boolean;
}

interface VeventInfo {
  line: number;
  /** First line of each property (upper-case name) directly inside this VEVENT. */
  propLines: Map<string, number>;
  /** That line as written, for messages. */
  propText: Map<string, string>;
}

interface Scan {
  /** The unfolded lines outside of the VEVENTs (calendars, time zones), CRLF-joined, for ical.js. */
  skeleton: string;
  vevents: VeventBlock[];
  /** TZIDs referenced by properties, with the line of the first reference. */
  tzids: Map<string, number>;
  years: { min: number; max: number };
  errors: ImportProblem[];
  warnings: ImportProblem[];
}

interface ContentLine {
  name: string;
  params: Map<string, string[]>;
  value: string;
}

const DATE_PROPERTIES = new Set(['DTSTART', 'DTEND', 'DUE', 'RECURRENCE-ID', 'RDATE', 'EXDATE']);

/** Property names that are neither X- nor in ical.js's design set but occur in real files. */
const EXTRA_KNOWN_PROPERTIES = new Set([
  'COLOR', 'IMAGE', 'CONFERENCE', 'NAME', 'REFRESH-INTERVAL', 'SOURCE', 'ACKNOWLEDGED', 'TZUNTIL',
  'TZID-ALIAS-OF', 'STYLED-DESCRIPTION', 'STRUCTURED-DATA', 'PROXIMITY', 'LOCATION-TYPE',
  'PARTICIPANT-TYPE', 'CALENDAR-ADDRESS', 'RESOURCE-TYPE', 'BUSYTYPE', 'ESTIMATED-DURATION',
]);

/**
 * The logical lines of `text[from, to)`: physical lines (split at CRLF, LF or CR) unfolded (a line
 * starting with a space or tab continues the previous one), blank lines skipped. `onLine` gets each
 * with the number of its first physical line (the first one in the range is `firstLine`) and the
 * offset where the next logical line starts (or `to`). Returns the number of physical lines; a
 * final line break does not start another line. Walks the text without copying it.
 */
function unfoldLines(
  text: string,
  from: number,
  to: number,
  firstLine: number,
  onLine: (s: string, line: number, next: number) => void,
  onStray?: (line: number) => void,
): number {
  let pending: string | undefined;
  let pendingLine = 0;
  let line = firstLine - 1;
  let cr = -2;
  let lf = -2;
  let at = from;
  while (at < to) {
    line++;
    if (cr !== -1 && cr < at) cr = text.indexOf('\r', at);
    if (lf !== -1 && lf < at) lf = text.indexOf('\n', at);
    let end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
    let next: number;
    if (end === -1 || end >= to) {
      end = to;
      next = to;
    } else {
      next = end + (end === cr && lf === end + 1 ? 2 : 1);
    }
    const first = text.charCodeAt(at);
    if (first === 32 || first === 9) {
      if (pending !== undefined) pending += text.slice(at + 1, end);
      else onStray?.(line);
    } else {
      const raw = text.slice(at, end);
      if (raw.trim() !== '') {
        if (pending !== undefined) onLine(pending, pendingLine, at);
        pending = raw;
        pendingLine = line;
      }
    }
    at = next;
  }
  if (pending !== undefined) onLine(pending, pendingLine, to);
  return line - firstLine + 1;
}

function scanCalendar(text: string, onVevent?: () => void): Scan {
  const errors: ImportProblem[] = [];
  const warnings: ImportProblem[] = [];
  const vevents: VeventBlock[] = [];
  const tzids = new Map<string, number>();
  const years = { min: Infinity, max: -Infinity };
  const skeleton: string[] = [];
  const fail = (line: number, message: string) => {
    if (errors.length < MAX_REPORTED_SYNTAX_ERRORS) errors.push({ line, message });
  };
  const known = new Map<string, boolean>();
  const knownProperty = (name: string) => {
    let yes = known.get(name);
    if (yes === undefined) {
      yes = name.startsWith('X-') || EXTRA_KNOWN_PROPERTIES.has(name) || name.toLowerCase() in ICAL.design.icalendar.property;
      known.set(name, yes);
    }
    return yes;
  };

  const stack: { name: string; line: number }[] = [];
  let currentEvent: VeventBlock | undefined;
  /** The VEVENT just closed, whose text ends where the next logical line starts. */
  let closing: VeventBlock | undefined;
  const ignoredComponents = new Map<string, number>();
  let firstLine: { text: string; line: number } | undefined;
  let notCalendar = false;
  let roots = 0;
  let lineStart = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  const onLine = (lineText: string, line: number, next: number) => {
    const at = lineStart;
    lineStart = next;
    if (closing) {
      closing.end = at;
      closing = undefined;
    }
    if (!firstLine) {
      firstLine = { text: lineText, line };
      if (lineText.trim().toUpperCase() !== 'BEGIN:VCALENDAR') notCalendar = true;
    }
    if (notCalendar) return;
    const parsed = parseContentLine(lineText);
    if (typeof parsed === 'string') {
      fail(line, `Line ${line} is not a valid iCalendar line (${parsed}): "${snippet(lineText)}".`);
      return;
    }
    const name = parsed.name.toUpperCase();
    const top = stack[stack.length - 1];
    let inBlock = currentEvent !== undefined;

    if (name === 'BEGIN') {
      const component = parsed.value.trim().toUpperCase();
      if (!top && component !== 'VCALENDAR') {
        fail(line, `Line ${line}: "BEGIN:${component}" is outside of any calendar (BEGIN:VCALENDAR … END:VCALENDAR).`);
      }
      if (!top) roots++;
      if (component === 'VEVENT' && top?.name === 'VCALENDAR') {
        currentEvent = { line, start: at, end: at, root: roots - 1, recurrence: false };
        vevents.push(currentEvent);
        inBlock = true;
        onVevent?.();
      } else if (top?.name === 'VCALENDAR' && ['VTODO', 'VJOURNAL', 'VFREEBUSY'].includes(component)) {
        ignoredComponents.set(component, (ignoredComponents.get(component) ?? 0) + 1);
      }
      stack.push({ name: component, line });
    } else if (name === 'END') {
      const component = parsed.value.trim().toUpperCase();
      if (!top) {
        fail(line, `Line ${line}: "END:${component}" has no matching BEGIN.`);
        return;
      }
      if (top.name !== component) {
        fail(line, `Line ${line}: "END:${component}" does not close "BEGIN:${top.name}" from line ${top.line}.`);
        // Resynchronise on the component being closed, if it is open further down.
        const depth = stack.map((c) => c.name).lastIndexOf(component);
        if (depth < 0) return;
        stack.length = depth + 1;
      }
      const closed = stack.pop();
      if (closed?.name === 'VEVENT' && stack[stack.length - 1]?.name === 'VCALENDAR' && currentEvent) {
        closing = currentEvent;
        currentEvent = undefined;
      }
    } else {
      if (!top) {
        fail(line, `Line ${line}: "${snippet(lineText)}" is outside of any calendar (BEGIN:VCALENDAR … END:VCALENDAR).`);
        return;
      }
      if (top.name === 'VEVENT' && currentEvent) {
        if (stack.length === 2) {
          // What ical.js will read as the UID, when that is plain: no parameters, a non-empty value.
          if (name === 'UID' && currentEvent.uidRaw === undefined) {
            currentEvent.uidRaw = parsed.params === NO_PARAMETERS && parsed.value.trim() !== '' ? parsed.value : null;
          } else if (name === 'RECURRENCE-ID') currentEvent.recurrence = true;
        }
        if (!knownProperty(name)) {
          warnings.push({
            line,
            message:
              `Line ${line}: unknown property "${parsed.name}" ignored. If it belongs to the line before, ` +
              'the leading space that continues a folded line is missing.',
          });
        }
      }
      if (DATE_PROPERTIES.has(name)) {
        const tzid = parsed.params.get('TZID')?.[0];
        if (tzid && !tzids.has(tzid)) tzids.set(tzid, line);
        // Only event dates: VTIMEZONE observances start in 1601 (Outlook) or 1970.
        const year = top.name === 'VEVENT' ? /^(\d{4})\d{4}/.exec(parsed.value.trim()) : null;
        if (year) {
          years.min = Math.min(years.min, Number(year[1]));
          years.max = Math.max(years.max, Number(year[1]));
        }
      }
    }
    if (!inBlock) skeleton.push(lineText);
  };
  const physical = unfoldLines(text, lineStart, text.length, 1, onLine, (line) =>
    fail(line, `Line ${line} starts with a space, but there is no line before it to continue.`),
  );
  if (closing) closing.end = text.length;
  // An empty file still has one (empty) line.
  const lastLine = Math.max(1, physical);

  if (!firstLine) {
    return { skeleton: '', vevents: [], tzids, years, warnings, errors: [{ line: 1, message: 'The file is empty.' }] };
  }
  if (notCalendar) {
    // Only a stray continuation before the first line can come first; the scan stopped here before.
    const errorsOnly = [{
      line: firstLine.line,
      message: `This is not an iCalendar file: line ${firstLine.line} should be "BEGIN:VCALENDAR" but is "${snippet(firstLine.text)}".`,
    }];
    return { skeleton: '', vevents: [], tzids, years, warnings, errors: errorsOnly };
  }

  if (stack.length) {
    const open = stack.map((c) => `${c.name} (line ${c.line})`).join(' > ');
    const missing = [...stack].reverse().map((c) => `END:${c.name}`).join(', ');
    fail(lastLine, `The file ends at line ${lastLine} inside ${open}: it looks truncated (missing ${missing}).`);
  }
  if (!errors.length && !vevents.length) {
    const others = [...ignoredComponents].map(([c, n]) => `${n} ${c}`).join(', ');
    errors.push({
      line: 1,
      message: `The calendar contains no events (no BEGIN:VEVENT)${others ? `; it only has ${others}, which Almanac does not import` : ''}.`,
    });
  }
  for (const [component, count] of ignoredComponents) {
    if (vevents.length) warnings.push({ line: 1, message: `${count} ${component} component(s) ignored: only events (VEVENT) are imported.` });
  }
  if (!Number.isFinite(years.min)) {
    const year = new Date().getUTCFullYear();
    years.min = year;
    years.max = year;
  }
  errors.sort((a, b) => a.line - b.line);
  return { skeleton: skeleton.join('\r\n') + '\r\n', vevents, tzids, years, errors, warnings };
}

/**
 * One VEVENT read with ical.js on its own, as a child of its calendar (whose VTIMEZONEs its times
 * are read with, as when the whole file was parsed at once).
 */
function readBlock(text: string, block: VeventBlock, root: IcalComponent): { component: IcalComponent; info: VeventInfo } {
  let jcal: unknown[];
  try {
    jcal = veventJcal(text, block);
  } catch (err) {
    throw new Unreadable(err);
  }
  return { component: new ICAL.Component(jcal as never, root), info: new LazyInfo(text, block) };
}

/** ical.js's parser internals, for lines without parameters (see `veventJcal`). */
interface IcalDesignSet {
  property: Record<string, { multiValue?: string; structuredValue?: string; detectType?(value: string): string; defaultType?: string }>;
  propertyGroups?: boolean;
}
const icalParse = ICAL.parse as unknown as {
  _parseValue(value: string, type: string, design: IcalDesignSet, structured: boolean | string): unknown;
  _parseMultiValue(value: string, delim: string, type: string, result: unknown[], inner: string | null, design: IcalDesignSet, structured: boolean | string): unknown;
  property(line: string, design: IcalDesignSet): unknown[];
};

/** A block `veventJcal` leaves to ICAL.parse whole (see there). */
class UnusualBlock extends Error {}

/**
 * A VEVENT's jCal, as `ICAL.parse` makes it from the block's text: BEGIN and END nest components,
 * every other line is a property. Most lines have no parameters (`NAME:value`); those are turned
 * into jCal here with ical.js's own value parsers, following its line parser step by step, which
 * took a third of reading a file mostly in its generic work (parameters, groups, vCard). Lines with
 * parameters go to ical.js's line parser, and anything it would treat differently from a calendar
 * (vCard components, grouped names) to `ICAL.parse` with the whole block, as before.
 */
function veventJcal(text: string, block: VeventBlock): unknown[] {
  const lines: string[] = [];
  unfoldLines(text, block.start, block.end, block.line, (s) => void lines.push(s));
  try {
    return jcalOfLines(lines);
  } catch (err) {
    if (!(err instanceof UnusualBlock)) throw err;
    return ICAL.parse(lines.join('\r\n') + '\r\n') as unknown[];
  }
}

/** A VEVENT's unfolded lines as jCal (throws UnusualBlock for what only ICAL.parse may read); exported for its tests. */
export function jcalOfLines(lines: string[]): unknown[] {
  const stack: unknown[][] = [];
  let component: unknown[] | undefined;
  let first: unknown[] | undefined;
  let design: IcalDesignSet | undefined;
  for (let i = 0; i < lines.length; i++) {
    // ICAL.parse trims the last line of its input.
    const s = i === lines.length - 1 ? lines[i].trim() : lines[i];
    if (!s) continue;
    const valuePos = s.indexOf(':');
    const paramPos = s.indexOf(';');
    const plain = valuePos !== -1 && (paramPos === -1 || paramPos > valuePos);
    const name = plain ? s.slice(0, valuePos).toLowerCase() : '';
    if (name === 'begin') {
      const child: unknown[] = [s.slice(valuePos + 1).toLowerCase(), [], []];
      if (child[0] === 'vcard') throw new UnusualBlock();
      if (component) {
        (component[2] as unknown[][]).push(child);
        stack.push(component);
      } else if (first) throw new UnusualBlock();
      else first = child;
      component = child;
      design ??= ICAL.design.getDesignSet(child[0] as string) as unknown as IcalDesignSet;
    } else if (name === 'end') {
      component = stack.pop();
    } else {
      if (!component || !design) throw new UnusualBlock();
      if (!plain || (design.propertyGroups && name.includes('.'))) {
        (component[1] as unknown[]).push(icalParse.property(s, design));
      } else {
        (component[1] as unknown[]).push(plainProperty(name, s.slice(valuePos + 1), design));
      }
    }
  }
  if (stack.length || component || !first) throw new UnusualBlock();
  return first;
}

/** What ical.js's `parse._handleContentLine` makes of `name:value` (no parameters). */
function plainProperty(name: string, value: string, design: IcalDesignSet): unknown[] {
  let multiValue: string | false = false;
  let structuredValue: string | false = false;
  let valueType: string | undefined;
  const details = name in design.property ? design.property[name] : undefined;
  if (details) {
    if ('multiValue' in details) multiValue = details.multiValue!;
    if ('structuredValue' in details) structuredValue = details.structuredValue!;
    if (value && 'detectType' in details) valueType = details.detectType!(value);
  }
  valueType ||= details ? details.defaultType! : 'unknown';
  const params = {};
  if (multiValue && structuredValue) {
    return [name, params, valueType, icalParse._parseMultiValue(value, structuredValue, valueType, [], multiValue, design, structuredValue)];
  }
  if (multiValue) {
    const result: unknown[] = [name, params, valueType];
    icalParse._parseMultiValue(value, multiValue, valueType, result, null, design, false);
    return result;
  }
  if (structuredValue) {
    return [name, params, valueType, icalParse._parseMultiValue(value, structuredValue, valueType, [], null, design, structuredValue)];
  }
  return [name, params, valueType, icalParse._parseValue(value, valueType, design, false)];
}

/**
 * Where each property of a VEVENT is, worked out only when a message needs it: most events need
 * none, and finding them for every event cost a tenth of reading the file.
 */
class LazyInfo implements VeventInfo {
  readonly line: number;
  private found?: { propLines: Map<string, number>; propText: Map<string, string> };

  constructor(
    private readonly text: string,
    private readonly block: VeventBlock,
  ) {
    this.line = block.line;
  }

  get propLines(): Map<string, number> {
    return (this.found ??= this.find()).propLines;
  }

  get propText(): Map<string, string> {
    return (this.found ??= this.find()).propText;
  }

  private find() {
    const propLines = new Map<string, number>();
    const propText = new Map<string, string>();
    const open: string[] = [];
    unfoldLines(this.text, this.block.start, this.block.end, this.block.line, (s, line) => {
      const name = nameOf(s);
      if (name === 'BEGIN') open.push((parseContentLine(s) as ContentLine).value.trim().toUpperCase());
      else if (name === 'END') open.pop();
      else if (open[open.length - 1] === 'VEVENT' && !propLines.has(name)) {
        propLines.set(name, line);
        propText.set(name, s);
      }
    });
    return { propLines, propText };
  }
}

/** The upper-case name of a line that the scan found valid: up to its first `;` or `:`. */
function nameOf(s: string): string {
  let i = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 59 || c === 58) break;
  }
  return s.slice(0, i).toUpperCase();
}

/** ical.js could not parse part of the file: the whole file is then unreadable, as before. */
class Unreadable extends Error {
  constructor(readonly reason: unknown) {
    super('unreadable');
  }
}

/** Splits `NAME;PARAM=a,"b";P2=c:value`; returns a description of the problem if it is malformed. */
const NO_PARAMETERS = new Map<string, string[]>();

function parseContentLine(s: string): ContentLine | string {
  // Most lines are `NAME:value`; they need none of the parameter parsing below (nor a regex: the
  // scan asks this of every line of the file).
  let end = 0;
  for (; end < s.length; end++) {
    const c = s.charCodeAt(end);
    if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45)) break;
  }
  if (end > 0 && s.charCodeAt(end) === 58) return { name: s.slice(0, end), params: NO_PARAMETERS, value: s.slice(end + 1) };
  const name = /^[A-Za-z0-9-]+/.exec(s)?.[0];
  if (!name) return s.includes(':') ? 'it does not start with a property name' : 'no ":" separator; a folded line must start with a space';
  const params = new Map<string, string[]>();
  let i = name.length;
  while (s[i] === ';') {
    const paramName = /^([A-Za-z0-9-]+)=/.exec(s.slice(i + 1));
    if (!paramName) return `malformed parameter after "${name}"`;
    i += 1 + paramName[0].length;
    const values: string[] = [];
    for (;;) {
      if (s[i] === '"') {
        const close = s.indexOf('"', i + 1);
        if (close < 0) return `unterminated quoted value of parameter ${paramName[1]}`;
        values.push(s.slice(i + 1, close));
        i = close + 1;
      } else {
        let j = i;
        while (j < s.length && !';:,"'.includes(s[j])) j++;
        values.push(s.slice(i, j));
        i = j;
      }
      if (s[i] !== ',') break;
      i++;
    }
    params.set(paramName[1].toUpperCase(), values);
  }
  if (s[i] !== ':') {
    return s.includes(':')
      ? `expected ":" after "${s.slice(0, i)}"`
      : 'no ":" separator; a folded line must start with a space';
  }
  return { name, params, value: s.slice(i + 1) };
}

function snippet(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/* ------------------------------------------------------------------------------------------------
 * Time zones
 * ---------------------------------------------------------------------------------------------- */

type ZoneResolution = { zone: string } | { custom: IcalComponent } | { unknown: true };

/**
 * The TZIDs of one file: what IANA zone each stands for, and their registration with ical.js for
 * the duration of the import (its recurrence engine compares UNTIL, EXDATE and RECURRENCE-ID values
 * across zones, which needs real offsets).
 */
class Zones {
  private readonly definitions = new Map<string, { component: IcalComponent; line: number }>();
  private readonly resolutions = new Map<string, ZoneResolution>();
  private readonly registered: string[] = [];

  constructor(
    roots: IcalComponent[],
    private readonly scan: Scan,
    private readonly siteZone: string,
    private readonly warnings: ImportProblem[],
  ) {
    for (const root of roots) {
      for (const vtimezone of root.getAllSubcomponents('vtimezone')) {
        const tzid = vtimezone.getFirstPropertyValue('tzid');
        if (typeof tzid === 'string' && !this.definitions.has(tzid)) {
          this.definitions.set(tzid, { component: vtimezone, line: scan.tzids.get(tzid) ?? 1 });
        }
      }
    }
  }

  register(fromYear: number, toYear: number): void {
    for (const tzid of this.scan.tzids.keys()) {
      const resolution = this.resolve(tzid);
      if (ICAL.TimezoneService.has(tzid)) continue;
      let timezone: IcalTimezone | undefined;
      try {
        const definition = this.definitions.get(tzid);
        if (definition) {
          // The file's own definition is what its producer computed the times with.
          timezone = new ICAL.Timezone(definition.component);
        } else if ('zone' in resolution) {
          const lines = vtimezoneLines(resolution.zone, fromYear, toYear, tzid);
          timezone = new ICAL.Timezone(new ICAL.Component(ICAL.parse(lines.join('\r\n'))));
        }
      } catch (err) {
        this.warnings.push({
          line: this.scan.tzids.get(tzid) ?? 1,
          message: `The definition of time zone "${tzid}" could not be read (${messageOf(err)}).`,
        });
      }
      if (timezone) {
        ICAL.TimezoneService.register(timezone, tzid);
        this.registered.push(tzid);
      }
    }
  }

  unregister(): void {
    for (const tzid of this.registered) ICAL.TimezoneService.remove(tzid);
    this.registered.length = 0;
  }

  resolve(tzid: string): ZoneResolution {
    const cached = this.resolutions.get(tzid);
    if (cached) return cached;
    const definition = this.definitions.get(tzid);
    const location = definition?.component.getFirstPropertyValue('x-lic-location');
    // Fractional offsets (`UTC+5:30`, which Almanac itself writes) have no IANA equivalent.
    const iana =
      ianaZoneFor(tzid) ?? (typeof location === 'string' ? ianaZoneFor(location) : undefined) ?? offsetZone(tzid);
    let resolution: ZoneResolution;
    const line = this.scan.tzids.get(tzid) ?? definition?.line ?? 1;
    if (iana) resolution = { zone: iana };
    else if (definition) {
      resolution = { custom: definition.component };
      this.warnings.push({
        line,
        message: `Time zone "${tzid}" is not a known zone; its times were converted with the file's definition and shown in ${this.siteZone}.`,
      });
    } else {
      resolution = { unknown: true };
      this.warnings.push({
        line,
        message: `Time zone "${tzid}" is unknown and the file does not define it; its times were read as ${this.siteZone} times.`,
      });
    }
    this.resolutions.set(tzid, resolution);
    return resolution;
  }
}

/**
 * The IANA zone a TZID stands for: IANA ids as they are, Windows names through CLDR's table,
 * vendor-prefixed ids (`/mozilla.org/20050126_1/Europe/Berlin`) by their tail, whole-hour
 * `UTC+2`/`GMT-5` as `Etc/GMT∓n`.
 */
export function ianaZoneFor(tzid: string): string | undefined {
  const id = tzid.trim().replace(/^"(.*)"$/, '$1').trim();
  if (!id) return undefined;
  const valid = validIana(id);
  if (valid) return valid;
  const windows = WINDOWS_ZONES[id.toLowerCase()];
  if (windows) return windows;
  const segments = id.split('/').filter(Boolean);
  for (let n = Math.min(3, segments.length); n >= 2; n--) {
    const tail = validIana(segments.slice(-n).join('/'));
    if (tail) return tail;
  }
  const offset = /^(?:UTC|GMT)\s*([+-])(\d{1,2})(?::?00)?$/i.exec(id);
  if (offset && Number(offset[2]) <= 14) {
    const hours = Number(offset[2]);
    return hours === 0 ? 'UTC' : `Etc/GMT${offset[1] === '+' ? '-' : '+'}${hours}`;
  }
  return undefined;
}

const validIanaCache = new Map<string, string | undefined>();

function validIana(id: string): string | undefined {
  if (validIanaCache.has(id)) return validIanaCache.get(id);
  let valid: string | undefined;
  if (IANAZone.isValidZone(id)) {
    // Intl accepts any letter case; keep the canonical spelling, but never swap an alias for another.
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: id }).resolvedOptions().timeZone;
    valid = resolved.toLowerCase() === id.toLowerCase() ? resolved : id;
  }
  validIanaCache.set(id, valid);
  return valid;
}

/** A zone the API accepts in `timezone`: an IANA id or the `UTC+2` / `UTC-5:30` offset form. */
function apiZone(value: string | undefined): string | undefined {
  if (!value) return undefined;
  return offsetZone(value) ?? validIana(value.trim());
}

function offsetZone(value: string): string | undefined {
  const v = value.trim();
  return /^UTC[+-]\d{1,2}(?::\d{2})?$/i.test(v) ? v.toUpperCase() : undefined;
}

/* ------------------------------------------------------------------------------------------------
 * Events
 * ---------------------------------------------------------------------------------------------- */

interface Entry {
  block: VeventBlock;
  /** Read when the event's turn comes (see `load`), and dropped after. */
  component: IcalComponent;
  info: VeventInfo;
  uid: string;
  /** It has a RECURRENCE-ID: an occurrence of a series. */
  override: boolean;
  /** X-WR-TIMEZONE of the calendar the event is in. */
  calendarZone?: string;
  root: IcalComponent;
  text: string;
}

const NOT_READ = null as unknown as IcalComponent;

function collectEntries(text: string, roots: IcalComponent[], scan: Scan, result: IcsImportResult): Entry[] {
  const entries: Entry[] = [];
  const zoneOfRoot = roots.map((root) => apiZone(stringProperty(root, 'x-wr-timezone')));
  const unescapeUid = (ICAL.design.icalendar.value as Record<string, { fromICAL(s: string): string }>).text.fromICAL;
  for (const block of scan.vevents) {
    const root = roots[block.root];
    const entry: Entry = {
      block, component: NOT_READ, info: unread(block),
      uid: '', override: block.recurrence, calendarZone: zoneOfRoot[block.root], root, text,
    };
    let uid = block.uidRaw ? unescapeUid(block.uidRaw).trim() : undefined;
    if (!uid) {
      // A UID with parameters, an empty one or none: what ical.js reads decides.
      load(entry);
      entry.override = hasProp(entry.component, 'recurrence-id');
      uid = stringProperty(entry.component, 'uid')?.trim();
    }
    if (!uid) {
      uid = syntheticUid(entry.component);
      result.warnings.push({
        line: block.line,
        message:
          `The event at line ${block.line} has no UID; a re-import will recognise it only if its title, ` +
          'times and location are unchanged.',
      });
    }
    entry.uid = uid;
    entries.push(entry);
  }
  return entries;
}

/** Reads an entry's VEVENT with ical.js, if not done yet. */
function load(entry: Entry): void {
  if (entry.component !== NOT_READ) return;
  const { component, info } = readBlock(entry.text, entry.block, entry.root);
  entry.component = component;
  entry.info = info;
}

/** Forgets an entry's ical.js reading once its events are made. */
function unload(entry: Entry): void {
  entry.component = NOT_READ;
  entry.info = unread(entry.block);
}

const NO_LINES = new Map<string, never>();

/** What is known of a VEVENT's lines before it is read: where it starts. */
function unread(block: VeventBlock): VeventInfo {
  return { line: block.line, propLines: NO_LINES, propText: NO_LINES };
}

/** Stable across re-imports of the same content, so that even UID-less events are matched. */
function syntheticUid(component: IcalComponent): string {
  const raw = ['summary', 'dtstart', 'dtend', 'location']
    .map((name) => component.getFirstProperty(name)?.toICALString() ?? '')
    .join('\n');
  return `almanac-import-${createHash('sha256').update(raw).digest('hex').slice(0, 32)}@local`;
}

/** A problem with one event (or one property of it), reported and skipped without failing the file. */
class EventProblem extends Error {
  constructor(
    message: string,
    readonly property?: string,
  ) {
    super(message);
  }
}

interface Span {
  start: string;
  end: string;
  zone: string;
  allDay: boolean;
  startMs: number;
}

interface Occurrence {
  key: string;
  startMs: number;
  line: number;
  body: EventBody;
}

type EventFields = Omit<EventBody, 'start_date' | 'end_date' | 'timezone' | 'all_day'>;

/** Occurrences share their VEVENT's fields; each body gets its own copy so that editing one is safe. */
function copyFields<T extends object>(fields: T): T {
  const copy = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(copy) : value && typeof value === 'object' ? { ...value } : value;
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, copy(value)])) as T;
}

const EMPTY_GROUP: { master?: Entry; overrides: Entry[] } = { overrides: [] };

class Importer {
  private readonly maxOccurrences: number;
  private readonly fieldCache = new Map<IcalComponent, EventFields>();
  /** The events of the UID being read, handed over once it is done (not from inside `guard`). */
  private made: ImportedEvent[] = [];

  constructor(
    private readonly opts: IcsImportOptions,
    private readonly windowEnd: Date,
    private readonly zones: Zones,
    private readonly result: IcsImportResult,
    private readonly onEvent: (event: ImportedEvent) => void,
  ) {
    this.maxOccurrences = opts.maxOccurrences ?? DEFAULT_MAX_OCCURRENCES;
  }

  run(entries: Entry[], onRead?: (n: number) => void): void {
    // Group by UID, keeping the order in which each UID first appears in the file.
    const groups = new Map<string, { master?: Entry; overrides: Entry[] }>();
    for (const entry of entries) {
      const group = groups.get(entry.uid) ?? { overrides: [] };
      groups.set(entry.uid, group);
      if (entry.override) group.overrides.push(entry);
      else if (!group.master) group.master = entry;
      else {
        const first = group.master.info.line;
        this.warn(entry, `Line ${entry.info.line}: another event with UID "${entry.uid}" (first at line ${first}) was ignored.`);
        // Still read: a file ical.js cannot read is refused whole.
        load(entry);
        unload(entry);
      }
    }

    let skipped = entries.length;
    for (const { master, overrides } of groups.values()) skipped -= (master ? 1 : 0) + overrides.length;
    onRead?.(skipped);
    for (const [uid, group] of groups) {
      const { master, overrides } = group;
      onRead?.((master ? 1 : 0) + overrides.length);
      if (master) load(master);
      for (const override of overrides) load(override);
      if (master && isRecurring(master.component)) {
        this.guard(master, () => this.series(uid, master, overrides));
      } else if (master) {
        this.guard(master, () => this.single(master));
        for (const override of overrides) {
          this.warn(override, `Line ${override.info.line}: RECURRENCE-ID of a non-recurring event ignored.`);
        }
      } else {
        this.orphans(uid, overrides);
      }
      // Done with this UID: its parse results can go (and the group, so they are not kept alive).
      if (master) unload(master);
      for (const override of overrides) unload(override);
      this.fieldCache.clear();
      groups.set(uid, EMPTY_GROUP);
      const made = this.made;
      this.made = [];
      for (const event of made) this.onEvent(event);
    }
  }

  private single(entry: Entry): void {
    // `exceptions: []`: without it ical.js scans every VEVENT of the calendar for overrides of
    // this one, which made importing n events O(n²); overrides are grouped by UID already.
    const event = new ICAL.Event(entry.component, { exceptions: [] });
    const span = this.span(entry, () => event.startDate, () => event.endDate);
    const body = this.body(entry, span, false);
    if (isCancelled(entry.component)) {
      body.status ??= 'draft';
      this.warn(entry, `Line ${entry.info.line}: "${body.title}" is cancelled (STATUS:CANCELLED); it was imported as a ${body.status}.`);
    }
    this.made.push({ uid: entry.uid, line: entry.info.line, body });
  }

  private series(uid: string, master: Entry, overrides: Entry[]): void {
    const event = new ICAL.Event(master.component, { strictExceptions: false, exceptions: [] });
    const first = property(master, 'DTSTART', () => event.startDate);
    if (!first) throw new EventProblem('it has no DTSTART', 'DTSTART');

    const overrideOf = new Map<IcalEvent, Entry>();
    for (const entry of overrides) {
      this.guard(entry, () => {
        const exception = new ICAL.Event(entry.component, { exceptions: [] });
        property(entry, 'RECURRENCE-ID', () => exception.recurrenceId.toString());
        event.relateException(exception);
        overrideOf.set(exception, entry);
      });
    }

    // By default the window opens at the series' first occurrence, which is where iteration
    // starts anyway (and may precede DTSTART: Google lists earlier birthdays as RDATEs).
    const windowStart = this.opts.window?.start.getTime() ?? -Infinity;
    const name = stringProperty(master.component, 'summary') ?? uid;
    const at = `Line ${master.info.line}`;
    const windowEnd = this.windowEnd.getTime();
    let stopAt = windowEnd;
    const used = new Set<IcalEvent>();
    const occurrences: Occurrence[] = [];
    const iterator = property(master, 'RRULE', () => event.iterator());

    let steps = 0;
    for (let t = this.next(master, iterator); t; t = this.next(master, iterator)) {
      const ms = t.toUnixTime() * 1000;
      if (ms >= windowEnd) break;
      if (++steps > MAX_RECURRENCE_STEPS) {
        this.warn(master, `${at}: the rule of "${name}" produces too many occurrences before the import window; the rest were skipped.`);
        stopAt = ms;
        break;
      }
      if (ms < windowStart) continue;
      if (occurrences.length >= this.maxOccurrences) {
        this.warn(master, `${at}: only the first ${this.maxOccurrences} occurrences of "${name}" were imported.`);
        stopAt = ms;
        break;
      }
      const details = event.getOccurrenceDetails(t);
      const override = details.item !== event ? overrideOf.get(details.item) : undefined;
      if (override) used.add(details.item);
      const source = override ?? master;
      if (isCancelled(source.component)) continue;
      this.guard(source, () => {
        const span = this.span(source, () => details.startDate, () => details.endDate);
        occurrences.push({ key: occurrenceKey(t), startMs: span.startMs, line: source.info.line, body: this.body(source, span) });
      });
    }

    // Overrides whose RECURRENCE-ID the rule does not produce (some producers also EXDATE them)
    // are still occurrences the producer meant to show.
    for (const [exception, entry] of overrideOf) {
      if (used.has(exception) || isCancelled(entry.component)) continue;
      const recurrenceId = exception.recurrenceId;
      const ms = recurrenceId.toUnixTime() * 1000;
      if (ms < windowStart || ms >= stopAt || occurrences.length >= this.maxOccurrences) continue;
      this.guard(entry, () => {
        const span = this.span(entry, () => exception.startDate, () => exception.endDate);
        const key = occurrenceKey(recurrenceId.isDate ? recurrenceId : recurrenceId.convertToZone(first.zone));
        occurrences.push({ key, startMs: span.startMs, line: entry.info.line, body: this.body(entry, span) });
      });
    }

    if (!occurrences.length) {
      this.warn(master, `${at}: the recurring event "${name}" has no occurrences in the import window.`);
    }
    this.link(uid, occurrences);
  }

  /** Occurrences whose series is not in the file (Google shares single instances this way). */
  private orphans(uid: string, entries: Entry[]): void {
    const occurrences: Occurrence[] = [];
    for (const entry of entries) {
      if (isCancelled(entry.component)) continue;
      this.guard(entry, () => {
        const event = new ICAL.Event(entry.component, { exceptions: [] });
        const recurrenceId = property(entry, 'RECURRENCE-ID', () => event.recurrenceId);
        const span = this.span(entry, () => event.startDate, () => event.endDate);
        const window = this.opts.window;
        if (window && (span.startMs < window.start.getTime() || span.startMs >= window.end.getTime())) return;
        occurrences.push({ key: occurrenceKey(recurrenceId), startMs: span.startMs, line: entry.info.line, body: this.body(entry, span) });
      });
    }
    this.link(uid, occurrences);
  }

  private link(uid: string, occurrences: Occurrence[]): void {
    occurrences.sort((a, b) => a.startMs - b.startMs);
    const seen = new Set<string>();
    let firstUid: string | undefined;
    for (const occurrence of occurrences) {
      const occurrenceUid = `${uid}#${occurrence.key}`;
      if (seen.has(occurrenceUid)) continue;
      seen.add(occurrenceUid);
      this.made.push({
        uid: occurrenceUid,
        ...(firstUid ? { recurrenceOf: firstUid } : {}),
        line: occurrence.line,
        body: occurrence.body,
      });
      firstUid ??= occurrenceUid;
    }
  }

  private next(entry: Entry, iterator: ReturnType<IcalEvent['iterator']>): IcalTime | undefined {
    return property(entry, 'RRULE', () => iterator.next()) ?? undefined;
  }

  /** Where the event starts and ends, as local times in the zone the body will carry. */
  private span(entry: Entry, getStart: () => IcalTime | undefined, getEnd: () => IcalTime | undefined): Span {
    const start = property(entry, 'DTSTART', getStart);
    if (!start) throw new EventProblem('it has no DTSTART', 'DTSTART');
    const end = property(entry, hasProp(entry.component, 'dtend') ? 'DTEND' : 'DURATION', getEnd) ?? undefined;
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

    const zone = almanacZone ?? this.zoneOf(start, entry);
    const from = this.place(start, zone);
    let to = end ? this.place(end, zone) : from;
    if (to.ms < from.ms) to = from;
    return { start: from.local, end: to.local, zone, allDay: false, startMs: from.ms };
  }

  /** The zone an event is shown in when the file does not say (X-ALMANAC-TIMEZONE). */
  private zoneOf(start: IcalTime, entry: Entry): string {
    const source = sourceOf(start);
    if (source.kind === 'tz') {
      const resolution = this.zones.resolve(source.tzid);
      if ('zone' in resolution) return resolution.zone;
    }
    if (source.kind === 'utc') return entry.calendarZone ?? this.opts.siteZone;
    return this.opts.siteZone;
  }

  /** A time as a local wall time in `zone`; wall times already in that zone are kept as written. */
  private place(t: IcalTime, zone: string): { local: string; ms: number } {
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
  private body(entry: Entry, span: Span, shared = true): EventBody {
    const { title, ...rest } = this.fields(entry, shared);
    const dates = { start_date: span.start, end_date: span.end, timezone: span.zone, all_day: span.allDay };
    return { title, ...dates, ...(shared ? copyFields(rest) : rest) };
  }

  /** Everything but the dates, read once per VEVENT however many occurrences share it. */
  private fields(entry: Entry, shared: boolean): EventFields {
    const cached = this.fieldCache.get(entry.component);
    if (cached) return cached;
    const c = entry.component;
    const title = stringProperty(c, 'summary')?.trim();
    if (!title) this.warn(entry, `Line ${entry.info.line}: the event has no title (SUMMARY); it was imported as "${UNTITLED}".`);

    const fields: EventFields = { title: title || UNTITLED };
    const description = descriptionOf(c);
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
    for (const [flag, name] of FLAGS) {
      const value = booleanOf(stringProperty(c, X + name));
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

    if (shared) this.fieldCache.set(c, fields);
    return fields;
  }

  /** Runs one event's work; an EventProblem or a parse failure is reported for it and skipped. */
  private guard(entry: Entry, work: () => void): void {
    try {
      work();
    } catch (err) {
      const line = (err instanceof EventProblem && err.property && entry.info.propLines.get(err.property)) || entry.info.line;
      const title = stringProperty(entry.component, 'summary');
      const which = `the event${title ? ` "${title}"` : ''}${line === entry.info.line ? '' : ` (starting at line ${entry.info.line})`}`;
      this.result.errors.push({ line, message: `Line ${line}: ${which} was not imported: ${messageOf(err)}.` });
    }
  }

  private warn(entry: Entry, message: string): void {
    this.result.warnings.push({ line: entry.info.line, message });
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

/**
 * Reads a value, turning ical.js's parse errors (thrown lazily, on first access) into an
 * EventProblem that names the property and so the line.
 */
function property<T>(entry: Entry, name: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof EventProblem) throw err;
    const written = entry.info.propText.get(name);
    // ical.js quotes the value as it half-parsed it, which only confuses; the line says it better.
    const reason = messageOf(err).replace(/:\s*".*"$/, '');
    throw new EventProblem(`${written ? `"${snippet(written)}"` : name} could not be read (${reason})`, name);
  }
}

function isRecurring(c: IcalComponent): boolean {
  return hasProp(c, 'rrule') || hasProp(c, 'rdate');
}

/** Cancelled in another program; Almanac's own export says CANCELLED for trash and keeps the status. */
function isCancelled(c: IcalComponent): boolean {
  return stringProperty(c, 'status')?.toUpperCase() === 'CANCELLED' && !hasProp(c, `${X}STATUS`.toLowerCase());
}

function sourceOf(t: IcalTime): { kind: 'utc' } | { kind: 'floating' } | { kind: 'tz'; tzid: string } {
  const zone = t.zone;
  if (!zone || zone === ICAL.Timezone.localTimezone || zone.tzid === 'floating') return { kind: 'floating' };
  if (zone === ICAL.Timezone.utcTimezone || ['UTC', 'Z', 'GMT'].includes(zone.tzid)) return { kind: 'utc' };
  return { kind: 'tz', tzid: zone.tzid };
}

function occurrenceKey(t: IcalTime): string {
  const p = (n: number, width = 2) => String(n).padStart(width, '0');
  const date = `${p(t.year, 4)}${p(t.month)}${p(t.day)}`;
  if (t.isDate) return date;
  return `${date}T${p(t.hour)}${p(t.minute)}${p(t.second)}${sourceOf(t).kind === 'utc' ? 'Z' : ''}`;
}

function isoDate(t: IcalTime): string {
  const p = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${p(t.year, 4)}-${p(t.month)}-${p(t.day)}`;
}

function addDays(iso: string, days: number): string {
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

function formatWall(w: { year: number; month: number; day: number; hour: number; minute: number; second: number }): string {
  const p = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${p(w.year, 4)}-${p(w.month)}-${p(w.day)} ${p(w.hour)}:${p(w.minute)}:${p(w.second)}`;
}

function utcWall(t: IcalTime): string {
  const utc = sourceOf(t).kind === 'utc' ? t : t.convertToZone(ICAL.Timezone.utcTimezone);
  return formatWall(utc);
}

/*
 * `epochOfWall` and `wallOfEpoch` ask Intl for offsets, tens of µs a time; they are pure functions
 * of their arguments and a file repeats the same times (events at the same hours), so their
 * answers are remembered (bounded: forgotten whole when full). A failure is not remembered.
 */
const MEMO_LIMIT = 20_000;
const epochMemo = new BoundedMemo<number>(MEMO_LIMIT);
const wallMemo = new BoundedMemo<string>(MEMO_LIMIT);

function epochOfWall(w: { year: number; month: number; day: number; hour: number; minute: number; second: number }, zone: string): number {
  const key = `${zone}\u0000${w.year}\u0000${w.month}\u0000${w.day}\u0000${w.hour}\u0000${w.minute}\u0000${w.second}`;
  return epochMemo.get(key, () => epochOfWallNow(w, zone));
}

function wallOfEpoch(ms: number, zone: string): string {
  const key = `${zone}\u0000${ms}`;
  return wallMemo.get(key, () => wallOfEpochNow(ms, zone));
}

/* ------------------------------------------------------------------------------------------------
 * Property readers
 * ---------------------------------------------------------------------------------------------- */

/**
 * A property read straight from ical.js's parse result (jCal). ical.js's own Property objects,
 * made on first access and kept by the component, cost more than the reading itself across
 * thousands of events; values that ical.js turns into objects (times, durations, rules) still go
 * through one, so every value is exactly what `ICAL.Property` would give.
 */
class Prop {
  private real?: IcalProperty;
  constructor(
    private readonly jCal: unknown[],
    private readonly parent: IcalComponent,
    private readonly decorated: boolean,
  ) {}
  get type(): string {
    return this.jCal[2] as string;
  }
  getParameter(name: string): unknown {
    return (this.jCal[1] as Record<string, unknown>)[name];
  }
  getFirstValue(): unknown {
    if (this.decorated) return this.property().getFirstValue();
    return this.jCal.length > 3 ? this.jCal[3] : null;
  }
  getValues(): unknown[] {
    if (this.decorated) return this.property().getValues();
    return this.jCal.slice(3);
  }
  private property(): IcalProperty {
    return (this.real ??= new ICAL.Property(this.jCal as never, this.parent));
  }
}

function jcalProps(c: IcalComponent): unknown[][] {
  return (c.jCal as unknown[])[1] as unknown[][];
}

function isDecorated(c: IcalComponent, type: string): boolean {
  const values = (c as unknown as { _designSet: { value: Record<string, object> } })._designSet.value;
  return type in values && 'decorate' in values[type];
}

function firstProp(c: IcalComponent, name: string): Prop | null {
  for (const p of jcalProps(c)) if (p[0] === name) return new Prop(p, c, isDecorated(c, p[2] as string));
  return null;
}

function allProps(c: IcalComponent, name: string): Prop[] {
  const out: Prop[] = [];
  for (const p of jcalProps(c)) if (p[0] === name) out.push(new Prop(p, c, isDecorated(c, p[2] as string)));
  return out;
}

function firstValue(c: IcalComponent, name: string): unknown {
  return firstProp(c, name)?.getFirstValue() ?? null;
}

function hasProp(c: IcalComponent, name: string): boolean {
  return jcalProps(c).some((p) => p[0] === name);
}

/** A property as text: ical.js unescapes known TEXT properties but leaves X- properties raw. */
function textOf(p: Prop): string {
  const value = p.getFirstValue();
  if (value === null || value === undefined) return '';
  return p.type === 'unknown' ? unescapeText(String(value)) : String(value);
}

function stringProperty(c: IcalComponent, name: string): string | undefined {
  const p = firstProp(c, name.toLowerCase());
  return p ? textOf(p) : undefined;
}

function listProperty(c: IcalComponent, name: string): string[] {
  return allProps(c, name.toLowerCase()).flatMap((p) => {
    if (p.type === 'unknown') return splitTextList(String(p.getFirstValue() ?? ''));
    return p.getValues().map(String);
  }).map((s) => s.trim());
}

function param(p: Prop, name: string): string | undefined {
  const value = p.getParameter(name.toLowerCase()) as string | string[] | undefined;
  const text = Array.isArray(value) ? value.join(',') : value;
  return text?.trim() || undefined;
}

function booleanOf(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (/^(true|yes|1|on)$/i.test(value.trim())) return true;
  if (/^(false|no|0|off)$/i.test(value.trim())) return false;
  return undefined;
}

function statusOf(c: IcalComponent): string | undefined {
  const own = stringProperty(c, `${X}STATUS`)?.trim().toLowerCase();
  if (own && STATUSES.has(own)) return own;
  const access = stringProperty(c, 'class')?.toUpperCase();
  if (access === 'PRIVATE' || access === 'CONFIDENTIAL') return 'private';
  return undefined;
}

/**
 * The HTML description: X-ALT-DESC (Outlook, Almanac) when present, else DESCRIPTION, which is
 * plain text by the standard but carries HTML in Google's exports.
 */
function descriptionOf(c: IcalComponent): string | undefined {
  const alternative = allProps(c, 'x-alt-desc').find((p) => /html/i.test(param(p, 'fmttype') ?? ''));
  if (alternative) {
    const html = htmlBody(textOf(alternative));
    if (html) return html;
  }
  const plain = stringProperty(c, 'description');
  if (!plain?.trim()) return undefined;
  if (/<\/?(p|br|a|b|i|u|em|strong|ul|ol|li|div|span|h[1-6])\b[^>]*>/i.test(plain)) return plain.trim();
  return plain.trim().replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
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
  // Tags were written after the categories, so a name that is both is removed from the end.
  for (const tag of tags) {
    const at = remaining.lastIndexOf(tag);
    if (at >= 0) remaining.splice(at, 1);
  }
  return { categories: unique(remaining), tags };
}

function venueOf(c: IcalComponent): VenueBody | undefined {
  const geo = geoOf(c);
  const own = firstProp(c, `${X}VENUE`.toLowerCase());
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
    if (venue.venue) return venue;
  }

  const location = stringProperty(c, 'location')?.trim() ?? '';
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

function organizersOf(c: IcalComponent): OrganizerBody[] {
  const own = allProps(c, `${X}ORGANIZER`.toLowerCase());
  if (own.length) {
    return own
      .map((p) =>
        compact<OrganizerBody>({
          organizer: textOf(p).trim(),
          email: param(p, 'email'),
          phone: param(p, 'phone'),
          website: param(p, 'website'),
        }),
      )
      .filter((o) => o.organizer);
  }
  return allProps(c, 'organizer')
    .map((p) => {
      const address = String(p.getFirstValue() ?? '').trim();
      const email = /^mailto:/i.test(address) ? address.replace(/^mailto:/i, '').trim() : undefined;
      const validEmail = email && /^[^@\s]+@[^@\s]+$/.test(email) ? email : undefined;
      return compact<OrganizerBody>({ organizer: param(p, 'cn') ?? validEmail ?? '', email: validEmail });
    })
    .filter((o) => o.organizer);
}

/** Drops empty strings and undefined values, so bodies only carry what the file said. */
function compact<T extends object>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const key in o) {
    const v = o[key];
    if (v !== undefined && (v as unknown) !== '') out[key] = v;
  }
  return out as T;
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}

function messageOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\.$/, '');
}

/* ------------------------------------------------------------------------------------------------
 * Windows zone names (Outlook, Exchange) → IANA, from CLDR windowsZones.xml (territory 001), with
 * current IANA spellings and a few names older Windows versions used.
 * ---------------------------------------------------------------------------------------------- */

const WINDOWS_ZONE_LIST: [string, string][] = [
  ['Dateline Standard Time', 'Etc/GMT+12'],
  ['UTC-11', 'Etc/GMT+11'],
  ['Aleutian Standard Time', 'America/Adak'],
  ['Hawaiian Standard Time', 'Pacific/Honolulu'],
  ['Marquesas Standard Time', 'Pacific/Marquesas'],
  ['Alaskan Standard Time', 'America/Anchorage'],
  ['UTC-09', 'Etc/GMT+9'],
  ['Pacific Standard Time (Mexico)', 'America/Tijuana'],
  ['UTC-08', 'Etc/GMT+8'],
  ['Pacific Standard Time', 'America/Los_Angeles'],
  ['US Mountain Standard Time', 'America/Phoenix'],
  ['Mountain Standard Time (Mexico)', 'America/Mazatlan'],
  ['Mountain Standard Time', 'America/Denver'],
  ['Yukon Standard Time', 'America/Whitehorse'],
  ['Central America Standard Time', 'America/Guatemala'],
  ['Central Standard Time', 'America/Chicago'],
  ['Easter Island Standard Time', 'Pacific/Easter'],
  ['Central Standard Time (Mexico)', 'America/Mexico_City'],
  ['Canada Central Standard Time', 'America/Regina'],
  ['SA Pacific Standard Time', 'America/Bogota'],
  ['Eastern Standard Time (Mexico)', 'America/Cancun'],
  ['Eastern Standard Time', 'America/New_York'],
  ['Haiti Standard Time', 'America/Port-au-Prince'],
  ['Cuba Standard Time', 'America/Havana'],
  ['US Eastern Standard Time', 'America/Indiana/Indianapolis'],
  ['Turks And Caicos Standard Time', 'America/Grand_Turk'],
  ['Paraguay Standard Time', 'America/Asuncion'],
  ['Atlantic Standard Time', 'America/Halifax'],
  ['Venezuela Standard Time', 'America/Caracas'],
  ['Central Brazilian Standard Time', 'America/Cuiaba'],
  ['SA Western Standard Time', 'America/La_Paz'],
  ['Pacific SA Standard Time', 'America/Santiago'],
  ['Newfoundland Standard Time', 'America/St_Johns'],
  ['Tocantins Standard Time', 'America/Araguaina'],
  ['E. South America Standard Time', 'America/Sao_Paulo'],
  ['SA Eastern Standard Time', 'America/Cayenne'],
  ['Argentina Standard Time', 'America/Argentina/Buenos_Aires'],
  ['Greenland Standard Time', 'America/Nuuk'],
  ['Montevideo Standard Time', 'America/Montevideo'],
  ['Magallanes Standard Time', 'America/Punta_Arenas'],
  ['Saint Pierre Standard Time', 'America/Miquelon'],
  ['Bahia Standard Time', 'America/Bahia'],
  ['UTC-02', 'Etc/GMT+2'],
  ['Mid-Atlantic Standard Time', 'Etc/GMT+2'],
  ['Azores Standard Time', 'Atlantic/Azores'],
  ['Cape Verde Standard Time', 'Atlantic/Cape_Verde'],
  ['UTC', 'Etc/UTC'],
  ['Coordinated Universal Time', 'Etc/UTC'],
  ['GMT Standard Time', 'Europe/London'],
  ['Greenwich Standard Time', 'Atlantic/Reykjavik'],
  ['Sao Tome Standard Time', 'Africa/Sao_Tome'],
  ['Morocco Standard Time', 'Africa/Casablanca'],
  ['W. Europe Standard Time', 'Europe/Berlin'],
  ['Central Europe Standard Time', 'Europe/Budapest'],
  ['Romance Standard Time', 'Europe/Paris'],
  ['Central European Standard Time', 'Europe/Warsaw'],
  ['W. Central Africa Standard Time', 'Africa/Lagos'],
  ['Jordan Standard Time', 'Asia/Amman'],
  ['GTB Standard Time', 'Europe/Bucharest'],
  ['Middle East Standard Time', 'Asia/Beirut'],
  ['Egypt Standard Time', 'Africa/Cairo'],
  ['E. Europe Standard Time', 'Europe/Chisinau'],
  ['Syria Standard Time', 'Asia/Damascus'],
  ['West Bank Standard Time', 'Asia/Hebron'],
  ['South Africa Standard Time', 'Africa/Johannesburg'],
  ['FLE Standard Time', 'Europe/Kyiv'],
  ['Israel Standard Time', 'Asia/Jerusalem'],
  ['South Sudan Standard Time', 'Africa/Juba'],
  ['Kaliningrad Standard Time', 'Europe/Kaliningrad'],
  ['Sudan Standard Time', 'Africa/Khartoum'],
  ['Libya Standard Time', 'Africa/Tripoli'],
  ['Namibia Standard Time', 'Africa/Windhoek'],
  ['Arabic Standard Time', 'Asia/Baghdad'],
  ['Turkey Standard Time', 'Europe/Istanbul'],
  ['Arab Standard Time', 'Asia/Riyadh'],
  ['Belarus Standard Time', 'Europe/Minsk'],
  ['Russian Standard Time', 'Europe/Moscow'],
  ['E. Africa Standard Time', 'Africa/Nairobi'],
  ['Volgograd Standard Time', 'Europe/Volgograd'],
  ['Iran Standard Time', 'Asia/Tehran'],
  ['Arabian Standard Time', 'Asia/Dubai'],
  ['Astrakhan Standard Time', 'Europe/Astrakhan'],
  ['Azerbaijan Standard Time', 'Asia/Baku'],
  ['Russia Time Zone 3', 'Europe/Samara'],
  ['Mauritius Standard Time', 'Indian/Mauritius'],
  ['Saratov Standard Time', 'Europe/Saratov'],
  ['Georgian Standard Time', 'Asia/Tbilisi'],
  ['Caucasus Standard Time', 'Asia/Yerevan'],
  ['Armenian Standard Time', 'Asia/Yerevan'],
  ['Afghanistan Standard Time', 'Asia/Kabul'],
  ['West Asia Standard Time', 'Asia/Tashkent'],
  ['Ekaterinburg Standard Time', 'Asia/Yekaterinburg'],
  ['Pakistan Standard Time', 'Asia/Karachi'],
  ['Qyzylorda Standard Time', 'Asia/Qyzylorda'],
  ['India Standard Time', 'Asia/Kolkata'],
  ['Sri Lanka Standard Time', 'Asia/Colombo'],
  ['Nepal Standard Time', 'Asia/Kathmandu'],
  ['Central Asia Standard Time', 'Asia/Bishkek'],
  ['Bangladesh Standard Time', 'Asia/Dhaka'],
  ['Omsk Standard Time', 'Asia/Omsk'],
  ['Myanmar Standard Time', 'Asia/Yangon'],
  ['SE Asia Standard Time', 'Asia/Bangkok'],
  ['Altai Standard Time', 'Asia/Barnaul'],
  ['W. Mongolia Standard Time', 'Asia/Hovd'],
  ['North Asia Standard Time', 'Asia/Krasnoyarsk'],
  ['N. Central Asia Standard Time', 'Asia/Novosibirsk'],
  ['Tomsk Standard Time', 'Asia/Tomsk'],
  ['China Standard Time', 'Asia/Shanghai'],
  ['North Asia East Standard Time', 'Asia/Irkutsk'],
  ['Singapore Standard Time', 'Asia/Singapore'],
  ['Malay Peninsula Standard Time', 'Asia/Singapore'],
  ['W. Australia Standard Time', 'Australia/Perth'],
  ['Taipei Standard Time', 'Asia/Taipei'],
  ['Ulaanbaatar Standard Time', 'Asia/Ulaanbaatar'],
  ['Aus Central W. Standard Time', 'Australia/Eucla'],
  ['Transbaikal Standard Time', 'Asia/Chita'],
  ['Tokyo Standard Time', 'Asia/Tokyo'],
  ['North Korea Standard Time', 'Asia/Pyongyang'],
  ['Korea Standard Time', 'Asia/Seoul'],
  ['Yakutsk Standard Time', 'Asia/Yakutsk'],
  ['Cen. Australia Standard Time', 'Australia/Adelaide'],
  ['AUS Central Standard Time', 'Australia/Darwin'],
  ['E. Australia Standard Time', 'Australia/Brisbane'],
  ['AUS Eastern Standard Time', 'Australia/Sydney'],
  ['West Pacific Standard Time', 'Pacific/Port_Moresby'],
  ['Tasmania Standard Time', 'Australia/Hobart'],
  ['Vladivostok Standard Time', 'Asia/Vladivostok'],
  ['Lord Howe Standard Time', 'Australia/Lord_Howe'],
  ['Bougainville Standard Time', 'Pacific/Bougainville'],
  ['Russia Time Zone 10', 'Asia/Srednekolymsk'],
  ['Magadan Standard Time', 'Asia/Magadan'],
  ['Norfolk Standard Time', 'Pacific/Norfolk'],
  ['Sakhalin Standard Time', 'Asia/Sakhalin'],
  ['Central Pacific Standard Time', 'Pacific/Guadalcanal'],
  ['Russia Time Zone 11', 'Asia/Kamchatka'],
  ['Kamchatka Standard Time', 'Asia/Kamchatka'],
  ['New Zealand Standard Time', 'Pacific/Auckland'],
  ['UTC+12', 'Etc/GMT-12'],
  ['Fiji Standard Time', 'Pacific/Fiji'],
  ['Chatham Islands Standard Time', 'Pacific/Chatham'],
  ['UTC+13', 'Etc/GMT-13'],
  ['Tonga Standard Time', 'Pacific/Tongatapu'],
  ['Samoa Standard Time', 'Pacific/Apia'],
  ['Line Islands Standard Time', 'Pacific/Kiritimati'],
];

export const WINDOWS_ZONES: Readonly<Record<string, string>> = Object.fromEntries(
  WINDOWS_ZONE_LIST.map(([windows, iana]) => [windows.toLowerCase(), iana]),
);
