/**
 * Calendar files as real producers write them (python icalendar's test calendars, BSD-2-Clause, in
 * test/fixtures/ics/python-icalendar/): what is fixed up is imported and told as a warning naming
 * its line, what cannot be read is refused naming its line, and no line can make the work unbounded.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseIcs, type IcsImportOptions, type IcsImportResult } from '../../../electron/server/icalendar/import';
import { shown } from './_shown';

const opts: IcsImportOptions = { siteZone: 'Europe/Lisbon', now: new Date('2026-11-25T00:00:00Z') };
const python = (name: string) => readFileSync(join(import.meta.dirname, '../../fixtures/ics/python-icalendar', name), 'utf8');
const calendar = (...lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const event = (...lines: string[]) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT'];
const spans = (r: IcsImportResult) => r.events.map((e) => [e.uid.split('#')[1] ?? e.uid, e.body.start_date, e.body.end_date]);
const lines = (problems: Array<{ line: number }>) => problems.map((p) => p.line);

/**
 * Parses and says how long it took: a refusal must come at once, not after the work it refuses
 * (which took minutes, or never ended); the margin is for a shared, busy machine.
 */
function timed(text: string) {
  const started = performance.now();
  const result = parseIcs(text, opts);
  return { result, ms: performance.now() - started };
}

describe('files as producers write them', () => {
  it('reads a file of bare VEVENTs (no VCALENDAR around them) as one calendar, and says so', () => {
    const result = parseIcs(python('events/event_with_unicode_fields.ics'), opts);
    expect(result.errors).toEqual([]);
    expect(result.events.length).toBeGreaterThan(0);
    expect(result.warnings[0]).toEqual({ line: 1, message: 'Line 1: the file starts with "BEGIN:VEVENT" instead of "BEGIN:VCALENDAR"; it was read as one calendar.' });
  });

  it('ignores a note after END:VCALENDAR, naming its line', () => {
    const result = parseIcs(python('calendars/issue_350.ics'), opts);
    expect(result.errors).toEqual([]);
    expect(result.events).toHaveLength(1);
    expect(result.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/^Line 36: "X-COMMENT:Cached .*" comes after the end of the calendar and was ignored\.$/)]);
  });

  it('reads DTSTART:20220101 (a date without VALUE=DATE) as that date', () => {
    const result = parseIcs(python('calendars/example.ics'), opts);
    expect(result.errors).toEqual([]);
    expect(spans(result)[0]).toEqual(['636a0cc1dbd5a1667894465@icalendar', '2022-01-01 00:00:00', '2022-01-01 23:59:59']);
    expect(result.events[0].body.all_day).toBe(true);
    expect(result.warnings[0].message).toBe('Line 10: "DTSTART:20220101" is a date written without VALUE=DATE; it was read as that date.');
  });

  it('gives each RDATE period its own end, and keeps DTSTART as the first occurrence', () => {
    // 19970109T180000Z/PT5H30M is folded over two lines.
    const result = parseIcs(python('events/issue_156_RDATE_with_PERIOD_list.ics'), opts);
    expect(result.errors).toEqual([]);
    expect(shown(result.events).map((e) => [e.body.start_date, e.body.end_date])).toEqual([
      ['1996-12-30 02:00:00', '1996-12-30 06:00:00'],
      ['1997-01-01 18:00:00', '1997-01-02 07:00:00'],
      ['1997-01-09 18:00:00', '1997-01-09 23:30:00'],
    ]);
    // With a TZID and a rule: the period's occurrence is 3 hours, the others DTEND's 2.
    const zoned = parseIcs(python('calendars/period_with_timezone.ics'), opts);
    expect(zoned.errors).toEqual([]);
    expect(shown(zoned.events).slice(2, 4).map((e) => [e.body.start_date, e.body.end_date])).toEqual([
      ['2023-11-15 12:00:00', '2023-11-15 14:00:00'],
      ['2023-12-13 12:00:00', '2023-12-13 15:00:00'],
    ]);
  });

  it('imports an RFC 7529 rule in another calendar system as its first occurrence, with a warning naming the line', () => {
    const result = parseIcs(python('calendars/rfc_7529.ics'), opts);
    expect(result.errors).toEqual([]);
    expect(lines(result.warnings)).toEqual([8, 14, 20, 26]);
    expect(result.warnings[0].message).toBe(
      'Line 8: "RRULE:RSCALE=CHINESE;FREQ=YEARLY" repeats the event in the Chinese calendar (RSCALE, RFC 7529), which Almanac cannot follow; only its first occurrence was imported.',
    );
    expect(result.events.filter((e) => e.body.title === 'Chinese New Year')).toHaveLength(1);
    // RSCALE=GREGORIAN is a plain rule: the leap-day anniversary repeats.
    expect(shown(result.events, '2040-01-01 00:00:00').filter((e) => e.uid === '4.3.4').length).toBeGreaterThan(3);
  });

  it('ignores an RDATE it cannot read (empty, VALUE=TIME) and imports the event, naming the line', () => {
    const empty = parseIcs(python('calendars/issue_1081_empty_rdate.ics'), opts);
    expect(empty.errors).toEqual([]);
    expect(empty.events).toHaveLength(1);
    expect(empty.warnings).toEqual([{ line: 7, message: 'Line 7: "RDATE:" is not a list of dates or times; it was ignored.' }]);
    const times = parseIcs(python('calendars/multiple_timezones.ics'), opts);
    expect(times.errors).toEqual([]);
    expect(times.events).toHaveLength(3);
    expect(times.warnings.map((w) => w.message)).toContain('Line 23: "RDATE;VALUE=TIME;TZID=America/New_York:083000" is not a list of dates or times; it was ignored.');
  });

  it('keeps the first of two DTSTART lines and names the second', () => {
    const result = parseIcs(calendar(...event('UID:two', 'SUMMARY:Twice', 'DTSTART:20250301T090000Z', 'DTSTART:20250302T090000Z', 'DTEND:20250301T100000Z')), opts);
    expect(result.errors).toEqual([]);
    expect(spans(result)).toEqual([['two', '2025-03-01 09:00:00', '2025-03-01 10:00:00']]);
    expect(result.warnings).toEqual([
      { line: 8, message: 'Line 8: "DTSTART:20250302T090000Z" is a second DTSTART in the event; it was ignored and the first one (line 7) kept.' },
    ]);
  });

  it('keeps two UID-less events with the same title and times as two events', () => {
    const same = event('SUMMARY:Stand-up', 'DTSTART:20250301T090000Z', 'DTEND:20250301T091500Z');
    const result = parseIcs(calendar(...same, ...same), opts);
    expect(result.errors).toEqual([]);
    expect(result.events).toHaveLength(2);
    expect(new Set(result.events.map((e) => e.uid)).size).toBe(2);
    // The same file read again gives the same UIDs, so a re-import updates both.
    expect(parseIcs(calendar(...same, ...same), opts).events.map((e) => e.uid)).toEqual(result.events.map((e) => e.uid));
  });

  it('refuses a rule ical.js cannot read, naming its line, and removes spaces a rule should not have', () => {
    const bad = parseIcs(python('calendars/issue_1081_invalid_rrule_freq.ics'), opts);
    expect(bad.events).toEqual([]);
    expect(bad.errors).toEqual([{ line: 7, message: expect.stringMatching(/^Line 7: "RRULE:FREQ=INVALID_TYPE_CAUSES_ERROR" could not be read \(invalid frequency/) }]);
    const spaced = parseIcs(python('calendars/issue_165_missing_event.ics'), opts);
    expect(spaced.errors).toEqual([]);
    expect(spaced.warnings).toContainEqual({ line: 25, message: expect.stringMatching(/^Line 25: the spaces in "RRULE:FREQ=DAILY;.*" were removed to read the rule\.$/) });
    expect(shown(spaced.events, '2040-01-01 00:00:00').length).toBeGreaterThan(10);
  });
});

describe('files without events say what they hold', () => {
  it.each([
    ['todos/example.ics', 'This file holds 1 task and no events; Almanac imports events only.'],
    ['journals/example.ics', 'This file holds 1 journal entry and no events; Almanac imports events only.'],
    ['calendars/issue_798_freebusy.ics', 'This file holds 3 free/busy lists and no events; Almanac imports events only.'],
    ['timezones/pacific_fiji.ics', 'This file holds 1 time zone and no events; Almanac imports events only.'],
    ['calendars/rfc_7953_3.ics', 'This file holds 3 availabilities and no events; Almanac imports events only.'],
    ['calendars/empty.ics', 'This calendar is empty: it holds no events.'],
  ])('%s', (name, message) => {
    const result = parseIcs(python(name), opts);
    expect(result.events).toEqual([]);
    expect(result.errors).toEqual([{ line: 1, message }]);
  });
});

describe('bounded work', () => {
  it('refuses a duration of more than 100 years at once, naming the line (it kept the server busy for minutes)', () => {
    const { result, ms } = timed(python('calendars/invalid_duration.ics'));
    expect(result.events).toEqual([]);
    expect(result.errors).toEqual([{ line: 8, message: 'Line 8: the duration "P999999999999999999W" is longer than 100 years, which no event lasts.' }]);
    expect(ms).toBeLessThan(1000);
    // An RDATE period's duration is bounded the same way; 99 years is still an event.
    const period = timed(calendar(...event('UID:p', 'DTSTART:20250101T000000Z', 'RDATE;VALUE=PERIOD:20250201T000000Z/P99999999D')));
    expect(period.result.errors).toEqual([{ line: 7, message: 'Line 7: the duration "P99999999D" is longer than 100 years, which no event lasts.' }]);
    expect(parseIcs(calendar(...event('UID:long', 'DTSTART:20250101T000000Z', 'DURATION:P5000W')), opts).errors).toEqual([]);
  });

  it('refuses a rule whose step is longer than 100 years (ical.js took a minute for one step)', () => {
    const { result, ms } = timed(calendar(...event('UID:r', 'DTSTART:20250101T000000Z', 'RRULE:FREQ=DAILY;INTERVAL=99999999')));
    expect(result.errors).toEqual([{ line: 7, message: 'Line 7: the rule\'s step (FREQ=DAILY;INTERVAL=99999999) is longer than 100 years.' }]);
    expect(ms).toBeLessThan(1000);
    // In a time zone's rules too: ical.js expands those for every time it converts.
    const zone = ['BEGIN:VTIMEZONE', 'TZID:Odd', 'BEGIN:STANDARD', 'DTSTART:19700101T000000', 'RRULE:FREQ=YEARLY;INTERVAL=1000', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0100', 'END:STANDARD', 'END:VTIMEZONE'];
    expect(lines(parseIcs(calendar(...zone, ...event('UID:z', 'DTSTART;TZID=Odd:20250101T090000')), opts).errors)).toEqual([8]);
  });

  it('keeps no rule that never repeats as written (ical.js searched for its next occurrence for ever): the event comes in once, with a warning naming the line', () => {
    const { result, ms } = timed(calendar(...event('UID:n', 'SUMMARY:Never', 'DTSTART:20250101T090000Z', 'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=31')));
    expect(result.errors).toEqual([]);
    expect(result.events.map((e) => [e.uid, e.body.start_date, e.body.recurrence])).toEqual([['n', '2025-01-01 09:00:00', undefined]]);
    expect(result.warnings).toEqual([
      {
        line: 8,
        message: 'Line 8: the repeat rule of "Never" cannot be kept (the rule never repeats as written (no next occurrence could be found)); its first occurrence was imported as a single event.',
      },
    ]);
    expect(ms).toBeLessThan(5000);
    // A rare rule that does repeat is searched as long as it needs: 29 February, day by day.
    const leap = parseIcs(calendar(...event('UID:l', 'SUMMARY:Leap', 'DTSTART:20240229T090000Z', 'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;COUNT=2')), opts);
    expect(leap.errors).toEqual([]);
    expect(leap.warnings).toEqual([]);
    expect(shown(leap.events).map((e) => e.body.start_date)).toEqual(['2024-02-29 09:00:00', '2028-02-29 09:00:00']);
  });

  it('refuses a time zone whose rule repeats more often than monthly (ical.js took a minute for an hourly one)', () => {
    const zone = ['BEGIN:VTIMEZONE', 'TZID:Odd', 'BEGIN:STANDARD', 'DTSTART:16010101T000000', 'RRULE:FREQ=HOURLY', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0100', 'END:STANDARD', 'END:VTIMEZONE'];
    const { result, ms } = timed(calendar(...zone, ...event('UID:z', 'DTSTART;TZID=Odd:20250101T090000', 'RRULE:FREQ=WEEKLY;COUNT=3')));
    expect(result.errors).toEqual([{ line: 8, message: "Line 8: a time zone's rule repeats hourly, but time zones change at most monthly." }]);
    expect(ms).toBeLessThan(1000);
  });

  it('refuses components nested too deep and a component with too many lines', () => {
    const deep = Array.from({ length: 20 }, (_, i) => `BEGIN:X-LEVEL${i}`);
    const nested = parseIcs(calendar(...deep, ...deep.map((b) => b.replace('BEGIN', 'END')).reverse()), opts);
    expect(nested.errors[0]).toEqual({ line: 19, message: 'Line 19: "BEGIN:X-LEVEL15" nests components more than 16 deep.' });
    const attendees = Array.from({ length: 20_001 }, (_, i) => `ATTENDEE:mailto:a${i}@example.org`);
    const big = parseIcs(calendar(...event('UID:big', 'DTSTART:20250101T090000Z', ...attendees)), opts);
    expect(big.errors).toEqual([{ line: 20_005, message: 'Line 20005: "BEGIN:VEVENT" at line 4 has more than 20,000 lines.' }]);
  });

  it('refuses a file of more than 64 time zones, and says how many unknown properties it left out past the first 20', () => {
    const zones = Array.from({ length: 70 }, (_, i) => event(`UID:z${i}`, `DTSTART;TZID=Zone ${i}:20250101T090000`)).flat();
    const many = parseIcs(calendar(...zones), opts);
    expect(many.errors).toEqual([{ line: 262, message: 'Line 262: time zone "Zone 64" is one more than the 64 different time zones a file may use.' }]);
    const unknown = Array.from({ length: 30 }, (_, i) => `ODD-${i}:x`);
    const result = parseIcs(calendar(...event('UID:u', 'SUMMARY:Odd', 'DTSTART:20250101T090000Z', ...unknown)), opts);
    expect(result.errors).toEqual([]);
    expect(result.warnings).toHaveLength(21);
    expect(result.warnings[20].message).toBe('10 more unknown properties were ignored.');
  });

  it('keeps no rule that makes more than 24 occurrences a day: each such event comes in once, with a warning', () => {
    const series = Array.from({ length: 12 }, (_, i) => event(`UID:s${i}`, 'SUMMARY:Tick', 'DTSTART:20250101T000000Z', 'RRULE:FREQ=MINUTELY'));
    const { result, ms } = timed(calendar(...series.flat()));
    expect(result.errors).toEqual([]);
    expect(result.events.map((e) => [e.uid, e.body.recurrence])).toEqual(Array.from({ length: 12 }, (_, i) => [`s${i}`, undefined]));
    expect(result.warnings.filter((w) => /more than 24 occurrences a day/.test(w.message))).toHaveLength(12);
    expect(ms).toBeLessThan(2000);
  });
});
