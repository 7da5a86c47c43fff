/**
 * Finding a website's events API from the address a person types, the way WordPress clients do:
 * the `Link: <…>; rel="https://api.w.org/"` header of its home page, else `/wp-json/`, else the
 * `?rest_route=/` form of sites without pretty permalinks. In the index, the events namespace is
 * found by its shape (a namespace ending in `/events/v1` with events, venues, organizers,
 * categories and tags routes), never by a brand name. Then the login is proven before any list
 * is trusted: a host that strips the Authorization header makes WordPress answer as to an
 * anonymous visitor, silently, and an empty list must never read as "the site has no events".
 */
import { SiteError } from './errors';
import { apiUrl, createSiteHttp, type SiteAuth, type SiteHttp, type SiteHttpOptions } from './http';

export interface SiteCapabilities {
  /** `/wp/v2/users/me` of the site, when its index lists it. */
  usersMe: string | null;
  /** Records carry Almanac's own fields (a series as a series, cost lists). */
  almanac: boolean;
  /** Single records answer an ETag and honour If-Match (Almanac's extension). */
  ifMatch: boolean;
}

export interface DiscoveredSite {
  url: string;
  apiRoot: string;
  capabilities: SiteCapabilities;
}

const KINDS = ['events', 'venues', 'organizers', 'categories', 'tags'];
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The typed address as a URL: https unless typed otherwise (or this computer), no trailing slash, no query. */
export function normalizeSiteUrl(typed: string): string {
  let text = typed.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    const host = text.split(/[/:?#]/)[0].toLowerCase();
    text = `${LOCAL_HOSTS.has(host) ? 'http' : 'https'}://${text}`;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SiteError('bad_url', { url: typed });
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !url.hostname || url.username || url.password) throw new SiteError('bad_url', { url: typed });
  url.hash = '';
  url.search = '';
  return url.href.replace(/\/+$/, '');
}

/** The API root of the namespace found in a `/wp-json/` index, or undefined when it has none of that shape. */
export function eventsNamespace(index: unknown): { namespace: string; almanac: boolean; usersMe: boolean; ifMatch: boolean } | undefined {
  if (!index || typeof index !== 'object') return undefined;
  const { namespaces, routes } = index as { namespaces?: unknown; routes?: unknown };
  if (!Array.isArray(namespaces) || !routes || typeof routes !== 'object') return undefined;
  const r = routes as Record<string, unknown>;
  for (const ns of namespaces) {
    if (typeof ns !== 'string' || !/(^|\/)events\/v1$/.test(ns)) continue;
    if (!KINDS.every((k) => `/${ns}/${k}` in r)) continue;
    const eventsRoute = r[`/${ns}/events`] as { endpoints?: Array<{ args?: Record<string, unknown> }> } | undefined;
    const almanac = !!eventsRoute?.endpoints?.some((e) => e.args && 'recurrence' in e.args);
    const ifMatch = !!(index as { almanac?: { conditional_writes?: unknown } }).almanac?.conditional_writes;
    return { namespace: ns, almanac, usersMe: '/wp/v2/users/me' in r, ifMatch };
  }
  return undefined;
}

/** The `rel="https://api.w.org/"` target of a Link header. */
export function apiLink(header: string | null, base: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const m = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (m && /rel\s*=\s*"?https:\/\/api\.w\.org\/"?/i.test(m[2])) {
      try {
        return new URL(m[1], base).href;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export interface DiscoverOptions extends SiteHttpOptions {
  /** The events API's root, when known (skips the index: a site that has none). */
  apiRoot?: string;
}

export async function discoverSite(typed: string, auth: SiteAuth, opts: DiscoverOptions = {}): Promise<DiscoveredSite> {
  const url = normalizeSiteUrl(typed);
  const host = new URL(url).host;
  if (opts.apiRoot) {
    const apiRoot = opts.apiRoot.endsWith('/') || opts.apiRoot.includes('rest_route=') ? opts.apiRoot : `${opts.apiRoot}/`;
    const http = createSiteHttp(apiRoot, auth, opts);
    const capabilities: SiteCapabilities = { usersMe: null, almanac: false, ifMatch: false };
    await proveLogin(http, apiRoot, capabilities, url);
    return { url, apiRoot, capabilities };
  }
  const http = createSiteHttp(url, auth, opts);
  const home = await http.request('GET', `${url}/`);
  const candidates: Array<{ index: string; restRoute: boolean }> = [];
  const linked = apiLink(home.headers.get('link'), `${url}/`);
  // The password never goes over plain http to an address the user typed as https.
  if (linked && !(url.startsWith('https:') && linked.startsWith('http:'))) candidates.push({ index: linked, restRoute: linked.includes('rest_route=') });
  candidates.push({ index: `${url}/wp-json/`, restRoute: false }, { index: `${url}/?rest_route=/`, restRoute: true });
  let sawIndex = false;
  let sawBlock = false;
  const tried = new Set<string>();
  for (const c of candidates) {
    if (tried.has(c.index)) continue;
    tried.add(c.index);
    const answer = await http.request('GET', c.index);
    if (answer.status === 401 && isAuthFailure(answer.json)) throw new SiteError('unauthorized', { host }, 401);
    if (answer.json === undefined) {
      // A page where the index should be: a security plugin's or firewall's (the REST path
      // exists but is blocked); the plain home page `?rest_route=` gives on a site that is not WordPress is not one.
      if (answer.html && !c.restRoute && answer.status !== 404) sawBlock = true;
      continue;
    }
    const found = eventsNamespace(answer.json);
    if (!found) {
      if ((answer.json as { namespaces?: unknown })?.namespaces) sawIndex = true;
      continue;
    }
    const indexUrl = new URL(c.index);
    const apiRoot = c.restRoute
      ? (() => {
          indexUrl.searchParams.set('rest_route', `/${found.namespace}/`);
          return indexUrl.href;
        })()
      : new URL(`${found.namespace}/`, indexUrl.href.endsWith('/') ? indexUrl.href : `${indexUrl.href}/`).href;
    const usersMe = found.usersMe ? (c.restRoute ? apiUrl(c.index.replace(/rest_route=[^&]*/, 'rest_route=/'), 'wp/v2/users/me') : new URL('wp/v2/users/me', indexUrl.href).href) : null;
    const capabilities: SiteCapabilities = { usersMe, almanac: found.almanac, ifMatch: found.ifMatch };
    const siteHttp = createSiteHttp(apiRoot, auth, opts);
    await proveLogin(siteHttp, apiRoot, capabilities, url);
    return { url, apiRoot, capabilities };
  }
  if (sawIndex) throw new SiteError('api_off', { url });
  if (sawBlock) throw new SiteError('blocked', { host });
  throw new SiteError('not_found', { url });
}

/** WordPress's codes for a login it refused (as opposed to no login at all). */
function isAuthFailure(json: unknown): boolean {
  const code = (json as { code?: unknown })?.code;
  return typeof code === 'string' && /incorrect_password|invalid_username|invalid_email|application_passwords_disabled|rest_forbidden|authentication/i.test(code);
}

/**
 * Proves that the site sees the login (and not an anonymous visitor), or throws saying which:
 * `users/me` where the site has it (401 `rest_not_logged_in` is the stripped-header case), then a
 * list of drafts, which only a logged-in editor may ask for (anonymous: 400 on `status`).
 */
export async function proveLogin(http: SiteHttp, apiRoot: string, caps: SiteCapabilities, url: string): Promise<void> {
  const host = new URL(apiRoot).host;
  if (caps.usersMe) {
    const me = await http.request('GET', caps.usersMe, undefined);
    if (me.status === 401 || me.status === 403) {
      const code = (me.json as { code?: string } | undefined)?.code;
      if (code === 'rest_not_logged_in') throw new SiteError('anonymous', { host }, me.status);
      throw new SiteError('unauthorized', { host }, me.status);
    }
    if (me.html) throw new SiteError('blocked', { host }, me.status);
  }
  const probe = await http.request('GET', apiUrl(apiRoot, 'events', { status: 'draft', per_page: 1, start_date: '1900-01-01 00:00:00', end_date: '2200-12-31 23:59:59' }));
  if (probe.html) throw new SiteError('blocked', { host }, probe.status);
  if (probe.status === 401 || probe.status === 403) throw new SiteError('unauthorized', { host }, probe.status);
  if (probe.status === 400) throw new SiteError('anonymous', { host }, 400);
  if (probe.status === 404 && (probe.json as { code?: string } | undefined)?.code === 'rest_no_route') throw new SiteError('api_off', { url });
  if (probe.json === undefined) throw new SiteError('bad_answer', { host, what: `HTTP ${probe.status}` }, probe.status);
  if (probe.status === 200 && !Array.isArray((probe.json as { events?: unknown }).events)) throw new SiteError('not_found', { url });
  if (probe.status === 200) {
    const first = (probe.json as { events: Array<Record<string, unknown>> }).events[0];
    if (first && 'series_id' in first) caps.almanac = true;
    caps.ifMatch = caps.ifMatch || probe.headers.get('x-cal-conditional-writes') === 'true' || probe.headers.has('x-cal-conditional-writes');
  }
}
