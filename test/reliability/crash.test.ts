/**
 * Crash consistency (issue #7). A server child process takes many writes from this process while
 * a CLI import child writes the same SQLite file directly, and the server may also be busy with a
 * large import sent to /import; each child is killed with SIGKILL at a seeded random moment (before
 * it listens, mid-request, mid-import, after it finished...). After every kill the calendar is
 * reopened the way the app does it (`createServer` on the same data directory) and must be:
 *
 *  - sound: `PRAGMA integrity_check` is ok, no broken foreign key, term counts match their
 *    published events, no half-written record (a registry id without its row);
 *  - durable: every write answered with 2xx is there with the content that was acknowledged
 *    (checked through the API as served after the restart, and in the table rows); a write that was
 *    refused with a complete non-2xx answer is not there; a write whose answer never came is either
 *    fully there or not at all;
 *  - atomic: each import has all of its events or none, and all of them when it reported success.
 *
 * Then a CLI import is killed while it holds the write lock (seen from a probe connection), which
 * lands inside its transaction; and a JSON backup restore (replaces the whole calendar) is killed
 * once it starts writing: afterwards the calendar is exactly the one before or exactly the backup.
 *
 * ALMANAC_CRASH_SEED=<n> replays a run (the seed is printed, and named in every failure);
 * ALMANAC_LONG_TESTS=1 runs many more kills.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createServer, silentLogger } from '../../electron/server';
import { closeDatabase, openDatabase, type DB } from '../../electron/server/store/db';
import { cliImport, makeIcs, rng, scratchSpace, sleep, startServerChild, type Child, type Rng } from './fixtures/procs';

const LONG = process.env.ALMANAC_LONG_TESTS === '1';
const SEED = process.env.ALMANAC_CRASH_SEED ? Number(process.env.ALMANAC_CRASH_SEED) : Math.floor(Math.random() * 2 ** 31);
const WRITE_ROUNDS = LONG ? 30 : 4;
const LOCKED_ROUNDS = LONG ? 10 : 2;
const RESTORE_ROUNDS = LONG ? 8 : 2;
const CLI_IMPORT_EVENTS = 400;
const API_IMPORT_EVENTS = 400;
const WRITERS = 6;
const TOKEN = 'crash-test-token-0123456789abcdef';

console.log(`[crash] ALMANAC_CRASH_SEED=${SEED}${LONG ? ' (long run)' : ''}`);

const { tempDir, children } = scratchSpace('almanac-crash-');

/** What the tests know about an event: its acknowledged state and what may be in flight. */
interface Tracked {
  id: number;
  owner: number;
  title: string;
  venue: string;
  category: string;
  /** Acknowledged description, and one whose answer never came (it may or may not be stored). */
  description: string;
  maybeDescription?: string;
  status: 'publish' | 'trash';
  maybeTrashed?: boolean;
  /** Set when this round touched it: checked through the API as well. */
  touched: boolean;
}

type Outcome = 'acked' | 'refused' | 'unknown';

/** A create whose outcome is not a clean 2xx: refused ones must be absent, unknown ones whole or absent. */
interface LooseCreate {
  kind: 'event' | 'venue' | 'tag';
  name: string;
  outcome: Exclude<Outcome, 'acked'>;
  description?: string;
  venue?: string;
  category?: string;
}

interface ImportRun {
  tag: string;
  n: number;
  via: 'cli' | 'api';
  /** cli: exit 0; api: a 200 answer. */
  outcome: Outcome;
}

const model = {
  events: new Map<number, Tracked>(),
  venues: new Set<string>(),
  tags: new Set<string>(),
  loose: [] as LooseCreate[],
  imports: [] as ImportRun[],
  stats: { requests: 0, acked: 0, refused: 0, unknown: 0, serverErrors: 0, importsAll: 0, importsNone: 0, earlyKills: 0, cliKilled: 0, cliDone: 0 },
};

async function call(base: string, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ outcome: Outcome; status?: number; json?: any }> {
  model.stats.requests++;
  try {
    const res = await fetch(`${base}/cal/events/v1/${path}`, {
      method,
      headers: { Authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'Content-Type': contentType } : {}) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    let text: string;
    try {
      text = await res.text();
    } catch {
      throw new Error('cut short');
    }
    if (res.status >= 500) model.stats.serverErrors++;
    if (res.ok) model.stats.acked++;
    else model.stats.refused++;
    // A whole answer is always JSON, whatever its status.
    return { outcome: res.ok ? 'acked' : 'refused', status: res.status, json: JSON.parse(text) };
  } catch (err) {
    if (err instanceof SyntaxError) throw new Error(`${method} ${path}: an answer that is not JSON`);
    // The connection broke, or the body was cut short: the answer never fully came.
    model.stats.unknown++;
    return { outcome: 'unknown' };
  }
}

/** One client writing as fast as it can until the server is gone. */
async function writer(base: string, round: number, k: number, r: Rng): Promise<void> {
  // Each writer updates only its own events, one request at a time, so "the last acknowledged
  // value" of each is well defined (concurrency.test.ts has clients racing on the same event).
  const own = [...model.events.values()].filter((e) => e.owner === k && e.status === 'publish');
  for (let n = 0; ; n++) {
    const p = r.next();
    let res: Awaited<ReturnType<typeof call>>;
    if (p < 0.45 || own.length === 0) {
      const title = `crash r${round} w${k} n${n}`;
      const venue = `Crash Hall ${r.int(0, 4)}`;
      const category = `crash-cat-${r.int(0, 3)}`;
      const description = `desc r${round} w${k} n${n} v0`;
      res = await call(base, 'POST', 'events', { title, description, start_date: `2034-0${1 + (n % 9)}-1${k} 10:00:00`, end_date: `2034-0${1 + (n % 9)}-1${k} 11:30:00`, venue: { venue }, categories: [category] });
      if (res.outcome === 'acked') {
        expect(res.json.title).toBe(title);
        const e: Tracked = { id: res.json.id, owner: k, title, venue, category, description, status: 'publish', touched: true };
        model.events.set(e.id, e);
        own.push(e);
      } else model.loose.push({ kind: 'event', name: title, outcome: res.outcome, description, venue, category });
    } else if (p < 0.8) {
      const e = r.pick(own);
      const description = `desc r${round} w${k} n${n} patched`;
      e.maybeDescription = description;
      e.touched = true;
      res = await call(base, 'PATCH', `events/${e.id}`, { description });
      if (res.outcome === 'acked') e.description = description;
      if (res.outcome !== 'unknown') e.maybeDescription = undefined;
    } else if (p < 0.9) {
      const e = r.pick(own);
      e.maybeTrashed = true;
      e.touched = true;
      res = await call(base, 'DELETE', `events/${e.id}`);
      if (res.outcome === 'acked') e.status = 'trash';
      if (res.outcome !== 'unknown') e.maybeTrashed = undefined;
      own.splice(own.indexOf(e), 1);
    } else if (p < 0.95) {
      const name = `Crash venue r${round} w${k} n${n}`;
      res = await call(base, 'POST', 'venues', { venue: name, city: 'Lisbon' });
      if (res.outcome === 'acked') model.venues.add(name);
      else model.loose.push({ kind: 'venue', name, outcome: res.outcome });
    } else {
      const name = `crash-tag-r${round}-w${k}-n${n}`;
      res = await call(base, 'POST', 'tags', { name });
      if (res.outcome === 'acked') model.tags.add(name);
      else model.loose.push({ kind: 'tag', name, outcome: res.outcome });
    }
    if (res.outcome === 'unknown') return; // the server is gone
  }
}

/** Everything the tables say about the calendar, for "exactly before or exactly after" checks. */
function fingerprint(db: DB): string {
  const h = createHash('sha256');
  for (const sql of [
    'SELECT id, title, content, status, start_local, end_local, venue_id, ics_uid FROM events ORDER BY id',
    'SELECT id, title, status, city FROM venues ORDER BY id',
    'SELECT id, taxonomy, name, slug, count FROM terms ORDER BY id',
    'SELECT event_id, term_id FROM event_terms ORDER BY event_id, term_id',
    'SELECT id, type FROM posts ORDER BY id',
  ]) h.update(JSON.stringify(db.prepare(sql).raw().all()));
  return h.digest('hex');
}

const count = (db: DB, sql: string, ...params: unknown[]) => (db.prepare(sql).get(...params) as { n: number }).n;

/** The soundness checks every reopened calendar must pass. */
function checkSound(db: DB, where: string) {
  expect(db.pragma('integrity_check', { simple: true }), `${where}: integrity_check`).toBe('ok');
  expect(db.pragma('foreign_key_check'), `${where}: foreign_key_check`).toEqual([]);
  const badCounts = db.prepare(`
    SELECT t.id, t.count, (SELECT count(*) FROM event_terms et JOIN events e ON e.id = et.event_id WHERE et.term_id = t.id AND e.status = 'publish') AS real
    FROM terms t WHERE t.count != real`).all();
  expect(badCounts, `${where}: term counts`).toEqual([]);
  for (const [type, table] of [['event', 'events'], ['venue', 'venues'], ['organizer', 'organizers']]) {
    expect(count(db, `SELECT count(*) AS n FROM posts p WHERE p.type = ? AND NOT EXISTS (SELECT 1 FROM ${table} x WHERE x.id = p.id)`, type), `${where}: ${type} ids without a row`).toBe(0);
  }
  const dupVenues = db.prepare("SELECT title, count(*) AS n FROM venues WHERE title LIKE 'Crash Hall %' GROUP BY lang, lower(trim(title)) HAVING n > 1").all();
  expect(dupVenues, `${where}: one venue per inline name`).toEqual([]);
}

/** Reopens the calendar as the app does after a crash, and checks everything the model knows. */
async function verify(dataDir: string, where: string): Promise<void> {
  const server = await createServer({ dataDir, token: TOKEN, port: 0, announce: false, log: silentLogger });
  try {
    const db = server.db;
    checkSound(db, where);

    // Every tracked event, from the table rows.
    const rows = new Map(
      (db.prepare(`SELECT e.id, e.title, e.content, e.status, v.title AS venue,
          (SELECT group_concat(t.name) FROM event_terms et JOIN terms t ON t.id = et.term_id WHERE et.event_id = e.id) AS cats
        FROM events e LEFT JOIN venues v ON v.id = e.venue_id WHERE e.title LIKE 'crash r%'`).all() as Array<{ id: number; title: string; content: string; status: string; venue: string | null; cats: string | null }>).map((r) => [r.id, r]),
    );
    for (const e of model.events.values()) {
      const row = rows.get(e.id);
      const label = `${where}: event ${e.id} "${e.title}"`;
      expect(row, `${label} acknowledged but missing`).toBeDefined();
      expect(row!.title, label).toBe(e.title);
      expect([e.description, e.maybeDescription].filter(Boolean), `${label} description`).toContain(row!.content);
      expect(e.maybeTrashed ? ['publish', 'trash'] : [e.status], `${label} status`).toContain(row!.status);
      expect(row!.venue, label).toBe(e.venue);
      expect(row!.cats, label).toBe(e.category);
      // Settle what is now known, for the next rounds.
      e.description = row!.content;
      e.maybeDescription = undefined;
      e.status = row!.status as Tracked['status'];
      e.maybeTrashed = undefined;
    }
    // Those touched this round, also as the restarted API serves them.
    for (const e of [...model.events.values()].filter((x) => x.touched)) {
      const res = await fetch(`${server.apiRoot}events/${e.id}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      const body = (await res.json()) as any;
      e.touched = false;
      if (e.status === 'trash') {
        // The original answers a trashed event with 403 event-no-longer-available.
        expect({ status: res.status, code: body.code }, `${where}: GET trashed events/${e.id}`).toEqual({ status: 403, code: 'event-no-longer-available' });
        continue;
      }
      expect(res.status, `${where}: GET events/${e.id}`).toBe(200);
      expect({ title: body.title, description: body.description, status: body.status, venue: body.venue?.venue, categories: body.categories.map((c: any) => c.name) }, `${where}: event ${e.id} as served`).toEqual({
        title: e.title, description: `<p>${e.description}</p>`, status: e.status, venue: e.venue, categories: [e.category],
      });
    }
    for (const name of model.venues) expect(count(db, 'SELECT count(*) AS n FROM venues WHERE title = ?', name), `${where}: venue ${name}`).toBe(1);
    for (const name of model.tags) expect(count(db, "SELECT count(*) AS n FROM terms WHERE taxonomy = 'tag' AND name = ?", name), `${where}: tag ${name}`).toBe(1);

    // Writes without a clean 2xx: refused → absent; unknown → whole or absent.
    for (const l of model.loose.splice(0)) {
      const label = `${where}: ${l.outcome} ${l.kind} "${l.name}"`;
      if (l.kind === 'event') {
        const found = [...rows.values()].filter((r) => r.title === l.name);
        expect(found.length, label).toBeLessThanOrEqual(l.outcome === 'refused' ? 0 : 1);
        if (found.length) {
          expect({ content: found[0].content, venue: found[0].venue, cats: found[0].cats }, label).toEqual({ content: l.description, venue: l.venue, cats: l.category });
          // It is in the calendar now: track it like an acknowledged one (it has no owner any more).
          model.events.set(found[0].id, { id: found[0].id, owner: -1, title: l.name, venue: l.venue!, category: l.category!, description: l.description!, status: found[0].status as Tracked['status'], touched: false });
        }
      } else {
        const n = l.kind === 'venue' ? count(db, 'SELECT count(*) AS n FROM venues WHERE title = ?', l.name) : count(db, "SELECT count(*) AS n FROM terms WHERE taxonomy = 'tag' AND name = ?", l.name);
        expect(n, label).toBeLessThanOrEqual(l.outcome === 'refused' ? 0 : 1);
        if (n) (l.kind === 'venue' ? model.venues : model.tags).add(l.name);
      }
    }

    // Imports: all or nothing, and all when they said so.
    for (const imp of model.imports.splice(0)) {
      const label = `${where}: ${imp.via} import ${imp.tag} (${imp.outcome})`;
      const n = count(db, "SELECT count(*) AS n FROM events WHERE ics_uid LIKE ? || '-%@reliability'", imp.tag);
      const expected = imp.outcome === 'acked' ? [imp.n] : imp.outcome === 'refused' ? [0] : [0, imp.n];
      expect(expected, `${label}: ${n} of ${imp.n} events`).toContain(n);
      if (n === imp.n) {
        model.stats.importsAll++;
        const linked = count(db, `SELECT count(*) AS n FROM events e WHERE e.ics_uid LIKE ? || '-%@reliability' AND e.venue_id IS NOT NULL
          AND EXISTS (SELECT 1 FROM event_terms et WHERE et.event_id = e.id)`, imp.tag);
        expect(linked, `${label}: every imported event has its venue and category`).toBe(imp.n);
      } else model.stats.importsNone++;
    }
  } finally {
    await server.close();
  }
}

const withSeed = async (fn: () => Promise<void>) => {
  try {
    await fn();
  } catch (err) {
    const e = err as Error;
    e.message = `[ALMANAC_CRASH_SEED=${SEED}] ${e.message}`;
    throw e;
  }
};

describe(`crash consistency (seed ${SEED})`, () => {
  const dataDir = tempDir('almanac-crash-');
  const files = tempDir('almanac-crash-files-');
  let readyMs = 0;
  let importMs = 0;

  it('SIGKILL of the server mid-writes and of a CLI import on the same file: acknowledged writes survive, imports are all or nothing', { timeout: LONG ? 900_000 : 120_000 }, () =>
    withSeed(async () => {
      const r = rng(SEED);
      // The file exists before the first round (two processes creating it at once: see concurrency.test.ts).
      closeDatabase(openDatabase(join(dataDir, 'almanac.sqlite')));

      for (let round = 0; round <= WRITE_ROUNDS; round++) {
        const where = `round ${round}`;
        const calibrate = round === 0;
        const spawnedAt = performance.now();
        const server = startServerChild(dataDir, TOKEN);
        children.push(server);
        // A second writer process on the same file: the real CLI, importing directly.
        let cli: Child | undefined;
        let cliEnded: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }> | undefined;
        let cliTag = '';
        if (calibrate || r.chance(0.7)) {
          cliTag = `cli${round}`;
          const file = join(files, `${cliTag}.ics`);
          writeFileSync(file, makeIcs(cliTag, CLI_IMPORT_EVENTS));
          cli = cliImport(dataDir, file);
          children.push(cli);
          cliEnded = cli.exited.then((end) => ({ ...end, at: performance.now() }));
        }
        const timers: NodeJS.Timeout[] = [];
        // Server: killed during start-up now and then, else at a random moment after it listens.
        let killServerAfterReady = calibrate ? 1500 : r.int(50, 2500);
        if (round === 1 || (!calibrate && r.chance(0.15))) {
          model.stats.earlyKills++;
          timers.push(setTimeout(() => server.kill(), r.int(0, Math.max(1, readyMs))));
          killServerAfterReady = Infinity;
        }
        // CLI import: let the first one finish (it measures how long one takes), then kill at random.
        if (cli && !calibrate) timers.push(setTimeout(() => cli!.kill(), r.int(Math.round(importMs * 0.5), Math.round(importMs * 1.05))));

        const url = await server.ready;
        // The shortest start-up and import seen so far (the first runs also compile the sources).
        if (url) readyMs = Math.min(readyMs || Infinity, performance.now() - spawnedAt);
        const work: Promise<unknown>[] = [];
        if (url) {
          if (killServerAfterReady !== Infinity) timers.push(setTimeout(() => server.kill(), killServerAfterReady));
          for (let k = 0; k < WRITERS; k++) work.push(writer(url, round, k, rng(SEED + round * 100 + k + 1)));
          if (calibrate || r.chance(0.6)) {
            const tag = `api${round}`;
            const run: ImportRun = { tag, n: API_IMPORT_EVENTS, via: 'api', outcome: 'unknown' };
            model.imports.push(run);
            const delay = calibrate ? 0 : r.int(0, 800);
            work.push(
              sleep(delay).then(async () => {
                const res = await call(url, 'POST', 'import?format=ics', makeIcs(tag, API_IMPORT_EVENTS), 'text/calendar');
                run.outcome = res.outcome;
              }),
            );
          }
        }
        await Promise.all(work);
        const serverEnd = await server.exited;
        // It may only have died of the SIGKILL: a server that exits by itself has crashed.
        expect(serverEnd.signal, `${where}: server ended by itself:\n${server.output()}`).toBe('SIGKILL');
        if (cli) {
          const end = (await cliEnded)!;
          if (end.code === 0) importMs = Math.min(importMs || Infinity, end.at - spawnedAt);
          expect(end.signal === 'SIGKILL' || end.code === 0, `${where}: CLI import failed (${JSON.stringify(end)}):\n${cli.output()}`).toBe(true);
          if (end.code === 0) expect(cli.output(), where).toContain(`Created ${CLI_IMPORT_EVENTS},`);
          model.stats[end.code === 0 ? 'cliDone' : 'cliKilled']++;
          model.imports.push({ tag: cliTag, n: CLI_IMPORT_EVENTS, via: 'cli', outcome: end.code === 0 ? 'acked' : 'unknown' });
        }
        timers.forEach(clearTimeout);
        await verify(dataDir, where);
      }
      expect(model.events.size, 'the writers got answers').toBeGreaterThan(0);
      console.log(`[crash] seed ${SEED}: ${WRITE_ROUNDS + 1} server kills, start-up ${readyMs.toFixed(0)} ms, CLI import ${importMs.toFixed(0)} ms`, JSON.stringify(model.stats));
      // Written by successive rounds: each had its own tag, and every one was checked above.
      expect(model.stats.acked).toBeGreaterThan(0);
    }),
  );

  it('SIGKILL of a CLI import while it holds the write lock: none of it after the restart (all if it had committed)', { timeout: LONG ? 300_000 : 60_000 }, () =>
    withSeed(async () => {
      const r = rng(SEED ^ 0x10c4);
      const outcomes = { rolledBack: 0, committed: 0, finished: 0 };
      for (let round = 0; round < LOCKED_ROUNDS; round++) {
        const where = `locked round ${round}`;
        const tag = `locked${round}`;
        const file = join(files, `${tag}.ics`);
        writeFileSync(file, makeIcs(tag, CLI_IMPORT_EVENTS));
        const cli = cliImport(dataDir, file);
        children.push(cli);
        // Nothing else writes the file now: a write lock held means the import is writing. The
        // probe never waits (timeout 0), and holds the lock only for an instant when it is free.
        const probe = new Database(join(dataDir, 'almanac.sqlite'), { timeout: 0 });
        let timer: NodeJS.Timeout | undefined;
        const poll = setInterval(() => {
          if (timer) return;
          try {
            probe.exec('BEGIN IMMEDIATE');
            probe.exec('ROLLBACK');
          } catch (err) {
            if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
            timer = setTimeout(() => cli.kill(), round === 0 ? 0 : r.int(0, 100));
          }
        }, 2);
        const end = await cli.exited;
        clearInterval(poll);
        clearTimeout(timer);
        probe.close();
        expect(end.signal === 'SIGKILL' || end.code === 0, `${where}: CLI import failed (${JSON.stringify(end)}):\n${cli.output()}`).toBe(true);
        model.imports.push({ tag, n: CLI_IMPORT_EVENTS, via: 'cli', outcome: end.code === 0 ? 'acked' : 'unknown' });
        const before = { ...model.stats };
        await verify(dataDir, where);
        if (end.code === 0) outcomes.finished++;
        else outcomes[model.stats.importsAll > before.importsAll ? 'committed' : 'rolledBack']++;
      }
      console.log(`[crash] seed ${SEED}: imports killed holding the lock: rolled back ${outcomes.rolledBack}×, already committed ${outcomes.committed}×, finished first ${outcomes.finished}×`);
    }),
  );

  it('SIGKILL of a JSON backup restore: the calendar is exactly the one before or exactly the backup', { timeout: LONG ? 600_000 : 60_000 }, () =>
    withSeed(async () => {
      const r = rng(SEED ^ 0x5eed);
      // Two backups to swap between: the calendar the first test left, and a small other one.
      const backups: Array<{ file: string; fp: string }> = [];
      const other = tempDir('almanac-crash-other-');
      for (const [dir, seedEvents] of [[dataDir, 0], [other, 300]] as const) {
        const server = await createServer({ dataDir: dir, token: TOKEN, port: 0, announce: false, log: silentLogger });
        try {
          if (seedEvents) {
            const res = await call(server.url, 'POST', 'import?format=ics', makeIcs('other', seedEvents), 'text/calendar');
            expect(res.status).toBe(200);
          }
          const file = join(files, `backup-${backups.length}.json`);
          const res = await fetch(`${server.apiRoot}export?format=json`, { headers: { Authorization: `Bearer ${TOKEN}` } });
          expect(res.status).toBe(200);
          writeFileSync(file, Buffer.from(await res.arrayBuffer()));
          backups.push({ file, fp: fingerprint(server.db) });
        } finally {
          await server.close();
        }
      }
      // What each backup gives once restored, computed on a scratch copy by the same code.
      // A restore first copies the file aside (`*.before-restore.*.bak`), then replaces everything in
      // one transaction: the kills aim at that part, timed from when the copy appears.
      let startMs = 0;
      let tailMs = 0;
      const outcomes = { before: 0, after: 0 };
      const copies = () => readdirSync(dataDir).filter((f) => f.includes('before-restore')).length;
      for (let round = 0; round <= RESTORE_ROUNDS; round++) {
        const where = `restore round ${round}`;
        const db = openDatabase(join(dataDir, 'almanac.sqlite'));
        const before = fingerprint(db);
        closeDatabase(db);
        const target = backups.find((b) => b.fp !== before) ?? backups[1];
        const started = performance.now();
        const copiesBefore = copies();
        const cli = cliImport(dataDir, target.file);
        children.push(cli);
        const timers: NodeJS.Timeout[] = [];
        let copiedAt = 0;
        const early = round > 0 && r.chance(0.25);
        if (early) timers.push(setTimeout(() => cli.kill(), r.int(0, Math.round(startMs))));
        const watch = setInterval(() => {
          if (copiedAt || copies() === copiesBefore) return;
          copiedAt = performance.now();
          if (round > 0 && !early) timers.push(setTimeout(() => cli.kill(), r.int(0, Math.round(tailMs * 1.2))));
        }, 2);
        const end = await cli.exited;
        clearInterval(watch);
        timers.forEach(clearTimeout);
        if (round === 0) {
          startMs = (copiedAt || performance.now()) - started;
          tailMs = copiedAt ? performance.now() - copiedAt : 0;
        }
        expect(end.signal === 'SIGKILL' || end.code === 0, `${where}: restore failed (${JSON.stringify(end)}):\n${cli.output()}`).toBe(true);

        const server = await createServer({ dataDir, token: TOKEN, port: 0, announce: false, log: silentLogger });
        try {
          checkSound(server.db, where);
          const after = fingerprint(server.db);
          expect(end.code === 0 ? [target.fp] : [before, target.fp], `${where}: the calendar is a mix of two states`).toContain(after);
          outcomes[after === before ? 'before' : 'after']++;
        } finally {
          await server.close();
        }
      }
      // Copies kept before each restore are beside the file; they are the user's, not checked here.
      expect(readdirSync(dataDir).some((f) => f.includes('before-restore'))).toBe(true);
      console.log(`[crash] seed ${SEED}: restore starts writing after ${startMs.toFixed(0)} ms, writes for ${tailMs.toFixed(0)} ms; after the kills the calendar was the old one ${outcomes.before}×, the backup ${outcomes.after}×`);
    }),
  );
});
