/**
 * iCalendar import: turns a calendar file from Google, Outlook, Thunderbird, Apple (or Almanac's
 * own export) into event bodies for the cal/events/v1 API.
 *
 * The file is first read line by line by our own scanner, which unfolds lines, checks the
 * BEGIN/END structure and the syntax of every line, and remembers where each VEVENT starts: ical.js
 * parses well but reports neither line numbers nor truncation, and a user with a broken file needs
 * to be told where to look. The checked text then goes to ical.js: the calendars and time zones
 * first, then each VEVENT on its own when its UID's turn comes, so that the file is never held
 * parsed whole. A recurring VEVENT and its RECURRENCE-ID overrides stay one series (its rule is
 * checked and expanded by recurrence.ts, the engine the API uses too).
 *
 * Dates come out as local `Y-m-d H:i:s` in the body's IANA `timezone`: a TZID keeps its wall time
 * (Windows zone names are mapped to IANA), UTC times are shown in the calendar's zone, floating
 * times and dates are taken to be in the site zone.
 */
import ICAL from 'ical.js';
import type { EventBody, ImportedEvent, IcsImportOptions, IcsImportResult, ImportProblem } from './import-types';
import { EventProblem, NO_START, Unreadable, messageOf, snippet } from './problems';
import { unfoldLines } from './lines';
import { firstUnreadableLine } from './vevent-jcal';
import { scanCalendar, scanProgress, type Scan } from './scan';
import { apiZone, Zones } from './zones';
import { collectEntries, load, property, unload, type Entry } from './entries';
import { isoDate, sourceOf } from './ical-times';
import { periodKey } from './fixups';
import { allProps } from './props';
import { icalValue, normalizeRecurrence, RecurrenceProblem, type Recurrence, type SeriesTiming } from './recurrence';
import { stringProperty } from './props';
import { MAX_FILE_RULE_STEPS, ZONE_YEARS } from './bounds';
import { withRuleSteps } from './rule-steps';
import { VeventToRecord, isCancelled, isRecurring, type Span } from './vevent-to-record';

export type { EventBody, ImportedEvent, IcsImportOptions, IcsImportResult, ImportProblem, OrganizerBody, PreparedEvent, ReadEvent, VenueBody } from './import-types';

type IcalComponent = InstanceType<typeof ICAL.Component>;
type IcalTime = InstanceType<typeof ICAL.Time>;


export function parseIcs(text: string, opts: IcsImportOptions): IcsImportResult {
  const file = openIcs(text, opts);
  const events: ImportedEvent[] = [];
  const result = file.read((event) => events.push(event));
  if (result.unreadable || file.broken) return { events: [], errors: result.errors, warnings: result.warnings };
  return { events, errors: result.errors, warnings: result.warnings };
}

/**
 * A scanned file, whose events are made (and can be made again, the same) one VEVENT at a time.
 * `E`: what is handed over for each (a file read on a thread may send them checked: ReadEvent).
 */
export interface IcsFile<E = ImportedEvent> {
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
  read(onEvent: (event: E) => void, onRead?: (n: number) => void): { errors: ImportProblem[]; warnings: ImportProblem[]; unreadable?: boolean };
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
  const unreadable = (failed: unknown) => {
    // Whichever VEVENT was being read, the file's first problem is the one to tell.
    const err = failed instanceof Unreadable && failed.line !== undefined ? (firstUnreadableLine(text, scan.vevents) ?? failed) : failed;
    const error =
      err instanceof Unreadable && err.line !== undefined
        ? { line: err.line, message: `Line ${err.line}: "${snippet(err.lineText ?? '')}" could not be read (${messageOf(err.reason)}).` }
        : { line: 1, message: `The file could not be read as iCalendar: ${messageOf(wholeFileError(text) ?? (err instanceof Unreadable ? err.reason : err))}` };
    return { errors: [error], warnings: [...scan.warnings], unreadable: true };
  };

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
  // Bounded: a zone's rules are built by sampling every day of the years it covers.
  const clampYear = (year: number) => Math.min(ZONE_YEARS.max, Math.max(ZONE_YEARS.min, year));
  zones.register(clampYear(scan.years.min - 1), clampYear(Math.max(scan.years.max, windowEnd.getUTCFullYear()) + 1));
  try {
    const importer = new Importer(opts, zones, result, onEvent);
    withRuleSteps(MAX_FILE_RULE_STEPS, () => importer.run(collectEntries(text, roots, scan, result), onRead));
  } catch (err) {
    if (err instanceof Unreadable) return unreadable(err);
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

const EMPTY_GROUP: { master?: Entry; overrides: Entry[] } = { overrides: [] };

class Importer {
  /** Turns VEVENTs into event bodies (dates and fields: vevent-to-record.ts). */
  private readonly records: VeventToRecord;
  /** The events of the UID being read, handed over once it is done (not from inside `guard`). */
  private made: ImportedEvent[] = [];

  constructor(
    private readonly opts: IcsImportOptions,
    zones: Zones,
    private readonly result: IcsImportResult,
    private readonly onEvent: (event: ImportedEvent) => void,
  ) {
    this.records = new VeventToRecord(opts, zones, (entry, message) => this.warn(entry, message));
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
      this.records.forget();
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

  /**
   * A recurring VEVENT and its overrides become one series: the master's fields and its rule
   * (RRULE, RDATE, EXDATE as wall times of its zone), and one item per occurrence changed on its
   * own, keyed by its original start. The store expands the rule (recurrence.ts, the same engine
   * as the API's), so the file's series stays a series.
   */
  private series(uid: string, master: Entry, overrides: Entry[]): void {
    const event = new ICAL.Event(master.component, { strictExceptions: false, exceptions: [] });
    const first = property(master, 'DTSTART', () => event.startDate);
    if (!first) throw new EventProblem(NO_START, 'DTSTART');
    const span = this.span(master, () => event.startDate, () => event.endDate);
    const body = this.body(master, span, false);
    const name = body.title;
    const at = `Line ${master.info.line}`;
    const timing: SeriesTiming = { start: span.start, zone: span.zone, allDay: span.allDay };
    const key = (t: IcalTime) => (span.allDay ? `${isoDate(t)} 00:00:00` : this.records.place(t, span.zone).local);
    // A DATE in a timed series' RDATE or EXDATE names that day (at the series' time of day, as
    // recurrence.ts reads a bare date).
    const dateValue = (t: IcalTime) => (t.isDate ? isoDate(t).replace(/-/g, '') : icalValue(key(t), span.allDay));

    const rules = allProps(master.component, 'rrule').map((p) => property(master, 'RRULE', () => String(p.getFirstValue())));
    const rdates: string[] = [];
    // RDATE periods (fixups.ts keeps their ends): occurrences with an end of their own.
    const periods: Array<{ start: string; end: string }> = [];
    for (const p of allProps(master.component, 'rdate')) {
      for (const v of property(master, 'RDATE', () => p.getValues()) as unknown[]) {
        if (!(v instanceof ICAL.Time)) continue;
        rdates.push(dateValue(v));
        const source = sourceOf(v);
        const isPeriod = master.periodEnds?.has(periodKey(v, source.kind === 'tz' ? source.tzid : undefined));
        const own = isPeriod ? this.span(master, () => v, () => undefined) : undefined;
        if (own && own.zone === span.zone && !own.allDay) periods.push({ start: own.start, end: own.end });
      }
    }
    const exdates: string[] = [];
    for (const p of allProps(master.component, 'exdate')) {
      for (const v of property(master, 'EXDATE', () => p.getValues()) as unknown[]) if (v instanceof ICAL.Time) exdates.push(dateValue(v));
    }

    const changed: ImportedEvent[] = [];
    for (const entry of overrides) {
      this.guard(entry, () => {
        const exception = new ICAL.Event(entry.component, { exceptions: [] });
        const recurrenceId = property(entry, 'RECURRENCE-ID', () => exception.recurrenceId);
        if (!recurrenceId) throw new EventProblem('its RECURRENCE-ID is empty', 'RECURRENCE-ID');
        // Matched by instant, in the master's zone, whatever zone the producer wrote it in.
        const original = key(recurrenceId);
        if (isCancelled(entry.component)) {
          exdates.push(icalValue(original, span.allDay));
          return;
        }
        const own = this.span(entry, () => exception.startDate, () => exception.endDate);
        changed.push({ uid, recurrenceId: original, line: entry.info.line, body: this.body(entry, own, false) });
      });
    }
    for (const period of periods) {
      if (changed.some((c) => c.recurrenceId === period.start)) continue;
      const length = Date.parse(`${period.end.replace(' ', 'T')}Z`) - Date.parse(`${period.start.replace(' ', 'T')}Z`);
      const usual = Date.parse(`${span.end.replace(' ', 'T')}Z`) - Date.parse(`${span.start.replace(' ', 'T')}Z`);
      if (length !== usual) changed.push({ uid, recurrenceId: period.start, line: master.info.line, body: { ...body, start_date: period.start, end_date: period.end } });
    }

    const input = { rules, rdates, exdates };
    let recurrence: Recurrence;
    try {
      recurrence = normalizeRecurrence(input, timing);
    } catch (err) {
      if (!(err instanceof RecurrenceProblem)) throw err;
      const line = master.info.propLines.get('RRULE') ?? master.info.line;
      this.result.warnings.push({ line, message: `Line ${line}: the repeat rule of "${name}" cannot be kept (${err.message}); its first occurrence was imported as a single event.` });
      if (isCancelled(master.component)) return;
      this.made.push({ uid, line: master.info.line, body });
      return;
    }
    if (isCancelled(master.component)) {
      this.warn(master, `${at}: the repeating event "${name}" is cancelled (STATUS:CANCELLED); it was not imported.`);
      return;
    }
    this.made.push({ uid, line: master.info.line, body: { ...body, recurrence } });
    this.made.push(...changed);
  }

  /**
   * Occurrences whose series is not in the file (Google shares single instances this way): each
   * updates its occurrence when the calendar has the series, else comes in as an event of its own.
   */
  private orphans(uid: string, entries: Entry[]): void {
    for (const entry of entries) {
      if (isCancelled(entry.component)) continue;
      this.guard(entry, () => {
        const event = new ICAL.Event(entry.component, { exceptions: [] });
        const recurrenceId = property(entry, 'RECURRENCE-ID', () => event.recurrenceId);
        const span = this.span(entry, () => event.startDate, () => event.endDate);
        const window = this.opts.window;
        if (window && (span.startMs < window.start.getTime() || span.startMs >= window.end.getTime())) return;
        const original = recurrenceId.isDate ? `${isoDate(recurrenceId)} 00:00:00` : this.records.place(recurrenceId, span.zone).local;
        this.made.push({ uid, recurrenceId: original, line: entry.info.line, body: this.body(entry, span, false) });
      });
    }
  }

  private span(entry: Entry, getStart: () => IcalTime | undefined, getEnd: () => IcalTime | undefined): Span {
    return this.records.span(entry, getStart, getEnd);
  }

  private body(entry: Entry, span: Span, shared = true): EventBody {
    return this.records.body(entry, span, shared);
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
