import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../../shared/api/records';
import { exportIcs } from '../../../electron/server/icalendar/export';
import { foldLine } from '../../../electron/server/icalendar/text';
import { vtimezoneLines } from '../../../electron/server/icalendar/vtimezone';
import { event, organizer, term, venue } from '../import-export/records';

const exportText = (events: Event[], opts: Partial<Parameters<typeof exportIcs>[1]> = {}) =>
  exportIcs(events, { uidHost: 'almanac.test', ...opts });

const concert = event({
  id: 12,
  title: 'Rock, Paper; Scissors \\ Co',
  start_date: '2025-03-14 19:00:00',
  end_date: '2025-03-14 21:30:00',
  timezone: 'America/New_York',
  description: '<p>Line one,\nstill one; and a backslash \\</p><p>Café “quotes” — ünïcödé, 日本語のテキスト、長い説明文がここに続きます。</p>',
  venue: venue({ id: 201, venue: 'Town Hall', address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701', country: 'United States', geo_lat: 39.8017, geo_lng: -89.6436 }),
  organizer: [organizer({ id: 301, organizer: 'Arts Council', email: 'info@arts.example.org' })],
  categories: [term(31, 'Music', 'categories')],
  tags: [term(40, 'loud', 'tags')],
});
const fair = event({ id: 13, title: 'Harvest Fair', all_day: true, start_date: '2025-10-03 00:00:00', end_date: '2025-10-05 23:59:59', timezone: 'Europe/Lisbon' });
const call = event({ id: 14, title: 'Standup', start_date: '2025-06-02 09:00:00', end_date: '2025-06-02 09:15:00', timezone: 'UTC', status: 'draft' });
const berlin = event({ id: 15, title: 'Berlin', start_date: '2026-01-10 10:00:00', end_date: '2026-01-10 11:00:00', timezone: 'Europe/Berlin', status: 'private' });
const all = [concert, fair, call, berlin];

function vevents(text: string) {
  const root = new ICAL.Component(ICAL.parse(text));
  return { root, events: root.getAllSubcomponents('vevent') };
}

describe('exportIcs', () => {
  const text = exportText(all, { calendarName: 'Almanac; main' });

  it('writes a calendar ical.js parses back, one VEVENT per event', () => {
    const { root, events } = vevents(text);
    expect(root.name).toBe('vcalendar');
    expect(root.getFirstPropertyValue('version')).toBe('2.0');
    expect(root.getFirstPropertyValue('prodid')).toBe('-//Almanac//Almanac Calendar//EN');
    expect(text).toContain('X-WR-CALNAME:Almanac\\; main\r\n');
    expect(events.map((e) => e.getFirstPropertyValue('summary'))).toEqual([concert.title, 'Harvest Fair', 'Standup', 'Berlin']);
    for (const e of events) {
      for (const name of ['uid', 'dtstamp', 'dtstart', 'dtend', 'created', 'last-modified', 'status']) expect(e.hasProperty(name)).toBe(true);
    }
  });

  it('uses CRLF line ends and folds lines at 75 octets without splitting characters', () => {
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = text.split('\r\n').slice(0, -1);
    const encoder = new TextEncoder();
    const decoder = new TextDecoder('utf-8', { fatal: true });
    for (const line of lines) {
      const bytes = encoder.encode(line);
      expect(bytes.length).toBeLessThanOrEqual(75);
      expect(() => decoder.decode(bytes)).not.toThrow();
    }
    // The long multi-byte description really was folded.
    expect(lines.filter((l) => l.startsWith(' ')).length).toBeGreaterThan(3);
  });

  it('escapes commas, semicolons, backslashes and newlines in text', () => {
    const unfolded = text.replace(/\r\n /g, '');
    expect(unfolded).toContain('SUMMARY:Rock\\, Paper\\; Scissors \\\\ Co\r\n');
    expect(unfolded).toMatch(/^X-ALT-DESC;FMTTYPE=text\/html;X-ALMANAC-DESCRIPTION-HASH=\w+:<p>Line one\\,\\nstill one\\; and a backslash \\\\<\/p>/m);
    const e = vevents(text).events[0];
    expect(e.getFirstPropertyValue('summary')).toBe('Rock, Paper; Scissors \\ Co');
    expect(e.getFirstPropertyValue('description')).toBe(
      // A line break in the HTML's source is a space to a reader.
      'Line one, still one; and a backslash \\\n\nCafé “quotes” — ünïcödé, 日本語のテキスト、長い説明文がここに続きます。',
    );
    expect(e.getFirstPropertyValue('location')).toBe('Town Hall, 1 Main St, Springfield, IL 62701, United States');
    expect(e.getFirstPropertyValue('geo')).toEqual([39.8017, -89.6436]);
    expect(e.getFirstProperty('organizer')?.getParameter('cn')).toBe('Arts Council');
    expect(e.getFirstPropertyValue('organizer')).toBe('mailto:info@arts.example.org');
    expect(e.getFirstProperty('categories')?.getValues()).toEqual(['Music', 'loud']);
  });

  it('writes all-day events as DATE values with the day after the last day as DTEND', () => {
    expect(text).toContain('DTSTART;VALUE=DATE:20251003\r\nDTEND;VALUE=DATE:20251006\r\n');
    const e = new ICAL.Event(vevents(text).events[1]);
    expect(e.startDate.isDate).toBe(true);
    expect(e.endDate.toString()).toBe('2025-10-06');
  });

  it('writes UTC events with Z times and zoned events with a TZID', () => {
    expect(text).toContain('DTSTART:20250602T090000Z\r\nDTEND:20250602T091500Z\r\n');
    expect(text).toContain('DTSTART;TZID=America/New_York:20250314T190000\r\n');
  });

  it('includes one VTIMEZONE for each TZID used, and no others', () => {
    const { root } = vevents(text);
    const defined = root.getAllSubcomponents('vtimezone').map((z) => z.getFirstPropertyValue('tzid'));
    const used = new Set([...text.matchAll(/;TZID=([^:;]+)[:;]/g)].map((m) => m[1]));
    expect(defined.sort()).toEqual([...used].sort());
    expect(defined.sort()).toEqual(['America/New_York', 'Europe/Berlin']);
  });

  it('gives the zoned times the right UTC instants', () => {
    const { root, events } = vevents(text);
    for (const zone of root.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
    try {
      const instants = events.map((e) => new ICAL.Event(e).startDate.toJSDate().toISOString());
      expect(instants[0]).toBe('2025-03-14T23:00:00.000Z');
      expect(instants[3]).toBe('2026-01-10T09:00:00.000Z');
    } finally {
      ICAL.TimezoneService.remove('America/New_York');
      ICAL.TimezoneService.remove('Europe/Berlin');
    }
  });

  it('keeps the UID when the event is edited, and uses the imported UID when there is one', () => {
    const edited = { ...concert, title: 'Renamed', start_date: '2025-04-01 10:00:00', end_date: '2025-04-01 11:00:00' };
    const uid = (t: string) => /UID:(.*)\r\n/.exec(t)?.[1];
    expect(uid(exportText([concert]))).toBe('almanac-12@almanac.test');
    expect(uid(exportText([edited]))).toBe('almanac-12@almanac.test');
    expect(uid(exportText([concert], { uidOf: (e) => (e.id === 12 ? 'abc@google.com#20250314T190000' : undefined) }))).toBe(
      'abc@google.com#20250314T190000',
    );
  });

  it('maps statuses and writes our own fields as X-ALMANAC properties', () => {
    const { events } = vevents(text);
    expect(events.map((e) => e.getFirstPropertyValue('status'))).toEqual(['CONFIRMED', 'CONFIRMED', 'TENTATIVE', 'CONFIRMED']);
    expect(events[3].getFirstPropertyValue('class')).toBe('PRIVATE');
    const unfolded = text.replace(/\r\n /g, '');
    for (const line of [
      'X-ALMANAC-STATUS:draft',
      'X-ALMANAC-TAGS:loud',
      'X-ALMANAC-TIMEZONE:Europe/Lisbon',
      'X-ALMANAC-VENUE;ADDRESS="1 Main St";CITY=Springfield;STATE=IL;ZIP=62701;COUNTRY="United States":Town Hall',
      'X-ALMANAC-ORGANIZER;EMAIL=info@arts.example.org:Arts Council',
    ]) {
      expect(unfolded).toContain(`${line}\r\n`);
    }
    // Flags that are not set are not written (X-ALMANAC-STATUS says the event is Almanac's).
    expect(unfolded).not.toMatch(/^X-ALMANAC-(FEATURED|STICKY|HIDE-FROM-LISTINGS|SHOW-MAP|SHOW-MAP-LINK):/m);
    // The website falls back to the permalink when unset: that is not worth exporting.
    expect(text).not.toMatch(/^URL:/m);
  });
});

describe('foldLine', () => {
  it('folds at 75 octets, then 74 after the leading space, counting UTF-8 bytes', () => {
    expect(foldLine('A'.repeat(75))).toBe('A'.repeat(75));
    expect(foldLine('A'.repeat(76))).toBe(`${'A'.repeat(75)}\r\n A`);
    expect(foldLine('A'.repeat(75 + 74 + 1))).toBe(`${'A'.repeat(75)}\r\n ${'A'.repeat(74)}\r\n A`);
    // 25 three-byte characters fill 75 octets exactly; the 26th goes to the next line whole.
    expect(foldLine('語'.repeat(26))).toBe(`${'語'.repeat(25)}\r\n 語`);
    expect(foldLine(`${'A'.repeat(74)}😀`)).toBe(`${'A'.repeat(74)}\r\n 😀`);
  });
});

describe('vtimezoneLines', () => {
  // Zones with northern and southern DST, none, abolished DST, odd offsets and Ramadan changes.
  const zones = [
    'America/New_York',
    'Europe/Berlin',
    'Australia/Sydney',
    'Asia/Kolkata',
    'America/Sao_Paulo',
    'Africa/Casablanca',
    'Pacific/Chatham',
    'America/St_Johns',
    'Europe/Dublin',
    'UTC+5:30',
  ];

  it.each(zones)('%s: every local noon from 2017 to 2027 maps to the same instant as in Intl', (zone) => {
    const tzid = `Test/${zone}`;
    const component = new ICAL.Component(ICAL.parse(vtimezoneLines(zone, 2017, 2027, tzid).join('\r\n')));
    const timezone = new ICAL.Timezone(component);
    const mismatches: string[] = [];
    for (let day = DateTime.utc(2017, 1, 1); day.year <= 2027; day = day.plus({ days: 1 })) {
      const noon = { year: day.year, month: day.month, day: day.day, hour: 12, minute: 0, second: 0 };
      const expected = DateTime.fromObject(noon, { zone }).toSeconds();
      const actual = ICAL.Time.fromData({ ...noon, isDate: false }, timezone).toUnixTime();
      if (actual !== expected) mismatches.push(`${day.toISODate()}: ${actual - expected}s`);
    }
    expect(mismatches).toEqual([]);
  });

  it('folds regular transitions into yearly rules and leaves the current rule open-ended', () => {
    const lines = vtimezoneLines('Europe/Berlin', 2024, 2026);
    expect(lines).toContain('RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU');
    expect(lines).toContain('RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU');
    expect(lines.filter((l) => l.startsWith('BEGIN:DAYLIGHT'))).toHaveLength(1);
    // Brazil stopped DST in 2019: its last rule is closed with UNTIL.
    const brazil = vtimezoneLines('America/Sao_Paulo', 2016, 2022);
    expect(brazil.filter((l) => l.startsWith('RRULE:')).every((l) => l.includes('UNTIL='))).toBe(true);
  });
});
