/**
 * Serves the namespace: finds the route and endpoint for a request, reads its language, checks its
 * arguments against their declarations, runs the handler and sends JSON. Every failure leaves in
 * the API's error shape; nothing here sends HTML or a stack trace.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import fresh from 'fresh';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../../shared/i18n/languages';
import { languageParam } from '../../../shared/schema/queries';
import { message, isMessageKey } from '../../../shared/i18n/messages';
import { ApiError, noRoute } from '../errors';
import { validateFields } from '../validate';
import type { Store } from '../store';
import type { ApiErrorBody } from '../../../shared/api/records';
import type { Viewer } from '../store/posts';
import type { ApiRequest, ApiResponse, Method, RouteDef, Endpoint } from './route-table';
import { originOf } from './security';
import { checkIfMatch, recordEtag } from './conditional';
import { etagOf } from '../serialize/json-cache';

/**
 * The API is served on Node's own request and response objects, not Express's: Express gives them
 * its prototypes, and Node's response methods run about three times slower on an object whose
 * prototype was swapped (end() alone went from about 40 to 120 µs), which was a quarter of a
 * record read. `body` is what the body parsers read.
 */
export type HttpRequest = IncomingMessage & { body?: unknown };
export type HttpResponse = ServerResponse;

/** `/pt-br/wp-json/cal/events/v1/events/12` → prefix language, root path and route path. */
const API_PATH = /^(?:\/(en|pt-br|es))?(\/wp-json)?\/cal\/events\/v1(\/.*)?$/i;

export interface ApiLocation {
  prefixLang?: Language;
  /** Everything before the route path: `/pt-br/wp-json/cal/events/v1`. */
  root: string;
  routePath: string;
}

export function locateApi(path: string): ApiLocation | undefined {
  const m = API_PATH.exec(path);
  if (!m) return undefined;
  const routePath = m[3] && m[3] !== '/' ? m[3].replace(/\/+$/, '') : '';
  const root = path.slice(0, path.length - (m[3]?.length ?? 0));
  return { prefixLang: m[1]?.toLowerCase() as Language | undefined, root, routePath };
}

export function findRoute(routes: RouteDef[], method: string, routePath: string) {
  for (const r of routes) {
    const m = r.regex.exec(routePath);
    if (!m) continue;
    const endpoint = r.endpoints.find((e) => e.methods.includes(method as Method));
    if (!endpoint) return undefined; // a known path with a method it lacks is rest_no_route too
    const path: Record<string, string> = {};
    try {
      r.pathParams.forEach((p, i) => {
        path[p.name] = decodeURIComponent(m[i + 1]);
      });
    } catch {
      return undefined; // broken percent-encoding names no record: no route
    }
    return { route: r, endpoint, path };
  }
  return undefined;
}

/**
 * A detail's own `params` (the fields of a venue or organizer an event tried to create), each
 * message key worded with what it names (`param_vars`), as the top-level `params` are.
 */
function wordedParams(data: unknown, lang: Language): unknown {
  if (!data || typeof data !== 'object') return data;
  const { params, param_vars: vars, ...rest } = data as { params?: unknown; param_vars?: Record<string, Record<string, string | number>> };
  if (!params || typeof params !== 'object' || Array.isArray(params)) return params === undefined ? rest : { ...rest, params };
  const worded = Object.fromEntries(
    Object.entries(params as Record<string, unknown>).map(([k, key]) => [k, typeof key === 'string' && isMessageKey(key) ? message(lang, key, vars?.[k]) : key]),
  );
  return { ...rest, params: worded };
}

/** The error body, worded in the request's language. */
export function errorBody(err: ApiError, lang: Language): ApiErrorBody {
  const data: ApiErrorBody['data'] = { status: err.status };
  if (err.missing) data.params = err.missing;
  if (err.invalid) {
    data.params = Object.fromEntries(Object.entries(err.invalid).map(([k, key]) => [k, message(lang, key, err.invalidVars?.[k])]));
    const details = (err.data.details ?? {}) as Record<string, Record<string, unknown>>;
    const worded = Object.fromEntries(
      Object.entries(details).map(([k, d]) => {
        const { messageKey, vars, ...rest } = d;
        const text = typeof messageKey === 'string' && isMessageKey(messageKey) ? message(lang, messageKey, (vars ?? {}) as Record<string, string>) : '';
        return [k, { code: rest.code, message: text, data: wordedParams(rest.data, lang) }];
      }),
    );
    // The original sends an empty JSON array when there are no details.
    data.details = Object.keys(worded).length ? worded : [];
  }
  for (const [k, v] of Object.entries(err.data)) if (k !== 'details') data[k] = v;
  return { code: err.code, message: message(lang, err.messageKey, err.vars), data };
}

export interface DispatchOptions {
  routes: RouteDef[];
  store: Store;
  now: () => Date;
  openReader: ApiRequest['openReader'];
  imports: ApiRequest['imports'];
  sync?: ApiRequest['sync'];
  subscriptions?: ApiRequest['subscriptions'];
  /** How long a request waits for another process's write lock before it is answered 503. */
  busyWaitMs: number;
  /** Where failures that cannot reach the client any more (a broken stream) are reported. */
  onStreamError: (err: unknown) => void;
  /**
   * Where unexpected failures are reported (the client only gets `internal_error`): without it a
   * bug or a locked database would leave no trace but the status in the request log.
   */
  onError?: (err: unknown) => void;
}

/** Requests reach this after the security checks; `viewer` says what the caller may do. */
export function dispatch(
  req: HttpRequest,
  res: HttpResponse,
  loc: ApiLocation,
  query: Record<string, unknown>,
  viewer: Viewer,
  opts: DispatchOptions,
  found: ReturnType<typeof findRoute>,
): void {
  let lang: Language = loc.prefixLang ?? DEFAULT_LANGUAGE;
  try {
    // A usable language first, so even a refusal of the language itself is worded in one.
    const rawLang = query.i18n_language ?? (req.body as Record<string, unknown> | undefined)?.i18n_language;
    if (isLanguage(typeof rawLang === 'string' ? rawLang.toLowerCase() : rawLang)) lang = (rawLang as string).toLowerCase() as Language;

    // Route first, then arguments (reference §1): an unknown route is rest_no_route whatever else.
    if (!found) throw noRoute();
    const { endpoint, path } = found;
    if (rawLang !== undefined) validateFields(languageParam, { i18n_language: rawLang }, 'update');
    const raw = endpoint.body && !endpoint.rawBody ? { ...query, ...bodyObject(req) } : query;
    const values = validateFields(endpoint.args, raw, endpoint.body && !endpoint.creates ? 'update' : 'create');
    applyDefaults(endpoint, values);

    const origin = originOf(req);
    const now = opts.now();
    const settings = opts.store.settings.get();
    const apiReq: ApiRequest = {
      method: req.method as Method,
      path,
      values,
      raw,
      lang,
      viewer,
      url: { origin, apiRoot: `${origin}${loc.root}/`, settings },
      now,
      store: opts.store,
      write: { lang, now, siteZone: settings.timezone },
      file: endpoint.rawBody && Buffer.isBuffer(req.body) ? req.body : undefined,
      openReader: opts.openReader,
      imports: opts.imports,
      sync: opts.sync,
      subscriptions: opts.subscriptions,
    };
    const send = (out: ApiResponse) => {
      if (res.destroyed) return; // the client gave up while the work was done elsewhere
      // A change saved here goes to the CalDAV servers soon (debounced; the outbox has it already).
      if (endpoint.write && req.method !== 'GET' && (out.status ?? 200) < 400) opts.sync?.localChange();
      res.statusCode = out.status ?? 200;
      for (const [k, v] of Object.entries(out.headers ?? {})) res.setHeader(k, v);
      // Serialised once: a read's tag is taken from the very text it sends.
      let json: Buffer | string | undefined = out.json;
      if (endpoint.record && res.statusCode < 300) {
        // A read's tag is that of what it answers; a write's, that of the record written (its
        // `id`) as a read would answer it.
        const read = req.method === 'GET' || req.method === 'HEAD';
        const id = (out.body as { id?: unknown } | undefined)?.id;
        const tag = read ? etagOf((json ??= JSON.stringify(out.body)), apiReq.url) : typeof id === 'number' ? recordEtag(endpoint.record, id, apiReq.store, apiReq.url) : undefined;
        if (tag) res.setHeader('ETag', tag);
      }
      if (out.stream) {
        void sendStream(res, out.stream).catch((err) => {
          // Headers are gone: all that is left is to cut the response short, so the client sees an
          // incomplete file rather than a complete-looking one.
          opts.onStreamError(err);
          res.destroy();
        });
        return;
      }
      sendJson(res, json ?? JSON.stringify(out.body));
    };
    runWhenFree(res, opts.busyWaitMs, () => {
      // In the same tick as the write: nothing can change the record between the check and it.
      if (endpoint.record && req.method !== 'GET' && req.method !== 'HEAD') checkIfMatch(headerText(req.headers['if-match']), endpoint.record, apiReq);
      const out = endpoint.handler(apiReq);
      // Work done off this thread (an import) answers later; its failures are the API's errors too.
      if (out instanceof Promise) {
        // A write that meets the lock after its wait (a feed fetched, a server asked) is not run
        // again: the client hears the calendar is busy, as from runWhenFree, not a 500.
        out.then(send, (err) => fail(isBusy(err) ? calendarBusy() : err));
      } else send(out);
    }, (err) => fail(err));
  } catch (err) {
    fail(err);
  }

  function fail(err: unknown) {
    if (!(err instanceof ApiError)) opts.onError?.(err);
    else if (err.code === 'calendar_busy' && !res.headersSent) res.setHeader('Retry-After', '5');
    sendError(res, err, lang);
  }
}

/** 503: another process holds the calendar's write lock; nothing was written. */
const calendarBusy = () => new ApiError('calendar_busy', 503, 'calendar_busy');

const isBusy = (err: unknown) => typeof (err as { code?: unknown })?.code === 'string' && (err as { code: string }).code.startsWith('SQLITE_BUSY');

/**
 * Runs a handler; when another process holds the write lock (a CLI import on the same file), tries
 * again a little later instead of blocking, so reads keep being served meanwhile. Handlers write in
 * one immediate transaction, which fails before changing anything, so running one again is safe.
 * After `waitMs` the client gets 503 and nothing was written.
 */
function runWhenFree(res: HttpResponse, waitMs: number, run: () => void, fail: (err: unknown) => void) {
  const deadline = Date.now() + waitMs;
  let delay = 10;
  const attempt = () => {
    if (res.destroyed) return; // the client gave up
    try {
      run();
    } catch (err) {
      if (!isBusy(err)) return fail(err);
      if (Date.now() + delay > deadline) return fail(calendarBusy());
      setTimeout(attempt, delay);
      delay = Math.min(delay * 2, 250);
    }
  };
  attempt();
}

/** Resolves when the client can take more, or has gone; leaves no listener behind either way. */
function drainedOrClosed(res: HttpResponse): Promise<void> {
  return new Promise((ok) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      ok();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Writes a streamed body chunk by chunk, waiting whenever the client is slower than the source. */
async function sendStream(res: HttpResponse, stream: NonNullable<ApiResponse['stream']>): Promise<void> {
  res.setHeader('Content-Type', stream.contentType);
  if (stream.filename) res.setHeader('Content-Disposition', `attachment; filename="${stream.filename}"`);
  const it = stream.chunks[Symbol.iterator]();
  try {
    for (let next = it.next(); !next.done; next = it.next()) {
      if (res.destroyed) return;
      if (!res.write(next.value)) await drainedOrClosed(res);
    }
    res.end();
  } finally {
    it.return?.(undefined); // closes the snapshot's read transaction even when the client left
  }
}

const headerText = (h: string | string[] | undefined) => (Array.isArray(h) ? h.join(',') : h);

function bodyObject(req: HttpRequest): Record<string, unknown> {
  const b: unknown = req.body;
  if (b === undefined || b === null) return {};
  if (typeof b !== 'object' || Array.isArray(b)) throw new ApiError('rest_invalid_json', 400, 'rest_invalid_json');
  return b as Record<string, unknown>;
}

function applyDefaults(endpoint: Endpoint, values: Record<string, unknown>) {
  if (endpoint.body) return;
  for (const [name, d] of Object.entries(endpoint.args)) {
    if (values[name] === undefined && d.default !== undefined && name !== 'per_page') values[name] = d.default;
  }
}

export function sendError(res: HttpResponse, err: unknown, lang: Language): void {
  if (res.headersSent) return;
  const apiErr = err instanceof ApiError ? err : toApiError(err);
  res.statusCode = apiErr.status;
  sendJson(res, JSON.stringify(errorBody(apiErr, lang)));
}

/**
 * Answers with JSON text, as Express's `res.json` would answer with the value it came from: a GET
 * the client already holds (`If-None-Match: *`) gets 304, and 204 and 304 carry no body.
 */
export function sendJson(res: HttpResponse, json: string | Buffer | undefined): void {
  const req = res.req;
  const read = req.method === 'GET' || req.method === 'HEAD';
  const ok = (res.statusCode >= 200 && res.statusCode < 300) || res.statusCode === 304;
  if (read && ok && (req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined)) {
    if (fresh(req.headers, { etag: res.getHeader('ETag'), 'last-modified': res.getHeader('Last-Modified') })) res.statusCode = 304;
  }
  if (json === undefined || res.statusCode === 204 || res.statusCode === 304) {
    res.removeHeader('Content-Type');
    res.removeHeader('Content-Length');
    res.removeHeader('Transfer-Encoding');
    res.end();
    return;
  }
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  // A short text goes out in one write with the headers; a long one is encoded once, into the
  // Buffer written (measuring its UTF-8 length and then encoding it on the way out walked it twice).
  const body = typeof json === 'string' && json.length >= 1000 ? Buffer.from(json, 'utf8') : json;
  res.setHeader('Content-Length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.length));
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

/** Errors from Express's body parsers and anything unexpected, as API errors. */
export function toApiError(err: unknown, limit = '1 MB'): ApiError {
  const e = err as { type?: string; status?: number; limit?: number };
  if (e?.type === 'entity.parse.failed') return new ApiError('rest_invalid_json', 400, 'rest_invalid_json');
  if (e?.type === 'entity.too.large') return new ApiError('rest_body_too_large', 413, 'rest_body_too_large', { limit });
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') {
    return new ApiError('rest_unsupported_media_type', 415, 'rest_unsupported_media_type');
  }
  if (e?.type === 'request.aborted') return new ApiError('rest_request_timeout', 408, 'rest_request_timeout');
  if (e?.type === 'parameters.too.many') return new ApiError('rest_body_too_large', 413, 'rest_body_too_large', { limit: '1 MB' });
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) return new ApiError('rest_invalid_json', 400, 'rest_invalid_json');
  return new ApiError('internal_error', 500, 'internal_error');
}
