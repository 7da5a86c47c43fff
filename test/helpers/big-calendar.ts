/**
 * An iCalendar file of `n` one-hour events, one a day from 2030 at 10:00 UTC, titled
 * "<prefix> event <i>" in the category <prefix>: the large imports the tests send.
 */
export function bigCalendar(n: number, prefix = 'Bulk'): Buffer {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Almanac tests//EN'];
  const day = Date.UTC(2030, 0, 1);
  for (let i = 0; i < n; i++) {
    const start = new Date(day + i * 86_400_000 + 10 * 3_600_000).toISOString().replace(/[-:]/g, '').slice(0, 15) + 'Z';
    lines.push('BEGIN:VEVENT', `UID:${prefix.toLowerCase()}-${i}@tests`, 'DTSTAMP:20260101T000000Z', `DTSTART:${start}`, `DTEND:${start.replace(/T10/, 'T11')}`, `SUMMARY:${prefix} event ${i}`, `CATEGORIES:${prefix}`, 'END:VEVENT');
  }
  lines.push('END:VCALENDAR', '');
  return Buffer.from(lines.join('\r\n'));
}
