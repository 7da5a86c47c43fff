/**
 * Import and export through the API: iCalendar and CSV in, iCalendar and JSON out, every bad file
 * refused with the line or row named and the calendar left exactly as it was.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type request from 'supertest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { IMPORT_LIMIT_LABEL } from '../../../shared/api/import-limit';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../../fixtures', name));
const asText = (res: NodeJS.ReadableStream, cb: (err: Error | null, body: string) => void) => {
  let d = '';
  res.setEncoding('utf8');
  res.on('data', (c: string) => (d += c));
  res.on('end', () => cb(null, d));
};
const download = (t: request.Test) => t.buffer(true).parse(asText as never);

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe('iCalendar import', () => {
  it('a dry run reports what would happen and changes nothing', async () => {
    const before = s.snapshot();
    const res = await s.api('post', 'import?dry_run=true').set('Content-Type', 'text/calendar').send(fixture('ics/google.ics'));
    expect(res.status).toBe(200);
    expect(res.body.dry_run).toBe(true);
    expect(res.body.created).toBeGreaterThan(0);
    expect(res.body.items.every((i: { id?: number }) => i.id === undefined)).toBe(true);
    expect(s.snapshot()).toEqual(before);
  });

  it('imports a Google Calendar file, and importing it again updates instead of duplicating', async () => {
    const first = await s.api('post', 'import').set('Content-Type', 'text/calendar').send(fixture('ics/google.ics'));
    expect(first.status).toBe(200);
    // Each VEVENT is an item: the weekly series, its moved occurrence, and two single events.
    expect(first.body).toMatchObject({ dry_run: false, created: 4, updated: 0, skipped: 0 });
    const list = await s.api('get', 'events?start_date=2000-01-01&per_page=50');
    const titles = (list.body.events as Array<{ title: string }>).map((e) => e.title);
    expect(titles).toEqual(['Book Club', 'Book Club', 'Book Club (moved to Tuesday)', 'Book Club', 'Jazz Night', 'Independence Day Picnic']);
    const again = await s.api('post', 'import').set('Content-Type', 'text/calendar').send(fixture('ics/google.ics'));
    expect(again.body).toMatchObject({ created: 0, updated: 4 });
    const after = await s.api('get', 'events?start_date=2000-01-01&per_page=50');
    expect(after.body.events.map((e: { id: number }) => e.id)).toEqual(list.body.events.map((e: { id: number }) => e.id));
    // Occurrences of the weekly series point at the first one, which carries the rule.
    const events = list.body.events as Array<{ id: number; title: string; series_id: number | null; recurrence: unknown }>;
    const series = events.filter((e) => e.title.startsWith('Book Club'));
    expect(new Set(series.map((e) => e.series_id))).toEqual(new Set([series[0].id]));
    expect(series[0].recurrence).toEqual({ rules: ['FREQ=WEEKLY;BYDAY=MO;WKST=SU;UNTIL=20250331T223000Z'], rdates: [], exdates: ['20250317T183000'] });
    const children = await s.api('get', `events?post_parent=${series[0].id}&start_date=2000-01-01`);
    expect(children.body.total).toBe(series.length - 1);
  });

  it.each(['outlook.ics', 'thunderbird.ics', 'apple.ics'])('imports %s', async (name) => {
    const res = await s.api('post', 'import').set('Content-Type', 'text/calendar').send(fixture(`ics/${name}`));
    expect(res.status).toBe(200);
    expect(res.body.created).toBeGreaterThan(0);
    expect(res.body.errors).toEqual([]);
  });
});

describe('export', () => {
  it('streams the events as iCalendar with a download name, and that file imports back as the same events', async () => {
    const res = await download(s.api('get', 'export?start_date=2000-01-01'));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="almanac-\d{4}-\d{2}-\d{2}\.ics"$/);
    const text = res.body as string;
    expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(text.trimEnd().endsWith('END:VCALENDAR')).toBe(true);
    const exported = (await s.api('get', 'events?start_date=2000-01-01&per_page=50')).body.events as Array<Record<string, unknown>>;
    // A series is one VEVENT with its rule, plus one per occurrence changed on its own.
    const vevents = text.match(/BEGIN:VEVENT/g)?.length;
    expect(vevents).toBe(exported.filter((e) => e.series_id === null || e.series_id === e.id || e.is_exception).length);

    const other = await startTestServer();
    try {
      const imported = await other.api('post', 'import').set('Content-Type', 'text/calendar').send(text);
      expect(imported.body).toMatchObject({ created: vevents, skipped: 0 });
      const back = (await other.api('get', 'events?start_date=2000-01-01&per_page=50')).body.events as Array<Record<string, unknown>>;
      const key = (e: Record<string, unknown>) => [e.title, e.start_date, e.end_date, e.timezone, e.all_day, e.utc_start_date, e.description, e.cost].join('|');
      expect(back.map(key).sort()).toEqual(exported.map(key).sort());
    } finally {
      await other.close();
    }
  });

  it('exports only what the filters select', async () => {
    const res = await download(s.api('get', 'export?start_date=2000-01-01&search=Book%20Club'));
    const titles = [...(res.body as string).matchAll(/^SUMMARY:(.*)$/gm)].map((m) => m[1]);
    expect(titles.length).toBeGreaterThan(0);
    expect(titles.every((t) => t.startsWith('Book Club'))).toBe(true);
  });

  it('refuses a bad filter before streaming starts', async () => {
    const res = await s.api('get', 'export?venue=abc');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
  });

  it('JSON backup → restore into another calendar → backup again gives the same tables', async () => {
    const first = await download(s.api('get', 'export?format=json'));
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    const other = await startTestServer();
    try {
      const restored = await other.api('post', 'import').set('Content-Type', 'application/json').send(first.body);
      expect(restored.status).toBe(200);
      expect(restored.body.restored.events).toBeGreaterThan(0);
      const second = await download(other.api('get', 'export?format=json'));
      expect(JSON.parse(second.body).tables).toEqual(JSON.parse(first.body).tables);
      expect((await other.api('get', 'events?start_date=2000-01-01')).body.total).toBe((await s.api('get', 'events?start_date=2000-01-01')).body.total);
    } finally {
      await other.close();
    }
  });
});

describe('CSV import', () => {
  it('refuses a file with bad rows as a whole, naming every row', async () => {
    const before = s.snapshot();
    const res = await s.api('post', 'import').set('Content-Type', 'text/csv').send(fixture('csv/events-original-columns.csv'));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('import-items-invalid');
    const rows = (res.body.data.errors as Array<{ row: number; message: string }>).map((e) => e.row);
    expect(rows).toEqual(expect.arrayContaining([6, 7, 8, 9]));
    for (const e of res.body.data.errors) expect(e.message).toMatch(new RegExp(`^Row ${e.row}: `));
    expect(s.snapshot()).toEqual(before);
  });

  it('with skip_invalid imports the good rows with their venues, organizers and categories linked', async () => {
    const res = await s.api('post', 'import?skip_invalid=true').set('Content-Type', 'text/csv').send(fixture('csv/events-original-columns.csv'));
    expect(res.status).toBe(200);
    expect(res.body.skipped).toBe(4);
    const concert = (await s.api('get', 'events?start_date=2000-01-01&search=Spring%20Concert')).body.events[0];
    expect(concert.venue.venue).toBe('Town Hall');
    expect(concert.organizer.map((o: { organizer: string }) => o.organizer)).toEqual(['Arts Council', 'City of Springfield']);
    expect(concert.categories.map((c: { name: string }) => c.name)).toEqual(['Music', 'Concerts']);
    expect(concert.cost).toBe('$23');
    expect(concert.start_date).toBe('2025-03-14 19:00:00');
    expect(concert.timezone).toBe('America/New_York');
  });

  it('imports venues and organizers files, reusing the ones it already has', async () => {
    const v = await s.api('post', 'import?kind=venues&skip_invalid=true').set('Content-Type', 'text/csv').send(fixture('csv/venues.csv'));
    expect(v.status).toBe(200);
    expect(v.body.errors).toEqual([expect.objectContaining({ row: 4, message: expect.stringMatching(/^Row 4: .*Venue Name/) })]);
    expect(v.body.created + v.body.reused).toBe(2);
    const venues = (await s.api('get', 'venues?search=Praça')).body.venues;
    expect(venues[0]).toMatchObject({ venue: 'Praça do Comércio', city: 'Lisboa', zip: '1100-148', country: 'Portugal' });
    const again = await s.api('post', 'import?kind=venues&skip_invalid=true').set('Content-Type', 'text/csv').send(fixture('csv/venues.csv'));
    expect(again.body).toMatchObject({ created: 0, reused: 2 });
    const o = await s.api('post', 'import?kind=organizers&skip_invalid=true').set('Content-Type', 'text/csv').send(fixture('csv/organizers.csv'));
    expect(o.status).toBe(200);
    expect(o.body.created + o.body.reused).toBeGreaterThan(0);
  });
});

describe('bad files change nothing', () => {
  const cases: Array<[string, string, Buffer | string, RegExp]> = [
    ['no VEVENT', 'text/calendar', 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n', /no events/i],
    ['truncated iCalendar', 'text/calendar', fixture('ics/google.ics').subarray(0, 900), /line \d+|end/i],
    ['invalid UTF-8', 'text/calendar', Buffer.concat([Buffer.from('BEGIN:VCALENDAR\r\nSUMMARY:caf'), Buffer.from([0xe9, 0x0d, 0x0a])]), /line 2|byte/i],
    ['CSV without the required columns', 'text/csv', 'Title,When\nParty,2025-01-01\n', /event_name|event name/i],
    ['not a backup', 'application/json', '{"hello": "world"}', /not an Almanac backup/],
    ['broken JSON', 'application/json', '{"format": "almanac-backup",', /not valid JSON/],
  ];
  it.each(cases)('%s', async (_name, type, body, message) => {
    const before = s.snapshot();
    const res = await s.api('post', 'import').set('Content-Type', type).send(body);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(message);
    expect(s.snapshot()).toEqual(before);
  });

  it('an empty body', async () => {
    const res = await s.api('post', 'import').set('Content-Type', 'text/calendar').send('');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('import-file-invalid');
  });

  it('a file over the 150 MB limit (a 200 MB file) gets 413 and a message with the limit', async () => {
    const before = s.snapshot();
    const res = await s.api('post', 'import').set('Content-Type', 'text/calendar').send(Buffer.alloc(200 * 1024 * 1024, 0x41));
    expect(res.status).toBe(413);
    expect(res.body.message).toContain(IMPORT_LIMIT_LABEL);
    expect(IMPORT_LIMIT_LABEL).toBe('150 MB');
    expect(s.snapshot()).toEqual(before);
  });
});
