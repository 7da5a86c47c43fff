/**
 * A repetition in words ("Every 2 weeks on Tuesday and Thursday, 10 times"), in the interface
 * language: sentences from the locale files, weekday and month names, lists and dates from Intl,
 * so only the sentence shapes are translated.
 *
 * Portuguese agrees articles and ordinals with the weekday ("na segunda terça-feira", "no segundo
 * sábado"): the locale lists each weekday's gender in `repeat.weekday_genders`, and the sentence
 * is picked with that as i18next context (languages without it fall back to the plain key).
 */
import type { TFunction } from 'i18next';
import { nthOf, startDay, WEEKDAYS, type RepeatStart, type RepeatValue, type Weekday } from './rule';

type T = TFunction | ((key: string, opts?: Record<string, unknown>) => string);

/** A Monday, to name weekdays through Intl. */
const MONDAY = Date.UTC(2024, 0, 1);

export function weekdayName(d: Weekday, locale: string, width: 'long' | 'short' = 'long'): string {
  return new Intl.DateTimeFormat(locale, { weekday: width, timeZone: 'UTC' }).format(MONDAY + WEEKDAYS.indexOf(d) * 86_400_000);
}

function genderOf(d: Weekday, t: T): string | undefined {
  const genders = String(t('repeat.weekday_genders', { defaultValue: '' })).split(',');
  return genders[WEEKDAYS.indexOf(d)] || undefined;
}

export function longDate(day: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
}

/** "the second Tuesday" / "the last Friday" parts of the start, for the summary and the monthly choice. */
export function nthWeekday(s: RepeatStart, mode: 'nth' | 'last', t: T, locale: string): { nth: string; weekday: string; context?: string } {
  const d = WEEKDAYS[startDay(s).weekday - 1];
  const context = genderOf(d, t);
  const n = mode === 'last' ? 'last' : `n${nthOf(s).nth}`;
  return { nth: String(t(`repeat.ordinal.${n}`, { context })), weekday: weekdayName(d, locale), context };
}

/** The one-line summary of a repetition; empty for "does not repeat". */
export function summarise(v: RepeatValue, s: RepeatStart, t: T, locale: string): string {
  if (v.kind === 'none') return '';
  if (v.kind === 'custom') return v.rule ? String(t('repeat.summary.custom', { rule: v.rule })) : String(t('repeat.custom'));
  const c = v.choice;
  const count = c.interval;
  let rule: string;
  switch (c.freq) {
    case 'daily':
      rule = String(t('repeat.summary.daily', { count }));
      break;
    case 'weekly': {
      const days = WEEKDAYS.filter((d) => c.weekdays.includes(d));
      const list = new Intl.ListFormat(locale, { type: 'conjunction' }).format(days.map((d) => weekdayName(d, locale)));
      rule = String(t('repeat.summary.weekly', { count, days: list, context: days[0] ? genderOf(days[0], t) : undefined }));
      break;
    }
    case 'monthly':
      if (c.monthly === 'date') rule = String(t('repeat.summary.monthly_date', { count, day: startDay(s).day }));
      else {
        const { nth, weekday, context } = nthWeekday(s, c.monthly, t, locale);
        rule = String(t('repeat.summary.monthly_weekday', { count, nth, weekday, context }));
      }
      break;
    case 'yearly': {
      const date = new Intl.DateTimeFormat(locale, { month: 'long', day: 'numeric', timeZone: 'UTC' }).format(startDay(s).toJSDate());
      rule = String(t('repeat.summary.yearly', { count, date }));
      break;
    }
  }
  if (c.ends === 'count') return String(t('repeat.summary.ends_count', { rule, count: c.count }));
  if (c.ends === 'until' && c.until) return String(t('repeat.summary.ends_until', { rule, date: longDate(c.until, locale) }));
  return rule;
}
