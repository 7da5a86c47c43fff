/**
 * The feed request itself: webcal:// is asked for over https, the validators go out as
 * conditional headers, and a server that never finishes its answer is cut off in time.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { fetchFeed, SubscriptionError } from '../../../electron/server/subscriptions/fetch';

describe('fetchFeed', () => {
  it('reads webcal:// and webcals:// as https:// and sends the validators it was given', async () => {
    const seen: Array<{ url: string; headers: Headers }> = [];
    const fake = (async (input: URL | string, init?: RequestInit) => {
      seen.push({ url: String(input), headers: new Headers(init?.headers) });
      return new Response(null, { status: 304 });
    }) as typeof fetch;
    expect(await fetchFeed({ url: 'webcal://calendar.example.org/holidays.ics', etag: '"abc"', lastModified: 'Sat, 01 Jan 2022 00:00:00 GMT', fetch: fake })).toEqual({ status: 'unchanged' });
    await fetchFeed({ url: 'WEBCALS://calendar.example.org/team.ics?token=x', fetch: fake });
    expect(seen.map((s) => s.url)).toEqual(['https://calendar.example.org/holidays.ics', 'https://calendar.example.org/team.ics?token=x']);
    expect(seen[0].headers.get('if-none-match')).toBe('"abc"');
    expect(seen[0].headers.get('if-modified-since')).toBe('Sat, 01 Jan 2022 00:00:00 GMT');
    expect(seen[1].headers.has('if-none-match')).toBe(false);
  });

  it('gives up on a server that sends headers and then trickles forever, naming the wait', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/calendar' });
      res.write('BEGIN:VCALENDAR\r\n');
      const drip = setInterval(() => res.write('X-WAIT:1\r\n'), 50);
      res.on('close', () => clearInterval(drip));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as AddressInfo).port;
    try {
      const started = Date.now();
      const err = await fetchFeed({ url: `http://127.0.0.1:${port}/slow.ics`, timeoutMs: 2000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SubscriptionError);
      expect((err as SubscriptionError).kind).toBe('timeout');
      expect((err as SubscriptionError).describe('en')).toBe(`127.0.0.1:${port} did not send the calendar within 2 seconds. Try again later, or check the address.`);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
