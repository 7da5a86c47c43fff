/**
 * The pieces of a sentence quick add reads with patterns of more than one part: a repeat, a range
 * of days, times, and the absolute dates chrono-node reads; and the RRULE a repeat becomes.
 */
// Only the three languages' parsers: the whole package would bring a dozen more into the app.
import * as chronoEn from 'chrono-node/en';
import * as chronoPt from 'chrono-node/pt';
import * as chronoEs from 'chrono-node/es';
import type { Language } from '../i18n/languages';
import type { zoneFor } from '../dates/zones';
import {
  B,
  E,
  WEEKDAY_CODES,
  clockMinutes,
  clockOf,
  compareDay,
  dayTime,
  guessAfternoon,
  indexIn,
  iso,
  rx,
  unitAny,
  unitOf,
  validDay,
  type Clock,
  type Day,
  type Grammar,
  type Sentence,
} from './grammar';

export interface Repeat {
  freq: 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
  interval: number;
  byDay?: string[];
}

export type Each = (source: string | RegExp, use: (m: RegExpExecArray) => boolean | void, once?: boolean) => void;

export function readRepeat(g: Grammar, each: Each, takeMatch: (m: RegExpExecArray) => void): Repeat | undefined {
  const w = g.w;
  const and = `(?:\\s*[,&]\\s*|\\s+(?:${w.repeat.and})\\s+)`;
  let found: Repeat | undefined;
  const tries: Array<[string, (m: RegExpExecArray) => Repeat | undefined]> = [
    [w.repeat.weekdays, () => ({ freq: 'WEEKLY', interval: 1, byDay: ['MO', 'TU', 'WE', 'TH', 'FR'] })],
    [w.repeat.weekends, () => ({ freq: 'WEEKLY', interval: 1, byDay: ['SA', 'SU'] })],
    [
      // "every 2 weeks", "every other week", "a cada 2 semanas", "cada 3 días"
      `(?:${w.repeat.every})\\s+(?:(\\d{1,3})\\s+${w.repeat.other ? `|(${w.repeat.other})\\s+` : ''})?(${unitAny(g, ['day', 'week', 'month', 'year'])})`,
      (m) => {
        const unit = unitOf(g, m[m.length - 1]);
        const interval = m[1] ? Number(m[1]) : w.repeat.other && m[2] ? 2 : 1;
        if (!unit || interval < 1 || unit === 'minute' || unit === 'hour') return undefined;
        return { freq: ({ day: 'DAILY', week: 'WEEKLY', month: 'MONTHLY', year: 'YEARLY' } as const)[unit as 'day'], interval };
      },
    ],
    [
      // "every monday and wednesday", "toda segunda", "cada lunes", "on mondays", "às segundas"
      `(?:${w.repeat.every})\\s+(${g.weekdayAny}(?:${and}${g.weekdayAny})*)`,
      (m) => {
        const words = m[1].split(rx(and)).filter((x) => x.trim());
        const days = words.map((x) => indexIn(g.weekdays, x));
        if (!days.length || days.some((d) => d < 0)) return undefined;
        return { freq: 'WEEKLY', interval: 1, byDay: [...new Set(days)].sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7)).map((d) => WEEKDAY_CODES[d]) };
      },
    ],
    [w.repeat.daily, () => ({ freq: 'DAILY', interval: 1 })],
    [w.repeat.weekly, () => ({ freq: 'WEEKLY', interval: 1 })],
    [w.repeat.monthly, () => ({ freq: 'MONTHLY', interval: 1 })],
    [w.repeat.yearly, () => ({ freq: 'YEARLY', interval: 1 })],
  ];
  for (const [src, make] of tries) {
    each(`${B}(?:${src})${E}`, (m) => {
      const r = make(m);
      if (!r) return false;
      // "on monday" is one Monday; "on mondays" (and "às segundas") every one.
      if (/^(?:on|as|às|aos)\s/iu.test(m[0]) && !/s$/iu.test(m[0].trim())) return false;
      found = r;
      takeMatch(m);
    });
    if (found) break;
  }
  return found;
}

/** "March 3-5", "de 3 a 5 de março", "del 3 al 5 de marzo": the first and last day. */
export function readDayRange(g: Grammar, lang: Language, today: Day, each: Each, found: (first: Day, last: Day, yearSaid: boolean, m: RegExpExecArray) => void): void {
  const ord = '(?:st|nd|rd|th|º|°)?';
  const year = lang === 'en' ? '(?:,?\\s+(\\d{4}))?' : '(?:\\s+(?:de\\s+)?(\\d{4}))?';
  const join = lang === 'en' ? '(?:-|–|to|through|until)' : `(?:-|–|${g.w.rangeJoin})`;
  const lead = lang === 'en' ? '(?:(?:from|on)\\s+)?' : `(?:(?:${g.w.rangeStart}|del|desde\\s+el)\\s+)?`;
  const make = (m: RegExpExecArray, monthWord: string, d1: string, d2: string, y: string | undefined) => {
    const month = indexIn(g.months, monthWord) + 1;
    const a = Number(d1);
    const b = Number(d2);
    if (month < 1 || a < 1 || b <= a || b > 31) return false;
    const yy = y ? Number(y) : today.y;
    const first = { y: yy, m: month, d: a };
    const last = { y: yy, m: month, d: b };
    if (!validDay(first, 2000) || !validDay(last, 2000)) return false;
    found(first, last, !!y, m);
  };
  if (lang === 'en') {
    each(`${B}${lead}(${g.monthAny})\\s+(\\d{1,2})${ord}\\s*${join}\\s*(\\d{1,2})${ord}${year}${E}`, (m) => make(m, m[1], m[2], m[3], m[4]));
    each(`${B}${lead}(\\d{1,2})${ord}\\s*${join}\\s*(\\d{1,2})${ord}\\s+(?:of\\s+)?(${g.monthAny})${year}${E}`, (m) => make(m, m[3], m[1], m[2], m[4]));
  } else {
    each(`${B}${lead}(\\d{1,2})${ord}\\s*${join}\\s*(\\d{1,2})${ord}\\s+(?:de\\s+)?(${g.monthAny})${year}${E}`, (m) => make(m, m[3], m[1], m[2], m[4]));
  }
}

/** Times: a range or a single time, each with the words before it ("at", "às", "a las"). */
export function readTimes(g: Grammar, lang: Language, each: Each, takeMatch: (m: RegExpExecArray) => void, found: (start: Clock, end: Clock | undefined) => void): void {
  const w = g.w;
  const bare = '\\d{1,2}(?::\\d{2})?';
  const part = `(${g.time}|${bare})(?:\\s+(${w.afternoon}|${w.morning}))?`;
  // Not a count ("a 2 semanas", "at 2 weeks") nor part of a date ("5/12", "2027-03-05").
  const notUnit = `(?!\\s*(?:(?:${Object.values(w.units).join('|')})${E}|/|\\.\\d|-\\d{2}))`;
  let done = false;
  each(`${B}(?:(${w.rangeStart})\\s+)?(?:(?:${w.beforeTime})\\s+)?${part}\\s*(?:${w.rangeJoin})\\s*(?:(?:${w.beforeTime})\\s+)?${part}${E}${notUnit}`, (m) => {
    const marked = (t: string) => rx(`^(?:${g.time})$`).test(t.trim());
    // "9-11" alone could be anything; "from 9 to 11", "9:30-10:15" and "9-11am" are times.
    if (!m[1] && !marked(m[2]) && !marked(m[4])) return false;
    const a = clockOf(g, m[2], m[3]);
    const b = clockOf(g, m[4], m[5]);
    if (!a || !b) return false;
    let first: Clock & { meridiem: boolean } = a;
    let second: Clock & { meridiem: boolean } = b;
    // "9-11am": the end's am/pm is the start's when that keeps the start first.
    if (!first.meridiem && second.meridiem && second.h >= 12 && first.h + 12 < second.h + (second.min > first.min ? 1 : 0) && first.h < 12) first = { ...first, h: first.h + 12, meridiem: true };
    if (!first.meridiem && !second.meridiem) {
      const fa = guessAfternoon(lang, first);
      const sa = guessAfternoon(lang, second);
      // "from 11 to 1": the end is after noon.
      first = { ...fa, meridiem: false };
      second = { ...(clockMinutes(sa) <= clockMinutes(fa) && sa.h < 12 ? { h: sa.h + 12, min: sa.min } : sa), meridiem: false };
    }
    found(first, second);
    done = true;
    takeMatch(m);
  });
  if (done) return;
  each(`${B}(?:(?:${w.beforeTime})\\s+)?(${g.time})(?:\\s+(${w.afternoon}|${w.morning}))?${E}`, (m) => {
    const c = clockOf(g, m[1], m[2]);
    if (!c) return false;
    // "at 4:30" in English is the afternoon's, as a bare "at 4" is.
    found(guessAfternoon(lang, c), undefined);
    done = true;
    takeMatch(m);
  });
  if (done) return;
  // A bare hour needs its word: "at 5", "às 10", "a las 9".
  each(`${B}(?:${w.beforeTime})\\s+(${bare})(?:\\s+(${w.afternoon}|${w.morning}))?${E}${notUnit}`, (m) => {
    const c = clockOf(g, m[1], m[2]);
    if (!c) return false;
    found(m[2] ? c : guessAfternoon(lang, c), undefined);
    takeMatch(m);
  });
}

const CHRONO = { en: chronoEn.casual, 'pt-br': chronoPt.casual, es: chronoEs.casual } as const;

export interface ChronoDay {
  day: Day;
  last?: Day;
  yearSaid: boolean;
  start: number;
  end: number;
}

/** An absolute date chrono-node reads in what is left ("Dec 15", "15 de dezembro", "15/12/2027"). */
export function chronoDate(lang: Language, g: Grammar, s: Sentence, today: Day, from = 0, anchored = false): ChronoDay | undefined {
  const text = s.view(false);
  const ref = { instant: new Date(Date.UTC(today.y, today.m - 1, today.d, 12)), timezone: 0 };
  for (const r of CHRONO[lang].parse(text.slice(from), ref)) {
    if (anchored && text.slice(from, from + r.index).trim() !== '') break;
    if (!r.start.isCertain('day') || !r.start.isCertain('month')) continue;
    // A date written out, with digits or a month's name; chrono's "yesterday" is not one.
    if (!/\d/.test(r.text) && !r.text.split(/[\s,.]+/).some((x) => g.months.some((m) => m.test(x)))) continue;
    const yearSaid = r.start.isCertain('year');
    const day = { y: yearSaid ? r.start.get('year')! : today.y, m: r.start.get('month')!, d: r.start.get('day')! };
    if (!validDay(day, 1)) continue;
    let last: Day | undefined;
    if (r.end && r.end.isCertain('day')) {
      last = { y: r.end.isCertain('year') ? r.end.get('year')! : day.y, m: r.end.get('month')!, d: r.end.get('day')! };
      if (compareDay(last, day) < 0) last = { ...last, y: last.y + 1 };
    }
    // chrono's times are not read here (ours are): only the date's own characters are taken.
    const dateText = r.start.isCertain('hour') ? undefined : r.text;
    if (!dateText) continue;
    return { day, last, yearSaid, start: from + r.index, end: from + r.index + r.text.length };
  }
  return undefined;
}

/** The date that starts at `from`: a month alone ("June", "junho") means its first day. */
export function absoluteDateAt(lang: Language, g: Grammar, s: Sentence, from: number, today: Day): { day: Day; end: number } | undefined {
  const view = s.view();
  const m = rx(`^(${g.monthAny})(?:\\s+(?:de\\s+)?(\\d{4}))?${E}(?!\\s*\\d)`).exec(view.slice(from));
  if (m) {
    const month = indexIn(g.months, m[1]) + 1;
    let day: Day = { y: m[2] ? Number(m[2]) : today.y, m: month, d: 1 };
    if (!m[2] && compareDay(day, today) < 0) day = { ...day, y: day.y + 1 };
    return { day, end: from + m[0].length };
  }
  const found = chronoDate(lang, g, s, today, from, true);
  if (!found) return undefined;
  let day = found.day;
  if (!found.yearSaid && compareDay(day, today) < 0) day = { ...day, y: day.y + 1 };
  return { day, end: found.end };
}

export function ruleOf(r: Repeat, first: Day, allDay: boolean, until: Day | undefined, count: number | undefined, zone: ReturnType<typeof zoneFor>): string {
  const parts = [`FREQ=${r.freq}`];
  if (r.interval > 1) parts.push(`INTERVAL=${r.interval}`);
  const start = dayTime(first, undefined, zone);
  if (r.freq === 'WEEKLY') parts.push(`BYDAY=${(r.byDay ?? [WEEKDAY_CODES[start.weekday % 7]]).join(',')}`);
  if (r.freq === 'MONTHLY') parts.push(`BYMONTHDAY=${first.d}`);
  if (count !== undefined) parts.push(`COUNT=${count}`);
  else if (until) {
    // As RFC 5545 wants it: a date for an all-day series, else the end of that day in UTC.
    parts.push(`UNTIL=${allDay ? iso(until).replace(/-/g, '') : dayTime(until, { h: 23, min: 59 }, zone).plus({ seconds: 59 }).toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'")}`);
  }
  return parts.join(';');
}
