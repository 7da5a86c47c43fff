/**
 * Date conversions between the API (wall times in an event's zone, `Y-m-d H:i:s`; UTC copies) and
 * the calendar (instants shown in the calendar's zone). luxon does the zone arithmetic because event
 * zones may differ from the calendar's and may be fixed offsets such as `UTC+2`.
 *
 * The calendar's zone is the one chosen in Settings, else the computer's. It is kept here, the one
 * place every view asks; luxon's default zone follows it too, so a `DateTime.local()` or
 * `toLocal()` anywhere means the calendar's zone, never the page's by accident.
 */
import { DateTime, Settings } from 'luxon';

export const API_FORMAT = 'yyyy-MM-dd HH:mm:ss';

let pageZone: string | null = null;
/** The computer's own zone (this page's); asked once, as a new Intl.DateTimeFormat is not cheap. */
export function systemZone(): string {
  if (pageZone) return pageZone;
  try {
    pageZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    pageZone = 'UTC';
  }
  return pageZone;
}

let chosenZone: string | null = null;

/** The zone the calendar is drawn in: the one chosen in Settings, else the computer's. */
export function viewerZone(): string {
  return chosenZone ?? systemZone();
}

/**
 * Draws the calendar in `zone` (null or "" for the computer's). An unknown zone falls back to the
 * computer's rather than drawing nothing. Returns whether the zone changed.
 */
export function setViewerZone(zone: string | null): boolean {
  let next: string | null = zone ? normaliseZone(zone) : null;
  if (next && !DateTime.now().setZone(next).isValid) next = null;
  if (next === systemZone()) next = null;
  if (next === chosenZone) return false;
  chosenZone = next;
  Settings.defaultZone = next ?? 'system';
  return true;
}

/**
 * A zone as Intl and Temporal name it: luxon's fixed offsets (`UTC+2`, `UTC-3:30`) become
 * `Etc/GMT-2` (whole hours, the sign is POSIX's, reversed) or `-03:30`; IANA ids stay.
 */
export function intlZone(zone: string): string {
  const m = /^UTC([+-])(\d{1,2})(?::(\d{2}))?$/.exec(zone);
  if (!m) return zone;
  if (!m[3] || m[3] === '00') return Number(m[2]) === 0 ? 'UTC' : `Etc/GMT${m[1] === '+' ? '-' : '+'}${Number(m[2])}`;
  return `${m[1]}${m[2].padStart(2, '0')}:${m[3]}`;
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
  if (!zone) return chosenZone ?? systemZone();
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

/** Today's date in the calendar's zone, `YYYY-MM-DD`. */
export function todayIso(now: Date = new Date()): string {
  return DateTime.fromJSDate(now, { zone: viewerZone() }).toISODate()!;
}

/** The day (`YYYY-MM-DD`) an instant falls on in the calendar's zone. */
export function dayOf(instant: Date | number): string {
  return DateTime.fromMillis(+instant, { zone: viewerZone() }).toISODate()!;
}

/** The instant of midnight starting `day` (`YYYY-MM-DD`), plus `days`, in the calendar's zone. */
export function midnightOf(day: string, days = 0): Date {
  return DateTime.fromISO(day, { zone: viewerZone() }).plus({ days }).toJSDate();
}

/** An instant moved by whole days on the calendar's clock (the same wall time across a DST change). */
export function plusDays(instant: Date, days: number): Date {
  return DateTime.fromJSDate(instant, { zone: viewerZone() }).plus({ days }).toJSDate();
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
    zoneList = Array.from(new Set(['UTC', ...zones, systemZone()])).sort();
  }
  return zoneList;
}

/** Years the editor saves without a second thought; anything else is almost surely a typo. */
export const EDITOR_YEARS = { min: 1900, max: 2200 } as const;
