/** Where the password goes: the typed origin, a well-known redirect's https target, nowhere else. */
import { describe, it, expect, afterAll } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTransport, basicAuth } from '../../../electron/server/caldav/transport';

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

async function recorder(): Promise<{ url: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(207, { 'Content-Type': 'application/xml' }).end('<multistatus xmlns="DAV:"/>');
  });
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, seen };
}

describe('the CalDAV transport', () => {
  it('sends the password as UTF-8 Basic auth to the typed origin only', async () => {
    const home = await recorder();
    const other = await recorder();
    const t = createTransport(home.url, { user: 'zoë', password: 'pässwörd €' });
    await (await t.fetch(`${home.url}alice/`, { method: 'PROPFIND' })).text();
    await (await t.fetch(`${other.url}alice/`, { method: 'PROPFIND', headers: { Authorization: 'Basic c3R1ZmY=' } })).text();
    expect(home.seen[0].authorization).toBe(basicAuth({ user: 'zoë', password: 'pässwörd €' }));
    expect(Buffer.from(home.seen[0].authorization!.slice(6), 'base64').toString('utf8')).toBe('zoë:pässwörd €');
    // Not even a header tsdav passed along goes to an origin the user did not name.
    expect(other.seen[0].authorization).toBeUndefined();
    expect(t.statuses).toEqual([207, 207]);
  });

  it('trusts the https target of a well-known redirect on the same host, nothing else', async () => {
    const follow = async (target: string, typed = 'http://dav.example.org/') => {
      const calls: string[] = [];
      const t = createTransport(typed, { user: 'u', password: 'p' }, {
        fetch: async (input, init) => {
          calls.push(`${String(input)} ${new Headers(init?.headers).has('authorization') ? 'with' : 'without'} password`);
          return String(input).endsWith('/.well-known/caldav') ? new Response(null, { status: 301, headers: { Location: target } }) : new Response('', { status: 207 });
        },
      });
      await t.fetch(new URL('/.well-known/caldav', typed).href, { redirect: 'manual' });
      await t.fetch(new URL('principal/', target).href, { method: 'PROPFIND' });
      return calls;
    };
    expect(await follow('https://dav.example.org/dav/')).toEqual([
      'http://dav.example.org/.well-known/caldav with password',
      'https://dav.example.org/dav/principal/ with password',
    ]);
    // Another host, even over https: only the origin the user typed gets the password (issue 25).
    expect((await follow('https://caldav.example.com/dav/'))[1]).toBe('https://caldav.example.com/dav/principal/ without password');
    expect(await follow('http://evil.example.net/dav/')).toEqual([
      'http://dav.example.org/.well-known/caldav with password',
      'http://evil.example.net/dav/principal/ without password',
    ]);
    // Typed as http: the same host on another port over http may be anyone on that machine.
    expect((await follow('http://dav.example.org:5232/'))[1]).toBe('http://dav.example.org:5232/principal/ without password');
    // Typed as https: a redirect down to plain http on the same host would send it in clear.
    expect((await follow('http://dav.example.org:5232/', 'https://dav.example.org/'))[1]).toBe('http://dav.example.org:5232/principal/ without password');
  });
});
