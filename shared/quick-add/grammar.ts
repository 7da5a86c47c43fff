/**
 * What quick add's pieces share (shared/quick-add/parse.ts): the sentence and the characters its
 * pieces have taken, the patterns of each language built from shared/quick-add/words.ts, and
 * reading a time, an amount and a day.
 */
import { DateTime } from 'luxon';
import type { Language } from '../i18n/languages';
import type { zoneFor } from '../dates/zones';
import { QUICK_ADD_WORDS, type QuickAddWords } from './words';

export const L = '\\p{L}\\p{N}';
/** Word edges that know accented letters (`\b` does not). */
export const B = `(?<![${L}])`;
export const E = `(?![${L}])`;
export const WEEKDAY_CODES = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

export const alt = (list: string[]) => list.map((s) => `(?:${s})`).join('|');
/**
 * Patterns built from the word tables, compiled once: a sentence is read on every keystroke, and
 * compiling them again each time was most of the cost. Only these finite sources come here.
 */
export const compiled = new Map<string, RegExp>();
export function rx(source: string, flags = 'iu'): RegExp {
  const key = `${flags}/${source}`;
  let r = compiled.get(key);
  if (!r) compiled.set(key, (r = new RegExp(source, flags)));
  return r;
}
export const re = (source: string) => rx(source, 'giu');

/** One character per UTF-16 unit with its accents taken off, so indices stay those of the sentence. */
export function fold(text: string): string {
  let out = '';
  for (const ch of text) {
    const base = ch.length === 1 ? ch.normalize('NFD').replace(/\p{M}/gu, '') : ch;
    out += base.length === ch.length ? base : ch;
  }
  return out;
}

/** The sentence and which of its characters a piece has taken. */
export class Sentence {
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

export interface Day {
  y: number;
  m: number;
  d: number;
}

export interface Clock {
  h: number;
  min: number;
}

/** The patterns of one language, built once. */
export interface Grammar {
  w: QuickAddWords;
  weekdays: RegExp[];
  months: RegExp[];
  weekdayAny: string;
  monthAny: string;
  amount: string;
  time: string;
}

const grammars = new Map<Language, Grammar>();

export function grammarOf(lang: Language): Grammar {
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

export const indexIn = (list: RegExp[], word: string) => list.findIndex((r) => r.test(word.trim()));

export function amountOf(g: Grammar, text: string): number {
  const n = Number(text.replace(',', '.'));
  if (Number.isFinite(n)) return n;
  for (const [src, value] of g.w.numbers) if (rx(`^(?:${src})$`).test(text.trim())) return value;
  return NaN;
}

export type Unit = keyof QuickAddWords['units'];

export function unitOf(g: Grammar, word: string): Unit | undefined {
  for (const [unit, src] of Object.entries(g.w.units) as Array<[Unit, string]>) if (rx(`^(?:${src})$`).test(word.trim())) return unit;
  return undefined;
}

export const unitAny = (g: Grammar, units: Unit[]) => `(?:${units.map((u) => g.w.units[u]).join('|')})`;

/** A time token read: hours and minutes, with whether it said am/pm. */
export function clockOf(g: Grammar, token: string, after: string | undefined): (Clock & { meridiem: boolean }) | undefined {
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
export function guessAfternoon(lang: Language, c: Clock & { meridiem: boolean }): Clock {
  if (lang === 'en' && !c.meridiem && c.h >= 1 && c.h <= 7) return { h: c.h + 12, min: c.min };
  return c;
}

export function nextWeekday(now: DateTime, weekday: number, todayCounts: boolean): Day {
  const todayWd = now.weekday % 7;
  let ahead = (weekday - todayWd + 7) % 7;
  if (ahead === 0 && !todayCounts) ahead = 7;
  return toDay(now.startOf('day').plus({ days: ahead }));
}

export const toDay = (d: DateTime): Day => ({ y: d.year, m: d.month, d: d.day });
export const iso = (d: Day) => `${String(d.y).padStart(4, '0')}-${String(d.m).padStart(2, '0')}-${String(d.d).padStart(2, '0')}`;
export const compareDay = (a: Day, b: Day) => a.y - b.y || a.m - b.m || a.d - b.d;
export const clockMinutes = (c: Clock) => c.h * 60 + c.min;

export function validDay(d: Day, minYear: number): boolean {
  const y = d.y || 2000;
  if (y < minYear || y > 9999) return false;
  return DateTime.fromObject({ year: y, month: d.m, day: d.d }).isValid;
}

export function dayTime(d: Day, c: Clock | undefined, zone: ReturnType<typeof zoneFor>): DateTime {
  return DateTime.fromObject({ year: d.y, month: d.m, day: d.d, hour: c?.h ?? 0, minute: c?.min ?? 0 }, { zone });
}
