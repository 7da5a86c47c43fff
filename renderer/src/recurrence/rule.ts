/**
 * The Repeat control's choices ↔ RFC 5545 RRULE values (without the `RRULE:` prefix), as the
 * API's `recurrence.rules` holds them.
 *
 * Reading is strict on purpose: a rule is shown as choices only when writing those choices back
 * would mean exactly the same series. Anything else is a "custom rule" kept byte for byte, and a
 * rule the user did not touch is never rewritten (the editor sends `recurrence` only when the
 * choices changed), so a file imported from another calendar keeps its own wording.
 */
import { DateTime } from 'luxon';
import type { Recurrence } from '@shared/api/records';
import { normaliseZone } from '../lib/dates';

export type { Recurrence };

export type Freq = 'daily' | 'weekly' | 'monthly' | 'yearly';
export const FREQS: Freq[] = ['daily', 'weekly', 'monthly', 'yearly'];
export type Weekday = 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA' | 'SU';
/** In ISO order (luxon's weekday 1 is Monday), which is also the order BYDAY is written in. */
export const WEEKDAYS: Weekday[] = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
/** Monthly on the start's date, on its nth weekday ("second Tuesday"), or on the last one of the month. */
export type MonthlyMode = 'date' | 'nth' | 'last';
export type Ends = 'never' | 'until' | 'count';

export interface RepeatChoice {
  freq: Freq;
  /** Every N days/weeks/…; NaN while the field does not hold a number (validation says so). */
  interval: number;
  /** Weekly only. */
  weekdays: Weekday[];
  /** Monthly only. */
  monthly: MonthlyMode;
  ends: Ends;
  /** `YYYY-MM-DD`, the last day an occurrence may start on (ends = until). */
  until: string;
  /** ends = count. */
  count: number;
}

/** What the control holds: no repetition, choices it can show, or a rule it can only keep. */
export type RepeatValue = { kind: 'none' } | { kind: 'choice'; choice: RepeatChoice } | { kind: 'custom'; rule: string };

/** The event the rule belongs to: where it starts, in which zone, and whether it is all-day. */
export interface RepeatStart {
  /** `Y-m-d H:i:s` (or `Y-m-d`), wall time in `zone`. */
  start: string;
  allDay: boolean;
  zone: string;
}

export const NO_REPEAT: RepeatValue = { kind: 'none' };

/** The start's day as luxon sees it (in its own zone, so the weekday is the event's own). */
export function startDay(s: RepeatStart): DateTime {
  return DateTime.fromISO(s.start.slice(0, 10), { zone: 'UTC' });
}

export function weekdayOf(s: RepeatStart): Weekday {
  return WEEKDAYS[startDay(s).weekday - 1];
}

/** Which of its weekday in the month the start is (1–5), and whether it is also the last one. */
export function nthOf(s: RepeatStart): { nth: number; last: boolean } {
  const d = startDay(s);
  return { nth: Math.ceil(d.day / 7), last: d.day + 7 > (d.daysInMonth ?? 31) };
}

/** The choices a frequency starts with: the start's own weekday, monthly on its date, no end. */
export function defaultChoice(freq: Freq, s: RepeatStart, from?: RepeatChoice): RepeatChoice {
  return {
    freq,
    interval: from?.interval ?? 1,
    weekdays: from?.weekdays.length ? from.weekdays : [weekdayOf(s)],
    monthly: from?.monthly ?? 'date',
    ends: from?.ends ?? 'never',
    until: from?.until ?? '',
    count: from?.count ?? 10,
  };
}

const compact = (iso: string) => iso.replace(/-/g, '');

/**
 * UNTIL typed as RFC 5545 wants it: the same type as the start. An all-day series ends on a date;
 * a timed one at the end of the chosen day in the event's zone, written in UTC.
 */
export function untilValue(day: string, s: RepeatStart): string {
  if (s.allDay) return compact(day);
  const end = DateTime.fromISO(`${day}T23:59:59`, { zone: normaliseZone(s.zone) });
  return end.toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'");
}

/** The day an UNTIL value falls on, in the event's zone; null when it is not a date or date-time. */
export function untilDay(value: string, s: RepeatStart): string | null {
  let m = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  if (m) return DateTime.fromISO(`${m[1]}-${m[2]}-${m[3]}`).isValid ? `${m[1]}-${m[2]}-${m[3]}` : null;
  m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)$/.exec(value);
  if (!m) return null;
  const iso = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}`;
  const zone = normaliseZone(s.zone);
  const dt = m[7] ? DateTime.fromISO(iso, { zone: 'UTC' }).setZone(zone) : DateTime.fromISO(iso, { zone });
  return dt.isValid ? dt.toISODate() : null;
}

export function toRule(c: RepeatChoice, s: RepeatStart): string {
  const parts = [`FREQ=${c.freq.toUpperCase()}`];
  if (c.interval > 1) parts.push(`INTERVAL=${c.interval}`);
  if (c.freq === 'weekly') parts.push(`BYDAY=${WEEKDAYS.filter((d) => c.weekdays.includes(d)).join(',')}`);
  if (c.freq === 'monthly') {
    if (c.monthly === 'date') parts.push(`BYMONTHDAY=${startDay(s).day}`);
    // "Last" is offered only for a start in its month's last week; a start moved out of it means its nth.
    else parts.push(`BYDAY=${c.monthly === 'last' && nthOf(s).last ? -1 : nthOf(s).nth}${weekdayOf(s)}`);
  }
  if (c.ends === 'count') parts.push(`COUNT=${c.count}`);
  if (c.ends === 'until') parts.push(`UNTIL=${untilValue(c.until, s)}`);
  return parts.join(';');
}

const KNOWN = new Set(['FREQ', 'INTERVAL', 'BYDAY', 'BYMONTHDAY', 'BYMONTH', 'COUNT', 'UNTIL', 'WKST']);
const positive = (v: string) => (/^[1-9]\d{0,5}$/.test(v) ? Number(v) : null);

/** The choices that write a rule meaning the same series, or null when the control cannot show it. */
export function fromRule(rule: string, s: RepeatStart): RepeatChoice | null {
  const parts = new Map<string, string>();
  for (const part of rule.trim().replace(/^RRULE:/i, '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 1) return null;
    const key = part.slice(0, eq).toUpperCase();
    if (!KNOWN.has(key) || parts.has(key)) return null;
    parts.set(key, part.slice(eq + 1).toUpperCase());
  }
  const freq = (parts.get('FREQ') ?? '').toLowerCase() as Freq;
  if (!FREQS.includes(freq)) return null;
  const interval = parts.has('INTERVAL') ? positive(parts.get('INTERVAL')!) : 1;
  if (interval === null) return null;
  // The week's first day changes which weeks "every 2 weeks" picks; Monday is the default.
  if (parts.has('WKST') && parts.get('WKST') !== 'MO' && !(freq === 'weekly' && interval === 1)) return null;
  const c = defaultChoice(freq, s);
  c.interval = interval;

  if (parts.has('COUNT') && parts.has('UNTIL')) return null;
  if (parts.has('COUNT')) {
    const count = positive(parts.get('COUNT')!);
    if (count === null) return null;
    c.ends = 'count';
    c.count = count;
  } else if (parts.has('UNTIL')) {
    const day = untilDay(parts.get('UNTIL')!, s);
    if (!day) return null;
    c.ends = 'until';
    c.until = day;
  }

  const byday = parts.get('BYDAY');
  const bymonthday = parts.get('BYMONTHDAY');
  const bymonth = parts.get('BYMONTH');
  const d = startDay(s);
  switch (freq) {
    case 'daily':
      if (byday || bymonthday || bymonth) return null;
      break;
    case 'weekly': {
      if (bymonthday || bymonth) return null;
      if (byday !== undefined) {
        const days = byday.split(',');
        if (!days.every((x) => (WEEKDAYS as string[]).includes(x)) || new Set(days).size !== days.length) return null;
        c.weekdays = WEEKDAYS.filter((x) => days.includes(x));
      }
      break;
    }
    case 'monthly': {
      if (bymonth || (byday && bymonthday)) return null;
      if (bymonthday !== undefined && Number(bymonthday) !== d.day) return null;
      if (byday !== undefined) {
        const m = /^([+-]?\d)(MO|TU|WE|TH|FR|SA|SU)$/.exec(byday);
        if (!m || m[2] !== weekdayOf(s)) return null;
        const n = Number(m[1]);
        const at = nthOf(s);
        if (n === -1 && at.last) c.monthly = 'last';
        else if (n === at.nth) c.monthly = 'nth';
        else return null;
      }
      break;
    }
    case 'yearly':
      if (byday) return null;
      if (bymonth !== undefined && Number(bymonth) !== d.month) return null;
      if (bymonthday !== undefined && Number(bymonthday) !== d.day) return null;
      break;
  }
  return c;
}

/** The API's recurrence → what the control shows. RDATEs are more than it can show: custom. */
export function fromRecurrence(r: Recurrence | null | undefined, s: RepeatStart): RepeatValue {
  if (!r || r.rules.length === 0) return r && r.rdates.length ? { kind: 'custom', rule: '' } : NO_REPEAT;
  if (r.rules.length > 1 || r.rdates.length) return { kind: 'custom', rule: r.rules.join(' + ') };
  const choice = fromRule(r.rules[0], s);
  return choice ? { kind: 'choice', choice } : { kind: 'custom', rule: r.rules[0] };
}

/**
 * What to send as `recurrence`. A custom value is the original, untouched; choices replace the
 * rule but keep the series' deleted dates (EXDATE) and extra dates.
 */
export function toRecurrence(v: RepeatValue, s: RepeatStart, original: Recurrence | null | undefined): Recurrence | null {
  if (v.kind === 'none') return null;
  if (v.kind === 'custom') return original ?? null;
  return { rules: [toRule(v.choice, s)], rdates: original?.rdates ?? [], exdates: original?.exdates ?? [] };
}

/**
 * The repetition a duplicate of `e` starts with. A duplicate of an occurrence is a new series with
 * the same rule starting on that occurrence's date, as Google Calendar makes it: the user copies
 * "the Tuesday class", which repeats, and sees the rule in the editor before saving. The rule is
 * kept as written (its COUNT or UNTIL too); the series' deleted and extra dates (EXDATE, RDATE) are
 * not: they name dates of the other series.
 */
export function duplicateRecurrence(e: { recurrence?: Recurrence | null }): Recurrence | null {
  if (!e.recurrence || e.recurrence.rules.length === 0) return null;
  return { rules: [...e.recurrence.rules], rdates: [], exdates: [] };
}

export type RepeatErrorKey = 'interval' | 'weekdays' | 'count' | 'until';
/** i18n key of each problem, by the part of the control it belongs to. */
export type RepeatErrors = Partial<Record<RepeatErrorKey, string>>;

export const MAX_INTERVAL = 999;
export const MAX_COUNT = 9999;

/** Checks that block Save: returns i18n keys under `repeat.error.*`. */
export function validateRepeat(v: RepeatValue, s: RepeatStart): RepeatErrors {
  if (v.kind !== 'choice') return {};
  const c = v.choice;
  const errors: RepeatErrors = {};
  if (!Number.isInteger(c.interval) || c.interval < 1 || c.interval > MAX_INTERVAL) errors.interval = 'repeat.error.interval';
  if (c.freq === 'weekly' && c.weekdays.length === 0) errors.weekdays = 'repeat.error.weekdays';
  if (c.ends === 'count' && (!Number.isInteger(c.count) || c.count < 1 || c.count > MAX_COUNT)) errors.count = 'repeat.error.count';
  if (c.ends === 'until') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(c.until) || !DateTime.fromISO(c.until).isValid) errors.until = 'repeat.error.until_missing';
    else if (c.until < s.start.slice(0, 10)) errors.until = 'repeat.error.until_before';
  }
  return errors;
}

/** Only what a choice means: the weekdays of a monthly rule or the count of an open one do not count. */
function meaning(v: RepeatValue): unknown {
  if (v.kind !== 'choice') return v;
  const c = v.choice;
  return [
    c.freq,
    c.interval,
    c.freq === 'weekly' ? WEEKDAYS.filter((d) => c.weekdays.includes(d)) : null,
    c.freq === 'monthly' ? c.monthly : null,
    c.ends,
    c.ends === 'until' ? c.until : null,
    c.ends === 'count' ? c.count : null,
  ];
}

/** Whether two values mean the same series (what decides if the editor sends `recurrence`). */
export function sameRepeat(a: RepeatValue, b: RepeatValue): boolean {
  return JSON.stringify(meaning(a)) === JSON.stringify(meaning(b));
}
