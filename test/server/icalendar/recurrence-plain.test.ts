/**
 * The plain rules' date arithmetic (recurrence-plain.ts) against ical.js, the engine's reference:
 * for random DAILY and WEEKLY rules (weekdays, intervals, WKST, COUNT, UNTIL, EXDATEs) in zones
 * with and without daylight saving, timed and all-day, over windows near DTSTART and decades on,
 * both give the same occurrences. A far window is what a far month's list asks of every series.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { expand, type Recurrence, type SeriesTiming } from '../../../electron/server/icalendar/recurrence';

const DAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const ZONES = ['Europe/Lisbon', 'America/New_York', 'Australia/Sydney', 'America/Sao_Paulo', 'Asia/Tokyo', 'UTC'];
const pad = (n: number) => String(n).padStart(2, '0');

const arbitraryCase = fc
  .record({
    year: fc.integer({ min: 2020, max: 2035 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.constantFrom(0, 15, 30, 45),
    zone: fc.constantFrom(...ZONES),
    allDay: fc.boolean(),
    freq: fc.constantFrom('DAILY', 'WEEKLY'),
    interval: fc.constantFrom(1, 1, 2, 3, 5),
    byDay: fc.option(fc.subarray(DAYS, { minLength: 1 }), { nil: undefined }),
    wkst: fc.option(fc.constantFrom(...DAYS), { nil: undefined }),
    end: fc.oneof(fc.constant({}), fc.record({ count: fc.integer({ min: 1, max: 40 }) }), fc.record({ untilDays: fc.integer({ min: 0, max: 400 }) })),
    exdateSteps: fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 3 }),
    windowYears: fc.constantFrom(0, 0, 1, 7, 60),
    windowDays: fc.integer({ min: 1, max: 45 }),
    windowOffset: fc.integer({ min: 0, max: 300 }),
  })
  .map((c) => {
    const date = `${c.year}-${pad(c.month)}-${pad(c.day)}`;
    const timing: SeriesTiming = { start: c.allDay ? `${date} 00:00:00` : `${date} ${pad(c.hour)}:${pad(c.minute)}:00`, zone: c.zone, allDay: c.allDay };
    let rule = `FREQ=${c.freq}`;
    if (c.interval > 1) rule += `;INTERVAL=${c.interval}`;
    if (c.byDay) rule += `;BYDAY=${c.byDay.join(',')}`;
    if (c.wkst) rule += `;WKST=${c.wkst}`;
    if ('count' in c.end) rule += `;COUNT=${c.end.count}`;
    if ('untilDays' in c.end) {
      const u = new Date(Date.UTC(c.year, c.month - 1, c.day + c.end.untilDays!));
      rule += `;UNTIL=${u.getUTCFullYear()}${pad(u.getUTCMonth() + 1)}${pad(u.getUTCDate())}${c.allDay ? '' : 'T120000Z'}`;
    }
    const exdates = c.exdateSteps.map((k) => {
      const d = new Date(Date.UTC(c.year, c.month - 1, c.day + k * (c.freq === 'WEEKLY' ? 7 : 1)));
      const v = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
      return c.allDay ? v : `${v}T${pad(c.hour)}${pad(c.minute)}00`;
    });
    const from = new Date(Date.UTC(c.year + c.windowYears, c.month - 1, c.day + c.windowOffset - 20));
    const to = new Date(from.getTime() + c.windowDays * 86_400_000);
    const iso = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} 00:00:00`;
    const rec: Recurrence = { rules: [rule], rdates: [], exdates };
    return { rec, timing, from: iso(from), to: iso(to) };
  });

describe('plain DAILY and WEEKLY rules by date arithmetic', () => {
  it('give what ical.js gives, near DTSTART and decades on', () => {
    fc.assert(
      fc.property(arbitraryCase, ({ rec, timing, from, to }) => {
        const plain = expand(rec, timing, from, to);
        const ical = expand(rec, timing, from, to, { icalOnly: true });
        expect(plain, JSON.stringify({ rec, timing, from, to })).toEqual(ical);
      }),
      { numRuns: 600, seed: Number(process.env.ALMANAC_FC_SEED ?? 27) },
    );
  });

  it('keep a weekly series on its wall time across daylight-saving changes', () => {
    const timing: SeriesTiming = { start: '2031-03-04 09:00:00', zone: 'America/New_York', allDay: false };
    const { starts } = expand({ rules: ['FREQ=WEEKLY;BYDAY=TU,TH'], rdates: [], exdates: [] }, timing, '2091-03-01 00:00:00', '2091-03-20 00:00:00');
    expect(starts).toEqual(['2091-03-01 09:00:00', '2091-03-06 09:00:00', '2091-03-08 09:00:00', '2091-03-13 09:00:00', '2091-03-15 09:00:00']);
  });
});
