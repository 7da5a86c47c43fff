/**
 * Almanac as a WordPress site (issue 26 item 2): the `/wp-json/` index, the `?rest_route=` form of
 * every API address, `wp/v2/users/me` (how a client of WordPress proves its login) and the `Link`
 * header that leads a client to the index. So clients of the original that sign in with an
 * application password (HTTP Basic, the token as the password) work against Almanac unchanged,
 * and one Almanac syncs with another through the same client code as with a WordPress site.
 */
import { DateTime } from 'luxon';
import { zoneFor } from '../../../shared/dates/zones';
import { slugify } from '../store/posts';
import type { Language } from '../../../shared/i18n/languages';
import { namespaceIndex, NAMESPACE } from './describe';
import type { ApiLocation } from './dispatch';
import type { RouteDef } from './route-table';

/** The namespace of WordPress core's own routes, of which Almanac serves `users/me`. */
const WP_NAMESPACE = 'wp/v2';

/** The site's own routes, outside the events namespace, as the index and `/doc` list them. */
interface SiteRoute {
  /** Route as WordPress's index names it (`/wp/v2/users/me`). */
  route: string;
  namespace: string;
  methods: ['GET'];
  summary: string;
  /** Statuses it answers with, for `/doc`. */
  statuses: Record<number, string>;
  /** Whether it answers without credentials. */
  public: boolean;
}

export const SITE_ROUTES: SiteRoute[] = [
  {
    route: '/',
    namespace: '',
    methods: ['GET'],
    summary: 'The site index, as WordPress serves it at `/wp-json/`: `name`, `url`, `home`, `namespaces`, `authentication` (empty: Almanac has no "authorize application" page; the password of HTTP Basic is the API token), `routes` (every route of the namespaces with their methods, endpoints and arguments) and `almanac` (`conditional_writes`: single records answer an `ETag` and honour `If-Match`; `repeats`: events may repeat, `recurrence`). Answered without credentials, as WordPress answers it, then holding nothing of this calendar; `gmt_offset` and `timezone_string` (the calendar\'s timezone) only with credentials.',
    statuses: { 200: 'The index.', 401: 'The credentials sent are wrong (`incorrect_password` for HTTP Basic).' },
    public: true,
  },
  {
    route: '/wp/v2/users/me',
    namespace: WP_NAMESPACE,
    methods: ['GET'],
    summary: 'The signed-in user, as WordPress answers it: the owner (`id` 1, `name`). A client proves its login with it before trusting a list.',
    statuses: { 200: 'The owner.', 401: '`rest_not_logged_in` without credentials; `incorrect_password` for a wrong HTTP Basic password; `rest_forbidden` for a wrong token.' },
    public: false,
  },
];

/** What a request outside the Express app addresses: the events namespace, or a site route. */
export type Target =
  | { kind: 'api'; loc: ApiLocation; query: Record<string, unknown> }
  | { kind: 'site'; route: SiteRoute | undefined; prefixLang?: Language; root: string; query: Record<string, unknown> };

const LANG = '(?:/(en|pt-br|es))?';
/** `/`, `/index.php`, and the same under a language: where `?rest_route=` is read. */
const REST_ROUTE_PATH = new RegExp(`^${LANG}(/|/index\\.php)$`, 'i');
/** `/wp-json/…` outside the events namespace (which dispatch.ts's locateApi reads). */
const WP_JSON_PATH = new RegExp(`^${LANG}/wp-json(/.*)?$`, 'i');
const API_ROUTE = /^\/cal\/events\/v1(\/.*)?$/i;

function siteRoute(routePath: string): SiteRoute | undefined {
  const path = routePath.replace(/\/+$/, '') || '/';
  return SITE_ROUTES.find((r) => r.route === path.toLowerCase());
}

/**
 * Reads where a request goes: `?rest_route=/cal/events/v1/events&page=2` (on `/` or `/index.php`,
 * with or without a language) answers as `/cal/events/v1/events?page=2`, with its links built in
 * the same form; `/wp-json/` and `/wp-json/wp/v2/…` are site routes. Undefined: not for the API.
 * `parseQuery` reads the query string as the rest of the API does.
 */
export function locateTarget(
  pathname: string,
  queryText: string,
  locateApi: (path: string) => ApiLocation | undefined,
  parseQuery: (text: string) => Record<string, unknown>,
): Target | undefined {
  const form = REST_ROUTE_PATH.exec(pathname);
  if (form && /(?:^|&)rest_route=/.test(queryText)) {
    const query = parseQuery(queryText);
    const raw = query.rest_route;
    delete query.rest_route;
    const lang = form[1]?.toLowerCase() as Language | undefined;
    const prefix = lang ? `/${form[1]}` : '';
    const base = `${prefix}${form[2]}?rest_route=`;
    const routePath = typeof raw === 'string' ? (raw.startsWith('/') ? raw : `/${raw}`) : '/';
    const api = API_ROUTE.exec(routePath);
    if (api) {
      const rest = api[1] && api[1] !== '/' ? api[1].replace(/\/+$/, '') : '';
      return { kind: 'api', loc: { prefixLang: lang, root: `${base}/${NAMESPACE}`, routePath: rest }, query };
    }
    return { kind: 'site', route: siteRoute(routePath), prefixLang: lang, root: base, query };
  }
  const loc = locateApi(pathname);
  if (loc) return { kind: 'api', loc, query: parseQuery(queryText) };
  const wp = WP_JSON_PATH.exec(pathname);
  if (wp) {
    const lang = wp[1]?.toLowerCase() as Language | undefined;
    return { kind: 'site', route: siteRoute(wp[2] ?? '/'), prefixLang: lang, root: `${lang ? `/${wp[1]}` : ''}/wp-json`, query: parseQuery(queryText) };
  }
  return undefined;
}

/** Joins a query to an address that may be of the `?rest_route=` form already. */
export function withQuery(url: string, query: string): string {
  if (!query) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

/** The `Link` header WordPress sends so a client finds the API from the site's address. */
export function apiLinkHeader(origin: string, prefixLang?: Language): string {
  return `<${origin}${prefixLang ? `/${prefixLang}` : ''}/wp-json/>; rel="https://api.w.org/"`;
}

/**
 * `GET /wp-json/`: WordPress's index, its routes built from the route table. `timezone` is given
 * only to a signed-in client: the index is open (clients read it before they sign in), so what it
 * tells a stranger is the same for every Almanac, nothing of this calendar or where its owner lives.
 */
export function siteIndex(opts: { origin: string; siteRoot: string; prefixLang?: Language; routes: RouteDef[]; timezone?: string }) {
  const home = `${opts.origin}${opts.prefixLang ? `/${opts.prefixLang}` : ''}`;
  // Each route's address in the form the index was asked in (`/wp-json/…` or `?rest_route=/…`).
  const at = (route: string) => `${opts.origin}${opts.siteRoot}${route}`;
  const ns = namespaceIndex(opts.routes, at(`/${NAMESPACE}`));
  const routes: Record<string, unknown> = {};
  for (const r of SITE_ROUTES) {
    routes[r.route] = { namespace: r.namespace, methods: r.methods, endpoints: [{ methods: r.methods, args: {} }], _links: { self: [{ href: at(r.route) }] } };
    if (r.route === '/') {
      // The namespace's own index, then its routes, as WordPress lists a namespace.
      routes[`/${NAMESPACE}`] = { namespace: NAMESPACE, methods: ['GET'], endpoints: [{ methods: ['GET'], args: {} }], _links: { self: [{ href: at(`/${NAMESPACE}`) }] } };
      Object.assign(routes, ns.routes);
    }
  }
  return {
    name: 'Almanac',
    description: '',
    url: home,
    home,
    ...(opts.timezone === undefined ? {} : { gmt_offset: gmtOffset(opts.timezone), timezone_string: opts.timezone }),
    namespaces: [NAMESPACE, WP_NAMESPACE],
    authentication: {},
    // What this site does beyond the original, for a client to tell an Almanac from it (no version: the index is public).
    almanac: { conditional_writes: true, repeats: true },
    routes,
    _links: { help: [{ href: `${at(`/${NAMESPACE}`)}/doc` }] },
  };
}

/** `GET /wp-json/wp/v2/users/me` for the owner, in WordPress's shape. */
export function ownerRecord(origin: string, siteRoot: string, name: string) {
  return {
    id: 1,
    name,
    url: '',
    description: '',
    link: `${origin}/`,
    slug: slugOf(name),
    avatar_urls: {},
    meta: [],
    _links: { self: [{ href: `${origin}${siteRoot}/wp/v2/users/me` }] },
  };
}

const slugOf = (name: string) => slugify(name) || 'owner';

/** Hours from UTC now, as WordPress's `gmt_offset` option. */
function gmtOffset(zone: string): number {
  try {
    return DateTime.now().setZone(zoneFor(zone)).offset / 60;
  } catch {
    return 0;
  }
}
