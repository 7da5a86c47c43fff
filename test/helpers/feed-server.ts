/**
 * A published iCalendar feed for subscription tests: a real node `http` server on loopback that
 * honours If-None-Match (its ETag) and If-Modified-Since (its Last-Modified) as a calendar host
 * does, and counts what it answered. Other paths give what a bad address gives.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FeedServer {
  url: string;
  /** The feed at `/feed.ics`; setting it makes a new version (new ETag and Last-Modified). */
  setFeed(text: string, opts?: { etag?: boolean; lastModified?: boolean }): void;
  /** Answers by status, and the conditional headers each request of `/feed.ics` came with. */
  counts: { ok: number; notModified: number };
  requests: Array<{ ifNoneMatch?: string; ifModifiedSince?: string }>;
  close(): Promise<void>;
}

export async function startFeedServer(): Promise<FeedServer> {
  let text = '';
  let version = 0;
  let etag: string | undefined;
  let lastModified: string | undefined;
  const counts = { ok: 0, notModified: 0 };
  const requests: FeedServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/feed.ics') {
      const ifNoneMatch = req.headers['if-none-match'];
      const ifModifiedSince = req.headers['if-modified-since'];
      requests.push({ ifNoneMatch, ifModifiedSince });
      // RFC 9110 §13.1.3: If-Modified-Since only counts when If-None-Match is absent.
      const same = ifNoneMatch !== undefined ? etag !== undefined && ifNoneMatch === etag : lastModified !== undefined && ifModifiedSince !== undefined && Date.parse(ifModifiedSince) >= Date.parse(lastModified);
      const headers: Record<string, string> = {};
      if (etag) headers.ETag = etag;
      if (lastModified) headers['Last-Modified'] = lastModified;
      if (same) {
        counts.notModified++;
        res.writeHead(304, headers).end();
        return;
      }
      counts.ok++;
      res.writeHead(200, { ...headers, 'Content-Type': 'text/calendar; charset=utf-8' }).end(text);
      return;
    }
    if (path === '/moved.ics') return void res.writeHead(301, { Location: '/feed.ics' }).end();
    if (path === '/loop.ics') return void res.writeHead(302, { Location: '/loop.ics' }).end();
    if (path === '/page.html') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!DOCTYPE html><html><body>Our calendar</body></html>');
    if (path === '/huge.ics') {
      // No Content-Length: the size is found while reading, as with a chunked answer.
      res.writeHead(200, { 'Content-Type': 'text/calendar' });
      const line = `BEGIN:VCALENDAR\r\nX-PAD:${'x'.repeat(1024 * 1024)}\r\n`;
      let sent = 0;
      const more = () => {
        while (sent < 20 && !res.destroyed) {
          sent++;
          if (!res.write(line)) return void res.once('drain', more);
        }
        res.end('END:VCALENDAR\r\n');
      };
      more();
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    counts,
    requests,
    setFeed(next, opts = {}) {
      text = next;
      version++;
      etag = opts.etag === false ? undefined : `"v${version}"`;
      // Whole seconds (HTTP dates have no more), a second apart per version.
      lastModified = opts.lastModified === false ? undefined : new Date(Date.UTC(2026, 0, 1, 0, 0, version)).toUTCString();
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** A feed of VEVENTs written out; `extra` lines go inside each before END:VEVENT. */
export function icsFeed(name: string, events: Array<{ uid: string; summary: string; start: string; end?: string; rrule?: string; recurrenceId?: string; extra?: string[] }>): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Almanac tests//Feed//EN', `X-WR-CALNAME:${name}`];
  for (const e of events) {
    const date = (p: string, v: string) => (v.length === 8 ? `${p};VALUE=DATE:${v}` : `${p}:${v}`);
    lines.push('BEGIN:VEVENT', `UID:${e.uid}`, 'DTSTAMP:20260101T000000Z', date('DTSTART', e.start));
    if (e.end) lines.push(date('DTEND', e.end));
    if (e.rrule) lines.push(`RRULE:${e.rrule}`);
    if (e.recurrenceId) lines.push(date('RECURRENCE-ID', e.recurrenceId));
    lines.push(`SUMMARY:${e.summary}`, ...(e.extra ?? []), 'END:VEVENT');
  }
  lines.push('END:VCALENDAR', '');
  return lines.join('\r\n');
}
