/**
 * Real CalDAV servers for the sync tests: Radicale (basic auth from an htpasswd file, as a
 * self-hosted install has it) and Xandikos (no auth, git-backed), each in its own temporary
 * folder on 127.0.0.1. No mock stands in for them: what a client must absorb (rewritten bodies,
 * ETags of the stored text, redirects, 412s) only shows against the real thing.
 *
 * Readiness is waited for, never slept for: a server counts as up once it answers HTTP. The
 * processes run under `setpriv --pdeathsig KILL`, so a test worker killed outright cannot leave
 * one behind. Test files import `caldav-servers.ts`, which also stops them when the file ends;
 * this module has no vitest in it, so a plain script can start a server too.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type CalDavServerKind = 'radicale' | 'xandikos';

export interface CalDavTestServer {
  kind: CalDavServerKind;
  /** `http://127.0.0.1:PORT/`: what a user would type as the server address. */
  url: string;
  port: number;
  user: string;
  password: string;
  /** The collection that holds the user's calendars (`/alice/` on Radicale, `/user/calendars/` on Xandikos). */
  home: string;
  /** The server's data folder (removed by `stop`). */
  dir: string;
  /** `Authorization` for requests made as the user. */
  authHeader(): Record<string, string>;
  /** Stops the process and keeps the folder: the server is "offline" until `resume`. */
  halt(): Promise<void>;
  /** Starts it again on the same port and folder. */
  resume(): Promise<void>;
  /** Holds the process still (SIGSTOP): connections are accepted but nothing is answered until `thaw`. */
  freeze(): void;
  /** Lets a frozen process go on (SIGCONT). */
  thaw(): void;
  /** Stops the process and removes the folder. */
  stop(): Promise<void>;
  /** What the server printed, for failure messages. */
  output(): string;
  /** The server process's id while it runs. */
  pid(): number | undefined;
}

const READY_WITHIN_MS = 45_000;
const running = new Set<{ child: ChildProcess }>();

/** Stops every server still running and removes their folders. */
export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((s) => s.stop()));
}
// A worker that exits without its afterAll (an uncaught error) still takes its servers with it.
process.on('exit', () => {
  for (const r of running) r.child.kill('SIGKILL');
});

const live = new Set<CalDavTestServer>();

/** What the servers need: Radicale with bcrypt support for htpasswd files, htpasswd, Xandikos. */
export const CALDAV_PACKAGES = 'radicale apache2-utils python3-passlib python3-bcrypt xandikos';
export const haveCalDavServers = (() => {
  const ok = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
  return ok('radicale', ['--version']) && ok('xandikos', ['--version']) && ok('sh', ['-c', 'command -v htpasswd']) && ok('/usr/bin/python3', ['-c', 'from passlib.hash import bcrypt; bcrypt.hash("x")']);
})();

const hasPdeathsig = (() => {
  const r = spawnSync('setpriv', ['--help'], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('--pdeathsig');
})();

/** The command line, under setpriv where there is one, so the server dies with this process. */
function guarded(command: string, args: string[]): [string, string[]] {
  return hasPdeathsig ? ['setpriv', ['--pdeathsig', 'KILL', '--', command, ...args]] : [command, args];
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createNetServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
}

/**
 * Spawns a server and resolves once it has said it listens and answers HTTP on its port. With
 * `port` undefined (it was asked for port 0), `listening` must capture the port it got. Waiting
 * for its own words first matters: another process that took the port meanwhile would answer too.
 */
async function launch(command: string, args: string[], port: number | undefined, listening: RegExp): Promise<Started> {
  const [cmd, argv] = guarded(command, args);
  const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PYTHONUNBUFFERED: '1' } });
  const notStarted = new Promise<never>((_, fail) =>
    child.once('error', (err) => fail(new Error(`${command} could not be started (${err.message}); on Debian: apt-get install ${CALDAV_PACKAGES}`))),
  );
  notStarted.catch(() => {});
  const entry = { child };
  running.add(entry);
  child.once('exit', () => running.delete(entry));
  let out = '';
  const collect = (d: Buffer) => {
    // Bounded: a server logging every request must not grow the test's memory without end.
    out = (out + d.toString()).slice(-20_000);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = Promise.race([
    notStarted,
    new Promise<never>((_, fail) => child.once('exit', (code, signal) => fail(new Error(`${command} exited (${signal ?? code}) before answering:\n${out}`)))),
  ]);
  exited.catch(() => {});
  const deadline = Date.now() + READY_WITHIN_MS;
  try {
    let actual: number | undefined;
    while (actual === undefined) {
      const m = out.match(listening);
      if (m) actual = port ?? Number(m[1]);
      else await Promise.race([exited, pause(50)]);
      if (Date.now() > deadline) throw new Error(`${command} did not say it listens within ${READY_WITHIN_MS} ms:\n${out}`);
    }
    for (;;) {
      if (await answers(actual)) break;
      await Promise.race([exited, pause(100)]);
      if (Date.now() > deadline) throw new Error(`${command} did not answer on port ${actual} within ${READY_WITHIN_MS} ms:\n${out}`);
    }
    return { child, port: actual, output: () => out };
  } catch (err) {
    await terminate(child);
    throw err;
  }
}

async function answers(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'OPTIONS', signal: AbortSignal.timeout(5_000) });
    await res.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

const pause = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** SIGTERM, then SIGKILL if it has not gone within 5 s; resolves once the process is gone. */
async function terminate(child: ChildProcess): Promise<void> {
  // No pid: it never started (spawn failed), so there is nothing to wait for.
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((ok) => child.once('exit', () => ok()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await gone;
  clearTimeout(timer);
}

function basic(user: string, password: string): Record<string, string> {
  return { Authorization: `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}` };
}

const RADICALE_LISTENING = /Listening on '\[127\.0\.0\.1\]:(\d+)'/;

/** Radicale rights of `type = owner_only` written as a rights file: each user reads and writes their own collections. */
export const OWNER_RIGHTS = ['[owner]', 'user: .+', 'collection: {user}(/.*)?', 'permissions: RrWw', '', '[root]', 'user: .+', 'collection:', 'permissions: R', ''].join('\n');

/**
 * Radicale with basic auth: an htpasswd file made with `htpasswd -B` (bcrypt) for `user`, storage
 * in a temporary folder, owner-only rights. `config` adds lines to sections (e.g.
 * `{ storage: ['max_sync_token_age = 1'] }`). `rights` is the text of a rights file (Radicale's
 * `from_file` rules) instead of owner-only; Radicale reads it at every request, so a test can
 * rewrite `join(server.dir, 'rights')` to change what the user may do.
 */
export async function startRadicale(opts: { user?: string; password?: string; config?: Record<string, string[]>; rights?: string } = {}): Promise<CalDavTestServer> {
  const user = opts.user ?? 'alice';
  const password = opts.password ?? `pw-${randomUUID()}`;
  const dir = mkdtempSync(join(tmpdir(), 'almanac-radicale-'));
  const users = join(dir, 'users');
  const made = spawnSync('htpasswd', ['-B', '-b', '-c', users, user, password], { encoding: 'utf8' });
  if (made.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`htpasswd failed: ${made.stderr}`);
  }
  const sections: Record<string, string[]> = {
    server: [],
    auth: ['type = htpasswd', `htpasswd_filename = ${users}`, 'htpasswd_encryption = bcrypt', 'delay = 0'],
    storage: [`filesystem_folder = ${join(dir, 'collections')}`],
    rights: opts.rights === undefined ? ['type = owner_only'] : ['type = from_file', `file = ${join(dir, 'rights')}`],
    logging: ['level = info'],
    web: ['type = none'],
  };
  if (opts.rights !== undefined) writeFileSync(join(dir, 'rights'), opts.rights);
  for (const [section, lines] of Object.entries(opts.config ?? {})) sections[section] = [...(sections[section] ?? []), ...lines];
  const configFile = join(dir, 'config');
  const writeConfig = (port: number) =>
    writeFileSync(
      configFile,
      Object.entries(sections)
        .map(([name, lines]) => [`[${name}]`, ...(name === 'server' ? [`hosts = 127.0.0.1:${port}`] : []), ...lines].join('\n'))
        .join('\n\n'),
    );
  // Port 0: Radicale binds a free port itself and prints it, so no other process can take it first.
  writeConfig(0);
  const args = ['--config', configFile];
  let started: Started;
  try {
    started = await launch('radicale', args, undefined, RADICALE_LISTENING);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  writeConfig(started.port);
  return wrap('radicale', dir, started, user, password, `/${user}/`, () => launch('radicale', args, started.port, RADICALE_LISTENING));
}

/** Xandikos serving a temporary folder, with its default calendar (`/user/calendars/calendar/`). */
export async function startXandikos(): Promise<CalDavTestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'almanac-xandikos-'));
  const args = (port: number) => ['-d', dir, '--defaults', '-l', '127.0.0.1', '-p', String(port)];
  // Xandikos prints the port it was given, not the one it got, so it needs a known free one; another
  // process may take it between the check and the bind, hence the retries.
  let last: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    try {
      // aiohttp prints this once the socket is bound (Xandikos's own "Listening on" comes before).
      const listening = new RegExp(`Running on http://127\\.0\\.0\\.1:${port}\\b`);
      const started = await launch('xandikos', args(port), port, listening);
      return wrap('xandikos', dir, started, 'user', 'any-password', '/user/calendars/', () => launch('xandikos', args(port), port, listening));
    } catch (err) {
      last = err;
      if (!/address already in use|Errno 98/i.test(String(err))) break;
    }
  }
  rmSync(dir, { recursive: true, force: true });
  throw last;
}

function wrap(kind: CalDavServerKind, dir: string, first: Started, user: string, password: string, home: string, relaunch: () => Promise<Started>): CalDavTestServer {
  let current: Started | undefined = first;
  const server: CalDavTestServer = {
    kind,
    url: `http://127.0.0.1:${first.port}/`,
    port: first.port,
    user,
    password,
    home,
    dir,
    authHeader: () => basic(user, password),
    async halt() {
      if (current) await terminate(current.child);
      current = undefined;
    },
    freeze() {
      current?.child.kill('SIGSTOP');
    },
    thaw() {
      current?.child.kill('SIGCONT');
    },
    async resume() {
      if (current) return;
      // The port was just released; on a busy machine the socket may linger a moment.
      let last: unknown;
      for (let attempt = 0; attempt < 20; attempt++) {
        try {
          current = await relaunch();
          return;
        } catch (err) {
          last = err;
          if (!/address already in use|Errno 98/i.test(String(err))) break;
          await pause(250);
        }
      }
      throw last;
    },
    async stop() {
      live.delete(server);
      await server.halt();
      rmSync(dir, { recursive: true, force: true });
    },
    output: () => current?.output() ?? first.output(),
    pid: () => current?.child.pid,
  };
  live.add(server);
  return server;
}

/**
 * Creates a calendar the way a client's "New calendar" does: MKCALENDAR with a display name and
 * an Apple-style colour (which may carry alpha, `#RRGGBBAA`). Returns its absolute URL.
 */
export async function makeCalendar(server: CalDavTestServer, name: string, props: { displayName?: string; color?: string; components?: string[] } = {}): Promise<string> {
  const url = new URL(`${server.home}${name}/`, server.url).href;
  const set = [
    props.displayName !== undefined ? `<d:displayname>${escapeXml(props.displayName)}</d:displayname>` : '',
    `<c:supported-calendar-component-set>${(props.components ?? ['VEVENT']).map((c) => `<c:comp name="${c}"/>`).join('')}</c:supported-calendar-component-set>`,
  ].join('');
  const body = `<?xml version="1.0" encoding="utf-8"?>
<c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:ic="http://apple.com/ns/ical/"><d:set><d:prop>${set}</d:prop></d:set></c:mkcalendar>`;
  const res = await fetch(url, { method: 'MKCALENDAR', headers: { ...server.authHeader(), 'Content-Type': 'application/xml; charset=utf-8' }, body });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`MKCALENDAR ${url} answered ${res.status}: ${text}`);
  if (props.color !== undefined) {
    // Xandikos 0.2 ignores calendar-color in MKCALENDAR (404 in its answer) but takes it in a
    // PROPPATCH, which is how Apple's Calendar sets a colour anyway.
    const patch = await fetch(url, {
      method: 'PROPPATCH',
      headers: { ...server.authHeader(), 'Content-Type': 'application/xml; charset=utf-8' },
      body: `<?xml version="1.0" encoding="utf-8"?>
<d:propertyupdate xmlns:d="DAV:" xmlns:ic="http://apple.com/ns/ical/"><d:set><d:prop><ic:calendar-color>${escapeXml(props.color)}</ic:calendar-color></d:prop></d:set></d:propertyupdate>`,
    });
    const answer = await patch.text();
    if (patch.status !== 207 || /HTTP\/1\.1 [45]\d\d/.test(answer)) throw new Error(`PROPPATCH calendar-color on ${url} answered ${patch.status}: ${answer}`);
  }
  return url;
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** How other clients write an event: their headers, and the resource names they choose. */
export const THIRD_CLIENTS = {
  thunderbird: {
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.5.0',
    contentType: 'text/calendar; charset=utf-8',
    // Thunderbird names the resource after the item's id, lower-case UUID.
    name: (uid: string) => `${uid}.ics`,
  },
  apple: {
    userAgent: 'macOS/15.1 (24B83) CalendarAgent/1000',
    contentType: 'text/calendar',
    // Apple's CalendarAgent uses an upper-case UUID of its own, unrelated to the UID inside.
    name: () => `${randomUUID().toUpperCase()}.ics`,
  },
} as const;

export interface PutResult {
  status: number;
  /** The resource's absolute URL. */
  href: string;
  etag: string | null;
  /** The answer's body (an error element, or a multistatus: see the tests for what servers send). */
  body: string;
}

/**
 * PUTs raw iCalendar text into a calendar as a third client would (Thunderbird, Apple): a new
 * resource with `If-None-Match: *`, or a change with `If-Match: <etag>`. The text is sent byte for
 * byte (CRLF line ends, folding, unknown properties), which is the point of these tests.
 */
export async function putIcs(
  server: CalDavTestServer,
  calendarUrl: string,
  ics: string,
  opts: { client?: keyof typeof THIRD_CLIENTS; name?: string; ifMatch?: string } = {},
): Promise<PutResult> {
  const client = THIRD_CLIENTS[opts.client ?? 'thunderbird'];
  const uid = /^UID:(.+)$/m.exec(ics.replace(/\r\n[ \t]/g, ''))?.[1].trim() ?? randomUUID();
  const href = new URL(opts.name ?? client.name(uid), calendarUrl).href;
  const headers: Record<string, string> = { ...server.authHeader(), 'Content-Type': client.contentType, 'User-Agent': client.userAgent };
  if (opts.ifMatch) headers['If-Match'] = opts.ifMatch;
  else headers['If-None-Match'] = '*';
  const res = await fetch(href, { method: 'PUT', headers, body: ics });
  return { status: res.status, href, etag: res.headers.get('etag'), body: await res.text() };
}

/** DELETEs a resource as a third client would (with its ETag when given). */
export async function deleteResource(server: CalDavTestServer, href: string, etag?: string): Promise<number> {
  const res = await fetch(href, { method: 'DELETE', headers: { ...server.authHeader(), ...(etag ? { 'If-Match': etag } : {}) } });
  await res.arrayBuffer();
  return res.status;
}

/**
 * A calendar file as a client stores it on a CalDAV server: one resource per UID (an event with
 * its RECURRENCE-ID overrides), each a VCALENDAR with the file's calendar properties and its
 * time zones. METHOD is left out: RFC 4791 §4.1 forbids it in stored resources. Lines are kept
 * as they are (folding, escapes, unknown properties), with CRLF ends.
 */
export function resourcesOf(ics: string): Array<{ uid: string; text: string }> {
  const lines = ics.replace(/\r\n|\r|\n/g, '\n').split('\n').filter((l) => l !== '');
  const header: string[] = [];
  const zones: string[] = [];
  const byUid = new Map<string, string[]>();
  let block: string[] | undefined;
  let depth = 0;
  for (const line of lines) {
    if (/^BEGIN:/i.test(line)) depth++;
    if (depth === 1 && !/^(BEGIN|END):VCALENDAR$/i.test(line) && !/^METHOD[:;]/i.test(line)) header.push(line);
    if (depth >= 2) (block ??= []).push(line);
    if (/^END:/i.test(line)) {
      depth--;
      if (depth === 1 && block) {
        if (/^BEGIN:VTIMEZONE$/i.test(block[0])) zones.push(...block);
        else {
          // Unfolded only to read the UID; the block itself is kept folded as written.
          const uid = /^UID:(.*)$/im.exec(block.join('\n').replace(/\n[ \t]/g, ''))?.[1].trim();
          if (!uid) throw new Error(`a ${block[0].slice(6)} without a UID`);
          byUid.set(uid, [...(byUid.get(uid) ?? []), ...block]);
        }
        block = undefined;
      }
    }
  }
  return [...byUid].map(([uid, body]) => ({ uid, text: ['BEGIN:VCALENDAR', ...header, ...zones, ...body, 'END:VCALENDAR', ''].join('\r\n') }));
}

/** GETs a resource as it is stored now: its text and ETag. */
export async function getResource(server: CalDavTestServer, href: string): Promise<{ status: number; text: string; etag: string | null }> {
  const res = await fetch(href, { headers: server.authHeader() });
  return { status: res.status, text: await res.text(), etag: res.headers.get('etag') };
}
