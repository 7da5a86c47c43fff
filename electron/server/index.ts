/**
 * Almanac's server: the cal/events/v1 API and the calendar UI over one SQLite file. Plain Node: the
 * Electron main process, the headless CLI and the tests all start it through `createServer`.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { openDatabase, openReader, closeDatabase, type DB } from './store/db';
import { createStore, type Store } from './store';
import { createApp, type Logger } from './app';
import { Auth } from './http/security';
import { errorBody } from './http/dispatch';
import { ApiError } from './errors';
import { DEFAULT_LANGUAGE } from '../../shared/i18n/languages';
import { createImportJobs } from './import-export/import-jobs';
import { DB_FILE, ensureDataDir, resolveToken, writeDiscovery, removeDiscovery } from './data-dir';
import { createFileSecretStore, type SecretStore } from './secrets';
import { createReminderService, type ReminderService } from './reminders/service';
import { createSyncService, type SyncService } from './caldav/service';
import type { SiteHttpOptions } from './sites/http';
import { createSubscriptionService, type SubscriptionService } from './subscriptions/service';

export type { Logger, LogLevel } from './app';

export interface ServerOptions {
  /** Folder holding the database, the token file and the discovery file. */
  dataDir?: string;
  /** The database file, when there is no data directory (tests). */
  dbPath?: string;
  /** The API token; by default the one in the data directory (created on first start). */
  token?: string;
  publicRead?: boolean;
  /** The name `wp/v2/users/me` gives the owner; the system user's by default. */
  ownerName?: string;
  /** Interface to listen on; loopback unless told otherwise. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** When `port` is taken, listen on a free one instead of failing. */
  fallbackToFreePort?: boolean;
  /** Built renderer folder; defaults to `out/renderer` of this checkout when it exists. */
  rendererDir?: string;
  log?: Logger;
  /** Path of a better-sqlite3 addon for another runtime (the Electron app's). */
  nativeBinding?: string;
  /** The clock, for tests. */
  now?: () => Date;
  /** Write the discovery file for scripts (default true; a CLI's private server does not). */
  announce?: boolean;
  /** How long slow or stalled clients may hold a connection (ms); tests pass small ones. */
  timeouts?: Partial<ServerTimeouts>;
  /**
   * Where account passwords are kept: the desktop app passes its OS-keychain store; by default
   * an owner-only file in the data directory (never the database).
   */
  secrets?: SecretStore;
  /**
   * Fire reminders on a timer (default). Tests with a controlled clock turn it off and call
   * `reminders.tick()` after moving the clock.
   */
  reminderTimer?: boolean;
  /**
   * CalDAV sync in the background: between rounds (default 15 min; 0: only when asked, as tests
   * and a CLI's private server do), and after a local change (debounce, default 5 s; 0: never).
   */
  syncIntervalMs?: number;
  syncDebounceMs?: number;
  /** iCalendar subscriptions' background refresh: between refreshes (default 6 h; 0: only when asked). */
  subscriptionRefreshMs?: number;
  /** Websites' HTTP limits (timeouts, answer size) and fetch: tests pass small ones. */
  siteHttp?: SiteHttpOptions;
}

export interface ServerTimeouts {
  /** To receive a request's headers. */
  headers: number;
  /** To receive a whole request, body included. */
  request: number;
  /** An idle keep-alive connection between requests. */
  keepAlive: number;
  /** How often the headers and request limits are checked (Node's default is 30 s). */
  checkInterval: number;
  /**
   * A connection on which nothing moves, either way: a client that stopped reading an export
   * would otherwise hold its read snapshot, and the write-ahead log could never be folded back.
   */
  idle: number;
  /**
   * How long a request waits for another process to release the calendar's write lock (a CLI
   * import on the same file) before it is answered 503 with nothing written.
   */
  busyWait: number;
}

export const DEFAULT_TIMEOUTS: ServerTimeouts = { headers: 10_000, request: 30_000, keepAlive: 5_000, checkInterval: 1_000, idle: 120_000, busyWait: 30_000 };

export interface AlmanacServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** `http://127.0.0.1:PORT/cal/events/v1/` */
  apiRoot: string;
  /** Opening it in a browser signs that browser in. Contains the token: show it only to the owner. */
  loginUrl: string;
  port: number;
  host: string;
  token: string;
  tokenFile?: string;
  dataDir?: string;
  dbPath: string;
  store: Store;
  db: DB;
  /** Account passwords (undefined for a server without a data directory and none given). */
  secrets?: SecretStore;
  /** Reminders' firing and push channel (issue 16). */
  reminders: ReminderService;
  /** CalDAV sync of the accounts (issue 17). */
  sync: SyncService;
  /** Read-only iCalendar subscriptions (issue 17 item 7). */
  subscriptions: SubscriptionService;
  close(): Promise<void>;
}

export { DEFAULT_PORT } from './data-dir';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

export const consoleLogger: Logger = (level, line) => {
  const text = `${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} ${line}\n`;
  (level === 'info' ? process.stdout : process.stderr).write(text);
};

export const silentLogger: Logger = () => {};

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolveListen, reject) => {
    const onError = (err: Error) => {
      server.off('listening', onListening);
      reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolveListen();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

const SERIES_EXTENSION_INTERVAL_MS = 6 * 3600_000;
/**
 * One background extension step: a request arriving meanwhile waits for it, so it stops after
 * about 10 ms of rows (a daily series' 640 remaining rows in one step held the next request for
 * 50 ms and more), and a row bound keeps one transaction small on any machine.
 */
const BACKGROUND_BATCH_ROWS = 1000;
const BACKGROUND_STEP_MS = 10;

export async function createServer(opts: ServerOptions = {}): Promise<AlmanacServer> {
  const host = opts.host ?? '127.0.0.1';
  const log = opts.log ?? consoleLogger;
  let dbPath: string;
  let token: string;
  let tokenFile: string | undefined;
  if (opts.dataDir) {
    ensureDataDir(opts.dataDir);
    dbPath = join(opts.dataDir, DB_FILE);
    const t = resolveToken(opts.dataDir, opts.token);
    token = t.token;
    tokenFile = t.file;
  } else if (opts.dbPath) {
    dbPath = opts.dbPath;
    token = opts.token ?? randomBytes(32).toString('base64url');
  } else {
    throw new Error('createServer needs a dataDir or a dbPath');
  }

  // The server never waits long on another process's write lock: waiting blocks every request,
  // reads included. A busy write is tried again later instead (http/dispatch.ts runWhenFree).
  const db = openDatabase(dbPath, { nativeBinding: opts.nativeBinding, busyTimeoutMs: 100 });
  const store = createStore(db);
  const timeouts = { ...DEFAULT_TIMEOUTS, ...opts.timeouts };
  const httpServer = createHttpServer({ connectionsCheckingInterval: timeouts.checkInterval });
  try {
    try {
      await listen(httpServer, opts.port ?? 0, host);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || !opts.fallbackToFreePort) throw err;
      log('warn', `Port ${opts.port} is in use; listening on a free port instead.`);
      await listen(httpServer, 0, host);
    }
  } catch (err) {
    closeDatabase(db);
    throw err;
  }
  const port = (httpServer.address() as AddressInfo).port;
  const urlHost = host === '::1' ? '[::1]' : host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const url = `http://${urlHost}:${port}`;

  const auth = new Auth(token, `almanac_session_${port}`);
  const now = opts.now ?? (() => new Date());
  const reminders = createReminderService({ store, now, log, apiRoot: () => `${url}/cal/events/v1/`, timer: opts.reminderTimer });
  const secrets = opts.secrets ?? (opts.dataDir ? createFileSecretStore(opts.dataDir) : undefined);
  const sync = createSyncService({
    store,
    secrets,
    url: () => ({ origin: url, apiRoot: `${url}/cal/events/v1/`, settings: store.settings.get() }),
    write: () => ({ lang: DEFAULT_LANGUAGE, now: now(), siteZone: store.settings.get().timezone }),
    intervalMs: opts.syncIntervalMs,
    debounceMs: opts.syncDebounceMs,
    log: (level, line) => log(level, line),
    siteHttp: opts.siteHttp,
  });
  const subscriptions = createSubscriptionService({
    store,
    write: () => ({ lang: DEFAULT_LANGUAGE, now: now(), siteZone: store.settings.get().timezone }),
    intervalMs: opts.subscriptionRefreshMs,
    log: (level, line) => log(level, line),
  });
  const imports = createImportJobs({
    dbPath,
    nativeBinding: opts.nativeBinding,
    onCrash: (message) => log('error', `an import thread failed: ${message}`),
    // An import thread writes a series' first rows only; the rest follows here, as after a create.
    onImported: () => setImmediate(extendSeries),
  });
  const app = createApp({
    store,
    auth,
    publicRead: !!opts.publicRead,
    ownerName: opts.ownerName,
    rendererDir: opts.rendererDir ?? resolve(import.meta.dirname, '../../out/renderer'),
    extraHosts: LOOPBACK.has(host) ? [] : [host.toLowerCase()],
    log,
    now,
    reminders,
    sync,
    subscriptions,
    openReader: () => {
      const reader = openReader(dbPath, { nativeBinding: opts.nativeBinding });
      return { store: createStore(reader), close: () => reader.close() };
    },
    imports,
    busyWaitMs: timeouts.busyWait,
  });
  httpServer.on('request', app);
  // Slow or stalled clients must not hold connections open forever.
  httpServer.headersTimeout = timeouts.headers;
  httpServer.requestTimeout = timeouts.request;
  httpServer.keepAliveTimeout = timeouts.keepAlive;
  httpServer.timeout = timeouts.idle;
  httpServer.on('clientError', answerUnparsable);

  const apiRoot = `${url}/cal/events/v1/`;
  const announce = !!opts.dataDir && opts.announce !== false;
  if (announce) writeDiscovery(opts.dataDir!, { pid: process.pid, port, url, apiRoot, startedAt: new Date().toISOString() });

  // Repeating events keep occurrence rows up to the horizon: extended at start and every few
  // hours, one bounded transaction at a time with requests answered between them (store/series-horizon.ts).
  let closing: Promise<void> | undefined;
  let extending = false;
  const extendSeries = () => {
    if (extending) return;
    extending = true;
    const step = () => {
      let more = false;
      try {
        more = !closing && store.series.extendHorizonBatch(store.write, BACKGROUND_BATCH_ROWS, BACKGROUND_STEP_MS);
      } catch (err) {
        log('warn', `repeating events could not be extended now (${(err as Error).message}); trying again later`);
      }
      if (more) setImmediate(step);
      else extending = false;
    };
    step();
  };
  const firstExtension = setTimeout(extendSeries, 1000);
  // A series created with its first months of rows: the rest follows at once, off the request.
  store.series.onLagging(() => setImmediate(extendSeries));
  const laterExtensions = setInterval(extendSeries, SERIES_EXTENSION_INTERVAL_MS);
  firstExtension.unref();
  laterExtensions.unref();
  sync.start();
  subscriptions.start();

  return {
    url,
    apiRoot,
    loginUrl: `${url}/?token=${encodeURIComponent(token)}`,
    port,
    host,
    token,
    tokenFile,
    dataDir: opts.dataDir,
    dbPath,
    store,
    db,
    secrets,
    reminders,
    sync,
    subscriptions,
    close() {
      clearTimeout(firstExtension);
      const syncStopped = sync.close();
      const subscriptionsStopped = subscriptions.close();
      // Open streams would hold the server's close for as long as their clients stay.
      reminders.close();
      clearInterval(laterExtensions);
      closing ??= new Promise<void>((done) => {
        // A running import is cancelled (rolled back), not cut off mid-write.
        const importsStopped = imports.close();
        httpServer.close(async () => {
          await importsStopped;
          await syncStopped;
          await subscriptionsStopped;
          closeDatabase(db);
          if (announce) removeDiscovery(opts.dataDir!);
          done();
        });
        httpServer.closeIdleConnections();
        setTimeout(() => httpServer.closeAllConnections(), 2000).unref();
      });
      return closing;
    },
  };
}

/**
 * Requests Node's parser refuses before Express sees them (headers over 16 KB, bytes not allowed in
 * a URL, a request too slow to arrive) get the API's JSON error too, not a bare status line.
 */
function answerUnparsable(err: Error & { code?: string }, socket: import('node:stream').Duplex): void {
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, reason, error] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', new ApiError('rest_headers_too_large', 431, 'rest_headers_too_large')]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', new ApiError('rest_request_timeout', 408, 'rest_request_timeout')]
        : [400, 'Bad Request', new ApiError('rest_bad_request', 400, 'rest_bad_request')];
  const body = JSON.stringify(errorBody(error, DEFAULT_LANGUAGE));
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
