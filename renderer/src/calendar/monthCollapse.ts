/**
 * A crowded month, made light before FullCalendar sees it.
 *
 * FullCalendar places every event of a month (sorting, packing, measuring) even when a day cell
 * shows only three of them; with 2,000 events that alone blows the 200 ms budget. So for the
 * month grid, timed one-day events beyond what a cell can show are folded into one "+N more"
 * entry per day, which opens the day's full list. Bars (all-day and multi-day events) are few and
 * are passed through untouched.
 */
import type { EventInput } from '@fullcalendar/react';
import type { Event } from '@shared/api/records';

export const MORE_PREFIX = 'more:';

export interface MoreInfo {
  day: string;
  count: number;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** `YYYY-MM-DD` of an instant in this page's zone (the zone the calendar is drawn in). */
export const localDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

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

const HOUR = 3_600_000;
const offsetByHour = new Map<number, number>();
/** Local day number (days since 1970 in this page's zone); zone offsets are looked up once per hour. */
function localDayNumber(ms: number): number {
  const hour = Math.floor(ms / HOUR);
  let offset = offsetByHour.get(hour);
  if (offset === undefined) {
    offset = new Date(ms).getTimezoneOffset() * 60_000;
    offsetByHour.set(hour, offset);
  }
  return Math.floor((ms - offset) / 86_400_000);
}

function dayString(dayNumber: number): string {
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

/** Which day a timed event sits on, or null when it is a bar (all-day or crossing midnight). */
export function singleDayOf(e: Event): string | null {
  const n = singleDayNumber(e);
  return n === null ? null : dayString(n);
}

function singleDayNumber(e: Event): number | null {
  if (e.all_day) return null;
  const start = utcMs(e.utc_start_date);
  // An event ending exactly at midnight still belongs to its start day.
  const last = Math.max(start, utcMs(e.utc_end_date) - 1);
  const day = localDayNumber(start);
  return localDayNumber(last) === day ? day : null;
}

/**
 * @param perDay how many timed events a day cell shows before "+N more" (the "+N more" entry
 * itself takes one of those rows).
 */
export function collapseMonth(events: Event[], perDay: number, toInput: (e: Event) => EventInput, moreText: (n: number) => string): EventInput[] {
  const out: EventInput[] = [];
  const byDay = new Map<number, Event[]>();
  for (const e of events) {
    const day = singleDayNumber(e);
    if (day === null) out.push(toInput(e));
    else {
      const list = byDay.get(day);
      if (list) list.push(e);
      else byDay.set(day, [e]);
    }
  }
  const limit = Math.max(1, perDay);
  for (const [dayNumber, list] of byDay) {
    if (list.length <= limit) {
      for (const e of list) out.push(toInput(e));
      continue;
    }
    const day = dayString(dayNumber);
    const shown = limit - 1;
    for (const e of firstInOrder(list, shown)) out.push(toInput(e));
    const hidden = list.length - shown;
    out.push({
      id: `${MORE_PREFIX}${day}`,
      title: moreText(hidden),
      start: `${day}T23:59:00`,
      end: `${day}T23:59:59`,
      allDay: false,
      editable: false,
      classNames: ['ev-more'],
      extendedProps: { more: { day, count: hidden } satisfies MoreInfo, sticky: 0 },
    });
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

/** Every event on a day (for the "+N more" list), in calendar order. */
export function eventsOnDay(events: Event[], day: string): Event[] {
  return events
    .filter((e) => {
      if (e.all_day) return e.start_date.slice(0, 10) <= day && day <= e.end_date.slice(0, 10);
      const start = utcMs(e.utc_start_date);
      const first = dayString(localDayNumber(start));
      const last = dayString(localDayNumber(Math.max(start, utcMs(e.utc_end_date) - 1)));
      return first <= day && day <= last;
    })
    .sort(compareEvents);
}
