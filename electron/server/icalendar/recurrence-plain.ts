/**
 * The plainest rules by date arithmetic: FREQ=DAILY or WEEKLY with at most plain weekdays
 * (BYDAY=MO,WE), an INTERVAL, COUNT or UNTIL, and WKST. Most series people make are of these
 * ("every Tuesday", "every weekday", "every 2 weeks"), and a month of a thousand of them is asked
 * for each time a far month is shown: ical.js's iterator costs some 20 µs an occurrence and its
 * set-up as much again, this a fraction of one. The occurrences are the same as ical.js's (a test
 * compares the two over random rules); everything else still goes through it (recurrence.ts).
 *
 * Wall times, as everywhere in the engine: an occurrence is a date of the rule at DTSTART's time
 * of day, whatever the zone's daylight-saving changes do to the instant.
 */
import type { RuleParts, SeriesTiming } from './recurrence';
import { DAY_MS, dayNumber, pad, weekdayIndex as weekdayOf } from './rule-time';

const DAY_INDEX: Record<string, number> = { SU: 0, MO: 1, TU: 2, WE: 3, TH: 4, FR: 5, SA: 6 };
const PLAIN_DAYS = /^(MO|TU|WE|TH|FR|SA|SU)(,(MO|TU|WE|TH|FR|SA|SU))*$/;
function dateOf(n: number): string {
  const d = new Date(n * DAY_MS);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/**
 * Whether `r` is one of those rules. A WKST other than Monday is left to ical.js when it matters
 * (an INTERVAL of 2 weeks or more counts weeks from it).
 */
export function isPlainRule(r: RuleParts): boolean {
  if (r.freq !== 'DAILY' && r.freq !== 'WEEKLY') return false;
  for (const [name, value] of r.parts) {
    if (name === 'FREQ' || name === 'INTERVAL' || name === 'COUNT' || name === 'UNTIL') continue;
    if (name === 'BYDAY' && PLAIN_DAYS.test(value)) continue;
    if (name === 'WKST' && (value === 'MO' || r.freq === 'DAILY' || r.interval === 1)) continue;
    return false;
  }
  return true;
}

/**
 * The rule's starts on or after `begin`'s day, in order, never ending (the caller stops at its
 * window, UNTIL or COUNT). DTSTART itself comes only when the rule makes it, as ical.js gives it.
 */
export function* plainStarts(r: RuleParts, timing: SeriesTiming, begin: string): Generator<string> {
  const time = timing.start.slice(10);
  const first = dayNumber(timing.start);
  const byDay = r.parts.get('BYDAY');
  const weekdays = byDay ? new Set(byDay.split(',').map((d) => DAY_INDEX[d])) : r.freq === 'WEEKLY' ? new Set([weekdayOf(first)]) : undefined;
  const weekStartDay = DAY_INDEX[r.parts.get('WKST') ?? 'MO'];
  const weekOf = (n: number) => n - ((weekdayOf(n) - weekStartDay + 7) % 7);
  const firstWeek = weekOf(first);
  for (let n = Math.max(first, dayNumber(begin)); ; n++) {
    if (weekdays && !weekdays.has(weekdayOf(n))) continue;
    const periods = r.freq === 'DAILY' ? n - first : (weekOf(n) - firstWeek) / 7;
    if (periods % r.interval !== 0) continue;
    yield `${dateOf(n)}${time}`;
  }
}
