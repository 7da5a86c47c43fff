/**
 * Default reminders as the Settings dialog edits them: "15 minutes before", one row each. A
 * reminder the rows cannot say (set through the API: at a fixed time, from the end, after the
 * start) is kept as it is and only shown.
 */
import { parseDuration, type Reminder } from '@shared/reminders';

export const UNITS = ['minutes', 'hours', 'days', 'weeks'] as const;
export type Unit = (typeof UNITS)[number];

export type ReminderRow = { kind: 'before'; amount: string; unit: Unit; base: Reminder } | { kind: 'other'; base: Reminder };

export function toRow(r: Reminder): ReminderRow {
  const d = r.trigger && !r.related ? parseDuration(r.trigger) : undefined;
  if (!d || d.days > 0 || d.seconds > 0) return { kind: 'other', base: r };
  const days = -d.days;
  const seconds = -d.seconds;
  if (days && seconds) return { kind: 'other', base: r };
  if (days) return days % 7 === 0 ? { kind: 'before', amount: String(days / 7), unit: 'weeks', base: r } : { kind: 'before', amount: String(days), unit: 'days', base: r };
  if (seconds % 3600 === 0 && seconds) return { kind: 'before', amount: String(seconds / 3600), unit: 'hours', base: r };
  if (seconds % 60 === 0) return { kind: 'before', amount: String(seconds / 60), unit: 'minutes', base: r };
  return { kind: 'other', base: r };
}

/**
 * The row as a reminder for the API. An amount that is not a whole number gives a trigger the
 * shared check refuses, so the dialog marks the field with the server's own words.
 */
export function fromRow(row: ReminderRow): Reminder {
  if (row.kind === 'other') return row.base;
  const n = row.amount.trim();
  const amount = /^\d{1,6}$/.test(n) ? n : 'x';
  const trigger = row.unit === 'weeks' ? `-P${amount}W` : row.unit === 'days' ? `-P${amount}D` : `-PT${amount}${row.unit === 'hours' ? 'H' : 'M'}`;
  return { ...row.base, trigger };
}

export const newRow = (): ReminderRow => ({ kind: 'before', amount: '10', unit: 'minutes', base: { action: 'display', trigger: '-PT10M' } });

