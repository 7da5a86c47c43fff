import { describe, expect, it } from 'vitest';
import i18n from '../../../renderer/src/i18n';
import { localeTag } from '../../../renderer/src/i18n';
import {
  defaultChoice,
  fromRecurrence,
  fromRule,
  sameRepeat,
  toRecurrence,
  toRule,
  untilValue,
  validateRepeat,
  type RepeatChoice,
  type RepeatStart,
  type RepeatValue,
} from '../../../renderer/src/recurrence/rule';
import { summarise } from '../../../renderer/src/recurrence/summary';

/** Tuesday 9 March 2027, 18:00 in New York: the second Tuesday of its month. */
const TUE: RepeatStart = { start: '2027-03-09 18:00:00', allDay: false, zone: 'America/New_York' };
/** Tuesday 30 March 2027: the fifth and last Tuesday. */
const LAST_TUE: RepeatStart = { start: '2027-03-30 18:00:00', allDay: false, zone: 'America/New_York' };
/** Saturday 13 March 2027, all day (Saturday is masculine in Portuguese). */
const SAT: RepeatStart = { start: '2027-03-13 00:00:00', allDay: true, zone: 'Europe/Lisbon' };
const TUE_ALL_DAY: RepeatStart = { start: '2027-03-09 00:00:00', allDay: true, zone: 'America/New_York' };

const choice = (c: Partial<RepeatChoice> & Pick<RepeatChoice, 'freq'>, s: RepeatStart = TUE): RepeatChoice => ({ ...defaultChoice(c.freq, s), ...c });

const say = (v: RepeatValue, s: RepeatStart, lang: 'en' | 'pt-br' | 'es') => summarise(v, s, i18n.getFixedT(lang), localeTag(lang));

/** Rule ↔ the choices the control shows ↔ the words under it, in the three interface languages. */
const TABLE: Array<{ rule: string; start: RepeatStart; choice: RepeatChoice; en: string; pt: string; es: string }> = [
  {
    rule: 'FREQ=WEEKLY;BYDAY=TU;UNTIL=20270602T035959Z',
    start: TUE,
    choice: choice({ freq: 'weekly', weekdays: ['TU'], ends: 'until', until: '2027-06-01' }),
    en: 'Every Tuesday until June 1, 2027',
    pt: 'Toda terça-feira até 1 de junho de 2027',
    es: 'Cada martes hasta el 1 de junio de 2027',
  },
  {
    rule: 'FREQ=WEEKLY;BYDAY=TU;UNTIL=20270601',
    start: TUE_ALL_DAY,
    choice: choice({ freq: 'weekly', weekdays: ['TU'], ends: 'until', until: '2027-06-01' }, TUE_ALL_DAY),
    en: 'Every Tuesday until June 1, 2027',
    pt: 'Toda terça-feira até 1 de junho de 2027',
    es: 'Cada martes hasta el 1 de junio de 2027',
  },
  {
    rule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=10',
    start: TUE,
    choice: choice({ freq: 'weekly', interval: 2, weekdays: ['TU', 'TH'], ends: 'count', count: 10 }),
    en: 'Every 2 weeks on Tuesday and Thursday, 10 times',
    pt: 'A cada 2 semanas, na terça-feira e quinta-feira, 10 vezes',
    es: 'Cada 2 semanas, el martes y jueves, 10 veces',
  },
  {
    rule: 'FREQ=WEEKLY;BYDAY=SA,SU',
    start: TUE,
    choice: choice({ freq: 'weekly', weekdays: ['SA', 'SU'] }),
    en: 'Every Saturday and Sunday',
    pt: 'Todo sábado e domingo',
    es: 'Cada sábado y domingo',
  },
  {
    rule: 'FREQ=MONTHLY;BYDAY=2TU',
    start: TUE,
    choice: choice({ freq: 'monthly', monthly: 'nth' }),
    en: 'Monthly on the second Tuesday',
    pt: 'Mensalmente na segunda terça-feira',
    es: 'Mensualmente el segundo martes',
  },
  {
    rule: 'FREQ=MONTHLY;BYDAY=-1TU',
    start: LAST_TUE,
    choice: choice({ freq: 'monthly', monthly: 'last' }, LAST_TUE),
    en: 'Monthly on the last Tuesday',
    pt: 'Mensalmente na última terça-feira',
    es: 'Mensualmente el último martes',
  },
  {
    rule: 'FREQ=MONTHLY;INTERVAL=3;BYDAY=2SA',
    start: SAT,
    choice: choice({ freq: 'monthly', interval: 3, monthly: 'nth' }, SAT),
    en: 'Every 3 months on the second Saturday',
    pt: 'A cada 3 meses no segundo sábado',
    es: 'Cada 3 meses el segundo sábado',
  },
  {
    rule: 'FREQ=MONTHLY;BYMONTHDAY=9',
    start: TUE,
    choice: choice({ freq: 'monthly', monthly: 'date' }),
    en: 'Monthly on day 9',
    pt: 'Mensalmente no dia 9',
    es: 'Mensualmente el día 9',
  },
  {
    rule: 'FREQ=DAILY',
    start: TUE,
    choice: choice({ freq: 'daily' }),
    en: 'Every day',
    pt: 'Todos os dias',
    es: 'Todos los días',
  },
  {
    rule: 'FREQ=DAILY;INTERVAL=3;COUNT=1',
    start: TUE,
    choice: choice({ freq: 'daily', interval: 3, ends: 'count', count: 1 }),
    en: 'Every 3 days, once',
    pt: 'A cada 3 dias, uma vez',
    es: 'Cada 3 días, una vez',
  },
  {
    rule: 'FREQ=YEARLY;INTERVAL=2',
    start: TUE,
    choice: choice({ freq: 'yearly', interval: 2 }),
    en: 'Every 2 years on March 9',
    pt: 'A cada 2 anos em 9 de março',
    es: 'Cada 2 años el 9 de marzo',
  },
  {
    rule: 'FREQ=YEARLY;UNTIL=20300101',
    start: SAT,
    choice: choice({ freq: 'yearly', ends: 'until', until: '2030-01-01' }, SAT),
    en: 'Every year on March 13 until January 1, 2030',
    pt: 'Anualmente em 13 de março até 1 de janeiro de 2030',
    es: 'Anualmente el 13 de marzo hasta el 1 de enero de 2030',
  },
];

describe('rules ↔ choices ↔ summaries', () => {
  it.each(TABLE)('$rule', ({ rule, start, choice: c, en, pt, es }) => {
    expect(fromRule(rule, start)).toEqual(c);
    expect(toRule(c, start)).toBe(rule);
    const v: RepeatValue = { kind: 'choice', choice: c };
    expect(say(v, start, 'en')).toBe(en);
    expect(say(v, start, 'pt-br')).toBe(pt);
    expect(say(v, start, 'es')).toBe(es);
  });

  it('reads rules written without the parts the start implies, and the RRULE: prefix', () => {
    expect(fromRule('FREQ=WEEKLY', TUE)).toEqual(choice({ freq: 'weekly', weekdays: ['TU'] }));
    expect(fromRule('RRULE:FREQ=MONTHLY', TUE)).toEqual(choice({ freq: 'monthly', monthly: 'date' }));
    expect(fromRule('freq=yearly;bymonth=3;bymonthday=9', TUE)).toEqual(choice({ freq: 'yearly' }));
    expect(fromRule('FREQ=WEEKLY;BYDAY=TH,TU;WKST=SU', TUE)).toEqual(choice({ freq: 'weekly', weekdays: ['TU', 'TH'] }));
  });

  it('reads an UNTIL in UTC as the day it falls on in the event’s zone', () => {
    // 03:00 UTC on 2 June is still 1 June in New York.
    expect(fromRule('FREQ=DAILY;UNTIL=20270602T030000Z', TUE)?.until).toBe('2027-06-01');
    expect(fromRule('FREQ=DAILY;UNTIL=20270601T235959', TUE)?.until).toBe('2027-06-01');
  });

  it.each([
    'FREQ=MONTHLY;BYDAY=TU;BYSETPOS=2',
    'FREQ=WEEKLY;BYDAY=1TU',
    'FREQ=MONTHLY;BYDAY=3TU',
    'FREQ=MONTHLY;BYDAY=-1TU',
    'FREQ=MONTHLY;BYDAY=2WE',
    'FREQ=MONTHLY;BYMONTHDAY=10',
    'FREQ=YEARLY;BYMONTH=3,9',
    'FREQ=HOURLY',
    'FREQ=DAILY;BYHOUR=9,18',
    'FREQ=DAILY;COUNT=0',
    'FREQ=DAILY;COUNT=3;UNTIL=20270601',
    'FREQ=DAILY;INTERVAL=0',
    'FREQ=WEEKLY;INTERVAL=2;WKST=SU',
    'FREQ=DAILY;FREQ=WEEKLY',
    'FREQ=DAILY;UNTIL=June',
    '',
  ])('keeps %j as a custom rule, unchanged', (rule) => {
    expect(fromRule(rule, TUE)).toBeNull();
    const original = { rules: [rule], rdates: [], exdates: ['20270316T180000'] };
    const v = fromRecurrence(original, TUE);
    expect(v).toEqual({ kind: 'custom', rule });
    expect(toRecurrence(v, TUE, original)).toBe(original);
  });

  it('shows several rules, or extra dates, as custom', () => {
    expect(fromRecurrence({ rules: ['FREQ=WEEKLY;BYDAY=TU', 'FREQ=WEEKLY;BYDAY=TH'], rdates: [], exdates: [] }, TUE).kind).toBe('custom');
    expect(fromRecurrence({ rules: ['FREQ=DAILY'], rdates: ['20270320T180000'], exdates: [] }, TUE).kind).toBe('custom');
    expect(fromRecurrence(null, TUE)).toEqual({ kind: 'none' });
    expect(say(fromRecurrence({ rules: ['FREQ=HOURLY'], rdates: [], exdates: [] }, TUE), TUE, 'en')).toBe('Custom rule: FREQ=HOURLY');
    expect(say({ kind: 'none' }, TUE, 'en')).toBe('');
  });

  it('keeps a series’ deleted dates when its rule is replaced by choices', () => {
    const original = { rules: ['FREQ=WEEKLY;BYDAY=TU'], rdates: [], exdates: ['20270316T180000'] };
    const v: RepeatValue = { kind: 'choice', choice: choice({ freq: 'weekly', weekdays: ['TU'], ends: 'count', count: 4 }) };
    expect(toRecurrence(v, TUE, original)).toEqual({ rules: ['FREQ=WEEKLY;BYDAY=TU;COUNT=4'], rdates: [], exdates: ['20270316T180000'] });
    expect(toRecurrence({ kind: 'none' }, TUE, original)).toBeNull();
  });

  it('types UNTIL as the start is typed: a date, or the end of that day in the event’s zone in UTC', () => {
    expect(untilValue('2027-01-15', { start: '2027-01-01 09:00:00', allDay: false, zone: 'Europe/Lisbon' })).toBe('20270115T235959Z');
    expect(untilValue('2027-01-15', { start: '2027-01-01 09:00:00', allDay: false, zone: 'America/Sao_Paulo' })).toBe('20270116T025959Z');
    expect(untilValue('2027-07-15', { start: '2027-01-01 09:00:00', allDay: false, zone: 'UTC+5.5' })).toBe('20270715T182959Z');
    expect(untilValue('2027-01-15', { start: '2027-01-01 00:00:00', allDay: true, zone: 'Asia/Tokyo' })).toBe('20270115');
  });

  it('writes "last" only for a start in the last week of its month', () => {
    // The start moved from 30 March (last Tuesday) to 9 March (second): the rule follows the start.
    expect(toRule(choice({ freq: 'monthly', monthly: 'last' }), TUE)).toBe('FREQ=MONTHLY;BYDAY=2TU');
  });

  it('tells a changed choice from the same one written another way', () => {
    const a: RepeatValue = { kind: 'choice', choice: choice({ freq: 'weekly', weekdays: ['TU', 'TH'] }) };
    expect(sameRepeat(a, { kind: 'choice', choice: { ...choice({ freq: 'weekly' }), weekdays: ['TH', 'TU'], count: 99 } })).toBe(true);
    expect(sameRepeat(a, { kind: 'choice', choice: choice({ freq: 'weekly', weekdays: ['TU'] }) })).toBe(false);
    expect(sameRepeat(a, { kind: 'none' })).toBe(false);
  });
});

describe('validation', () => {
  const check = (c: Partial<RepeatChoice> & Pick<RepeatChoice, 'freq'>) => validateRepeat({ kind: 'choice', choice: choice(c) }, TUE);
  it('accepts a complete choice', () => {
    expect(check({ freq: 'weekly', ends: 'until', until: '2027-03-09' })).toEqual({});
    expect(validateRepeat({ kind: 'custom', rule: 'FREQ=HOURLY' }, TUE)).toEqual({});
  });
  it('asks for at least one weekday, a count of 1 or more, an interval, and an end date not before the start', () => {
    expect(check({ freq: 'weekly', weekdays: [] })).toEqual({ weekdays: 'repeat.error.weekdays' });
    expect(check({ freq: 'daily', ends: 'count', count: 0 })).toEqual({ count: 'repeat.error.count' });
    expect(check({ freq: 'daily', ends: 'count', count: NaN })).toEqual({ count: 'repeat.error.count' });
    expect(check({ freq: 'daily', ends: 'count', count: 2.5 })).toEqual({ count: 'repeat.error.count' });
    expect(check({ freq: 'daily', interval: 0 })).toEqual({ interval: 'repeat.error.interval' });
    expect(check({ freq: 'daily', interval: NaN })).toEqual({ interval: 'repeat.error.interval' });
    expect(check({ freq: 'daily', ends: 'until', until: '2027-03-08' })).toEqual({ until: 'repeat.error.until_before' });
    expect(check({ freq: 'daily', ends: 'until', until: '' })).toEqual({ until: 'repeat.error.until_missing' });
    // Weekdays and counts that are not in use do not block.
    expect(check({ freq: 'daily', weekdays: [], count: 0 })).toEqual({});
  });
  it('has a message for every problem in every language', () => {
    for (const lang of ['en', 'pt-br', 'es']) {
      for (const key of ['interval', 'weekdays', 'count', 'until_missing', 'until_before']) {
        expect(i18n.getFixedT(lang)(`repeat.error.${key}`)).not.toBe(`repeat.error.${key}`);
      }
    }
  });
});
