/**
 * The line scanner: unfolds the file, checks the syntax of every line and the BEGIN/END structure,
 * and remembers where each VEVENT starts, so a user with a broken file is told where to look
 * (ical.js reports neither line numbers nor truncation).
 */
import ICAL from 'ical.js';
import type { ImportProblem } from './import-types';
import { NO_PARAMETERS, parseContentLine, plainNameEnd, unfoldLines, upperName, type ContentLine } from './lines';
import { snippet } from './problems';
import {
  MAX_LINES_PER_COMPONENT,
  MAX_NESTING,
  MAX_TIME_ZONES,
  MAX_ZONE_OBSERVANCES,
  MAX_UNKNOWN_PROPERTY_WARNINGS,
  durationProblem,
  ruleProblem,
  zoneRuleProblem,
} from './bounds';

const MAX_REPORTED_SYNTAX_ERRORS = 20;

/** Progress of the scan in VEVENTs: about every 1%, and once at the end with the exact count. */
export function scanProgress(text: string, report: (done: number, total: number) => void) {
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

/**
 * A VEVENT directly inside a VCALENDAR, as the scan found it: where its text is, so that it can be
 * read with ical.js on its own when its turn comes instead of the whole file at once.
 */
export interface VeventBlock {
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

export interface VeventInfo {
  line: number;
  /** First line of each property (upper-case name) directly inside this VEVENT. */
  propLines: Map<string, number>;
  /** That line as written, for messages. */
  propText: Map<string, string>;
  /** Every line of each property directly inside this VEVENT, in order (known once the VEVENT is read). */
  allLines?: Map<string, Array<{ line: number; text: string }>>;
}

export interface Scan {
  /** The unfolded lines outside of the VEVENTs (calendars, time zones), CRLF-joined, for ical.js. */
  skeleton: string;
  vevents: VeventBlock[];
  /** TZIDs referenced by properties, with the line of the first reference. */
  tzids: Map<string, number>;
  years: { min: number; max: number };
  errors: ImportProblem[];
  warnings: ImportProblem[];
}

const DATE_PROPERTIES = new Set(['DTSTART', 'DTEND', 'DUE', 'RECURRENCE-ID', 'RDATE', 'EXDATE']);
/** Properties whose value could ask for unbounded work, checked against bounds.ts. */
const BOUNDED_PROPERTIES = new Set(['DURATION', 'RRULE', 'EXRULE', 'RDATE']);

/** What the scan does with a property, by its upper-case name (bits of one lookup per line). */
const KNOWN = 1;
const DATED = 2;
const BOUNDED = 4;

/** Property names that are neither X- nor in ical.js's design set but occur in real files. */
const EXTRA_KNOWN_PROPERTIES = new Set([
  'COLOR', 'IMAGE', 'CONFERENCE', 'NAME', 'REFRESH-INTERVAL', 'SOURCE', 'ACKNOWLEDGED', 'TZUNTIL',
  'TZID-ALIAS-OF', 'STYLED-DESCRIPTION', 'STRUCTURED-DATA', 'PROXIMITY', 'LOCATION-TYPE',
  'PARTICIPANT-TYPE', 'CALENDAR-ADDRESS', 'RESOURCE-TYPE', 'BUSYTYPE', 'ESTIMATED-DURATION',
]);

/** A scanned line's value: the parsed one, or for a plain `NAME:value` line what follows its ":". */
function valueOf(lineText: string, parsed: ContentLine | undefined, plainEnd: number): string {
  return parsed ? parsed.value : lineText.slice(plainEnd + 1);
}

export function scanCalendar(text: string, onVevent?: () => void): Scan {
  const errors: ImportProblem[] = [];
  const warnings: ImportProblem[] = [];
  const vevents: VeventBlock[] = [];
  const tzids = new Map<string, number>();
  const years = { min: Infinity, max: -Infinity };
  const skeleton: string[] = [];
  const fail = (line: number, message: string) => {
    if (errors.length < MAX_REPORTED_SYNTAX_ERRORS) errors.push({ line, message });
  };
  const kinds = new Map<string, number>();
  const kindOf = (name: string) => {
    let kind = kinds.get(name);
    if (kind === undefined) {
      const known = name.startsWith('X-') || EXTRA_KNOWN_PROPERTIES.has(name) || name.toLowerCase() in ICAL.design.icalendar.property;
      kind = (known ? KNOWN : 0) | (DATE_PROPERTIES.has(name) ? DATED : 0) | (BOUNDED_PROPERTIES.has(name) ? BOUNDED : 0);
      kinds.set(name, kind);
    }
    return kind;
  };

  /** `virtual`: the calendar a file of bare components (a VEVENT without VCALENDAR around it) is read as. */
  const stack: { name: string; line: number; virtual?: boolean; lines?: number; observances?: number }[] = [];
  let unknownProperties = 0;
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
      const first = lineText.trim().toUpperCase();
      if (/^BEGIN:[A-Z0-9-]+$/.test(first) && first !== 'BEGIN:VCALENDAR') {
        // Snippets and some tools' files are components without their VCALENDAR: read them as one.
        stack.push({ name: 'VCALENDAR', line, virtual: true });
        roots++;
        skeleton.push('BEGIN:VCALENDAR');
        warnings.push({
          line,
          message: `Line ${line}: the file starts with "${snippet(lineText.trim())}" instead of "BEGIN:VCALENDAR"; it was read as one calendar.`,
        });
      } else if (first !== 'BEGIN:VCALENDAR') notCalendar = true;
    }
    if (notCalendar) return;
    // A plain `NAME:value` line is not split into parts: most lines need only their name.
    const plainEnd = plainNameEnd(lineText);
    const parsed = plainEnd > 0 ? undefined : parseContentLine(lineText);
    if (typeof parsed === 'string') {
      fail(line, `Line ${line} is not a valid iCalendar line (${parsed}): "${snippet(lineText)}".`);
      return;
    }
    const rawName = parsed ? parsed.name : lineText.slice(0, plainEnd);
    const params = parsed ? parsed.params : NO_PARAMETERS;
    const name = upperName(rawName);
    const top = stack[stack.length - 1];
    let inBlock = currentEvent !== undefined;

    if (name === 'BEGIN') {
      const component = valueOf(lineText, parsed, plainEnd).trim().toUpperCase();
      if (!top && component !== 'VCALENDAR') {
        fail(line, `Line ${line}: "BEGIN:${component}" is outside of any calendar (BEGIN:VCALENDAR … END:VCALENDAR).`);
      }
      if (!top) roots++;
      if (stack.length === MAX_NESTING) fail(line, `Line ${line}: "BEGIN:${snippet(component)}" nests components more than ${MAX_NESTING} deep.`);
      if ((component === 'STANDARD' || component === 'DAYLIGHT') && top?.name === 'VTIMEZONE' && (top.observances = (top.observances ?? 0) + 1) === MAX_ZONE_OBSERVANCES + 1) {
        fail(line, `Line ${line}: the time zone begun at line ${top.line} has more than ${MAX_ZONE_OBSERVANCES.toLocaleString('en')} observances, more than a time zone changing at most monthly needs.`);
      }
      if (component === 'VEVENT' && top?.name === 'VCALENDAR') {
        currentEvent = { line, start: at, end: at, root: roots - 1, recurrence: false };
        vevents.push(currentEvent);
        inBlock = true;
        onVevent?.();
      } else if (top?.name === 'VCALENDAR') {
        ignoredComponents.set(component, (ignoredComponents.get(component) ?? 0) + 1);
      }
      stack.push({ name: component, line });
    } else if (name === 'END') {
      const component = valueOf(lineText, parsed, plainEnd).trim().toUpperCase();
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
      if (!top && roots > 0) {
        // Some servers append a comment after the calendar (a cache note); it belongs to nothing.
        warnings.push({ line, message: `Line ${line}: "${snippet(lineText)}" comes after the end of the calendar and was ignored.` });
        return;
      }
      if (!top) {
        fail(line, `Line ${line}: "${snippet(lineText)}" is outside of any calendar (BEGIN:VCALENDAR … END:VCALENDAR).`);
        return;
      }
      top.lines = (top.lines ?? 0) + 1;
      if (top.lines === MAX_LINES_PER_COMPONENT + 1) {
        fail(line, `Line ${line}: "BEGIN:${top.name}" at line ${top.line} has more than ${MAX_LINES_PER_COMPONENT.toLocaleString('en')} lines.`);
      }
      const kind = kindOf(name);
      if (kind & BOUNDED) {
        const tooLarge =
          (name === 'DURATION' && top.name === 'VEVENT' ? durationProblem(valueOf(lineText, parsed, plainEnd)) : undefined) ??
          (name === 'RRULE' || name === 'EXRULE' ? ruleProblem(valueOf(lineText, parsed, plainEnd)) : undefined) ??
          (name === 'RRULE' && (top.name === 'STANDARD' || top.name === 'DAYLIGHT') ? zoneRuleProblem(valueOf(lineText, parsed, plainEnd)) : undefined) ??
          (name === 'RDATE' && params.get('VALUE')?.[0]?.toUpperCase() === 'PERIOD'
            ? valueOf(lineText, parsed, plainEnd).split(',').map((period) => durationProblem(period.slice(period.indexOf('/') + 1))).find(Boolean)
            : undefined);
        if (tooLarge) fail(line, `Line ${line}: ${tooLarge}.`);
      }
      if (top.name === 'VEVENT' && currentEvent) {
        if (stack.length === 2) {
          // What ical.js will read as the UID, when that is plain: no parameters, a non-empty value.
          if (name === 'UID' && currentEvent.uidRaw === undefined) {
            const uid = valueOf(lineText, parsed, plainEnd);
            currentEvent.uidRaw = params === NO_PARAMETERS && uid.trim() !== '' ? uid : null;
          } else if (name === 'RECURRENCE-ID') currentEvent.recurrence = true;
        }
        if (!(kind & KNOWN) && ++unknownProperties <= MAX_UNKNOWN_PROPERTY_WARNINGS) {
          warnings.push({
            line,
            message:
              `Line ${line}: unknown property "${rawName}" ignored. If it belongs to the line before, ` +
              'the leading space that continues a folded line is missing.',
          });
        }
      }
      if (kind & DATED) {
        const tzid = params.get('TZID')?.[0];
        if (tzid && !tzids.has(tzid)) tzids.set(tzid, line);
        // Only event dates: VTIMEZONE observances start in 1601 (Outlook) or 1970.
        const year = top.name === 'VEVENT' ? /^(\d{4})\d{4}/.exec(valueOf(lineText, parsed, plainEnd).trim()) : null;
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

  if (unknownProperties > MAX_UNKNOWN_PROPERTY_WARNINGS) {
    warnings.push({ line: 1, message: `${unknownProperties - MAX_UNKNOWN_PROPERTY_WARNINGS} more unknown properties were ignored.` });
  }
  if (tzids.size > MAX_TIME_ZONES) {
    const [tzid, line] = [...tzids][MAX_TIME_ZONES];
    fail(line, `Line ${line}: time zone "${snippet(tzid)}" is one more than the ${MAX_TIME_ZONES} different time zones a file may use.`);
  }
  if (stack[0]?.virtual) {
    if (stack.length === 1) skeleton.push('END:VCALENDAR');
    stack.shift();
  }
  if (stack.length) {
    const open = stack.map((c) => `${c.name} (line ${c.line})`).join(' > ');
    const missing = [...stack].reverse().map((c) => `END:${c.name}`).join(', ');
    fail(lastLine, `The file ends at line ${lastLine} inside ${open}: it looks truncated (missing ${missing}).`);
  }
  if (!errors.length && !vevents.length) {
    const held = [...ignoredComponents].map(([c, n]) => componentCount(c, n));
    errors.push({
      line: firstLine.line,
      message: held.length
        ? `This file holds ${listInWords(held)}${held.length > 1 ? ',' : ''} and no events; Almanac imports events only.`
        : 'This calendar is empty: it holds no events.',
    });
  }
  for (const [component, count] of ignoredComponents) {
    // Time zones are read for the events' times; other programs' own components are left out quietly.
    if (vevents.length && component !== 'VTIMEZONE' && COMPONENT_WORDS[component]) {
      warnings.push({ line: 1, message: `${componentCount(component, count)} (${component}) ignored: Almanac imports events only.` });
    }
  }
  if (!Number.isFinite(years.min)) {
    const year = new Date().getUTCFullYear();
    years.min = year;
    years.max = year;
  }
  errors.sort((a, b) => a.line - b.line);
  return { skeleton: skeleton.join('\r\n') + '\r\n', vevents, tzids, years, errors, warnings };
}

/** What a calendar holds besides events, in words: "3 tasks", "1 time zone", "2 MYCOMP components". */
const COMPONENT_WORDS: Record<string, [string, string]> = {
  VTODO: ['task', 'tasks'],
  VJOURNAL: ['journal entry', 'journal entries'],
  VFREEBUSY: ['free/busy list', 'free/busy lists'],
  VTIMEZONE: ['time zone', 'time zones'],
  VAVAILABILITY: ['availability', 'availabilities'],
  VALARM: ['alarm', 'alarms'],
};

function componentCount(component: string, n: number): string {
  const words = COMPONENT_WORDS[component];
  if (words) return `${n} ${words[n === 1 ? 0 : 1]}`;
  return `${n} ${component} component${n === 1 ? '' : 's'}`;
}

function listInWords(items: string[]): string {
  return items.length === 1 ? items[0] : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
