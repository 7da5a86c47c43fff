/**
 * What real producers write that RFC 5545 (or ical.js) does not read, fixed up in one VEVENT's
 * jCal before ical.js makes anything of it, each fix told as a warning naming the line:
 *
 * - a date written without VALUE=DATE (`DTSTART:20220101`) is read as the date it is;
 * - a second DTSTART, DTEND, DURATION or RECURRENCE-ID is ignored (the first one counts);
 * - an RDATE or EXDATE that cannot be read (empty, `VALUE=TIME`, a malformed value) is ignored;
 * - an RDATE period (`RDATE;VALUE=PERIOD:start/end`, valid but unknown to ical.js's recurrence
 *   engine, which crashed on it) becomes a plain RDATE, and that occurrence keeps its own end;
 * - DTSTART is added to the RDATEs of an event without RRULE (RFC 5545: the set always holds
 *   DTSTART; ical.js's expansion skipped it), silently, since the file is right.
 */
import ICAL from 'ical.js';
import { snippet } from './problems';
import type { VeventInfo } from './scan';

type IcalComponent = InstanceType<typeof ICAL.Component>;
type IcalTime = InstanceType<typeof ICAL.Time>;

/** Where an RDATE period ends, by its start (`periodKey`): an end time or a duration, as jCal writes them. */
export type PeriodEnds = Map<string, string>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z?$/;
/** What ical.js makes of a date read as a date-time: `2022-01-01T::`. */
const DATE_AS_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T::$/;
const DURATION = /^[+-]?P/;
const DATE_PROPERTIES = new Set(['dtstart', 'dtend', 'due', 'recurrence-id', 'rdate', 'exdate']);
const ONE_ONLY = new Set(['dtstart', 'dtend', 'duration', 'recurrence-id']);

/** The key of a period's start, as `span` finds it again from the occurrence's time. */
export function periodKey(t: IcalTime | string, tzid: string | undefined): string {
  return `${typeof t === 'string' ? t : t.toString()}\u0000${tzid ?? ''}`;
}

/** The end of an occurrence that an RDATE period started at `start`. */
export function periodEnd(start: IcalTime, end: string): IcalTime {
  if (DURATION.test(end)) {
    const t = start.clone();
    t.addDuration(ICAL.Duration.fromString(end));
    return t;
  }
  const t = ICAL.Time.fromString(end, null as never);
  if (!end.endsWith('Z')) t.zone = start.zone;
  return t;
}

export function fixUp(c: IcalComponent, info: VeventInfo, warn: (line: number, message: string) => void): PeriodEnds | undefined {
  const props = (c.jCal as unknown[])[1] as unknown[][];
  const seen = new Map<string, number>();
  const where = (name: string, nth: number) => info.allLines?.get(name.toUpperCase())?.[nth];
  const at = (name: string, nth: number) => {
    const found = where(name, nth);
    return found ? { line: found.line, quoted: `"${snippet(found.text)}"` } : { line: info.line, quoted: name.toUpperCase() };
  };
  let ends: PeriodEnds | undefined;
  const keep: unknown[][] = [];
  for (const p of props) {
    const name = p[0] as string;
    const nth = seen.get(name) ?? 0;
    seen.set(name, nth + 1);
    if (ONE_ONLY.has(name) && nth > 0) {
      const first = at(name, 0);
      const { line, quoted } = at(name, nth);
      warn(line, `Line ${line}: ${quoted} is a second ${name.toUpperCase()} in the event; it was ignored and the first one (line ${first.line}) kept.`);
      continue;
    }
    if (!DATE_PROPERTIES.has(name)) {
      keep.push(p);
      continue;
    }
    const type = p[2] as string;
    const values = p.slice(3);
    if (type === 'date-time' && values.length && values.every((v) => typeof v === 'string' && DATE_AS_DATE_TIME.test(v))) {
      const { line, quoted } = at(name, nth);
      warn(line, `Line ${line}: ${quoted} is a date written without VALUE=DATE; it was read as that date.`);
      keep.push([name, p[1], 'date', ...values.map((v) => DATE_AS_DATE_TIME.exec(v as string)![1])]);
      continue;
    }
    if (name !== 'rdate' && name !== 'exdate') {
      keep.push(p);
      continue;
    }
    const valid =
      values.length > 0 &&
      (type === 'date-time'
        ? values.every((v) => typeof v === 'string' && DATE_TIME.test(v))
        : type === 'date'
          ? values.every((v) => typeof v === 'string' && DATE.test(v))
          : type === 'period' && name === 'rdate'
            ? values.every((v) => Array.isArray(v) && (DATE_TIME.test(v[0]) || DATE.test(v[0])) && (DATE_TIME.test(v[1]) || DURATION.test(v[1])))
            : false);
    if (!valid) {
      const { line, quoted } = at(name, nth);
      warn(line, `Line ${line}: ${quoted} is not a list of dates or times; it was ignored.`);
      continue;
    }
    if (type !== 'period') {
      keep.push(p);
      continue;
    }
    // ical.js expands RDATE values as times; each period's end is kept for its occurrence.
    const params = p[1] as { tzid?: string };
    const periods = values as string[][];
    for (const [start, end] of periods) (ends ??= new Map()).set(periodKey(start, params.tzid), end);
    keep.push([name, params, DATE.test(periods[0][0]) ? 'date' : 'date-time', ...periods.map(([start]) => start)]);
  }
  // The recurrence set always holds DTSTART (RFC 5545 3.8.5.3); ical.js leaves it out when RDATEs
  // come without a rule. (A rule DTSTART does not match gives an undefined set, by the same RFC.)
  const dtstart = keep.find((p) => p[0] === 'dtstart');
  if (dtstart && keep.some((p) => p[0] === 'rdate') && !keep.some((p) => p[0] === 'rrule')) {
    const { tzid } = dtstart[1] as { tzid?: string };
    keep.push(['rdate', tzid ? { tzid } : {}, dtstart[2], dtstart[3]]);
  }
  if (keep.length !== props.length || keep.some((p, i) => p !== props[i])) {
    props.length = 0;
    props.push(...keep);
  }
  return ends;
}
