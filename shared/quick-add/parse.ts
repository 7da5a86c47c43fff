/**
 * Quick add: one sentence in plain words ("Lunch with Ana tomorrow 1pm at Luso #work") read into
 * an event body as POST /events takes it, plus what the preview shows. The API
 * (POST /quick-add), the CLI (`add`) and the calendar's Quick add field all call this one
 * function, with the words of shared/quick-add/words.ts.
 *
 * The sentence is read piece by piece, each piece taking its characters so the next cannot read
 * them again: categories, a reminder, a repeat, a length, a venue, a range of days, "in 2 weeks",
 * times, day words and weekdays, and last chrono-node for absolute dates ("Dec 15",
 * "15 de dezembro", "15/12/2027"). What no piece took is the title: words it could not read are
 * kept there, never dropped. Every day is worked out from `now` in the calendar's zone.
 */
// Only the three languages' parsers: the whole package would bring a dozen more into the app.
import * as chronoEn from 'chrono-node/en';
import * as chronoPt from 'chrono-node/pt';
import * as chronoEs from 'chrono-node/es';
import { DateTime } from 'luxon';
import type { Language } from '../i18n/languages';
import { zoneFor } from '../dates/zones';
import { formatDuration, type Reminder } from '../reminders';
import { QUICK_ADD_WORDS, type QuickAddWords } from './words';

export interface QuickAddContext {
  lang: Language;
  /** The moment "today", "tomorrow" and "in 2 weeks" count from. */
  now: Date;
  /** The calendar's zone (Settings): the event's zone, and the one "today" is read in. */
  zone: string;
  /** The length of a timed event whose sentence says none (Settings' default_event_minutes). */
  defaultMinutes: number;
  /** Venues a name after "at" / "no" / "en" may mean; a name that is none of them stays in the title. */
  venues: ReadonlyArray<{ id: number; name: string }>;
}

export interface QuickAddRecurrence {
  rules: string[];
  rdates: string[];
  exdates: string[];
}

/** The event body, as POST /events takes it (less `calendar`, which the caller adds). */
export interface QuickAddBody {
  title: string;
  start_date: string;
  end_date: string;
  all_day: boolean;
  timezone: string;
  status: 'publish';
  venue?: number;
  categories?: string[];
  recurrence?: QuickAddRecurrence;
  /** Only when the sentence asks for one: otherwise the Settings' defaults apply. */
  reminders?: Reminder[];
}

export type QuickAddProblem = 'no_date' | 'no_title';

export interface QuickAddResult {
  body: QuickAddBody;
  /** Why it cannot be saved: nothing said when, or nothing left for a title. */
  problems: QuickAddProblem[];
  /** The venue read, with its name as stored. */
  venue?: { id: number; name: string };
  /** Minutes of a timed event (its length), undefined for an all-day one. */
  minutes?: number;
}

const API = 'yyyy-MM-dd HH:mm:ss';
const L = '\\p{L}\\p{N}';
/** Word edges that know accented letters (`\b` does not). */
const B = `(?<![${L}])`;
const E = `(?![${L}])`;
const WEEKDAY_CODES = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

const alt = (list: string[]) => list.map((s) => `(?:${s})`).join('|');
/**
 * Patterns built from the word tables, compiled once: a sentence is read on every keystroke, and
 * compiling them again each time was most of the cost. Only these finite sources come here.
 */
const compiled = new Map<string, RegExp>();
function rx(source: string, flags = 'iu'): RegExp {
  const key = `${flags}/${source}`;
  let r = compiled.get(key);
  if (!r) compiled.set(key, (r = new RegExp(source, flags)));
  return r;
}
const re = (source: string) => rx(source, 'giu');

/** One character per UTF-16 unit with its accents taken off, so indices stay those of the sentence. */
function fold(text: string): string {
  let out = '';
  for (const ch of text) {
    const base = ch.length === 1 ? ch.normalize('NFD').replace(/\p{M}/gu, '') : ch;
    out += base.length === ch.length ? base : ch;
  }
  return out;
}

/** The sentence and which of its characters a piece has taken. */
class Sentence {
  private readonly used: boolean[];
  private readonly folded: string;
  constructor(readonly text: string) {
    this.used = new Array<boolean>(text.length).fill(false);
    this.folded = fold(text);
  }
  /** The sentence with taken characters blanked: `folded` for our words, as typed for chrono. */
  view(folded = true): string {
    const src = folded ? this.folded : this.text;
    let out = '';
    for (let i = 0; i < src.length; i++) out += this.used[i] ? ' ' : src[i];
    return out;
  }
  take(start: number, end: number): void {
    for (let i = start; i < end; i++) this.used[i] = true;
  }
  giveBack(start: number, end: number): void {
    for (let i = start; i < end; i++) this.used[i] = false;
  }
  /** What no piece took, spaces tidied. */
  rest(): string {
    let out = '';
    for (let i = 0; i < this.text.length; i++) out += this.used[i] ? ' ' : this.text[i];
    return out
      .replace(/\s+/g, ' ')
      .replace(/\s+([,.;:!?])/g, '$1')
      .replace(/^[\s,;:.\-–|]+|[\s,;:\-–|]+$/g, '')
      .trim();
  }
}

interface Day {
  y: number;
  m: number;
  d: number;
}

interface Clock {
  h: number;
  min: number;
}

/** The patterns of one language, built once. */
interface Grammar {
  w: QuickAddWords;
  weekdays: RegExp[];
  months: RegExp[];
  weekdayAny: string;
  monthAny: string;
  amount: string;
  time: string;
}

const grammars = new Map<Language, Grammar>();

function grammarOf(lang: Language): Grammar {
  let g = grammars.get(lang);
  if (g) return g;
  const w = QUICK_ADD_WORDS[lang];
  g = {
    w,
    weekdays: w.weekdays.map((s) => new RegExp(`^(?:${s})$`, 'iu')),
    months: w.months.map((s) => new RegExp(`^(?:${s})\\.?$`, 'iu')),
    weekdayAny: `(?:${alt(w.weekdays)})`,
    monthAny: `(?:${alt(w.months)})\\.?`,
    amount: `(?:\\d+(?:[.,]\\d+)?|${alt(w.numbers.map(([s]) => s))})`,
    // A time that says it is one: 1pm, 1:30 pm, 13:00, 13h, 13h30, noon.
    time: `(?:\\d{1,2}(?:[:.h]\\d{2})?\\s*(?:a\\.?m\\.?|p\\.?m\\.?)(?![${L}])|\\d{1,2}:\\d{2}|\\d{1,2}h(?:\\d{2})?|${w.noon}|${w.midnight})`,
  };
  grammars.set(lang, g);
  return g;
}

const indexIn = (list: RegExp[], word: string) => list.findIndex((r) => r.test(word.trim()));

function amountOf(g: Grammar, text: string): number {
  const n = Number(text.replace(',', '.'));
  if (Number.isFinite(n)) return n;
  for (const [src, value] of g.w.numbers) if (rx(`^(?:${src})$`).test(text.trim())) return value;
  return NaN;
}

type Unit = keyof QuickAddWords['units'];

function unitOf(g: Grammar, word: string): Unit | undefined {
  for (const [unit, src] of Object.entries(g.w.units) as Array<[Unit, string]>) if (rx(`^(?:${src})$`).test(word.trim())) return unit;
  return undefined;
}

const unitAny = (g: Grammar, units: Unit[]) => `(?:${units.map((u) => g.w.units[u]).join('|')})`;

/** A time token read: hours and minutes, with whether it said am/pm. */
function clockOf(g: Grammar, token: string, after: string | undefined): (Clock & { meridiem: boolean }) | undefined {
  const t = token.trim();
  if (rx(`^(?:${g.w.noon})$`).test(t)) return { h: 12, min: 0, meridiem: true };
  if (rx(`^(?:${g.w.midnight})$`).test(t)) return { h: 0, min: 0, meridiem: true };
  const m = /^(\d{1,2})(?:[:.h](\d{2}))?\s*(?:(a)\.?m\.?|(p)\.?m\.?)?h?$/iu.exec(t);
  if (!m) return undefined;
  let h = Number(m[1]);
  const min = m[2] === undefined ? 0 : Number(m[2]);
  if (min > 59) return undefined;
  const am = m[3] !== undefined;
  const pm = m[4] !== undefined;
  if (am || pm) {
    if (h < 1 || h > 12) return undefined;
    h = (h % 12) + (pm ? 12 : 0);
    return { h, min, meridiem: true };
  }
  if (h > 24) return undefined;
  if (h === 24) h = 0;
  if (after && rx(`^(?:${g.w.afternoon})$`).test(after.trim()) && h < 12) return { h: h + 12, min, meridiem: true };
  if (after && rx(`^(?:${g.w.morning})$`).test(after.trim())) return { h: h === 12 ? 0 : h, min, meridiem: true };
  return { h, min, meridiem: false };
}

/**
 * An hour said without am/pm in English: 1 to 7 are afternoon ("at 5", "4:30", "from 2 to 4"), as
 * people mean them; Portuguese and Spanish speakers write the 24-hour clock.
 */
function guessAfternoon(lang: Language, c: Clock & { meridiem: boolean }): Clock {
  if (lang === 'en' && !c.meridiem && c.h >= 1 && c.h <= 7) return { h: c.h + 12, min: c.min };
  return c;
}

export function parseQuickAdd(input: string, ctx: QuickAddContext): QuickAddResult {
  const g = grammarOf(ctx.lang);
  const w = g.w;
  const zone = zoneFor(ctx.zone);
  const now = DateTime.fromJSDate(ctx.now, { zone });
  const today: Day = { y: now.year, m: now.month, d: now.day };
  const s = new Sentence(input.replace(/\s/g, ' '));

  /** Runs `source` over what is left; `use` answers whether it took the match. */
  const each = (source: string | RegExp, use: (m: RegExpExecArray) => boolean | void, once = true): void => {
    const view = s.view();
    for (const m of view.matchAll(typeof source === 'string' ? re(source) : source)) {
      if (m[0].trim() === '') continue;
      if (use(m as RegExpExecArray) === false) continue;
      if (once) return;
    }
  };
  const takeMatch = (m: RegExpExecArray) => s.take(m.index!, m.index! + m[0].length);

  // Categories: #word.
  const categories: string[] = [];
  each(`#([${L}_-]+)`, (m) => {
    if (!categories.some((c) => c.toLowerCase() === m[1].toLowerCase())) categories.push(s.text.slice(m.index! + 1, m.index! + m[0].length));
    takeMatch(m);
  }, false);

  // A reminder: "remind me 30 minutes before".
  let reminders: Reminder[] | undefined;
  each(`${B}${w.remindBefore}\\s+(${g.amount})\\s*(${unitAny(g, ['minute', 'hour', 'day', 'week'])})\\s+(?:${w.remindAfter})${E}`, (m) => {
    const n = amountOf(g, m[1]);
    const unit = unitOf(g, m[2]);
    if (!Number.isFinite(n) || !unit) return false;
    const seconds = unit === 'minute' ? n * 60 : unit === 'hour' ? n * 3600 : 0;
    const days = unit === 'day' ? n : unit === 'week' ? n * 7 : 0;
    if (!Number.isInteger(seconds) || !Number.isInteger(days)) return false;
    reminders = [{ action: 'display', trigger: formatDuration({ days: -days, seconds: -seconds }) }];
    takeMatch(m);
  });

  // A repeat, and how it ends.
  const repeat = readRepeat(g, each, takeMatch);
  // A length: "for 45 minutes", "por 2 horas", "durante 1 hora e 30 minutos".
  let lengthMinutes: number | undefined;
  let lengthDays: number | undefined;
  let lengthSpan: [number, number] | undefined;
  each(
    `${B}(?:${w.lengthStart})\\s+(${g.amount})\\s*(${unitAny(g, ['minute', 'hour', 'day', 'week'])})(?:\\s+(?:${w.repeat.and})\\s+(\\d{1,2})\\s*(?:${w.units.minute}))?${E}`,
    (m) => {
      const n = amountOf(g, m[1]);
      const unit = unitOf(g, m[2]);
      if (!Number.isFinite(n) || n <= 0 || !unit) return false;
      if (unit === 'day' || unit === 'week') {
        if (!Number.isInteger(n)) return false;
        lengthDays = unit === 'day' ? n : n * 7;
      } else {
        const minutes = (unit === 'hour' ? n * 60 : n) + (m[3] ? Number(m[3]) : 0);
        if (!Number.isInteger(minutes)) return false;
        lengthMinutes = minutes;
      }
      lengthSpan = [m.index!, m.index! + m[0].length];
      takeMatch(m);
    },
  );

  // A venue that exists, named after "at" / "no" / "en".
  let venue: { id: number; name: string } | undefined;
  // Only names the sentence holds make the pattern, however many venues the calendar has.
  const said = s.view().replace(/\s+/g, ' ').toLowerCase();
  const plain = (name: string) => name.trim().normalize('NFD').replace(/\p{M}/gu, '').replace(/\s+/g, ' ').toLowerCase();
  const names = ctx.venues
    .filter((v) => v.name.trim() && said.includes(plain(v.name)))
    .sort((a, b) => b.name.length - a.name.length);
  if (names.length) {
    const escaped = names.map((v) => plain(v.name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'));
    // Built for this sentence's names, so not kept with the word tables' patterns.
    each(new RegExp(`${B}(?:${w.venue})\\s+(${escaped.join('|')})${E}`, 'giu'), (m) => {
      const named = m[1].replace(/\s+/g, ' ').toLowerCase();
      venue = names.find((v) => plain(v.name) === named);
      if (!venue) return false;
      venue = { id: venue.id, name: venue.name };
      takeMatch(m);
    });
  }

  // Days.
  let day: Day | undefined;
  let lastDay: Day | undefined;
  let yearSaid = false;
  readDayRange(g, ctx.lang, today, each, (first, last, said, m) => {
    day = first;
    lastDay = last;
    yearSaid = said;
    takeMatch(m);
  });
  if (!day) {
    each(`${B}(?:(?:${w.beforeDay})\\s+)?(?:${w.inAmount})\\s+(${g.amount})\\s*(${unitAny(g, ['day', 'week', 'month', 'year'])})${E}`, (m) => {
      const n = amountOf(g, m[1]);
      const unit = unitOf(g, m[2]);
      if (!Number.isInteger(n) || !unit) return false;
      day = toDay(now.startOf('day').plus({ [`${unit}s`]: n }));
      takeMatch(m);
    });
  }

  // Times: a range first ("9:30-10:15", "from 9 to 11"), else one.
  let start: Clock | undefined;
  let end: Clock | undefined;
  readTimes(g, ctx.lang, each, takeMatch, (a, b) => {
    start = a;
    end = b;
  });

  let until: Day | undefined;
  let count: number | undefined;
  if (repeat) {
    // After the times ("until June 7am" ends in June), before the days (its date is not the event's).
    each(`${B}(?:${w.repeat.until})\\s+`, (m) => {
      const from = m.index! + m[0].length;
      const found = absoluteDateAt(ctx.lang, g, s, from, today);
      if (!found) return false;
      until = found.day;
      s.take(m.index!, found.end);
    });
    each(`${B}(\\d{1,3})\\s+(?:${w.repeat.times})${E}`, (m) => {
      count = Number(m[1]);
      if (count < 1) return false;
      takeMatch(m);
    });
  }

  if (!day) {
    // Longest first: "pasado mañana" before "mañana".
    for (const [src, days] of [...w.relativeDays].reverse()) {
      each(`${B}(?:(?:${w.beforeDay})\\s+)?(?:${src})${E}`, (m) => {
        day = toDay(now.startOf('day').plus({ days }));
        takeMatch(m);
      });
      if (day) break;
    }
  }
  if (!day) {
    const before = w.nextBefore ? `(?:(${w.nextBefore})\\s+)?` : '()';
    const after = w.nextAfter ? `(?:\\s+(${w.nextAfter}))?` : '()';
    each(`${B}(?:(?:${w.beforeDay})\\s+)?${before}(${g.weekdayAny})${after}${E}`, (m) => {
      const wd = indexIn(g.weekdays, m[2]);
      if (wd < 0) return false;
      const next = !!(m[1] || m[3]);
      day = nextWeekday(now, wd, !next);
      takeMatch(m);
    });
  }
  if (!day) {
    each(`${B}(?:${w.dayOfMonth})${E}(?!\\s*(?:/|de\\s|of\\s))`, (m) => {
      const n = Number(m[1]);
      let d = now.startOf('month').set({ day: n });
      if (d.day !== n || d.month !== now.month) return false;
      if (n < now.day) d = now.startOf('month').plus({ months: 1 }).set({ day: n });
      if (d.day !== n) return false;
      day = toDay(d);
      yearSaid = true;
      takeMatch(m);
    });
  }
  if (!day) {
    const found = chronoDate(ctx.lang, g, s, today);
    if (found) {
      day = found.day;
      lastDay = found.last;
      yearSaid = found.yearSaid;
      // "on", "el", "no dia" before it belong to it.
      const lead = rx(`${B}(?:${w.beforeDay}|of|the)\\s+$`).exec(s.view().slice(0, found.start));
      s.take(lead ? lead.index : found.start, found.end);
    }
  }
  // A date already past this year means next year's.
  if (day && !yearSaid && compareDay(day, today) < 0) {
    day = { ...day, y: day.y + 1 };
    if (lastDay) lastDay = { ...lastDay, y: lastDay.y + 1 };
  }

  // A repeat on weekdays starts on the first of them; a lone time is today's, or tomorrow's once past.
  if (repeat?.byDay && !day) {
    for (let i = 0; i < 7; i++) {
      const d = now.startOf('day').plus({ days: i });
      if (repeat.byDay.includes(WEEKDAY_CODES[d.weekday % 7])) {
        day = toDay(d);
        if (!(start && i === 0 && clockMinutes(start) <= now.hour * 60 + now.minute)) break;
        day = undefined;
      }
    }
  }
  if (!day && (start || repeat)) {
    const past = start && clockMinutes(start) <= now.hour * 60 + now.minute;
    day = toDay(now.startOf('day').plus({ days: past ? 1 : 0 }));
  }
  if (repeat?.byDay && day) {
    // The first occurrence is the series' start: a day its rule does not make moves to one it does.
    let d = dayTime(day, undefined, zone);
    for (let i = 0; i < 7 && !repeat.byDay.includes(WEEKDAY_CODES[d.weekday % 7]); i++) d = d.plus({ days: 1 });
    day = toDay(d);
  }

  // A length said without a time says nothing: its words go back to the title.
  if (!start && lengthMinutes !== undefined && lengthSpan) {
    s.giveBack(...lengthSpan);
    lengthMinutes = undefined;
  }

  const problems: QuickAddProblem[] = [];
  if (!day) problems.push('no_date');
  const title = s.rest();
  if (!title) problems.push('no_title');

  const the = day ?? today;
  let startText: string;
  let endText: string;
  let minutes: number | undefined;
  const allDay = !start;
  if (start) {
    const from = dayTime(the, start, zone);
    let to: DateTime;
    if (end) {
      to = dayTime(the, end, zone);
      if (to <= from) to = dayTime(toDay(from.plus({ days: 1 })), end, zone);
    } else if (lengthDays && lengthMinutes === undefined) to = from.plus({ days: lengthDays });
    else to = from.plus({ minutes: lengthMinutes ?? ctx.defaultMinutes });
    if (lastDay && end) to = dayTime(lastDay, end, zone);
    startText = from.toFormat(API);
    endText = to.toFormat(API);
    minutes = Math.round(to.diff(from, 'minutes').minutes);
  } else {
    const last = lastDay ?? (lengthDays ? toDay(dayTime(the, undefined, zone).plus({ days: lengthDays - 1 })) : the);
    startText = `${iso(the)} 00:00:00`;
    endText = `${iso(last)} 23:59:59`;
  }

  const body: QuickAddBody = { title, start_date: startText, end_date: endText, all_day: allDay, timezone: ctx.zone, status: 'publish' };
  if (venue) body.venue = venue.id;
  if (categories.length) body.categories = categories;
  if (repeat && day) body.recurrence = { rules: [ruleOf(repeat, the, allDay, until, count, zone)], rdates: [], exdates: [] };
  if (reminders) body.reminders = reminders;
  return { body, problems, venue, minutes };
}

interface Repeat {
  freq: 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
  interval: number;
  byDay?: string[];
}

type Each = (source: string | RegExp, use: (m: RegExpExecArray) => boolean | void, once?: boolean) => void;

function readRepeat(g: Grammar, each: Each, takeMatch: (m: RegExpExecArray) => void): Repeat | undefined {
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
function readDayRange(g: Grammar, lang: Language, today: Day, each: Each, found: (first: Day, last: Day, yearSaid: boolean, m: RegExpExecArray) => void): void {
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
function readTimes(g: Grammar, lang: Language, each: Each, takeMatch: (m: RegExpExecArray) => void, found: (start: Clock, end: Clock | undefined) => void): void {
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

interface ChronoDay {
  day: Day;
  last?: Day;
  yearSaid: boolean;
  start: number;
  end: number;
}

/** An absolute date chrono-node reads in what is left ("Dec 15", "15 de dezembro", "15/12/2027"). */
function chronoDate(lang: Language, g: Grammar, s: Sentence, today: Day, from = 0, anchored = false): ChronoDay | undefined {
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
function absoluteDateAt(lang: Language, g: Grammar, s: Sentence, from: number, today: Day): { day: Day; end: number } | undefined {
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

function ruleOf(r: Repeat, first: Day, allDay: boolean, until: Day | undefined, count: number | undefined, zone: ReturnType<typeof zoneFor>): string {
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

function nextWeekday(now: DateTime, weekday: number, todayCounts: boolean): Day {
  const todayWd = now.weekday % 7;
  let ahead = (weekday - todayWd + 7) % 7;
  if (ahead === 0 && !todayCounts) ahead = 7;
  return toDay(now.startOf('day').plus({ days: ahead }));
}

const toDay = (d: DateTime): Day => ({ y: d.year, m: d.month, d: d.day });
const iso = (d: Day) => `${String(d.y).padStart(4, '0')}-${String(d.m).padStart(2, '0')}-${String(d.d).padStart(2, '0')}`;
const compareDay = (a: Day, b: Day) => a.y - b.y || a.m - b.m || a.d - b.d;
const clockMinutes = (c: Clock) => c.h * 60 + c.min;

function validDay(d: Day, minYear: number): boolean {
  const y = d.y || 2000;
  if (y < minYear || y > 9999) return false;
  return DateTime.fromObject({ year: y, month: d.m, day: d.d }).isValid;
}

function dayTime(d: Day, c: Clock | undefined, zone: ReturnType<typeof zoneFor>): DateTime {
  return DateTime.fromObject({ year: d.y, month: d.m, day: d.d, hour: c?.h ?? 0, minute: c?.min ?? 0 }, { zone });
}
