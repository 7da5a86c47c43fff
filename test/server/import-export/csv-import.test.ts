import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizeHeader, parseCsv, parseDate, parseTime } from '../../../electron/server/import-export/csv-import';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/csv/${name}`, import.meta.url), 'utf8');
const opts = { siteZone: 'Europe/Lisbon' };

describe('parseCsv: events in the original column format', () => {
  const result = parseCsv(fixture('events-original-columns.csv'), 'events', opts);
  const byRow = new Map(result.rows.map((r) => [r.row, r.body]));

  it('imports the good rows, numbered as a spreadsheet shows them (header = row 1, blank rows counted)', () => {
    expect(result.rows.map((r) => r.row)).toEqual([2, 3, 4, 6]);
  });

  it('builds a full event body from labelled columns', () => {
    expect(byRow.get(2)).toEqual({
      title: 'Spring Concert',
      description: '<p>An evening of chamber music.</p>',
      excerpt: 'Chamber music night',
      start_date: '2025-03-14 19:00:00',
      end_date: '2025-03-14 21:30:00',
      timezone: 'America/New_York',
      all_day: false,
      hide_from_listings: false,
      sticky: true,
      featured: true,
      show_map: true,
      show_map_link: true,
      venue: { venue: 'Town Hall' },
      organizer: [{ organizer: 'Arts Council' }, { organizer: 'City of Springfield' }],
      cost: '$23',
      categories: ['Music', 'Concerts'],
      tags: ['chamber', 'strings'],
      website: 'https://concerts.example.org/spring',
      image: 'https://images.example.org/concert.jpg',
    });
  });

  it('reads US dates, all-day flags, multi-line quoted cells and non-numeric costs', () => {
    expect(byRow.get(3)).toEqual({
      title: 'Harvest Fair',
      description: 'Three days of local food,\ncrafts and music.',
      start_date: '2025-10-03 00:00:00',
      end_date: '2025-10-05 23:59:59',
      timezone: 'Europe/Lisbon',
      all_day: true,
      venue: { venue: 'Praça do Comércio' },
      cost: 'Free',
      categories: ['Festivals'],
    });
  });

  it('defaults the zone to the site zone, the end to the start, and places a suffix currency after', () => {
    expect(byRow.get(4)).toMatchObject({
      start_date: '2025-03-16 08:00:00',
      end_date: '2025-03-16 08:00:00',
      timezone: 'Europe/Lisbon',
      cost: '10€',
      organizer: [{ organizer: 'Wellness Collective' }],
    });
  });

  it('reads European dates, an end time without end date, UTC offsets and venue ids', () => {
    expect(byRow.get(6)).toMatchObject({
      start_date: '2025-06-14 18:00:00',
      end_date: '2025-06-14 23:00:00',
      timezone: 'UTC+2',
      venue: 12,
    });
  });

  it('reports bad rows with their row number and column', () => {
    expect(result.errors).toEqual([
      { row: 7, column: 'event_name', message: 'Row 7: "Event Name" is empty.' },
      { row: 8, column: 'event_start_date', message: expect.stringContaining('"2025-13-45" is not a date') },
      { row: 9, column: 'event_timezone', message: expect.stringContaining('"Mars/Olympus" is not a time zone') },
    ]);
  });
});

describe('parseCsv: venues and organizers', () => {
  it('builds venue bodies, joining the address lines and filing the state under state and province', () => {
    const result = parseCsv(fixture('venues.csv'), 'venues', opts);
    expect(result.rows).toEqual([
      {
        row: 2,
        body: {
          venue: 'Town Hall',
          description: 'Historic hall on the square.',
          address: '1 Main St Suite 200',
          city: 'Springfield',
          state: 'IL',
          province: 'IL',
          zip: '62701',
          country: 'United States',
          phone: '+1 217 555 0100',
          website: 'http://townhall.example.org',
          image: 'https://images.example.org/townhall.jpg',
        },
      },
      {
        row: 3,
        body: { venue: 'Praça do Comércio', address: 'Praça do Comércio', city: 'Lisboa', zip: '1100-148', country: 'Portugal' },
      },
    ]);
    expect(result.errors).toEqual([{ row: 4, column: 'venue_name', message: 'Row 4: "Venue Name" is empty.' }]);
  });

  it('builds organizer bodies from headers in any case and separator', () => {
    const result = parseCsv(fixture('organizers.csv'), 'organizers', opts);
    expect(result.rows).toEqual([
      {
        row: 2,
        body: {
          organizer: 'Arts Council',
          description: 'Local arts nonprofit.',
          email: 'info@arts.example.org',
          website: 'http://arts.example.org',
          phone: '555-0101',
        },
      },
      { row: 3, body: { organizer: 'City of Springfield', website: 'https://springfield.example.gov' } },
    ]);
    expect(result.errors).toEqual([{ row: 4, column: 'organizer_name', message: 'Row 4: "Organizer Name" is empty.' }]);
  });
});

describe('parseCsv: bad files', () => {
  it('names each missing required column once, on row 1, and imports nothing', () => {
    const result = parseCsv('Event Name,Event End Date\nConcert,2025-03-14\n', 'events', opts);
    expect(result.rows).toEqual([]);
    expect(result.errors).toEqual([
      {
        row: 1,
        column: 'event_start_date',
        message: 'Row 1: the required column "Event Start Date" (event_start_date) is missing from the header.',
      },
    ]);
    expect(parseCsv('name,email\nA,a@b.c\n', 'organizers', opts).errors).toEqual([
      expect.objectContaining({ row: 1, column: 'organizer_name' }),
    ]);
  });

  it('reports an unterminated quote (a truncated file) on the row where it starts', () => {
    const result = parseCsv('Venue Name,Venue City\r\nTown Hall,Springfield\r\n"Broken Hall,Lis', 'venues', opts);
    expect(result.rows.map((r) => r.row)).toEqual([2]);
    expect(result.errors).toEqual([{ row: 3, message: expect.stringContaining('quoted cell is never closed') }]);
  });

  it('refuses a row with more cells than the header (an unquoted separator)', () => {
    const result = parseCsv('Venue Name,Venue City\nTown Hall, Springfield, IL\n', 'venues', opts);
    expect(result.rows).toEqual([]);
    expect(result.errors).toEqual([{ row: 2, message: expect.stringContaining('has 3 cells but the header has 2 columns') }]);
  });

  it('accepts the semicolon separator European spreadsheets write', () => {
    const result = parseCsv('Event Name;Event Start Date;Event Start Time\nFeira;14.06.2025;18:00\n', 'events', opts);
    expect(result.errors).toEqual([]);
    expect(result.rows[0].body).toMatchObject({ title: 'Feira', start_date: '2025-06-14 18:00:00' });
  });

  it('says so when there is nothing below the header', () => {
    expect(parseCsv('Event Name,Event Start Date\r\n', 'events', opts).errors).toEqual([
      { row: 2, message: 'The file has a header row but no rows to import.' },
    ]);
  });

  it('takes a time written into the date cell, and ignores an all-day row’s times', () => {
    const result = parseCsv(
      'event_name,event_start_date,event_end_date,event_all_day,event_end_time\n' +
        'A,2025-03-14 19:00,,,\n' +
        'B,2025-03-14T09:15:00,2025-03-13,,\n' +
        'C,2025-03-14 19:00,2025-03-15,true,10:00\n',
      'events',
      opts,
    );
    expect(result.errors).toEqual([]);
    expect(result.rows.map((r) => [r.body.start_date, r.body.end_date])).toEqual([
      ['2025-03-14 19:00:00', '2025-03-14 19:00:00'],
      // An end before the start becomes the start, as in the original.
      ['2025-03-14 09:15:00', '2025-03-14 09:15:00'],
      ['2025-03-14 00:00:00', '2025-03-15 23:59:59'],
    ]);
  });
});

describe('header and value readers', () => {
  it('matches headers case-, space- and punctuation-insensitively', () => {
    expect(['Event Name', 'event_name', 'EVENT_NAME', ' Event-Name ', 'event  name'].map(normalizeHeader)).toEqual(
      Array(5).fill('event_name'),
    );
  });

  it('reads the date forms PHP strtotime reads', () => {
    expect(parseDate('2025-03-14')).toBe('2025-03-14');
    expect(parseDate('2025/3/4')).toBe('2025-03-04');
    expect(parseDate('03/04/2025')).toBe('2025-03-04');
    expect(parseDate('3/4/25')).toBe('2025-03-04');
    expect(parseDate('04-03-2025')).toBe('2025-03-04');
    expect(parseDate('04.03.2025')).toBe('2025-03-04');
    expect(parseDate('March 4, 2025')).toBe('2025-03-04');
    expect(parseDate('Tuesday, 4th Mar 2025')).toBe('2025-03-04');
    expect(parseDate('2025-02-29')).toBeUndefined();
    expect(parseDate('next friday')).toBeUndefined();
  });

  it('reads 12- and 24-hour times', () => {
    expect(parseTime('7:00 PM')).toBe('19:00:00');
    expect(parseTime('7pm')).toBe('19:00:00');
    expect(parseTime('12:30 a.m.')).toBe('00:30:00');
    expect(parseTime('12 PM')).toBe('12:00:00');
    expect(parseTime('09:05')).toBe('09:05:00');
    expect(parseTime('23:59:59')).toBe('23:59:59');
    expect(parseTime('24:00')).toBeUndefined();
    expect(parseTime('13 pm')).toBeUndefined();
  });
});
