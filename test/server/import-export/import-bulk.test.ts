/**
 * The bulk import path: the search index it builds at the end (instead of the row triggers), its
 * fallback to savepoints when an item fails, and the progress it reports while reading and writing.
 */
import { describe, expect, it } from 'vitest';
import type { DB } from '../../../electron/server/store/db';
import type { Store } from '../../../electron/server/store';
import { freshStore } from '../../helpers/fresh-store';
import { importFile, THREADED_READING_BYTES } from '../../../electron/server/import-export/import-file';
import { importRecords, type ImportReport } from '../../../electron/server/import-export/import-records';
import { parseIcs } from '../../../electron/server/icalendar/import';
import { decodeImportFile } from '../../../electron/server/import-export/text-input';

const NOW = new Date('2026-06-01T12:00:00Z');

function vevent(uid: string, title: string, extra: string[] = []): string[] {
  return ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTART:20260105T090000Z', 'DTEND:20260105T100000Z', `SUMMARY:${title}`, ...extra, 'END:VEVENT'];
}

function calendar(...events: string[][]): Buffer {
  return Buffer.from(['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', ...events.flat(), 'END:VCALENDAR', ''].join('\r\n'));
}

function run(store: Store, bytes: Buffer, opts: { dryRun?: boolean; skipInvalid?: boolean; onProgress?: (d: number, t: number, p: 'reading' | 'writing') => void } = {}) {
  return importFile(store, bytes, { ...opts, ctx: { lang: 'en', now: NOW, siteZone: 'Europe/Lisbon' } }) as ImportReport;
}

/** Every (term, row, column, offset) of the search index. */
function indexInstances(db: DB): unknown[] {
  db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_instances USING fts5vocab(main, events_search, instance)');
  return db.prepare('SELECT term, doc, col, offset FROM temp.search_instances ORDER BY doc, col, offset, term').raw().all();
}

function searchTriggers(db: DB): string[] {
  return db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'events_search_%' ORDER BY name").pluck().all() as string[];
}

/** The index the row triggers keep: after a rebuild from the events table it must be unchanged. */
function expectIndexAsTriggersKeepIt(db: DB) {
  const built = indexInstances(db);
  db.prepare("INSERT INTO events_search (events_search) VALUES ('rebuild')").run();
  expect(built).toEqual(indexInstances(db));
  db.prepare("INSERT INTO events_search (events_search, rank) VALUES ('integrity-check', 1)").run();
}

function matches(db: DB, word: string): number[] {
  return db.prepare('SELECT rowid FROM events_search WHERE events_search MATCH ? ORDER BY rowid').pluck().all(`"${word}"`) as number[];
}

const texts = [
  ['Música na praça', 'Concerto de verão com café', 'Traga amigos'],
  ['Ångström lecture', 'Physics for everyone', 'Naïve questions welcome'],
  ['Zürich fiesta', 'Niño band plays', 'Free entry'],
];

describe('search index after a bulk import', () => {
  it('finds every imported event by every word of its title, description and excerpt, as the triggers would', () => {
    const store = freshStore();
    const bytes = calendar(...texts.map(([title, description, excerpt], i) => vevent(`u${i}`, title, [`DESCRIPTION:${description}`, `X-ALMANAC-EXCERPT:${excerpt}`])));
    const report = run(store, bytes);
    expect(report.created).toBe(3);
    expect(searchTriggers(store.db)).toEqual(['events_search_delete', 'events_search_insert', 'events_search_update']);
    report.items.forEach((item, i) => {
      for (const word of texts[i].join(' ').split(/\s+/).filter((w) => [...w].length >= 3)) {
        expect(matches(store.db, word), word).toContain(item.id);
      }
    });
    expectIndexAsTriggersKeepIt(store.db);
  });

  it('re-indexes updated events: a re-import with new text forgets the old words', () => {
    const store = freshStore();
    run(store, calendar(vevent('a', 'Harpsichord recital'), vevent('b', 'Bagpipe parade')));
    // An event created by the API (row triggers) beside the imported ones.
    const before = run(store, calendar(vevent('a', 'Theremin recital'), vevent('b', 'Bagpipe parade'), vevent('c', 'Kazoo night')));
    expect([before.created, before.updated]).toEqual([1, 2]);
    expect(matches(store.db, 'harpsichord')).toEqual([]);
    expect(matches(store.db, 'theremin')).toHaveLength(1);
    expect(matches(store.db, 'kazoo')).toHaveLength(1);
    expectIndexAsTriggersKeepIt(store.db);
    // The triggers are back: a later write through the store keeps the index too.
    store.write(() => store.events.update(before.items[0].id!, { title: 'Ocarina recital' }, { lang: 'en', now: NOW, siteZone: 'Europe/Lisbon' }));
    expect(matches(store.db, 'theremin')).toEqual([]);
    expect(matches(store.db, 'ocarina')).toEqual([before.items[0].id]);
    expectIndexAsTriggersKeepIt(store.db);
  });

  it('keeps the index right for events it indexed while importing, then changed later in the same import', () => {
    const store = freshStore();
    // More rows than one run of the index while importing: the last row changes the first
    // event's description, which was indexed by then (a CSV row with the same title and times
    // updates the event the earlier row made).
    const rows = ['Event Name,Event Description,Event Start Date,Event End Date', 'Tuba gala,alphorn notes,2026-07-01 10:00:00,2026-07-01 12:00:00'];
    for (let i = 0; i < 2600; i++) rows.push(`Filler ${i},nothing here,2026-08-01 10:00:00,2026-08-01 11:00:00`);
    rows.push('Tuba gala,didgeridoo notes,2026-07-01 10:00:00,2026-07-01 12:00:00');
    const report = importFile(store, Buffer.from(rows.join('\n') + '\n'), { format: 'csv', ctx: { lang: 'en', now: NOW, siteZone: 'Europe/Lisbon' } }) as ImportReport;
    expect([report.created, report.updated]).toEqual([2601, 1]);
    expect(matches(store.db, 'alphorn')).toEqual([]);
    expect(matches(store.db, 'didgeridoo')).toEqual([report.items[0].id]);
    expect(matches(store.db, 'filler')).toHaveLength(2600);
    expectIndexAsTriggersKeepIt(store.db);
  });

  it('removes from the index the occurrences a re-import deletes', () => {
    const store = freshStore();
    const series = (count: number) => calendar(vevent('s', 'Banjo practice', [`RRULE:FREQ=DAILY;COUNT=${count}`]));
    run(store, series(6));
    expect(matches(store.db, 'banjo')).toHaveLength(6);
    // The same series, shorter: the occurrences past the third are gone, from the index too.
    run(store, series(3));
    const ids = store.db.prepare('SELECT id FROM events ORDER BY id').pluck().all();
    expect(ids).toHaveLength(3);
    expect(matches(store.db, 'banjo')).toEqual(ids);
    expectIndexAsTriggersKeepIt(store.db);
  });

  it('leaves no entry in the index for an event deleted while a bulk write keeps the index', () => {
    const store = freshStore();
    run(store, calendar(vevent('a', 'Banjo practice'), vevent('b', 'Cello practice')));
    const [banjo] = matches(store.db, 'banjo');
    store.write(() => {
      const search = store.events.deferSearchIndex();
      store.events.deleteForever(banjo);
      search.finish();
    });
    expect(matches(store.db, 'banjo')).toEqual([]);
    expect(matches(store.db, 'cello')).toHaveLength(1);
    expectIndexAsTriggersKeepIt(store.db);
  });

  it('falls back to savepoints when an item fails, and indexes the good items the same way', () => {
    const store = freshStore();
    const bytes = calendar(vevent('good1', 'Lute evening'), vevent('bad', 'Broken website', ['URL:not a url']), vevent('good2', 'Sitar morning'));
    const report = run(store, bytes, { skipInvalid: true });
    expect([report.created, report.skipped]).toEqual([2, 1]);
    expect(report.errors[0].message).toMatch(/^Line \d+: website:/);
    expect(matches(store.db, 'lute')).toHaveLength(1);
    expect(matches(store.db, 'sitar')).toHaveLength(1);
    expect(searchTriggers(store.db)).toHaveLength(3);
    expectIndexAsTriggersKeepIt(store.db);
  });

  it('leaves the triggers and the index as they were after a dry run and after a refused import', () => {
    const store = freshStore();
    run(store, calendar(vevent('x', 'Tuba festival')));
    const instances = indexInstances(store.db);
    expect(run(store, calendar(vevent('y', 'Cello duet')), { dryRun: true }).created).toBe(1);
    expect(() => run(store, calendar(vevent('z', 'Oboe trio'), vevent('bad', 'Bad', ['URL:nope'])))).toThrow();
    expect(searchTriggers(store.db)).toHaveLength(3);
    expect(indexInstances(store.db)).toEqual(instances);
    expect(store.db.prepare('SELECT count(*) FROM events').pluck().get()).toBe(1);
  });
});

describe('import progress', () => {
  it('reports the reading, then the writing, each steadily and ending at its total', () => {
    const store = freshStore();
    const n = 450;
    const bytes = calendar(...Array.from({ length: n }, (_, i) => vevent(`p${i}`, `Event number ${i}`)));
    const calls: Array<[number, number, string]> = [];
    const report = run(store, bytes, { onProgress: (done, total, phase) => calls.push([done, total, phase]) });
    expect(report.created).toBe(n);
    const phases = calls.map((c) => c[2]);
    expect(phases.indexOf('writing')).toBeGreaterThan(0);
    expect(phases.slice(phases.indexOf('writing')).every((p) => p === 'writing')).toBe(true);
    for (const phase of ['reading', 'writing']) {
      const mine = calls.filter((c) => c[2] === phase);
      // About every 1%, never backwards, and the last call says done.
      expect(mine.length).toBeGreaterThanOrEqual(50);
      for (let i = 1; i < mine.length; i++) expect(mine[i][0]).toBeGreaterThanOrEqual(mine[i - 1][0]);
      const last = mine[mine.length - 1];
      expect(last[0]).toBe(last[1]);
      expect(mine.every(([done, total]) => done <= total)).toBe(true);
    }
    expect(calls.filter((c) => c[2] === 'writing').at(-1)![1]).toBe(n);
  });

  it('counts a series as one item and writes all its occurrences', () => {
    const store = freshStore();
    // 200 VEVENTs, one of them a series of 300 occurrences.
    const series = vevent('series', 'Daily', ['RRULE:FREQ=DAILY;COUNT=300']);
    const bytes = calendar(...Array.from({ length: 100 }, (_, i) => vevent(`a${i}`, `A ${i}`)), series, ...Array.from({ length: 99 }, (_, i) => vevent(`b${i}`, `B ${i}`)));
    const calls: Array<[number, number, string]> = [];
    const report = run(store, bytes, { onProgress: (done, total, phase) => calls.push([done, total, phase]) });
    expect(report.created).toBe(200);
    expect(store.db.prepare('SELECT count(*) FROM events').pluck().get()).toBe(499);
    const reading = calls.filter((c) => c[2] === 'reading');
    expect(reading.at(-1)).toEqual([200, 200, 'reading']);
    const writing = calls.filter((c) => c[2] === 'writing');
    for (let i = 1; i < writing.length; i++) expect(writing[i][0]).toBeGreaterThan(writing[i - 1][0]);
    expect(writing.every(([done, total]) => done <= total)).toBe(true);
    expect(writing.at(-1)).toEqual([200, 200, 'writing']);
  });

  it('stops and keeps nothing when the progress callback throws while writing', () => {
    const store = freshStore();
    const bytes = calendar(...Array.from({ length: 300 }, (_, i) => vevent(`c${i}`, `Cancelled ${i}`)));
    const stop = new Error('cancelled');
    expect(() => run(store, bytes, { onProgress: (done, _total, phase) => { if (phase === 'writing' && done >= 150) throw stop; } })).toThrow(stop);
    expect(store.db.prepare('SELECT count(*) FROM events').pluck().get()).toBe(0);
    expect(searchTriggers(store.db)).toHaveLength(3);
    // And the calendar still imports afterwards, whole.
    expect(run(store, bytes).created).toBe(300);
  });

  it('imports a file large enough to be read on a worker thread the same way: the bad item skipped, the rest indexed', () => {
    const store = freshStore();
    // Padded (with a property the import ignores) so that the file is read on its own thread
    // (import-file.ts THREADED_READING_BYTES).
    const padding = [`X-TEST-PADDING:${'x'.repeat(1700)}`];
    const count = Math.ceil(THREADED_READING_BYTES / 1800);
    const events = Array.from({ length: count }, (_, i) => vevent(`t${i}`, `Threaded ${i} oboe`, padding));
    events.splice(count / 2, 0, vevent('bad', 'Broken website', ['URL:not a url']));
    const bytes = calendar(...events);
    expect(bytes.length).toBeGreaterThan(THREADED_READING_BYTES);
    const calls: Array<[number, number, string]> = [];
    const report = run(store, bytes, { skipInvalid: true, onProgress: (done, total, phase) => calls.push([done, total, phase]) });
    expect([report.created, report.skipped]).toEqual([count, 1]);
    expect(report.errors).toHaveLength(1);
    expect(report.errors[0].message).toMatch(/^Line \d+: website:/);
    expect(report.items.filter((item) => item.action === 'create').map((item) => item.title)).toEqual(Array.from({ length: count }, (_, i) => `Threaded ${i} oboe`));
    expect(matches(store.db, 'oboe')).toHaveLength(count);
    expectIndexAsTriggersKeepIt(store.db);
    expect(calls.filter((c) => c[2] === 'reading').at(-1)).toEqual([count + 1, count + 1, 'reading']);
    expect(calls.at(-1)).toEqual([count + 1, count + 1, 'writing']);
  });

  it('matches a UID the file names twice with the event it just made, into an empty calendar and into one with events', () => {
    const csv = Buffer.from('Event Name,Event Description,Event Start Date,Event End Date\nPicnic,first,2026-07-01 10:00:00,2026-07-01 12:00:00\nPicnic,second,2026-07-01 10:00:00,2026-07-01 12:00:00\n');
    const ctx = { lang: 'en' as const, now: NOW, siteZone: 'Europe/Lisbon' };
    const empty = freshStore();
    const withEvents = freshStore();
    run(withEvents, calendar(vevent('other', 'Another event')));
    for (const store of [empty, withEvents]) {
      const report = importFile(store, csv, { format: 'csv', ctx }) as ImportReport;
      expect([report.created, report.updated]).toEqual([1, 1]);
      expect(store.events.get(report.items[0].id!)!.content).toBe('second');
      // Imported again: the same event, not a copy.
      const again = importFile(store, csv, { format: 'csv', ctx }) as ImportReport;
      expect([again.created, again.updated, again.items[0].id]).toEqual([0, 2, report.items[0].id]);
    }
  });

  it('reports a CSV file as read in one step, then its rows as written', () => {
    const store = freshStore();
    const csv = Buffer.from('Event Name,Event Start Date,Event End Date\nPicnic,2026-07-01 10:00:00,2026-07-01 12:00:00\nHike,2026-07-02 08:00:00,2026-07-02 12:00:00\n');
    const calls: Array<[number, number, string]> = [];
    importFile(store, csv, { format: 'csv', ctx: { lang: 'en', now: NOW, siteZone: 'Europe/Lisbon' }, onProgress: (d, t, p) => calls.push([d, t, p]) });
    expect(calls[0]).toEqual([2, 2, 'reading']);
    expect(calls.at(-1)).toEqual([2, 2, 'writing']);
  });

  it('writes the same rows whether a large file is read and checked on its own thread or read on the importing thread', () => {
    // Of every kind the writer handles: zones, all-day, series with a changed and a cancelled
    // occurrence, venues, organizers, terms, reminders, costs, flags, languages of Almanac's export.
    const ev = (uid: string, title: string, lines: string[]) => ['BEGIN:VEVENT', `UID:${uid}`, `SUMMARY:${title}`, ...lines, 'END:VEVENT'];
    const kinds = (i: number): string[] => {
      const day = String(1 + (i % 28)).padStart(2, '0');
      switch (i % 6) {
        case 0:
          return ev(`z${i}`, `Zoned ${i}`, [`DTSTART;TZID=America/New_York:202603${day}T090000`, 'DURATION:PT90M', `LOCATION:Hall ${i % 9}\\nMain St ${i % 9}`, `CATEGORIES:Music,Band ${i % 5}`]);
        case 1:
          return ev(`d${i}`, `All day ${i}`, [`DTSTART;VALUE=DATE:202604${day}`, `DTEND;VALUE=DATE:202604${day}`, 'X-ALMANAC-LANGUAGE:es', 'X-ALMANAC-FEATURED:1', `X-ALMANAC-COST:${i % 3} EUR`]);
        case 2:
          return [
            ...ev(`s${i}`, `Weekly ${i}`, [`DTSTART;TZID=Europe/Paris:202601${day}T180000`, `DTEND;TZID=Europe/Paris:202601${day}T190000`, 'RRULE:FREQ=WEEKLY;COUNT=6', 'BEGIN:VALARM', 'ACTION:DISPLAY', 'TRIGGER:-PT15M', 'DESCRIPTION:Soon', 'END:VALARM']),
            ...ev(`s${i}`, `Weekly ${i}, moved`, [`RECURRENCE-ID;TZID=Europe/Paris:202601${day}T180000`, `DTSTART;TZID=Europe/Paris:202601${day}T200000`, `DTEND;TZID=Europe/Paris:202601${day}T210000`]),
          ];
        case 3:
          return vevent(`o${i}`, `Organisé ${i} €`, [`ORGANIZER;CN=Ana ${i % 4}:mailto:ana${i % 4}@example.org`, 'CLASS:PRIVATE', `DESCRIPTION:<p>Notes ${i}</p>`]);
        case 4:
          return ev(`f${i}`, `Floating ${i}`, [`DTSTART:202605${day}T070000`, `DTEND:202605${day}T063000`, 'X-ALMANAC-LANGUAGE:pt-br', `CREATED:20250101T1200${String(i % 60).padStart(2, '0')}Z`]);
        default:
          return vevent(`p${i}`, `Padded ${i}`, [`X-TEST-PADDING:${'x'.repeat(1500)}`]);
      }
    };
    const count = Math.ceil(THREADED_READING_BYTES / 300);
    // With a byte order mark and characters of every width, which the reading thread decodes.
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), calendar(...Array.from({ length: count }, (_, i) => kinds(i)))]);
    expect(bytes.length).toBeGreaterThan(THREADED_READING_BYTES);
    // As importFile writes an iCalendar file's events: without a language of their own (issue 27).
    const ctx = { lang: 'en' as const, now: NOW, siteZone: 'Europe/Lisbon', eventLang: '' as const };

    const threaded = freshStore();
    const report = run(threaded, bytes);
    const here = freshStore();
    const { events } = parseIcs((decodeImportFile(bytes) as { text: string }).text, { siteZone: ctx.siteZone, now: NOW });
    importRecords(here, 'events', events.map((e) => ({ line: e.line, uid: e.uid, recurrenceId: e.recurrenceId, body: { ...e.body } })), ctx);

    expect(report.created).toBeGreaterThan(count);
    const tables = ['events', 'event_terms', 'event_organizers', 'event_series', 'event_reminders', 'venues', 'organizers', 'terms', 'posts', 'event_day_counts'];
    for (const table of tables) {
      const rows = (s: Store) => s.db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).raw().all();
      expect(rows(threaded), table).toEqual(rows(here));
    }
    // Not empty: each kind above wrote what it says.
    const one = (sql: string) => threaded.db.prepare(sql).pluck().get();
    expect(one("SELECT count(*) FROM events WHERE timezone = 'America/New_York'")).toBeGreaterThan(0);
    expect(one("SELECT count(*) FROM events WHERE lang = 'es' AND all_day = 1 AND featured = 1")).toBeGreaterThan(0);
    expect(one('SELECT count(*) FROM event_reminders')).toBeGreaterThan(0);
    expect(one('SELECT count(*) FROM event_organizers')).toBeGreaterThan(0);
    expect(one("SELECT count(*) FROM events WHERE status = 'private' AND title LIKE 'Organisé % €'")).toBeGreaterThan(0);
  });
});
