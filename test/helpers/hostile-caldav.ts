/**
 * A small CalDAV server on loopback that can be told to misbehave: the broken and hostile answers
 * no real server gives on purpose (an HTML page for a listing, a truncated 207, a calendar home of
 * 100,000 calendars, a request never answered). Well-behaved, it is just enough CalDAV for
 * Almanac's discovery and sync: basic auth, a principal, a home with calendars, PROPFIND listings
 * with ETags, calendar-multiget. It offers no sync-collection, so every round lists the calendar.
 *
 * `misbehave` sees each request first: answering it (or never answering: 'hang') replaces the
 * good answer.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostileRequest {
  method: string;
  path: string;
  depth?: string;
  body: string;
  /** The Authorization header it came with. */
  authorization?: string;
  /** For a request left hanging: whether the client has closed it (gave up or aborted it). */
  abandoned?: boolean;
}

export interface HostileCalDav {
  url: string;
  /** The one calendar's URL (`/home/cal/`). */
  calendarUrl: string;
  user: string;
  password: string;
  /** The calendar's resources by name (`e1.ics`): text and ETag. */
  objects: Map<string, { text: string; etag: string }>;
  put(name: string, text: string): void;
  /** Requests seen, in order. */
  requests: HostileRequest[];
  /** Answer a request yourself: true when answered (or left hanging on purpose). */
  misbehave?: (req: HostileRequest, res: ServerResponse) => boolean | 'hang';
  /**
   * Extra `<response>`s listed in the home (other calendars). A Buffer is sent as it is: a large
   * answer built or encoded per request would hold this process's event loop, which the server
   * under test shares.
   */
  extraHomeResponses?: () => string | Buffer;
  close(): Promise<void>;
}

const XML = { 'Content-Type': 'application/xml; charset=utf-8' };

export function vevent(uid: string, summary: string, extra: string[] = [], day = '20270110'): string[] {
  return ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20260101T000000Z', `DTSTART:${day}T090000Z`, `DTEND:${day}T100000Z`, `SUMMARY:${summary}`, ...extra, 'END:VEVENT'];
}

export function calendarText(...events: string[][]): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Hostile//Test//EN', ...events.flat(), 'END:VCALENDAR', ''].join('\r\n');
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function startHostileCalDav(opts: { user?: string; password?: string } = {}): Promise<HostileCalDav> {
  const user = opts.user ?? 'alice';
  const password = opts.password ?? 's3cret-Pässword';
  const expected = `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
  let version = 0;
  const hanging = new Set<ServerResponse>();
  let closing = false;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      const r: HostileRequest = { method: req.method ?? 'GET', path, depth: req.headers.depth as string | undefined, body: Buffer.concat(chunks).toString('utf8'), authorization: req.headers.authorization };
      dav.requests.push(r);
      const bad = dav.misbehave?.(r, res);
      if (bad === 'hang') {
        hanging.add(res);
        r.abandoned = false;
        res.on('close', () => void (closing || (r.abandoned = true)));
        return;
      }
      if (bad) return;
      if (path === '/.well-known/caldav') return void res.writeHead(301, { Location: '/' }).end();
      if (r.authorization !== expected) return void res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="hostile"' }).end('Unauthorized');
      if (r.method === 'PROPFIND' && path === '/home/cal/') return void res.writeHead(207, XML).end(calendarListing(r.depth === '0'));
      if (r.method === 'PROPFIND' && path === '/home/') {
        res.writeHead(207, XML);
        res.write(homeHead());
        const extra = dav.extraHomeResponses?.();
        if (extra) res.write(extra);
        return void res.end('</d:multistatus>');
      }
      if (r.method === 'PROPFIND') return void res.writeHead(207, XML).end(principal(path));
      if (r.method === 'REPORT' && path === '/home/cal/') return void res.writeHead(207, XML).end(multiget(r.body));
      if (r.method === 'PUT' && path.startsWith('/home/cal/')) {
        const name = path.slice('/home/cal/'.length);
        dav.put(name, r.body);
        return void res.writeHead(201, { ETag: dav.objects.get(name)!.etag }).end();
      }
      if (r.method === 'DELETE' && path.startsWith('/home/cal/')) {
        dav.objects.delete(path.slice('/home/cal/'.length));
        version++;
        return void res.writeHead(204).end();
      }
      res.writeHead(404).end();
    });
  });

  const principal = (path: string) =>
    `<?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:response><d:href>${escapeXml(path)}</d:href><d:propstat><d:prop>` +
    '<d:current-user-principal><d:href>/principal/</d:href></d:current-user-principal><c:calendar-home-set><d:href>/home/</d:href></c:calendar-home-set>' +
    '</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>';

  const homeHead = () =>
    '<?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/">' +
    '<d:response><d:href>/home/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>' +
    calendarResponse('/home/cal/', 'Work');

  const calendarListing = (self: boolean) => {
    let out =
      '<?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/">' +
      `<d:response><d:href>/home/cal/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype><cs:getctag>"c${version}"</cs:getctag><d:getetag>"c${version}"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`;
    if (!self) {
      for (const [name, o] of dav.objects) {
        out += `<d:response><d:href>/home/cal/${encodeURIComponent(name)}</d:href><d:propstat><d:prop><d:getetag>${escapeXml(o.etag)}</d:getetag><d:getcontentlength>${Buffer.byteLength(o.text)}</d:getcontentlength><d:resourcetype/></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`;
      }
    }
    return `${out}</d:multistatus>`;
  };

  const multiget = (body: string) => {
    const hrefs = [...body.matchAll(/<(?:\w+:)?href>([^<]+)<\/(?:\w+:)?href>/g)].map((m) => m[1]);
    let out = '<?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">';
    for (const href of hrefs) {
      const name = decodeURIComponent(href).slice('/home/cal/'.length);
      const o = dav.objects.get(name);
      out += o
        ? `<d:response><d:href>${href}</d:href><d:propstat><d:prop><d:getetag>${escapeXml(o.etag)}</d:getetag><c:calendar-data>${escapeXml(o.text)}</c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`
        : `<d:response><d:href>${href}</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>`;
    }
    return `${out}</d:multistatus>`;
  };

  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const dav: HostileCalDav = {
    url,
    calendarUrl: `${url}home/cal/`,
    user,
    password,
    objects: new Map(),
    requests: [],
    put(name, text) {
      version++;
      dav.objects.set(name, { text, etag: `"${name}-${version}"` });
    },
    close: () =>
      new Promise<void>((done) => {
        closing = true;
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
  return dav;
}

/** One calendar's `<response>` in a calendar home. */
export function calendarResponse(href: string, name: string): string {
  return (
    `<d:response><d:href>${escapeXml(href)}</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><c:calendar/></d:resourcetype>` +
    `<d:displayname>${escapeXml(name)}</d:displayname><d:current-user-privilege-set><d:privilege><d:all/></d:privilege></d:current-user-privilege-set>` +
    '<c:supported-calendar-component-set><c:comp name="VEVENT"/></c:supported-calendar-component-set></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>'
  );
}
