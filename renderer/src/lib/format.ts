/**
 * Every date and time the interface prints, in one place: instants on the calendar's clock (the
 * Settings zone, else the computer's, see `viewerZone`), in the interface language with the
 * chosen 12/24-hour clock (the locale from `useLocale`/`currentLocale` carries it as `-u-hc-`).
 * Views used to convert with the page's own zone, each its own way; a view that prints a time
 * through here cannot disagree with the calendar grid about the hour.
 */
import { DateTime, type DateTimeFormatOptions } from 'luxon';
import { fromApi, intlZone, viewerZone } from './dates';

/** An instant: the API's UTC copy (`Y-m-d H:i:s`), an ISO string with its offset, epoch ms or a Date. */
export type Instant = string | number | Date;

/** An instant on the calendar's clock. */
export function shownAt(at: Instant): DateTime {
  const zone = viewerZone();
  if (typeof at === 'number' || at instanceof Date) return DateTime.fromMillis(+at, { zone });
  // `2025-03-14 19:00:00` is the API's UTC copy; anything with a `T` is ISO and says its offset.
  const dt = at.includes('T') ? DateTime.fromISO(at, { zone: 'utc' }) : DateTime.fromSQL(at.slice(0, 19), { zone: 'utc' });
  return dt.setZone(zone);
}

const STYLES = {
  /** "9:00 AM" / "09:00" */
  time: DateTime.TIME_SIMPLE,
  /** "Mar 14, 2025, 7:00 PM" */
  dateTime: DateTime.DATETIME_MED,
  /** "Fri, Mar 14, 2025, 7:00 PM" */
  dateTimeWeekday: DateTime.DATETIME_MED_WITH_WEEKDAY,
  /** "Fri, Mar 14, 7:00 PM" (a toast) */
  short: { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' },
} satisfies Record<string, DateTimeFormatOptions>;

/** "3:00 PM" never breaks into "3:00" and "PM" on two lines (a narrow card would). */
const keepMeridiem = (text: string) => text.replace(/(\d) (?=[AaPp]\.? ?[Mm]\.?)/g, '$1\u00a0');

/** An instant as the interface prints it, on the calendar's clock. */
export function formatInstant(at: Instant, locale: string, style: keyof typeof STYLES = 'time'): string {
  return keepMeridiem(shownAt(at).setLocale(locale).toLocaleString(STYLES[style]));
}

/**
 * "23:00 – 01:30": an event's real start and end, on the calendar's clock, whatever part of it a
 * view draws (a week column cut at midnight would otherwise say "23:00 – 00:00"). On the day the
 * clocks change, times that would read backwards ("01:30 – 01:00" on the fall-back night) carry
 * their zone's name: "01:30 WEST – 01:00 WET".
 */
export function timeRangeText(start: Instant, end: Instant, locale: string): string {
  const s = shownAt(start);
  const e = shownAt(end);
  const a = formatInstant(start, locale);
  const b = formatInstant(end, locale);
  if (s.offset === e.offset) return `${a} – ${b}`;
  const named = (d: DateTime) => d.setLocale(locale).toFormat('ZZZZ');
  return `${a} ${named(s)} – ${b} ${named(e)}`;
}

const DAY_STYLES = {
  /** "Friday, March 14, 2025" */
  huge: DateTime.DATE_HUGE,
  /** "March 14, 2025" */
  full: DateTime.DATE_FULL,
  /** "Fri, Mar 14, 2025" */
  medWeekday: DateTime.DATE_MED_WITH_WEEKDAY,
  /** "Fri, Mar 14" */
  short: { weekday: 'short', month: 'short', day: 'numeric' },
  /** "March 2025" */
  month: { month: 'long', year: 'numeric' },
} satisfies Record<string, DateTimeFormatOptions>;

/** A time of day with no date nor zone (a reminder "at 9:00 the day before"), minutes since midnight. */
export function formatClock(minutes: number, locale: string): string {
  return DateTime.fromObject({ hour: Math.floor(minutes / 60), minute: minutes % 60 }, { zone: 'utc' }).setLocale(locale).toLocaleString(DateTime.TIME_SIMPLE);
}

/** A calendar date (`YYYY-MM-DD`): a day has no zone, so it is printed as it is. */
export function formatDay(day: string, locale: string, style: keyof typeof DAY_STYLES = 'huge'): string {
  return DateTime.fromISO(day.slice(0, 10), { zone: 'utc' }).setLocale(locale).toLocaleString(DAY_STYLES[style]);
}

/** The calendar day (`YYYY-MM-DD`) an instant falls on, on the calendar's clock. */
export function shownDay(at: Instant): string {
  return shownAt(at).toISODate()!;
}

/** A span as an event or a draft keeps it: API dates in `timezone`, or all-day dates. */
export interface Span {
  start_date: string;
  end_date: string;
  all_day: boolean;
  timezone: string;
}

/**
 * A span in words: all-day dates as they are, times on the calendar's clock whatever zone the
 * span is kept in ("Wednesday, March 12, 2031 · 9:00 AM – 10:00 AM").
 */
export function describeSpan(d: Span, locale: string, allDayText: string): string {
  if (d.all_day) {
    const first = formatDay(d.start_date, locale);
    return d.start_date.slice(0, 10) === d.end_date.slice(0, 10) ? `${first} · ${allDayText}` : `${first} – ${formatDay(d.end_date, locale)} · ${allDayText}`;
  }
  const s = fromApi(d.start_date, d.timezone).toJSDate();
  const e = fromApi(d.end_date, d.timezone).toJSDate();
  if (shownDay(s) === shownDay(e)) return `${formatDay(shownDay(s), locale)} · ${timeRangeText(s, e, locale)}`;
  return `${formatInstant(s, locale, 'dateTime')} – ${formatInstant(e, locale, 'dateTime')}`;
}

/** "5 minutes ago", "yesterday", in the interface's language: the sync state of accounts and sites. */
export function timeAgo(iso: string, locale: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const steps: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['second', 60],
    ['minute', 60],
    ['hour', 24],
    ['day', 7],
    ['week', 4.35],
    ['month', 12],
    ['year', Infinity],
  ];
  let value = seconds;
  for (const [unit, size] of steps) {
    if (Math.abs(value) < size) return rtf.format(unit === 'second' && Math.abs(value) < 10 ? 0 : Math.round(value), unit);
    value /= size;
  }
  return rtf.format(Math.round(value), 'year');
}

const shortFormats = new Map<string, Intl.DateTimeFormat>();
/** Texts by locale, zone and minute of the day: a crowded month repeats the same few start times. */
const shortTexts = new Map<string, string[]>();
/**
 * "9a", "12:30p" (12-hour) or "9:00", "14:30" (24-hour), as month cells show start times, on the
 * calendar's clock. Thousands run per month, so formatters and texts are kept.
 */
export function shortTime(ms: number, locale: string): string {
  const zone = viewerZone();
  const key = `${locale}|${zone}`;
  let f = shortFormats.get(key);
  if (!f) shortFormats.set(key, (f = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: intlZone(zone) })));
  let texts = shortTexts.get(key);
  if (!texts) shortTexts.set(key, (texts = []));
  // The minute of the day on the calendar's clock, from the zone's offset at that instant.
  const minute = Math.floor(((ms + offsetMinutes(ms, zone) * 60_000) % 86_400_000 + 86_400_000) % 86_400_000 / 60_000);
  return (texts[minute] ??= abbreviate(f.format(ms)));
}

function abbreviate(text: string): string {
  const m = /^(\d{1,2}):(\d{2})\s*([AP])\.?\s*M\.?$/i.exec(text);
  if (m) return `${m[1]}${m[2] === '00' ? '' : `:${m[2]}`}${m[3].toLowerCase()}`;
  return text;
}

const QUARTER = 900_000;
const offsets = new Map<string, Map<number, number>>();
/**
 * The zone's offset from UTC at `ms`, in minutes. Zones change offset on quarter hours of UTC
 * (Newfoundland's 02:00 is 04:30 or 05:30 UTC), so it is looked up once per quarter hour: a
 * crowded month asks thousands of times.
 */
export function offsetMinutes(ms: number, zone = viewerZone()): number {
  let byQuarter = offsets.get(zone);
  if (!byQuarter) offsets.set(zone, (byQuarter = new Map()));
  const quarter = Math.floor(ms / QUARTER);
  let offset = byQuarter.get(quarter);
  if (offset === undefined) {
    offset = DateTime.fromMillis(ms, { zone }).offset;
    // Bounded: a long session paging through decades stays small.
    if (byQuarter.size > 20_000) byQuarter.clear();
    byQuarter.set(quarter, offset);
  }
  return offset;
}
