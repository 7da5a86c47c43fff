/**
 * Concurrency (issue #7): the calendar UI (session cookie, same-origin requests) and two scripts
 * (the token) write at once through the API of a server running in its own process, many requests
 * in parallel, while the CLI imports a calendar file directly into the same data directory (a
 * second process writing the same SQLite file). Proves:
 *
 *  - no client ever gets a 5xx or a broken connection (no SQLITE_BUSY reaching anyone), and the
 *    server logs no error;
 *  - no lost update: three clients PATCH different fields of the SAME events over and over, and
 *    each field ends with the last value its client had acknowledged;
 *  - an inline venue, organizer and category named the same by many concurrent event creates (and
 *    by the import in the other process) exist once, not once per request;
 *  - the final calendar is exactly what was acknowledged: every create, every trash, the whole
 *    import, nothing more; list totals the server had counted before the import see it after.
 *  - two processes creating a new calendar file at once both open it; another process holding the
 *    write lock for long does not stop the server answering, and a write waits for it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { closeDatabase, migrate, openDatabase } from '../../electron/server/store/db';
import { migrations } from '../../electron/server/store/migrations';
import { cliImport, makeIcs, scratchSpace, startServerChild, type ServerChild } from './fixtures/procs';

const LONG = process.env.ALMANAC_LONG_TESTS === '1';
const TOKEN = 'concurrency-token-0123456789abcdef';
const IMPORT_EVENTS = LONG ? 3000 : 1000;
const SHARED_EVENTS = 6;
const CREATES = { ui: LONG ? 100 : 30, a: LONG ? 300 : 80, b: LONG ? 300 : 80 };
const PARALLEL = { ui: 4, a: 8, b: 8 };

const { tempDir, children } = scratchSpace('almanac-conc-');

interface Failure {
  client: string;
  what: string;
  status?: number;
  body?: string;
}

/** An HTTP client that records every answer that is not what a healthy server gives. */
const sent: Record<string, number> = {};
function client(name: string, base: string, auth: Record<string, string>, failures: Failure[]) {
  return async function req(method: string, path: string, body?: unknown, expectStatus?: number): Promise<{ status: number; json: any; headers: Headers }> {
    const what = `${method} ${path}`;
    sent[name] = (sent[name] ?? 0) + 1;
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${base}/cal/events/v1/${path}`, {
        method,
        headers: { ...auth, ...(method !== 'GET' ? { Origin: base } : {}), ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      text = await res.text();
    } catch (err) {
      failures.push({ client: name, what: `${what}: ${String((err as Error).cause ?? err)}` });
      throw err;
    }
    if (res.status >= 500 || /SQLITE|database is locked/i.test(text) || (expectStatus !== undefined && res.status !== expectStatus)) {
      failures.push({ client: name, what, status: res.status, body: text.slice(0, 300) });
    }
    return { status: res.status, json: JSON.parse(text), headers: res.headers };
  };
}

/** Runs `fn(i)` for i in [0, n) with at most `parallel` at a time. */
async function pool(n: number, parallel: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, n) }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

const count = (db: Database.Database, sql: string, ...params: unknown[]) => (db.prepare(sql).get(...params) as { n: number }).n;

describe('three clients and a CLI import at once', () => {
  let dataDir: string;
  let server: ServerChild;
  let url: string;

  beforeAll(async () => {
    dataDir = tempDir();
    closeDatabase(openDatabase(join(dataDir, 'almanac.sqlite')));
    server = startServerChild(dataDir, TOKEN);
    children.push(server);
    const ready = await server.ready;
    if (!ready) throw new Error(`the server did not start:\n${server.output()}`);
    url = ready;
  });

  it('no 5xx, no lost update, one venue per name, and the final calendar is what was acknowledged', { timeout: LONG ? 300_000 : 90_000 }, async () => {
    const failures: Failure[] = [];
    const bearer = { Authorization: `Bearer ${TOKEN}` };
    const login = await fetch(`${url}/?token=${TOKEN}`, { redirect: 'manual' });
    const cookie = String(login.headers.get('set-cookie')).split(';')[0];
    expect(cookie).toMatch(/^almanac_session_\d+=/);
    const ui = client('ui', url, { Cookie: cookie, 'Sec-Fetch-Site': 'same-origin' }, failures);
    const scriptA = client('script A', url, bearer, failures);
    const scriptB = client('script B', url, bearer, failures);

    // Events all three clients will PATCH at once, each its own field.
    const shared: number[] = [];
    for (let i = 0; i < SHARED_EVENTS; i++) {
      const res = await scriptA('POST', 'events', { title: `shared ${i}`, description: 'initial', excerpt: 'initial', start_date: '2035-03-0' + (i + 1) + ' 18:00:00', end_date: '2035-03-0' + (i + 1) + ' 20:00:00' }, 201);
      shared.push(res.json.id);
    }
    // The category the UI filters on exists from the start; creates and the import name it.
    await scriptA('POST', 'categories', { name: 'shared-cat' }, 201);
    const importWindow = 'events?start_date=2033-01-01&end_date=2034-12-31&per_page=5&status=publish';
    const before = await ui('GET', importWindow, undefined, 200);
    expect(Number(before.headers.get('x-wp-total'))).toBe(0);

    // The CLI, opening the same file directly (the server wrote no discovery file). Its events use
    // the venue and category names the API clients use for theirs.
    const icsFile = join(dataDir, 'import.ics');
    writeFileSync(icsFile, makeIcs('conc-imp', IMPORT_EVENTS, { location: (i) => (i % 2 ? 'Shared Hall' : `Import Hall ${i % 5}`) }).replace(/CATEGORIES:conc-imp-cat-\d/g, 'CATEGORIES:shared-cat'));
    const cli = cliImport(dataDir, icsFile);
    children.push(cli);
    let importDone = false;
    const cliEnd = cli.exited.then((end) => {
      importDone = true;
      return end;
    });

    // Last acknowledged value of each client's field on each shared event.
    const last = { title: new Map<number, string>(), description: new Map<number, string>(), excerpt: new Map<number, string>() };
    const created = new Map<number, { title: string; venue?: string; trashed: boolean }>();
    const patcher = (req: typeof ui, field: 'title' | 'description' | 'excerpt', tag: string) =>
      Promise.all(
        shared.map(async (id, i) => {
          // Sequential per event and client, so "the last acknowledged value" is well defined;
          // going on until the import has finished, so the two processes really overlap.
          for (let n = 0; n < 12 || !importDone; n++) {
            const value = field === 'title' ? `shared ${i} ${tag} ${n}` : `${tag} ${n}`;
            const res = await req('PATCH', `events/${id}`, { [field]: value }, 200);
            if (res.status === 200) last[field].set(id, value);
          }
        }),
      );
    const creator = (req: typeof ui, who: string, n: number, parallel: number) =>
      pool(n, parallel, async (i) => {
        const title = `conc ${who} ${i}`;
        const inline = i % 2 === 0;
        const body: Record<string, unknown> = {
          title,
          start_date: `2035-0${1 + (i % 9)}-${10 + (i % 18)} 09:00:00`,
          end_date: `2035-0${1 + (i % 9)}-${10 + (i % 18)} 10:00:00`,
          categories: ['shared-cat', `cat-${who}`],
          organizer: [{ organizer: 'Shared Org' }],
          ...(inline ? { venue: { venue: 'Shared Hall' } } : {}),
        };
        const res = await req('POST', 'events', body, 201);
        if (res.status !== 201) return;
        created.set(res.json.id, { title, venue: inline ? 'Shared Hall' : undefined, trashed: false });
        if (inline) expect(res.json.venue.venue).toBe('Shared Hall');
        // Some go to the trash right away; reads in between, as a UI does.
        if (i % 7 === 3) {
          const del = await req('DELETE', `events/${res.json.id}`, undefined, 200);
          if (del.status === 200) created.get(res.json.id)!.trashed = true;
        } else await req('GET', `events/${res.json.id}`, undefined, 200);
      });
    const reader = async (req: typeof ui) => {
      for (let n = 0; n < 20 || !importDone; n++) {
        await req('GET', `events?start_date=2035-01-01&end_date=2035-12-31&per_page=${[10, 25, 50][n % 3]}&categories=shared-cat`, undefined, 200);
        await req('GET', 'venues?per_page=50&search=Hall', undefined, 200);
      }
    };

    await Promise.all([
      patcher(ui, 'title', 'ui'),
      patcher(scriptA, 'description', 'a'),
      patcher(scriptB, 'excerpt', 'b'),
      creator(ui, 'ui', CREATES.ui, PARALLEL.ui),
      creator(scriptA, 'a', CREATES.a, PARALLEL.a),
      creator(scriptB, 'b', CREATES.b, PARALLEL.b),
      reader(ui),
      reader(scriptB),
    ]).catch((err) => {
      if (!failures.length) throw err; // a broken connection is recorded in `failures`, checked below
    });
    const end = await cliEnd;
    expect(end, `CLI import:\n${cli.output()}`).toEqual({ code: 0, signal: null });
    expect(cli.output()).toContain(`Created ${IMPORT_EVENTS},`);
    expect(failures, 'answers no client should get').toEqual([]);
    console.log(`[concurrency] requests per client while the CLI imported ${IMPORT_EVENTS} events: ${JSON.stringify(sent)}`);

    // The list total the server had counted before sees the other process's import.
    const after = await ui('GET', importWindow, undefined, 200);
    expect(Number(after.headers.get('x-wp-total'))).toBe(IMPORT_EVENTS);
    // Each shared event as served: every client's last acknowledged value.
    for (const id of shared) {
      const res = await scriptA('GET', `events/${id}`, undefined, 200);
      expect({ title: res.json.title, description: res.json.description, excerpt: res.json.excerpt }, `shared event ${id}`).toEqual({
        title: last.title.get(id), description: `<p>${last.description.get(id)}</p>`, excerpt: `<p>${last.excerpt.get(id)}</p>`,
      });
    }

    // Stop the server cleanly, then look at the file itself.
    const stopped = server.exited;
    server.child.kill('SIGTERM');
    expect((await stopped).code).toBe(0);
    expect(server.output(), 'server errors').not.toMatch(/ERROR/);
    const db = new Database(join(dataDir, 'almanac.sqlite'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('foreign_key_check')).toEqual([]);
      expect(db.prepare(`SELECT t.id FROM terms t WHERE t.count != (SELECT count(*) FROM event_terms et JOIN events e ON e.id = et.event_id WHERE et.term_id = t.id AND e.status = 'publish')`).all(), 'term counts').toEqual([]);
      // Exactly the acknowledged creates, with their venue and trash state; nothing more.
      const rows = db.prepare("SELECT e.id, e.title, e.status, v.title AS venue FROM events e LEFT JOIN venues v ON v.id = e.venue_id WHERE e.title LIKE 'conc %'").all() as Array<{ id: number; title: string; status: string; venue: string | null }>;
      expect(rows.length).toBe(CREATES.ui + CREATES.a + CREATES.b);
      expect(created.size).toBe(rows.length);
      for (const r of rows) {
        const c = created.get(r.id);
        expect({ title: r.title, status: r.status, venue: r.venue ?? undefined }, `event ${r.id}`).toEqual({ title: c?.title, status: c?.trashed ? 'trash' : 'publish', venue: c?.venue });
      }
      expect(count(db, "SELECT count(*) AS n FROM events WHERE ics_uid LIKE 'conc-imp-%'")).toBe(IMPORT_EVENTS);
      expect(count(db, 'SELECT count(*) AS n FROM events')).toBe(SHARED_EVENTS + rows.length + IMPORT_EVENTS);
      // One of each shared name, from both processes, and all their events linked to it.
      expect(db.prepare("SELECT id FROM venues WHERE lower(title) = 'shared hall'").all()).toHaveLength(1);
      expect(db.prepare("SELECT id FROM organizers WHERE lower(title) = 'shared org'").all()).toHaveLength(1);
      expect(db.prepare("SELECT id FROM terms WHERE taxonomy = 'category' AND lower(name) = 'shared-cat'").all()).toHaveLength(1);
      const hall = count(db, "SELECT count(*) AS n FROM events e JOIN venues v ON v.id = e.venue_id WHERE v.title = 'Shared Hall'");
      expect(hall).toBe([...created.values()].filter((c) => c.venue).length + IMPORT_EVENTS / 2);
      expect(count(db, "SELECT count(*) AS n FROM event_terms et JOIN terms t ON t.id = et.term_id WHERE t.name = 'shared-cat'")).toBe(rows.length + IMPORT_EVENTS);
    } finally {
      db.close();
    }
  });
});

describe('another process on the same file', () => {
  /*
   * Two processes opening a new data directory at once (the app and a CLI import started together)
   * both see an empty file; the second must not re-run a step the first has just applied.
   */
  it('two processes creating the calendar file at once: both open it, schema applied once', () => {
    const file = join(tempDir(), 'almanac.sqlite');
    const first = new Database(file);
    const second = new Database(file);
    try {
      // The first process migrates just after the second read the version, before it locks.
      const steps = [...migrations];
      Object.defineProperty(steps, Symbol.iterator, {
        value: function* () {
          migrate(first);
          yield* migrations;
        },
      });
      expect(() => migrate(second, steps)).not.toThrow();
      const version = (db: Database.Database) => db.pragma('user_version', { simple: true });
      expect([version(first), version(second)]).toEqual([migrations[migrations.length - 1].version, migrations[migrations.length - 1].version]);
    } finally {
      first.close();
      second.close();
    }
  });

  /*
   * Another process holding the write lock for longer than SQLite's usual wait (a large CLI import
   * straight into the data directory): the server keeps answering reads meanwhile, and a write
   * waits for the lock (retried, not blocking) and then goes through.
   */
  it('another process holding the write lock for 6 s: reads are served meanwhile, the write goes through after', { timeout: 40_000 }, async () => {
    const dir = tempDir();
    closeDatabase(openDatabase(join(dir, 'almanac.sqlite')));
    const srv = startServerChild(dir, TOKEN);
    children.push(srv);
    const base = await srv.ready;
    expect(base).toBeDefined();
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const other = new Database(join(dir, 'almanac.sqlite'));
    other.exec('BEGIN IMMEDIATE');
    try {
      let released = false;
      const answer = fetch(`${base}/cal/events/v1/tags`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'waits for the lock' }) }).then((res) => ({ res, released }));
      // While the lock is held: a read is answered (the write's wait does not block the server).
      const read = await fetch(`${base}/cal/events/v1/tags?hide_empty=false`, { headers: auth }).then((res) => ({ status: res.status, released }));
      expect(read).toEqual({ status: 200, released: false });
      await new Promise((ok) => setTimeout(ok, 6_000));
      released = true;
      other.exec('COMMIT');
      const { res, released: afterRelease } = await answer;
      expect([res.status, afterRelease]).toEqual([201, true]);
      expect(((await res.json()) as { name: string }).name).toBe('waits for the lock');
      srv.child.kill('SIGTERM');
      await srv.exited;
      expect(srv.output()).not.toMatch(/ERROR/);
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
      srv.kill();
    }
  });
});
