/**
 * Account discovery and the calendar list against real servers (Radicale with basic auth, and
 * Xandikos), and the failures a user meets, each told in words.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { discoverAccount, normalizeColor, serverCandidates } from '../../../electron/server/caldav/discovery';
import { CalDavError } from '../../../electron/server/caldav/errors';
import { OWNER_RIGHTS, startRadicale, startXandikos, makeCalendar, putIcs, runCalDavSuites, type CalDavTestServer } from '../../helpers/caldav-servers';
import { tempDir } from '../../helpers/temp-dir';

const ics = (uid: string, summary: string) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN', 'BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20260101T000000Z', 'DTSTART:20260110T090000Z', 'DTEND:20260110T100000Z', `SUMMARY:${summary}`, 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');

async function failure(p: Promise<unknown>): Promise<CalDavError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CalDavError);
  return err as CalDavError;
}

/** A plain HTTP server that is not CalDAV, answering every request with `handler`. */
async function plainServer(handler: Parameters<typeof createHttpServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createHttpServer(handler);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

describe('the address a user types', () => {
  it('adds https to a bare domain, and http only for this computer', () => {
    expect(serverCandidates('example.com')).toEqual(['https://example.com/']);
    expect(serverCandidates('  cloud.example.com/remote.php/dav ')).toEqual(['https://cloud.example.com/remote.php/dav']);
    expect(serverCandidates('localhost:5232')).toEqual(['https://localhost:5232/', 'http://localhost:5232/']);
    expect(serverCandidates('http://192.168.1.5:5232/')).toEqual(['http://192.168.1.5:5232/']);
  });

  it('refuses what is not a server address, and a password inside one', () => {
    for (const bad of ['', 'webcal://example.com/cal.ics', 'ftp://example.com', 'https://bob:secret@example.com/', 'two words.com', 'https://', '..', 'a..b.com', '-dav.example.com', 'https://dav-.example.com/']) {
      let err: unknown;
      try {
        serverCandidates(bad);
      } catch (e) {
        err = e;
      }
      expect(err, bad).toBeInstanceOf(CalDavError);
      expect((err as CalDavError).kind).toBe('bad_url');
    }
    expect(() => serverCandidates('https://bob:secret@example.com/')).toThrow(/own fields/);
  });

  it('reads calendar colours as #rrggbb, Apple-style alpha included', () => {
    expect(normalizeColor('#FF2968FF')).toBe('#ff2968');
    expect(normalizeColor('#0a0')).toBe('#00aa00');
    expect(normalizeColor(' #1BADF8 ')).toBe('#1badf8');
    expect(normalizeColor('red')).toBeNull();
    expect(normalizeColor(undefined)).toBeNull();
  });
});

describe.skipIf(!runCalDavSuites)('Radicale with basic auth', () => {
  let radicale: CalDavTestServer;
  let work: string;

  beforeAll(async () => {
    // Outside Latin-1 on purpose: tsdav's own Basic auth cannot send "€" at all.
    radicale = await startRadicale({ user: 'alice', password: 'pässwörd €uro' });
    work = await makeCalendar(radicale, 'work', { displayName: 'Work', color: '#FF2968FF' });
    await makeCalendar(radicale, 'year', { displayName: '2024', color: '#0a0' });
    await makeCalendar(radicale, 'todo', { displayName: 'Tasks', components: ['VTODO'] });
  });
  afterAll(() => radicale?.stop());

  it('finds the principal, the home and the calendars of events, with names, colours and sync state', async () => {
    const account = await discoverAccount(radicale.url, { user: 'alice', password: 'pässwörd €uro' });
    expect(new URL(account.principalUrl).pathname).toBe('/alice/');
    expect(new URL(account.homeUrl).pathname).toBe('/alice/');
    const byName = Object.fromEntries(account.calendars.map((c) => [c.displayName, c]));
    // The task list is no calendar of events.
    expect(Object.keys(byName).sort()).toEqual(['2024', 'Work']);
    expect(byName.Work).toMatchObject({ url: work, color: '#ff2968', supportsSyncCollection: true, readOnly: false, components: ['VEVENT'] });
    // A name that looks like a number stays text.
    expect(byName['2024'].displayName).toBe('2024');
    expect(byName['2024'].color).toBe('#00aa00');
    expect(typeof byName.Work.ctag).toBe('string');
    expect(byName.Work.syncToken).toMatch(/^http/);
  });

  it('sees another client’s change as a new ctag and sync-token', async () => {
    const before = (await discoverAccount(radicale.url, { user: 'alice', password: 'pässwörd €uro' })).calendars.find((c) => c.url === work)!;
    const put = await putIcs(radicale, work, ics('third-client-1@example.com', 'Written by Thunderbird'));
    expect(put.status).toBe(201);
    const after = (await discoverAccount(radicale.url, { user: 'alice', password: 'pässwörd €uro' })).calendars.find((c) => c.url === work)!;
    expect(after.ctag).not.toBe(before.ctag);
    expect(after.syncToken).not.toBe(before.syncToken);
  });

  it('works from the bare host and port, as a user would type it', async () => {
    const account = await discoverAccount(`127.0.0.1:${radicale.port}`, { user: 'alice', password: 'pässwörd €uro' });
    expect(account.serverUrl).toBe(radicale.url);
    expect(account.calendars).toHaveLength(2);
  });

  it('says the password was refused, without repeating it', async () => {
    const err = await failure(discoverAccount(radicale.url, { user: 'alice', password: 'wrong-password' }));
    expect(err.kind).toBe('unauthorized');
    expect(err.status).toBe(401);
    expect(err.message).toMatch(/127\.0\.0\.1:\d+ refused the user name or password/);
    expect(err.describe('pt-br')).toMatch(/recusou o usuário ou a senha/);
    expect(err.message).not.toContain('wrong-password');
    expect(err.transient).toBe(false);
  });

  it('says the server cannot be reached while it is down, and works again once it is back', async () => {
    await radicale.halt();
    try {
      const err = await failure(discoverAccount(radicale.url, { user: 'alice', password: 'pässwörd €uro' }));
      expect(err.kind).toBe('unreachable');
      expect(err.message).toMatch(/Could not reach 127\.0\.0\.1:\d+ \(connection refused/);
      expect(err.transient).toBe(true);
    } finally {
      await radicale.resume();
    }
    const account = await discoverAccount(radicale.url, { user: 'alice', password: 'pässwörd €uro' });
    // The data survived the restart.
    expect(account.calendars.map((c) => c.displayName).sort()).toEqual(['2024', 'Work']);
  });
});

describe.skipIf(!runCalDavSuites)('Radicale with a calendar the user may only read', () => {
  let radicale: CalDavTestServer;
  beforeAll(async () => {
    radicale = await startRadicale({ user: 'alice', password: 'pw-alice', rights: OWNER_RIGHTS });
  });
  afterAll(() => radicale?.stop());

  it('marks it read-only, and the server does refuse writes to it', async () => {
    const holidays = await makeCalendar(radicale, 'holidays', { displayName: 'Holidays' });
    await makeCalendar(radicale, 'work', { displayName: 'Work' });
    // The administrator shares the holidays read-only from now on (Radicale reads its rules at every request).
    writeFileSync(join(radicale.dir, 'rights'), ['[holidays]', 'user: alice', 'collection: alice/holidays', 'permissions: r', '', OWNER_RIGHTS].join('\n'));
    const account = await discoverAccount(radicale.url, { user: 'alice', password: 'pw-alice' });
    expect(account.calendars.map((c) => [c.displayName, c.readOnly])).toEqual([
      ['Holidays', true],
      ['Work', false],
    ]);
    expect((await putIcs(radicale, holidays, ics('read-only-1@example.com', 'Not allowed'))).status).toBe(403);
  });
});

describe.skipIf(!runCalDavSuites)('Xandikos', () => {
  let xandikos: CalDavTestServer;
  beforeAll(async () => {
    xandikos = await startXandikos();
    await makeCalendar(xandikos, 'family', { displayName: 'Family', color: '#1BADF8FF' });
  });
  afterAll(() => xandikos?.stop());

  it('finds its default calendar and a new one through the well-known redirect', async () => {
    const account = await discoverAccount(`localhost:${xandikos.port}`, { user: 'user', password: 'unused' });
    expect(new URL(account.principalUrl).pathname).toBe('/user/');
    expect(new URL(account.homeUrl).pathname).toBe('/user/calendars/');
    const family = account.calendars.find((c) => c.displayName === 'Family');
    expect(family).toMatchObject({ color: '#1badf8', supportsSyncCollection: true, readOnly: false });
    expect(family!.syncToken).toBeTruthy();
    expect(account.calendars.map((c) => new URL(c.url).pathname).sort()).toEqual(['/user/calendars/calendar/', '/user/calendars/family/']);
  });
});

describe.skipIf(!runCalDavSuites)('RFC 6764: the domain the user knows points to the server', () => {
  let radicale: CalDavTestServer;
  let front: { url: string; server: Server };
  const asked: string[] = [];
  beforeAll(async () => {
    radicale = await startRadicale({ user: 'bob', password: 'pw-bob' });
    await makeCalendar(radicale, 'work', { displayName: 'Work' });
    // The web site at the domain: it knows nothing of CalDAV but its well-known redirect.
    front = await plainServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      if (req.url === '/.well-known/caldav') res.writeHead(301, { Location: `${radicale.url}` }).end();
      else res.writeHead(404).end('Not found');
    });
  });
  afterAll(async () => {
    front?.server.close();
    await radicale?.stop();
  });

  it('asks the well-known address, and sends no password to a plain-http redirect on another port: told as the redirect it is', async () => {
    // Another port over http may be anyone on that machine (issue 25): the user types that address
    // if it really is their server. (The https redirect on the same host is trusted: transport.test.ts.)
    const err = await failure(discoverAccount(front.url, { user: 'bob', password: 'pw-bob' }));
    expect(asked[0]).toBe('PROPFIND /.well-known/caldav');
    expect(err.kind).toBe('redirected');
    expect(err.message).toContain(new URL(radicale.url).host);
    const account = await discoverAccount(radicale.url, { user: 'bob', password: 'pw-bob' });
    expect(account.calendars.map((c) => c.url)).toEqual([`${radicale.url}bob/work/`]);
  });
});

describe('servers that are not what the user thinks', () => {
  // The certificate is made for the test; a machine without openssl cannot make one.
  it.skipIf(spawnSync('openssl', ['version']).status !== 0 && !process.env.CI)('says why a secure connection failed, in words', async () => {
    const dir = tempDir('almanac-tls-');
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    const server = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_req, res) => res.writeHead(404).end());
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = (server.address() as AddressInfo).port;
    const plain = await plainServer((_req, res) => res.writeHead(404).end());
    try {
      const selfSigned = await failure(discoverAccount(`https://127.0.0.1:${port}/`, { user: 'u', password: 'p' }));
      expect(selfSigned.kind).toBe('tls');
      expect(selfSigned.message).toMatch(/secure connection to 127\.0\.0\.1:\d+ failed \(its certificate is self-signed/);
      const notHttps = await failure(discoverAccount(plain.url.replace('http:', 'https:'), { user: 'u', password: 'p' }));
      expect(notHttps.kind).toBe('tls');
      expect(notHttps.message).toMatch(/does not speak https on that port; try http:\/\//);
    } finally {
      server.close();
      plain.server.close();
    }
  });


  it('says a web server that is not CalDAV is not one', async () => {
    const { url, server } = await plainServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body>Welcome to my blog</body></html>');
    });
    try {
      const err = await failure(discoverAccount(url, { user: 'u', password: 'p' }));
      expect(err.kind).toBe('not_caldav');
      expect(err.message).toMatch(/is not a CalDAV server/);
    } finally {
      server.close();
    }
  });

  it('stops reading a server that never stops answering', async () => {
    const { url, server } = await plainServer((_req, res) => {
      res.writeHead(207, { 'Content-Type': 'application/xml; charset=utf-8' });
      res.write('<?xml version="1.0"?><multistatus xmlns="DAV:"><response><href>/');
      const chunk = 'x'.repeat(64 * 1024);
      const more = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    });
    try {
      const started = Date.now();
      const err = await failure(discoverAccount(url, { user: 'u', password: 'p' }, { maxResponseBytes: 1024 * 1024 }));
      expect(err.kind).toBe('too_large');
      expect(err.message).toMatch(/sent an answer larger than 1 MB/);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('says a server that fails is failing, and gives up on one that never answers', async () => {
    const failing = await plainServer((_req, res) => res.writeHead(503).end('maintenance'));
    const silent = await plainServer(() => {
      // Accepts the request and never answers.
    });
    try {
      const err = await failure(discoverAccount(failing.url, { user: 'u', password: 'p' }));
      expect(err.kind).toBe('server_error');
      expect(err.message).toMatch(/failed with an error \(HTTP 503\)/);

      const started = Date.now();
      const slow = await failure(discoverAccount(silent.url, { user: 'u', password: 'p' }, { timeoutMs: 300 }));
      expect(slow.kind).toBe('timeout');
      expect(slow.message).toMatch(/did not answer within/);
      // tsdav tries a few paths; each is bounded, so the whole discovery is too.
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      failing.server.close();
      silent.server.closeAllConnections();
      silent.server.close();
    }
  });
});
