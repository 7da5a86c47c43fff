/**
 * VALARMs in iCalendar import and export (issue 16): Google's, Thunderbird's and Apple's alarms
 * become reminders, come out as VALARMs again, and a second import gives the same reminders: the
 * properties Almanac does not model (Apple's UID, ACKNOWLEDGED, ATTACH) come back as they were.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type request from 'supertest';
import { startTestServer, type TestServer } from '../../helpers/server';

const python = (name: string) => readFileSync(join(import.meta.dirname, '../../fixtures/ics/python-icalendar', name), 'utf8');
const asText = (res: NodeJS.ReadableStream, cb: (err: Error | null, body: string) => void) => {
  let d = '';
  res.setEncoding('utf8');
  res.on('data', (c: string) => (d += c));
  res.on('end', () => cb(null, d));
};
const download = (t: request.Test) => t.buffer(true).parse(asText as never);

/** Apple Calendar's alarms: an AUDIO one with its sound, UIDs, and a day-before one for an all-day event. */
const APPLE = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Apple Inc.//macOS 14.4//EN',
  'BEGIN:VEVENT',
  'UID:5E1D3F0A-7C1B-4D7E-9A55-0C6C2B1F9D10',
  'DTSTAMP:20310101T090000Z',
  'DTSTART;VALUE=DATE:20310410',
  'DTEND;VALUE=DATE:20310411',
  'SUMMARY:Passport renewal',
  'BEGIN:VALARM',
  'X-WR-ALARMUID:0B9E6B63-2F0E-4B8E-B1C9-3C1F0F5B2A11',
  'UID:0B9E6B63-2F0E-4B8E-B1C9-3C1F0F5B2A11',
  'TRIGGER:-PT15H',
  'ATTACH;VALUE=URI:Chord',
  'ACTION:AUDIO',
  'X-APPLE-DEFAULT-ALARM:TRUE',
  'ACKNOWLEDGED:20310101T090000Z',
  'END:VALARM',
  'BEGIN:VALARM',
  'UID:7A0D1F55-3B7E-4C2A-9E1F-6B5D4C3A2B10',
  'TRIGGER;VALUE=DATE-TIME:20310409T070000Z',
  'DESCRIPTION:Reminder',
  'ACTION:DISPLAY',
  'END:VALARM',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

/** A repeating event whose one occurrence has alarms of its own, with REPEAT/DURATION and RELATED=END. */
const SERIES = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Almanac test//EN',
  'BEGIN:VEVENT',
  'UID:weekly-with-alarms@example.org',
  'DTSTAMP:20310101T090000Z',
  'DTSTART;TZID=Europe/Lisbon:20310303T180000',
  'DTEND;TZID=Europe/Lisbon:20310303T190000',
  'RRULE:FREQ=WEEKLY;COUNT=4',
  'SUMMARY:Choir',
  'BEGIN:VALARM',
  'ACTION:DISPLAY',
  'TRIGGER:-PT30M',
  'REPEAT:2',
  'DURATION:PT5M',
  'DESCRIPTION:Choir soon',
  'END:VALARM',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:weekly-with-alarms@example.org',
  'DTSTAMP:20310101T090000Z',
  'RECURRENCE-ID;TZID=Europe/Lisbon:20310310T180000',
  'DTSTART;TZID=Europe/Lisbon:20310310T180000',
  'DTEND;TZID=Europe/Lisbon:20310310T190000',
  'SUMMARY:Choir',
  'BEGIN:VALARM',
  'ACTION:AUDIO',
  'TRIGGER;RELATED=END:-PT10M',
  'END:VALARM',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

let a: TestServer;
let b: TestServer;
beforeAll(async () => {
  a = await startTestServer();
  b = await startTestServer();
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

async function importInto(t: TestServer, text: string) {
  const res = await t.api('post', 'import').set('Content-Type', 'text/calendar').send(text);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.errors).toEqual([]);
  return res.body;
}

async function events(t: TestServer, search: string): Promise<Array<{ title: string; start_date: string; reminders: unknown[]; is_exception: boolean }>> {
  const res = await t.api('get', 'events').query({ start_date: '2000-01-01', end_date: '2100-01-01', per_page: 50, search });
  return res.body.events;
}

async function exported(t: TestServer, search: string): Promise<string> {
  const res = await download(t.api('get', 'export').query({ start_date: '2000-01-01', search }));
  expect(res.status).toBe(200);
  return (res.body as string).replace(/\r\n /g, '');
}

const alarmsOf = (text: string) => [...text.matchAll(/BEGIN:VALARM\r\n([\s\S]*?)END:VALARM/g)].map((m) => m[1].trim().split('\r\n'));

describe('VALARM import', () => {
  it("reads Google's alarms: display and e-mail, Google's -P0DT0H10M0S durations", async () => {
    await importInto(a, python('calendars/alarm_google_future.ics'));
    const [e] = await events(a, 'event with alarms');
    expect(e.reminders).toEqual([
      { action: 'display', trigger: '-PT10M', description: 'This is an event reminder' },
      { action: 'display', trigger: '-PT14M', description: 'This is an event reminder' },
      { action: 'email', trigger: '-PT15M', description: 'This is an event reminder', summary: 'Alarm notification', attendees: ['niccokunzmann@googlemail.com'] },
      { action: 'display', trigger: '-PT15M', description: 'This is an event reminder' },
    ]);
  });

  it("reads Thunderbird's and Apple's, absolute triggers and all-day ones included", async () => {
    await importInto(a, python('calendars/alarm_thunderbird_2_future.ics'));
    expect((await events(a, 'event'))!.find((e) => e.start_date === '2024-10-23 19:00:00')!.reminders).toEqual([
      { action: 'display', trigger: '-PT1M', description: 'Mozilla Standardbeschreibung' },
      { action: 'display', trigger: '-PT24M', description: 'Mozilla Standardbeschreibung' },
    ]);
    await importInto(a, APPLE);
    expect((await events(a, 'Passport'))[0].reminders).toEqual([
      { action: 'audio', trigger: '-PT15H' },
      { action: 'display', at: '2031-04-09T07:00:00Z', description: 'Reminder' },
    ]);
  });

  it("gives a series' occurrences its alarms, and an occurrence with its own VALARMs keeps those", async () => {
    await importInto(a, SERIES);
    const all = (await events(a, 'Choir')).sort((x, y) => x.start_date.localeCompare(y.start_date));
    expect(all.map((e) => [e.start_date.slice(0, 10), e.is_exception, e.reminders])).toEqual([
      ['2031-03-03', false, [{ action: 'display', trigger: '-PT30M', repeat: 2, repeat_every: 'PT5M', description: 'Choir soon' }]],
      ['2031-03-10', true, [{ action: 'audio', trigger: '-PT10M', related: 'end' }]],
      ['2031-03-17', false, [{ action: 'display', trigger: '-PT30M', repeat: 2, repeat_every: 'PT5M', description: 'Choir soon' }]],
      ['2031-03-24', false, [{ action: 'display', trigger: '-PT30M', repeat: 2, repeat_every: 'PT5M', description: 'Choir soon' }]],
    ]);
  });

  it('leaves out an alarm it cannot use, with a warning, and imports the event', async () => {
    const text = APPLE.replace('UID:5E1D3F0A-7C1B-4D7E-9A55-0C6C2B1F9D10', 'UID:broken-alarm@example.org').replace('SUMMARY:Passport renewal', 'SUMMARY:Broken alarm').replace('ACTION:AUDIO', 'ACTION:PROCEDURE');
    const report = await importInto(b, text);
    expect(report.created).toBe(1);
    expect(report.warnings.map((w: { message: string }) => w.message).join('\n')).toMatch(/VALARM/);
  });
});

describe('VALARM export and round trip', () => {
  // Kept by meaning as ical.js writes it: "VALUE=URI" is ATTACH's default and goes.
  it('writes VALARMs like the other programs do, keeping what it does not model', async () => {
    const text = await exported(a, 'Passport');
    expect(alarmsOf(text)).toEqual([
      ['ACTION:AUDIO', 'TRIGGER:-PT15H', 'X-WR-ALARMUID:0B9E6B63-2F0E-4B8E-B1C9-3C1F0F5B2A11', 'UID:0B9E6B63-2F0E-4B8E-B1C9-3C1F0F5B2A11', 'ATTACH:Chord', 'X-APPLE-DEFAULT-ALARM:TRUE', 'ACKNOWLEDGED:20310101T090000Z'],
      ['ACTION:DISPLAY', 'TRIGGER;VALUE=DATE-TIME:20310409T070000Z', 'DESCRIPTION:Reminder', 'UID:7A0D1F55-3B7E-4C2A-9E1F-6B5D4C3A2B10'],
    ]);
    const google = alarmsOf(await exported(a, 'event with alarms'));
    expect(google[2]).toEqual(['ACTION:EMAIL', 'TRIGGER:-PT15M', 'DESCRIPTION:This is an event reminder', 'SUMMARY:Alarm notification', 'ATTENDEE:mailto:niccokunzmann@googlemail.com']);
    const series = alarmsOf(await exported(a, 'Choir'));
    expect(series).toEqual([
      ['ACTION:DISPLAY', 'TRIGGER:-PT30M', 'REPEAT:2', 'DURATION:PT5M', 'DESCRIPTION:Choir soon'],
      ['ACTION:AUDIO', 'TRIGGER;RELATED=END:-PT10M'],
    ]);
  });

  it('an export imported elsewhere has the same reminders, and exports the same VALARMs again', async () => {
    for (const search of ['event with alarms', 'Passport', 'Choir']) {
      const first = await exported(a, search);
      await importInto(b, first);
      const strip = (e: { start_date: string; reminders: unknown[]; is_exception: boolean }) => [e.start_date, e.is_exception, e.reminders];
      const sort = (list: Array<{ start_date: string; reminders: unknown[]; is_exception: boolean }>) => list.map(strip).sort((x, y) => String(x[0]).localeCompare(String(y[0])));
      expect(sort(await events(b, search))).toEqual(sort(await events(a, search)));
      expect(alarmsOf(await exported(b, search))).toEqual(alarmsOf(first));
    }
  });

  it('the reminders of events made in Almanac go out as VALARMs too', async () => {
    const res = await a.api('post', 'events').send({
      title: 'Made here',
      start_date: '2031-06-01 10:00:00',
      end_date: '2031-06-01 11:00:00',
      reminders: ['-PT15M', { action: 'email', trigger: '-P1D', attendees: ['me@example.org'] }],
    });
    expect(res.status).toBe(201);
    expect(alarmsOf(await exported(a, 'Made here'))).toEqual([
      ['ACTION:DISPLAY', 'TRIGGER:-PT15M', 'DESCRIPTION:Reminder'],
      ['ACTION:EMAIL', 'TRIGGER:-P1D', 'DESCRIPTION:Reminder', 'SUMMARY:Reminder', 'ATTENDEE:mailto:me@example.org'],
    ]);
  });
});
