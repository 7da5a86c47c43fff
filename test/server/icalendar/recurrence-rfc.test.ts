/**
 * Rule shapes where the engine once disagreed with RFC 5545 (found by the dateutil oracle,
 * test/server/api/recurrence-oracle.test.ts), one named case each so a regression says which.
 * Expected dates are worked out by hand from the RFC and agree with python-dateutil.
 */
import { describe, expect, it } from 'vitest';
import { expand, normalizeRecurrence, type SeriesTiming } from '../../../electron/server/icalendar/recurrence';

function starts(rule: string, start: string, to: string, zone = 'UTC'): string[] {
  const timing: SeriesTiming = { start, zone, allDay: false };
  return expand(normalizeRecurrence({ rules: [rule] }, timing), timing, start, to).starts.map((s) => s.slice(0, 16));
}

describe('rule shapes ical.js 2.2.1 expands wrong on its own', () => {
  it('INTERVAL next to BYMONTH: every 4th month from January is January, May, September', () => {
    expect(starts('FREQ=MONTHLY;INTERVAL=4;BYDAY=-1FR;BYMONTH=1,8', '2018-01-26 20:30:00', '2021-01-01 00:00:00')).toEqual(['2018-01-26 20:30', '2019-01-25 20:30', '2020-01-31 20:30']);
  });

  it('INTERVAL next to BYHOUR in an hourly rule: every 3rd hour from 14:00 meets 14 and 20, never 9 or 12', () => {
    expect(starts('FREQ=HOURLY;INTERVAL=3;BYHOUR=9,12,14,20', '2027-04-04 14:00:00', '2027-04-06 00:00:00')).toEqual(['2027-04-04 14:00', '2027-04-04 20:00', '2027-04-05 14:00', '2027-04-05 20:00']);
  });

  it('BYSETPOS in a yearly rule picks within the year, not within each BYMONTH', () => {
    expect(starts('FREQ=YEARLY;BYMONTH=9,12;BYDAY=FR;BYSETPOS=-1', '2039-12-30 11:15:00', '2042-01-01 00:00:00')).toEqual(['2039-12-30 11:15', '2040-12-28 11:15', '2041-12-27 11:15']);
  });

  it('BYSETPOS next to BYMONTHDAY picks among the month days', () => {
    expect(starts('FREQ=MONTHLY;BYMONTHDAY=1,12,23;BYSETPOS=-1', '2032-07-23 13:45:00', '2032-10-01 00:00:00')).toEqual(['2032-07-23 13:45', '2032-08-23 13:45', '2032-09-23 13:45']);
  });

  it('BYSETPOS counts from the start of the first period, not from DTSTART', () => {
    // The 2nd weekday of each month; DTSTART on 2031-04-02 is April's second weekday.
    expect(starts('FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=2', '2031-04-02 09:00:00', '2031-07-01 00:00:00')).toEqual(['2031-04-02 09:00', '2031-05-02 09:00', '2031-06-03 09:00']);
  });

  it('a numbered weekday of the year: the 52nd Monday, the 10th Thursday', () => {
    expect(starts('FREQ=YEARLY;BYDAY=52MO', '2032-12-27 23:45:00', '2035-01-01 00:00:00')).toEqual(['2032-12-27 23:45', '2033-12-26 23:45', '2034-12-25 23:45']);
    expect(starts('FREQ=YEARLY;BYDAY=10TH', '2028-03-09 01:30:00', '2031-01-01 00:00:00')).toEqual(['2028-03-09 01:30', '2029-03-08 01:30', '2030-03-07 01:30']);
  });

  it('COUNT counts what the corrected rule makes', () => {
    expect(starts('FREQ=MONTHLY;INTERVAL=2;BYMONTH=1,2,3,4;BYMONTHDAY=5;COUNT=3', '2031-01-05 08:00:00', '2040-01-01 00:00:00')).toEqual(['2031-01-05 08:00', '2031-03-05 08:00', '2032-01-05 08:00']);
  });
});

describe('UNTIL in the hour a fall-back repeats', () => {
  it('is compared as an instant: 01:45 (EDT, its first instance) is before 06:30Z (01:30 EST)', () => {
    expect(starts('FREQ=DAILY;UNTIL=20311102T063000Z', '2031-10-31 01:45:00', '2031-11-10 00:00:00', 'America/New_York')).toEqual(['2031-10-31 01:45', '2031-11-01 01:45', '2031-11-02 01:45']);
  });

  it('is kept as written, not moved to the first instance of its wall time', () => {
    const timing: SeriesTiming = { start: '2031-10-31 01:45:00', zone: 'America/New_York', allDay: false };
    expect(normalizeRecurrence({ rules: ['FREQ=DAILY;UNTIL=20311102T063000Z'] }, timing).rules).toEqual(['FREQ=DAILY;UNTIL=20311102T063000Z']);
  });
});

describe('windows far from the start', () => {
  it('an open-ended hourly series lists a window years later in full (the iterator starts near it)', () => {
    const timing: SeriesTiming = { start: '2020-01-01 00:30:00', zone: 'America/New_York', allDay: false };
    const far = expand({ rules: ['FREQ=HOURLY;INTERVAL=5'], rdates: [], exdates: [] }, timing, '2031-06-01 00:00:00', '2031-06-02 00:00:00');
    expect(far.truncated).toBe(false);
    // Wall-clock hours from 2020-01-01 00:30 that are a multiple of 5: 100,060 hours later is 2031-06-01 04:30.
    expect(far.starts).toEqual(['2031-06-01 04:30:00', '2031-06-01 09:30:00', '2031-06-01 14:30:00', '2031-06-01 19:30:00']);
  });
});
