/**
 * An iCalendar file read on a worker thread while the import writes (icalendar/read-threaded.ts): it must give
 * exactly what reading it on the importing thread gives, the same events in the same order, the
 * same problems and the same progress.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openIcs, type IcsFile, type IcsImportOptions, type ReadEvent } from '../../../electron/server/icalendar/import';
import { openIcsThreaded, BATCH, MAX_AHEAD } from '../../../electron/server/icalendar/read-threaded';
import { decodeImportFile } from '../../../electron/server/import-export/text-input';

const opts: IcsImportOptions = { siteZone: 'Europe/Lisbon', now: new Date('2025-01-15T12:00:00Z') };

const fixture = (name: string) => {
  const decoded = decodeImportFile(readFileSync(new URL(`../../fixtures/ics/${name}`, import.meta.url)));
  if ('error' in decoded) throw new Error(decoded.error);
  return decoded.text;
};

/** More events than the worker may post ahead of the reader, so it has to wait for it. */
function largeCalendar(events: number): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN'];
  for (let i = 0; i < events; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    lines.push('BEGIN:VEVENT', `UID:big-${i}@test`, `DTSTART;TZID=Europe/Paris:202603${day}T0900${String(i % 60).padStart(2, '0')}`, 'DTEND;TZID=Europe/Paris:202603' + day + 'T110000', `SUMMARY:Rehearsal ${i}`, `CATEGORIES:Music,Group ${i % 7}`, `LOCATION:Hall ${i % 13}`, 'END:VEVENT');
  }
  // A weekly series among them: its occurrences come from one VEVENT.
  lines.push('BEGIN:VEVENT', 'UID:series@test', 'DTSTART:20260105T180000Z', 'DTEND:20260105T190000Z', 'RRULE:FREQ=WEEKLY;COUNT=5', 'SUMMARY:Choir', 'END:VEVENT');
  lines.push('END:VCALENDAR', '');
  return lines.join('\r\n');
}

function readAll(file: IcsFile<ReadEvent>) {
  const events: ReadEvent[] = [];
  let read = 0;
  const result = file.read(
    (e) => events.push(e),
    (n) => (read += n),
  );
  return { events, read, result };
}

describe('reading an iCalendar file on a worker thread', () => {
  it.each(['google.ics', 'outlook.ics', 'apple.ics', 'thunderbird.ics', 'icaljs/timezone_from_file.ics', 'icaljs/rdate_exdate.ics'])('reads %s exactly as on the importing thread', (name) => {
    const text = fixture(name);
    const here = openIcs(text, opts);
    const there = openIcsThreaded(text, opts);
    expect([there.vevents, there.broken]).toEqual([here.vevents, here.broken]);
    expect(readAll(there)).toEqual(readAll(here));
  });

  it('reads a file given as its UTF-8 bytes, decoded on the reading thread, exactly as its text', () => {
    const text = largeCalendar(BATCH * 3).replace('SUMMARY:Rehearsal 7', 'SUMMARY:Ensaio de Música € 7');
    const there = openIcsThreaded(new TextEncoder().encode(text), opts);
    const first = readAll(there);
    expect(first).toEqual(readAll(openIcs(text, opts)));
    expect(JSON.stringify(first.events)).toContain('Ensaio de Música € 7');
    // A second reading decodes the same bytes again.
    expect(readAll(there)).toEqual(first);
  });

  it('reads a file of many batches in order, and the same again when read a second time', () => {
    const text = largeCalendar(BATCH * (MAX_AHEAD + 4));
    const here = readAll(openIcs(text, opts));
    const there = openIcsThreaded(text, opts);
    const first = readAll(there);
    // Plain events, and one series.
    expect(first.events).toHaveLength(BATCH * (MAX_AHEAD + 4) + 1);
    expect(first).toEqual(here);
    expect(readAll(there)).toEqual(here);
  });

  it('reports the scan as it goes, ending at the number of VEVENTs', () => {
    const text = largeCalendar(3000);
    const progress: Array<[number, number]> = [];
    const file = openIcsThreaded(text, { ...opts, onProgress: (done, total) => progress.push([done, total]) });
    file.close?.();
    expect(progress.length).toBeGreaterThan(50);
    expect(progress.at(-1)).toEqual([3001, 3001]);
    for (let i = 1; i < progress.length; i++) expect(progress[i][0]).toBeGreaterThanOrEqual(progress[i - 1][0]);
  });

  it('gives the syntax errors of a broken file as the importing thread does', () => {
    const text = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'BEGIN:VEVENT', 'UID:a', 'DTSTART:20260105T090000Z', 'SUMMARY', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
    const here = openIcs(text, opts);
    const there = openIcsThreaded(text, opts);
    expect(there.broken).toBe(true);
    expect(there.read(() => {})).toEqual(here.read(() => {}));
  });

  it('reads the next file on the same thread as if it were the first: nothing of the last one is kept', () => {
    // Both files define a zone of the same name, with different offsets. A thread that kept the
    // first file's definition registered would read the second file's times with it.
    const file = (offset: string, uid: string) =>
      [
        'BEGIN:VCALENDAR', 'VERSION:2.0',
        'BEGIN:VTIMEZONE', 'TZID:Harbour Time', 'BEGIN:STANDARD', 'DTSTART:19700101T000000', `TZOFFSETFROM:${offset}`, `TZOFFSETTO:${offset}`, 'END:STANDARD', 'END:VTIMEZONE',
        'BEGIN:VEVENT', `UID:${uid}`, 'DTSTART;TZID=Harbour Time:20260310T090000', 'DTEND;TZID=Harbour Time:20260310T100000', 'SUMMARY:Ferry', 'END:VEVENT',
        'BEGIN:VEVENT', `UID:s-${uid}`, 'DTSTART;TZID=Harbour Time:20260310T090000', 'DTEND;TZID=Harbour Time:20260310T100000', 'RRULE:FREQ=DAILY;COUNT=3', 'EXDATE:20260311T060000Z', 'SUMMARY:Daily ferry', 'END:VEVENT',
        'END:VCALENDAR', '',
      ].join('\r\n');
    const first = file('+0545', 'a@test');
    const second = file('+0300', 'b@test');
    const expected = readAll(openIcs(second, opts));
    const startOf = (r: ReturnType<typeof readAll>) => (r.events[0] as { body: { start_date: string } }).body.start_date;
    // 09:00 at +03:00 is 06:00 in Lisbon (UTC+0 in March); at +05:45 it would be 03:15.
    expect(startOf(expected)).toBe('2026-03-10 06:00:00');
    expect(startOf(readAll(openIcsThreaded(first, opts)))).toBe('2026-03-10 03:15:00');
    expect(readAll(openIcsThreaded(second, opts))).toEqual(expected);
  });

  it('stops reading when the importer stops taking events (a refused item, a cancelled import), and reads again from the start', () => {
    const text = largeCalendar(BATCH * (MAX_AHEAD + 4));
    const file = openIcsThreaded(text, opts);
    let taken = 0;
    expect(() =>
      file.read(() => {
        if (++taken === 250) throw new Error('cancelled');
      }),
    ).toThrow('cancelled');
    expect(readAll(file)).toEqual(readAll(openIcs(text, opts)));
  });
});
