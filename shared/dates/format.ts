/**
 * The API's `Y-m-d H:i:s` strings and the conversion between a zone's wall time and UTC.
 */
import { DateTime, type Zone } from 'luxon';
import { zoneFor } from './zones';

/** PHP's `Y-m-d H:i:s` in luxon tokens. */
export const WP_FORMAT = 'yyyy-MM-dd HH:mm:ss';

export function formatLocal(dt: DateTime): string {
  // Written out: luxon's formatter (a token parser) was a tenth of the cost of creating an event.
  const { year, month, day, hour, minute, second } = dt;
  if (year < 0 || year > 9999) return dt.toFormat(WP_FORMAT);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)} ${pad(hour)}:${pad(minute)}:${pad(second)}`;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond?: number;
}

/** Milliseconds of a wall time read as if it were UTC (fields may overflow: they carry). */
export function wallAsUtc(w: WallTime): number {
  const d = new Date(0);
  // setUTCFullYear, unlike Date.UTC, leaves years 0-99 alone.
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second, w.millisecond ?? 0);
  return d.getTime();
}

/**
 * The instant of a wall time in `zone`, resolved the way PHP's timelib does it:
 * a time skipped by a spring-forward change moves forward by the size of the gap
 * (02:30 on a 02:00→03:00 night is 03:30), and a time that happens twice is read with the
 * offset in force at that wall time read as UTC, which is the first occurrence west of
 * Greenwich and the second one east of it (01:30 on New York's fall-back night is EDT,
 * 01:30 on London's is GMT). When the zone was written in the input itself
 * (`earlierWhenRepeated`), PHP takes the first occurrence everywhere.
 */
export function wallToMillis(w: WallTime, zone: Zone | string, earlierWhenRepeated = false): number {
  const z = typeof zone === 'string' ? zoneFor(zone) : zone;
  const t = wallAsUtc(w);
  if (z.isUniversal) return t - z.offset(t) * 60_000;
  if (earlierWhenRepeated) {
    const readings = [z.offset(t - 86_400_000), z.offset(t + 86_400_000)]
      .map((o) => t - o * 60_000)
      .filter((u) => t - z.offset(u) * 60_000 === u);
    if (readings.length === 2 && readings[0] !== readings[1]) return Math.min(...readings);
  }
  const o1 = z.offset(t);
  const o2 = z.offset(t - o1 * 60_000);
  if (o1 === o2) return t - o1 * 60_000;
  // The offsets disagree: the wall time is near a change. Reading it with the later offset (o2)
  // is wrong only when that lands before the change, i.e. inside a spring-forward gap.
  const withO2 = t - o2 * 60_000;
  const beforeChange = withO2 < t - o1 * 60_000 && z.offset(withO2) !== o2;
  return beforeChange ? t - o1 * 60_000 : withO2;
}

const WP_DATE = /^(-?\d{4,})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

function readWall(s: string): WallTime {
  const m = WP_DATE.exec(s.trim());
  if (!m) throw new RangeError(`Not a Y-m-d H:i:s date: ${s}`);
  return {
    year: +m[1],
    month: +m[2],
    day: +m[3],
    hour: +(m[4] ?? 0),
    minute: +(m[5] ?? 0),
    second: +(m[6] ?? 0),
  };
}

/** A local `Y-m-d H:i:s` in `zone` to the UTC `Y-m-d H:i:s` (gap times move forward, as PHP). */
export function localToUtc(local: string, zone: string): string {
  const ms = wallToMillis(readWall(local), zone);
  const iso = new Date(ms).toISOString(); // UTC already; ±YYYYYY outside years 0–9999
  return iso.length === 24 ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : formatLocal(DateTime.fromMillis(ms, { zone: 'UTC' }));
}

/** A UTC `Y-m-d H:i:s` to the local `Y-m-d H:i:s` in `zone`. */
export function utcToLocal(utc: string, zone: string): string {
  const ms = wallAsUtc(readWall(utc));
  return formatLocal(DateTime.fromMillis(ms, { zone: zoneFor(zone) }));
}

export interface DateDetails {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
}

/** The API's `*_date_details` object: the parts of a `Y-m-d H:i:s` string, zero-padded. */
export function dateDetails(s: string): DateDetails {
  const w = readWall(s);
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    year: String(w.year).padStart(4, '0'),
    month: pad(w.month),
    day: pad(w.day),
    hour: pad(w.hour),
    minutes: pad(w.minute),
    seconds: pad(w.second),
  };
}

function datePart(s: string): string {
  const w = readWall(s);
  return `${String(w.year).padStart(4, '0')}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

/** 00:00:00 of the day of a `Y-m-d H:i:s` (or `Y-m-d`) string. */
export function startOfDay(s: string): string {
  return `${datePart(s)} 00:00:00`;
}

/** 23:59:59 of the day of a `Y-m-d H:i:s` (or `Y-m-d`) string. */
export function endOfDay(s: string): string {
  return `${datePart(s)} 23:59:59`;
}
