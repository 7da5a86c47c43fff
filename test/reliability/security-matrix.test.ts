/**
 * The local port's security, exhaustively (issue #7; decisions "Who may do what" and "The calendar
 * UI in a browser tab"). The matrix is every route of the route table (the list `/doc` is made
 * from, so a new route is in it the day it is added) × every method it declares, plus HEAD for its
 * GETs and OPTIONS (a preflight) × every root the API answers on (`/cal/events/v1`, `/wp-json/…`,
 * and both under each `/{lang}/` prefix), plus the UI's pages and files. For each:
 *
 *  - no token, a wrong token, the token in the query string (only `/` takes it, to log in) → 401;
 *  - a foreign Host (DNS rebinding), even with the token → 403;
 *  - a foreign Origin, or a browser's `Sec-Fetch-Site: cross-site`, even with the token → 403;
 *  - what a hostile page can send without a preflight (a `text/plain`, form or multipart POST) →
 *    refused; and the whole calendar is byte for byte the same after all of it;
 *  - the token is in no response (body or header) and in no log line.
 *
 * Then: the token file is created owner-only (0600), the server listens on 127.0.0.1 only, bodies
 * over 1 MB get 413 in the API's error shape, slow clients are cut off, and `npm run serve` shows
 * the token only in its login URL line, never in a log line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http, { type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { createServer, type AlmanacServer } from '../../electron/server';
import { allRoutes } from '../../electron/server/routes';
import type { DB } from '../../electron/server/store/db';
import { LANGUAGES } from '../../shared/i18n/languages';
import { TABLES } from '../helpers/server';
import { CLI, makeIcs, scratchSpace, spawnTsx } from './fixtures/procs';

const TOKEN = 'matrix-token-0123456789abcdefghij';
const WRONG = 'matrix-token-0123456789abcdefghiX';
const { tempDir, children } = scratchSpace('almanac-sec-');

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/** A raw request: nothing added but what is given (so Host, Origin and the body type are ours). */
function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<Answer> {
  return new Promise((ok, fail) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers: { Host: `127.0.0.1:${port}`, ...headers, ...(body !== undefined ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}

/** Every row of every table: refusals must leave all of it as it was. */
function dump(db: DB): string {
  const h = createHash('sha256');
  for (const t of TABLES) {
    const rows = (db.prepare(`SELECT * FROM ${t}`).raw().all() as unknown[][]).map((r) => JSON.stringify(r)).sort();
    h.update(`${t}:${rows.join('\n')}`);
  }
  return h.digest('hex');
}

async function pool<T>(items: T[], parallel: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

interface Case {
  method: string;
  /** Under a root: `/events/12`. */
  path: string;
  body?: { type: string; data: string };
}

const ROOTS = ['', '/wp-json', ...LANGUAGES.flatMap((l) => [`/${l}`, `/${l}/wp-json`])].map((r) => `${r}/cal/events/v1`);
/** A body each write would accept, so that a write let through by mistake really changes something. */
const JSON_BODY = JSON.stringify({ title: 'matrix write', name: 'matrix write', venue: 'matrix venue', organizer: 'matrix organizer', start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00', status: 'publish' });
const ICS_BODY = makeIcs('matrix', 2);

describe('the security matrix over every route, method and root', () => {
  let server: AlmanacServer;
  let dataDir: string;
  let renderer: string;
  const logLines: string[] = [];
  const answers: Answer[] = [];
  const problems: string[] = [];
  let cases: Case[] = [];
  let cookie = '';
  let before = '';

  const record = (a: Answer) => {
    answers.push(a);
    return a;
  };
  /** Records a problem instead of stopping at the first, so one run shows the whole picture. */
  const check = (label: string, a: Answer, status: number, code?: string) => {
    if (a.status !== status) return problems.push(`${label}: ${a.status} instead of ${status} ${a.body.slice(0, 160)}`);
    if (a.headers['access-control-allow-origin'] !== undefined || a.headers['access-control-allow-credentials'] !== undefined) problems.push(`${label}: CORS header`);
    if (code === undefined || !a.body) return; // HEAD answers have no body
    if (!/^application\/json/.test(String(a.headers['content-type']))) return problems.push(`${label}: ${a.headers['content-type']} body`);
    const b = JSON.parse(a.body);
    if (b.code !== code || typeof b.message !== 'string' || !b.message || b.data?.status !== status) problems.push(`${label}: error shape ${a.body.slice(0, 160)}`);
  };

  beforeAll(async () => {
    dataDir = tempDir();
    // A UI build of our own, so the UI's files are in the matrix whether or not `npm run build` ran.
    renderer = tempDir();
    mkdirSync(join(renderer, 'assets'));
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Almanac</title><script type="module" src="/assets/app.js"></script>');
    writeFileSync(join(renderer, 'assets/app.js'), 'console.log("calendar ui");');
    server = await createServer({ dataDir, token: TOKEN, port: 0, rendererDir: renderer, log: (level, line) => logLines.push(`${level} ${line}`) });
    const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
    const mk = async (path: string, body: object) => {
      const a = await send(server.port, 'POST', `/cal/events/v1/${path}`, auth, JSON.stringify(body));
      expect(a.status, a.body).toBe(201);
      return JSON.parse(a.body) as { id: number; slug?: string };
    };
    const records = {
      events: await mk('events', { title: 'Matrix event', start_date: '2031-02-01 10:00:00', end_date: '2031-02-01 11:00:00' }),
      venues: await mk('venues', { venue: 'Matrix venue' }),
      organizers: await mk('organizers', { organizer: 'Matrix organizer' }),
      categories: await mk('categories', { name: 'Matrix category' }),
      tags: await mk('tags', { name: 'Matrix tag' }),
    } as Record<string, { id: number; slug?: string }>;
    // A background import job, for the job routes (its id stands where a slug would).
    const job = await send(server.port, 'POST', '/cal/events/v1/import?background=true&dry_run=true', { ...auth, 'Content-Type': 'text/calendar' }, ICS_BODY);
    expect(job.status, job.body).toBe(202);
    records.import = { id: 0, slug: (JSON.parse(job.body) as { id: string }).id };
    // A reminder due now, for the snooze and dismiss routes (its key stands where a slug would).
    const soon = new Date(Date.now() + 60_000).toISOString().slice(0, 19).replace('T', ' ');
    await mk('events', { title: 'Matrix reminder', timezone: 'UTC', start_date: soon, end_date: soon, reminders: ['-PT5M'] });
    records.reminders = { id: 0, slug: server.store.reminders.due(new Date())[0].key };
    // A conflict copy a sync kept, for the restore and dismiss routes.
    const local = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'BEGIN:VEVENT', 'UID:matrix-conflict', 'DTSTART:20310201T100000Z', 'DTEND:20310201T110000Z', 'SUMMARY:Matrix conflict', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
    records.sync = { id: server.store.write(() => server.store.davSync.keepConflict(1, 'matrix-conflict', 'Matrix conflict', local, new Date().toISOString())) };

    // A subscription, for its refresh and delete routes: stored directly, as nothing may be fetched
    // from outside; port 9 is one fetch refuses to ask at all.
    records.subscriptions = { id: server.store.write(() => server.store.subscriptions.add({ url: 'http://127.0.0.1:9/matrix.ics', name: 'Matrix subscription', color: null })).id };

    // A CalDAV account (its row only: nothing is asked of a server) and the local calendar, for
    // the account and calendar routes.
    records.accounts = {
      id: server.store.write(() =>
        server.store.accounts.add({ name: 'matrix', serverUrl: 'http://127.0.0.1:9/', username: 'matrix', principalUrl: 'http://127.0.0.1:9/p/', homeUrl: 'http://127.0.0.1:9/h/', createdUtc: new Date().toISOString() }, []),
      ).id,
    };
    records.calendars = { id: 1 };
    // A website (its row only: nothing is asked of a site), for its delete route.
    records.sites = {
      id: server.store.write(() => server.store.sites.add({ name: 'matrix site', url: 'http://127.0.0.1:9', apiRoot: 'http://127.0.0.1:9/wp-json/x/events/v1/', username: 'matrix', color: null, capabilities: {}, createdUtc: new Date().toISOString() })).id,
    };

    // The matrix, from the route table itself.
    const routes = allRoutes();
    for (const r of routes) {
      const kind = r.docPath.split('/')[1];
      const path = r.docPath === '/' ? '' : r.docPath.replace(/\{(\w+)\}/g, (_, name: string) => {
        const rec = records[kind];
        const value = name === 'id' ? rec?.id : rec?.slug;
        if (value === undefined) throw new Error(`no test record for ${r.docPath}: add one to the matrix`);
        return String(value);
      });
      const methods = new Set<string>(['OPTIONS']);
      for (const e of r.endpoints) {
        for (const m of e.methods) {
          methods.add(m);
          if (m === 'GET') methods.add('HEAD');
        }
      }
      const raw = r.endpoints.some((e) => e.rawBody);
      for (const method of methods) {
        const body = ['POST', 'PUT', 'PATCH'].includes(method) ? (raw ? { type: 'text/calendar', data: ICS_BODY } : { type: 'application/json', data: JSON_BODY }) : undefined;
        cases.push({ method, path: method === 'DELETE' ? `${path}?force=true` : path, body });
      }
    }
    expect(cases.length).toBeGreaterThanOrEqual(routes.length * 2);

    const login = await send(server.port, 'GET', `/?token=${TOKEN}`, {});
    cookie = String(login.headers['set-cookie']).split(';')[0];
    expect(cookie).toMatch(/^almanac_session_/);
    before = dump(server.db);
  });

  afterAll(async () => {
    await server?.close();
  });

  /** Every case under every root, with these headers; each answer checked by `expectFn`. */
  async function sweep(name: string, headers: (c: Case) => Record<string, string>, expectFn: (label: string, a: Answer, c: Case) => void, roots = ROOTS) {
    const all = roots.flatMap((root) => cases.map((c) => ({ root, c })));
    await pool(all, 8, async ({ root, c }) => {
      const a = record(await send(server.port, c.method, `${root}${c.path}`, { ...(c.body ? { 'Content-Type': c.body.type } : {}), ...headers(c) }, c.body?.data));
      expectFn(`${name}: ${c.method} ${root}${c.path}`, a, c);
    });
    return all.length;
  }

  it('no token → 401 rest_forbidden (never with WWW-Authenticate, which makes a browser prompt) on every route, method and root', async () => {
    const n = await sweep('no token', () => ({}), (label, a, c) => {
      check(label, a, 401, c.method === 'HEAD' ? undefined : 'rest_forbidden');
      if (a.headers['www-authenticate'] !== undefined) problems.push(`${label}: WWW-Authenticate ${a.headers['www-authenticate']}`);
    });
    expect(n).toBeGreaterThan(500);
    expect(problems).toEqual([]);
  });

  it('a wrong token, a token in another scheme, or the token in the query string → 401', async () => {
    await sweep('wrong token', () => ({ Authorization: `Bearer ${WRONG}` }), (label, a, c) => check(label, a, 401, c.method === 'HEAD' ? undefined : 'rest_forbidden'));
    // HTTP Basic takes the token as its password (as WordPress takes an application password): a wrong one is refused as WordPress refuses it.
    await sweep('basic scheme, wrong password', () => ({ Authorization: `Basic ${Buffer.from(`owner:${WRONG}`).toString('base64')}` }), (label, a, c) => check(label, a, 401, c.method === 'HEAD' ? undefined : 'incorrect_password'), ROOTS.slice(0, 1));
    // The login URL's `?token=` is for `/` only: on the API it would end up in histories and logs.
    const inQuery = cases.map((c) => ({ ...c, path: `${c.path}${c.path.includes('?') ? '&' : '?'}token=${TOKEN}` }));
    for (const c of inQuery) {
      const a = record(await send(server.port, c.method, `/cal/events/v1${c.path}`, c.body ? { 'Content-Type': c.body.type } : {}, c.body?.data));
      check(`token in query: ${c.method} ${c.path}`, a, 401, c.method === 'HEAD' ? undefined : 'rest_forbidden');
    }
    expect(problems).toEqual([]);
  });

  it('a foreign Host (DNS rebinding) → 403, even with the token', async () => {
    for (const host of ['evil.example:4780', 'attacker.com', `localhost.attacker.com:PORT`, `127.0.0.1.nip.io:PORT`]) {
      await sweep(`Host ${host}`, () => ({ Host: host.replace('PORT', String(server.port)), Authorization: `Bearer ${TOKEN}` }), (label, a, c) => check(label, a, 403, c.method === 'HEAD' ? undefined : 'rest_forbidden'), host === 'attacker.com' ? ROOTS : ROOTS.slice(0, 2));
    }
    // The token as HTTP Basic's password passes the same checks.
    await sweep('Host + basic', () => ({ Host: 'attacker.com', Authorization: `Basic ${Buffer.from(`owner:${TOKEN}`).toString('base64')}` }), (label, a, c) => check(label, a, 403, c.method === 'HEAD' ? undefined : 'rest_forbidden'), ROOTS.slice(0, 1));
    expect(problems).toEqual([]);
  });

  it('a foreign Origin, or a cross-site fetch, → 403 on every method, even with the token or the session cookie', async () => {
    for (const origin of ['http://evil.example', 'null', 'http://127.0.0.1:8080']) {
      await sweep(`Origin ${origin}`, () => ({ Origin: origin, Authorization: `Bearer ${TOKEN}` }), (label, a, c) => check(label, a, 403, c.method === 'HEAD' ? undefined : 'rest_forbidden'), origin === 'null' ? ROOTS.slice(0, 1) : ROOTS);
    }
    await sweep('Origin + basic', () => ({ Origin: 'http://evil.example', Authorization: `Basic ${Buffer.from(`owner:${TOKEN}`).toString('base64')}` }), (label, a, c) => check(label, a, 403, c.method === 'HEAD' ? undefined : 'rest_forbidden'), ROOTS.slice(0, 1));
    await sweep('cookie + cross-site', () => ({ Cookie: cookie, 'Sec-Fetch-Site': 'cross-site' }), (label, a, c) => check(label, a, 403, c.method === 'HEAD' ? undefined : 'rest_forbidden'), ROOTS.slice(0, 2));
    expect(problems).toEqual([]);
  });

  it('what a hostile page can send without a preflight (text/plain, form, multipart POST) is refused', async () => {
    const simple = [
      { type: 'text/plain', data: JSON_BODY },
      { type: 'text/plain;charset=UTF-8', data: ICS_BODY },
      { type: 'application/x-www-form-urlencoded', data: 'title=csrf&name=csrf&venue=csrf&organizer=csrf&start_date=2031-01-01&end_date=2031-01-01' },
      { type: 'multipart/form-data; boundary=x', data: '--x\r\nContent-Disposition: form-data; name="title"\r\n\r\ncsrf\r\n--x--\r\n' },
    ];
    const paths = [...new Set(cases.map((c) => c.path))];
    for (const root of ROOTS) {
      for (const path of paths) {
        for (const body of simple) {
          const label = `${body.type} POST ${root}${path}`;
          // As a browser sends it from another site: Origin set, no token; the cookie is SameSite=Strict.
          const fromPage = record(await send(server.port, 'POST', `${root}${path}`, { 'Content-Type': body.type, Origin: 'http://evil.example', 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors' }, body.data));
          check(`${label} from a page`, fromPage, 403, 'rest_forbidden');
          // From a page on another port of this machine: same-site, so the cookie does go along.
          const sameSite = record(await send(server.port, 'POST', `${root}${path}`, { 'Content-Type': body.type, Origin: 'http://127.0.0.1:8080', 'Sec-Fetch-Site': 'same-site', Cookie: cookie }, body.data));
          check(`${label} from another port`, sameSite, 403, 'rest_forbidden');
          // A browser that sends no Origin at all still has no credentials to send.
          const bare = record(await send(server.port, 'POST', `${root}${path}`, { 'Content-Type': body.type }, body.data));
          check(`${label} without Origin`, bare, 401, 'rest_forbidden');
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('the UI: / and its files need the session; its login page and redirects give nothing away', async () => {
    const page = (path: string, headers: Record<string, string> = {}) => send(server.port, 'GET', path, headers).then(record);
    for (const path of ['/', '/index.html', '/assets/app.js', '/nope', '/?token=', `/?token=${WRONG}`]) {
      const a = await page(path);
      if (a.status !== 401) problems.push(`anonymous GET ${path}: ${a.status}`);
      if (a.body.includes('calendar ui') || a.body.includes('/assets/app.js')) problems.push(`anonymous GET ${path}: UI content`);
      const wrong = await page(path, { Authorization: `Bearer ${WRONG}` });
      if (wrong.status !== 401) problems.push(`wrong token GET ${path}: ${wrong.status}`);
      for (const host of ['evil.example:4780', 'attacker.com']) {
        const evil = await page(path === '/?token=' ? `/?token=${TOKEN}` : path, { Host: host, Cookie: cookie });
        if (evil.status !== 403) problems.push(`Host ${host} GET ${path}: ${evil.status}`);
        if (evil.headers['set-cookie']) problems.push(`Host ${host} GET ${path}: a cookie was set`);
      }
      const foreign = await page(path, { Origin: 'http://evil.example', Cookie: cookie });
      if (foreign.status !== 403) problems.push(`Origin evil GET ${path}: ${foreign.status}`);
    }
    // Signed in, the same files are served.
    expect((await page('/', { Cookie: cookie })).body).toContain('/assets/app.js');
    expect((await page('/assets/app.js', { Cookie: cookie })).body).toContain('calendar ui');
    expect((await page('/assets/app.js', { Authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    // A permalink only redirects into the UI (which then needs the session); a foreign Host is refused.
    for (const kind of ['event', 'venue', 'organizer']) {
      const link = await page(`/${kind}/matrix-${kind}/`);
      expect([link.status, link.headers.location]).toEqual([302, `/#/${kind}/matrix-${kind}`]);
      expect((await page(`/${kind}/matrix-${kind}/`, { Host: 'attacker.com' })).status).toBe(403);
    }
    expect(problems).toEqual([]);
  });

  it('nothing of all that changed the calendar', () => {
    expect(dump(server.db)).toBe(before);
  });

  it('the token is in no answer (body or header) and in no log line, however it was sent', async () => {
    // Ways the token itself travels in a request line, which the log must blank out.
    for (const path of [`/?token=${TOKEN}`, `/?a=1&token=${TOKEN}&b=2`, `/?%74oken=${TOKEN}`, `/?TOKEN=${TOKEN}`, `/cal/events/v1/events?token=${TOKEN}`, `/cal/events/v1/events?access_token=${TOKEN}`]) {
      record(await send(server.port, 'GET', path, {}));
    }
    expect(answers.length).toBeGreaterThan(3000);
    for (const a of answers) {
      expect(a.body.includes(TOKEN), `a body: ${a.body.slice(0, 200)}`).toBe(false);
      for (const [k, v] of Object.entries(a.headers)) expect(`${k}: ${String(v)}`).not.toContain(TOKEN);
    }
    expect(logLines.length).toBeGreaterThan(3000);
    expect(logLines.filter((l) => l.includes(TOKEN))).toEqual([]);
    expect(logLines.some((l) => l.includes('%74oken=[redacted]'))).toBe(true);
  });
});

describe('files, interfaces, sizes and slow clients', () => {
  it('the token file is created owner-only (0600) in an owner-only folder; the discovery file holds no token', async () => {
    const parent = tempDir();
    const dataDir = join(parent, 'Almanac');
    const server = await createServer({ dataDir, port: 0, log: () => {} });
    try {
      expect(server.tokenFile).toBe(join(dataDir, 'api-token'));
      expect(statSync(server.tokenFile!).mode & 0o777).toBe(0o600);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(readFileSync(server.tokenFile!, 'utf8').trim()).toBe(server.token);
      expect(server.token.length).toBeGreaterThanOrEqual(32);
      const discovery = join(dataDir, 'server.json');
      expect(statSync(discovery).mode & 0o777).toBe(0o600);
      expect(readFileSync(discovery, 'utf8')).not.toContain(server.token);
    } finally {
      await server.close();
    }
  });

  it('listens on 127.0.0.1 only: no answer on this machine\'s other addresses, nor on ::1', async () => {
    const server = await createServer({ dbPath: join(tempDir(), 'a.sqlite'), port: 0, log: () => {} });
    try {
      expect(server.host).toBe('127.0.0.1');
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
      const others = Object.values(networkInterfaces()).flat().filter((i) => i && !i.internal && !(i.family === 'IPv6' && i.scopeid)).map((i) => i!.address);
      for (const address of [...others, '::1']) {
        const outcome = await new Promise<string>((ok) => {
          const s = connect({ host: address, port: server.port, timeout: 3000 });
          s.once('connect', () => {
            s.destroy();
            ok('connected');
          });
          s.once('timeout', () => {
            s.destroy();
            ok('no answer');
          });
          s.once('error', (err: NodeJS.ErrnoException) => ok(err.code ?? 'error'));
        });
        expect(outcome, `connecting to ${address}:${server.port}`).not.toBe('connected');
      }
      console.log(`[security] other addresses tried: ${others.join(', ') || '(none on this machine)'}, ::1`);
    } finally {
      await server.close();
    }
  });

  it('a body over 1 MB → 413 rest_body_too_large on every route that takes one, nothing written', async () => {
    const server = await createServer({ dbPath: join(tempDir(), 'a.sqlite'), token: TOKEN, port: 0, log: () => {} });
    try {
      const auth = { Authorization: `Bearer ${TOKEN}` };
      const id = JSON.parse((await send(server.port, 'POST', '/cal/events/v1/tags', { ...auth, 'Content-Type': 'application/json' }, '{"name":"big"}')).body).id as number;
      const before = dump(server.db);
      const big = JSON.stringify({ title: 'x'.repeat(1_100_000), name: 'x', venue: 'x', organizer: 'x' });
      const form = `title=${'x'.repeat(1_100_000)}`;
      let n = 0;
      for (const r of allRoutes()) {
        for (const e of r.endpoints) {
          if (!e.body || e.rawBody) continue; // /import takes files up to 150 MB (transfer.test.ts)
          for (const m of e.methods) {
            const path = `/cal/events/v1${r.docPath.replace('{id}', String(id)).replace('{slug}', 'big')}`;
            for (const [type, data] of [['application/json', big], ['application/x-www-form-urlencoded', form]]) {
              const a = await send(server.port, m, path, { ...auth, 'Content-Type': type }, data);
              const b = JSON.parse(a.body);
              expect({ status: a.status, code: b.code, dataStatus: b.data?.status }, `${m} ${path} ${type}`).toEqual({ status: 413, code: 'rest_body_too_large', dataStatus: 413 });
              n++;
            }
          }
        }
      }
      expect(n).toBeGreaterThan(20);
      // Sent in chunks, without a Content-Length, it is cut off the same way.
      const chunked = await new Promise<Answer>((ok, fail) => {
        const req = http.request({ host: '127.0.0.1', port: server.port, method: 'POST', path: '/cal/events/v1/events', headers: { ...auth, 'Content-Type': 'application/json' } }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => ok({ status: res.statusCode!, headers: res.headers, body }));
        });
        req.on('error', fail);
        for (let i = 0; i < 12; i++) req.write(i === 0 ? `{"title":"${'y'.repeat(100_000)}` : 'y'.repeat(100_000));
        req.end('"}');
      });
      expect([chunked.status, JSON.parse(chunked.body).code]).toEqual([413, 'rest_body_too_large']);
      expect(dump(server.db)).toBe(before);
    } finally {
      await server.close();
    }
  });

  /** Opens a connection, sends `head`, then one byte of `drip` at a time; resolves when the server hangs up. */
  function slowClient(port: number, head: string, drip: string): Promise<{ received: string; sent: number }> {
    return new Promise((ok) => {
      const s = connect({ host: '127.0.0.1', port });
      let received = '';
      let sent = 0;
      let timer: NodeJS.Timeout | undefined;
      s.on('data', (d) => (received += d));
      s.on('error', () => {});
      s.on('close', () => {
        clearInterval(timer);
        ok({ received, sent });
      });
      s.on('connect', () => {
        s.write(head);
        // Until the server hangs up (if it never did, the test would time out); bounded all the same.
        timer = setInterval(() => {
          if (drip && sent < 300 && !s.destroyed) s.write(drip[sent++ % drip.length]);
        }, 100);
      });
    });
  }

  it('slow clients are cut off: headers sent slowly, a body sent slowly (408 or a closed connection)', { timeout: 30_000 }, async () => {
    const server = await createServer({ dbPath: join(tempDir(), 'a.sqlite'), token: TOKEN, port: 0, log: () => {}, timeouts: { headers: 500, request: 1500, checkInterval: 100 } });
    try {
      const before = dump(server.db);
      const host = `Host: 127.0.0.1:${server.port}\r\n`;
      const [headers, body, nothing] = await Promise.all([
        // Never finishes its headers.
        slowClient(server.port, `GET /cal/events/v1/ HTTP/1.1\r\n${host}`, 'X-Slow: aaaaaaaaaaaaaaaaaaaa\r\n'),
        // Announces a body and sends it a byte at a time.
        slowClient(server.port, `POST /cal/events/v1/tags HTTP/1.1\r\n${host}Authorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"name":"slow`, 'x'),
        // Connects and says nothing at all.
        slowClient(server.port, '', ''),
      ]);
      console.log(`[security] slow clients got: headers ${JSON.stringify(headers.received.slice(0, 40))}, body ${JSON.stringify(body.received.slice(0, 40))}, silent ${JSON.stringify(nothing.received.slice(0, 40))}`);
      for (const [what, r] of [['slow headers', headers], ['slow body', body], ['silent', nothing]] as const) {
        // Cut off: an empty answer (closed) or a 408, never a served request.
        expect(r.received === '' || r.received.startsWith('HTTP/1.1 408'), `${what}: ${r.received.slice(0, 200)}`).toBe(true);
      }
      expect(dump(server.db)).toBe(before);
    } finally {
      await server.close();
    }
  });
});

describe('npm run serve (the CLI) and the token', () => {
  function serve(args: string[], env: NodeJS.ProcessEnv = {}) {
    const c = spawnTsx(CLI, ['serve', ...args], { ALMANAC_TOKEN: '', ...env });
    children.push(c);
    const ready = new Promise<string>((ok, fail) => {
      c.child.stdout!.on('data', () => {
        const m = /running at (http:\/\/\S+)/.exec(c.output());
        if (m) ok(m[1]);
      });
      void c.exited.then(() => fail(new Error(`exited early:\n${c.output()}`)));
    });
    return { ...c, ready };
  }

  it('binds to 127.0.0.1 by default; shows the token only in its login URL line, in no log line', { timeout: 40_000 }, async () => {
    for (const given of [true, false]) {
      const dataDir = tempDir();
      const proc = serve(['--data-dir', dataDir, '--port', '0', ...(given ? ['--token', TOKEN] : [])]);
      const url = await proc.ready;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const token = given ? TOKEN : readFileSync(join(dataDir, 'api-token'), 'utf8').trim();
      const port = Number(new URL(url).port);
      for (const path of [`/?token=${token}`, `/?%74oken=${token}`, `/?x=1&token=${token}`, `/cal/events/v1/events?token=${token}`, `/?token=${WRONG}`, '/cal/events/v1/doc']) {
        await send(port, 'GET', path, {});
      }
      await send(port, 'GET', '/cal/events/v1/events', { Authorization: `Bearer ${token}` });
      await send(port, 'POST', '/cal/events/v1/tags', { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Origin: 'http://evil.example' }, '{"name":"x"}');
      const end = proc.exited;
      proc.child.kill('SIGTERM');
      expect((await end).code).toBe(0);
      const lines = proc.output().split('\n');
      const logLines = lines.filter((l) => /^\S+Z (INFO|WARN|ERROR)/.test(l));
      expect(logLines.length).toBeGreaterThanOrEqual(8);
      expect(logLines.filter((l) => l.includes(token))).toEqual([]);
      // The one place it is shown, on purpose (as Jupyter does): the login URL for the owner.
      expect(lines.filter((l) => l.includes(token)).map((l) => l.trim().split(/\s+/)[0])).toEqual(['Calendar:']);
    }
  });
});
