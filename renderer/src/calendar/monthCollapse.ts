/**
 * The month grid's layout, worked out before anything is drawn (see `MonthGrid.tsx`).
 *
 * A crowded month must not cost per hidden event: with 2,000 events a day cell shows three or four
 * one-liners and a "+N more" that opens the day's full list. Bars (all-day events and events
 * crossing midnight) are few; they are stacked per week in the calendar's order and take rows from
 * the timed one-liners of the days they cross. Everything is placed by counting rows of a fixed
 * height, so the browser never has to measure an event.
 */
import type { Event } from '@shared/api/records';
import { offsetMinutes } from '../lib/format';

const pad = (n: number) => String(n).padStart(2, '0');

/** Two digits at `i` as a number (NaN when they are not digits). */
function two(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : NaN;
}

/**
 * `Y-m-d H:i:s` in UTC → epoch ms, by position: thousands of these run per crowded month, so the
 * digits are read as character codes rather than through substrings and number conversions.
 */
export function utcMs(s: string): number {
  if (s.length !== 19) return Date.UTC(+s.slice(0, 4), +s.slice(5, 7) - 1, +s.slice(8, 10), +s.slice(11, 13), +s.slice(14, 16), +s.slice(17, 19));
  return Date.UTC(two(s, 0) * 100 + two(s, 2), two(s, 5) - 1, two(s, 8), two(s, 11), two(s, 14), two(s, 17));
}

/** Day number (days since 1970 on the calendar's clock: the Settings zone, else the computer's). */
export function localDayNumber(ms: number): number {
  return Math.floor((ms + offsetMinutes(ms) * 60_000) / 86_400_000);
}

export function dayString(dayNumber: number): string {
  const d = new Date(dayNumber * 86_400_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The calendar's own order: pinned first, then by start, longer first, then by title. */
export function compareEvents(a: Event, b: Event): number {
  return (
    Number(b.sticky) - Number(a.sticky) ||
    cmp(a.utc_start_date, b.utc_start_date) ||
    cmp(b.utc_end_date, a.utc_end_date) ||
    cmp(a.title, b.title)
  );
}

const DAY_MS = 86_400_000;

/**
 * Which day a timed event sits on, or null when it is a bar (all-day, or 24 hours and longer).
 * A timed event shorter than a day that crosses midnight (23:00 – 01:30) is a timed line on the
 * day it starts, as Google Calendar draws it, not a two-day bar that reads as all-day.
 */
export function singleDayOf(e: Event): string | null {
  const n = singleDayNumber(e);
  return n === null ? null : dayString(n);
}

function singleDayNumber(e: Event): number | null {
  if (e.all_day) return null;
  const start = utcMs(e.utc_start_date);
  const end = utcMs(e.utc_end_date);
  const day = localDayNumber(start);
  if (end - start < DAY_MS) return day;
  // An event ending exactly at midnight still belongs to its start day.
  return localDayNumber(Math.max(start, end - 1)) === day ? day : null;
}

/** A bar's piece in one week: columns `start` to `end` (exclusive), on stacking row `level`. */
export interface MonthBar {
  event: Event;
  start: number;
  end: number;
  level: number;
  /** The event starts / ends in this week (else the bar runs on from / into the next one). */
  isStart: boolean;
  isEnd: boolean;
}

export interface MonthDay {
  /** `YYYY-MM-DD` on the calendar's clock. */
  day: string;
  /** The timed one-day events shown, in calendar order. */
  lines: Event[];
  /** How many more timed events the day has ("+N more"), 0 for none. */
  more: number;
  /** Rows the bars crossing this day take above its one-liners. */
  barRows: number;
}

export interface MonthWeek {
  days: MonthDay[];
  bars: MonthBar[];
}

/** Day number (as `localDayNumber`) of a `YYYY-MM-DD` date. */
export function dayNumberOf(day: string): number {
  return Math.floor(Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10)) / 86_400_000);
}

/** First and last day an event covers, on the calendar's clock; all-day events keep their own dates. */
function barDays(e: Event): [number, number] {
  if (e.all_day) {
    const first = dayNumberOf(e.start_date.slice(0, 10));
    return [first, Math.max(first, dayNumberOf(e.end_date.slice(0, 10)))];
  }
  const start = utcMs(e.utc_start_date);
  return [localDayNumber(start), localDayNumber(Math.max(start, utcMs(e.utc_end_date) - 1))];
}

/**
 * Lays out `weeks` weeks from day number `firstDay` (the grid's first cell).
 *
 * @param rows how many entries (bars, one-liners, "+N more") fit under a cell's day number; a day
 * whose timed events do not fit in what the bars leave shows all but one of the rows and "+N more".
 */
export function layoutMonth(events: Event[], firstDay: number, rows: number, weeks = 6): MonthWeek[] {
  const lastDay = firstDay + weeks * 7 - 1;
  const byDay = new Map<number, Event[]>();
  const bars: Array<{ e: Event; first: number; last: number }> = [];
  for (const e of events) {
    const day = singleDayNumber(e);
    if (day !== null) {
      if (day < firstDay || day > lastDay) continue;
      const list = byDay.get(day);
      if (list) list.push(e);
      else byDay.set(day, [e]);
      continue;
    }
    const [first, last] = barDays(e);
    if (last >= firstDay && first <= lastDay) bars.push({ e, first, last });
  }
  bars.sort((a, b) => compareEvents(a.e, b.e));
  const out: MonthWeek[] = [];
  for (let w = 0; w < weeks; w++) {
    const weekStart = firstDay + w * 7;
    const weekEnd = weekStart + 6;
    const week: MonthWeek = { days: [], bars: [] };
    // Each level is a bit mask of the columns its bars take.
    const taken: number[] = [];
    for (const { e, first, last } of bars) {
      if (last < weekStart || first > weekEnd) continue;
      const start = Math.max(first, weekStart) - weekStart;
      const end = Math.min(last, weekEnd) - weekStart + 1;
      const mask = ((1 << end) - 1) & ~((1 << start) - 1);
      let level = 0;
      while (level < taken.length && taken[level] & mask) level++;
      taken[level] = (taken[level] ?? 0) | mask;
      week.bars.push({ event: e, start, end, level, isStart: first >= weekStart, isEnd: last <= weekEnd });
    }
    for (let d = weekStart; d <= weekEnd; d++) {
      const column = 1 << (d - weekStart);
      let barRows = taken.length;
      while (barRows > 0 && !(taken[barRows - 1] & column)) barRows--;
      const room = Math.max(1, rows - barRows);
      const list = byDay.get(d) ?? [];
      if (list.length <= room) week.days.push({ day: dayString(d), lines: list.length > 1 ? [...list].sort(compareEvents) : list, more: 0, barRows });
      else {
        const shown = room - 1;
        week.days.push({ day: dayString(d), lines: firstInOrder(list, shown), more: list.length - shown, barRows });
      }
    }
    out.push(week);
  }
  return out;
}

/**
 * The first `n` of `list` in calendar order, as a stable sort would give them, without sorting the
 * whole day: a crowded day keeps three or four of its dozens of events.
 */
function firstInOrder(list: Event[], n: number): Event[] {
  const top: Event[] = [];
  if (n <= 0) return top;
  for (const e of list) {
    if (top.length === n && compareEvents(e, top[n - 1]) >= 0) continue;
    let i = top.length;
    while (i > 0 && compareEvents(e, top[i - 1]) < 0) i--;
    top.splice(i, 0, e);
    if (top.length > n) top.pop();
  }
  return top;
}

/** The same as `YYYY-MM-DD` days: where the grid draws the event, and where a resize starts. */
export function dayRange(e: Event): [string, string] {
  const [first, last] = barDays(e);
  return [dayString(first), dayString(last)];
}

/** Every event on a day (for the "+N more" list), in calendar order. */
export function eventsOnDay(events: Event[], day: string): Event[] {
  const target = dayNumberOf(day);
  return events
    .filter((e) => {
      // Where the grid draws it: a line on its start day, or a bar across its days.
      const single = singleDayNumber(e);
      if (single !== null) return single === target;
      const [first, last] = barDays(e);
      return first <= target && target <= last;
    })
    .sort(compareEvents);
}
