/**
 * The mapping functions of the sync, on texts (no server): what another client wrote survives an
 * edit here (`withUnknownOf`), and a resource changed on both sides merges per field and per
 * occurrence, or refuses when the same field differs (`mergeThreeWay`).
 */
import { describe, expect, it } from 'vitest';
import { withUnknownOf, sameMapped } from '../../../electron/server/caldav/resource';
import { mergeThreeWay } from '../../../electron/server/caldav/merge';

const ctx = { lang: 'en' as const, now: new Date('2031-01-01T00:00:00Z'), siteZone: 'UTC' };

const cal = (...vevents: string[][]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//T//EN', ...vevents.flatMap((v) => ['BEGIN:VEVENT', ...v, 'END:VEVENT']), 'END:VCALENDAR', ''].join('\r\n');
const master = (extra: string[] = [], summary = 'Standup', description?: string) => [
  'UID:s1', 'DTSTAMP:20310101T000000Z', 'DTSTART:20310105T090000Z', 'DTEND:20310105T093000Z', 'RRULE:FREQ=DAILY;COUNT=5', `SUMMARY:${summary}`, ...(description ? [`DESCRIPTION:${description}`] : []), ...extra,
];
const exception = (summary: string, start = '20310107T100000Z') => ['UID:s1', 'DTSTAMP:20310101T000000Z', 'RECURRENCE-ID:20310107T090000Z', `DTSTART:${start}`, 'DTEND:20310107T103000Z', `SUMMARY:${summary}`];

describe('withUnknownOf', () => {
  it("copies another client's properties and sub-components into the matching VEVENT, byte for byte, and moves SEQUENCE on", () => {
    const base = cal(
      master(['ATTENDEE;CN="Bo, B.";PARTSTAT=ACCEPTED:mailto:bo@example.org', 'X-MOZ-GENERATION:4', 'X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-TITLE=Room:geo:1.5\\,2.5', 'SEQUENCE:3',
        'BEGIN:VALARM', 'ACTION:DISPLAY', 'TRIGGER:-PT5M', 'END:VALARM', 'BEGIN:X-CUSTOM', 'X-A:1', 'END:X-CUSTOM']),
      // The server writes the exception's RECURRENCE-ID with a TZID where ours says UTC: same instant key.
      ['UID:s1', 'RECURRENCE-ID;TZID=UTC:20310107T090000', 'DTSTART:20310107T100000Z', 'DTEND:20310107T103000Z', 'SUMMARY:Late', 'COMMENT:only on the exception'],
    );
    const ours = cal(master([], 'Standup (new room)'), exception('Late, still'));
    const out = withUnknownOf(ours, base);
    const [masterText, exceptionText] = out.split('BEGIN:VEVENT').slice(1);
    expect(masterText).toContain('ATTENDEE;CN="Bo, B.";PARTSTAT=ACCEPTED:mailto:bo@example.org\r\n');
    expect(masterText).toContain('X-MOZ-GENERATION:4\r\n');
    expect(masterText).toContain('X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-TITLE=Room:geo:1.5\\,2.5\r\n');
    expect(masterText).toContain('BEGIN:X-CUSTOM\r\nX-A:1\r\nEND:X-CUSTOM\r\n');
    expect(masterText).toContain('SEQUENCE:4\r\n');
    expect(masterText).toContain('SUMMARY:Standup (new room)');
    // Reminders are Almanac's to write (mapped): the server's VALARM is not added a second time.
    expect(masterText).not.toContain('BEGIN:VALARM');
    expect(exceptionText).toContain('COMMENT:only on the exception\r\n');
    expect(exceptionText).not.toContain('ATTENDEE');
  });

  it("puts the kept properties among the VEVENT's properties, before its VALARMs (RFC 5545's order), and kept sub-components after", () => {
    const base = cal(master(['X-MOZ-GENERATION:4', 'TRANSP:OPAQUE', 'SEQUENCE:1', 'BEGIN:X-CUSTOM', 'X-A:1', 'END:X-CUSTOM']));
    const ours = cal(master(['BEGIN:VALARM', 'ACTION:DISPLAY', 'TRIGGER:-PT5M', 'DESCRIPTION:Reminder', 'END:VALARM']));
    const event = withUnknownOf(ours, base).split('BEGIN:VEVENT\r\n')[1].split('END:VEVENT')[0].split('\r\n');
    const firstSub = event.findIndex((l) => l.startsWith('BEGIN:'));
    const properties = event.slice(0, firstSub);
    expect(properties).toEqual(expect.arrayContaining(['X-MOZ-GENERATION:4', 'TRANSP:OPAQUE', 'SEQUENCE:2']));
    expect(event.slice(firstSub).filter((l) => l && !/^(BEGIN|END):/.test(l)).every((l) => /^(ACTION|TRIGGER|DESCRIPTION|X-A):/.test(l))).toBe(true);
    expect(event.indexOf('BEGIN:VALARM')).toBeLessThan(event.indexOf('BEGIN:X-CUSTOM'));
  });

  it('leaves the text as it is when there is no server copy yet', () => {
    const ours = cal(master());
    expect(withUnknownOf(ours, null)).toBe(ours);
  });
});

describe('mergeThreeWay', () => {
  const base = cal(master([], 'Standup', 'Daily'));

  it('takes each side’s change when they changed different fields', () => {
    const local = cal(master([], 'Standup (room 4)', 'Daily'));
    const server = cal(master([], 'Standup', 'Daily, bring notes'));
    const merged = mergeThreeWay(base, local, server, ctx)!;
    expect(merged).toHaveLength(1);
    expect(merged[0].body).toMatchObject({ title: 'Standup (room 4)', description: 'Daily, bring notes' });
  });

  it('refuses when both changed the same field differently, and agrees when they changed it alike', () => {
    expect(mergeThreeWay(base, cal(master([], 'A', 'Daily')), cal(master([], 'B', 'Daily')), ctx)).toBeNull();
    const alike = mergeThreeWay(base, cal(master([], 'Same', 'Daily')), cal(master([], 'Same', 'Daily')), ctx)!;
    expect(alike[0].body.title).toBe('Same');
  });

  it('merges per occurrence: an exception made here and a series change there are both kept', () => {
    const local = cal(master([], 'Standup', 'Daily'), exception('Standup, late'));
    const server = cal(master([], 'Standup', 'Daily, in room 2'));
    const merged = mergeThreeWay(base, local, server, ctx)!;
    expect(merged.map((i) => [i.recurrenceId ?? null, i.body.title, i.body.description])).toEqual([
      [null, 'Standup', 'Daily, in room 2'],
      [expect.any(String), 'Standup, late', ''],
    ]);
  });

  it('an exception dropped on one side while changed on the other is a conflict; dropped while unchanged, it goes', () => {
    const withException = cal(master([], 'Standup', 'Daily'), exception('Late'));
    expect(mergeThreeWay(withException, cal(master([], 'Standup', 'Daily')), cal(master([], 'Standup', 'Daily'), exception('Later')), ctx)).toBeNull();
    const dropped = mergeThreeWay(withException, cal(master([], 'Standup', 'Daily')), cal(master([], 'Standup (v2)', 'Daily'), exception('Late')), ctx)!;
    expect(dropped.map((i) => i.body.title)).toEqual(['Standup (v2)']);
  });

  it('compares what the mapping reads, not the bytes: a server’s rewrite is no change', () => {
    const rewritten = cal(['UID:s1', 'DTSTAMP:20310102T000000Z', 'DTSTART:20310105T090000Z', 'DTEND:20310105T093000Z', 'RRULE:FREQ=DAILY;COUNT=5', 'SUMMARY:Stan', ' dup', 'DESCRIPTION:Daily']);
    expect(sameMapped(base, rewritten, ctx)).toBe(true);
    expect(sameMapped(base, cal(master([], 'Standup', 'Weekly')), ctx)).toBe(false);
  });
});
