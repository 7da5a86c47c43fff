/**
 * An event's reminders as the Notifications section shows them, and back.
 *
 * Each row keeps the reminder the API holds; the section only builds a new one when the user
 * changes that row. So a reminder written elsewhere (an e-mail alarm, a repeat, a description, an
 * absolute time, "-P1DT2H") is shown in words and saved exactly as it came: what is saved is what
 * was shown.
 */
import type { Reminder } from '@shared/reminders';
import { durationSeconds, formatDuration, MAX_REMINDER_OFFSET_S, parseDuration, reminderKey } from '@shared/reminders';

export type { Reminder };

export type Unit = 'minutes' | 'hours' | 'days' | 'weeks';
export const UNITS: Unit[] = ['minutes', 'hours', 'days', 'weeks'];
const UNIT_S: Record<Unit, number> = { minutes: 60, hours: 3600, days: 86400, weeks: 7 * 86400 };

/** The presets offered, by the kind of event (an all-day event's "1 day before" is at 09:00). */
export type Preset = 'start' | '10m' | '1d' | '1d9';
export const PRESET_TRIGGER: Record<Preset, string> = { start: 'PT0S', '10m': '-PT10M', '1d': '-P1D', '1d9': '-PT15H' };
export const presetsFor = (allDay: boolean): Preset[] => (allDay ? ['start', '1d9'] : ['start', '10m', '1d']);

/** N minutes/hours/days/weeks before or after the start. */
export interface Custom {
  amount: number;
  unit: Unit;
  when: 'before' | 'after';
}

/** What a row shows: a preset, the custom fields, or the reminder as written elsewhere (kept). */
export type Choice = { kind: 'preset'; preset: Preset } | { kind: 'custom'; custom: Custom } | { kind: 'kept' };

/** A plain display reminder relative to the start, with nothing else on it: the section can edit it. */
export function plainTrigger(r: Reminder): string | undefined {
  const extra = r.at !== undefined || r.related === 'end' || r.repeat || r.description !== undefined || r.summary !== undefined || r.attendees?.length;
  return r.action === 'display' && r.trigger && !extra ? r.trigger : undefined;
}

/** The trigger as N units before/after, when it is one whole unit (`-PT90M` is 90 minutes, `-P1DT2H` is none). */
export function customOf(trigger: string): Custom | undefined {
  const d = parseDuration(trigger);
  if (!d) return undefined;
  // Mixed days and time of day: no single unit says it.
  if (d.days && d.seconds) return undefined;
  const when = d.days < 0 || d.seconds < 0 ? 'before' : 'after';
  if (d.days) {
    const days = Math.abs(d.days);
    return days % 7 === 0 ? { amount: days / 7, unit: 'weeks', when } : { amount: days, unit: 'days', when };
  }
  const s = Math.abs(d.seconds);
  if (s % 3600 === 0 && s) return { amount: s / 3600, unit: 'hours', when };
  if (s % 60 === 0) return { amount: s / 60, unit: 'minutes', when: s ? when : 'before' };
  return undefined;
}

/** What a row of `r` shows for an event that is (or is not) all-day. */
export function choiceOf(r: Reminder, allDay: boolean): Choice {
  const trigger = plainTrigger(r);
  if (!trigger) return { kind: 'kept' };
  const canonical = formatDuration(parseDuration(trigger)!);
  const preset = presetsFor(allDay).find((p) => PRESET_TRIGGER[p] === canonical);
  if (preset) return { kind: 'preset', preset };
  const custom = customOf(canonical);
  return custom ? { kind: 'custom', custom } : { kind: 'kept' };
}

/** The trigger of N units before/after; undefined when out of the API's range (a year) or not whole. */
export function customTrigger(c: Custom): string | undefined {
  if (!Number.isInteger(c.amount) || c.amount < 0) return undefined;
  const s = c.amount * UNIT_S[c.unit];
  if (s > MAX_REMINDER_OFFSET_S) return undefined;
  const sign = c.when === 'before' ? -1 : 1;
  // Days and weeks are wall-clock days (across a DST change too), so they stay days.
  const d = c.unit === 'days' || c.unit === 'weeks' ? { days: sign * (s / 86400), seconds: 0 } : { days: 0, seconds: sign * s };
  return formatDuration(d);
}

export const presetReminder = (p: Preset): Reminder => ({ action: 'display', trigger: PRESET_TRIGGER[p] });

/** The reminder a new row starts with: the first preset not in the list yet. */
export function nextNew(list: Reminder[], allDay: boolean): Reminder {
  const taken = new Set(list.map(reminderKey));
  const order: Preset[] = allDay ? ['1d9', 'start'] : ['10m', 'start', '1d'];
  const free = order.find((p) => !taken.has(reminderKey(presetReminder(p))));
  if (free) return presetReminder(free);
  for (let minutes = 5; ; minutes += 5) {
    const r: Reminder = { action: 'display', trigger: customTrigger({ amount: minutes, unit: 'minutes', when: 'before' })! };
    if (!taken.has(reminderKey(r))) return r;
  }
}

/** Rows equal to one before them (the server keeps one of each): their indexes. */
export function duplicateRows(list: Reminder[]): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  list.forEach((r, i) => {
    const k = reminderKey(r);
    if (seen.has(k)) out.push(i);
    seen.add(k);
  });
  return out;
}

export const sameReminders = (a: Reminder[] | undefined, b: Reminder[] | undefined) => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

/** Words for a reminder, in the UI language, through `t` (keys under `notify.`). */
export type Translate = (key: string, opts?: Record<string, unknown>) => string;

/** "10 minutes before", "1 day before at 09:00", "2 hours after the end", "Email 15 minutes before"… */
export function describeReminder(r: Reminder, allDay: boolean, t: Translate, formatAt: (iso: string) => string, formatTime: (minutes: number) => string): string {
  let when: string;
  if (r.at) when = t('notify.at', { when: formatAt(r.at) });
  else when = describeTrigger(r.trigger ?? 'PT0S', r.related === 'end', allDay, t, formatTime);
  const parts = [r.action === 'display' ? when : t(`notify.action_${r.action}`, { when })];
  if (r.repeat && r.repeat_every) {
    const every = parseDuration(r.repeat_every);
    parts.push(t('notify.repeats', { count: r.repeat, every: every ? amountText(Math.abs(durationSeconds(every)), t) : r.repeat_every }));
  }
  if (r.description) parts.push(`“${r.description}”`);
  return parts.join(' · ');
}

function amountText(seconds: number, t: Translate): string {
  const pieces: string[] = [];
  let s = seconds;
  for (const unit of ['weeks', 'days', 'hours', 'minutes'] as Unit[]) {
    const n = Math.floor(s / UNIT_S[unit]);
    if (n) pieces.push(t(`notify.unit.${unit}`, { count: n }));
    s -= n * UNIT_S[unit];
  }
  if (s || !pieces.length) pieces.push(t('notify.unit.seconds', { count: s }));
  return pieces.join(' ');
}

function describeTrigger(trigger: string, fromEnd: boolean, allDay: boolean, t: Translate, formatTime: (minutes: number) => string): string {
  const d = parseDuration(trigger) ?? { days: 0, seconds: 0 };
  const total = durationSeconds(d);
  // An all-day event counts from its local midnight: a time of day says it best ("1 day before at 09:00").
  if (allDay && !fromEnd && total % 86400 !== 0) {
    const daysBefore = -Math.floor(total / 86400);
    const minuteOfDay = ((total % 86400) + 86400) % 86400 / 60;
    const time = formatTime(minuteOfDay);
    if (daysBefore === 0) return t('notify.on_the_day', { time });
    if (daysBefore > 0) return t('notify.days_before_at', { count: daysBefore, time });
    return t('notify.days_after_at', { count: -daysBefore, time });
  }
  if (total === 0) return t(fromEnd ? 'notify.at_end' : 'notify.at_start');
  const amount = amountText(Math.abs(total), t);
  const key = `notify.${total < 0 ? 'before' : 'after'}${fromEnd ? '_end' : ''}`;
  return t(key, { amount });
}

/** One row of the section: the reminder it came with, what it shows, and the custom amount as typed. */
export interface Row {
  id: number;
  /** The reminder as the API held it (or as last picked): saved unchanged while the row shows it. */
  reminder: Reminder;
  choice: Choice;
  /** The custom amount as typed (may be half-typed or empty). */
  amount: string;
}

let nextRowId = 1;

/** `r` is a plain reminder at `trigger` (`-PT90M` and `-PT1H30M` alike): keep it as it was written. */
function sameTrigger(trigger: string, r: Reminder): boolean {
  const plain = plainTrigger(r);
  const a = plain ? parseDuration(plain) : undefined;
  return !!a && formatDuration(a) === formatDuration(parseDuration(trigger)!);
}

export function rowOf(r: Reminder, allDay: boolean): Row {
  const choice = choiceOf(r, allDay);
  return { id: nextRowId++, reminder: r, choice, amount: choice.kind === 'custom' ? String(choice.custom.amount) : '' };
}

export const rowsOf = (list: Reminder[] | null | undefined, allDay: boolean): Row[] => (list ?? []).map((r) => rowOf(r, allDay));

/** Problems by row id, as message keys: an amount that is not a whole number within a year, a duplicate. */
export type RowErrors = Record<number, string>;

/** The reminders the rows stand for, or what is wrong with them. */
export function rowsToReminders(rows: Row[]): { reminders: Reminder[]; errors: RowErrors } {
  const errors: RowErrors = {};
  const reminders: Reminder[] = [];
  for (const row of rows) {
    if (row.choice.kind === 'kept') reminders.push(row.reminder);
    else if (row.choice.kind === 'preset') reminders.push(sameTrigger(PRESET_TRIGGER[row.choice.preset], row.reminder) ? row.reminder : presetReminder(row.choice.preset));
    else {
      const text = row.amount.trim();
      const trigger = /^\d{1,7}$/.test(text) ? customTrigger({ ...row.choice.custom, amount: Number(text) }) : undefined;
      if (!trigger) errors[row.id] = 'notify.error.amount';
      else reminders.push(sameTrigger(trigger, row.reminder) ? row.reminder : { action: 'display', trigger });
    }
  }
  if (!Object.keys(errors).length) for (const i of duplicateRows(reminders)) errors[rows[i].id] = 'notify.error.duplicate';
  return { reminders, errors };
}
