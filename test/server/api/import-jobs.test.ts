/**
 * Background imports (`POST /import?background=true`): the server keeps answering while a long
 * import runs on its own thread, clients see its progress, then its report or its error, and a
 * cancelled or interrupted import leaves the calendar exactly as it was.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startTestServer, type TestServer } from '../../helpers/server';
import { bigCalendar } from '../../helpers/big-calendar';
import { tempDir } from '../../helpers/temp-dir';
import { createImportJobs } from '../../../electron/server/import-export/import-jobs';
import { openDatabase, closeDatabase } from '../../../electron/server/store/db';
import { ImportJob } from '../../../shared/api/import-report';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../../fixtures', name));


let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const start = (file: Buffer, query = '') => s.api('post', `import?background=true${query}`).set('Content-Type', 'application/octet-stream').send(file);
const jobPath = (url: string) => url.slice(url.indexOf('/cal/events/v1/') + '/cal/events/v1/'.length);

/** Polls a job until it ends, keeping every answer seen on the way. */
async function follow(url: string, query = ''): Promise<ImportJob[]> {
  const seen: ImportJob[] = [];
  for (;;) {
    const res = await s.api('get', jobPath(url) + query);
    expect(res.status).toBe(200);
    seen.push(ImportJob.parse(res.body));
    if (res.body.state !== 'running') return seen;
    await new Promise((ok) => setTimeout(ok, 15));
  }
}

const eventTotal = async (search: string) => (await s.api('get', `events?start_date=2000-01-01&end_date=2100-01-01&search=${search}&per_page=1`)).body.total ?? 0;

// Each job starts a thread that loads the importer (from sources, through tsx, in tests): seconds on a busy machine.
describe('background import', { timeout: 60_000 }, () => {
  it('answers 202 with a job at once, then the job ends with the same report an ordinary import gives', async () => {
    const res = await start(fixture('ics/google.ics'), '&dry_run=true');
    expect(res.status).toBe(202);
    const job = ImportJob.parse(res.body);
    expect(job).toMatchObject({ state: 'running', finished: null, report: null, error: null });
    expect(res.headers.location).toBe(job.rest_url);
    const end = (await follow(job.rest_url)).at(-1)!;
    expect(end.state).toBe('done');
    expect(end.finished).not.toBeNull();

    const direct = await s.api('post', 'import?dry_run=true').set('Content-Type', 'text/calendar').send(fixture('ics/google.ics'));
    expect(end.report).toEqual(direct.body);
  });

  it('keeps serving requests during a long import, which other clients see only once it is complete', async () => {
    const n = 6000;
    const before = await eventTotal('Bulk');
    const res = await start(bigCalendar(n));
    expect(res.status).toBe(202);
    const seen: ImportJob[] = [];
    const totalsDuring: number[] = [];
    for (;;) {
      const job = ImportJob.parse((await s.api('get', jobPath(res.body.rest_url))).body);
      seen.push(job);
      if (job.state !== 'running') break;
      totalsDuring.push(await eventTotal('Bulk'));
    }
    const end = seen.at(-1)!;
    expect(end.state).toBe('done');
    expect(end.report).toMatchObject({ created: n, skipped: 0 });
    // Progress only goes forward, and both phases were seen on the way with a count of their own.
    const running = seen.filter((j) => j.state === 'running');
    expect(running.length).toBeGreaterThan(1);
    expect(running.some((j) => j.phase === 'writing' && j.done > 0 && j.done < j.total)).toBe(true);
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1], seen[i]];
      if (a.phase === b.phase) expect(b.done).toBeGreaterThanOrEqual(a.done);
      else expect([a.phase, b.phase]).toEqual(['reading', 'writing']);
    }
    // The lists answered meanwhile showed all of the import or none of it (the import may commit
    // between a progress answer and the next list).
    expect(totalsDuring.filter((t) => t === before).length).toBeGreaterThan(0);
    expect(totalsDuring.every((t) => t === before || t === before + n)).toBe(true);
    expect(await eventTotal('Bulk')).toBe(before + n);
  }, 120_000);

  it('a write sent while an import runs is answered and kept', async () => {
    const res = await start(bigCalendar(3000, 'Waiting'));
    const write = s.api('post', 'events').send({ title: 'Written meanwhile', start_date: '2031-05-01 10:00:00', end_date: '2031-05-01 11:00:00' });
    const [created, seen] = await Promise.all([write, follow(res.body.rest_url)]);
    expect(seen.at(-1)!.state).toBe('done');
    expect(created.status).toBe(201);
    expect((await s.api('get', `events/${created.body.id}`)).body.title).toBe('Written meanwhile');
    expect(await eventTotal('Waiting')).toBe(3000);
  }, 60_000);

  it('a cancelled import keeps nothing', async () => {
    const before = s.snapshot();
    const res = await start(bigCalendar(20_000, 'Cancelled'));
    // Cancelled once it is writing, the hardest moment: rows exist, uncommitted.
    for (;;) {
      const job = (await s.api('get', jobPath(res.body.rest_url))).body as ImportJob;
      if (job.phase === 'writing' || job.state !== 'running') break;
      await new Promise((ok) => setTimeout(ok, 10));
    }
    const cancel = await s.api('delete', jobPath(res.body.rest_url));
    expect(cancel.status).toBe(202);
    const end = (await follow(res.body.rest_url)).at(-1)!;
    expect(end).toMatchObject({ state: 'cancelled', report: null, error: null });
    expect(s.snapshot()).toEqual(before);
    // Cancelling an ended job changes nothing and says how it ended.
    const again = await s.api('delete', jobPath(res.body.rest_url));
    expect(again.status).toBe(200);
    expect(again.body.state).toBe('cancelled');
  }, 60_000);

  it('a refused file ends the job failed, with the error an ordinary import answers, worded for whoever asks', async () => {
    const before = s.snapshot();
    const file = Buffer.from(
      ['BEGIN:VCALENDAR', 'VERSION:2.0', 'BEGIN:VEVENT', 'UID:ok@tests', 'SUMMARY:Fine', 'DTSTART:20300101T100000Z', 'END:VEVENT', 'BEGIN:VEVENT', 'UID:bad@tests', 'SUMMARY:No start', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n'),
    );
    const res = await start(file);
    expect(res.status).toBe(202);
    const end = (await follow(res.body.rest_url, '?i18n_language=es')).at(-1)!;
    expect(end.state).toBe('failed');
    const direct = await s.api('post', 'import?i18n_language=es').set('Content-Type', 'text/calendar').send(file);
    expect(direct.status).toBe(400);
    expect(end.error).toEqual(direct.body);
    expect(end.error!.message).toMatch(/No se pudieron importar/);
    expect(s.snapshot()).toEqual(before);
  });

  it('restores a JSON backup in the background', async () => {
    await s.api('post', 'events').send({ title: 'Kept in the backup', start_date: '2031-06-01 10:00:00', end_date: '2031-06-01 11:00:00' });
    const backup = await s.api('get', 'export?format=json').buffer(true);
    const res = await start(Buffer.from(backup.text ?? backup.body));
    const end = (await follow(res.body.rest_url)).at(-1)!;
    expect(end.state).toBe('done');
    expect(end.report).toMatchObject({ dry_run: false });
    expect((end.report as { restored: Record<string, number> }).restored.events).toBeGreaterThan(0);
  });

  it('refuses an empty file at once, and knows no job it never started', async () => {
    const missing = await s.api('get', 'import/jobs/0123456789abcdef');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'import-job-not-found', data: { status: 404 } });
    const empty = await s.api('post', 'import?background=true').set('Content-Type', 'text/calendar').send('');
    expect(empty.status).toBe(400);
  });

  it('needs the token to see or cancel a job', async () => {
    const res = await start(fixture('ics/apple.ics'));
    await follow(res.body.rest_url);
    expect((await s.anon('get', jobPath(res.body.rest_url))).status).toBe(401);
    expect((await s.anon('delete', jobPath(res.body.rest_url))).status).toBe(401);
  });
});

describe('a server closing during a background import', { timeout: 60_000 }, () => {
  it('rolls the import back and closes cleanly', async () => {
    const own = await startTestServer();
    const file = join(own.dataDir, 'almanac.sqlite');
    const count = () => {
      const db = new Database(file, { readonly: true });
      try {
        return (db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    const before = count();
    const res = await own.api('post', 'import?background=true').set('Content-Type', 'text/calendar').send(bigCalendar(20_000, 'Closing'));
    expect(res.status).toBe(202);
    // Closed once it is writing, so there is something uncommitted to roll back.
    const path = jobPath(res.body.rest_url);
    let job = (await own.api('get', path)).body;
    while (job.state === 'running' && job.phase !== 'writing') {
      await new Promise((ok) => setTimeout(ok, 10));
      job = (await own.api('get', path)).body;
    }
    // A job that ended (or failed) while reading would make this test prove nothing.
    expect([job.state, job.phase]).toEqual(['running', 'writing']);
    await own.server.close();
    expect(count()).toBe(before);
    const check = new Database(file, { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
    await own.close();
  });
});

describe('after an import on its thread', () => {
  it('the server is told (and extends the series it wrote) when one succeeds, not when one fails', async () => {
    const dir = tempDir('almanac-jobs-');
    const dbPath = join(dir, 'almanac.sqlite');
    closeDatabase(openDatabase(dbPath));
    const told: string[] = [];
    const imports = createImportJobs({ dbPath, onImported: () => told.push('imported') });
    try {
      const ctx = { lang: 'en' as const, now: new Date(), siteZone: 'UTC' };
      await imports.run(bigCalendar(3, 'Told'), { ctx });
      expect(told).toEqual(['imported']);
      await expect(imports.run(Buffer.from('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:nonsense\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n'), { ctx })).rejects.toThrow();
      expect(told).toEqual(['imported']);
      const job = imports.start(bigCalendar(2, 'Job'), { ctx });
      await expect.poll(() => imports.get(job.id)?.state, { timeout: 20_000 }).toBe('done');
      expect(told).toEqual(['imported', 'imported']);
    } finally {
      await imports.close();
    }
  });
});
