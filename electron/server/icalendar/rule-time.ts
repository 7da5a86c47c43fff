/**
 * Wall times (`Y-m-d H:i:s` in a series' own zone) and how ical.js sees them and a rule: the small
 * pieces the recurrence engine (recurrence.ts) and its per-period corrections
 * (recurrence-periods.ts) share.
 */
import ICAL from 'ical.js';
import { wallAsUtc } from '../../../shared/dates/format';
import type { Freq } from './recurrence';

export const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export const wall = (s: string) => ({ year: +s.slice(0, 4), month: +s.slice(5, 7), day: +s.slice(8, 10), hour: +s.slice(11, 13) || 0, minute: +s.slice(14, 16) || 0, second: +s.slice(17, 19) || 0 });

export const DAY_MS = 86_400_000;
/** Days since 1970-01-01 of a `Y-m-d…` wall time (its date only). */
export const dayNumber = (local: string) => Date.UTC(+local.slice(0, 4), +local.slice(5, 7) - 1, +local.slice(8, 10)) / DAY_MS;
/** 0 = Sunday … 6 = Saturday of a day number (1970-01-01 was a Thursday). */
export const weekdayIndex = (day: number) => (((day + 4) % 7) + 7) % 7;
/** Weekday codes by weekdayIndex. */
export const WEEK_DAYS: readonly string[] = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

/** The rule as ical.js iterates it: UNTIL is applied here, in the series' wall time. */
export function ruleForIcal(freq: Freq, interval: number, count: number | undefined, parts: Map<string, string>): string {
  const out = [`FREQ=${freq}`];
  if (interval !== 1) out.push(`INTERVAL=${interval}`);
  if (count !== undefined) out.push(`COUNT=${count}`);
  for (const [name, value] of parts) if (!['FREQ', 'INTERVAL', 'COUNT', 'UNTIL'].includes(name)) out.push(`${name}=${value}`);
  return out.join(';');
}

/** An ical.js time for a wall time (floating: the zone is applied by us, not by ical.js). */
export function icalTime(local: string, allDay: boolean): ICAL.Time {
  const [y, mo, d] = [+local.slice(0, 4), +local.slice(5, 7), +local.slice(8, 10)];
  if (allDay) return ICAL.Time.fromData({ year: y, month: mo, day: d, isDate: true });
  return ICAL.Time.fromData({ year: y, month: mo, day: d, hour: +local.slice(11, 13), minute: +local.slice(14, 16), second: +local.slice(17, 19), isDate: false });
}

export function wallOf(t: ICAL.Time, allDay: boolean): string {
  const date = `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}`;
  return allDay ? `${date} 00:00:00` : `${date} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
}

/** Adds whole units to a wall time (`Y-m-d H:i:s`); months and years keep the day number. */
export function addWall(local: string, unit: 'hour' | 'day' | 'month' | 'year', n: number): string {
  if (unit === 'hour') {
    const d = new Date(wallAsUtc(wall(local)) + n * 3_600_000);
    return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  }
  const d = new Date(Date.UTC(+local.slice(0, 4), +local.slice(5, 7) - 1, +local.slice(8, 10)));
  if (unit === 'day') d.setUTCDate(d.getUTCDate() + n);
  else if (unit === 'month') d.setUTCMonth(d.getUTCMonth() + n);
  else d.setUTCFullYear(d.getUTCFullYear() + n);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}${local.slice(10)}`;
}
