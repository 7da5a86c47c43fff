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
import { DateTime } from 'luxon';
import type { Language } from '../i18n/languages';
import type { Recurrence } from '../api/records';
import { zoneFor } from '../dates/zones';
import { formatDuration, type Reminder } from '../reminders';
import { B, E, L, Sentence, WEEKDAY_CODES, amountOf, clockMinutes, compareDay, dayTime, grammarOf, indexIn, iso, nextWeekday, re, rx, toDay, unitAny, unitOf, type Clock, type Day } from './grammar';
import { absoluteDateAt, chronoDate, readDayRange, readRepeat, readTimes, ruleOf } from './pieces';

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
  recurrence?: Recurrence;
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

  // A repeat (how it ends, "until June" or "10 times", is read after the times).
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
