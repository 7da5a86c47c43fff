/**
 * iCalendar (RFC 5545) export of API event records.
 *
 * Every field an event body can express goes out either as a standard property or, where
 * iCalendar has no slot for it, as an `X-ALMANAC-*` property, so that exporting and importing the
 * file again (import.ts) gives back the same events. Other calendar programs ignore the X- props.
 *
 * `exportIcs` writes a list of records as one text; the database export (export-threaded.ts)
 * streams the same pieces (`icsHead`, `veventsText`, `ICS_END`) batch by batch, so that a
 * 100,000-event export never sits in memory whole. VTIMEZONE blocks are generated from the
 * system's time zone database (via Intl) for just the zones and years the events use.
 */
import type { Event } from '../../../shared/api/records';
import { contentLine, escapeText, joinLines } from './text';
import { parts, veventsText, type IcsEvent, type IcsExportOptions } from './record-to-vevent';
import { vtimezoneLines } from './vtimezone';
import { exportZone } from './zone-times';

export const PRODID = '-//Almanac//Almanac Calendar//EN';

/** A calendar file of these events. */
export function exportIcs<E extends IcsEvent>(events: readonly E[], opts: IcsExportOptions<E>): string {
  return icsHead(zonesUsed(events), opts) + veventsText(events, opts) + ICS_END;
}

/** The calendar's opening lines and the VTIMEZONE blocks of these zones. */
export function icsHead(zones: Map<string, { from: number; to: number }>, opts: Pick<IcsExportOptions, 'calendarName'>): string {
  const head = ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:${PRODID}`, 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH'];
  if (opts.calendarName) head.push(contentLine('X-WR-CALNAME', {}, escapeText(opts.calendarName)));
  let text = joinLines(head);
  // One year of margin on each side: an event's UTC instant can fall in the neighbouring year.
  for (const [tzid, years] of zones) text += joinLines(vtimezoneLines(tzid, years.from - 1, years.to + 1));
  return text;
}

export const ICS_END = 'END:VCALENDAR\r\n';

export type ZoneSpanSource = Pick<Event, 'all_day' | 'timezone' | 'start_date' | 'end_date'>;

/**
 * The VTIMEZONE blocks a set of events needs: each zone with the first and last year it is used,
 * in the order of their names, so a file does not depend on where its events come from.
 */
export function zonesUsed(events: Iterable<ZoneSpanSource>): Map<string, { from: number; to: number }> {
  const zones = new Map<string, { from: number; to: number }>();
  for (const e of events) {
    if (e.all_day) continue;
    const zone = exportZone(e.timezone);
    if (zone === 'utc') continue;
    const years = [e.start_date, e.end_date].map((s) => Number(parts(s)?.[0])).filter((y) => y > 0);
    if (!years.length) continue;
    const span = zones.get(zone.tzid) ?? { from: Infinity, to: -Infinity };
    span.from = Math.min(span.from, ...years);
    span.to = Math.max(span.to, ...years);
    zones.set(zone.tzid, span);
  }
  return new Map([...zones].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
