/** ical.js times as the API's: their source (UTC, floating, TZID), keys, days and wall times. */
import ICAL from 'ical.js';
import { epochOfWall as epochOfWallNow, wallOfEpoch as wallOfEpochNow } from './zone-times';
import { BoundedPairMemo } from '../store/bounded-memo';

type IcalTime = InstanceType<typeof ICAL.Time>;

export function sourceOf(t: IcalTime): { kind: 'utc' } | { kind: 'floating' } | { kind: 'tz'; tzid: string } {
  const zone = t.zone;
  if (!zone || zone === ICAL.Timezone.localTimezone || zone.tzid === 'floating') return { kind: 'floating' };
  if (zone === ICAL.Timezone.utcTimezone || ['UTC', 'Z', 'GMT'].includes(zone.tzid)) return { kind: 'utc' };
  return { kind: 'tz', tzid: zone.tzid };
}

export function isoDate(t: IcalTime): string {
  const p = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${p(t.year, 4)}-${p(t.month)}-${p(t.day)}`;
}

export function addDays(iso: string, days: number): string {
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

export function formatWall(w: { year: number; month: number; day: number; hour: number; minute: number; second: number }): string {
  const p = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${p(w.year, 4)}-${p(w.month)}-${p(w.day)} ${p(w.hour)}:${p(w.minute)}:${p(w.second)}`;
}

export function utcWall(t: IcalTime): string {
  const utc = sourceOf(t).kind === 'utc' ? t : t.convertToZone(ICAL.Timezone.utcTimezone);
  return formatWall(utc);
}

/*
 * `epochOfWall` and `wallOfEpoch` ask Intl for offsets, tens of µs a time; they are pure functions
 * of their arguments and a file repeats the same times (events at the same hours), so their
 * answers are remembered (bounded: forgotten whole when full). A failure is not remembered.
 */
const MEMO_LIMIT = 20_000;
const epochMemo = new BoundedPairMemo<number>(MEMO_LIMIT);
const wallMemo = new BoundedPairMemo<string>(MEMO_LIMIT);

export function epochOfWall(w: { year: number; month: number; day: number; hour: number; minute: number; second: number }, zone: string): number {
  return epochMemo.get(zone, wallKey(w), () => epochOfWallNow(w, zone));
}

export function wallOfEpoch(ms: number, zone: string): string {
  return wallMemo.get(zone, ms, () => wallOfEpochNow(ms, zone));
}

/** A wall time as one number, YYYYMMDDhhmmss, when each part fits its digits; else as text. */
function wallKey(w: { year: number; month: number; day: number; hour: number; minute: number; second: number }): number | string {
  const { year, month, day, hour, minute, second } = w;
  if (fits(year, 10_000) && fits(month, 100) && fits(day, 100) && fits(hour, 100) && fits(minute, 100) && fits(second, 100)) {
    return ((((year * 100 + month) * 100 + day) * 100 + hour) * 100 + minute) * 100 + second;
  }
  return `${year}\u0000${month}\u0000${day}\u0000${hour}\u0000${minute}\u0000${second}`;
}

function fits(n: number, below: number): boolean {
  return Number.isInteger(n) && n >= 0 && n < below;
}
