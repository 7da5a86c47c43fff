/**
 * A large iCalendar export is written by worker threads, a slice of the selection each
 * (ics-threads.ts). The file must be the one the server's thread writes alone, byte for byte,
 * wherever the slices end and however many threads there are; it must be one snapshot of the
 * calendar even while other writers commit; and a client that leaves must leave no thread and no
 * connection behind.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { get } from 'node:http';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { startTestServer, type TestServer } from '../../helpers/server';
import { exportIcs } from '../../../electron/server/import-export/ics-export';
import { icsThreads, liveExportThreads, sliceStarts, threadedExports } from '../../../electron/server/import-export/ics-threads';
import type { Event } from '../../../shared/api/records';
import { event, organizer, term, venue } from './records';

const defaults = { ...icsThreads };
let s: TestServer;

const zones = ['Europe/Lisbon', 'America/New_York', 'UTC', 'Asia/Kolkata', 'Australia/Lord_Howe'];
const venues = [venue({ id: 1, venue: 'Town Hall', city: 'Springfield', geo_lat: 39.8, geo_lng: -89.6 }), venue({ id: 2, venue: 'Café; Bar, "Club"', city: 'Lisboa' })];
const organizers = [organizer({ id: 11, organizer: 'Arts Council', email: 'info@arts.example.org' }), organizer({ id: 12, organizer: 'Ñandú, Ltd' })];

/** `count` events; runs of three share a start, so slice ends fall among equal starts. */
function calendar(count: number, lang: 'en' | 'pt-br', long = false, prefix = 't'): Buffer {
  const events = Array.from({ length: count }, (_, i) => {
    const n = Math.floor(i / 3);
    const day = `2025-${String(1 + (n % 12)).padStart(2, '0')}-${String(1 + (Math.floor(n / 12) % 28)).padStart(2, '0')}`;
    const hour = String(8 + (Math.floor(n / 336) % 12)).padStart(2, '0');
    return event({
      id: 100 + i,
      title: [`Concert ${i}`, `Rock, Paper; Scissors ${i}`, `日本語のイベント ${i}`][i % 3],
      start_date: `${day} ${hour}:00:00`,
      end_date: `${day} ${hour}:45:00`,
      timezone: zones[i % zones.length],
      all_day: i % 11 === 3,
      status: (['publish', 'draft', 'private'] as const)[i % 3],
      description: long ? `<p>${`Event ${i}, a long description. `.repeat(100)}</p>` : i % 2 ? '<p>Some text; with, specials</p>' : '',
      venue: i % 4 === 3 ? [] : venues[i % 2],
      organizer: organizers.slice(0, i % 3),
      categories: i % 2 ? [term(21, 'Music', 'categories')] : [],
      tags: i % 3 ? [term(31, 'loud', 'tags')] : [],
      cost: ['', '$20'][i % 2],
      cost_details: (
        [
          { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
          { currency_symbol: '$', currency_code: 'USD', currency_position: 'prefix', values: ['20'] },
        ] satisfies Event['cost_details'][]
      )[i % 2],
      featured: i % 2 === 0,
      slug: `${lang}-${prefix}-${i}`,
      i18n_language: lang,
    });
  });
  return Buffer.from([...exportIcs(events, { uidHost: `${prefix}.${lang}.test` })].join(''));
}

async function load(file: Buffer) {
  const res = await s.api('post', 'import').set('Content-Type', 'text/calendar').send(file);
  expect(res.status).toBe(200);
}

async function exportText(query: string): Promise<{ text: string; total: string }> {
  const res = await s.api('get', `export?${query}`).buffer(true).parse((r, cb) => {
    const parts: Buffer[] = [];
    r.on('data', (c: Buffer) => parts.push(c));
    r.on('end', () => cb(null, Buffer.concat(parts).toString('utf8')));
  });
  expect(res.status).toBe(200);
  return { text: res.body as string, total: res.headers['x-cal-total'] };
}

/** The file as the server's thread writes it alone. */
async function singleThreaded(query: string) {
  Object.assign(icsThreads, { minEvents: Infinity });
  try {
    return await exportText(query);
  } finally {
    Object.assign(icsThreads, defaults);
  }
}

beforeAll(async () => {
  s = await startTestServer();
  await load(calendar(240, 'en'));
  await load(calendar(60, 'pt-br'));
}, 180_000);
afterEach(() => {
  Object.assign(icsThreads, defaults);
});
afterAll(() => s.close());

describe('slices', () => {
  it('cuts only between different starts', () => {
    expect(sliceStarts(['a', 'a', 'b', 'b', 'b', 'c', 'd'], 2)).toEqual(['b', 'd']);
    expect(sliceStarts(['a', 'b', 'b', 'b', 'c', 'd'], 2)).toEqual(['b', 'c']);
    expect(sliceStarts(['a', 'a', 'a'], 1)).toEqual([]);
    expect(sliceStarts([], 5)).toEqual([]);
    expect(sliceStarts(['a', 'b', 'c'], 1)).toEqual(['b', 'c']);
  });

  const queries = ['status=any&start_date=1900-01-01', 'status=any&start_date=1900-01-01&i18n_language=pt-br', 'start_date=2025-03-01&end_date=2025-09-30&search=concert', 'start_date=2999-01-01'];
  it.each(queries)('the same file with 1, 2 or 3 threads and any slice size: %s', async (query) => {
    const reference = await singleThreaded(query);
    expect(reference.text).toMatch(/END:VCALENDAR\r\n$/);
    for (const [workers, sliceEvents, leadSlices] of [
      [2, 5000, 0],
      [2, 1, 1],
      [3, 2, 0],
      [3, 7, 1],
      [2, 50, Infinity],
    ]) {
      Object.assign(icsThreads, { minEvents: 0, workers, sliceEvents, leadSlices });
      const joined = threadedExports.joined;
      const got = await exportText(query);
      expect({ workers, sliceEvents, total: got.total }).toEqual({ workers, sliceEvents, total: reference.total });
      expect(got.text === reference.text, `${workers} threads, slices of ${sliceEvents}`).toBe(true);
      // With no write meanwhile, the workers joined (when they were waited for).
      if (leadSlices === 0 || (leadSlices === 1 && reference.total !== '0')) expect(threadedExports.joined).toBe(joined + 1);
    }
    expect(liveExportThreads.size).toBe(0);
  }, 180_000);
});

describe('one snapshot', () => {
  it('a write committed while an export starts is in every slice or in none', async () => {
    const dbPath = join(s.dataDir, 'almanac.sqlite');
    // Another connection (as the CLI would be) renames every English event in one transaction,
    // over and over: each export must show one generation only.
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const writer = new Worker(
      `const { workerData } = require('node:worker_threads');
       const Database = require(workerData.sqlite);
       const db = new Database(workerData.dbPath);
       db.pragma('busy_timeout = 5000');
       const stop = new Int32Array(workerData.stop);
       const rename = db.prepare("UPDATE events SET title = 'Generation ' || ? WHERE lang = 'en'");
       for (let g = 1; !Atomics.load(stop, 0); g++) {
         db.transaction(() => rename.run(g)).immediate();
         if (g === 1) require('node:worker_threads').parentPort.postMessage('renamed');
         Atomics.wait(stop, 0, 0, Math.random() < 0.5 ? 2 : Math.random() * 1500);
       }
       db.close();`,
      { eval: true, workerData: { dbPath, stop: stop.buffer, sqlite: require.resolve('better-sqlite3') } },
    );
    const exited = new Promise((done) => writer.once('exit', done));
    await new Promise((done) => writer.once('message', done));
    const seen = new Set<string>();
    try {
      Object.assign(icsThreads, { minEvents: 0, workers: 3, sliceEvents: 5, leadSlices: 1 });
      const counts = { ...threadedExports };
      for (let i = 0; i < 8; i++) {
        const { text } = await exportText('status=any&start_date=1900-01-01&i18n_language=en');
        const generations = new Set([...text.matchAll(/^SUMMARY:Generation ([\d.]+)\r$/gm)].map((m) => m[1]));
        expect(text.match(/^BEGIN:VEVENT\r$/gm)?.length).toBe(240);
        expect(generations.size).toBe(1);
        seen.add([...generations][0]);
      }
      // Each export was either joined by the workers or written here alone (a write came first).
      expect(threadedExports.joined + threadedExports.alone).toBe(counts.joined + counts.alone + 8);
    } finally {
      Atomics.store(stop, 0, 1);
      await exited;
    }
    // The writer did commit while the exports ran.
    expect(seen.size).toBeGreaterThan(1);
  }, 180_000);

  it('a write after this thread began leaves the workers out: the file is the snapshot it began with', async () => {
    Object.assign(icsThreads, { minEvents: 0, workers: 2, sliceEvents: 5, leadSlices: 1 });
    const alone = threadedExports.alone;
    const before = (await singleThreaded('status=any&start_date=1900-01-01&i18n_language=pt-br')).text;
    Object.assign(icsThreads, { minEvents: 0, workers: 2, sliceEvents: 5, leadSlices: 1 });
    const url = `${s.server.apiRoot}export?status=any&start_date=1900-01-01&i18n_language=pt-br`;
    const text = await new Promise<string>((done, fail) => {
      get(url, { headers: { Authorization: `Bearer ${s.server.token}` } }, (res) => {
        const parts: Buffer[] = [];
        res.once('data', () => {
          // The export has begun (its head is out): a write now commits before the workers join.
          s.server.db.prepare("UPDATE events SET title = 'Renamed' WHERE lang = 'pt-br'").run();
        });
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => done(Buffer.concat(parts).toString('utf8')));
        res.on('error', fail);
      });
    });
    expect(threadedExports.alone).toBe(alone + 1);
    expect(text === before).toBe(true);
    expect(text).not.toContain('Renamed');
    expect((await singleThreaded('status=any&start_date=1900-01-01&i18n_language=pt-br')).text).toContain('SUMMARY:Renamed');
  }, 180_000);
});

describe('a client that leaves', () => {
  it('stops the threads and closes their connections', async () => {
    await load(calendar(600, 'en', true, 'long'));
    Object.assign(icsThreads, { minEvents: 0, workers: 2, sliceEvents: 20, leadSlices: 1 });
    const url = `${s.server.apiRoot}export?status=any&start_date=1900-01-01`;
    const whole = (await exportText('status=any&start_date=1900-01-01')).text.length;
    const joined = threadedExports.joined;
    const received = await new Promise<number>((done, fail) => {
      const req = get(url, { headers: { Authorization: `Bearer ${s.server.token}` } }, (res) => {
        let got = 0;
        res.on('data', (c: Buffer) => {
          got += c.length;
          if (got > 100_000) {
            req.destroy();
            done(got);
          }
        });
        res.on('end', () => fail(new Error('the export ended before the client left')));
      });
      req.on('error', () => {});
    });
    expect(received).toBeLessThan(whole);
    expect(threadedExports.joined).toBeGreaterThan(joined);
    for (let i = 0; i < 100 && liveExportThreads.size > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(liveExportThreads.size).toBe(0);
    // No reader is left holding an old snapshot: after a write, the log can be folded back whole.
    expect((await s.api('post', 'events').send({ title: 'After', start_date: '2025-01-01 10:00:00', end_date: '2025-01-01 11:00:00' })).status).toBe(201);
    expect(s.server.db.pragma('wal_checkpoint(TRUNCATE)')).toEqual([{ busy: 0, log: 0, checkpointed: 0 }]);
  }, 180_000);
});
