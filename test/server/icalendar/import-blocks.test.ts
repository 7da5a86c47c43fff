// The importer reads each VEVENT with ical.js on its own (the file is scanned once for where they
// are). These check that how the events are laid out in the file does not change what is read.
import { describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { parseIcs, type IcsImportOptions, type IcsImportResult } from '../../../electron/server/icalendar/import';
import { jcalOfLines } from '../../../electron/server/icalendar/vevent-jcal';

const opts: IcsImportOptions = { siteZone: 'Europe/Lisbon', now: new Date('2025-01-15T12:00:00Z') };

const vtimezone = [
  'BEGIN:VTIMEZONE', 'TZID:Island Time', 'BEGIN:STANDARD', 'DTSTART:19700101T000000',
  'TZOFFSETFROM:+0130', 'TZOFFSETTO:+0130', 'TZNAME:IT', 'END:STANDARD', 'END:VTIMEZONE',
];
const master = [
  'BEGIN:VEVENT', 'UID:series-1', 'SUMMARY:Weekly in a zone of the file’s own', 'DTSTART;TZID=Island Time:20250106T090000',
  'DTEND;TZID=Island Time:20250106T100000', 'RRULE:FREQ=WEEKLY;COUNT=5', 'EXDATE;TZID=Island Time:20250113T090000', 'END:VEVENT',
];
const override = [
  'BEGIN:VEVENT', 'UID:series-1', 'RECURRENCE-ID;TZID=Island Time:20250120T090000', 'SUMMARY:Moved',
  'DTSTART;TZID=Island Time:20250121T110000', 'DTEND;TZID=Island Time:20250121T120000', 'END:VEVENT',
];
const odd = [
  ['BEGIN:VEVENT', 'UID;X-SOURCE=x:with-parameter', 'SUMMARY:UID with a parameter', 'DTSTART:20250301T100000Z', 'END:VEVENT'],
  ['BEGIN:VEVENT', 'UID:', 'SUMMARY:Empty UID', 'DTSTART;VALUE=DATE:20250302', 'END:VEVENT'],
  ['BEGIN:VEVENT', 'UID:escaped\\, uid\\;', 'SUMMARY:Escaped UID', 'DTSTART:20250303T100000', 'END:VEVENT'],
  ['BEGIN:VEVENT', 'UID:folded', 'SUMMARY:A long title folded', ' over two lines', 'DTSTART:20250304T100000Z', 'END:VEV', ' ENT'],
  ['BEGIN:VEVENT', 'UID:alarm', 'SUMMARY:With an alarm', 'DTSTART:20250305T100000Z', 'BEGIN:VALARM', 'ACTION:DISPLAY', 'TRIGGER:-PT5M', 'DESCRIPTION:x', 'END:VALARM', 'END:VEVENT'],
];
const plain = Array.from({ length: 300 }, (_, i) => [
  'BEGIN:VEVENT', `UID:plain-${i}@test`, `SUMMARY:Event ${i} café`, `DTSTART:202504${String(1 + (i % 28)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}0000Z`,
  'DURATION:PT1H', `LOCATION:Hall ${i % 7}\\, Lisbon`, 'END:VEVENT',
]);

const calendar = (parts: string[][], eol = '\r\n', head = '') =>
  head + ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', ...parts.flat(), 'END:VCALENDAR', ''].join(eol);
/** What is read, without line numbers and order (which depend on the layout). */
const content = (r: IcsImportResult) => ({
  events: r.events.map(({ line: _line, ...e }) => e).sort((a, b) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0)),
  errors: r.errors.length,
  warnings: r.warnings.map((w) => w.message.replace(/Line \d+|line \d+/g, 'L')).sort(),
});

describe('reading each VEVENT on its own', () => {
  const usual = calendar([vtimezone, master, override, ...odd, ...plain]);
  const expected = parseIcs(usual, opts);

  it('reads the usual layout without problems', () => {
    expect(expected.errors).toEqual([]);
    // The series (its master and its moved occurrence), 5 odd ones, 300 plain ones.
    expect(expected.events).toHaveLength(2 + 5 + 300);
    expect(expected.events.find((e) => e.uid === 'series-1' && e.recurrenceId !== undefined)?.body.title).toBe('Moved');
    expect(expected.events.find((e) => e.body.title === 'UID with a parameter')?.uid).toBe('with-parameter');
    expect(expected.events.find((e) => e.body.title === 'Escaped UID')?.uid).toBe('escaped, uid;');
    expect(expected.events.find((e) => e.body.title === 'A long title foldedover two lines')).toBeTruthy();
  });

  it('gives the same events whatever the order, line endings, blank lines and BOM', () => {
    const layouts = [
      calendar([...plain.slice(0, 150), master, ...odd, ...plain.slice(150), override, vtimezone]),
      calendar([vtimezone, master, override, ...odd, ...plain], '\n', '\uFEFF'),
      calendar([vtimezone, master, override, ...odd, ...plain], '\r'),
      calendar([vtimezone, master, override, ...odd, ...plain].map((b) => [...b, '']), '\r\n'),
    ];
    for (const text of layouts) expect(content(parseIcs(text, opts))).toEqual(content(expected));
  });

  it('keeps the line numbers of the file in messages, far into it', () => {
    const bad = ['BEGIN:VEVENT', 'UID:bad', 'SUMMARY:Bad start', 'DTSTART:2025XX01T100000Z', 'END:VEVENT'];
    const text = calendar([vtimezone, ...plain, bad]);
    const line = text.split('\r\n').indexOf('DTSTART:2025XX01T100000Z') + 1;
    const result = parseIcs(text, opts);
    expect(result.events).toHaveLength(300);
    expect(result.errors.map((e) => e.line)).toEqual([line]);
    expect(result.errors[0].message).toMatch(new RegExp(`^Line ${line}: the event "Bad start" \\(starting at line ${line - 3}\\)`));
  });

  it('names the end property ical.js read when an end cannot be read', () => {
    // `BEGIN;X-A=1:VALARM` has a parameter, so to ical.js it is a property, not a component: the
    // DTEND after it is the event's own, and the message must name it (it once said DURATION).
    const event = ['BEGIN:VEVENT', 'UID:end', 'SUMMARY:Bad end', 'DTSTART:20250101T100000Z', 'BEGIN;X-A=1:VALARM', 'DTEND:garbage', 'END:VALARM', 'END:VEVENT'];
    const result = parseIcs(calendar([event]), opts);
    expect(result.events).toHaveLength(0);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0].message).toMatch(/"Bad end".*DTEND could not be read/);
  });

  it('refuses a file ical.js cannot read with the first problem in it, wherever the events are read', () => {
    // The series is read first (its UID comes first), with its override at the end of the file;
    // the file's first problem is in between.
    const series = ['BEGIN:VEVENT', 'UID:s', 'SUMMARY:S', 'DTSTART:20250106T090000Z', 'RRULE:FREQ=WEEKLY;COUNT=2', 'END:VEVENT'];
    const first = ['BEGIN:VEVENT', 'UID:b1', 'SUMMARY:B1', 'DTSTART:20250106T090000Z', 'RRULE:FREQ=FIRSTLY', 'END:VEVENT'];
    const later = ['BEGIN:VEVENT', 'UID:s', 'RECURRENCE-ID:20250113T090000Z', 'SUMMARY:S2', 'DTSTART:20250114T090000Z', 'RRULE:FREQ=LATERLY', 'END:VEVENT'];
    const result = parseIcs(calendar([series, ...plain.slice(0, 20), first, ...plain.slice(20, 40), later]), opts);
    expect(result.events).toEqual([]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ line: 1 });
    expect(result.errors[0].message).toMatch(/^The file could not be read as iCalendar: .*FIRSTLY/);
    // An ignored duplicate is read too.
    const duplicate = ['BEGIN:VEVENT', 'UID:plain-3@test', 'SUMMARY:Dup', 'DTSTART:20250106T090000Z', 'RRULE:FREQ=DUPLY', 'END:VEVENT'];
    const dup = parseIcs(calendar([...plain.slice(0, 10), duplicate]), opts);
    expect(dup.errors[0].message).toMatch(/^The file could not be read as iCalendar: .*DUPLY/);
  });
});

describe('reading a VEVENT without ical.js’s whole-text parser', () => {
  // jcalOfLines builds what ICAL.parse builds; a difference would change what is imported.
  const lines = [
    'BEGIN:VEVENT', 'UID:same@test', 'uid:lower-case-name', 'SUMMARY:Comma\\, semicolon\\; backslash\\\\ and\\nnewline',
    'DTSTAMP:20261122T172553Z', 'DTSTART;TZID=Europe/Lisbon:20251122T000000', 'DTEND;VALUE=DATE:20251123', 'DTSTART:20250101',
    'CREATED:20250101T000000', 'GEO:39.99962670169771;-6.320353580871597', 'CATEGORIES:a,b\\,c,d', 'CATEGORIES:',
    'X-ALMANAC-VENUE;ADDRESS="68 community street";CITY=Lisbon:family hall', 'X-ALMANAC-COST:5€\\,6€', 'X-EMPTY:',
    'ORGANIZER;CN="A ^\'quoted^\' name":mailto:a@example.org', 'URL:https://example.org/a;b', 'RRULE:FREQ=WEEKLY;COUNT=5',
    'EXDATE:20250108T090000Z,20250115T090000Z', 'DURATION:PT1H', 'STATUS:CONFIRMED', 'CLASS:PRIVATE', 'ATTACH;FMTTYPE=image/png:https://x.test/i.png',
    'BEGIN:VALARM', 'ACTION:DISPLAY', 'TRIGGER:-PT5M', 'END:VALARM', 'END:VEVENT  ',
  ];

  it('gives the jCal ICAL.parse gives', () => {
    expect(jcalOfLines(lines)).toEqual(ICAL.parse(lines.join('\r\n') + '\r\n'));
  });

  it('leaves what is not a lone VEVENT to ICAL.parse', () => {
    for (const unusual of [['UID:before-begin', ...lines], [...lines, 'BEGIN:VEVENT', 'END:VEVENT'], ['BEGIN:VEVENT', 'BEGIN:VCARD', 'END:VCARD', 'END:VEVENT'], lines.slice(0, -1)]) {
      expect(() => jcalOfLines(unusual)).toThrow();
    }
  });
});
