/**
 * The calendar of the sync bench's `peer` row: resources as calendar clients write them, with
 * names as they choose them (UUID-like, unrelated to the UID inside).
 */

/** A resource as calendar clients write them: one in ten a weekly series (one in thirty with a moved occurrence), one in fifteen all-day, one in eight with an alarm. */
export function peerResource(i: number): string {
  const zone = ['BEGIN:VTIMEZONE', 'TZID:Europe/Lisbon', 'BEGIN:STANDARD', 'DTSTART:19701025T020000', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0000', 'TZNAME:WET', 'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU', 'END:STANDARD', 'BEGIN:DAYLIGHT', 'DTSTART:19700329T010000', 'TZOFFSETFROM:+0000', 'TZOFFSETTO:+0100', 'TZNAME:WEST', 'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU', 'END:DAYLIGHT', 'END:VTIMEZONE'];
  const date = (n: number) => new Date(Date.UTC(2031, 0, 1) + n * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
  const day = date(i % 365);
  const hour = String(8 + (i % 10)).padStart(2, '0');
  const uid = `peer-${i}-0b6c9a52-${String(i).padStart(6, '0')}@example.org`;
  const allDay = i % 15 === 7;
  const series = i % 10 === 3;
  const when = allDay ? [`DTSTART;VALUE=DATE:${day}`, `DTEND;VALUE=DATE:${date((i % 365) + 1)}`] : [`DTSTART;TZID=Europe/Lisbon:${day}T${hour}0000`, `DTEND;TZID=Europe/Lisbon:${day}T${hour}4500`];
  const main = [
    'BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20310101T000000Z', 'CREATED:20301201T090000Z', 'LAST-MODIFIED:20301215T090000Z', 'SEQUENCE:1', ...when,
    `SUMMARY:Meeting ${i} about the quarterly plan`, `LOCATION:Room ${i % 40}\\, 2nd floor`, `DESCRIPTION:Agenda for ${i}:\\n- numbers\\n- next steps\\n\\nBring the printed report.`,
    'STATUS:CONFIRMED', 'TRANSP:OPAQUE', 'CATEGORIES:Work',
    ...(series ? ['RRULE:FREQ=WEEKLY;COUNT=10'] : []),
    ...(i % 8 === 1 ? ['BEGIN:VALARM', 'ACTION:DISPLAY', 'DESCRIPTION:Reminder', 'TRIGGER:-PT15M', 'END:VALARM'] : []),
    'END:VEVENT',
  ];
  const moved = series && i % 30 === 3 && !allDay
    ? ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20310101T000000Z', `RECURRENCE-ID;TZID=Europe/Lisbon:${day}T${hour}0000`, `DTSTART;TZID=Europe/Lisbon:${day}T${String(Number(hour) + 1).padStart(2, '0')}0000`, `DTEND;TZID=Europe/Lisbon:${day}T${String(Number(hour) + 1).padStart(2, '0')}4500`, `SUMMARY:Meeting ${i} (moved)`, 'END:VEVENT']
    : [];
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Example Corp.//Calendar 1.0//EN', 'CALSCALE:GREGORIAN', ...(allDay ? [] : zone), ...main, ...moved, 'END:VCALENDAR', ''].join('\r\n');
}

/** Resource names as clients choose them: UUID-like, unrelated to the UID inside. */
export function randomName(i: number): string {
  const h = (n: number) => ((Math.imul(n ^ 0x9e3779b9, 0x85ebca6b) >>> 0).toString(16).padStart(8, '0'));
  return `${h(i)}-${h(i + 1).slice(0, 4)}-4${h(i + 2).slice(0, 3)}-8${h(i + 3).slice(0, 3)}-${h(i + 4)}${h(i + 5).slice(0, 4)}`.toUpperCase();
}

