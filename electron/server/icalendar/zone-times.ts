/** Wall times and instants in a zone (IANA or the API's `UTC+2` form), and how an event's zone is written. */
import type { WallTime } from '../../../shared/dates/format';
import { isValidTimeZone, zoneFor } from '../../../shared/dates/zones';

const UTC_NAMES = new Set(['utc', 'etc/utc', 'gmt', 'etc/gmt', 'z', 'etc/universal', 'etc/zulu', 'universal', 'zulu', 'utc+0', 'utc-0']);
export const API_OFFSET_ZONE = /^UTC([+-])(\d{1,2})(?::?(\d{2}))?$/i;

/** How an event's zone is written: as UTC (`Z` times) or with a TZID and a VTIMEZONE. */
export function exportZone(zone: string): 'utc' | { tzid: string } {
  const z = zone.trim();
  if (!z || UTC_NAMES.has(z.toLowerCase()) || !offsetFinder(z)) return 'utc';
  return { tzid: z };
}

/** Seconds east of UTC at a given epoch second. */
export type OffsetFinder = (epochSeconds: number) => number;

const finders = new Map<string, OffsetFinder | undefined>();

/**
 * UTC offsets of an IANA zone (from the Intl time zone database) or of the API's fixed `UTC+2`
 * form; undefined for anything else.
 */
export function offsetFinder(zone: string): OffsetFinder | undefined {
  if (finders.has(zone)) return finders.get(zone);
  let finder: OffsetFinder | undefined;
  const fixed = API_OFFSET_ZONE.exec(zone);
  if (fixed) {
    const offset = (fixed[1] === '-' ? -1 : 1) * (Number(fixed[2]) * 3600 + Number(fixed[3] ?? 0) * 60);
    finder = () => offset;
  } else {
    try {
      // format() and a regex is several times faster than formatToParts(), which matters when a
      // VTIMEZONE for decades is built by sampling every day.
      const dtf = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
      finder = (sec) => {
        const m = /(\d+)\/(\d+)\/(\d+),? (\d+):(\d+):(\d+)/.exec(dtf.format(sec * 1000));
        if (!m) throw new Error(`Unexpected date format from Intl for ${zone}`);
        const local = Date.UTC(+m[3], +m[1] - 1, +m[2], +m[4], +m[5], +m[6]) / 1000;
        return local - sec;
      };
    } catch {
      finder = undefined;
    }
  }
  finders.set(zone, finder);
  return finder;
}

export type { WallTime };

const cachedFinders = new Map<string, OffsetFinder | undefined>();

/**
 * `offsetFinder` answered from zones.ts's remembered offsets: an import converts the times of
 * thousands of events, which fall on a few hundred days, and Intl costs microseconds a question.
 */
function cachedOffsetFinder(zone: string): OffsetFinder | undefined {
  if (cachedFinders.has(zone)) return cachedFinders.get(zone);
  let finder = offsetFinder(zone);
  if (finder && API_OFFSET_ZONE.exec(zone) === null && isValidTimeZone(zone)) {
    const z = zoneFor(zone);
    // Luxon's offsets are minutes, to the second (local mean times).
    finder = (sec) => Math.round(z.offset(sec * 1000) * 60);
  }
  cachedFinders.set(zone, finder);
  return finder;
}

/**
 * The instant (epoch ms) of a wall time in a zone, probing the offset twice as luxon does. A time
 * in a DST gap moves forward by the gap (02:30 that never happens reads as 03:30).
 */
export function epochOfWall(w: WallTime, zone: string): number {
  const offsetAt = cachedOffsetFinder(zone);
  if (!offsetAt) throw new Error(`Unknown time zone "${zone}"`);
  return epochOfWallWith(offsetAt, w);
}

/** `Y-m-d H:i:s` of an instant in a zone. */
export function wallOfEpoch(ms: number, zone: string): string {
  const offsetAt = cachedOffsetFinder(zone);
  if (!offsetAt) throw new Error(`Unknown time zone "${zone}"`);
  return wallOfEpochWith(offsetAt, ms);
}

/** `epochOfWall` with the given offsets (tests compare the remembered ones with Intl's). */
export function epochOfWallWith(offsetAt: OffsetFinder, w: WallTime): number {
  const local = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) / 1000;
  const o1 = offsetAt(local);
  let t = local - o1;
  const o2 = offsetAt(t);
  if (o1 === o2) return t * 1000;
  t -= o2 - o1;
  const o3 = offsetAt(t);
  if (o2 === o3) return t * 1000;
  return (local - Math.min(o2, o3)) * 1000;
}

/** `wallOfEpoch` with the given offsets. */
export function wallOfEpochWith(offsetAt: OffsetFinder, ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const w = wallAt(seconds + offsetAt(seconds));
  const p = (n: number, len = 2) => String(n).padStart(len, '0');
  return `${p(w.y, 4)}-${p(w.m)}-${p(w.d)} ${p(w.hh)}:${p(w.mi)}:${p(w.ss)}`;
}

export interface Wall {
  y: number;
  m: number;
  d: number;
  hh: number;
  mi: number;
  ss: number;
}

export function wallAt(localSeconds: number): Wall {
  const d = new Date(localSeconds * 1000);
  return {
    y: d.getUTCFullYear(),
    m: d.getUTCMonth() + 1,
    d: d.getUTCDate(),
    hh: d.getUTCHours(),
    mi: d.getUTCMinutes(),
    ss: d.getUTCSeconds(),
  };
}
