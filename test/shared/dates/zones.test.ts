import { describe, it, expect, afterEach } from 'vitest';
import { DateTime } from 'luxon';
import { isValidTimeZone, systemTimeZone, zoneFor, timezoneAbbr } from '../../../shared/dates/zones';

describe('isValidTimeZone', () => {
  it.each(['America/New_York', 'Europe/Lisbon', 'Asia/Kolkata', 'UTC', 'UTC+2', 'UTC-5', 'UTC+5:30', 'UTC+05:30', 'UTC+0', 'UTC-12', 'UTC+14'])(
    'accepts %j',
    (zone) => expect(isValidTimeZone(zone)).toBe(true),
  );

  it.each(['', 'garbage', 'Mars/Phobos', 'EST5EDTX', 'UTC+15', 'UTC+5:60', 'UTC+5.5', '+02:00', 'America/New York'])(
    'refuses %j',
    (zone) => expect(isValidTimeZone(zone)).toBe(false),
  );
});

describe('systemTimeZone', () => {
  const saved = process.env.TZ;
  afterEach(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });

  it('uses TZ when it names a valid zone', () => {
    process.env.TZ = 'Asia/Tokyo';
    expect(systemTimeZone()).toBe('Asia/Tokyo');
    process.env.TZ = ':Europe/Paris';
    expect(systemTimeZone()).toBe('Europe/Paris');
  });

  it('ignores an invalid TZ and still answers a valid zone', () => {
    process.env.TZ = 'Not/AZone';
    const zone = systemTimeZone();
    expect(zone).not.toBe('Not/AZone');
    expect(isValidTimeZone(zone)).toBe(true);
  });

  it('answers a valid zone without TZ', () => {
    delete process.env.TZ;
    expect(isValidTimeZone(systemTimeZone())).toBe(true);
  });
});

describe('zoneFor', () => {
  const noonUtc = DateTime.fromISO('2025-03-14T12:00:00Z');

  it('gives luxon the fixed offsets, including half hours', () => {
    expect(noonUtc.setZone(zoneFor('UTC+5:30')).toFormat('HH:mm')).toBe('17:30');
    expect(noonUtc.setZone(zoneFor('UTC+05:30')).toFormat('HH:mm')).toBe('17:30');
    expect(noonUtc.setZone(zoneFor('UTC-5')).toFormat('HH:mm')).toBe('07:00');
    expect(noonUtc.setZone(zoneFor('UTC+0')).toFormat('HH:mm')).toBe('12:00');
  });

  it('gives luxon the IANA zones with their summer time', () => {
    const ny = zoneFor('America/New_York');
    expect(ny.offset(Date.parse('2025-01-15T12:00:00Z'))).toBe(-300);
    expect(ny.offset(Date.parse('2025-07-15T12:00:00Z'))).toBe(-240);
  });

  it('throws on an invalid zone', () => {
    expect(() => zoneFor('Mars/Phobos')).toThrow(RangeError);
  });
});

describe('timezoneAbbr', () => {
  // [zone, in January, in July], as PHP's date('T') prints them.
  const table: Array<[string, string, string]> = [
    ['America/New_York', 'EST', 'EDT'],
    ['America/Los_Angeles', 'PST', 'PDT'],
    ['Europe/Berlin', 'CET', 'CEST'],
    ['Europe/Paris', 'CET', 'CEST'],
    ['Europe/London', 'GMT', 'BST'],
    ['Europe/Lisbon', 'WET', 'WEST'],
    ['Europe/Dublin', 'GMT', 'IST'],
    ['UTC', 'UTC', 'UTC'],
    ['Australia/Sydney', 'AEDT', 'AEST'],
    ['Asia/Tokyo', 'JST', 'JST'],
    ['Asia/Kolkata', 'IST', 'IST'],
    ['Asia/Calcutta', 'IST', 'IST'],
    ['Asia/Shanghai', 'CST', 'CST'],
    ['Europe/Moscow', 'MSK', 'MSK'],
    ['America/St_Johns', 'NST', 'NDT'],
    ['Africa/Johannesburg', 'SAST', 'SAST'],
    // zones whose tz database entry has no letters
    ['America/Sao_Paulo', '-03', '-03'],
    ['Asia/Kathmandu', '+0545', '+0545'],
    ['Asia/Dubai', '+04', '+04'],
    ['Asia/Singapore', '+08', '+08'],
    ['Pacific/Chatham', '+1345', '+1245'],
  ];

  it.each(table)('%s: %s in winter, %s in summer (northern)', (zone, january, july) => {
    expect(timezoneAbbr(zone, '2025-01-15 12:00:00')).toBe(january);
    expect(timezoneAbbr(zone, '2025-07-15 12:00:00')).toBe(july);
  });

  it('changes at the instant of the change', () => {
    expect(timezoneAbbr('America/New_York', '2025-03-09 06:59:59')).toBe('EST');
    expect(timezoneAbbr('America/New_York', '2025-03-09 07:00:00')).toBe('EDT');
    expect(timezoneAbbr('America/New_York', '2025-11-02 05:59:59')).toBe('EDT');
    expect(timezoneAbbr('America/New_York', '2025-11-02 06:00:00')).toBe('EST');
  });

  it('gives a fixed offset as it was written', () => {
    expect(timezoneAbbr('UTC+2', '2025-01-15 12:00:00')).toBe('UTC+2');
    expect(timezoneAbbr('UTC-5', '2025-07-15 12:00:00')).toBe('UTC-5');
    expect(timezoneAbbr('UTC+5:30', '2025-07-15 12:00:00')).toBe('UTC+5:30');
  });
});
