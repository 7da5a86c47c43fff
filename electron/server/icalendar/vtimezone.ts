/** VTIMEZONE blocks generated from the system's time zone database (via Intl). */
import { API_OFFSET_ZONE, offsetFinder, wallAt, type Wall } from './zone-times';
import { contentLine, escapeText } from './text';
import { timezoneAbbr } from '../../../shared/dates/zones';

interface Onset {
  at: number; // epoch seconds
  from: number;
  to: number;
  daylight: boolean;
  name: string;
  local: Wall; // wall time of the onset, in the `from` offset (as DTSTART in a VTIMEZONE wants)
}

const DAY = 86_400;
const WEEK = 7 * DAY;
/** 1900-01-01: before it, zones kept local mean time. */
const EARLIEST = Date.UTC(1900, 0, 1) / 1000;
const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

/**
 * A VTIMEZONE for `zone` covering fromYear…toYear, named `tzid` (default: the zone itself).
 * Transitions are found by sampling the offset daily and bisecting to the second, then folded
 * into yearly RRULEs where consecutive years follow the same rule (Outlook reads RRULEs far better
 * than long RDATE lists). The last rule is left open-ended so that dates after the range still
 * resolve the way the zone most likely continues.
 */
export function vtimezoneLines(zone: string, fromYear: number, toYear: number, tzid = zone): string[] {
  const offsetAt = offsetFinder(zone);
  if (!offsetAt) throw new Error(`Unknown time zone "${zone}"`);
  const nameAt = shortNameFinder(zone);
  // Local midnight of 1 January, so that the base observance reads 0101T000000.
  const start = Date.UTC(fromYear, 0, 1) / 1000 - offsetAt(Date.UTC(fromYear, 0, 1) / 1000);
  const end = Date.UTC(toYear + 1, 0, 1) / 1000;

  const isDaylight = (offset: number, year: number) => {
    const standard = Math.min(offsetAt(Date.UTC(year, 0, 1) / 1000), offsetAt(Date.UTC(year, 6, 1) / 1000));
    return offset > standard;
  };

  const onsets: Onset[] = [];
  let previous = offsetAt(start);
  for (let t = start + DAY; t <= end; t += DAY) {
    const offset = offsetAt(t);
    if (offset === previous) continue;
    let lo = t - DAY;
    let hi = t;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (offsetAt(mid) === previous) lo = mid;
      else hi = mid;
    }
    const local = wallAt(hi + previous);
    onsets.push({ at: hi, from: previous, to: offset, daylight: isDaylight(offset, local.y), name: nameAt(hi), local });
    previous = offset;
  }
  // A reader has no offset for times before a VTIMEZONE's first observance (ical.js takes them
  // as UTC): the change in effect when the range starts opens it, found looking back a week at
  // a time.
  let opened = false;
  if (onsets.length) {
    const base = offsetAt(start);
    for (let t = start - WEEK; t > EARLIEST; t -= WEEK) {
      const offset = offsetAt(t);
      if (offset === base) continue;
      let lo = t;
      let hi = t + WEEK;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (offsetAt(mid) === base) hi = mid;
        else lo = mid;
      }
      const from = offsetAt(lo);
      const local = wallAt(hi + from);
      onsets.unshift({ at: hi, from, to: base, daylight: isDaylight(base, local.y), name: nameAt(hi), local });
      opened = true;
      break;
    }
  }

  const base = offsetAt(start);
  const baseLocal = wallAt(start + base);
  const lines = ['BEGIN:VTIMEZONE', contentLine('TZID', {}, escapeText(tzid))];
  if (!API_OFFSET_ZONE.test(zone)) lines.push(contentLine('X-LIC-LOCATION', {}, escapeText(zone)));
  // Only a zone that never changed needs an observance that changes nothing.
  if (!opened) lines.push(...observance(isDaylight(base, baseLocal.y), base, base, nameAt(start), baseLocal, undefined));

  for (const daylight of [false, true]) {
    const ofKind = onsets.filter((o) => o.daylight === daylight);
    for (const run of yearlyRuns(ofKind)) {
      const first = run.onsets[0];
      const last = run.onsets[run.onsets.length - 1];
      let rrule: string | undefined;
      if (run.onsets.length > 1) {
        const byDay = `${run.week}${WEEKDAYS[weekday(first.local)]}`;
        rrule = `FREQ=YEARLY;BYMONTH=${first.local.m};BYDAY=${byDay}`;
        const continuesPastRange = last === ofKind[ofKind.length - 1] && last.local.y >= toYear;
        if (!continuesPastRange) rrule += `;UNTIL=${compactWall(wallAt(last.at))}Z`;
      }
      lines.push(...observance(daylight, first.from, first.to, first.name, first.local, rrule));
    }
  }
  lines.push('END:VTIMEZONE');
  return lines;
}

function observance(daylight: boolean, from: number, to: number, name: string, local: Wall, rrule?: string): string[] {
  const kind = daylight ? 'DAYLIGHT' : 'STANDARD';
  // In the order of RFC 5545's examples.
  const lines = [`BEGIN:${kind}`, `DTSTART:${compactWall(local)}`];
  if (rrule) lines.push(`RRULE:${rrule}`);
  lines.push(`TZOFFSETFROM:${formatOffset(from)}`, `TZOFFSETTO:${formatOffset(to)}`, contentLine('TZNAME', {}, escapeText(name)), `END:${kind}`);
  return lines;
}

/**
 * Groups onsets of one kind into runs that one yearly rule describes: same month, weekday, local
 * time, offsets and name in consecutive years, with a common "nth weekday" (or "last weekday").
 */
function yearlyRuns(onsets: Onset[]): { onsets: Onset[]; week: number }[] {
  const runs: { onsets: Onset[]; week: number }[] = [];
  let run: Onset[] = [];
  let weeks = new Set<number>();
  const flush = () => {
    if (!run.length) return;
    // "Last Sunday" (-1) reads right in every year of an open-ended rule; prefer it when it fits.
    const week = weeks.has(-1) ? -1 : Math.min(...weeks);
    runs.push({ onsets: run, week });
  };
  for (const onset of onsets) {
    const candidates = weekCandidates(onset.local);
    const prev = run[run.length - 1];
    const common = new Set([...weeks].filter((w) => candidates.has(w)));
    const continues =
      prev &&
      onset.local.y === prev.local.y + 1 &&
      onset.local.m === prev.local.m &&
      weekday(onset.local) === weekday(prev.local) &&
      onset.local.hh === prev.local.hh &&
      onset.local.mi === prev.local.mi &&
      onset.local.ss === prev.local.ss &&
      onset.from === prev.from &&
      onset.to === prev.to &&
      onset.name === prev.name &&
      common.size > 0;
    if (continues) {
      run.push(onset);
      weeks = common;
    } else {
      flush();
      run = [onset];
      weeks = candidates;
    }
  }
  flush();
  return runs;
}

function weekCandidates(w: Wall): Set<number> {
  const candidates = new Set([Math.ceil(w.d / 7)]);
  const daysInMonth = new Date(Date.UTC(w.y, w.m, 0)).getUTCDate();
  if (w.d + 7 > daysInMonth) candidates.add(-1);
  return candidates;
}

function weekday(w: Wall): number {
  return new Date(Date.UTC(w.y, w.m - 1, w.d)).getUTCDay();
}

function compactWall(w: Wall): string {
  const p = (n: number, len = 2) => String(n).padStart(len, '0');
  return `${p(w.y, 4)}${p(w.m)}${p(w.d)}T${p(w.hh)}${p(w.mi)}${p(w.ss)}`;
}

function formatOffset(seconds: number): string {
  const sign = seconds < 0 ? '-' : '+';
  const abs = Math.abs(seconds);
  const p = (n: number) => String(n).padStart(2, '0');
  const hhmm = `${p(Math.floor(abs / 3600))}${p(Math.floor((abs % 3600) / 60))}`;
  return sign + hhmm + (abs % 60 ? p(abs % 60) : '');
}

/**
 * The zone's abbreviation at an instant (CET, CEST, EST, AEST), as the API's records name it
 * (`timezoneAbbr`: CLDR's names checked against the tz database's; "+04" where it has no letters).
 */
function shortNameFinder(zone: string): (epochSeconds: number) => string {
  return (sec) => timezoneAbbr(zone, new Date(sec * 1000).toISOString().slice(0, 19).replace('T', ' '));
}
