/**
 * The line scanner: unfolds the file, checks the syntax of every line and the BEGIN/END structure,
 * and remembers where each VEVENT starts, so a user with a broken file is told where to look
 * (ical.js reports neither line numbers nor truncation).
 */
import ICAL from 'ical.js';
import type { ImportProblem } from './import-types';
import { NO_PARAMETERS, parseContentLine, unfoldLines } from './lines';
import { snippet } from './problems';

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

/** Property names that are neither X- nor in ical.js's design set but occur in real files. */
const EXTRA_KNOWN_PROPERTIES = new Set([
  'COLOR', 'IMAGE', 'CONFERENCE', 'NAME', 'REFRESH-INTERVAL', 'SOURCE', 'ACKNOWLEDGED', 'TZUNTIL',
  'TZID-ALIAS-OF', 'STYLED-DESCRIPTION', 'STRUCTURED-DATA', 'PROXIMITY', 'LOCATION-TYPE',
  'PARTICIPANT-TYPE', 'CALENDAR-ADDRESS', 'RESOURCE-TYPE', 'BUSYTYPE', 'ESTIMATED-DURATION',
]);

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
