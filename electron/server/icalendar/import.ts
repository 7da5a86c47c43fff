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
import ICAL from 'ical.js';
import type { EventBody, ImportedEvent, IcsImportOptions, IcsImportResult, ImportProblem } from './import-types';
import { EventProblem, NO_START, Unreadable, messageOf, snippet } from './problems';
import { unfoldLines } from './lines';
import { firstUnreadableLine } from './vevent-jcal';
import { scanCalendar, scanProgress, type Scan } from './scan';
import { apiZone, Zones } from './zones';
import { collectEntries, load, property, unload, type Entry } from './entries';
import { occurrenceKey } from './ical-times';
import { stringProperty } from './props';
import { MAX_FILE_RECURRENCE_STEPS, MAX_FILE_RULE_STEPS, ZONE_YEARS } from './bounds';
import { withRuleSteps } from './rule-steps';
import { VeventToRecord, isCancelled, isRecurring, type Span } from './vevent-to-record';

export type { EventBody, ImportedEvent, IcsImportOptions, IcsImportResult, ImportProblem, OrganizerBody, VenueBody } from './import-types';

type IcalComponent = InstanceType<typeof ICAL.Component>;
type IcalTime = InstanceType<typeof ICAL.Time>;
type IcalEvent = InstanceType<typeof ICAL.Event>;

const DEFAULT_MAX_OCCURRENCES = 1000;
/** Recurrence steps examined per series; stops runaway rules (FREQ=SECONDLY since 1970). */
const MAX_RECURRENCE_STEPS = 200_000;

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
    const importer = new Importer(opts, windowEnd, zones, result, onEvent);
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

interface Occurrence {
  key: string;
  startMs: number;
  line: number;
  body: EventBody;
}

const EMPTY_GROUP: { master?: Entry; overrides: Entry[] } = { overrides: [] };

class Importer {
  private readonly maxOccurrences: number;
  /** Turns VEVENTs into event bodies (dates and fields: vevent-to-record.ts). */
  private readonly records: VeventToRecord;
  /** The events of the UID being read, handed over once it is done (not from inside `guard`). */
  private made: ImportedEvent[] = [];
  /** Recurrence steps the rest of the file may take (bounds.ts). */
  private stepsLeft: number;

  constructor(
    private readonly opts: IcsImportOptions,
    private readonly windowEnd: Date,
    private readonly zones: Zones,
    private readonly result: IcsImportResult,
    private readonly onEvent: (event: ImportedEvent) => void,
  ) {
    this.maxOccurrences = opts.maxOccurrences ?? DEFAULT_MAX_OCCURRENCES;
    this.stepsLeft = opts.maxFileRecurrenceSteps ?? MAX_FILE_RECURRENCE_STEPS;
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

  private series(uid: string, master: Entry, overrides: Entry[]): void {
    const event = new ICAL.Event(master.component, { strictExceptions: false, exceptions: [] });
    const first = property(master, 'DTSTART', () => event.startDate);
    if (!first) throw new EventProblem(NO_START, 'DTSTART');

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
      if (++steps > MAX_RECURRENCE_STEPS || --this.stepsLeft < 0) {
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
