/**
 * The one way requests reach a website: its API's URLs (pretty `/wp-json/…/` or the
 * `?rest_route=` form of sites without pretty permalinks), HTTP Basic with the application
 * password sent only to the site's own origin, a time limit on every request (AbortSignal, body
 * included), a size limit on every answer, a cache-buster on every read (hosts' caches serve stale
 * REST reads), `Retry-After` honoured, and answers told apart: JSON, a web page (a security plugin
 * or firewall), or garbage. No answer of a site can hold a sync or the server.
 */
import { SiteError, fromNetwork } from './errors';
import { basicAuth } from '../caldav/transport';
import { deadline, readBoundedText, sizeLabel } from '../net/bounded-read';

export interface SiteAuth {
  user: string;
  password: string;
}

export interface SiteHttpOptions {
  /** Per request, headers to last byte (default 30 s). */
  timeoutMs?: number;
  /** Largest answer read (default 16 MiB: a page of 50 events with long descriptions is well under 1 MiB). */
  maxBytes?: number;
  fetch?: typeof fetch;
  /** Longest Retry-After waited in place before giving up the request as "busy" (default 5 s). */
  maxInlineWaitMs?: number;
  /** Ends every request of the round at once: removing the site or quitting never waits on it. */
  signal?: AbortSignal;
}

export interface SiteAnswer {
  status: number;
  headers: Headers;
  /** The parsed body when it was JSON; undefined otherwise. */
  json: unknown;
  /** A web page where data was expected (a login page, a firewall's block page). */
  html: boolean;
  text: string;
}

export type Params = Record<string, string | number | boolean | undefined | Array<string | number>>;

export const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
const USER_AGENT = 'Almanac (events REST sync)';

/** A URL under an API root, in the root's own form (pretty path, or `?rest_route=`). */
export function apiUrl(apiRoot: string, path: string, params: Params = {}): string {
  const root = new URL(apiRoot);
  let url: URL;
  const route = root.searchParams.get('rest_route');
  if (route !== null) {
    url = new URL(root.href);
    url.searchParams.set('rest_route', `${route.replace(/\/?$/, '/')}${path.replace(/^\//, '')}`);
  } else {
    url = new URL(path.replace(/^\//, ''), root.href.endsWith('/') ? root.href : `${root.href}/`);
  }
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) url.searchParams.set(k, v.join(','));
    else url.searchParams.set(k, String(v));
  }
  return url.href;
}

let bust = 0;

export function createSiteHttp(trustedOrigin: string, auth: SiteAuth | null, opts: SiteHttpOptions = {}) {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const base = opts.fetch ?? fetch;
  const origin = new URL(trustedOrigin).origin;
  // HTTP Basic, as WordPress takes application passwords (UTF-8, RFC 7617), as CalDAV's is made.
  const authorization = auth === null ? undefined : basicAuth(auth);
  const http = {
    /** Requests sent (a round's cost, for the bench and the tests). */
    requests: 0,
    /**
     * One request. Any HTTP answer comes back (the caller tells what a status means), except
     * 429/503 with a long Retry-After and other 5xx, which throw (the round stops and waits).
     */
    async request(method: string, url: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<SiteAnswer> {
      const target = new URL(url);
      if (method === 'GET') target.searchParams.set('_almanac', `${Date.now().toString(36)}${(++bust).toString(36)}`);
      const host = target.host;
      for (let attempt = 0; ; attempt++) {
        const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': USER_AGENT, ...extraHeaders };
        if (authorization && target.origin === origin) headers.Authorization = authorization;
        if (body !== undefined) headers['Content-Type'] = 'application/json';
        http.requests++;
        let res: Response;
        let text: string;
        const signal = deadline(timeoutMs, opts.signal);
        try {
          res = await base(target, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal, redirect: 'follow' });
          const status = res.status;
          text = await readBoundedText(res, { maxBytes, tooLarge: () => new SiteError('too_large', { host, limit: sizeLabel(maxBytes) }, status) });
        } catch (err) {
          throw fromNetwork(err, host, timeoutMs);
        }
        if (res.status === 429 || res.status === 503) {
          const wait = retryAfterMs(res.headers.get('retry-after'));
          if (wait !== undefined && wait <= (opts.maxInlineWaitMs ?? 5000) && attempt < 2) {
            await new Promise((done) => setTimeout(done, wait));
            continue;
          }
          throw new SiteError('busy', { host, status: res.status }, res.status, wait ?? 60_000);
        }
        if (res.status >= 500) throw new SiteError('server_error', { host, status: res.status }, res.status);
        const type = res.headers.get('content-type') ?? '';
        const trimmed = text.trimStart();
        let json: unknown;
        let isJson = false;
        if (/json/i.test(type) || trimmed.startsWith('{') || trimmed.startsWith('[')) {
          try {
            json = JSON.parse(text);
            isJson = true;
          } catch {
            isJson = false;
          }
        }
        const html = !isJson && (/html/i.test(type) || /^<(!doctype|html|head|body)/i.test(trimmed));
        return { status: res.status, headers: res.headers, json: isJson ? json : undefined, html, text: isJson ? '' : text.slice(0, 2000) };
      }
    },
  };
  return http;
}

export type SiteHttp = ReturnType<typeof createSiteHttp>;

/** Retry-After as delay-seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Math.min(Number(value.trim()), 24 * 3600) * 1000;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}
