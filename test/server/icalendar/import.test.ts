import { readFileSync } from 'node:fs';
import ICAL from 'ical.js';
import { IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { parseIcs, type IcsImportOptions, type ImportedEvent } from '../../../electron/server/icalendar/import';
import { shown } from './_shown';
import { ianaZoneFor } from '../../../electron/server/icalendar/zones';
import { WINDOWS_ZONES } from '../../../electron/server/icalendar/windows-zones';
import { decodeImportFile } from '../../../electron/server/import-export/text-input';

const fixture = (name: string) => {
  const decoded = decodeImportFile(readFileSync(new URL(`../../fixtures/ics/${name}`, import.meta.url)));
  if ('error' in decoded) throw new Error(decoded.error);
  return decoded.text;
};
const opts: IcsImportOptions = { siteZone: 'Europe/Lisbon', now: new Date('2025-01-15T12:00:00Z') };
const calendar = (...lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const times = (events: ImportedEvent[]) => events.map((e) => [e.body.title, e.body.start_date, e.body.end_date, e.body.timezone]);


describe('Google Calendar export', () => {
  const result = parseIcs(fixture('google.ics'), opts);
  const items = result.events.filter((e) => e.uid === '5g8kq2m1c3v7l0p9r4t6b2n8hd@google.com');
  const series = shown(items);

  it('imports without problems', () => {
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(shown(result.events).map((e) => e.body.title)).toEqual([
      'Book Club',
      'Book Club',
      'Book Club (moved to Tuesday)',
      'Book Club',
      'Jazz Night',
      'Independence Day Picnic',
    ]);
  });

  it('keeps the weekly RRULE up to UNTIL, the EXDATE and the RECURRENCE-ID override, which the calendar shows like this', () => {
    expect(times(series)).toEqual([
      ['Book Club', '2025-03-03 18:30:00', '2025-03-03 20:00:00', 'America/New_York'],
      ['Book Club', '2025-03-10 18:30:00', '2025-03-10 20:00:00', 'America/New_York'],
      ['Book Club (moved to Tuesday)', '2025-03-25 19:00:00', '2025-03-25 20:30:00', 'America/New_York'],
      ['Book Club', '2025-03-31 18:30:00', '2025-03-31 20:00:00', 'America/New_York'],
    ]);
  });

  it('keeps the series one series: its master with the rule, and the moved occurrence keyed by its original start', () => {
    expect(items.map((e) => [e.recurrenceId, e.body.recurrence, e.line])).toEqual([
      [undefined, { rules: ['FREQ=WEEKLY;BYDAY=MO;WKST=SU;UNTIL=20250331T223000Z'], rdates: [], exdates: ['20250317T183000'] }, 26],
      // The override keeps the key of the occurrence it replaces and reports its own VEVENT line.
      ['2025-03-24 18:30:00', undefined, 54],
    ]);
    expect(parseIcs(fixture('google.ics'), opts).events.map((e) => e.uid)).toEqual(result.events.map((e) => e.uid));
  });

  it('reads the venue from LOCATION with escaped commas, the organizer (not the attendees) and HTML description', () => {
    expect({ ...items[0].body, recurrence: undefined }).toEqual({
      title: 'Book Club',
      // Google's popup reminder (issue 16).
      reminders: [{ action: 'display', trigger: '-PT30M', description: 'This is an event reminder' }],
      description: 'This month: <b>The Overstory</b>. Bring your copy.<br>Snacks provided, coffee too.',
      start_date: '2025-03-03 18:30:00',
      end_date: '2025-03-03 20:00:00',
      timezone: 'America/New_York',
      all_day: false,
      date_utc: '2025-02-15 14:05:01',
      venue: { venue: 'Riverside Library, 12 Elm Street, Springfield, MA 01103, USA' },
      organizer: [{ organizer: 'Riverside Book Club', email: 'bookclub@example.org' }],
    });
  });

  it('imports the all-day event with an inclusive end day in the site zone', () => {
    expect(result.events.find((e) => e.body.title === 'Independence Day Picnic')).toEqual({
      uid: '0c2f7d9e1a3b5c7d9e1f3a5b7c@google.com',
      line: 70,
      body: {
        title: 'Independence Day Picnic',
        start_date: '2025-07-04 00:00:00',
        end_date: '2025-07-04 23:59:59',
        timezone: 'Europe/Lisbon',
        all_day: true,
        date_utc: '2025-01-10 08:00:00',
        venue: { venue: 'Riverside Park' },
      },
    });
  });

  it('shows a UTC event in the calendar’s X-WR-TIMEZONE', () => {
    expect(result.events.find((e) => e.body.title === 'Jazz Night')?.body).toMatchObject({
      start_date: '2025-04-10 19:00:00',
      end_date: '2025-04-10 21:00:00',
      timezone: 'America/New_York',
      description: 'Live quartet; doors open at 6:30.',
      venue: { venue: 'The Blue Note, 131 W 3rd St, New York, NY 10012, USA' },
    });
  });

  it('keeps a series whole whatever the window: the calendar makes its occurrences', () => {
    const windowed = parseIcs(fixture('google.ics'), {
      ...opts,
      window: { start: new Date('2025-03-09T00:00:00Z'), end: new Date('2025-03-30T00:00:00Z') },
    });
    expect(windowed.events.map((e) => [e.uid, e.recurrenceId])).toEqual(result.events.map((e) => [e.uid, e.recurrenceId]));
  });
});

describe('Outlook / Exchange export', () => {
  const result = parseIcs(fixture('outlook.ics'), opts);

  it('imports without problems', () => {
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it('maps Windows zone names in TZID to IANA zones and keeps the wall times', () => {
    expect(times(shown(result.events))).toEqual([
      ['Quarterly Planning', '2025-06-12 09:00:00', '2025-06-12 10:30:00', 'America/Los_Angeles'],
      ['Berlin Partner Call', '2025-06-13 16:00:00', '2025-06-13 17:00:00', 'Europe/Berlin'],
      ['Team Standup', '2025-06-16 09:30:00', '2025-06-16 09:45:00', 'America/Los_Angeles'],
      // COUNT=3 counts the EXDATE'd Wednesday too.
      ['Company Offsite', '2025-06-20 00:00:00', '2025-06-20 23:59:59', 'Europe/Lisbon'],
      ['Team Standup', '2025-06-23 09:30:00', '2025-06-23 09:45:00', 'America/Los_Angeles'],
    ]);
  });

  it('takes DESCRIPTION when the HTML of X-ALT-DESC says less than it (their words differ)', () => {
    // Outlook's HTML here lacks the agenda DESCRIPTION has: the standard property is the truth.
    expect(result.events[0].body.description).toBe(
      'Quarterly planning with the regional team. Please review the budget figures before the meeting and bring your questions about the third-quarter forecast, the hiring plan and travel.\n\nAgenda:\n1. Budget\n2. Hiring\n3. Travel',
    );
    expect(result.events[1].body.description).toBe('Call with the Berlin partners.');
  });

  it('prefers the HTML of X-ALT-DESC (its body only) while it says what DESCRIPTION says', () => {
    const text = fixture('outlook.ics').replace(
      /DESCRIPTION;LANGUAGE=en-US:Quarterly planning[\s\S]*?Travel\\n\r\n/,
      'DESCRIPTION;LANGUAGE=en-US:Quarterly planning with the regional team.\\n\\nAgenda: budget\\, hiring\\, travel\\n\r\n',
    );
    expect(parseIcs(text, opts).events[0].body.description).toBe(
      '<P><SPAN LANG="en-us"><FONT FACE="Calibri">Quarterly planning with the regional team.</FONT></SPAN></P>\n\n' +
        '<P><SPAN LANG="en-us"><B>Agenda:</B> budget, hiring, travel</SPAN></P>',
    );
  });

  it('reads an organizer whose CN contains a comma, and the location', () => {
    expect(result.events[0].body.organizer).toEqual([{ organizer: 'Morgan, Alex', email: 'alex.morgan@contoso.example' }]);
    expect(result.events[0].body.venue).toEqual({ venue: 'Conference Room 4B' });
    expect(result.events.find((e) => e.body.title === 'Company Offsite')?.body.all_day).toBe(true);
  });
});

describe('Thunderbird export', () => {
  const result = parseIcs(fixture('thunderbird.ics'), opts);

  it('imports categories (several values, several properties), GEO and non-ASCII text', () => {
    expect(result.errors).toEqual([]);
    expect(result.events[0].body).toEqual({
      title: 'Repair Café',
      reminders: [{ action: 'display', trigger: '-PT15M', description: 'Default Mozilla Description' }],
      description: 'Bring broken toasters, lamps and bikes.\nVolunteers fix them together with you – free of charge.',
      start_date: '2025-05-17 14:00:00',
      end_date: '2025-05-17 17:00:00',
      timezone: 'Europe/Berlin',
      all_day: false,
      date_utc: '2025-05-01 08:15:00',
      categories: ['Community', 'Workshop', 'Sustainability'],
      venue: { venue: 'Nachbarschaftshaus Urbanstraße', geo_lat: 52.4919, geo_lng: 13.4181 },
      organizer: [{ organizer: 'Nachbarschaftsverein Kreuzberg', email: 'info@nachbarn-kreuzberg.example' }],
    });
    expect(result.events[1].body.categories).toEqual(['Outdoors', 'Family', 'Astronomy']);
  });

  it('puts floating times in the site zone, unchanged', () => {
    expect(times([result.events[1]])).toEqual([['Stargazing', '2025-06-06 22:00:00', '2025-06-06 23:59:00', 'Europe/Lisbon']]);
    const elsewhere = parseIcs(fixture('thunderbird.ics'), { ...opts, siteZone: 'Asia/Tokyo' });
    expect(times([elsewhere.events[1]])).toEqual([['Stargazing', '2025-06-06 22:00:00', '2025-06-06 23:59:00', 'Asia/Tokyo']]);
  });
});

describe('Apple Calendar export', () => {
  const result = parseIcs(fixture('apple.ics'), opts);

  it('imports a three-day DATE event with its last day as the end', () => {
    expect(result.errors).toEqual([]);
    expect(result.events[0].body).toEqual({
      title: 'Developer Conference',
      description: 'Three days of talks and workshops.',
      start_date: '2025-06-09 00:00:00',
      end_date: '2025-06-11 23:59:59',
      timezone: 'Europe/Lisbon',
      all_day: true,
      date_utc: '2025-03-20 10:00:00',
      website: 'https://conf.example.com/2025',
      venue: {
        venue: 'Moscone Center',
        address: '747 Howard St, San Francisco CA 94103, United States',
        geo_lat: 37.784173,
        geo_lng: -122.401557,
      },
    });
  });

  it('imports the timed event in its TZID', () => {
    expect(times([result.events[1]])).toEqual([
      ['Keynote Watch Party', '2025-06-09 10:00:00', '2025-06-09 12:00:00', 'America/Los_Angeles'],
    ]);
  });
});

describe('ical.js sample calendars', () => {
  const sample = (name: string, options: Partial<IcsImportOptions> = {}) => parseIcs(fixture(`icaljs/${name}`), { ...opts, ...options });

  it('computes the end from DURATION, or from DTSTART alone', () => {
    expect(times(sample('duration_instead_of_dtend.ics').events)).toEqual([
      ['Really long event name thing', '2012-06-30 06:00:00', '2012-07-01 06:00:00', 'America/Los_Angeles'],
    ]);
    expect(times(sample('only_dtstart_time.ics').events)).toEqual([
      ['Really long event name thing', '2012-06-30 06:00:00', '2012-06-30 06:00:00', 'America/Los_Angeles'],
    ]);
    expect(sample('only_dtstart_date.ics').events[0].body).toMatchObject({
      start_date: '2012-06-30 00:00:00',
      end_date: '2012-06-30 23:59:59',
      all_day: true,
    });
  });

  it('removes a DATE EXDATE from a UTC daily series', () => {
    const result = sample('rdate_exdate.ics', { now: new Date('2024-06-01T00:00:00Z') });
    expect(shown(result.events).map((e) => [e.uid, e.body.start_date, e.body.timezone])).toEqual([
      ['123', '2024-06-09 04:00:00', 'Europe/Lisbon'],
      ['123', '2024-06-10 04:00:00', 'Europe/Lisbon'],
      ['123', '2024-06-12 04:00:00', 'Europe/Lisbon'],
    ]);
  });

  it('combines RRULE, RDATE, EXDATE and moved RECURRENCE-ID instances', () => {
    const result = sample('recur_instances.ics');
    expect(result.errors).toEqual([]);
    const inWindow = shown(result.events, '2013-01-31 00:00:00').filter((e) => e.body.start_date >= '2012-10-01');
    expect(inWindow.map((e) => [e.recurrenceId, e.body.start_date, e.line])).toEqual([
      ['2012-10-02 10:00:00', '2012-10-02 15:00:00', 59],
      ['2012-11-06 10:00:00', '2012-11-06 10:00:00', 24],
      ['2012-11-05 10:00:00', '2012-11-06 20:00:00', 79],
      ['2012-11-10 10:00:00', '2012-11-10 10:00:00', 24],
      ['2012-11-30 10:00:00', '2012-11-30 10:00:00', 24],
      ['2013-01-01 10:00:00', '2013-01-01 10:00:00', 24],
    ]);
    // The second VTIMEZONE has no TZID: reported, not fatal.
    expect(result.warnings).toEqual([]);
  });

  it('merges several RRULEs of one event', () => {
    const result = sample('multiple_rrules.ics');
    const dates = shown(result.events).map((e) => e.body.start_date.slice(0, 10));
    expect(dates.slice(0, 4)).toEqual(['2012-03-26', '2012-04-01', '2012-04-02', '2012-04-08']);
    // Each rule runs to its own UNTIL (ical.js's own expansion stopped both at the first that
    // ended, which lost the monthly rule's Sunday the 29th).
    // The monthly rule makes every Sunday; the weekly one's last Monday is the 23rd (UNTIL is
    // 06:59:59 UTC on the 30th, before that day's 11:00).
    expect(dates.slice(-3)).toEqual(['2012-07-22', '2012-07-23', '2012-07-29']);
  });

  it('imports Google birthdays: RDATEs before DTSTART, and overrides without their series', () => {
    const result = sample('google_birthday.ics');
    expect(shown(result.events).map((e) => [e.uid, e.recurrenceId ?? '', e.body.start_date])).toEqual([
      ['2014_BIRTHDAY_79d389868f96182e@google.com', '2012-12-10 00:00:00', '2012-12-10 00:00:00'],
      ['BIRTHDAY_79d389868f96182e@google.com', '2012-12-10 00:00:00', '2012-12-10 00:00:00'],
      ['2014_BIRTHDAY_79d389868f96182e@google.com', '2013-12-10 00:00:00', '2013-12-10 00:00:00'],
      ['BIRTHDAY_79d389868f96182e@google.com', '2013-12-10 00:00:00', '2013-12-10 00:00:00'],
      ['2014_BIRTHDAY_79d389868f96182e@google.com', '2014-12-10 00:00:00', '2014-12-10 00:00:00'],
      ['BIRTHDAY_79d389868f96182e@google.com', '2014-12-10 00:00:00', '2014-12-10 00:00:00'],
    ]);
  });

  it('converts times in a zone only the file defines into the site zone, with a warning', () => {
    const result = sample('timezone_from_file.ics');
    // 13:42 at UTC-07:41 is 21:23 UTC, which is Lisbon time in March.
    expect(times(result.events)).toEqual([['A test event', '2023-03-06 21:23:00', '2023-03-06 22:23:00', 'Europe/Lisbon']]);
    expect(result.warnings.map((w) => w.message)).toEqual([
      expect.stringContaining('"Nowhere/Middle" is not a known zone'),
      expect.stringContaining('has no UID'),
    ]);
    // A UID-less event still gets the same UID on every import.
    expect(sample('timezone_from_file.ics').events[0].uid).toBe(result.events[0].uid);
  });

  it('keeps an endless series one item with its rule, whatever today is', () => {
    const result = sample('daily_recur.ics', { now: new Date('2012-08-10T00:00:00Z') });
    expect(result.events.map((e) => [e.body.start_date, e.body.recurrence])).toEqual([['2012-08-01 05:00:00', { rules: ['FREQ=DAILY'], rdates: [], exdates: [] }]]);
    expect(result.warnings).toEqual([]);
    expect(sample('daily_recur.ics', { now: new Date('2020-01-01T00:00:00Z') }).events).toEqual(result.events);
  });
});

describe('time zones', () => {
  const event = (...lines: string[]) => calendar('BEGIN:VEVENT', 'UID:tz-test', 'SUMMARY:Zone test', ...lines, 'END:VEVENT');

  it('maps Windows and vendor-prefixed TZIDs even without a VTIMEZONE', () => {
    const windows = parseIcs(event('DTSTART;TZID=W. Europe Standard Time:20250106T090000', 'DTEND;TZID=W. Europe Standard Time:20250106T100000'), opts);
    expect(times(windows.events)).toEqual([['Zone test', '2025-01-06 09:00:00', '2025-01-06 10:00:00', 'Europe/Berlin']]);
    const mozilla = parseIcs(event('DTSTART;TZID=/mozilla.org/20050126_1/America/New_York:20250106T090000'), opts);
    expect(mozilla.events[0].body.timezone).toBe('America/New_York');
  });

  it('treats an unknown TZID without a definition as site time, with a warning', () => {
    const result = parseIcs(event('DTSTART;TZID=Atlantis Standard Time:20250106T090000'), opts);
    expect(times(result.events)).toEqual([['Zone test', '2025-01-06 09:00:00', '2025-01-06 09:00:00', 'Europe/Lisbon']]);
    expect(result.warnings).toEqual([{ line: 7, message: expect.stringContaining('"Atlantis Standard Time" is unknown') }]);
  });

  it('expresses a DTEND in another zone in the start’s zone', () => {
    const flight = parseIcs(event('DTSTART;TZID=Europe/Lisbon:20250601T100000', 'DTEND;TZID=America/New_York:20250601T123000'), opts);
    expect(times(flight.events)).toEqual([['Zone test', '2025-06-01 10:00:00', '2025-06-01 17:30:00', 'Europe/Lisbon']]);
  });

  it('compares a UTC UNTIL, EXDATE and RECURRENCE-ID with local occurrences correctly', () => {
    const result = parseIcs(
      calendar(
        'BEGIN:VEVENT',
        'UID:weekly',
        'SUMMARY:Weekly',
        'DTSTART;TZID=Europe/Berlin:20250106T090000',
        'DTEND;TZID=Europe/Berlin:20250106T100000',
        // 09:00 in Berlin is 08:00 UTC: the 27th is the last occurrence.
        'RRULE:FREQ=WEEKLY;UNTIL=20250127T080000Z',
        'EXDATE:20250113T080000Z',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'UID:weekly',
        'SUMMARY:Weekly (late)',
        'RECURRENCE-ID:20250120T080000Z',
        'DTSTART;TZID=Europe/Berlin:20250120T110000',
        'DTEND;TZID=Europe/Berlin:20250120T120000',
        'END:VEVENT',
      ),
      opts,
    );
    expect(shown(result.events).map((e) => [e.recurrenceId, e.body.title, e.body.start_date])).toEqual([
      ['2025-01-06 09:00:00', 'Weekly', '2025-01-06 09:00:00'],
      ['2025-01-20 09:00:00', 'Weekly (late)', '2025-01-20 11:00:00'],
      ['2025-01-27 09:00:00', 'Weekly', '2025-01-27 09:00:00'],
    ]);
  });

  it('leaves no time zones registered with ical.js behind', () => {
    parseIcs(fixture('outlook.ics'), opts);
    parseIcs(event('DTSTART;TZID=Europe/Berlin:20250106T090000'), opts);
    expect(ICAL.TimezoneService.has('Pacific Standard Time')).toBe(false);
    expect(ICAL.TimezoneService.has('Europe/Berlin')).toBe(false);
    expect(ICAL.TimezoneService.has('UTC')).toBe(true);
  });

  it('has a valid IANA zone for every Windows zone name', () => {
    const invalid = Object.entries(WINDOWS_ZONES).filter(([, iana]) => !IANAZone.isValidZone(iana));
    expect(invalid).toEqual([]);
    expect(ianaZoneFor('Pacific Standard Time')).toBe('America/Los_Angeles');
    expect(ianaZoneFor('w. europe standard time')).toBe('Europe/Berlin');
    expect(ianaZoneFor('"India Standard Time"')).toBe('Asia/Kolkata');
    expect(ianaZoneFor('UTC+2')).toBe('Etc/GMT-2');
    expect(ianaZoneFor('GMT-05:00')).toBe('Etc/GMT+5');
    expect(ianaZoneFor('Customized Time Zone')).toBeUndefined();
  });
});

describe('statuses', () => {
  it('imports a cancelled event as a draft and drops a cancelled occurrence', () => {
    const result = parseIcs(
      calendar(
        'BEGIN:VEVENT', 'UID:gone', 'SUMMARY:Called off', 'STATUS:CANCELLED', 'DTSTART:20250301T100000Z', 'END:VEVENT',
        'BEGIN:VEVENT', 'UID:daily', 'SUMMARY:Daily', 'DTSTART:20250301T100000Z', 'RRULE:FREQ=DAILY;COUNT=3', 'END:VEVENT',
        'BEGIN:VEVENT', 'UID:daily', 'SUMMARY:Daily', 'STATUS:CANCELLED', 'RECURRENCE-ID:20250302T100000Z', 'DTSTART:20250302T100000Z', 'END:VEVENT',
        'BEGIN:VEVENT', 'UID:secret', 'SUMMARY:Private', 'CLASS:PRIVATE', 'DTSTART:20250301T100000Z', 'END:VEVENT',
      ),
      opts,
    );
    expect(shown(result.events).map((e) => [e.uid, e.body.start_date.slice(0, 10), e.body.status])).toEqual([
      ['gone', '2025-03-01', 'draft'],
      ['daily', '2025-03-01', undefined],
      ['secret', '2025-03-01', 'private'],
      ['daily', '2025-03-03', undefined],
    ]);
    expect(result.events.find((e) => e.uid === 'daily')?.body.recurrence?.exdates).toEqual(['20250302T100000']);
    expect(result.warnings).toEqual([{ line: 4, message: expect.stringContaining('cancelled (STATUS:CANCELLED); it was imported as a draft') }]);
  });
});

describe('bad files', () => {
  it('refuses a calendar without events, naming what it has instead', () => {
    const result = parseIcs(calendar('BEGIN:VTODO', 'UID:1', 'SUMMARY:Buy milk', 'END:VTODO'), opts);
    expect(result.events).toEqual([]);
    expect(result.errors).toEqual([{ line: 1, message: 'This file holds 1 task and no events; Almanac imports events only.' }]);
    const more = calendar('BEGIN:VTODO', 'END:VTODO', 'BEGIN:VTODO', 'END:VTODO', 'BEGIN:VJOURNAL', 'END:VJOURNAL', 'BEGIN:VTIMEZONE', 'TZID:X', 'END:VTIMEZONE');
    expect(parseIcs(more, opts).errors).toEqual([
      { line: 1, message: 'This file holds 2 tasks, 1 journal entry and 1 time zone, and no events; Almanac imports events only.' },
    ]);
    expect(parseIcs(fixture('icaljs/blank_line_end.ics'), opts).errors).toEqual([{ line: 1, message: 'This calendar is empty: it holds no events.' }]);
  });

  it('names the line that lost its folding space', () => {
    const text = calendar(
      'BEGIN:VEVENT',
      'UID:1',
      'DTSTART:20250101T100000Z',
      'DESCRIPTION:This description was folded by a careless',
      'program and lost its leading space',
      'END:VEVENT',
    );
    const result = parseIcs(text, opts);
    expect(result.events).toEqual([]);
    expect(result.errors).toEqual([
      {
        line: 8,
        message:
          'Line 8 is not a valid iCalendar line (no ":" separator; a folded line must start with a space): "program and lost its leading space".',
      },
    ]);
  });

  it('warns about an unknown property that is probably an unfolded line', () => {
    const result = parseIcs(calendar('BEGIN:VEVENT', 'UID:1', 'DTSTART:20250101T100000Z', 'SUMMARY:Party', 'Note: bring snacks', 'END:VEVENT'), opts);
    expect(result.events).toHaveLength(1);
    expect(result.warnings).toEqual([{ line: 8, message: expect.stringContaining('unknown property "Note" ignored') }]);
  });

  it('recognises a truncated file (no END:VCALENDAR) and says where it ends', () => {
    const whole = fixture('google.ics');
    const cut = whole.slice(0, whole.indexOf('SUMMARY:Jazz Night'));
    const result = parseIcs(cut, opts);
    expect(result.events).toEqual([]);
    expect(result.errors).toEqual([
      {
        line: 95,
        message: 'The file ends at line 95 inside VCALENDAR (line 1) > VEVENT (line 84): it looks truncated (missing END:VEVENT, END:VCALENDAR).',
      },
    ]);
  });

  it('reports a line cut in the middle as well as the truncation', () => {
    const result = parseIcs('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTA', opts);
    expect(result.errors.map((e) => e.line)).toEqual([4, 4]);
    expect(result.errors[0].message).toContain('"DTSTA"');
  });

  it('refuses a file that is not iCalendar at all', () => {
    expect(parseIcs('Subject,Start Date\nLunch,2025-01-01\n', opts).errors).toEqual([
      { line: 1, message: 'This is not an iCalendar file: line 1 should be "BEGIN:VCALENDAR" but is "Subject,Start Date".' },
    ]);
    expect(parseIcs('', opts).errors).toEqual([{ line: 1, message: 'The file is empty.' }]);
  });

  it('reports mismatched END lines', () => {
    const result = parseIcs('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:1\r\nEND:VTODO\r\nEND:VCALENDAR\r\n', opts);
    expect(result.errors[0]).toEqual({ line: 4, message: 'Line 4: "END:VTODO" does not close "BEGIN:VEVENT" from line 2.' });
  });

  it('skips an event with an unreadable date, naming its line, and imports the rest', () => {
    const result = parseIcs(
      calendar(
        'BEGIN:VEVENT', 'UID:1', 'SUMMARY:Good', 'DTSTART:20250101T100000Z', 'END:VEVENT',
        'BEGIN:VEVENT', 'UID:2', 'SUMMARY:Bad', 'DTSTART:2025-garbage', 'END:VEVENT',
        'BEGIN:VEVENT', 'UID:3', 'SUMMARY:No start', 'END:VEVENT',
      ),
      opts,
    );
    expect(result.events.map((e) => e.body.title)).toEqual(['Good']);
    expect(result.errors).toEqual([
      { line: 12, message: 'Line 12: the event "Bad" (starting at line 9) was not imported: "DTSTART:2025-garbage" could not be read (invalid date-time value).' },
      { line: 14, message: 'Line 14: the event "No start" was not imported: it has no start date (DTSTART), which every event needs.' },
    ]);
  });

  it('tolerates blank lines and LF-only line ends', () => {
    const text = calendar('BEGIN:VEVENT', 'UID:1', '', 'SUMMARY:Loose', 'DTSTART:20250101T100000Z', 'END:VEVENT').replace(/\r\n/g, '\n');
    const result = parseIcs(text, opts);
    expect(result.errors).toEqual([]);
    expect(result.events[0].body.title).toBe('Loose');
  });
});
