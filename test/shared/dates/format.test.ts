import { describe, it, expect } from 'vitest';
import { DateTime } from 'luxon';
import {
  WP_FORMAT,
  formatLocal,
  localToUtc,
  utcToLocal,
  dateDetails,
  startOfDay,
  endOfDay,
} from '../../../shared/dates/format';

describe('formatLocal', () => {
  it('writes Y-m-d H:i:s with zero padding, in the DateTime\'s own zone', () => {
    const dt = DateTime.fromObject({ year: 2025, month: 3, day: 4, hour: 5, minute: 6, second: 7 }, { zone: 'Asia/Kolkata' });
    expect(formatLocal(dt)).toBe('2025-03-04 05:06:07');
    expect(formatLocal(dt.setZone('UTC'))).toBe('2025-03-03 23:36:07');
  });

  it('reads back with WP_FORMAT', () => {
    const dt = DateTime.fromFormat('2025-12-31 23:59:59', WP_FORMAT, { zone: 'UTC' });
    expect(dt.isValid).toBe(true);
    expect(dt.toISO()).toBe('2025-12-31T23:59:59.000Z');
  });
});

describe('localToUtc / utcToLocal', () => {
  it('converts in IANA and fixed-offset zones', () => {
    expect(localToUtc('2025-03-14 19:00:00', 'America/New_York')).toBe('2025-03-14 23:00:00');
    expect(localToUtc('2025-01-14 19:00:00', 'America/New_York')).toBe('2025-01-15 00:00:00');
    expect(localToUtc('2025-03-14 19:00:00', 'Asia/Kolkata')).toBe('2025-03-14 13:30:00');
    expect(localToUtc('2025-03-14 19:00:00', 'UTC+5:30')).toBe('2025-03-14 13:30:00');
    expect(localToUtc('2025-03-14 19:00:00', 'UTC')).toBe('2025-03-14 19:00:00');
    expect(utcToLocal('2025-03-14 23:00:00', 'America/New_York')).toBe('2025-03-14 19:00:00');
    expect(utcToLocal('2025-03-14 12:00:00', 'Asia/Kathmandu')).toBe('2025-03-14 17:45:00');
    expect(utcToLocal('2025-03-14 12:00:00', 'UTC-5')).toBe('2025-03-14 07:00:00');
  });

  it('moves a time in a spring-forward gap forward by the gap, as PHP does', () => {
    expect(localToUtc('2025-03-09 02:30:00', 'America/New_York')).toBe('2025-03-09 07:30:00');
    expect(utcToLocal('2025-03-09 07:30:00', 'America/New_York')).toBe('2025-03-09 03:30:00');
    // Lord Howe moves by half an hour.
    expect(utcToLocal(localToUtc('2025-10-05 02:15:00', 'Australia/Lord_Howe'), 'Australia/Lord_Howe')).toBe('2025-10-05 02:45:00');
  });

  it('reads a repeated hour as PHP does', () => {
    expect(localToUtc('2025-11-02 01:30:00', 'America/New_York')).toBe('2025-11-02 05:30:00');
    expect(localToUtc('2025-10-26 01:30:00', 'Europe/London')).toBe('2025-10-26 01:30:00');
  });

  const zones = ['America/New_York', 'Europe/London', 'Australia/Sydney', 'Asia/Kolkata', 'America/Santiago', 'UTC+5:30'];
  // Every quarter hour of the days around 2025's changes in those zones, and every 7h13m (which
  // drifts through all hours of the day) in the rest of the year.
  const changeDays = ['2025-03-09', '2025-11-02', '2025-03-30', '2025-10-26', '2025-04-06', '2025-10-05', '2025-04-05', '2025-09-06', '2025-09-07'];
  const instantSet = new Set<number>();
  for (const day of changeDays) {
    const start = Date.parse(`${day}T00:00:00Z`) - 86_400_000;
    for (let ms = start; ms < start + 3 * 86_400_000; ms += 15 * 60_000) instantSet.add(ms);
  }
  for (let ms = Date.UTC(2025, 0, 1); ms < Date.UTC(2026, 0, 1); ms += (7 * 60 + 13) * 60_000) instantSet.add(ms);
  const instants = [...instantSet];
  const asText = (ms: number) => formatLocal(DateTime.fromMillis(ms, { zone: 'UTC' }));

  it('UTC → local → UTC gives the same instant, or the same wall time in a repeated hour', () => {
    let repeated = 0;
    for (const zone of zones) {
      for (const ms of instants) {
        const utc = asText(ms);
        const local = utcToLocal(utc, zone);
        const back = localToUtc(local, zone);
        if (back !== utc) {
          repeated++;
          expect(utcToLocal(back, zone)).toBe(local);
        }
      }
    }
    expect(repeated).toBeGreaterThan(0);
  });

  it('local → UTC → local gives the same wall time except inside spring-forward gaps', () => {
    const moved: string[] = [];
    for (const zone of zones) {
      for (const ms of instants) {
        const local = asText(ms);
        const again = utcToLocal(localToUtc(local, zone), zone);
        if (again !== local) {
          // Only skipped times move, and only forward by the size of the change (an hour here).
          const minutes = DateTime.fromFormat(again, WP_FORMAT, { zone: 'UTC' })
            .diff(DateTime.fromFormat(local, WP_FORMAT, { zone: 'UTC' }), 'minutes').minutes;
          expect(minutes).toBe(60);
          moved.push(`${zone} ${local.slice(0, 13)}`);
        }
      }
    }
    // The hour each zone skips in 2025, four quarter hours each.
    expect([...new Set(moved)].sort()).toEqual([
      'America/New_York 2025-03-09 02',
      'America/Santiago 2025-09-07 00',
      'Australia/Sydney 2025-10-05 02',
      'Europe/London 2025-03-30 01',
    ]);
    expect(moved).toHaveLength(16);
  });

  it('refuses strings that are not Y-m-d H:i:s', () => {
    expect(() => localToUtc('tomorrow', 'UTC')).toThrow(RangeError);
    expect(() => utcToLocal('14/03/2025', 'UTC')).toThrow(RangeError);
  });
});

describe('dateDetails', () => {
  it('splits a date into the API\'s zero-padded strings', () => {
    expect(dateDetails('2025-03-04 05:06:07')).toEqual({
      year: '2025', month: '03', day: '04', hour: '05', minutes: '06', seconds: '07',
    });
    expect(dateDetails('2025-12-31 23:59:59')).toEqual({
      year: '2025', month: '12', day: '31', hour: '23', minutes: '59', seconds: '59',
    });
  });
});

describe('startOfDay / endOfDay', () => {
  it('set the time to the first and last second of the same day', () => {
    expect(startOfDay('2025-03-14 19:45:12')).toBe('2025-03-14 00:00:00');
    expect(endOfDay('2025-03-14 19:45:12')).toBe('2025-03-14 23:59:59');
    expect(startOfDay('2025-03-14')).toBe('2025-03-14 00:00:00');
    expect(endOfDay('2025-02-28 00:00:00')).toBe('2025-02-28 23:59:59');
  });
});
