/**
 * Default reminders as the Settings dialog edits them: "15 minutes before", one row each. A
 * reminder the rows cannot say (set through the API: at a fixed time, from the end, after the
 * start) is kept as it is and only shown.
 */
import type { Reminder } from '@shared/reminders';
import { customOf, plainTrigger, UNITS, type Unit } from '../reminders/choices';

export { UNITS, type Unit };

export type ReminderRow = { kind: 'before'; amount: string; unit: Unit; base: Reminder } | { kind: 'other'; base: Reminder };

/** Read as the editor's Notifications section reads a reminder (reminders/choices.ts): only a plain one "before" is a row. */
export function toRow(r: Reminder): ReminderRow {
  const trigger = plainTrigger(r);
  const c = trigger === undefined ? undefined : customOf(trigger);
  return c && c.when === 'before' ? { kind: 'before', amount: String(c.amount), unit: c.unit, base: r } : { kind: 'other', base: r };
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

