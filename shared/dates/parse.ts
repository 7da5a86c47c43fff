/**
 * Dates as PHP's `strtotime($input)` reads them, evaluated with the default time zone set to
 * `zone` and the clock at `now`. The original API hands every date parameter to strtotime, so
 * whatever it accepts (and refuses) is the contract.
 *
 * The shape follows PHP's own parser (timelib): a scanner that, at each position, takes the
 * longest match among a table of token rules (ties go to the earlier rule). Each token sets
 * absolute fields (date, time, zone) or accumulates relative ones (offsets, a weekday to move
 * to, "first/last day of"). Then, as timelib does:
 *   1. fields the input did not set come from `now` (a date without a time means 00:00:00);
 *   2. the weekday move, the relative offsets and "first/last day of" are applied, in that
 *      order, on the wall clock, letting fields overflow and carry (Jan 31 + 1 month = Mar 3);
 *      business days ("+3 weekdays") come last;
 *   3. the wall time is turned into an instant in the input's zone, else in `zone`.
 */
import { DateTime, type Zone } from 'luxon';
import { wallAsUtc, wallToMillis, type WallTime } from './format';
import { isValidTimeZone, zoneFor } from './zones';

export interface ParseOptions {
  /** The zone the input is read in (PHP's default time zone); also the zone of the result. */
  zone: string;
  /** The current time that relative inputs count from; defaults to the real now. */
  now?: Date;
}

// ---------------------------------------------------------------------------------------------
// Parse state: what the tokens have said so far (timelib's timelib_time while scanning).

const UNSET = null;
type Field = number | null;

/** Moves to a weekday that relative offsets carry; see adjustForWeekday. */
interface WeekdayMove {
  weekday: number; // 0 = Sunday; negative after "ago"
  behavior: 0 | 1 | 2;
}

/** "first monday of", "last friday of", and "+3 weekdays" (business days). */
interface Special {
  type: 'nth-weekday-of' | 'last-weekday-of' | 'weekdays';
  amount: number;
}

interface State {
  y: Field; m: Field; d: Field; h: Field; i: Field; s: Field; us: Field;
  haveDate: boolean;
  /** 0, 1, or 2 once a bare 4-digit number after a time was read as the year. */
  haveTime: number;
  haveZone: number;
  /** Explicit zone in the input: an offset in minutes east of UTC, or an IANA id. */
  zone: number | string | null;
  rel: { y: number; m: number; d: number; h: number; i: number; s: number; us: number };
  weekday: WeekdayMove | null;
  special: Special | null;
  firstLastDayOf: 'first' | 'last' | null;
}

function newState(): State {
  return {
    y: UNSET, m: UNSET, d: UNSET, h: UNSET, i: UNSET, s: UNSET, us: UNSET,
    haveDate: false, haveTime: 0, haveZone: 0, zone: null,
    rel: { y: 0, m: 0, d: 0, h: 0, i: 0, s: 0, us: 0 },
    weekday: null, special: null, firstLastDayOf: null,
  };
}

/** A second date ("2025-03-14 2025-03-15") makes the whole input invalid, as in PHP. */
function haveDate(st: State): boolean {
  if (st.haveDate) return false;
  st.haveDate = true;
  return true;
}

function haveTime(st: State): boolean {
  if (st.haveTime) return false;
  st.haveTime = 1;
  st.h = st.i = st.s = st.us = 0;
  return true;
}

/** Words like "tomorrow" and weekday names reset the time to midnight (a later time still wins). */
function unhaveTime(st: State): void {
  st.haveTime = 0;
  st.h = st.i = st.s = st.us = 0;
}

function setTime(st: State, h: number, i: number, s: number, us = 0): boolean {
  if (!haveTime(st)) return false;
  st.h = h; st.i = i; st.s = s; st.us = us;
  return true;
}

/**
 * Whether a zone token may be read. PHP skips a second zone token unread (with a warning, so
 * "Z foo" is fine) and fails on a third; `skip` says whether to ignore this token.
 */
function zoneToken(st: State): { ok: boolean; skip: boolean } {
  st.haveZone++;
  return { ok: st.haveZone <= 2, skip: st.haveZone > 1 };
}

function setZone(st: State, read: () => number | string | null): boolean {
  const { ok, skip } = zoneToken(st);
  if (skip) return ok;
  const zone = read();
  if (zone === null) return false;
  st.zone = zone;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Lexical pieces, named after timelib's. Alternatives are ordered longest first, so that a JS
// regex (which takes the first alternative that fits) finds what re2c's longest match finds.

const HOUR24 = '(2[0-4]|[01]?[0-9])';
const HOUR24LZ = '(2[0-4]|[01][0-9])';
const HOUR12 = '(1[0-2]|0?[1-9])';
const MINUTE = '([0-5]?[0-9])';
const MINUTELZ = '([0-5][0-9])';
const SECOND = '(60|[0-5]?[0-9])';
const SECONDLZ = '(60|[0-5][0-9])';
const FRAC = '(?:\\.([0-9]+))';
// PHP wants the meridian followed by a blank or the end ("7pmx" is not a time).
const MERIDIAN = '([ap])\\.?m\\.?(?=$|[ \\t])';
const MONTH = '(1[0-2]|0?[0-9])';
const MONTHLZ = '(1[0-2]|0[0-9])';
const DAY = '(3[01]|[0-2]?[0-9])(?:st|nd|rd|th)?';
const DAYLZ = '(3[01]|[12][0-9]|0[0-9])';
const YEAR = '([0-9]{1,4})';
const YEAR2 = '([0-9]{2})';
const YEAR4 = '([0-9]{4})';
const SPACE = '[ \\t]+';
// With minutes (timeshort12, timelong12); a bare "7pm" is timetiny12.
const TIME12_MINUTES = `${HOUR12}[:.](?:${MINUTE}[:.]${SECONDLZ}|${MINUTELZ})[ \\t]*${MERIDIAN}`;
const TIME12 = `${HOUR12}(?:[:.](?:${MINUTE}[:.]${SECONDLZ}|${MINUTELZ}))?[ \\t]*${MERIDIAN}`;
const TIME24 = `t?${HOUR24}[:.]${MINUTE}(?:[:.]${SECOND}${FRAC}?)?`;
const TZCORRECTION = `(?:gmt)?([+-])${HOUR24}(?::?${MINUTE})?(?::?${SECONDLZ})?`;

const MONTH_NAMES: Record<string, number> = {
  january: 1, february: 2, march: 3, april: 4, may: 5, june: 6, july: 7, august: 8,
  september: 9, october: 10, november: 11, december: 12,
  jan: 1, feb: 2, mar: 3, apr: 4, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11,
  dec: 12,
};
const DAY_NAMES: Record<string, number> = {
  sunday: 0, monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6,
  sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6,
};
/** As units ("2 fridays"), full weekday names may be plural. */
const DAY_UNITS: Record<string, number> = {
  ...DAY_NAMES,
  ...Object.fromEntries(Object.entries(DAY_NAMES).filter(([k]) => k.length > 3).map(([k, v]) => [`${k}s`, v])),
};
const alternatives = (names: string[]) => `(${[...names].sort((a, b) => b.length - a.length).join('|')})`;
const MONTHTEXT = alternatives(Object.keys(MONTH_NAMES));
const MONTHABBR = alternatives(Object.keys(MONTH_NAMES).filter((k) => k.length <= 4 && k !== 'june' && k !== 'july'));
const DAYTEXT = alternatives(Object.keys(DAY_NAMES));

/** "next"/"last"/"this" and the ordinals, as amounts. */
const RELTEXT: Record<string, number> = {
  first: 1, next: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eight: 8,
  eighth: 8, ninth: 9, tenth: 10, eleventh: 11, twelfth: 12, last: -1, previous: -1, this: 0,
};
const RELTEXTANY = alternatives(Object.keys(RELTEXT));
const RELTEXTTEXT = '(next|last|previous|this)';

type UnitKey = 'us' | 's' | 'i' | 'h' | 'd' | 'm' | 'y';
const UNITS: Record<string, [UnitKey, number]> = {
  ms: ['us', 1000], msec: ['us', 1000], msecs: ['us', 1000], millisecond: ['us', 1000], milliseconds: ['us', 1000],
  'µs': ['us', 1], usec: ['us', 1], usecs: ['us', 1], 'µsec': ['us', 1], 'µsecs': ['us', 1],
  microsecond: ['us', 1], microseconds: ['us', 1],
  sec: ['s', 1], secs: ['s', 1], second: ['s', 1], seconds: ['s', 1],
  min: ['i', 1], mins: ['i', 1], minute: ['i', 1], minutes: ['i', 1],
  hour: ['h', 1], hours: ['h', 1],
  day: ['d', 1], days: ['d', 1], week: ['d', 7], weeks: ['d', 7],
  fortnight: ['d', 14], fortnights: ['d', 14], forthnight: ['d', 14], forthnights: ['d', 14],
  month: ['m', 1], months: ['m', 1], year: ['y', 1], years: ['y', 1],
};
// Weekday names are units too ("next friday", "+1 fri"), and so are business days ("+3 weekdays").
// A bare "week" is a unit only after a number ("+1 week"); "next week" has a rule of its own.
const RELTEXTUNIT = alternatives([
  ...Object.keys(UNITS).filter((u) => u !== 'week'), ...Object.keys(DAY_UNITS), 'weekday', 'weekdays',
]);

/*
 * Zone abbreviations PHP knows, with the offset PHP gives them (minutes east of UTC). PHP's table
 * is much longer; names it reads oddly (KST as +08:30, HDT as -09:30) are left out on purpose.
 */
const ZONE_ABBRS: Record<string, number> = {
  utc: 0, gmt: 0, z: 0, wet: 0, west: 60, bst: 60, ist: 120, cet: 60, cest: 120, met: 60, mest: 120,
  eet: 120, eest: 180, msk: 180, est: -300, edt: -240, cst: -360, cdt: -300, mst: -420,
  mdt: -360, pst: -480, pdt: -420, akst: -540, akdt: -480, hst: -600, ast: -240, adt: -180,
  nst: -210, jst: 540, aest: 600, aedt: 660, acst: 570, acdt: 630, awst: 480, nzst: 720,
  nzdt: 780, sast: 120, wat: 60, cat: 120, eat: 180, pkt: 300, wib: 420, hkt: 480,
};

// ---------------------------------------------------------------------------------------------
// Token actions.

/** Two- and three-digit years: 0-69 are 20xx, 70-99 are 19xx (PHP's rule). */
function year(text: string): number {
  const y = Number(text);
  if (text.length >= 4) return y;
  return y < 70 ? y + 2000 : y < 100 ? y + 1900 : y;
}

const monthNumber = (name: string) => MONTH_NAMES[name.toLowerCase()];

function setDate(st: State, y: number | null, m: number | null, d: number | null): boolean {
  if (!haveDate(st)) return false;
  if (y !== null) st.y = y;
  if (m !== null) st.m = m;
  if (d !== null) st.d = d;
  return true;
}

const TIME_PARTS = /^t?([0-9]+)(?:[:.]([0-9]+)(?:[:.]([0-9]+)(?:\.([0-9]+))?)?)?/i;

function meridianHour(hour: number, meridian: string | undefined): number {
  const ap = meridian?.toLowerCase();
  if (ap === 'a' && hour === 12) return 0;
  if (ap === 'p' && hour !== 12) return hour + 12;
  return hour;
}

/** "7pm", "7:30 p.m.", "7:30:15pm", "19:00", "T19:00:05", "19:00:05.25" */
function setTimeText(st: State, text: string): boolean {
  const [, h, i = '0', s = '0', frac] = TIME_PARTS.exec(text)!;
  const meridian = /([ap])\.?m\.?$/i.exec(text)?.[1];
  const us = frac ? Math.round(Number(`0.${frac}`) * 1e6) : 0;
  return setTime(st, meridianHour(Number(h), meridian), Number(i), Number(s), us);
}

/**
 * A move to a weekday. `amount` counts weeks ("next" = 1, "last" = -1, "this" = 0, "+2" = 2):
 * the first one is the move itself, the others add whole weeks.
 */
function relativeWeekday(st: State, amount: number, weekday: number, behavior: 0 | 1, keepTime: boolean): void {
  if (!keepTime) unhaveTime(st);
  st.rel.d += (amount > 0 ? amount - 1 : amount) * 7;
  st.weekday = { weekday, behavior };
}

function relativeUnit(st: State, amount: number, unit: string, behavior: 0 | 1, keepTime: boolean): boolean {
  if (unit in DAY_UNITS) {
    relativeWeekday(st, amount, DAY_UNITS[unit], behavior, keepTime);
    return true;
  }
  if (unit === 'weekday' || unit === 'weekdays') {
    if (!keepTime) unhaveTime(st);
    st.special = { type: 'weekdays', amount };
    return true;
  }
  const u = UNITS[unit];
  if (!u) return false;
  st.rel[u[0]] += amount * u[1];
  return true;
}

function readZone(text: string): number | string | null {
  const name = text.replace(/^\(|\)$/g, '');
  const abbr = ZONE_ABBRS[name.toLowerCase()];
  if (abbr !== undefined) return abbr;
  if (name.includes('/') && isValidTimeZone(name)) return name;
  return null;
}

function tzCorrection(sign: string, h: string, i?: string, s?: string): number {
  return (sign === '-' ? -1 : 1) * (Number(h) * 60 + Number(i ?? 0) + Number(s ?? 0) / 60);
}

/** Days from January 1st of `y` to day `d` (1 = Monday) of ISO week `w`. */
function isoWeekOffset(y: number, w: number, d: number): number {
  const jan1 = dayOfWeek({ y, m: 1, d: 1, h: 0, i: 0, s: 0, us: 0 });
  return -(jan1 > 4 ? jan1 - 7 : jan1) + (w - 1) * 7 + d;
}

interface Rule {
  re: RegExp;
  /** Returns false when the token makes the input invalid. */
  apply: (m: RegExpExecArray, st: State) => boolean;
}

/** A pattern's groups made non-capturing, to embed it in another pattern. */
const uncaptured = (source: string) => source.replace(/\((?!\?)/g, '(?:');

function rule(source: string, apply: Rule['apply']): Rule {
  return { re: new RegExp(source, 'iy'), apply };
}

/*
 * The token rules, in timelib's order: between matches of equal length the earlier rule wins
 * (which is why "14.03.25" is a time, 14:03:25, and "2025-03-14 1900" is at 19:00).
 */
const RULES: Rule[] = [
  rule('(yesterday|now|noon|midnight|today|tomorrow)', (m, st) => {
    switch (m[1].toLowerCase()) {
      case 'now':
        return true;
      case 'noon':
        unhaveTime(st);
        return setTime(st, 12, 0, 0);
      case 'midnight':
      case 'today':
        unhaveTime(st);
        return true;
      default:
        // Set, not added: "tomorrow tomorrow" is still tomorrow in PHP.
        unhaveTime(st);
        st.rel.d = m[1].toLowerCase() === 'tomorrow' ? 1 : -1;
        return true;
    }
  }),

  // A unix timestamp is 1970-01-01 00:00:00 UTC plus that many seconds, so "@N +1 day" works.
  rule('@(-?[0-9]+)(?:\\.([0-9]{0,6}))?', (m, st) => {
    // It sets the zone (UTC), so after another zone PHP skips it like a second zone.
    const { ok, skip } = zoneToken(st);
    if (skip) return ok;
    st.zone = 0;
    st.haveDate = false;
    st.haveTime = 0;
    st.y = 1970; st.m = 1; st.d = 1; st.h = 0; st.i = 0; st.s = 0; st.us = 0;
    st.rel.s += Number(m[1]);
    if (m[2]) st.rel.us += (m[1].startsWith('-') ? -1 : 1) * Math.round(Number(`0.${m[2]}`) * 1e6);
    return true;
  }),

  rule('(first|last) day of', (m, st) => {
    st.firstLastDayOf = m[1].toLowerCase() === 'first' ? 'first' : 'last';
    return true;
  }),

  // "back of 7pm" is 19:15, "front of 7pm" 18:45.
  rule(`(back|front) of ${HOUR24}(?:[ \\t]*${MERIDIAN})?`, (m, st) => {
    unhaveTime(st);
    const hour = meridianHour(Number(m[2]), m[3]);
    return m[1].toLowerCase() === 'back' ? setTime(st, hour, 15, 0) : setTime(st, hour - 1, 45, 0);
  }),

  // "first monday of", "last friday of": the month comes from the rest of the input or from now.
  rule(`${RELTEXTANY}${SPACE}${DAYTEXT}${SPACE}of`, (m, st) => {
    const amount = RELTEXT[m[1].toLowerCase()];
    const weekday = DAY_NAMES[m[2].toLowerCase()];
    if (amount > 0) {
      st.special = { type: 'nth-weekday-of', amount };
      relativeWeekday(st, amount, weekday, 1, false);
    } else {
      st.special = { type: 'last-weekday-of', amount };
      relativeWeekday(st, amount, weekday, amount === 0 ? 1 : 0, false);
    }
    return true;
  }),

  rule(TIME12, (m, st) => setTimeText(st, m[0])),
  rule(TIME24, (m, st) => setTimeText(st, m[0])),
  rule(`t${HOUR24}`, (m, st) => setTime(st, Number(m[1]), 0, 0)),

  // 1900 is 19:00; after a time, a 4-digit number is the year instead ("Mar 14 19:00 2025").
  rule(`t?${HOUR24LZ}${MINUTELZ}`, (m, st) => {
    if (st.haveTime === 0) {
      st.haveTime = 1;
      st.h = Number(m[1]); st.i = Number(m[2]); st.s = 0;
      return true;
    }
    if (st.haveTime === 1) {
      st.haveTime = 2;
      st.y = Number(m[1] + m[2]);
      return true;
    }
    return false;
  }),
  rule(`t?${HOUR24LZ}${MINUTELZ}${SECONDLZ}`, (m, st) => setTime(st, Number(m[1]), Number(m[2]), Number(m[3]))),

  // 3/14, 03/14/2025, 03/14/25 (American: month first).
  rule(`${MONTH}/${DAY}(?:/${YEAR})?`, (m, st) =>
    setDate(st, m[3] === undefined ? null : year(m[3]), Number(m[1]), Number(m[2]))),
  // 2025-03-14, 2025/03/14, 2025/3/4
  rule(`([+-]?[0-9]{4})-${MONTHLZ}-${DAYLZ}|${YEAR4}/${MONTHLZ}/${DAYLZ}/?|${YEAR4}/${MONTH}/${DAY}`, (m, st) => {
    const [, y1, m1, d1, y2, m2, d2, y3, m3, d3] = m;
    return setDate(st, Number(y1 ?? y2 ?? y3), Number(m1 ?? m2 ?? m3), Number(d1 ?? d2 ?? d3));
  }),
  rule(`${YEAR2}-${MONTHLZ}-${DAYLZ}`, (m, st) => setDate(st, year(m[1]), Number(m[2]), Number(m[3]))),
  // 2025-03 is the first of the month.
  rule(`${YEAR4}-${MONTH}`, (m, st) => setDate(st, Number(m[1]), Number(m[2]), 1)),
  // 2025-3-4, 25-3-14
  rule(`${YEAR}-${MONTH}-${DAY}`, (m, st) => setDate(st, year(m[1]), Number(m[2]), Number(m[3]))),
  // 14 March 2025, 14-Mar-2025
  rule(`${DAY}[ \\t.-]*${MONTHTEXT}[ \\t.-]*${YEAR}`, (m, st) => setDate(st, year(m[3]), monthNumber(m[2]), Number(m[1]))),
  // 14-03-2025, 14.03.2025 (day first), 14.03.25 (but see the rule order: that one is a time)
  rule(`${DAY}[.\\t-]${MONTH}[.-]${YEAR4}`, (m, st) => setDate(st, Number(m[3]), Number(m[2]), Number(m[1]))),
  rule(`${DAY}[.\\t]${MONTH}\\.${YEAR2}`, (m, st) => setDate(st, year(m[3]), Number(m[2]), Number(m[1]))),
  // March 2025 and 2025 March are the first of the month.
  rule(`${MONTHTEXT}[ .\\t-]*${YEAR4}`, (m, st) => setDate(st, Number(m[2]), monthNumber(m[1]), 1)),
  rule(`${YEAR4}[ .\\t-]*${MONTHTEXT}`, (m, st) => setDate(st, Number(m[1]), monthNumber(m[2]), 1)),
  // March 14, 2025; March 14th 2025; Mar 14 (this year; needs a blank or the end after the day).
  rule(`${MONTHTEXT}[ .\\t-]*${DAY}(?:[,.stndrh\\t ]+${YEAR}|[,.stndrh\\t ]+|$)`, (m, st) =>
    setDate(st, m[3] === undefined ? null : year(m[3]), monthNumber(m[1]), Number(m[2]))),
  // 14 Mar
  rule(`${DAY}[ .\\t-]*${MONTHTEXT}`, (m, st) => setDate(st, null, monthNumber(m[2]), Number(m[1]))),
  // 20250314
  rule(`${YEAR4}${MONTHLZ}${DAYLZ}`, (m, st) => setDate(st, Number(m[1]), Number(m[2]), Number(m[3]))),
  // Compact and EXIF forms: 20250314T19:00:00, 20250314t190000, 2025:03:14 19:00:00
  rule(`${YEAR4}${MONTHLZ}${DAYLZ}(?:T${HOUR24}:${MINUTELZ}:${SECONDLZ}|t${HOUR24}${MINUTELZ}${SECONDLZ})|${YEAR4}:${MONTHLZ}:${DAYLZ} ${HOUR24LZ}:${MINUTELZ}:${SECONDLZ}`, (m, st) => {
    const n = (m[0].match(/[0-9]+/g) ?? []).join('');
    return setDate(st, Number(n.slice(0, 4)), Number(n.slice(4, 6)), Number(n.slice(6, 8))) &&
      setTime(st, Number(n.slice(8, n.length - 4)), Number(n.slice(-4, -2)), Number(n.slice(-2)));
  }),
  // Day of the year: 2025.073
  rule(`${YEAR4}\\.?(00[1-9]|0[1-9][0-9]|[12][0-9][0-9]|3[0-5][0-9]|36[0-6])`, (m, st) =>
    setDate(st, Number(m[1]), 1, Number(m[2]))),
  // ISO weeks: 2025W11 (its Monday), 2025-W11-3 (its Wednesday).
  rule(`${YEAR4}-?w(0[1-9]|[1-4][0-9]|5[0-3])(?:-?([0-7]))?`, (m, st) => {
    if (!setDate(st, Number(m[1]), 1, 1)) return false;
    st.rel.d = isoWeekOffset(Number(m[1]), Number(m[2]), Number(m[3] ?? 1));
    return true;
  }),
  // mar-14-2025, 2025-mar-14
  rule(`${MONTHABBR}-${DAYLZ}-${YEAR}`, (m, st) => setDate(st, year(m[3]), monthNumber(m[1]), Number(m[2]))),
  rule(`${YEAR}-${MONTHABBR}-${DAYLZ}`, (m, st) => setDate(st, year(m[1]), monthNumber(m[2]), Number(m[3]))),
  // Common Log Format: 10/Oct/2000:13:55:36 -0700
  rule(`${DAY}/${MONTHABBR}/${YEAR4}:${HOUR24LZ}:${MINUTELZ}:${SECONDLZ}${SPACE}${TZCORRECTION}`, (m, st) =>
    setDate(st, Number(m[3]), monthNumber(m[2]), Number(m[1])) &&
    setTime(st, Number(m[4]), Number(m[5]), Number(m[6])) &&
    setZone(st, () => tzCorrection(m[7], m[8], m[9], m[10]))),
  // A 4-digit number that cannot be a time is a year.
  rule(YEAR4, (m, st) => {
    st.y = Number(m[1]);
    return true;
  }),

  // "ago" turns around every relative part read so far.
  rule('ago', (_m, st) => {
    for (const k of Object.keys(st.rel) as UnitKey[]) st.rel[k] = -st.rel[k];
    if (st.weekday) st.weekday.weekday = -st.weekday.weekday || -7;
    if (st.special?.type === 'weekdays') st.special.amount = -st.special.amount;
    return true;
  }),

  // "friday": today if it is a Friday, else the next one, at 00:00. (PHP reads a bare "weekday"
  // as Monday.)
  rule(`${DAYTEXT}|(weekdays?)`, (m, st) => {
    unhaveTime(st);
    const weekday = m[1] ? DAY_NAMES[m[1].toLowerCase()] : 1;
    st.weekday = { weekday, behavior: st.weekday?.behavior === 2 ? 2 : 1 };
    return true;
  }),

  // "next week", "monday next week": Monday-based week arithmetic, keeping the time.
  rule(`${RELTEXTTEXT}${SPACE}week`, (m, st) => {
    st.rel.d += RELTEXT[m[1].toLowerCase()] * 7;
    st.weekday = { weekday: st.weekday ? st.weekday.weekday : 1, behavior: 2 };
    return true;
  }),
  // "next month", "last year", "first day" (= +1 day), "next wednesday" (at 00:00)
  rule(`${RELTEXTANY}${SPACE}${RELTEXTUNIT}`, (m, st) => {
    const text = m[1].toLowerCase();
    return relativeUnit(st, RELTEXT[text], m[2].toLowerCase(), text === 'this' ? 1 : 0, false);
  }),

  // A month alone sets the month (day and year from now).
  rule(MONTHTEXT, (m, st) => setDate(st, null, monthNumber(m[1]), null)),

  // Zones: +01:00, +0100, -5, GMT+2, and abbreviations or ids (Z, UTC, EST, Europe/Paris).
  rule(TZCORRECTION, (m, st) => setZone(st, () => tzCorrection(m[1], m[2], m[3], m[4]))),
  rule('[a-z]+(?:[_/-][a-z]+)+|\\(?[a-z]{1,6}\\)?', (m, st) => setZone(st, () => readZone(m[0]))),

  // "Mar 14 7:30pm", "Mar 14 19:00": one token, else "Mar 14 19" would read as the year 2019.
  rule(`${MONTHTEXT}[ .\\t-]*${DAY}[,.stndrh\\t ]+(${uncaptured(TIME12_MINUTES)}|${uncaptured(TIME24)})`, (m, st) =>
    setDate(st, null, monthNumber(m[1]), Number(m[2])) && setTimeText(st, m[3])),

  // "+5 weeks", "-2 days", "3 days", "+1 fri"
  rule(`([+-]*)[ \\t]*([0-9]+)[ \\t]*(${RELTEXTUNIT.slice(1, -1)}|week)`, (m, st) => {
    const negative = (m[1].match(/-/g)?.length ?? 0) % 2 === 1;
    return relativeUnit(st, (negative ? -1 : 1) * Number(m[2]), m[3].toLowerCase(), 1, true);
  }),
];

function scan(input: string): State | null {
  const st = newState();
  let pos = 0;
  while (pos < input.length) {
    if (' \t,.'.includes(input[pos])) {
      pos++;
      continue;
    }
    let best: { rule: Rule; m: RegExpExecArray } | null = null;
    for (const r of RULES) {
      r.re.lastIndex = pos;
      const m = r.re.exec(input);
      if (m && m[0].length > 0 && (!best || m[0].length > best.m[0].length)) best = { rule: r, m };
    }
    if (!best || !best.rule.apply(best.m, st)) return null;
    pos += best.m[0].length;
  }
  return st;
}

// ---------------------------------------------------------------------------------------------
// Evaluation.

interface Fields { y: number; m: number; d: number; h: number; i: number; s: number; us: number }

/** Lets every field overflow into the next (month 13, day 0, hour 24) like timelib_do_normalize. */
function normalize(f: Fields): Fields {
  const ms = wallAsUtc({ year: f.y, month: f.m, day: f.d, hour: f.h, minute: f.i, second: f.s });
  const extra = Math.floor(f.us / 1e6);
  const d = new Date(ms + extra * 1000);
  return {
    y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate(),
    h: d.getUTCHours(), i: d.getUTCMinutes(), s: d.getUTCSeconds(), us: f.us - extra * 1e6,
  };
}

function dayOfWeek(f: Fields): number {
  return new Date(wallAsUtc({ year: f.y, month: f.m, day: f.d, hour: 12, minute: 0, second: 0 })).getUTCDay();
}

/**
 * timelib's do_adjust_for_weekday. Behaviour 0 ("next friday") never stays on today; 1
 * ("friday", "this friday") may; 2 ("next week", "monday next week") counts from the Monday of
 * the current week. A negative relative day count looks backwards.
 */
function adjustForWeekday(f: Fields, move: WeekdayMove, relDays: number): void {
  const current = dayOfWeek(f);
  let weekday = move.weekday;
  if (move.behavior === 2) {
    if (current === 0 && weekday !== 0) weekday -= 7;
    if (weekday === 0 && current !== 0) weekday = 7;
    f.d += weekday - current;
    return;
  }
  let difference = weekday - current;
  if ((relDays < 0 && difference < 0) || (relDays >= 0 && difference <= -move.behavior)) difference += 7;
  if (weekday >= 0) f.d += difference;
  else f.d -= 7 - (Math.abs(weekday) - current);
}

function firstLastDayOf(f: Fields, st: State): void {
  if (st.firstLastDayOf === 'first') f.d = 1;
  if (st.firstLastDayOf === 'last') {
    f.d = 0;
    f.m += 1;
  }
}

/** timelib's do_adjust_special_weekday: move by business days, skipping Saturdays and Sundays. */
function addWeekdays(f: Fields, count: number): void {
  const dow = dayOfWeek(f);
  f.d += Math.trunc(count / 5) * 7;
  const rem = count % 5;
  if (count > 0) {
    if (rem === 0) {
      if (dow === 0) f.d -= 2;
      else if (dow === 6) f.d -= 1;
    } else if (dow === 6) f.d += 1;
    else if (dow + rem > 5) f.d += 2;
  } else {
    if (rem === 0) {
      if (dow === 6) f.d += 2;
      else if (dow === 0) f.d += 1;
    } else if (dow === 0) f.d -= 1;
    else if (dow + rem < 1) f.d -= 2;
  }
  f.d += rem;
}

function evaluate(st: State, now: DateTime, zone: string): number {
  // Unset fields come from now; a date without a time is midnight.
  if (st.haveDate && !st.haveTime) st.h = st.i = st.s = st.us = 0;
  const anySet = [st.y, st.m, st.d, st.h, st.i, st.s].some((v) => v !== UNSET);
  let f: Fields = {
    y: st.y ?? now.year, m: st.m ?? now.month, d: st.d ?? now.day,
    h: st.h ?? now.hour, i: st.i ?? now.minute, s: st.s ?? now.second,
    us: st.us ?? (anySet ? 0 : now.millisecond * 1000),
  };

  // "first monday of <month>" counts from the 1st of that month ("last ... of": of the next one).
  if (st.special && st.special.type !== 'weekdays') {
    f.d = 1;
    f.m += st.rel.m + (st.special.type === 'last-weekday-of' ? 1 : 0);
    st.rel.m = 0;
  }
  // "first/last day of" is applied here as well as at the end, so that a weekday move in the
  // same input counts from that day ("friday last day of" is in the next month).
  firstLastDayOf(f, st);
  f = normalize(f);
  if (st.weekday) adjustForWeekday(f, st.weekday, st.rel.d);
  f = normalize(f);
  f.y += st.rel.y; f.m += st.rel.m; f.d += st.rel.d;
  f.h += st.rel.h; f.i += st.rel.i; f.s += st.rel.s; f.us += st.rel.us;
  // Set before normalising, so that "first day of next month" on Jan 31 is Feb 1, not Mar 3.
  firstLastDayOf(f, st);
  f = normalize(f);
  if (st.special?.type === 'weekdays') {
    addWeekdays(f, st.special.amount);
    f = normalize(f);
  }

  const wall = { year: f.y, month: f.m, day: f.d, hour: f.h, minute: f.i, second: f.s };
  const subMs = Math.floor(f.us / 1000);
  if (typeof st.zone === 'number') return wallAsUtc(wall) - st.zone * 60_000 + subMs;
  if (st.zone !== null) return wallToMillis(wall, st.zone, true) + subMs;
  return wallToMillis(wall, zone) + subMs;
}

// PHP's is_numeric; the API reads such values as unix timestamps before strtotime sees them.
const NUMERIC = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[+-]?[0-9]+)?$/i;
// Except 8-digit dates: 20250314 is a day, not 1970-08-23.
const YMD = /^[0-9]{4}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01])$/;

/**
 * Reads `input` like PHP's `strtotime` in `opts.zone` at `opts.now`. Returns a DateTime in
 * `opts.zone`, or null when PHP would return false. Throws RangeError for an invalid zone.
 */
export function parseDate(input: string | number, opts: ParseOptions): DateTime | null {
  const zone = zoneFor(opts.zone);
  const toResult = (ms: number) => {
    const dt = DateTime.fromMillis(ms, { zone });
    // Dates are stored as `Y-m-d H:i:s`: a year outside 1-9999 cannot be written that way.
    return dt.isValid && dt.year >= 1 && dt.year <= 9999 ? dt : null;
  };
  if (typeof input === 'number') return Number.isFinite(input) ? toResult(Math.floor(input * 1000)) : null;
  if (typeof input !== 'string') return null;

  const text = input.trim();
  if (text === '') return null;
  if (NUMERIC.test(text) && !YMD.test(text)) {
    const seconds = Number(text);
    return Number.isFinite(seconds) ? toResult(Math.floor(seconds * 1000)) : null;
  }

  const fast = exactDateTime(text, zone);
  if (fast !== undefined) return fast;
  const st = scan(text);
  if (!st) return null;
  const now = DateTime.fromJSDate(opts.now ?? new Date(), { zone });
  const ms = evaluate(st, now, opts.zone);
  return Number.isFinite(ms) ? toResult(ms) : null;
}

/**
 * `Y-m-d`, `Y-m-d H:i` and `Y-m-d H:i:s`: what the API returns, the UI sends and the importers
 * produce, so the bulk of all dates. Read directly instead of through the grammar (10x faster,
 * same result); anything unusual (24:00, leap seconds, overflowing days) is left to the grammar.
 */
function exactDateTime(text: string, zone: Zone): DateTime | null | undefined {
  const wall = exactWall(text);
  if (!wall) return undefined;
  const dt = DateTime.fromMillis(wallToMillis(wall, zone), { zone });
  return dt.isValid ? dt : undefined;
}

/**
 * The wall time of `YYYY-MM-DD`, `YYYY-MM-DD HH:MM` or `YYYY-MM-DD HH:MM:SS` (`T` or a space
 * between date and time), ASCII digits, every field in range; undefined for anything else. Read
 * by character codes rather than a regex: an import asks this of every date several times over.
 */
function exactWall(text: string): WallTime | undefined {
  const n = text.length;
  if ((n !== 10 && n !== 16 && n !== 19) || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return undefined;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  let hour = 0;
  let minute = 0;
  let second = 0;
  if (n > 10) {
    const t = text.charCodeAt(10);
    if ((t !== 32 && t !== 84) || text.charCodeAt(13) !== 58) return undefined;
    hour = digits(text, 11, 2);
    minute = digits(text, 14, 2);
    if (n === 19) {
      if (text.charCodeAt(16) !== 58) return undefined;
      second = digits(text, 17, 2);
    }
  }
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return undefined;
  // As Date.UTC counts them, which reads years 0-99 as 1900-1999.
  const y = year <= 99 ? year + 1900 : year;
  const daysInMonth = month === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : DAYS_IN_MONTH[month - 1];
  if (day > daysInMonth) return undefined;
  return { year, month, day, hour, minute, second };
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number written by `count` ASCII digits at `from`, or -1 if one of them is not a digit. */
function digits(text: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/** Whether PHP's strtotime (or the API's timestamp rule) accepts `input`. */
export function looksLikeDate(input: string): boolean {
  // The usual form, which parseDate accepts through exactDateTime (always valid in UTC), told
  // without making a date: validation asks this of every date an import writes.
  if (typeof input === 'string' && exactWall(input.trim())) return true;
  return parseDate(input, { zone: 'UTC' }) !== null;
}
