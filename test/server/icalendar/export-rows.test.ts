/**
 * The database export writes its events from SQL rows (icalendar/export-rows.ts), not from API records. The
 * file must be what exportIcs writes from the API records of the same events, byte for byte, and
 * must not depend on where its batches end, nor on which thread wrote them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, closeDatabase, type DB } from '../../../electron/server/store/db';
import { createStore, type Store } from '../../../electron/server/store';
import type { EventListQuery } from '../../../electron/server/store/events';
import { importFile } from '../../../electron/server/import-export/import-file';
import { exportIcs } from '../../../electron/server/icalendar/export';
import { describeHtml, descriptionToHtml } from '../../../electron/server/icalendar/text';
import { renderContent } from '../../../electron/server/serialize/content';
import { createBatchWriter, createLinkLoader } from '../../../electron/server/icalendar/export-rows';
import { icsExportChunks, type ExportWorkerData, type ExportWorkerInput, type ExportWorkerOutput } from '../../../electron/server/icalendar/export-threaded';
import { startWorker } from '../../../electron/server/import-export/worker-script';
import { MessageChannel } from 'node:worker_threads';
import { serializeEvents } from '../../../electron/server/serialize/event';
import type { UrlContext } from '../../../electron/server/serialize/context';
import type { Language } from '../../../shared/i18n/languages';
import type { Event } from '../../../shared/api/records';
import { event, organizer, term, venue } from '../import-export/records';

const NOW = new Date('2026-06-01T12:00:00Z');
let dir: string;
let db: DB;
let store: Store;
let ctx: UrlContext;

const zones = ['Europe/Lisbon', 'America/New_York', 'UTC', 'Asia/Kolkata', 'UTC+2', 'Australia/Lord_Howe'];
const venues = [
  venue({ id: 1, venue: 'Town Hall', address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701', country: 'United States', geo_lat: 39.8, geo_lng: -89.6 }),
  venue({ id: 2, venue: 'Café; Bar, "Club"', city: 'Lisboa', phone: '+351 555', website: 'https://venue.example.org/a?b=c;d' }),
  venue({ id: 3, venue: 'Sala São João', province: 'SP', geo_lat: 0, geo_lng: -46.6 }),
];
const organizers = [
  organizer({ id: 11, organizer: 'Arts Council', email: 'info@arts.example.org' }),
  organizer({ id: 12, organizer: 'Ñandú, Ltd; "Q"', phone: '+55 11 5555', website: 'https://org.example.com' }),
];
const descriptions = ['', '<p>One paragraph,  with  spaces; and specials \\</p>', '<ul><li>one</li><li>two &amp; three</li></ul><p>Ünïcödé 日本語のテキスト、長い説明文がここに続きます。</p>', `<p>${'Long text. '.repeat(30)}</p>`];

/** A calendar file with events of every shape, to fill a store by importing it. */
function source(lang: Language): Buffer {
  const events = Array.from({ length: 40 }, (_, i) => {
    const day = String(1 + (i % 9)).padStart(2, '0');
    return event({
      id: 100 + i,
      title: [`Concert ${i}`, `Tom &amp; Jerry ${i}`, `Rock, Paper; Scissors \\ ${i}`, `日本語のイベント ${i}`][i % 4],
      // Several events share a start, so batch ends fall inside runs of equal starts.
      start_date: `2025-0${1 + (i % 3)}-${day} ${i % 2 ? '19:00:00' : '09:30:00'}`,
      end_date: `2025-0${1 + (i % 3)}-${day} 21:00:00`,
      timezone: zones[i % zones.length],
      all_day: i % 7 === 3,
      status: (['publish', 'draft', 'private', 'pending'] as const)[i % 4],
      description: descriptions[i % descriptions.length],
      excerpt: i % 5 === 0 ? 'Short excerpt, with; specials' : '',
      venue: i % 4 === 3 ? [] : venues[i % 3],
      organizer: organizers.slice(0, i % 3),
      categories: i % 2 ? [term(21, 'Music', 'categories'), term(22, 'Arte, Cultura', 'categories')] : [],
      tags: i % 3 ? [term(31, 'loud', 'tags')] : [],
      cost: ['', '$20', '10 – 25'][i % 3],
      cost_details: (
        [
          { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
          { currency_symbol: '$', currency_code: 'USD', currency_position: 'prefix', values: ['20'] },
          { currency_symbol: '', currency_code: '', currency_position: '', values: ['10', '25'] },
        ] satisfies Event['cost_details'][]
      )[i % 3],
      website: i % 6 === 1 ? 'https://event.example.org/page?x=1&y=2' : `http://127.0.0.1:8765/event/e-${i}/`,
      image: i % 8 === 2 ? { url: `https://img.example.org/${i}.jpg`, id: 900 + i } : false,
      featured: i % 2 === 0,
      sticky: i % 3 === 0,
      hide_from_listings: i % 5 === 0,
      show_map: i % 2 === 1,
      show_map_link: i % 4 === 1,
      slug: `${lang}-e-${i}`,
      i18n_language: lang,
    });
  });
  return Buffer.from(exportIcs(events, { uidHost: `${lang}.test` }));
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'almanac-ics-rows-'));
  db = openDatabase(join(dir, 'almanac.sqlite'));
  store = createStore(db);
  for (const lang of ['en', 'pt-br'] as const) {
    importFile(store, source(lang), { format: 'ics', ctx: { lang, now: NOW, siteZone: 'Europe/Lisbon' } });
  }
  // Other programs' files: their UIDs are kept, and recurring series.
  for (const name of ['google.ics', 'outlook.ics']) {
    importFile(store, readFileSync(join(import.meta.dirname, '../../fixtures/ics', name)), { format: 'ics', ctx: { lang: 'en', now: NOW, siteZone: 'Europe/Lisbon' } });
  }
  ctx = { origin: 'http://127.0.0.1:8765', apiRoot: 'http://127.0.0.1:8765/cal/events/v1/', settings: store.settings.get() };
});

afterAll(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

const query = (lang: Language, extra: Partial<EventListQuery> = {}): EventListQuery => ({
  lang,
  statuses: ['publish', 'future', 'draft', 'pending', 'private'],
  page: 1,
  perPage: 1,
  startDate: '2000-01-01 00:00:00',
  ...extra,
});

const options = { uidHost: 'almanac.test', calendarName: 'Almanac' };

/** The file as the export wrote it before: API records of every event, in start order. */
function fromApiRecords(q: EventListQuery): string {
  const { ids } = store.events.list({ ...q, perPage: 1_000_000 });
  const rows = store.events.byIds(ids);
  const events = serializeEvents(ids.map((id) => rows.get(id)!), ctx, store);
  return exportIcs(events, { ...options, uidOf: (e) => rows.get(e.id)!.ics_uid, seriesUidOf: (id) => store.events.get(id)?.ics_uid });
}

const decode = (chunks: Iterable<string | Uint8Array>) => [...chunks].map((c) => (typeof c === 'string' ? c : Buffer.from(c).toString('utf8'))).join('');

/** The database export on this thread alone. */
function fromRows(q: EventListQuery, batchSize?: number): string {
  return decode(icsExportChunks(store, q, ctx, { ...options, threadedFrom: Infinity, batchSize }));
}

describe('the database export', () => {
  it.each([
    ['en', {}],
    ['pt-br', {}],
    ['en', { featured: true }],
    ['en', { search: 'concert' }],
  ] as const)('writes %s %j as it would from API records', (lang, extra) => {
    const q = query(lang, extra);
    const expected = fromApiRecords(q);
    expect(expected.match(/BEGIN:VEVENT/g)?.length).toBeGreaterThan(3);
    expect(fromRows(q)).toBe(expected);
  });

  it('writes the same file whatever the batch size', () => {
    const q = query('en');
    const whole = fromRows(q, 1000);
    expect(fromRows(q, 1)).toBe(whole);
    expect(fromRows(q, 7)).toBe(whole);
  });

  it('streams the file a batch at a time, never holding it whole', () => {
    const chunks = [...icsExportChunks(store, query('en'), ctx, { ...options, threadedFrom: Infinity, batchSize: 7 })];
    const events = chunks.map((c) => decode([c]).split('BEGIN:VEVENT\r\n').length - 1);
    expect(events.reduce((a, b) => a + b, 0)).toBeGreaterThan(14);
    expect(Math.max(...events)).toBe(7);
  });
});

describe('describeHtml', () => {
  it('reads plain text as the API renders it back exactly, spaces and line breaks as typed', () => {
    const pieces = ['a', ' ', '  ', 'é', '\u00a0', '\u2003', 'x y', ';', '\\', '日本', '\n', '\n\n', '&', '<', '>'];
    for (let i = 0; i < 500; i++) {
      let text = '';
      for (let j = 0; j < (i % 12) + 1; j++) text += pieces[(i * 7 + j * 13) % pieces.length];
      // What an import stores of a plain DESCRIPTION, shown as the API shows it: paragraphs
      // trimmed, blank lines between them one (renderContent), the rest as typed.
      const paragraphs = text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean).join('\n\n');
      expect(describeHtml(renderContent(descriptionToHtml(text))).text).toBe(paragraphs);
    }
  });
});

describe('the export on two threads (icalendar/export-threaded.ts)', () => {
  it.each(['en', 'pt-br'] as const)('writes the %s file the one-thread export writes, whichever thread writes each batch', (lang) => {
    const q = query(lang);
    const expected = fromRows(q);
    for (const batchSize of [1, 7, 500]) {
      expect(decode(icsExportChunks(store, q, ctx, { uidHost: 'almanac.test', calendarName: 'Almanac', threadedFrom: 0, batchSize })), `batches of ${batchSize}`).toBe(expected);
    }
  });

  it("uses the thread's text when it answers in time, as for a slow client", async () => {
    const q = query('en');
    const by: string[] = [];
    const chunks: Array<string | Uint8Array> = [];
    const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));
    // The thread starts with the export: the head's pause gives it time to load (through tsx here).
    for (const chunk of icsExportChunks(store, q, ctx, { uidHost: 'almanac.test', calendarName: 'Almanac', threadedFrom: 0, batchSize: 2, onBatch: (b) => by.push(b) })) {
      chunks.push(chunk);
      await pause(chunks.length === 1 ? 5000 : 30);
    }
    expect(by).toContain('worker');
    expect(decode(chunks)).toBe(fromRows(q));
  }, 30_000);

  it('writes everything itself when no thread can be had', () => {
    const q = query('en');
    // A function cannot be sent to a thread, so starting one fails.
    const unsendable = { ...ctx, settings: { ...ctx.settings, toJSON: () => ({}) } };
    const by: string[] = [];
    expect(decode(icsExportChunks(store, q, unsendable as UrlContext, { uidHost: 'almanac.test', calendarName: 'Almanac', threadedFrom: 0, batchSize: 5, onBatch: (b) => by.push(b) }))).toBe(fromRows(q));
    expect(by.length).toBeGreaterThan(3);
    expect(new Set(by)).toEqual(new Set(['here']));
  });

  it("the thread's text for each batch is the text this thread writes for it", async () => {
    const q = query('en');
    const loader = createLinkLoader(store, ctx);
    const writer = createBatchWriter(ctx, 'almanac.test');
    const { port1, port2 } = new MessageChannel();
    const thread = startWorker('ics-export-worker', { ctx, uidHost: 'almanac.test', port: port2 } satisfies ExportWorkerData, [port2]);
    try {
      const expected: string[] = [];
      let seq = 0;
      for (const batch of store.events.exportBatchTexts(q, 6)) {
        const linked = loader.load(batch.links);
        writer.add(linked);
        expected.push(writer.write(batch));
        port1.postMessage({ linked: [linked], seq: seq++, rows: batch } satisfies ExportWorkerInput);
      }
      expect(expected.length).toBeGreaterThan(5);
      const answers: string[] = [];
      await new Promise<void>((done, fail) => {
        port1.on('message', (m: ExportWorkerOutput) => {
          if (m.type === 'crashed') return fail(new Error(m.message));
          expect(m.seq).toBe(answers.length);
          answers.push(new TextDecoder().decode(m.utf8));
          if (answers.length === expected.length) done();
        });
      });
      expect(answers).toEqual(expected);
    } finally {
      port1.close();
      await thread.terminate();
    }
  });
});
