/**
 * Date conversions between the API (wall times in an event's zone, `Y-m-d H:i:s`; UTC copies) and
 * the calendar (instants shown in the viewer's zone). luxon does the zone arithmetic because event
 * zones may differ from the viewer's and may be fixed offsets such as `UTC+2`.
 */
import { DateTime } from 'luxon';

export const API_FORMAT = 'yyyy-MM-dd HH:mm:ss';

/** The zone the calendar is drawn in: the desktop's own. */
export function viewerZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** `2025-03-14 19:00:00` read in `zone` (an IANA id, `UTC` or `UTC+2`). */
export function fromApi(value: string, zone: string): DateTime {
  return DateTime.fromFormat(value.slice(0, 19), API_FORMAT, { zone: normaliseZone(zone) });
}

export function toApi(dt: DateTime): string {
  return dt.toFormat(API_FORMAT);
}

/** The wall time of an instant in an event's zone, as the API wants it. */
export function wallTime(instant: Date, zone: string): string {
  return toApi(DateTime.fromJSDate(instant).setZone(normaliseZone(zone)));
}

/** luxon reads `UTC+2` but not `UTC+02:30`-less forms like `UTC+5.5`; map what the API may send. */
export function normaliseZone(zone: string): string {
  if (!zone) return viewerZone();
  const m = /^UTC([+-])(\d{1,2})(?:[.:](\d{1,2}))?$/.exec(zone);
  if (m) {
    const minutes = m[3] ? (m[3].length === 1 ? Number(m[3]) * 6 : Number(m[3])) : 0;
    return minutes ? `UTC${m[1]}${m[2]}:${String(minutes).padStart(2, '0')}` : `UTC${m[1]}${m[2]}`;
  }
  return zone;
}

export function isValidZone(zone: string): boolean {
  if (zone === '') return true;
  return DateTime.now().setZone(normaliseZone(zone)).isValid;
}

/** `YYYY-MM-DD` + `HH:MM` → `Y-m-d H:i:s`. */
export function joinDateTime(date: string, time: string): string {
  return `${date} ${(time || '00:00').slice(0, 5)}:00`;
}

export function splitDateTime(value: string): { date: string; time: string } {
  return { date: value.slice(0, 10), time: value.slice(11, 16) || '00:00' };
}

export function addDaysIso(date: string, days: number): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate()!;
}

/** Today's date in the viewer's zone, `YYYY-MM-DD`. */
export function todayIso(): string {
  return DateTime.local().toISODate()!;
}

let zoneList: string[] | null = null;
/** Every zone the platform knows, for the time zone picker. */
export function allZones(): string[] {
  if (!zoneList) {
    let zones: string[] = [];
    try {
      zones = (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('timeZone');
    } catch {
      zones = [];
    }
    zoneList = Array.from(new Set(['UTC', ...zones, viewerZone()])).sort();
  }
  return zoneList;
}

/**
 * A date typed with a two-digit year: date inputs take `11/30/26` as the year 0026. Read as the
 * nearest 19xx, 20xx or 21xx to this year, as Google Calendar does; other dates are left alone.
 */
export function fixTwoDigitYear(date: string, thisYear = new Date().getFullYear()): string {
  const m = /^(\d{4})(-\d\d-\d\d.*)$/.exec(date);
  if (!m || Number(m[1]) >= 100) return date;
  const yy = Number(m[1]);
  const year = [1900 + yy, 2000 + yy, 2100 + yy].reduce((a, b) => (Math.abs(b - thisYear) < Math.abs(a - thisYear) ? b : a));
  return `${year}${m[2]}`;
}

/** Years the editor saves without a second thought; anything else is almost surely a typo. */
export const EDITOR_YEARS = { min: 1900, max: 2200 } as const;
