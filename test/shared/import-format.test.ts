/** One verdict on an imported file's format, shared by the CLI, the API and the import dialog. */
import { describe, expect, it } from 'vitest';
import { formatOfContent, formatOfName, importFormat } from '../../shared/import-format';

describe('import format', () => {
  it('knows our extensions in any case, and leaves the others to the content', () => {
    expect(formatOfName('Work.ICS')).toBe('ics');
    expect(formatOfName('feed.ical')).toBe('ics');
    expect(formatOfName('venues.csv')).toBe('csv');
    expect(formatOfName('almanac-backup-2026-11-22.json')).toBe('json');
    expect(formatOfName('notes.txt')).toBeUndefined();
    expect(formatOfName('README')).toBeUndefined();
  });

  it('reads iCalendar from any BEGIN line and a backup from its brace, past a byte order mark', () => {
    expect(formatOfContent('\uFEFFBEGIN:VCALENDAR\r\n')).toBe('ics');
    expect(formatOfContent('\r\n  begin:vevent\r\n')).toBe('ics');
    expect(formatOfContent(' {"almanac_backup":1}')).toBe('json');
    expect(formatOfContent('Event Name,Event Start Date\n')).toBeUndefined();
    expect(formatOfContent('')).toBeUndefined();
  });

  it('takes the explicit format first, then the content, then the name, then CSV', () => {
    // A file of tasks or a broken calendar named .ics is iCalendar, whatever its first line.
    expect(importFormat('PRODID:-//x//EN\r\nBEGIN:VTODO\r\n', 'tasks.ics')).toBe('ics');
    expect(importFormat('BEGIN:VCALENDAR\r\n', 'export.csv')).toBe('ics');
    expect(importFormat('{"almanac_backup":1}', 'events.ics')).toBe('json');
    expect(importFormat('Event Name,Event Start Date\n', 'notes.txt')).toBe('csv');
    expect(importFormat('Event Name,Event Start Date\n')).toBe('csv');
    expect(importFormat('BEGIN:VCALENDAR\r\n', 'a.ics', 'csv')).toBe('csv');
  });
});
