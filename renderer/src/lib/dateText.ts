/**
 * Dates and times as the user types and reads them in a field, in the interface language and the
 * Settings' clock. The browser's own date and time inputs follow the computer's language and
 * clock instead (a Brazilian saw MM/DD/YYYY and "03:30 PM" with the 24-hour clock chosen), so the
 * fields are text, read and written here; the API values stay `YYYY-MM-DD` and `HH:MM`.
 */
import { DateTime } from 'luxon';

type Part = 'day' | 'month' | 'year';

const orders = new Map<string, Part[]>();
/** The order of day, month and year in the language's numeric dates (`en`: month, day, year). */
function dateOrder(locale: string): Part[] {
  let order = orders.get(locale);
  if (!order) {
    const parts = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'numeric', year: 'numeric', timeZone: 'UTC' }).formatToParts(Date.UTC(2031, 11, 3));
    order = parts.map((p) => p.type).filter((t): t is Part => t === 'day' || t === 'month' || t === 'year');
    if (order.length !== 3) order = ['year', 'month', 'day'];
    orders.set(locale, order);
  }
  return order;
}

/** `2031-12-03` → `12/03/2031` (en), `03/12/2031` (pt-BR, es); '' stays ''. */
export function formatDateText(iso: string, locale: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!m) return '';
  const by: Record<Part, string> = { year: m[1], month: m[2], day: m[3] };
  return dateOrder(locale)
    .map((p) => by[p])
    .join('/');
}

/**
 * What the user typed → `YYYY-MM-DD`, or null when it is no date. ISO (`2031-12-03`) always reads;
 * else the numbers are taken in the language's order, so `3/12` is 3 December in Portuguese and
 * 12 March in English. Without a year, `year` (this one) is meant; a two-digit year is the
 * nearest 19xx/20xx/21xx. `complete` asks for a year of four digits (while the user still types).
 */
export function parseDateText(text: string, locale: string, opts: { year?: number; complete?: boolean } = {}): string | null {
  const s = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  const thisYear = opts.year ?? new Date().getFullYear();
  let y: number, mo: number, d: number;
  if (iso) [y, mo, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else {
    const nums = s.split(/[^\d]+/).filter(Boolean);
    if (nums.length < 2 || nums.length > 3 || !/^\d[\d\s./-]*\d$/.test(s)) return null;
    const order = dateOrder(locale).filter((p) => nums.length === 3 || p !== 'year');
    const by: Partial<Record<Part, string>> = {};
    order.forEach((p, i) => (by[p] = nums[i]));
    if (opts.complete && (by.year?.length ?? 0) !== 4) return null;
    if (by.year && by.year.length !== 2 && by.year.length !== 4) return null;
    d = Number(by.day);
    mo = Number(by.month);
    y = by.year === undefined ? thisYear : by.year.length === 2 ? nearestYear(Number(by.year), thisYear) : Number(by.year);
  }
  const dt = DateTime.utc(y, mo, d);
  return dt.isValid && dt.day === d ? dt.toISODate() : null;
}

function nearestYear(yy: number, thisYear: number): number {
  return [1900 + yy, 2000 + yy, 2100 + yy].reduce((a, b) => (Math.abs(b - thisYear) < Math.abs(a - thisYear) ? b : a));
}

/** Whether the locale (with its `-u-hc-` clock) prints 12-hour times. */
export function uses12Hour(locale: string): boolean {
  const hc = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hourCycle;
  return hc === 'h12' || hc === 'h11';
}

/** `15:30` → `15:30` (24-hour) or `3:30 PM` (12-hour), as the locale's clock says. */
export function formatTimeText(hhmm: string, locale: string): string {
  const m = /^(\d{1,2}):(\d{2})/.exec(hhmm);
  if (!m) return '';
  const h = Number(m[1]);
  if (!uses12Hour(locale)) return `${String(h).padStart(2, '0')}:${m[2]}`;
  return `${h % 12 === 0 ? 12 : h % 12}:${m[2]}\u00a0${h < 12 ? 'AM' : 'PM'}`;
}

/**
 * A typed time → `HH:MM`, or null. Reads `15:30`, `1530`, `15h30`, `15h`, `3:30 pm`, `3pm`, `3 p.m.`.
 * `complete` (while typing) asks for the minutes: `3:30` is taken, and becomes 15:30 when ` PM`
 * follows; `3` alone waits for the field to be left.
 */
export function parseTimeText(text: string, opts: { complete?: boolean } = {}): string | null {
  const m = /^(\d{1,2})(?:\s*[:h.]\s*(\d{2})|(\d{2}))?\s*h?\s*(?:([ap])\.?\s*m?\.?)?$/i.exec(text.trim().replace(/\u00a0/g, ' '));
  if (!m) return null;
  let h = Number(m[1]);
  const minutes = m[2] ?? m[3];
  const min = Number(minutes ?? 0);
  const half = m[4]?.toLowerCase();
  if (min > 59) return null;
  if (half) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (half === 'p' ? 12 : 0);
  } else if (h > 23) return null;
  if (opts.complete && minutes === undefined) return null;
  return `${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}`;
}
