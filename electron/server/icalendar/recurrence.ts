/**
 * How a series is expanded: the one recurrence engine of Almanac. The API's occurrence rows, the
 * iCalendar import and export (and later reminders and sync) all expand series here.
 *
 * A series is RFC 5545's recurrence set: DTSTART, one or more RRULEs, RDATEs and EXDATEs. ical.js
 * does the rule arithmetic (its RecurIterator); this module only feeds it the rule, merges the
 * rules with RDATEs and EXDATEs, and bounds the work. Everything is wall time in the series' own
 * zone (`Y-m-d H:i:s`), so 09:00 in New York stays 09:00 across daylight-saving changes and an
 * all-day series stays on dates.
 *
 * Bounds: rules are checked before they are stored (at most 24 occurrences a day, COUNT and
 * INTERVAL ranges), every expansion stops after `maxSteps` iterator steps, and a window far from
 * DTSTART starts the iterator near the window (see `rebase`) so an open-ended daily series costs
 * the same for a window in 2090 as for next week.
 */
import ICAL from 'ical.js';
import { localToUtc, utcToLocal, wallAsUtc, wallToMillis } from '../../../shared/dates/format';
import { needsSelection, selectedStarts } from './recurrence-periods';
import { isPlainRule, plainStarts } from './recurrence-plain';
import { addWall, dayNumber, icalTime, pad, ruleForIcal, wall, wallOf, WEEK_DAYS } from './rule-time';
// Also bounds ical.js's own search for each next occurrence (it loops for ever on some rules).
import { RuleTooSparse } from './rule-steps';

/** What the API's `recurrence` field holds: RFC 5545 values, without the property names. */
export interface Recurrence {
  rules: string[];
  rdates: string[];
  exdates: string[];
}

/** Where a series starts: its first occurrence, as a wall time in its zone. */
export interface SeriesTiming {
  /** `Y-m-d H:i:s` in `zone` (`Y-m-d 00:00:00` for all-day series). */
  start: string;
  zone: string;
  allDay: boolean;
}

export const RECURRENCE_LIMITS = {
  rules: 10,
  dates: 10_000,
  count: 10_000,
  interval: 1_000,
  perDay: 24,
  /** Iterator steps one expansion may take before it stops (about 13 µs each). */
  steps: 50_000,
} as const;

/** A problem with a recurrence, in words: the API puts it in `rest_invalid_param`'s details. */
export class RecurrenceProblem extends Error {}

const FREQS = ['SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const;
export type Freq = (typeof FREQS)[number];
const WEEKDAYS = new Set(['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU']);

/** Integer list parts and the range each value must be in (0 excluded where RFC 5545 says so). */
const INT_LISTS: Record<string, [min: number, max: number, zero: boolean]> = {
  BYSECOND: [0, 60, true],
  BYMINUTE: [0, 59, true],
  BYHOUR: [0, 23, true],
  BYMONTHDAY: [-31, 31, false],
  BYYEARDAY: [-366, 366, false],
  BYWEEKNO: [-53, 53, false],
  BYMONTH: [1, 12, true],
  BYSETPOS: [-366, 366, false],
};

export interface RuleParts {
  freq: Freq;
  interval: number;
  count?: number;
  /** The UNTIL bound as a wall time in the series zone (end of the day for a date). */
  until?: string;
  /**
   * A timed series' UNTIL as an instant (ms): RFC 5545 compares it with each occurrence's
   * instant, which differs from comparing wall times in the hour a fall-back repeats, and it is
   * written back as given (through the wall time, 06:30Z would come back as 05:30Z in New York).
   */
  untilMs?: number;
  parts: Map<string, string>;
}

/** `20270105T180000`, `20270105T180000Z` or `20270105` to its pieces; undefined when malformed. */
function readIcalDate(v: string): { date: string; time?: string; utc: boolean } | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(v.trim().toUpperCase());
  if (!m) {
    // Also the API's own `Y-m-d H:i:s` and `Y-m-d`, for script authors.
    const w = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(v.trim());
    if (!w) return undefined;
    return check(w[1], w[2], w[3], w[4], w[5], w[6] ?? '00', false);
  }
  return check(m[1], m[2], m[3], m[4], m[5], m[6], !!m[7]);
}

function check(y: string, mo: string, d: string, h: string | undefined, mi: string | undefined, s: string | undefined, utc: boolean) {
  const year = +y, month = +mo, day = +d;
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  const probe = new Date(Date.UTC(2000, month - 1, day));
  if (probe.getUTCMonth() !== month - 1 && !(month === 2 && day === 29)) return undefined;
  if (month === 2 && day === 29 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0))) return undefined;
  const date = `${y}-${mo}-${d}`;
  if (h === undefined) return { date, utc: false };
  if (+h > 23 || +mi! > 59 || +s! > 60) return undefined;
  return { date, time: `${h}:${mi}:${s}`, utc };
}

/** A wall time in the series zone as an RFC 5545 value (`20270105T180000` or `20270105`). */
export function icalValue(local: string, allDay: boolean): string {
  const compact = local.replace(/[-:]/g, '').replace(' ', 'T');
  return allDay ? compact.slice(0, 8) : compact.slice(0, 15);
}

/** An RFC 5545 date or date-time to a wall time of the series (UTC values converted to its zone). */
export function wallOfValue(v: string, timing: SeriesTiming): string | undefined {
  const d = readIcalDate(v);
  if (!d) return undefined;
  if (timing.allDay) return `${d.date} 00:00:00`;
  // A date for a timed series means that day at the series' time of day (what Outlook writes).
  if (!d.time) return `${d.date} ${timing.start.slice(11)}`;
  const wall = `${d.date} ${d.time}`;
  return d.utc ? utcToLocal(wall, timing.zone) : wall;
}

/** Reads and checks one RRULE value; throws a RecurrenceProblem that says what is wrong. */
export function readRule(rule: string, timing: SeriesTiming): RuleParts {
  if (typeof rule !== 'string' || !rule.trim()) throw new RecurrenceProblem('a rule is empty');
  const text = rule.trim().replace(/^RRULE:/i, '');
  if (text.length > 1000) throw new RecurrenceProblem('a rule is too long');
  const parts = new Map<string, string>();
  for (const piece of text.split(';')) {
    if (!piece) continue;
    const eq = piece.indexOf('=');
    if (eq <= 0) throw new RecurrenceProblem(`"${piece}" is not NAME=VALUE`);
    const name = piece.slice(0, eq).trim().toUpperCase();
    if (parts.has(name)) throw new RecurrenceProblem(`${name} is given twice`);
    parts.set(name, piece.slice(eq + 1).trim().toUpperCase());
  }
  const freqText = parts.get('FREQ');
  if (!freqText) throw new RecurrenceProblem('FREQ is missing');
  if (!(FREQS as readonly string[]).includes(freqText)) throw new RecurrenceProblem(`FREQ=${freqText} is not a frequency (DAILY, WEEKLY, MONTHLY, YEARLY, HOURLY)`);
  const freq = freqText as Freq;
  // RFC 7529: a Gregorian RSCALE that skips missing days (the default) is a plain rule.
  if (parts.get('RSCALE') === 'GREGORIAN' && (parts.get('SKIP') ?? 'OMIT') === 'OMIT') {
    parts.delete('RSCALE');
    parts.delete('SKIP');
  }
  if (parts.has('RSCALE')) throw new RecurrenceProblem(`RSCALE=${parts.get('RSCALE')} (rules in other calendar systems, RFC 7529) is not supported`);
  if (parts.has('SKIP')) throw new RecurrenceProblem('SKIP (RFC 7529) is only meaningful with RSCALE');

  const positive = (name: string, max: number): number | undefined => {
    const v = parts.get(name);
    if (v === undefined) return undefined;
    if (!/^\d{1,9}$/.test(v) || +v < 1) throw new RecurrenceProblem(`${name} must be a whole number of at least 1`);
    if (+v > max) throw new RecurrenceProblem(`${name} may be at most ${max}`);
    return +v;
  };
  const interval = positive('INTERVAL', RECURRENCE_LIMITS.interval) ?? 1;
  const count = positive('COUNT', RECURRENCE_LIMITS.count);
  let until: string | undefined;
  let untilMs: number | undefined;
  const untilText = parts.get('UNTIL');
  if (untilText !== undefined) {
    if (count !== undefined) throw new RecurrenceProblem('COUNT and UNTIL cannot both be given');
    const d = readIcalDate(untilText);
    if (!d) throw new RecurrenceProblem(`UNTIL=${untilText} is not a date (20270601) or a date-time (20270601T000000Z)`);
    until = !d.time ? `${d.date} 23:59:59` : d.utc ? utcToLocal(`${d.date} ${d.time}`, timing.zone) : `${d.date} ${d.time}`;
    if (timing.allDay) until = `${until.slice(0, 10)} 23:59:59`;
    else untilMs = d.time && d.utc ? wallAsUtc(wall(`${d.date} ${d.time}`)) : instantOf(until, timing.zone);
    if (until < timing.start) throw new RecurrenceProblem(`UNTIL=${untilText} is before the event's start`);
  }

  for (const [name, value] of parts) {
    if (name === 'FREQ' || name === 'INTERVAL' || name === 'COUNT' || name === 'UNTIL') continue;
    if (name === 'WKST') {
      if (!WEEKDAYS.has(value)) throw new RecurrenceProblem(`WKST=${value} is not a weekday (MO…SU)`);
      continue;
    }
    if (name === 'BYDAY') {
      for (const day of value.split(',')) {
        const m = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(day);
        if (!m || (m[1] !== undefined && (+m[1] === 0 || Math.abs(+m[1]) > 53))) throw new RecurrenceProblem(`BYDAY=${value}: "${day}" is not a weekday like TU, 2TU or -1FR`);
        if (m[1] !== undefined && freq !== 'MONTHLY' && freq !== 'YEARLY') throw new RecurrenceProblem(`BYDAY=${value}: a numbered weekday needs FREQ=MONTHLY or YEARLY`);
      }
      continue;
    }
    const range = INT_LISTS[name];
    if (!range) throw new RecurrenceProblem(`${name} is not a rule part Almanac knows`);
    const values = value.split(',');
    if (values.length > 366) throw new RecurrenceProblem(`${name} lists too many values`);
    for (const v of values) {
      if (!/^[+-]?\d{1,3}$/.test(v) || +v < range[0] || +v > range[1] || (!range[2] && +v === 0)) {
        throw new RecurrenceProblem(`${name}=${value}: ${v} is out of range (${range[0]} to ${range[1]}${range[2] ? '' : ', not 0'})`);
      }
    }
  }
  if (parts.has('BYSETPOS') && ![...parts.keys()].some((n) => n.startsWith('BY') && n !== 'BYSETPOS')) {
    throw new RecurrenceProblem('BYSETPOS needs another BY… part to choose from');
  }
  const perDay = occurrencesPerDay(freq, interval, parts);
  if (perDay > RECURRENCE_LIMITS.perDay) {
    throw new RecurrenceProblem(`the rule makes more than ${RECURRENCE_LIMITS.perDay} occurrences a day (about ${Math.round(perDay)})`);
  }
  if (timing.allDay && (freq === 'HOURLY' || parts.has('BYHOUR') || parts.has('BYMINUTE') || parts.has('BYSECOND'))) {
    throw new RecurrenceProblem('an all-day event cannot repeat by the hour');
  }
  try {
    // ical.js must read it too (it ignores what it does not know, so this is after our checks),
    // and find its next occurrences: FREQ=DAILY;BYMONTH=2;BYMONTHDAY=31 never has one.
    const iterator = ICAL.Recur.fromString(ruleForIcal(freq, interval, count, parts)).iterator(icalTime(timing.start, timing.allDay));
    for (let i = 0; i < 2 && iterator.next(); i++);
  } catch (err) {
    throw new RecurrenceProblem(err instanceof RuleTooSparse ? 'the rule never repeats as written (no next occurrence could be found)' : err instanceof Error ? err.message : String(err));
  }
  return { freq, interval, count, until, untilMs, parts };
}

/**
 * `readRule` remembered: it checks the rule and has ical.js take two steps of it, which cost as
 * much as expanding a month of it, and a far month's list expands a thousand series at once.
 * Rules are few and parts are never changed after reading.
 */
const readRules = new Map<string, RuleParts>();
function ruleOf(rule: string, timing: SeriesTiming): RuleParts {
  const key = `${rule}\u0000${timing.start}\u0000${timing.zone}\u0000${timing.allDay ? 1 : 0}`;
  let r = readRules.get(key);
  if (!r) {
    r = readRule(rule, timing);
    if (readRules.size >= 20_000) readRules.clear();
    readRules.set(key, r);
  }
  return r;
}

/** A wall time's instant (ms); a repeated wall time is its first instance (RFC 5545 §3.3.5). */
const instantOf = (local: string, zone: string) => wallToMillis(wall(local), zone, true);

/** Whether an occurrence at `local` is past the rule's UNTIL. */
function pastUntil(r: RuleParts, local: string, zone: string): boolean {
  if (r.until === undefined) return false;
  if (r.untilMs === undefined) return local > r.until;
  // Wall time and instant order differ only within a few hours of a DST change.
  const gap = wallAsUtc(wall(local)) - wallAsUtc(wall(r.until));
  if (Math.abs(gap) > 3 * 3_600_000) return gap > 0;
  return instantOf(local, zone) > r.untilMs;
}

/** The most occurrences the rule can make in one day, from its parts alone (no expansion). */
function occurrencesPerDay(freq: Freq, interval: number, parts: Map<string, string>): number {
  const n = (name: string, whole: number) => (parts.has(name) ? parts.get(name)!.split(',').length : whole);
  switch (freq) {
    case 'SECONDLY':
      return Math.min(86_400 / interval, n('BYHOUR', 24) * n('BYMINUTE', 60) * n('BYSECOND', 60));
    case 'MINUTELY':
      return Math.min(1440 / interval, n('BYHOUR', 24) * n('BYMINUTE', 60)) * n('BYSECOND', 1);
    case 'HOURLY':
      return Math.min(Math.ceil(24 / interval), n('BYHOUR', 24)) * n('BYMINUTE', 1) * n('BYSECOND', 1);
    default:
      return n('BYHOUR', 1) * n('BYMINUTE', 1) * n('BYSECOND', 1);
  }
}

/**
 * Checks a recurrence as the API receives it and returns it in its stored form: rules with UNTIL
 * typed like the start (a date for all-day series, UTC for timed ones, as Radicale and dateutil
 * insist), dates as wall times of the series, sorted, without duplicates.
 */
export function normalizeRecurrence(input: unknown, timing: SeriesTiming): Recurrence {
  if (typeof input === 'string') input = { rules: [input] };
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new RecurrenceProblem('expected {"rules": [...], "rdates": [...], "exdates": [...]}');
  }
  const o = input as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!['rules', 'rdates', 'exdates'].includes(key)) throw new RecurrenceProblem(`"${key}" is not one of rules, rdates, exdates`);
  }
  const list = (key: string, max: number): string[] => {
    const v = o[key] ?? [];
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new RecurrenceProblem(`${key} must be a list of strings`);
    if (v.length > max) throw new RecurrenceProblem(`${key} may hold at most ${max} values`);
    return v as string[];
  };
  const rules = list('rules', RECURRENCE_LIMITS.rules);
  const rdates = list('rdates', RECURRENCE_LIMITS.dates);
  const exdates = list('exdates', RECURRENCE_LIMITS.dates);
  if (!rules.length && !rdates.length) throw new RecurrenceProblem('give at least one rule (or RDATE)');
  const dates = (key: string, values: string[]) =>
    [...new Set(values.map((v) => {
      const wall = wallOfValue(v, timing);
      if (!wall) throw new RecurrenceProblem(`${key}: "${v}" is not a date (20270105) or a date-time (20270105T180000)`);
      return icalValue(wall, timing.allDay);
    }))].sort();
  return {
    rules: rules.map((r) => writeRule(readRule(r, timing), timing)),
    rdates: dates('rdates', rdates),
    exdates: dates('exdates', exdates),
  };
}

/** A checked rule in its stored form. */
export function writeRule(r: RuleParts, timing: SeriesTiming): string {
  const out = [`FREQ=${r.freq}`];
  if (r.interval !== 1) out.push(`INTERVAL=${r.interval}`);
  for (const [name, value] of r.parts) if (!['FREQ', 'INTERVAL', 'COUNT', 'UNTIL'].includes(name)) out.push(`${name}=${value}`);
  if (r.count !== undefined) out.push(`COUNT=${r.count}`);
  if (r.until !== undefined) out.push(`UNTIL=${r.untilMs !== undefined && !timing.allDay ? utcValue(r.untilMs) : untilValue(r.until, timing)}`);
  return out.join(';');
}

function utcValue(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
}

function untilValue(wall: string, timing: SeriesTiming): string {
  if (timing.allDay) return wall.slice(0, 10).replace(/-/g, '');
  return `${localToUtc(wall, timing.zone).replace(/[-:]/g, '').replace(' ', 'T')}Z`;
}

/**
 * Where to start iterating a rule for a window that opens at `from`: DTSTART itself, or, when the
 * window is far ahead and the rule's set does not depend on where it started (no COUNT; a whole
 * number of periods later, so weekdays, month days and BYSETPOS fall the same), a start a few
 * periods before the window. Any start it returns that is not itself an occurrence lies before
 * `from`, so the window's filter drops it.
 */
function rebase(r: RuleParts, start: string, from: string): string {
  if (r.count !== undefined || from <= start) return start;
  const gapDays = (wallAsUtc(wall(from)) - wallAsUtc(wall(start))) / 86_400_000;
  const day = +start.slice(8, 10);
  let unit: 'day' | 'month' | 'year';
  let periodDays: number;
  let step: number;
  switch (r.freq) {
    case 'HOURLY':
      // Whole days that are a whole number of periods, so the hours of the day fall the same.
      [unit, periodDays, step] = ['day', 1, r.interval / gcd(r.interval, 24)];
      break;
    case 'DAILY':
      [unit, periodDays, step] = ['day', 1, r.interval];
      break;
    case 'WEEKLY':
      [unit, periodDays, step] = ['day', 7, 7 * r.interval];
      break;
    case 'MONTHLY':
      if (day > 28) return start; // a later month may not have that day
      [unit, periodDays, step] = ['month', 30.44, r.interval];
      break;
    case 'YEARLY':
      if (start.slice(5, 10) === '02-29') return start;
      [unit, periodDays, step] = ['year', 365.25, r.interval];
      break;
    default:
      return start;
  }
  const periods = Math.floor(gapDays / (periodDays * (unit === 'day' ? step / periodDays : step))) - 2;
  if (periods < 64) return start; // close enough: not worth it
  return addWall(start, unit, periods * step);
}

const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);

/** The rule's starts as ical.js makes them, from `begin` on. */
function* icalStarts(r: RuleParts, timing: SeriesTiming, begin: string): Generator<string> {
  const iterator = ICAL.Recur.fromString(ruleForIcal(r.freq, r.interval, r.count, r.parts)).iterator(icalTime(begin, timing.allDay));
  for (let t = iterator.next(); t; t = iterator.next()) yield wallOf(t, timing.allDay);
}

export interface Expansion {
  /** Occurrence starts in the window, wall times of the series, in order. */
  starts: string[];
  /** The expansion stopped at its step bound before the window's end. */
  truncated: boolean;
}

/**
 * The series' occurrence starts in [from, to) (wall times in its zone): DTSTART (always the first
 * occurrence, RFC 5545 §3.8.5.3), every rule's occurrences and the RDATEs, less the EXDATEs.
 */
export function expand(
  rec: Recurrence,
  timing: SeriesTiming,
  from: string,
  to: string,
  /** `icalOnly`: every rule through ical.js, the plain ones too (the test that compares the two). */
  opts: { maxSteps?: number; maxResults?: number; icalOnly?: boolean } = {},
): Expansion {
  const maxSteps = opts.maxSteps ?? RECURRENCE_LIMITS.steps;
  const maxResults = opts.maxResults ?? Infinity;
  const exdates = new Set(rec.exdates.map((v) => wallOfValue(v, timing)));
  const found = new Set<string>();
  const take = (local: string) => {
    if (local >= from && local < to && !exdates.has(local)) found.add(local);
  };
  take(timing.start);
  for (const v of rec.rdates) {
    const local = wallOfValue(v, timing);
    if (local) take(local);
  }
  let truncated = false;
  let steps = 0;
  for (const text of rec.rules) {
    const r = ruleOf(text, timing);
    const begin = rebase(r, timing.start, from);
    const stepsLeft = { n: maxSteps * 4 };
    const made = needsSelection(r)
      ? selectedStarts(r, timing, begin, stepsLeft)
      : !opts.icalOnly && isPlainRule(r)
        ? plainStarts(r, timing, begin)
        : icalStarts(r, timing, begin);
    // COUNT includes DTSTART; ical.js counts only what the rule makes, so when DTSTART is not one
    // of them the rule gives one occurrence fewer.
    let left = r.count ?? Infinity;
    let first = true;
    try {
      for (const local of made) {
        if (first && r.count !== undefined && local !== timing.start) left--;
        first = false;
        if (left-- <= 0) break;
        if (pastUntil(r, local, timing.zone) || local >= to) break;
        if (++steps > maxSteps) {
          truncated = true;
          break;
        }
        take(local);
        if (found.size >= maxResults * 2) break;
      }
    } catch (err) {
      // ical.js gave up looking for a next occurrence (rule-steps.ts): the rule ends there.
      if (!(err instanceof RuleTooSparse)) throw err;
      truncated = true;
    }
    if (stepsLeft.n <= 0) truncated = true;
  }
  const starts = [...found].sort();
  return { starts: starts.length > maxResults ? starts.slice(0, maxResults) : starts, truncated };
}

/**
 * A wall time no occurrence starts after, or null when the series never ends: UNTIL for rules
 * that have one (close enough to stop generating), the last occurrence for COUNT rules.
 */
export function lastStart(rec: Recurrence, timing: SeriesTiming): string | null {
  let last = timing.start;
  const later = (v: string | undefined) => {
    if (v && v > last) last = v;
  };
  for (const v of rec.rdates) later(wallOfValue(v, timing));
  for (const text of rec.rules) {
    const r = readRule(text, timing);
    // An UNTIL compared as an instant lets a wall time up to a DST change's size past its own.
    if (r.until !== undefined) later(r.untilMs === undefined ? r.until : addWall(r.until, 'hour', 3));
    else if (r.count !== undefined) {
      const all = expand({ rules: [text], rdates: [], exdates: [] }, timing, timing.start, '9999-12-31 23:59:59');
      if (all.truncated) return null;
      later(all.starts[all.starts.length - 1]);
    } else return null;
  }
  return last;
}

/**
 * Ends a series before `at` (the "this and following" split): each rule gets an UNTIL just
 * before it (or a smaller COUNT), and RDATEs and EXDATEs from `at` on go to the new series.
 */
export function splitAt(rec: Recurrence, timing: SeriesTiming, at: string): { before: Recurrence; after: { rules: string[]; rdates: string[]; exdates: string[] } } {
  const before: Recurrence = { rules: [], rdates: [], exdates: [] };
  const after: Recurrence = { rules: [], rdates: [], exdates: [] };
  const atValue = icalValue(at, timing.allDay);
  const kept = expand(rec, timing, timing.start, at).starts;
  const lastKept = kept[kept.length - 1] ?? timing.start;
  for (const text of rec.rules) {
    const r = readRule(text, timing);
    const ending: RuleParts = { ...r, parts: new Map(r.parts) };
    if (r.count !== undefined) {
      const made = expand({ rules: [text], rdates: [], exdates: [] }, timing, timing.start, at).starts.length;
      ending.count = Math.max(1, made);
      const rest = r.count - made;
      const cont: RuleParts = { ...r, parts: new Map(r.parts), count: Math.max(1, rest) };
      if (rest > 0) after.rules.push(writeRule(cont, { ...timing, start: at }));
    } else {
      ending.until = timing.allDay ? `${lastKept.slice(0, 10)} 23:59:59` : lastKept;
      ending.untilMs = timing.allDay ? undefined : instantOf(lastKept, timing.zone);
      // A rule that ended before `at` (split at an RDATE after its UNTIL) has nothing to carry on.
      if (r.until === undefined || r.until >= at) after.rules.push(writeRule(r, { ...timing, start: at }));
    }
    before.rules.push(writeRule(ending, timing));
  }
  for (const v of rec.rdates) (v < atValue ? before : after).rdates.push(v);
  for (const v of rec.exdates) (v < atValue ? before : after).exdates.push(v);
  return { before, after };
}

/**
 * The same series with its start moved by `deltaMs` of wall time (a whole-series move): RDATEs,
 * EXDATEs and UNTIL move with it (as Thunderbird does) so they keep naming the same occurrences;
 * weekly weekdays and monthly days move by the days the start's date moves.
 */
export function shiftRecurrence(rec: Recurrence, timing: SeriesTiming, deltaMs: number): Recurrence {
  if (deltaMs === 0) return rec;
  const shiftWall = (local: string) => {
    const ms = wallAsUtc(wall(local)) + deltaMs;
    const d = new Date(ms);
    return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  };
  const moved = { ...timing, start: shiftWall(timing.start) };
  const dates = (values: string[]) => values.map((v) => icalValue(shiftWall(wallOfValue(v, timing)!), timing.allDay));
  // Weekdays and month days follow the calendar date of the start, not whole 24-hour steps: a
  // Tuesday 18:00 moved to Wednesday 20:00, or a Tuesday 22:00 moved past midnight, is on Wednesdays now.
  const days = dayNumber(moved.start) - dayNumber(timing.start);
  const names = WEEK_DAYS;
  const rules = rec.rules.map((text) => {
    const r = readRule(text, timing);
    const parts = new Map(r.parts);
    if (days && r.freq === 'WEEKLY' && parts.has('BYDAY')) {
      parts.set('BYDAY', parts.get('BYDAY')!.split(',').map((d) => names[(((names.indexOf(d) + days) % 7) + 7) % 7]).join(','));
    }
    if (days && r.freq === 'MONTHLY' && parts.has('BYMONTHDAY')) {
      const values = parts.get('BYMONTHDAY')!.split(',').map(Number);
      if (values.every((v) => v > 0 && v + days >= 1 && v + days <= 28)) parts.set('BYMONTHDAY', values.map((v) => v + days).join(','));
    }
    return writeRule({ ...r, parts, until: r.until ? shiftWall(r.until) : undefined, untilMs: undefined }, moved);
  });
  return { rules, rdates: dates(rec.rdates), exdates: dates(rec.exdates) };
}
