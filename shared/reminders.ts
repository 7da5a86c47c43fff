/**
 * Reminders (Almanac): what an event's `reminders` hold, checked once here for the API, the
 * importer and the settings. Each maps 1:1 to an RFC 5545 VALARM, so a script author can write one
 * by hand and an ICS file's can be kept as they are:
 *
 *   {"action": "display", "trigger": "-PT15M"}                       TRIGGER:-PT15M
 *   {"action": "display", "trigger": "-PT5M", "related": "end"}      TRIGGER;RELATED=END:-PT5M
 *   {"action": "audio", "at": "2027-01-05T08:00:00Z"}                TRIGGER;VALUE=DATE-TIME:20270105T080000Z
 *   {"action": "display", "trigger": "-PT15H", "repeat": 2, "repeat_every": "PT5M"}   REPEAT / DURATION
 *
 * A bare duration string ("-PT15M") is short for a display reminder.
 */

export const REMINDER_ACTIONS = ['display', 'audio', 'email'] as const;
export type ReminderAction = (typeof REMINDER_ACTIONS)[number];

export interface Reminder {
  action: ReminderAction;
  /** RFC 5545 duration relative to the start (or the end, with `related: "end"`); absent with `at`. */
  trigger?: string;
  related?: 'start' | 'end';
  /** An absolute moment, UTC (`2027-01-05T08:00:00Z`); absent with `trigger`. */
  at?: string;
  /** How many more times it fires after the first, `repeat_every` apart (REPEAT, DURATION). */
  repeat?: number;
  repeat_every?: string;
  /** The text shown or mailed (DESCRIPTION); for e-mail, SUMMARY and ATTENDEEs are kept too. */
  description?: string;
  summary?: string;
  attendees?: string[];
}

/** A parsed RFC 5545 duration: nominal days (weeks and days, wall-clock) and exact seconds. */
export interface Duration {
  days: number;
  seconds: number;
}

/** A reminder can be at most this far from its event (a year): bounds the schedule's scans. */
export const MAX_REMINDER_OFFSET_S = 366 * 86400;
export const MAX_REMINDERS = 20;
const MAX_REPEAT = 100;

const DURATION = /^([+-])?P(?:(\d{1,6})W|(?:(\d{1,6})D)?(?:T(?:(\d{1,7})H)?(?:(\d{1,9})M)?(?:(\d{1,10})S)?)?)$/;

/** Parses `-P1DT15H`, `PT5M`, `P2W`; undefined when it is not an RFC 5545 duration. */
export function parseDuration(text: string): Duration | undefined {
  const m = DURATION.exec(text.trim().toUpperCase());
  if (!m) return undefined;
  const [, sign, w, d, h, min, s] = m;
  // "P" and "PT" alone say nothing.
  if (w === undefined && d === undefined && h === undefined && min === undefined && s === undefined) return undefined;
  const k = sign === '-' ? -1 : 1;
  const days = (Number(w ?? 0) * 7 + Number(d ?? 0)) * k;
  const seconds = (Number(h ?? 0) * 3600 + Number(min ?? 0) * 60 + Number(s ?? 0)) * k;
  return { days: days || 0, seconds: seconds || 0 };
}

/** The duration written back canonically (`-P1DT15H`, `PT0S`), so equal triggers compare equal. */
export function formatDuration(d: Duration): string {
  const neg = d.days < 0 || d.seconds < 0;
  const days = Math.abs(d.days);
  let s = Math.abs(d.seconds);
  if (!days && !s) return 'PT0S';
  let out = neg ? '-P' : 'P';
  if (days && !s && days % 7 === 0) return `${out}${days / 7}W`;
  if (days) out += `${days}D`;
  if (s) {
    out += 'T';
    const h = Math.floor(s / 3600);
    s -= h * 3600;
    const m = Math.floor(s / 60);
    s -= m * 60;
    if (h) out += `${h}H`;
    if (m) out += `${m}M`;
    if (s) out += `${s}S`;
  }
  return out;
}

export const durationSeconds = (d: Duration): number => d.days * 86400 + d.seconds;

const AT = /^(\d{4})-?(\d{2})-?(\d{2})T(\d{2}):?(\d{2}):?(\d{2})(?:\.\d+)?Z$/;

/** `2027-01-05T08:00:00Z` or `20270105T080000Z` → `2027-01-05 08:00:00` (UTC), else undefined. */
export function parseAtUtc(text: string): string | undefined {
  const m = AT.exec(text.trim().toUpperCase());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m;
  const ms = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  const back = new Date(ms);
  if (back.getUTCMonth() !== +mo - 1 || back.getUTCDate() !== +d || +h > 23 || +mi > 59 || +s > 59) return undefined;
  return `${y}-${mo}-${d} ${h}:${mi}:${s}`;
}

/** A message key (shared/i18n/messages.ts) for what is wrong, or the normalised reminder. */
export function normalizeReminder(v: unknown): Reminder | string {
  if (typeof v === 'string') v = { action: 'display', trigger: v };
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'invalid_reminder';
  const o = v as Record<string, unknown>;
  const known = new Set(['action', 'trigger', 'related', 'at', 'repeat', 'repeat_every', 'description', 'summary', 'attendees']);
  if (Object.keys(o).some((key) => !known.has(key))) return 'invalid_reminder';
  const action = typeof o.action === 'string' ? o.action.toLowerCase() : o.action === undefined ? 'display' : undefined;
  if (!action || !(REMINDER_ACTIONS as readonly string[]).includes(action)) return 'invalid_reminder_action';
  const out: Reminder = { action: action as ReminderAction };
  if ((o.trigger === undefined) === (o.at === undefined)) return 'invalid_reminder_trigger';
  if (o.trigger !== undefined) {
    const d = typeof o.trigger === 'string' && o.trigger.length <= 40 ? parseDuration(o.trigger) : undefined;
    if (!d || Math.abs(durationSeconds(d)) > MAX_REMINDER_OFFSET_S) return 'invalid_reminder_trigger';
    out.trigger = formatDuration(d);
    const related = o.related === undefined ? 'start' : typeof o.related === 'string' ? o.related.toLowerCase() : '';
    if (related !== 'start' && related !== 'end') return 'invalid_reminder_trigger';
    if (related === 'end') out.related = 'end';
  } else {
    if (o.related !== undefined) return 'invalid_reminder_trigger';
    const at = typeof o.at === 'string' ? parseAtUtc(o.at) : undefined;
    if (!at) return 'invalid_reminder_trigger';
    out.at = `${at.replace(' ', 'T')}Z`;
  }
  if (o.repeat !== undefined || o.repeat_every !== undefined) {
    const n = o.repeat;
    const every = typeof o.repeat_every === 'string' ? parseDuration(o.repeat_every) : undefined;
    // RFC 5545: REPEAT and DURATION come together; a repeat every "no time" would fire all at once.
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_REPEAT || !every || durationSeconds(every) <= 0) return 'invalid_reminder_repeat';
    if (n > 0) {
      out.repeat = n;
      out.repeat_every = formatDuration(every);
    }
  }
  for (const key of ['description', 'summary'] as const) {
    const t = o[key];
    if (t === undefined) continue;
    if (typeof t !== 'string' || t.length > 2000 || t.includes('\u0000')) return 'invalid_reminder';
    if (t !== '') out[key] = t;
  }
  if (o.attendees !== undefined) {
    const list = o.attendees;
    if (!Array.isArray(list) || list.length > 50 || list.some((a) => typeof a !== 'string' || a.length > 320 || !/^(mailto:)?[^\s@]+@[^\s@]+$/i.test(a))) return 'invalid_reminder';
    if (list.length) out.attendees = (list as string[]).map((a) => a.replace(/^mailto:/i, ''));
  }
  return out;
}

/** A list of reminders, or the message key of the first problem. `null` and `[]` mean none. */
export function normalizeReminders(v: unknown): Reminder[] | string {
  if (v === null || v === '' || v === 'null') return [];
  if (typeof v === 'string' && v.trim().startsWith('[')) {
    try {
      v = JSON.parse(v);
    } catch {
      return 'invalid_reminders';
    }
  }
  const list = Array.isArray(v) ? v : [v];
  if (list.length > MAX_REMINDERS) return 'invalid_reminders';
  const out: Reminder[] = [];
  for (const item of list) {
    const r = normalizeReminder(item);
    if (typeof r === 'string') return r;
    out.push(r);
  }
  return out;
}

/**
 * What identifies a reminder across edits, re-imports and regenerated rows: its action and when it
 * fires (the VALARM's meaning), not its row. Two equal reminders on one event are one.
 */
export function reminderKey(r: Reminder): string {
  return [r.action, r.trigger ?? '', r.related ?? 'start', r.at ?? '', r.repeat ?? 0, r.repeat_every ?? ''].join('|');
}
