/**
 * The zone the calendar is drawn in (renderer/src/lib/dates.ts) and the one formatter every view
 * prints times with (renderer/src/lib/format.ts): with Madrid chosen, instants land on Madrid's
 * clock and days whatever this process's zone; with none chosen, on the computer's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { dayOf, intlZone, midnightOf, plusDays, setViewerZone, systemZone, todayIso, viewerZone } from '../../renderer/src/lib/dates';
import { describeSpan, formatDay, formatInstant, offsetMinutes, shortTime, shownDay, timeAgo } from '../../renderer/src/lib/format';
import { localDayNumber, layoutMonth, dayNumberOf } from '../../renderer/src/calendar/monthCollapse';
import { rangeQuery } from '../../renderer/src/api/client';
import { chosenZoneOf } from '../../renderer/src/state/calendarSettings';
import type { Event } from '@shared/api/records';

const NO_FILTERS = { categories: [], tags: [], venues: [], organizers: [], featured: false, search: '', calendars: null };

afterEach(() => void setViewerZone(null));

describe('the calendar zone', () => {
  it('is the computer\'s until one is chosen, and an unknown zone falls back to it', () => {
    expect(viewerZone()).toBe(systemZone());
    expect(setViewerZone('Europe/Madrid')).toBe(true);
    expect(viewerZone()).toBe('Europe/Madrid');
    expect(setViewerZone('Europe/Madrid')).toBe(false);
    setViewerZone('Mars/Olympus_Mons');
    expect(viewerZone()).toBe(systemZone());
  });

  it('an unset setting (the server answers its own zone) means the computer\'s', () => {
    expect(chosenZoneOf({ timezone: 'UTC', system_timezone: 'UTC' })).toBeNull();
    expect(chosenZoneOf({ timezone: 'Europe/Madrid', system_timezone: 'UTC' })).toBe('Europe/Madrid');
    expect(chosenZoneOf({ timezone: '', system_timezone: 'UTC' })).toBeNull();
  });

  it('prints an instant on the chosen clock, with the clock the locale asks for', () => {
    setViewerZone('Europe/Madrid');
    // 09:00 in New York in January is 14:00 UTC, 15:00 in Madrid.
    expect(formatInstant('2031-01-15 14:00:00', 'en-US-u-hc-h23')).toBe('15:00');
    // Kept on one line: "3:00" and "PM" joined by a no-break space.
    expect(formatInstant('2031-01-15 14:00:00', 'en-US-u-hc-h12')).toBe('3:00\u00a0PM');
    expect(formatInstant(Date.UTC(2031, 1, 3, 23, 30), 'en-US-u-hc-h23', 'dateTimeWeekday')).toBe('Tue, Feb 4, 2031, 00:30');
    expect(shownDay('2031-02-03 23:30:00')).toBe('2031-02-04');
    expect(shortTime(Date.UTC(2031, 0, 15, 14), 'en-US')).toBe('3p');
    expect(shortTime(Date.UTC(2031, 0, 15, 14, 30), 'en-US-u-hc-h23')).toBe('15:30');
    setViewerZone('Asia/Tokyo');
    // The same minute of the day in another zone is not served from the Madrid text.
    expect(shortTime(Date.UTC(2031, 0, 15, 14), 'en-US')).toBe('11p');
  });

  it('a date is printed as it is, whatever the zone', () => {
    setViewerZone('Pacific/Kiritimati');
    expect(formatDay('2031-01-15', 'en-US')).toBe('Wednesday, January 15, 2031');
    setViewerZone('Pacific/Pago_Pago');
    expect(formatDay('2031-01-15 00:00:00', 'en-US', 'short')).toBe('Wed, Jan 15');
  });

  it('days, midnights and day moves follow the chosen zone, across a DST change', () => {
    setViewerZone('Europe/Madrid');
    expect(dayOf(Date.UTC(2031, 0, 15, 23, 30))).toBe('2031-01-16');
    expect(midnightOf('2031-03-29').toISOString()).toBe('2031-03-28T23:00:00.000Z');
    expect(midnightOf('2031-03-29', 2).toISOString()).toBe('2031-03-30T22:00:00.000Z');
    // 10:00 Madrid the day before summer time, moved a day: still 10:00 on Madrid's clock.
    expect(plusDays(new Date('2031-03-29T09:00:00Z'), 1).toISOString()).toBe('2031-03-30T08:00:00.000Z');
    expect(todayIso(new Date('2031-01-15T23:30:00Z'))).toBe('2031-01-16');
    expect(offsetMinutes(Date.UTC(2031, 6, 1))).toBe(120);
    expect(localDayNumber(Date.UTC(2031, 0, 15, 23, 30))).toBe(dayNumberOf('2031-01-16'));
  });

  it('a month cell holds the events of its day on the chosen clock', () => {
    const e = { id: 1, all_day: false, sticky: false, title: 'Late call', utc_start_date: '2031-02-03 23:30:00', utc_end_date: '2031-02-04 00:00:00' } as Event;
    const first = dayNumberOf('2031-02-01');
    const dayWith = (weeks: ReturnType<typeof layoutMonth>) => weeks.flatMap((w) => w.days).find((d) => d.lines.length)?.day;
    setViewerZone('America/New_York');
    expect(dayWith(layoutMonth([e], first, 4))).toBe('2031-02-03');
    setViewerZone('Europe/Madrid');
    expect(dayWith(layoutMonth([e], first, 4))).toBe('2031-02-04');
  });

  it('asks the server for a range in wall times of the chosen zone, a day of margin each side', () => {
    setViewerZone('Europe/Madrid');
    const q = rangeQuery({ start: midnightOf('2031-01-12'), end: midnightOf('2031-01-19') }, NO_FILTERS);
    expect(q).toMatchObject({ ends_after: '2031-01-11 00:00:00', starts_before: '2031-01-20 00:00:00' });
  });

  it('names fixed offsets as Intl and Temporal do', () => {
    expect(intlZone('UTC+2')).toBe('Etc/GMT-2');
    expect(intlZone('UTC-5')).toBe('Etc/GMT+5');
    expect(intlZone('UTC+5:30')).toBe('+05:30');
    expect(intlZone('Europe/Madrid')).toBe('Europe/Madrid');
    setViewerZone('UTC+5.5');
    expect(formatInstant('2031-01-15 00:00:00', 'en-US-u-hc-h23')).toBe('05:30');
    expect(DateTime.local().zoneName).toBe('UTC+5:30');
  });
});

describe('the last sync in words', () => {
  const now = Date.parse('2031-03-12T12:00:00Z');
  it('in the interface language', () => {
    expect(timeAgo('2031-03-12T11:59:58Z', 'en', now)).toBe('now');
    expect(timeAgo('2031-03-12T11:55:00Z', 'en', now)).toBe('5 minutes ago');
    expect(timeAgo('2031-03-11T12:00:00Z', 'en', now)).toBe('yesterday');
    expect(timeAgo('2031-03-12T09:00:00Z', 'pt-BR', now)).toBe('há 3 horas');
    expect(timeAgo('2031-03-12T11:55:00Z', 'es', now)).toBe('hace 5 minutos');
  });
});

describe('a span in words (quick create, quick add, the details card)', () => {
  it('times on the chosen clock whatever zone the span is kept in; all-day dates as they are', () => {
    setViewerZone('Europe/Madrid');
    expect(describeSpan({ start_date: '2031-03-12 08:00:00', end_date: '2031-03-12 09:00:00', all_day: false, timezone: 'UTC' }, 'en', 'All day')).toMatch(/^Wednesday, March 12, 2031 · 9:00\sAM – 10:00\sAM$/);
    expect(describeSpan({ start_date: '2031-03-12 23:00:00', end_date: '2031-03-13 01:00:00', all_day: false, timezone: 'Europe/Madrid' }, 'en', 'All day')).toMatch(/^Mar 12, 2031, 11:00\s?PM – Mar 13, 2031, 1:00\s?AM$/);
    expect(describeSpan({ start_date: '2031-03-12 00:00:00', end_date: '2031-03-12 23:59:59', all_day: true, timezone: 'Pacific/Auckland' }, 'es', 'Todo el día')).toBe('miércoles, 12 de marzo de 2031 · Todo el día');
    expect(describeSpan({ start_date: '2031-03-12 00:00:00', end_date: '2031-03-14 23:59:59', all_day: true, timezone: 'UTC' }, 'en', 'All day')).toBe('Wednesday, March 12, 2031 – Friday, March 14, 2031 · All day');
  });
});
