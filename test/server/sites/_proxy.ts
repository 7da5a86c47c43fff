/**
 * A recording proxy in front of a real Almanac playing the website: it passes every request on
 * unchanged and keeps what was sent, and can be told to lose the answer of the next matching
 * request (the site did it; the client never hears), or to answer instead of the site (HTML, 503,
 * garbage): faults a real site cannot be made to show on demand.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Sent {
  method: string;
  path: string;
  query: URLSearchParams;
  body: any;
  status: number;
}

type Fault = { match: (r: { method: string; path: string; query: URLSearchParams }) => boolean; times: number } & (
  | { kind: 'lose-answer' }
  | { kind: 'answer'; status: number; headers?: Record<string, string>; body: string }
  | { kind: 'hang' }
);

export interface Proxy {
  url: string;
  sent: Sent[];
  /** The requests a 'hang' fault took, and whether the client has closed each (gave up or aborted it). */
  hung: Array<{ path: string; closed: boolean }>;
  /** A host that drops the Authorization header (the silent anonymous fallback of WordPress). */
  stripAuth?: boolean;
  /** A site without pretty permalinks: /wp-json/ is a 404 page, the Link header names ?rest_route=/. */
  plainPermalinks?: boolean;
  /** As the original: events hidden from listings are missing from every list (a single GET still reads them). */
  hideHidden?: boolean;
  /**
   * A site of another shape than Almanac's (Events Calendar Pro's occurrences): each event of a
   * 200 JSON answer (a list's or a single read's) is passed through this, and a request's path
   * through `path` before it goes to the site (a provisional id read as the post it shows).
   */
  /** Shows the Almanac behind as the original plugin: its index without Almanac's series arguments and conditional writes, events without Almanac's keys. */
  originalShape?: boolean;
  rewrite?: { event: (e: Record<string, any>) => Record<string, any>; path?: (path: string) => string };
  /** Runs before a request is passed on (once per request); a test changes the site there, as someone else would. */
  before?: (r: Sent) => Promise<void>;
  fault(f: Fault): void;
  clear(): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startProxy(target: string): Promise<Proxy> {
  const sent: Sent[] = [];
  let faults: Fault[] = [];
  const hanging = new Set<import('node:http').ServerResponse>();
  const hung: Proxy['hung'] = [];
  let closing = false;
  let proxyUrl = '';
  // eslint-disable-next-line prefer-const
  let proxy: Proxy;
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url!, target);
    const body = await readBody(req);
    const record: Sent = { method: req.method!, path: url.pathname, query: url.searchParams, body: body.length ? safeJson(body) : undefined, status: 0 };
    sent.push(record);
    const fault = faults.find((f) => f.times > 0 && f.match({ method: req.method!, path: url.pathname, query: url.searchParams }));
    if (fault) fault.times--;
    if (fault?.kind === 'answer') {
      record.status = fault.status;
      res.writeHead(fault.status, fault.headers ?? { 'Content-Type': 'text/html' });
      res.end(fault.body);
      return;
    }
    if (fault?.kind === 'hang') {
      hanging.add(res);
      const held = { path: url.pathname, closed: false };
      hung.push(held);
      res.on('close', () => void (closing || (held.closed = true)));
      return;
    }
    if (proxy.before) await proxy.before(record);
    if (proxy.plainPermalinks && url.pathname.startsWith('/wp-json')) {
      record.status = 404;
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>Page not found</title>');
      return;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length' && k !== 'connection') headers[k] = v;
    if (proxy.stripAuth) delete headers.authorization;
    let answer: Response;
    const to = new URL(req.url!, target);
    if (proxy.rewrite?.path) to.pathname = proxy.rewrite.path(to.pathname);
    try {
      answer = await fetch(to, { method: req.method, headers, body: body.length ? body : undefined });
    } catch {
      // The site is down: the connection drops, as a stopped site's would.
      res.socket?.destroy();
      return;
    }
    let text = Buffer.from(await answer.arrayBuffer());
    if (proxy.hideHidden && req.method === 'GET' && /\/events$/.test(url.pathname) && answer.status === 200) {
      const body = JSON.parse(text.toString('utf8')) as { events: Array<{ hide_from_listings?: boolean }> };
      body.events = body.events.filter((e) => !e.hide_from_listings);
      text = Buffer.from(JSON.stringify(body));
    }
    if (proxy.originalShape && req.method === 'GET' && /^\/wp-json\/?$/.test(url.pathname) && answer.status === 200) {
      const index = JSON.parse(text.toString('utf8'));
      delete index.almanac;
      for (const route of Object.values(index.routes ?? {}) as Array<{ endpoints?: Array<{ args?: Record<string, unknown> }> }>) {
        for (const e of route.endpoints ?? []) if (e.args) for (const k of ['recurrence', 'recurrence_scope']) delete e.args[k];
      }
      text = Buffer.from(JSON.stringify(index));
    }
    const shape = (e: Record<string, any>) => {
      const out = proxy.originalShape ? stripAlmanac(e) : e;
      return proxy.rewrite ? proxy.rewrite.event(out) : out;
    };
    if ((proxy.rewrite || proxy.originalShape) && req.method === 'GET' && /\/events(\/\d+)?$/.test(url.pathname) && answer.status === 200) {
      const body = JSON.parse(text.toString('utf8'));
      if (Array.isArray(body.events)) body.events = body.events.map(shape);
      text = Buffer.from(JSON.stringify(Array.isArray(body.events) ? body : shape(body)));
    }
    record.status = answer.status;
    if (fault?.kind === 'lose-answer') {
      // Done on the site; the client never hears of it.
      res.socket?.destroy();
      return;
    }
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      // A reverse proxy names itself where the site names its own address (WordPress's Link header).
      if (proxy.originalShape && (k === 'x-cal-conditional-writes' || k === 'etag')) return;
      if (k !== 'content-encoding' && k !== 'transfer-encoding' && k !== 'content-length' && k !== 'connection') out[k] = k === 'link' ? v.split(target).join(proxyUrl).replace(proxy.plainPermalinks ? '/wp-json/' : '\u0000', '/?rest_route=/') : v;
    });
    res.writeHead(answer.status, out);
    res.end(text);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  proxyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy = {
    url: proxyUrl,
    sent,
    hung,
    fault: (f) => void faults.push(f),
    clear() {
      sent.length = 0;
      faults = [];
    },
    close: () =>
      new Promise<void>((done) => {
        closing = true;
        for (const r of hanging) r.socket?.destroy();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
  return proxy;
}

/** An Almanac event as the original plugin would answer it: none of Almanac's own keys. */
function stripAlmanac(e: Record<string, any>): Record<string, any> {
  const { recurrence: _r, series_id: _s, recurrence_id: _i, is_exception: _x, reminders: _m, calendar: _c, read_only: _o, ...rest } = e;
  return rest;
}

function safeJson(b: Buffer): any {
  try {
    return JSON.parse(b.toString('utf8'));
  } catch {
    return b.toString('utf8');
  }
}
