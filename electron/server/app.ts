/**
 * The request handler: security checks, the API namespace under its roots (served directly), and
 * the calendar UI with its login URL (an Express application). Kept apart from listening so tests
 * can drive it directly.
 */
import express, { type Request, type Response, type NextFunction } from 'express';
import qs from 'qs';
import parseUrl from 'parseurl';
import typeIs from 'type-is';
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { userInfo } from 'node:os';
import type { ImportJobs } from './import-export/import-jobs';
import type { Store } from './store';
import { allRoutes } from './routes';
import { dispatch, findRoute, locateApi, sendError, sendJson, toApiError, type ApiLocation, type HttpRequest, type HttpResponse } from './http/dispatch';
import { Auth, authScheme, checkHost, checkOrigin, loggableUrl, originOf } from './http/security';
import { apiLinkHeader, locateTarget, ownerRecord, siteIndex, type Target } from './http/site';
import { CONDITIONAL_HEADER } from './http/conditional';
import { ApiError } from './errors';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../shared/i18n/languages';
import { loginHelpPage } from './http/login-page';
import { IMPORT_LIMIT_BYTES, IMPORT_LIMIT_LABEL } from '../../shared/api/import-limit';
import type { ReminderService } from './reminders/service';
import type { SyncService } from './caldav/service';
import type { SubscriptionService } from './subscriptions/service';

export type LogLevel = 'info' | 'warn' | 'error';
export type Logger = (level: LogLevel, line: string) => void;

export interface AppOptions {
  store: Store;
  auth: Auth;
  /** Anonymous GETs behave as the original's public reader (published records only). */
  publicRead: boolean;
  /** Built renderer (out/renderer); the UI is not served when absent. */
  rendererDir?: string;
  /** Host names accepted besides the loopback ones (when bound to another interface on purpose). */
  extraHosts: string[];
  log: Logger;
  now: () => Date;
  /** A read-only connection on the same file, for exports. */
  openReader: () => { store: Store; close: () => void };
  imports: ImportJobs;
  /** How long a request waits for another process's write lock before 503 (ServerTimeouts). */
  busyWaitMs: number;
  /** Serves the reminders' push channel (`/reminders/stream`). */
  reminders?: ReminderService;
  /** The CalDAV sync, for `/sync` and to be told of local changes. */
  sync?: SyncService;
  /** iCalendar subscriptions, for `/subscriptions`. */
  subscriptions?: SubscriptionService;
  /** The name `wp/v2/users/me` answers for the owner; the system user's by default. */
  ownerName?: string;
}

const BODY_LIMIT = '1mb';
const STREAM_PATH = /^\/reminders\/stream\/?$/;
const JSON_TYPES = ['application/json', 'application/*+json'];

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export function createApp(opts: AppOptions): RequestHandler {
  const app = express();
  const routes = allRoutes();
  app.disable('x-powered-by');
  app.set('query parser', parseQuery);
  app.set('etag', false);

  const jsonBody = express.json({ limit: BODY_LIMIT, type: JSON_TYPES, strict: false });
  const formBody = express.urlencoded({ limit: BODY_LIMIT, extended: true, parameterLimit: 5000 });
  // Import files come as the raw body, whatever their type; the importer decodes them itself.
  const fileBody = express.raw({ limit: IMPORT_LIMIT_BYTES, type: () => true });

  function serveApi(req: HttpRequest, res: HttpResponse, loc: ApiLocation, query: Record<string, unknown>) {
    const isRead = req.method === 'GET' || req.method === 'HEAD';
    const authed = opts.auth.authenticated(req);
    // A wrong token is refused even where anonymous reads are allowed: the client meant to sign in.
    const asked = typeof query.i18n_language === 'string' ? query.i18n_language.toLowerCase() : undefined;
    const lang = isLanguage(asked) ? asked : (loc.prefixLang ?? DEFAULT_LANGUAGE);
    if (!authed && !(opts.publicRead && isRead && !req.headers.authorization)) return refuseUnauthenticated(req, res, lang);
    // The push channel stays open: served here rather than answered by the dispatcher. Private
    // even where anonymous reads are allowed.
    // A bad language is refused by the dispatcher's checks like on any other route.
    if (opts.reminders && req.method === 'GET' && STREAM_PATH.test(loc.routePath) && (asked === undefined || isLanguage(asked))) {
      if (!authed) return refuseUnauthenticated(req, res, lang);
      return opts.reminders.subscribe(res);
    }
    const found = findRoute(routes, req.method === 'HEAD' ? 'GET' : req.method!, loc.routePath);
    const failed = (what: string) => (err: unknown) => opts.log('error', `${req.method} ${loggableUrl(req.url!)} ${what}: ${(err as Error)?.stack ?? String(err)}`);
    const run = () => dispatch(req, res, loc, query, { canEdit: authed }, { routes, store: opts.store, now: opts.now, openReader: opts.openReader, imports: opts.imports, sync: opts.sync, subscriptions: opts.subscriptions, busyWaitMs: opts.busyWaitMs, onStreamError: failed('stream failed'), onError: failed('failed') }, found);
    if (found?.endpoint.rawBody) {
      return fileBody(req, res, (err?: unknown) => (err ? sendError(res, toApiError(err, IMPORT_LIMIT_LABEL), lang) : run()));
    }
    if (hasBody(req) && !typeIs(req, [...JSON_TYPES, 'application/x-www-form-urlencoded'])) {
      // Only JSON and form bodies are read; a text/plain body is what a cross-site form would send.
      return sendError(res, new ApiError('rest_unsupported_media_type', 415, 'rest_unsupported_media_type'), lang);
    }
    // Most requests (reads) have no body: the parsers are skipped.
    if (!hasBody(req)) return run();
    jsonBody(req, res, (err1?: unknown) => {
      if (err1) return sendError(res, toApiError(err1), lang);
      formBody(req, res, (err2?: unknown) => (err2 ? sendError(res, toApiError(err2), lang) : run()));
    });
  }

  /** The site's own routes (http/site.ts): the `/wp-json/` index and `wp/v2/users/me`. */
  function serveSite(req: HttpRequest, res: HttpResponse, target: Extract<Target, { kind: 'site' }>) {
    const asked = typeof target.query.i18n_language === 'string' ? target.query.i18n_language.toLowerCase() : undefined;
    const lang = isLanguage(asked) ? asked : (target.prefixLang ?? DEFAULT_LANGUAGE);
    const authed = opts.auth.authenticated(req);
    // Wrong credentials are refused even on the public index, as WordPress refuses a wrong application password everywhere.
    if (!authed && req.headers.authorization) return refuseUnauthenticated(req, res, lang);
    if (!target.route || (req.method !== 'GET' && req.method !== 'HEAD')) return sendError(res, new ApiError('rest_no_route', 404, 'rest_no_route'), lang);
    if (!target.route.public && !authed) return sendError(res, new ApiError('rest_not_logged_in', 401, 'rest_not_logged_in'), lang);
    const origin = originOf(req);
    const body =
      target.route.route === '/'
        ? siteIndex({ origin, siteRoot: target.root, prefixLang: target.prefixLang, routes, timezone: authed ? opts.store.settings.get().timezone : undefined })
        : ownerRecord(origin, target.root, ownerName);
    res.statusCode = 200;
    sendJson(res, JSON.stringify(body));
  }
  const ownerName = opts.ownerName ?? systemUserName();

  mountUi(app, opts);

  app.use((req: Request, res: Response) => sendError(res, new ApiError('rest_no_route', 404, 'rest_no_route'), DEFAULT_LANGUAGE));
  // Anything thrown past the routes: never a stack trace or an HTML page.
  const onUnexpected = (err: unknown, req: HttpRequest, res: HttpResponse) => {
    const apiErr = toApiError(err);
    // Express's router may have rewritten `url` by the time an error reaches its handler.
    const url = (req as { originalUrl?: string }).originalUrl ?? req.url!;
    if (apiErr.status >= 500) opts.log('error', `${req.method} ${loggableUrl(url)} failed: ${(err as Error)?.stack ?? String(err)}`);
    sendError(res, apiErr, DEFAULT_LANGUAGE);
  };
  app.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    void next;
    onUnexpected(err, req, res);
  });

  // The API is served here, before Express's router, on Node's own request and response objects
  // (see HttpRequest for why); the calendar UI and anything else go through the Express app.
  return (req: HttpRequest, res: HttpResponse) => {
    const url = req.url!;
    try {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const level: LogLevel = res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info';
        opts.log(level, `${req.method} ${loggableUrl(url)} ${res.statusCode} ${ms.toFixed(1)}ms`);
      });
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Referrer-Policy', 'no-referrer');
      const refused = checkHost(req, opts.extraHosts) ?? checkOrigin(req);
      if (refused) return sendError(res, refused, DEFAULT_LANGUAGE);
      const parsed = parseUrl(req);
      const target = parsed ? locateTarget(parsed.pathname ?? '', typeof parsed.query === 'string' ? parsed.query : '', locateApi, parseQuery) : undefined;
      if (!target) {
        // The site's front page leads a WordPress client to the API (as `rest_output_link_header`).
        if (parsed?.pathname === '/') res.setHeader('Link', apiLinkHeader(originOf(req)));
        return app(req, res);
      }
      const prefixLang = target.kind === 'api' ? target.loc.prefixLang : target.prefixLang;
      res.setHeader('Link', apiLinkHeader(originOf(req), prefixLang));
      res.setHeader(CONDITIONAL_HEADER, '1');
      if (target.kind === 'site') return serveSite(req, res, target);
      serveApi(req, res, target.loc, target.query);
    } catch (err) {
      onUnexpected(err, req, res);
    }
  };
}

/**
 * Query strings read the way the original's PHP reads them: `categories[]=1&categories[]=2` is a
 * list, while a name given twice (`page=1&page=2`, as when a client appends to a rest_url) keeps
 * its last value.
 */
function parseQuery(text: string): Record<string, unknown> {
  return qs.parse(text, { duplicates: 'last', depth: 5, arrayLimit: 200, parameterLimit: 1000 });
}

/**
 * 401: a wrong token (`rest_forbidden`), a wrong password of HTTP Basic (`incorrect_password`, as
 * WordPress answers a wrong application password) or none (`rest_forbidden_token`). Never with a
 * `WWW-Authenticate` challenge: a browser would prompt for a password and remember it.
 */
function refuseUnauthenticated(req: HttpRequest, res: HttpResponse, lang: Language): void {
  const scheme = authScheme(req);
  const err = scheme === 'basic' ? new ApiError('incorrect_password', 401, 'incorrect_password') : new ApiError('rest_forbidden', 401, scheme ? 'rest_forbidden' : 'rest_forbidden_token');
  sendError(res, err, lang);
}

/** The system user's name, for `users/me`; a generic one where the system has none to give. */
function systemUserName(): string {
  try {
    return userInfo().username || 'Owner';
  } catch {
    return 'Owner';
  }
}

function hasBody(req: HttpRequest): boolean {
  const len = req.headers['content-length'];
  return (len !== undefined && len !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * The calendar UI in a browser tab. `/?token=…` (the login URL the server prints) trades the token
 * for an HttpOnly session cookie and redirects to `/` so the token leaves the address bar.
 */
function mountUi(app: express.Express, opts: AppOptions) {
  const dir = opts.rendererDir;
  const index = dir ? join(dir, 'index.html') : undefined;
  const uiBuilt = !!index && existsSync(index);

  app.get('/', (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const token = req.query.token;
    if (token !== undefined) {
      if (!opts.auth.tokenMatches(token)) return res.status(401).type('html').send(loginHelpPage('wrong-token'));
      res.setHeader('Set-Cookie', opts.auth.setCookieHeader());
      return res.redirect(302, '/');
    }
    if (!opts.auth.authenticated(req)) return res.status(401).type('html').send(loginHelpPage('no-session'));
    if (!uiBuilt) return res.status(503).type('html').send(loginHelpPage('not-built'));
    res.sendFile(index!);
  });

  // Permalinks (`url` of records) open the record in the calendar.
  app.get(['/event/:slug', '/venue/:slug', '/organizer/:slug'], (req, res) => {
    const kind = req.path.split('/')[1];
    res.redirect(302, `/#/${kind}/${encodeURIComponent(String(req.params.slug))}`);
  });

  // Everything else outside the API, the UI's own files included, only for a signed-in browser (or
  // the token): a page elsewhere cannot even tell that Almanac runs here, nor which version.
  app.use((req, res, next) => {
    if (opts.auth.authenticated(req)) return next();
    refuseUnauthenticated(req, res, DEFAULT_LANGUAGE);
  });
  if (uiBuilt) app.use(express.static(dir!, { index: false, fallthrough: true, maxAge: '1h' }));
}
