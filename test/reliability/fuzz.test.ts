/**
 * Hostile input on every route (issue #7, "Reliability and security under faults, load and hostile
 * input").
 *
 * Every route of the namespace, enumerated from the route table the server serves and `/doc` is
 * generated from (so a new route is fuzzed without anyone listing it here), under every root (`/`,
 * `/wp-json`, `/{lang}/…`), gets random and malicious input: wrong types, deep nesting in JSON,
 * forms and query strings, huge strings around the 1 MB body limit, NUL bytes, invalid UTF-8 and
 * broken percent-encoding, prototype-pollution keys, SQL-looking text, path traversal in slugs and
 * ids, wrong content types and encodings, duplicate parameters, lists where one value belongs, and
 * a method override header. A fixed list of nasty cases runs on every route and method, then
 * fast-check generates more (seeded; shrinks to the smallest failing request).
 *
 * For every request:
 *  - never a 5xx;
 *  - a 4xx is JSON in the API's error shape `{code, message, data: {status}}`, data.status equal
 *    to the HTTP status;
 *  - no stack trace, source path or `node_modules` in the answer;
 *  - a refused request (4xx), any read, and a dry-run import leave the database as it was;
 * and after the run Object.prototype is not polluted and the server still answers.
 *
 * Requests that Node's HTTP parser refuses before the application sees them (a request line or
 * headers over 16 KB, raw bytes ≥ 0x80 in the URL) are not in the random mix: they answer without
 * the JSON envelope today (known bug 2, reproduced at the end). Restoring a JSON backup whose rows
 * SQLite refuses answers 500 today (known bug 3, reproduced at the end); the structured /import
 * cases keep to backups the server refuses cleanly.
 *
 *   ALMANAC_FC_SEED=<n>       another seed
 *   ALMANAC_FC_PATH=<path>    replay one counterexample (with its seed)
 *   ALMANAC_LONG_TESTS=1      ten times more random requests
 */
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAST_TMP, startTestServer, type TestServer } from '../helpers/server';
import { allRoutes } from '../../electron/server/routes';
import type { RouteDef } from '../../electron/server/http/route-table';

const LONG = process.env.ALMANAC_LONG_TESTS === '1';
const SEED = process.env.ALMANAC_FC_SEED ? Number(process.env.ALMANAC_FC_SEED) : 20_261_123;
const PATH = process.env.ALMANAC_FC_PATH || undefined;
const RANDOM_RUNS = LONG ? 25_000 : 2_500;

const NS = '/cal/events/v1';
const ROOTS = ['', '/wp-json', '/en', '/pt-br', '/pt-br/wp-json', '/es', '/es/wp-json', '/ES/WP-JSON'];

// ---------------------------------------------------------------------------------------------
// The operations: every method of every route of the table

interface Operation {
  method: string;
  /** Position of the method among its endpoint's (POST, PUT, PATCH share one handler). */
  alias: number;
  docPath: string;
  args: string[];
  body: boolean;
  rawBody: boolean;
  write: boolean;
}

// The reminders' push channel answers a valid request with a stream that stays open: no answer to
// wait for. Its refusals are in the security matrix; what it sends, in test/server/reminders.
const ROUTES: RouteDef[] = allRoutes().filter((r) => r.docPath !== '/reminders/stream');
const OPERATIONS: Operation[] = ROUTES.flatMap((r) =>
  r.endpoints.flatMap((e) =>
    e.methods.map((method, alias) => ({ method, alias, docPath: r.docPath, args: Object.keys(e.args), body: !!e.body, rawBody: !!e.rawBody, write: e.write })),
  ),
);
const opKey = (op: Operation) => `${op.method} ${op.docPath}`;

// ---------------------------------------------------------------------------------------------
// Raw HTTP: node:http with keep-alive, so bytes go out exactly as built here

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}
interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

let t: TestServer;
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

function send(req: Sent): Promise<Got> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const r = http.request(
      { host: '127.0.0.1', port: t.server.port, method: req.method, path: req.path, headers: req.headers, agent, timeout: 30_000 },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    r.on('timeout', () => r.destroy(new Error('no answer in 30 s')));
    // The server may answer (413) and close before a big body is all sent: that is fine.
    r.on('error', (err) => (answered ? undefined : reject(err)));
    r.end(req.body);
  });
}

/** Percent-encodes every byte of the UTF-8 form but the unreserved ones (lone surrogates → U+FFFD). */
function pct(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * Text of the server's insides that must never reach a client (unless the request itself carried
 * it). The SQLite words only count in errors: a record may well hold "sqlite_master" as text.
 */
const LEAKS: Array<[string, RegExp, 'any' | 'errors']> = [
  ['stack trace', /\n\s+at [\w.<>$]+ \(|\bat (?:async )?[\w.<>$]+ \(\/|at Object\.<anonymous>/, 'any'],
  ['node_modules', /node_modules/, 'any'],
  ['source file', /\.(?:ts|js|mjs|cjs):\d+/, 'any'],
  ['checkout path', new RegExp(process.cwd().replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')), 'any'],
  ['server source', /electron\/server\//, 'any'],
  ['SQLite error', /SQLITE_|sqlite3?_|no such (table|column)|syntax error|constraint failed/i, 'errors'],
];

/** Rows written on the server's connection so far: a read must not move it. */
let writes: () => number;
const seen = new Map<string, number>();
let requests = 0;

/** Sends a request and checks everything issue #7 asks of any answer. Returns the answer. */
async function hostile(req: Sent, what: string, op?: Operation): Promise<Got> {
  if (op) seen.set(opKey(op), (seen.get(opKey(op)) ?? 0) + 1);
  requests++;
  const isRead = req.method === 'GET' || req.method === 'HEAD';
  const writesBefore = writes();
  // Reads are held to more: not one row written (checked below). Writes: the row counts and the
  // events checksum, compared when the connection wrote anything at all (a rolled-back write).
  const before = isRead ? undefined : t.snapshot();
  const got = await send(req);
  const shown = `${what}\n  ${req.method} ${req.path.slice(0, 300)}${req.body ? ` [${req.headers['Content-Type'] ?? 'no type'}, ${req.body.length} bytes] ${req.body.subarray(0, 200).toString('latin1')}` : ''}\n  → ${got.status} ${got.text.slice(0, 300)}`;
  expect(got.status, `5xx: ${shown}`).toBeLessThan(500);
  expect(got.status, `no status: ${shown}`).toBeGreaterThanOrEqual(200);
  const requestText = `${req.path} ${req.body?.toString('latin1') ?? ''}`;
  for (const [name, re, where] of LEAKS) {
    if ((where === 'any' || got.status >= 400) && re.test(got.text) && !re.test(requestText)) expect.fail(`${name} in the answer: ${shown}`);
  }
  const type = String(got.headers['content-type'] ?? '');
  if (got.status >= 400) {
    expect(type, `error not JSON: ${shown}`).toMatch(/^application\/json/);
    if (req.method !== 'HEAD') {
      let body: any;
      try {
        body = JSON.parse(got.text);
      } catch {
        expect.fail(`error body is not JSON: ${shown}`);
      }
      expect(typeof body?.code, `error code: ${shown}`).toBe('string');
      expect(typeof body?.message === 'string' && body.message.length > 0, `error message: ${shown}`).toBe(true);
      expect(body?.data?.status, `data.status: ${shown}`).toBe(got.status);
    }
    // Refused: nothing changed.
    if (before && writes() !== writesBefore) expect(t.snapshot(), `a refused request changed the database: ${shown}`).toEqual(before);
  } else if (req.method !== 'HEAD' && !req.path.split('?')[0].endsWith('/export')) {
    expect(type, `answer not JSON: ${shown}`).toMatch(/^application\/json/);
    expect(() => JSON.parse(got.text), `answer not JSON: ${shown}`).not.toThrow();
  }
  if (isRead) expect(writes(), `a read wrote to the database: ${shown}`).toBe(writesBefore);
  if (before && req.path.includes('/import') && /[?&]dry_run=(?:true|1|yes|on)(?:&|$)/i.test(req.path) && got.status < 300) {
    expect(t.snapshot(), `a dry-run import changed the database: ${shown}`).toEqual(before);
  }
  return got;
}

// ---------------------------------------------------------------------------------------------
// Building requests

interface Fixture {
  ids: Record<string, number[]>;
  slugs: Record<string, string[]>;
}
let fx: Fixture;

const collectionOf = (docPath: string) => docPath.split('/')[1] ?? '';

/** `/events/{id}` with an id (or slug) of a real record, or the hostile text given (sent as is). */
function fillPath(docPath: string, value: { real: number } | { raw: string }): string {
  const coll = collectionOf(docPath);
  return docPath
    .replace('{id}', 'real' in value ? String(pickReal(fx.ids[coll], value.real) ?? 1) : value.raw)
    .replace('{slug}', 'real' in value ? pct(pickReal(fx.slugs[coll], value.real) ?? 'x') : value.raw);
}
const pickReal = <T>(list: T[] | undefined, n: number): T | undefined => (list?.length ? list[n % list.length] : undefined);

function headersFor(op: { method: string }, body: Buffer | undefined, contentType: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  const h: Record<string, string> = { Authorization: `Bearer ${t.server.token}`, ...extra };
  if (body !== undefined) {
    h['Content-Length'] = String(body.length);
    if (contentType !== undefined) h['Content-Type'] = contentType;
  }
  void op;
  return h;
}

function url(root: string, path: string, query: string): string {
  return `${root}${NS}${path === '/' ? '' : path}${query ? `?${query}` : ''}`;
}

const json = (v: unknown) => Buffer.from(JSON.stringify(v) ?? 'null', 'utf8');

// ---------------------------------------------------------------------------------------------
// Nasty values

const NASTY_STRINGS: string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uFFFD',
  '\uD800',
  '\uDFFF\uD800',
  '\u202Eevil',
  '\uFEFFbom',
  '😀👩‍👩‍👧',
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '/etc/passwd\u0000.png',
  "' OR '1'='1",
  "'; DROP TABLE events; --",
  '" OR 1=1 --',
  '1; SELECT * FROM users',
  '1 UNION SELECT sql FROM sqlite_master',
  "x') OR 1=1; --",
  '%',
  '%%',
  '%zz',
  '%_\\',
  '*',
  '"',
  '\\',
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '0',
  '-0',
  '1e309',
  '9'.repeat(400),
  '0x10',
  '1.5',
  'true',
  '[]',
  '{}',
  'any',
  'trash',
  'yesterday',
  '+99999999 years',
  '@-99999999999',
  'first monday of next month',
  'x'.repeat(1001),
  'y'.repeat(5000),
  'javascript:alert(1)',
  'file:///etc/passwd',
  'http://',
  'http://[::1',
  'data:text/html,hi',
  'a,b,,c',
  ',,,',
  'publish,bogus',
];

/** Values of any type, including deep ones and prototype keys. */
const leafA: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 1, 2 ** 31, 2 ** 53, -(2 ** 53), 1e308, 0.5, -0) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);
const protoKeyA = fc.constantFrom('__proto__', 'constructor', 'prototype', '__defineGetter__', 'hasOwnProperty', 'valueOf', 'toString');
const valueA: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ maxDepth: 4, depthIdentifier: 'v' }, { weight: 6, arbitrary: leafA }, { weight: 1, arbitrary: tie('array') }, { weight: 1, arbitrary: tie('object') }),
  array: fc.array(tie('value'), { maxLength: 4, depthIdentifier: 'v' }),
  object: fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), protoKeyA), tie('value'), { maxKeys: 4, depthIdentifier: 'v' }),
})).value;

/** A JSON object whose keys are the route's own fields (plus prototype keys), values hostile. */
function fieldsA(op: Operation): fc.Arbitrary<Record<string, unknown>> {
  const names = op.args.length ? op.args : ['title'];
  return fc
    .array(fc.tuple(fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...names, 'i18n_language') }, { weight: 1, arbitrary: protoKeyA }), valueA), { minLength: 1, maxLength: 6 })
    .map((pairs) => {
      // JSON.parse gives `__proto__` as an own key; build the text the same way.
      const out: Record<string, unknown> = {};
      for (const [k, v] of pairs) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      return out;
    });
}

/** A query string: the route's parameters (and others), as scalars, lists, duplicates, deep keys. */
function queryA(op: Operation): fc.Arbitrary<string> {
  const names = [...op.args, 'i18n_language', 'force', 'password', 'context', '_method', '_envelope', '_fields', 'rest_route'];
  const keyA = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...names) },
    { weight: 1, arbitrary: fc.constantFrom('__proto__[polluted]', 'constructor[prototype][polluted]', '__proto__', 'a[__proto__][polluted]', 'a[b][c][d][e][f][g][h]') },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 10 }) },
  );
  const valA = fc.oneof(
    { weight: 6, arbitrary: leafA.map((v) => pct(String(v))) },
    // Broken or raw percent sequences, sent as they are.
    { weight: 2, arbitrary: fc.constantFrom('%FF', '%C3%28', '%', '%zz', '%E0%80%80', '%ED%A0%80', '%00', '%2e%2e%2f', '..%2F..%2F', 'a%2Cb', '%5B%5D', '%F0%9F%98', '+%2B+') },
  );
  const partA = fc.oneof(
    { weight: 6, arbitrary: fc.tuple(keyA, valA).map(([k, v]) => `${pct(k)}=${v}`) },
    { weight: 1, arbitrary: fc.tuple(keyA, valA).map(([k, v]) => `${k.replace(/[^\x21-\x7e]|[&=#%+]/g, '')}=${v}`) },
    { weight: 2, arbitrary: fc.tuple(keyA, fc.array(valA, { minLength: 1, maxLength: 4 })).map(([k, vs]) => vs.map((v) => `${pct(k)}[]=${v}`).join('&')) },
    { weight: 1, arbitrary: fc.tuple(keyA, fc.array(valA, { minLength: 2, maxLength: 3 })).map(([k, vs]) => vs.map((v) => `${pct(k)}=${v}`).join('&')) },
    { weight: 1, arbitrary: fc.tuple(keyA, fc.nat({ max: 30 }), valA).map(([k, n, v]) => `${pct(k)}${'[a]'.repeat(n)}=${v}`) },
    { weight: 1, arbitrary: fc.tuple(keyA, valA).map(([k, v]) => `${pct(k)}[${v}]=1`) },
    { weight: 1, arbitrary: fc.constantFrom('', '&', '&&', '=', '==', '=x', 'x', '?', '#', '%26=%3D') },
  );
  return fc.array(partA, { maxLength: 6 }).map((parts) => parts.join('&'));
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16le',
  'application/json; charset=latin1',
  'application/json; charset=bogus',
  'APPLICATION/JSON',
  'application/merge-patch+json',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=iso-8859-1',
  'text/plain',
  'text/html',
  'text/calendar',
  'text/csv',
  'multipart/form-data; boundary=zz',
  'application/xml',
  'application/octet-stream',
  'application/json, text/plain',
  '*/*',
  'x'.repeat(300),
];

interface BodySpec {
  kind: 'json' | 'jsonText' | 'form' | 'bytes' | 'none';
  contentType?: string;
  data: unknown;
}

/** Bodies: JSON of hostile fields or any value, broken JSON, forms, raw bytes, none. */
function bodyA(op: Operation): fc.Arbitrary<BodySpec> {
  const typeA = fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) });
  const brokenJson = fc.constantFrom(
    '{',
    '{"title":',
    '{"title":"x",}',
    "{'title':'x'}",
    '{"title":"x"} trailing',
    '\uFEFF{"title":"x"}',
    'NaN',
    '[1,2',
    '{"a":1,"a":2,"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"__proto__":{"polluted":true},"title":"t","name":"n","venue":"v","organizer":"o"}',
    '/* comment */ {}',
    '"just a string"',
    '12345',
    'true',
    'null',
    '[]',
    '{"title":"\\ud800"}',
    '{"title":"\\u0000"}',
  );
  return fc.oneof(
    { weight: 5, arbitrary: fc.record({ kind: fc.constant<'json'>('json'), contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', undefined), data: fieldsA(op) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant<'json'>('json'), contentType: typeA, data: valueA }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant<'jsonText'>('jsonText'), contentType: typeA, data: fc.oneof(brokenJson, fc.json({ maxDepth: 3 })) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant<'form'>('form'), contentType: fc.constantFrom('application/x-www-form-urlencoded', undefined), data: queryA(op) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant<'bytes'>('bytes'), contentType: typeA, data: fc.uint8Array({ maxLength: 300 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant<'none'>('none'), contentType: typeA, data: fc.constant(null) }) },
  );
}

function bodyBytes(b: BodySpec): { body?: Buffer; contentType?: string } {
  switch (b.kind) {
    case 'json':
      return { body: json(b.data), contentType: b.contentType ?? 'application/json' };
    case 'jsonText':
      return { body: Buffer.from(String(b.data), 'utf8'), contentType: b.contentType ?? 'application/json' };
    case 'form':
      return { body: Buffer.from(String(b.data), 'latin1'), contentType: b.contentType ?? 'application/x-www-form-urlencoded' };
    case 'bytes':
      return { body: Buffer.from(b.data as Uint8Array), contentType: b.contentType };
    default:
      return { body: b.contentType ? Buffer.alloc(0) : undefined, contentType: b.contentType };
  }
}

/** Hostile ids and slugs, as they go into the path (already encoded, or raw on purpose). */
const PATH_VALUES = [
  '0',
  '00',
  '-1',
  '1e3',
  '999999999',
  '99999999999999999999999',
  '9'.repeat(400),
  '%31',
  '%00',
  '%FF',
  '%C3%28',
  '%E0%80%AF',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%2F..%2Fetc%2Fpasswd',
  '..%5C..%5Cwindows',
  '..',
  '.',
  '%20',
  '%0d%0aX-Injected:%201',
  pct("' OR '1'='1"),
  pct("x'; DROP TABLE events; --"),
  pct('<script>alert(1)</script>'),
  pct('😀'),
  pct('\uD800'),
  pct('x'.repeat(2000)),
  '__proto__',
  'constructor',
  'Spring-Concert',
  '%',
  '%%',
];

const DEEP_ARRAY = '['.repeat(10_000) + ']'.repeat(10_000);
const DEEP_OBJECT = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
let deep: unknown;
const deepValue = () => (deep ??= JSON.parse('{"x":'.repeat(2000) + '1' + '}'.repeat(2000)));

// ---------------------------------------------------------------------------------------------

let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(FAST_TMP, 'almanac-fuzz-'));
  t = await startTestServer({ dataDir });
  const totalChanges = t.server.db.prepare('SELECT total_changes() AS n');
  writes = () => (totalChanges.get() as { n: number }).n;
  const ids: Fixture['ids'] = { events: [], venues: [], organizers: [], categories: [], tags: [] };
  const slugs: Fixture['slugs'] = { events: [], venues: [], organizers: [] };
  const post = async (root: string, coll: string, body: Record<string, unknown>) => {
    const got = await send({ method: 'POST', path: url(root, `/${coll}`, ''), headers: headersFor({ method: 'POST' }, json(body), 'application/json'), body: json(body) });
    expect(got.status, got.text).toBe(201);
    const rec = JSON.parse(got.text);
    ids[coll].push(rec.id);
    if (rec.slug && slugs[coll]) slugs[coll].push(rec.slug);
    return rec;
  };
  for (const [i, root] of ['', '/pt-br', '/es'].entries()) {
    const cat = await post(root, 'categories', { name: `Fuzz category ${i}` });
    await post(root, 'categories', { name: `Fuzz child ${i}`, parent: cat.id });
    const tag = await post(root, 'tags', { name: `Fuzz tag ${i}` });
    const venue = await post(root, 'venues', { venue: `Fuzz venue ${i}`, city: 'Lisboa' });
    const org = await post(root, 'organizers', { organizer: `Fuzz organizer ${i}`, email: 'fuzz@example.org' });
    for (let n = 0; n < 3; n++) {
      await post(root, 'events', {
        title: `Fuzz event ${i}-${n}`,
        start_date: `2031-0${n + 1}-10 10:00`,
        end_date: `2031-0${n + 1}-10 12:00`,
        categories: [cat.id],
        tags: [tag.id],
        venue: venue.id,
        organizer: [org.id],
        cost: '$5',
      });
    }
  }
  fx = { ids, slugs };
});

const protoNamesBefore = Object.getOwnPropertyNames(Object.prototype).sort();
const arrayProtoNamesBefore = Object.getOwnPropertyNames(Array.prototype).sort();

afterAll(async () => {
  agent.destroy();
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('hostile input on every route', () => {
  it('the route table is what is fuzzed: every route, including /doc, the index, /export and /import', () => {
    const paths = new Set(OPERATIONS.map((o) => o.docPath));
    for (const p of ['/', '/doc', '/events', '/events/{id}', '/events/by-slug/{slug}', '/venues', '/organizers/by-slug/{slug}', '/categories/{id}', '/tags', '/export', '/import']) {
      expect(paths, p).toContain(p);
    }
    expect(OPERATIONS.length).toBeGreaterThanOrEqual(54);
  });

  it('a fixed list of nasty cases on every route and method, under every root', async () => {
    const started = Date.now();
    const before = requests;
    for (const op of OPERATIONS) {
      // POST, PUT and PATCH of a route share one handler: the whole list for the first, a third of
      // it (a different third each) for the others.
      const share = <T>(list: T[]) => (op.alias === 0 ? list : list.filter((_, i) => i % 3 === op.alias % 3));
      const paths = [fillPath(op.docPath, { real: 0 })];
      if (op.docPath.includes('{')) for (const raw of share(PATH_VALUES)) paths.push(fillPath(op.docPath, { raw }));
      // Every path shape, once each, with a valid token and nothing else.
      for (const [i, path] of paths.entries()) {
        await hostile({ method: op.method, path: url(ROOTS[i % ROOTS.length], path, ''), headers: headersFor(op, undefined, undefined) }, `bare ${opKey(op)}`, op);
      }
      const path = paths[0];
      // Query strings: prototype keys, duplicates, lists for scalars, deep keys, broken encodings.
      const arg = op.args[0] ?? 'page';
      const queries = [
        `${arg}=%FF`,
        `${arg}=%C3%28`,
        `${arg}=%00`,
        `${arg}=${pct('\u0000')}x`,
        `${arg}[]=1&${arg}[]=2`,
        `${arg}=1&${arg}=2&${arg}=%ZZ`,
        `${arg}[a][b]=1`,
        `${arg}[__proto__][polluted]=1`,
        '__proto__[polluted]=1&constructor[prototype][polluted]=1',
        'a[__proto__][polluted]=1&a[constructor][prototype][polluted]=1',
        `${'a'}${'[b]'.repeat(2000)}=1`,
        `${arg}=${pct("' OR 1=1 --")}`,
        `${arg}=${pct('../../etc/passwd')}`,
        `${arg}=${'9'.repeat(400)}`,
        `${arg}=${'x'.repeat(8000)}`,
        Array.from({ length: 1500 }, (_, i) => `p${i}=1`).join('&'),
        `i18n_language=xx`,
        `i18n_language[]=en&i18n_language[]=es`,
        `i18n_language[a]=es`,
        `i18n_language=${pct('pt-br\u0000')}`,
        ...op.args.slice(0, 20).map((a) => `${a}[]=${pct("'; DROP TABLE events; --")}&${a}[x]=1`),
      ];
      for (const [i, q] of share(queries).entries()) {
        await hostile({ method: op.method, path: url(ROOTS[i % ROOTS.length], path, q), headers: headersFor(op, undefined, undefined) }, `query ${opKey(op)}`, op);
      }
      if (!op.body && !op.rawBody && op.method === 'GET') continue;
      // Bodies (also sent to routes that take none: they must be ignored or refused cleanly).
      const fields = op.args.length ? op.args : ['title'];
      const each = (v: unknown) => json(Object.fromEntries(fields.map((f) => [f, v])));
      // Built only when sent: several of these are megabytes.
      const bodies: Array<[string | undefined, () => Buffer]> = [
        ['application/json', () => Buffer.from(DEEP_ARRAY)],
        ['application/json', () => Buffer.from(DEEP_OBJECT)],
        ['application/json', () => Buffer.from(`{"${fields[0]}":${DEEP_ARRAY}}`)],
        ['application/json', () => each(deepValue())],
        ['application/x-www-form-urlencoded', () => Buffer.from(`${fields[0]}${'[b]'.repeat(10_000)}=1`)],
        ['application/x-www-form-urlencoded', () => Buffer.from(Array.from({ length: 6000 }, (_, i) => `k${i}=1`).join('&'))],
        ['application/json', () => each({})],
        ['application/json', () => each([[1], { a: [] }])],
        ['application/json', () => each(['a', 'b'])],
        ['application/json', () => each(true)],
        ['application/json', () => each(-1)],
        ['application/json', () => each(1e308)],
        ['application/json', () => each('bad\u0000value')],
        ['application/json', () => each('\uD800')],
        ['application/json', () => each("x'); DELETE FROM events; --")],
        ['application/json', () => each('../../etc/passwd')],
        ['application/json', () => Buffer.from('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}')],
        ['application/json', () => Buffer.from(`{"${fields[0]}":{"__proto__":{"polluted":true}}}`)],
        ['application/json', () => Buffer.from([0x7b, 0x22, ...Buffer.from(fields[0]), 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0xfe, 0x22, 0x7d])],
        ['application/json', () => Buffer.from('\uFEFF{}')],
        ['application/json', () => Buffer.from('{')],
        ['application/json', () => Buffer.from('"str"')],
        ['application/json', () => Buffer.from('[]')],
        ['application/json', () => Buffer.from('null')],
        ['application/json', () => Buffer.alloc(0)],
        ['application/json; charset=utf-16le', () => Buffer.from('{}', 'utf16le')],
        ['application/json; charset=bogus', () => Buffer.from('{}')],
        ['text/plain', () => Buffer.from('{}')],
        ['multipart/form-data; boundary=zz', () => Buffer.from(`--zz\r\nContent-Disposition: form-data; name="${fields[0]}"\r\n\r\nx\r\n--zz--\r\n`)],
        ['application/xml', () => Buffer.from('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>')],
        [undefined, () => Buffer.from('{"title":"no content type"}')],
        ['application/x-www-form-urlencoded', () => Buffer.from(`${fields[0]}=%FF&${fields[0]}=%C3%28&__proto__[polluted]=1&constructor[prototype][polluted]=1`)],
        ['application/x-www-form-urlencoded', () => Buffer.from(`${fields[0]}[]=1&${fields[0]}[]=2&${fields[0]}=3`)],
        // Around the 1 MB limit: just under (refused by field rules) and just over (413).
        ['application/json', () => json({ [fields[0]]: 'x'.repeat(1_048_576 - 20 - fields[0].length) })],
        ['application/json', () => json({ [fields[0]]: 'x'.repeat(1_048_600) })],
        ['application/x-www-form-urlencoded', () => Buffer.from(`${fields[0]}=${'x'.repeat(1_048_600)}`)],
      ];
      for (const [i, [type, build]] of share(bodies).entries()) {
        const body = build();
        const headers = headersFor(op, body, type);
        await hostile({ method: op.method, path: url(ROOTS[i % ROOTS.length], path, ''), headers, body }, `body ${opKey(op)} #${i}`, op);
      }
      // Content encodings the server does not know, or that lie about the body.
      for (const enc of share(['gzip', 'deflate', 'br', 'x-bogus', 'identity, gzip'])) {
        const body = Buffer.from('{"title":"x"}');
        await hostile({ method: op.method, path: url('', path, ''), headers: headersFor(op, body, 'application/json', { 'Content-Encoding': enc }), body }, `encoding ${enc} ${opKey(op)}`, op);
      }
    }
    // Methods no route has, paths no route matches.
    for (const method of ['OPTIONS', 'TRACE', 'PROPFIND', 'SEARCH', 'PURGE', 'HEAD']) {
      for (const path of ['/', '/events', '/events/1', '/doc', '/import']) {
        await hostile({ method, path: url('', path, ''), headers: headersFor({ method }, undefined, undefined) }, `${method} ${path}`);
      }
    }
    for (const path of ['/eventz', '/events/', '/events//1', '/events/1/extra', '/events/by-slug/', '/EVENTS', '/events/1/..', '/../../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/events%2F1', '/doc/', '/import/x', '/export/..']) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        await hostile({ method, path: url('', path, ''), headers: headersFor({ method }, undefined, undefined) }, `${method} ${path}`);
      }
    }
    for (const root of ['/xx', '/fr/wp-json', '/wp-json/wp-json', '/pt-BR', '/en/en']) {
      await hostile({ method: 'GET', path: url(root, '/events', ''), headers: headersFor({ method: 'GET' }, undefined, undefined) }, `root ${root}`);
    }
    for (const op of OPERATIONS) expect(seen.get(opKey(op)) ?? 0, opKey(op)).toBeGreaterThan(0);
    console.log(`[fuzz] fixed list: ${requests - before} requests on ${OPERATIONS.length} route methods in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }, 300_000);

  it('structured hostile files on /import: iCalendar, CSV and JSON backups', async () => {
    const op = OPERATIONS.find((o) => o.docPath === '/import')!;
    const vevent = (extra: string, start = '20310101T100000Z') =>
      `BEGIN:VEVENT\r\nUID:fuzz-${Math.random().toString(36).slice(2)}@x\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:${start}\r\nDTEND:20310101T110000Z\r\nSUMMARY:Fuzz\r\n${extra}END:VEVENT\r\n`;
    const ics = (body: string) => `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//fuzz//EN\r\n${body}END:VCALENDAR\r\n`;
    const files: Array<[string, string, string | Buffer]> = [
      ['ics', 'text/calendar', ics(vevent('RRULE:FREQ=SECONDLY;COUNT=1000000000\r\n'))],
      ['ics', 'text/calendar', ics(vevent('RRULE:FREQ=MINUTELY\r\n'))],
      ['ics', 'text/calendar', ics(vevent('RRULE:FREQ=SECONDLY;UNTIL=99991231T000000Z\r\n'))],
      ['ics', 'text/calendar', ics(vevent('RRULE:FREQ=DAILY;INTERVAL=0;COUNT=5\r\n'))],
      ['ics', 'text/calendar', ics(vevent('RRULE:FREQ=YEARLY;BYSETPOS=-1,1;BYYEARDAY=1,2,3;BYWEEKNO=1,2;BYDAY=MO,TU,WE,TH,FR,SA,SU;COUNT=100000\r\n'))],
      ['ics', 'text/calendar', ics(vevent('RRULE:FREQ=DAILY;COUNT=10\r\nEXDATE:' + Array(5000).fill('20310101T100000Z').join(',') + '\r\n'))],
      ['ics', 'text/calendar', ics(vevent('').replace('DTSTART:', 'DTSTART;TZID=../../etc/passwd:'))],
      ['ics', 'text/calendar', ics(vevent('').replace('DTSTART:', 'DTSTART;TZID="; DROP TABLE events; --":'))],
      ['ics', 'text/calendar', ics(vevent('', '00000101T000000Z'))],
      ['ics', 'text/calendar', ics(vevent('', '99991231T235959Z'))],
      ['ics', 'text/calendar', ics(vevent('', 'not-a-date'))],
      ['ics', 'text/calendar', ics(vevent('').replace('SUMMARY:Fuzz', `SUMMARY:${'x'.repeat(300_000)}`))],
      ['ics', 'text/calendar', ics(vevent('').replace('SUMMARY:Fuzz', 'SUMMARY:a\\nb\u0000c\r\n X-INJECTED:1'))],
      ['ics', 'text/calendar', ics(vevent('DESCRIPTION:<script>alert(1)</script>\r\nLOCATION:\'; DROP TABLE venues; --\r\nORGANIZER;CN="__proto__":mailto:a@b\r\nCATEGORIES:__proto__,constructor,../../x\r\n'))],
      ['ics', 'text/calendar', ics('BEGIN:VEVENT\r\n'.repeat(3000) + 'END:VEVENT\r\n'.repeat(3000))],
      ['ics', 'text/calendar', ics(vevent('RECURRENCE-ID:20310101T100000Z\r\n'))],
      ['ics', 'text/calendar', ics('BEGIN:VTIMEZONE\r\nTZID:Evil/Zone\r\nBEGIN:STANDARD\r\nDTSTART:16010101T000000\r\nTZOFFSETFROM:+9999\r\nTZOFFSETTO:-9999\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n' + vevent('').replace('DTSTART:', 'DTSTART;TZID=Evil/Zone:'))],
      ['ics', 'text/calendar', ics(vevent('ATTENDEE:mailto:a@b\r\n'.repeat(20_000)))],
      ['ics', 'text/calendar', 'BEGIN:VCALENDAR\r\n' + ' folded\r\n'.repeat(50_000)],
      ['ics', 'text/calendar', Buffer.concat([Buffer.from(ics(vevent(''))), Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28])])],
      ['ics', 'text/calendar', Buffer.from(ics(vevent('')), 'utf16le')],
      ['csv', 'text/csv', Array.from({ length: 5000 }, (_, i) => `c${i}`).join(',') + '\n' + 'x,'.repeat(5000) + '\n'],
      ['csv', 'text/csv', 'Venue Name,Venue City\n"abc,def\n'],
      ['csv', 'text/csv', 'Venue Name,Venue City\n=cmd|calc,@SUM(1)\n+1,-1\n'],
      ['csv', 'text/csv', '\uFEFFVenue Name,Venue City\n__proto__,constructor\n"x""; DROP TABLE venues; --",y\n'],
      ['csv', 'text/csv', 'Venue Name,Venue Name,Venue Name\na,b,c\n'],
      ['csv', 'text/csv', 'Event Name,Event Start Date,Event End Date\nx,+99999999 years,@-99999999999\ny,0000-00-00,9999-99-99\n'],
      ['csv', 'text/csv', `Event Name,Event Start Date,Event End Date\n${'z'.repeat(200_000)},2031-01-01,2031-01-01\n`],
      ['csv', 'text/csv', 'a\u0000b,c\n'],
      ['json', 'application/json', '{"format":"almanac-backup","version":1,"schema":1,"tables":{"__proto__":{"columns":[],"rows":[]}}}'],
      ['json', 'application/json', '{"format":"almanac-backup","version":2}'],
      ['json', 'application/json', '{"format":"almanac-backup","version":1,"schema":999,"tables":{}}'],
      ['json', 'application/json', '{"format":"almanac-backup","version":1,"schema":1,"tables":[]}'],
      ['json', 'application/json', '{"format":"almanac-backup","version":1,"schema":1,"tables":null}'],
      ['json', 'application/json', '{"format":"almanac-backup","version":"1","schema":"1"}'],
      ['json', 'application/json', '{"format":{"toString":1},"version":{"valueOf":1}}'],
      ['json', 'application/json', '{"format":"almanac-backup","version":1,"schema":1,"tables":' + '{"a":'.repeat(5000) + '1' + '}'.repeat(5000) + '}'],
    ];
    const backup = JSON.parse((await send({ method: 'GET', path: url('', '/export', 'format=json'), headers: headersFor({ method: 'GET' }, undefined, undefined) })).text);
    const mutated = (f: (b: any) => void) => {
      const b = structuredClone(backup);
      f(b);
      return JSON.stringify(b);
    };
    // Refused by the backup check: an unknown (SQL-looking) column, rows that do not fit.
    files.push(
      ['json', 'application/json', mutated((b) => b.tables.events.columns.push('title) VALUES (1); DROP TABLE events; --'))],
      ['json', 'application/json', mutated((b) => (b.tables.events.columns[0] = '__proto__'))],
      ['json', 'application/json', mutated((b) => b.tables.events.rows.push([1, 2]))],
      ['json', 'application/json', mutated((b) => (b.tables.events.rows = { length: 1 }))],
      ['json', 'application/json', mutated((b) => delete b.tables.event_terms)],
      ['json', 'application/json', JSON.stringify(backup)],
    );
    for (const [format, type, text] of files) {
      const body = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
      for (const q of [`format=${format}&dry_run=true`, '', 'skip_invalid=true&kind=venues']) {
        await hostile({ method: 'POST', path: url('', '/import', q), headers: headersFor(op, body, type), body }, `import ${format} ${body.subarray(0, 80).toString('latin1')}`, op);
      }
    }
  }, 300_000);

  it(`random hostile requests on every route (fast-check, seed ${SEED}, ${RANDOM_RUNS} runs)`, async () => {
    console.log(`[fuzz] seed=${SEED} runs=${RANDOM_RUNS}${PATH ? ` path=${PATH}` : ''} (ALMANAC_FC_SEED / ALMANAC_FC_PATH / ALMANAC_LONG_TESTS=1)`);
    const started = Date.now();
    const requestA = fc.constantFrom(...OPERATIONS).chain((op) =>
      fc.record({
        op: fc.constant(op),
        // Most requests are well-formed HTTP for the route, with hostile content.
        method: fc.oneof({ weight: 12, arbitrary: fc.constant(op.method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD') }),
        root: fc.constantFrom(...ROOTS),
        path: fc.oneof({ weight: 2, arbitrary: fc.nat().map((real) => ({ real })) }, { weight: 1, arbitrary: fc.constantFrom(...PATH_VALUES).map((raw) => ({ raw })) }),
        query: queryA(op),
        body: op.body || op.rawBody || op.method !== 'GET' ? bodyA(op) : fc.constant<BodySpec>({ kind: 'none', data: null }),
        extra: fc.oneof(
          { weight: 12, arbitrary: fc.constant<Record<string, string>>({}) },
          { weight: 1, arbitrary: fc.constantFrom<Record<string, string>>(
            { 'X-HTTP-Method-Override': 'DELETE' },
            { 'X-HTTP-Method': 'PUT' },
            { Accept: 'text/html' },
            { 'Accept-Language': 'pt-BR' },
            { 'Accept-Charset': 'utf-16' },
            { Cookie: 'almanac_session_1=x; a=b' },
            { Authorization: 'Bearer wrong-token' },
            { Authorization: 'Basic YWRtaW46YWRtaW4=' },
            { Authorization: 'Bearer' },
            { 'Transfer-Encoding': 'chunked' },
          ) },
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(requestA, async (r) => {
        const { body, contentType } = bodyBytes(r.body);
        const headers = headersFor(r.op, body, contentType, r.extra);
        if (headers['Transfer-Encoding']) delete headers['Content-Length'];
        const path = url(r.root, fillPath(r.op.docPath, r.path), r.query);
        await hostile({ method: r.method, path, headers, body }, `random ${opKey(r.op)}`, r.method === r.op.method ? r.op : undefined);
      }),
      { seed: SEED, numRuns: RANDOM_RUNS, path: PATH, interruptAfterTimeLimit: LONG ? 3 * 3_600_000 : 240_000 },
    );
    console.log(`[fuzz] ${RANDOM_RUNS} random requests in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    for (const op of OPERATIONS) expect(seen.get(opKey(op)) ?? 0, opKey(op)).toBeGreaterThan(1);
  }, LONG ? 4 * 3_600_000 : 300_000);

  it('Object.prototype is not polluted, and the server still answers', async () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoNamesBefore);
    expect(Object.getOwnPropertyNames(Array.prototype).sort()).toEqual(arrayProtoNamesBefore);
    for (const k of protoNamesBefore) expect(typeof (Object.prototype as unknown as Record<string, unknown>)[k], k).toBe(typeof ({} as Record<string, unknown>)[k]);
    const body = json({ title: 'Still here', start_date: '2031-01-01 10:00', end_date: '2031-01-01 11:00' });
    const made = await send({ method: 'POST', path: url('', '/events', ''), headers: headersFor({ method: 'POST' }, body, 'application/json'), body });
    expect(made.status, made.text).toBe(201);
    const id = JSON.parse(made.text).id;
    const got = await send({ method: 'GET', path: url('', `/events/${id}`, ''), headers: headersFor({ method: 'GET' }, undefined, undefined) });
    expect([got.status, JSON.parse(got.text).title]).toEqual([200, 'Still here']);
  });
});

/**
 * Node's HTTP parser refuses some requests before Express sees them; its own answer would be a
 * bare status line, so the server answers them itself in the API's shape (a `clientError`
 * handler, electron/server/index.ts).
 */
describe('requests refused by the HTTP parser', () => {
  const raw = async (req: Sent) => {
    const got = await send(req);
    expect(got.status).toBeGreaterThanOrEqual(400);
    expect(got.status).toBeLessThan(500);
    expect(String(got.headers['content-type'] ?? '')).toMatch(/^application\/json/);
    const body = JSON.parse(got.text);
    expect(body.data.status).toBe(got.status);
  };
  const auth = () => ({ Authorization: `Bearer ${t.server.token}` });

  it('a query of 10,000 nested keys (a[b][b]…, over 16 KB) → 431 in the JSON error shape', async () => {
    await raw({ method: 'GET', path: `${NS}/events?a${'[b]'.repeat(10_000)}=1`, headers: auth() });
  });

  it('a raw 0xFF byte in the URL → 400 in the JSON error shape', async () => {
    await raw({ method: 'GET', path: `${NS}/events/by-slug/\u00ff`, headers: auth() });
  });

  it('a header over 16 KB → 431 in the JSON error shape', async () => {
    await raw({ method: 'GET', path: `${NS}/events`, headers: { ...auth(), 'X-Long': 'a'.repeat(20_000) } });
  });
});

/**
 * Restoring a JSON backup whose rows SQLite cannot take (a boolean or an object cannot be bound;
 * NOT NULL, UNIQUE, FOREIGN KEY and CHECK failures) is the file's fault: 400
 * import-file-invalid, and the calendar as it was.
 */
describe('JSON backup restore of rows the schema refuses', () => {
  const restore = async (f: (b: any) => void) => {
    const backup = JSON.parse((await send({ method: 'GET', path: url('', '/export', 'format=json'), headers: headersFor({ method: 'GET' }, undefined, undefined) })).text);
    f(backup);
    const body = json(backup);
    const before = t.snapshot();
    const got = await send({ method: 'POST', path: url('', '/import', ''), headers: headersFor({ method: 'POST' }, body, 'application/json'), body });
    expect(t.snapshot()).toEqual(before);
    expect([got.status, JSON.parse(got.text).code]).toEqual([400, 'import-file-invalid']);
  };
  const col = (b: any, table: string, name: string) => b.tables[table].columns.indexOf(name);

  it('a boolean in a row (SQLite cannot bind it) → 400, nothing changed', async () => {
    await restore((b) => (b.tables.events.rows[0][col(b, 'events', 'title')] = true));
  });
  it('an object in a row → 400, nothing changed', async () => {
    await restore((b) => (b.tables.events.rows[0][col(b, 'events', 'title')] = { a: 1 }));
  });
  it('null in a NOT NULL column → 400, nothing changed', async () => {
    await restore((b) => (b.tables.events.rows[0][col(b, 'events', 'title')] = null));
  });
  it('a link to a term that is not in the backup (FOREIGN KEY) → 400, nothing changed', async () => {
    await restore((b) => b.tables.event_terms.rows.push([b.tables.events.rows[0][0], 999_999, 9]));
  });
  it('a duplicate id (UNIQUE) → 400, nothing changed', async () => {
    await restore((b) => b.tables.events.rows.push([...b.tables.events.rows[0]]));
  });
  it('a post type the schema does not allow (CHECK) → 400, nothing changed', async () => {
    await restore((b) => (b.tables.posts.rows[0][col(b, 'posts', 'type')] = 'bogus'));
  });
});
