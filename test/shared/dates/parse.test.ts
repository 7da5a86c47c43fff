import { describe, it, expect } from 'vitest';
import { parseDate, looksLikeDate } from '../../../shared/dates/parse';
import { formatLocal } from '../../../shared/dates/format';

const NY = 'America/New_York';
const IN = 'Asia/Kolkata';
// A Wednesday: 11:04:05 EDT in New York (three days after the switch to summer time), 20:34:05 IST
// in Kolkata.
const NOW = new Date('2025-03-12T15:04:05Z');

function local(input: string | number, zone: string, now: Date = NOW): string | null {
  const dt = parseDate(input, { zone, now });
  return dt ? formatLocal(dt) : null;
}

function utc(input: string | number, zone: string, now: Date = NOW): string | null {
  const dt = parseDate(input, { zone, now });
  return dt ? formatLocal(dt.setZone('UTC')) : null;
}

/*
 * [input, New York, Kolkata]: what PHP 8.2's strtotime($input, NOW) gives with
 * date_default_timezone_set() to each zone, formatted as Y-m-d H:i:s in that zone.
 */
const FORMS: Array<[string, string, string]> = [
  // ISO 8601 and SQL-style
  ['2025-03-14', '2025-03-14 00:00:00', '2025-03-14 00:00:00'],
  ['2025-03-14T19:00', '2025-03-14 19:00:00', '2025-03-14 19:00:00'],
  ['2025-03-14T19:00:00', '2025-03-14 19:00:00', '2025-03-14 19:00:00'],
  ['2025-03-14T19:00:00.250', '2025-03-14 19:00:00', '2025-03-14 19:00:00'],
  ['2025-03-14T19:00:00Z', '2025-03-14 15:00:00', '2025-03-15 00:30:00'],
  ['2025-03-14T19:00:00+01:00', '2025-03-14 14:00:00', '2025-03-14 23:30:00'],
  ['2025-03-14T19:00:00+0100', '2025-03-14 14:00:00', '2025-03-14 23:30:00'],
  ['2025-03-14 19:00', '2025-03-14 19:00:00', '2025-03-14 19:00:00'],
  ['2025-03-14 19:00:00', '2025-03-14 19:00:00', '2025-03-14 19:00:00'],
  // other numeric dates
  ['2025/03/14', '2025-03-14 00:00:00', '2025-03-14 00:00:00'],
  ['03/14/2025', '2025-03-14 00:00:00', '2025-03-14 00:00:00'],
  ['14-03-2025', '2025-03-14 00:00:00', '2025-03-14 00:00:00'],
  ['14.03.2025', '2025-03-14 00:00:00', '2025-03-14 00:00:00'],
  ['20250314', '2025-03-14 00:00:00', '2025-03-14 00:00:00'],
  ['2025-03-14 7pm', '2025-03-14 19:00:00', '2025-03-14 19:00:00'],
  ['2025-03-14 7:30 pm', '2025-03-14 19:30:00', '2025-03-14 19:30:00'],
  // textual
  ['14 March 2025', '2025-03-14 00:00:00', '2025-03-14 00:00:00'],
  ['March 14, 2025', '2025-03-14 00:00:00', '2025-03-14 00:00:00'],
  ['March 14 2025 7pm', '2025-03-14 19:00:00', '2025-03-14 19:00:00'],
  ['Mar 14', '2025-03-14 00:00:00', '2025-03-14 00:00:00'],
  ['14 Mar 2025 19:00', '2025-03-14 19:00:00', '2025-03-14 19:00:00'],
  ['Friday, March 14, 2025', '2025-03-14 00:00:00', '2025-03-14 00:00:00'],
  // The weekday wins over the date when they disagree: the next Thursday on or after it.
  ['Thursday, March 14, 2025', '2025-03-20 00:00:00', '2025-03-20 00:00:00'],
  // relative words; tomorrow/yesterday/today are at midnight
  ['now', '2025-03-12 11:04:05', '2025-03-12 20:34:05'],
  ['today', '2025-03-12 00:00:00', '2025-03-12 00:00:00'],
  ['midnight', '2025-03-12 00:00:00', '2025-03-12 00:00:00'],
  ['noon', '2025-03-12 12:00:00', '2025-03-12 12:00:00'],
  ['tomorrow', '2025-03-13 00:00:00', '2025-03-13 00:00:00'],
  ['yesterday', '2025-03-11 00:00:00', '2025-03-11 00:00:00'],
  ['tomorrow 9am', '2025-03-13 09:00:00', '2025-03-13 09:00:00'],
  ['yesterday 23:59', '2025-03-11 23:59:00', '2025-03-11 23:59:00'],
  ['tomorrow noon', '2025-03-13 12:00:00', '2025-03-13 12:00:00'],
  // PHP: "tomorrow" after a time resets it to midnight.
  ['noon tomorrow', '2025-03-13 00:00:00', '2025-03-13 00:00:00'],
  ['tomorrow tomorrow', '2025-03-13 00:00:00', '2025-03-13 00:00:00'],
  // offsets keep the time of day
  ['+5 weeks', '2025-04-16 11:04:05', '2025-04-16 20:34:05'],
  ['-2 days', '2025-03-10 11:04:05', '2025-03-10 20:34:05'],
  ['+1 week 2 days', '2025-03-21 11:04:05', '2025-03-21 20:34:05'],
  ['3 days ago', '2025-03-09 11:04:05', '2025-03-09 20:34:05'],
  ['+1 month', '2025-04-12 11:04:05', '2025-04-12 20:34:05'],
  ['next month', '2025-04-12 11:04:05', '2025-04-12 20:34:05'],
  ['last year', '2024-03-12 11:04:05', '2024-03-12 20:34:05'],
  ['+2 hours', '2025-03-12 13:04:05', '2025-03-12 22:34:05'],
  ['+3 weekdays', '2025-03-17 11:04:05', '2025-03-17 20:34:05'],
  // weekdays: "next" never means today; a bare name may
  ['next wednesday', '2025-03-19 00:00:00', '2025-03-19 00:00:00'],
  ['next wednesday 5pm', '2025-03-19 17:00:00', '2025-03-19 17:00:00'],
  ['wednesday', '2025-03-12 00:00:00', '2025-03-12 00:00:00'],
  ['friday', '2025-03-14 00:00:00', '2025-03-14 00:00:00'],
  ['last friday', '2025-03-07 00:00:00', '2025-03-07 00:00:00'],
  ['this friday', '2025-03-14 00:00:00', '2025-03-14 00:00:00'],
  ['next week', '2025-03-17 11:04:05', '2025-03-17 20:34:05'],
  // first/last day of: the time of day is kept
  ['first day of next month', '2025-04-01 11:04:05', '2025-04-01 20:34:05'],
  ['last day of this month', '2025-03-31 11:04:05', '2025-03-31 20:34:05'],
  ['first monday of january 2026', '2026-01-05 00:00:00', '2026-01-05 00:00:00'],
  ['last friday of next month', '2025-04-25 00:00:00', '2025-04-25 00:00:00'],
  // month arithmetic overflows like PHP's, except with "first/last day of"
  ['2025-01-31 +1 month', '2025-03-03 00:00:00', '2025-03-03 00:00:00'],
  ['2025-01-31 first day of next month', '2025-02-01 00:00:00', '2025-02-01 00:00:00'],
  ['2025-01-31 last day of next month', '2025-02-28 00:00:00', '2025-02-28 00:00:00'],
  ['2025-02-30', '2025-03-02 00:00:00', '2025-03-02 00:00:00'],
  // a time alone is today
  ['5pm', '2025-03-12 17:00:00', '2025-03-12 17:00:00'],
  ['17:30', '2025-03-12 17:30:00', '2025-03-12 17:30:00'],
  // case and surrounding blanks do not matter
  ['  Next Wednesday 5PM  ', '2025-03-19 17:00:00', '2025-03-19 17:00:00'],
  ['TOMORROW', '2025-03-13 00:00:00', '2025-03-13 00:00:00'],
];

describe('parseDate: the forms PHP strtotime accepts', () => {
  it.each(FORMS)('%j', (input, ny, kolkata) => {
    expect(local(input, NY)).toBe(ny);
    expect(local(input, IN)).toBe(kolkata);
  });

  it('returns a DateTime in the zone asked for, even when the input names another', () => {
    const dt = parseDate('2025-03-14T19:00:00Z', { zone: NY, now: NOW })!;
    expect(dt.zoneName).toBe(NY);
    expect(dt.toISO()).toBe('2025-03-14T15:00:00.000-04:00');
  });

  it('reads zone names and abbreviations written in the input', () => {
    expect(utc('2025-03-14 19:00 Europe/Paris', IN)).toBe('2025-03-14 18:00:00');
    expect(utc('2025-03-14 19:00 EST', IN)).toBe('2025-03-15 00:00:00');
    expect(utc('2025-03-14 19:00 UTC', NY)).toBe('2025-03-14 19:00:00');
  });

  it('reads the input in a WordPress fixed-offset zone', () => {
    expect(local('2025-03-14 19:00', 'UTC+5:30')).toBe('2025-03-14 19:00:00');
    expect(utc('2025-03-14 19:00', 'UTC+5:30')).toBe('2025-03-14 13:30:00');
    expect(utc('tomorrow', 'UTC-5')).toBe('2025-03-13 05:00:00');
  });

  it('counts from the real clock when no now is given', () => {
    const before = Date.now();
    const dt = parseDate('now', { zone: 'UTC' })!;
    expect(dt.toMillis()).toBeGreaterThanOrEqual(before - 1000);
    expect(dt.toMillis()).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('counts weekdays from the day it is: on a Friday, "friday" is today and "next friday" a week on', () => {
    const friday = new Date('2025-03-14T15:00:00Z');
    expect(local('friday', NY, friday)).toBe('2025-03-14 00:00:00');
    expect(local('next friday', NY, friday)).toBe('2025-03-21 00:00:00');
    expect(local('last friday', NY, friday)).toBe('2025-03-07 00:00:00');
    expect(local('next wednesday', NY, friday)).toBe('2025-03-19 00:00:00');
  });

  it('passes year ends and leap days', () => {
    const newYearsEve = new Date('2024-12-31T20:00:00Z');
    expect(local('tomorrow', 'UTC', newYearsEve)).toBe('2025-01-01 00:00:00');
    expect(local('+1 month', 'UTC', newYearsEve)).toBe('2025-01-31 20:00:00');
    expect(local('2024-02-29 +1 year', 'UTC')).toBe('2025-03-01 00:00:00');
    expect(local('last day of february 2024', 'UTC')).toBe('2024-02-29 00:00:00');
  });
});

describe('parseDate: unix timestamps', () => {
  it('reads numbers and numeric strings as timestamps, as the API does', () => {
    expect(local(1700000000, NY)).toBe('2023-11-14 17:13:20');
    expect(local('1700000000', NY)).toBe('2023-11-14 17:13:20');
    expect(local('1700000000', IN)).toBe('2023-11-15 03:43:20');
    expect(local(0, 'UTC')).toBe('1970-01-01 00:00:00');
  });

  it('reads PHP\'s @timestamp form, which relative parts can follow', () => {
    expect(local('@1700000000', NY)).toBe('2023-11-14 17:13:20');
    expect(local('@1700000000', IN)).toBe('2023-11-15 03:43:20');
    expect(local('@1700000000 +1 day', 'UTC')).toBe('2023-11-15 22:13:20');
  });
});

describe('parseDate: summer time changes', () => {
  it('moves a time skipped by the spring change forward, as PHP does', () => {
    expect(local('2025-03-09 02:30', NY)).toBe('2025-03-09 03:30:00');
    expect(utc('2025-03-09 02:30', NY)).toBe('2025-03-09 07:30:00');
    expect(local('2025-03-30 01:30', 'Europe/London')).toBe('2025-03-30 02:30:00');
    expect(local('2025-03-08 02:30 +1 day', NY)).toBe('2025-03-09 03:30:00');
  });

  it('keeps the wall time when adding days across a change', () => {
    const saturdayNoon = new Date('2025-03-08T17:00:00Z'); // 12:00 EST
    const next = parseDate('+1 day', { zone: NY, now: saturdayNoon })!;
    expect(formatLocal(next)).toBe('2025-03-09 12:00:00');
    expect(next.toMillis() - saturdayNoon.getTime()).toBe(23 * 3600_000);

    const autumnNoon = new Date('2025-11-01T16:00:00Z'); // 12:00 EDT
    const after = parseDate('+1 day', { zone: NY, now: autumnNoon })!;
    expect(formatLocal(after)).toBe('2025-11-02 12:00:00');
    expect(after.toMillis() - autumnNoon.getTime()).toBe(25 * 3600_000);
  });

  it('adds hours on the wall clock too, like PHP ("+24 hours" is the same time tomorrow)', () => {
    const saturdayNoon = new Date('2025-03-08T17:00:00Z');
    expect(local('+24 hours', NY, saturdayNoon)).toBe('2025-03-09 12:00:00');
    const beforeGap = new Date('2025-03-09T06:30:00Z'); // 01:30 EST
    expect(local('+1 hour', NY, beforeGap)).toBe('2025-03-09 03:30:00');
  });

  it('reads a repeated autumn hour the way PHP does: first one west of Greenwich, second one east', () => {
    expect(utc('2025-11-02 01:30', NY)).toBe('2025-11-02 05:30:00'); // EDT
    expect(utc('2025-10-26 01:30', 'Europe/London')).toBe('2025-10-26 01:30:00'); // GMT
    expect(utc('2025-04-06 02:30', 'Australia/Sydney')).toBe('2025-04-05 16:30:00'); // AEST
  });

  it('takes the first of a repeated hour when the input names its zone', () => {
    expect(utc('2025-10-26 02:30 Europe/Paris', 'UTC')).toBe('2025-10-26 00:30:00');
  });
});

describe('parseDate: refusals', () => {
  it.each([
    'in 3 days',
    'not a date',
    '2025-13-45',
    '32 March 2025',
    '',
    '   ',
    '5pm 6pm',
    '2025-03-14 2025-03-15',
    '13pm',
    'tomorrow at 5pm',
    'next',
    '+5 parsecs',
  ])('%j is not a date', (input) => {
    expect(parseDate(input, { zone: NY, now: NOW })).toBeNull();
    expect(parseDate(input, { zone: IN, now: NOW })).toBeNull();
  });

  it('refuses non-finite numbers', () => {
    expect(parseDate(Number.NaN, { zone: 'UTC' })).toBeNull();
    expect(parseDate(Number.POSITIVE_INFINITY, { zone: 'UTC' })).toBeNull();
  });

  it('throws on an invalid zone: that is a caller error, not bad input', () => {
    expect(() => parseDate('now', { zone: 'Mars/Phobos' })).toThrow(RangeError);
  });
});

describe('looksLikeDate', () => {
  it('accepts what the API accepts', () => {
    for (const input of ['2025-06-01', 'tomorrow 9am', '+5 weeks', 'next wednesday 5pm', 'yesterday 23:59', '1700000000']) {
      expect(looksLikeDate(input)).toBe(true);
    }
  });

  it('refuses what PHP refuses', () => {
    for (const input of ['', 'soon', 'in 3 days', 'next tuesday-ish', '2025-13-45']) {
      expect(looksLikeDate(input)).toBe(false);
    }
  });
});
