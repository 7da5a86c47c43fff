/**
 * Where ical.js 2.2.1 gets a rule wrong, the recurrence engine (recurrence.ts) asks it for the
 * candidates and keeps, per period of the rule, what RFC 5545 keeps. No expansion is written here:
 * only the choice within each period (numbered weekdays of the year, BYSETPOS, every INTERVAL-th
 * period).
 */
import ICAL from 'ical.js';
import { wallAsUtc } from '../../../shared/dates/format';
import type { RuleParts, SeriesTiming } from './recurrence';
import { addWall, dayNumber, icalTime, pad, ruleForIcal, wall, wallOf, weekdayIndex, WEEK_DAYS } from './rule-time';

/*
 * Rule shapes ical.js 2.2.1 expands wrong (found by test/server/api/recurrence-oracle.test.ts
 * against python-dateutil, and checked with RFC 5545 §3.3.10):
 * - INTERVAL is ignored next to BYMONTH in a MONTHLY (or finer) rule and next to BYHOUR in an
 *   HOURLY rule: FREQ=MONTHLY;INTERVAL=4;BYMONTH=1,8 from January makes every August too.
 * - BYSETPOS picks within each month of a YEARLY rule with BYMONTH (the set is the year's), and is
 *   ignored next to BYMONTHDAY in a MONTHLY rule.
 * - A numbered BYDAY in a YEARLY rule without BYMONTH (20MO: the 20th Monday of the year) makes
 *   other days (10TH makes every Thursday).
 * For those, ical.js still makes the candidates (the rule without INTERVAL, BYSETPOS and the
 * numbers of BYDAY, which it gets right) and this module keeps, per period of the rule, the ones
 * RFC 5545 keeps: numbered weekdays of the year, set positions, every INTERVAL-th period.
 */
const ORDINAL = /^([+-]?\d{1,2})(MO|TU|WE|TH|FR|SA|SU)$/;

function yearlyOrdinals(r: RuleParts): boolean {
  return r.freq === 'YEARLY' && !['BYMONTH', 'BYWEEKNO', 'BYYEARDAY', 'BYMONTHDAY', 'BYHOUR', 'BYMINUTE', 'BYSECOND'].some((n) => r.parts.has(n)) &&
    (r.parts.get('BYDAY') ?? '').split(',').some((d) => ORDINAL.test(d));
}

export function needsSelection(r: RuleParts): boolean {
  if (r.parts.has('BYSETPOS') || yearlyOrdinals(r)) return true;
  if (r.interval === 1) return false;
  return (r.parts.has('BYMONTH') && r.freq !== 'YEARLY') || (r.parts.has('BYHOUR') && r.freq === 'HOURLY');
}

const weekdayOf = (local: string): string => WEEK_DAYS[weekdayIndex(dayNumber(local))];

/** Which period of the rule's frequency a wall time is in, as a number that grows by one a period. */
function periodOf(r: RuleParts, local: string): number {
  const year = +local.slice(0, 4);
  switch (r.freq) {
    case 'YEARLY':
      return year;
    case 'MONTHLY':
      return year * 12 + +local.slice(5, 7) - 1;
    case 'WEEKLY': {
      const wkst = WEEK_DAYS.indexOf(r.parts.get('WKST') ?? 'MO');
      const day = dayNumber(local);
      const weekday = WEEK_DAYS.indexOf(weekdayOf(local));
      return Math.floor((day - ((weekday - wkst + 7) % 7)) / 7);
    }
    case 'DAILY':
      return dayNumber(local);
    default:
      return dayNumber(local) * 24 + +local.slice(11, 13);
  }
}

/** A wall time in the period before `local`'s, with `local`'s time of day. */
function periodBefore(r: RuleParts, local: string): string {
  switch (r.freq) {
    case 'YEARLY':
      return `${pad(+local.slice(0, 4) - 1, 4)}-01-01${local.slice(10)}`;
    case 'MONTHLY':
      return addWall(`${local.slice(0, 8)}01${local.slice(10)}`, 'month', -1);
    case 'WEEKLY':
      return addWall(local, 'day', -14);
    case 'DAILY':
      return addWall(local, 'day', -1);
    default: {
      const ms = wallAsUtc(wall(local)) - 3_600_000;
      const d = new Date(ms);
      return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}${local.slice(13)}`;
    }
  }
}

/**
 * The rule's starts from `begin` on, for the shapes above: ical.js's candidates, started a period
 * early (so a period's positions count from its beginning, not from DTSTART) and kept per period.
 * `budget.n` bounds the candidates read.
 */
export function* selectedStarts(r: RuleParts, timing: SeriesTiming, begin: string, budget: { n: number }): Generator<string> {
  const parts = new Map(r.parts);
  const setpos = parts.get('BYSETPOS')?.split(',').map(Number);
  parts.delete('BYSETPOS');
  const ordinals = yearlyOrdinals(r) ? parts.get('BYDAY')!.split(',').map((d) => { const m = ORDINAL.exec(d); return m ? { n: +m[1], day: m[2] } : { n: 0, day: d }; }) : undefined;
  if (ordinals) parts.set('BYDAY', [...new Set(ordinals.map((o) => o.day))].join(','));
  // The defaults RFC 5545 takes from DTSTART, spelled out: the iteration starts elsewhere.
  const start = timing.start;
  const dayParts = ['BYDAY', 'BYMONTHDAY', 'BYYEARDAY', 'BYWEEKNO'];
  if (r.freq === 'WEEKLY' && !parts.has('BYDAY')) parts.set('BYDAY', weekdayOf(start));
  if (r.freq === 'MONTHLY' && !dayParts.some((n) => parts.has(n))) parts.set('BYMONTHDAY', String(+start.slice(8, 10)));
  if (r.freq === 'YEARLY' && !dayParts.some((n) => parts.has(n))) {
    if (!parts.has('BYMONTH')) parts.set('BYMONTH', String(+start.slice(5, 7)));
    parts.set('BYMONTHDAY', String(+start.slice(8, 10)));
  }
  const from = periodBefore(r, begin);
  const firstPeriod = periodOf(r, begin);
  const startPeriod = periodOf(r, start);
  const iterator = ICAL.Recur.fromString(ruleForIcal(r.freq, 1, undefined, parts)).iterator(icalTime(from, timing.allDay));
  let period = NaN;
  let group: string[] = [];
  const keep = function* (): Generator<string> {
    if (!(period >= firstPeriod) || (period - startPeriod) % r.interval !== 0) return;
    let chosen = group;
    if (ordinals) {
      chosen = group.filter((c) => {
        const day = weekdayOf(c);
        const same = group.filter((g) => weekdayOf(g) === day);
        const at = same.indexOf(c);
        return ordinals.some((o) => o.day === day && (o.n === 0 || (o.n > 0 ? at === o.n - 1 : at === same.length + o.n)));
      });
    }
    if (setpos) {
      const n = chosen.length;
      chosen = [...new Set(setpos.map((p) => chosen[p > 0 ? p - 1 : n + p]).filter((c): c is string => c !== undefined))].sort();
    }
    for (const c of chosen) if (c >= start) yield c;
  };
  for (let t = iterator.next(); t; t = iterator.next()) {
    if (--budget.n <= 0) return;
    const local = wallOf(t, timing.allDay);
    const p = periodOf(r, local);
    if (p !== period) {
      yield* keep();
      period = p;
      group = [];
    }
    group.push(local);
  }
  yield* keep();
}
