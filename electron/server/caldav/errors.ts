/**
 * What went wrong talking to a CalDAV server, as a kind a program can branch on (retry later,
 * ask for the password again, fix the address) and a message key the user reads in their
 * language. Messages never carry the password, nor the Authorization header it travels in.
 */
import { isMessageKey, message, type MessageKey } from '../../../shared/i18n/messages';
import type { Language } from '../../../shared/i18n/languages';

export type CalDavErrorKind =
  | 'bad_url'
  | 'unauthorized'
  | 'forbidden'
  | 'unreachable'
  | 'timeout'
  | 'tls'
  | 'not_caldav'
  | 'server_error'
  | 'too_large'
  | 'redirected'
  | 'too_many_calendars'
  | 'foreign_calendar';

const KEYS: Record<CalDavErrorKind, MessageKey> = {
  bad_url: 'caldav_bad_url',
  unauthorized: 'caldav_unauthorized',
  forbidden: 'caldav_forbidden',
  unreachable: 'caldav_unreachable',
  timeout: 'caldav_timeout',
  tls: 'caldav_tls',
  not_caldav: 'caldav_not_caldav',
  server_error: 'caldav_server_error',
  too_large: 'caldav_too_large',
  redirected: 'caldav_redirected',
  too_many_calendars: 'caldav_too_many_calendars',
  foreign_calendar: 'caldav_foreign_calendar',
};

export class CalDavError extends Error {
  readonly messageKey: MessageKey;
  constructor(
    readonly kind: CalDavErrorKind,
    readonly vars: Record<string, string | number>,
    /** The HTTP status behind it, when there was an answer. */
    readonly status?: number,
  ) {
    super(message('en', KEYS[kind], vars));
    this.name = 'CalDavError';
    this.messageKey = KEYS[kind];
  }
  /**
   * True when trying again later may work (the network, the server; a redirect elsewhere, which
   * servers undo), false when the user must act.
   */
  get transient(): boolean {
    return this.kind === 'unreachable' || this.kind === 'timeout' || this.kind === 'server_error' || this.kind === 'redirected';
  }
  describe(lang: Language): string {
    return message(lang, this.messageKey, this.vars);
  }
}

/** Node's network error codes in words (the `reason` of an unreachable server). */
const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused: nothing answers on that port',
  ENOTFOUND: 'no such host name',
  EAI_AGAIN: 'the host name could not be looked up',
  ECONNRESET: 'the connection was cut',
  EHOSTUNREACH: 'no route to the host',
  ENETUNREACH: 'the network is unreachable',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the connection was cut',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
};

/** Certificate problems in words: a self-hosted server with a self-made certificate is the common one. */
const TLS_REASONS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its certificate is self-signed, so who answers cannot be checked',
  SELF_SIGNED_CERT_IN_CHAIN: 'its certificate comes from an authority this computer does not know',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its certificate cannot be checked',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its certificate comes from an authority this computer does not know',
  CERT_HAS_EXPIRED: 'its certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its certificate is for another name',
  ERR_SSL_WRONG_VERSION_NUMBER: 'it does not speak https on that port; try http://',
};

const TLS_CODES = /^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|EPROTO$|ERR_SSL_WRONG_VERSION_NUMBER)/;

/** The code of a failed fetch (undici wraps the socket's error in `cause`, sometimes twice). */
function networkCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Why a request got no HTTP answer, in words with Node's code: "no such host name, ENOTFOUND". */
export function networkReason(err: unknown): string {
  const code = networkCode(err);
  return code ? `${NETWORK_REASONS[code] ?? 'network error'}, ${code}` : String((err as Error)?.message ?? err);
}

/**
 * Why a request got no HTTP answer at all, for every client that talks to a server (CalDAV, a
 * website): out of time, a certificate this computer cannot trust (told as such, not as
 * "unreachable": the user can act on it), or the network, with the reason in words.
 */
export function classifyNetworkError(err: unknown): { kind: 'timeout' } | { kind: 'tls' | 'unreachable'; reason: string } {
  const name = (err as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return { kind: 'timeout' };
  const code = networkCode(err);
  if (code && TLS_CODES.test(code)) return { kind: 'tls', reason: TLS_REASONS[code] ? `${TLS_REASONS[code]}, ${code}` : code };
  return { kind: 'unreachable', reason: networkReason(err) };
}

/** A failed request (no HTTP answer at all) as a CalDavError. */
export function fromNetworkError(err: unknown, host: string, timeoutMs: number): CalDavError {
  if (err instanceof CalDavError) return err;
  const failure = classifyNetworkError(err);
  if (failure.kind === 'timeout') return new CalDavError('timeout', { host, seconds: Math.round(timeoutMs / 1000) });
  return new CalDavError(failure.kind, { host, reason: failure.reason });
}

/**
 * How a sync error is kept in the database (accounts' and calendars' `last_error`): its message
 * key and values, so `GET /sync` and the CLI can word it in the reader's language. Errors that
 * have no key (a bug, a store failure) are kept as their English text.
 */
interface StoredError {
  key: MessageKey;
  vars?: Record<string, string | number>;
  /** Per calendar, when the account failed only through some of its calendars. */
  parts?: Array<{ name: string; error: string }>;
}

/**
 * A keyed error (an Error with `messageKey` and `vars`, or `{key, vars}`) as stored text (JSON);
 * anything else in Almanac's words with a short sanitized excerpt of its message (which may be a
 * library's, quoting whatever the server sent).
 */
export function storedError(err: unknown): string {
  // Any error of Almanac's telling (CalDAV's, a website's, the API's): its key and values.
  const keyed = err as { messageKey?: unknown; key?: unknown; vars?: Record<string, string | number> } | null;
  const key = typeof keyed?.messageKey === 'string' ? keyed.messageKey : typeof keyed?.key === 'string' ? keyed.key : undefined;
  if (key !== undefined && isMessageKey(key)) return JSON.stringify({ key, vars: keyed!.vars ?? {} } satisfies StoredError);
  const text = err instanceof Error ? err.message : String(err);
  return JSON.stringify({ key: 'sync_failed', vars: { reason: excerpt(text) } } satisfies StoredError);
}

/**
 * At most `max` characters of text a server may have written, safe to store, show and log: no
 * control characters or line breaks (which would forge log lines), nothing shaped like an HTTP
 * header or a credential (an error page echoing the request's `Authorization: Basic …`), and
 * nothing after the words "Raw response" (a library quoting the server's whole answer).
 */
export function excerpt(text: string, max = 120): string {
  let t = String(text);
  const raw = t.search(/raw response/i);
  if (raw >= 0) t = t.slice(0, raw);
  t = t
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    // Header-shaped text (`Name: value`) of the headers that carry secrets, to the end.
    .replace(/\b(?:proxy-|www-)?(?:authorization|authenticate|cookie|set-cookie|x-[\w-]*(?:token|key|auth)[\w-]*)\s*[:=].*$/i, '…')
    .replace(/\b(?:basic|bearer|digest|negotiate|token)\s+[\w+/=.~-]{4,}/gi, '…')
    // Anything that looks like an encoded secret (mixed case and digits, as base64 is).
    .replace(/[A-Za-z0-9+/_-]{20,}={0,2}/g, (m) => (/[A-Z]/.test(m) && /[a-z]/.test(m) && /[0-9]/.test(m) ? '…' : m))
    .replace(/\s+/g, ' ')
    .trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** The account failed through these calendars (each error as stored). */
export function storedCalendarErrors(parts: Array<{ name: string; error: string }>): string {
  return JSON.stringify({ key: 'sync_calendar_errors', parts } satisfies StoredError);
}

/** A stored error in words, in `lang`; null stays null, plain text stays as it was written. */
export function errorText(stored: string | null, lang: Language): string | null {
  // Plain text stored by an older version may quote a server: shown only as an excerpt.
  if (stored === null) return stored;
  if (!stored.startsWith('{')) return excerpt(stored, 300);
  let parsed: StoredError;
  try {
    parsed = JSON.parse(stored) as StoredError;
  } catch {
    return excerpt(stored, 300);
  }
  if (Array.isArray(parsed.parts)) return `${message(lang, 'sync_calendar_errors', {})} ${parsed.parts.map((p) => `${excerpt(p.name, 200)}: ${errorText(p.error, lang)}`).join('; ')}`;
  if (typeof parsed.key !== 'string' || !isMessageKey(parsed.key)) return excerpt(stored, 300);
  return message(lang, parsed.key, parsed.vars ?? {});
}

/** A sync failure of Almanac's own telling (no password kept, a calendar gone), worded by key. */
export class SyncProblem extends Error {
  constructor(
    readonly key: MessageKey,
    readonly vars: Record<string, string | number> = {},
  ) {
    super(message('en', key, vars));
    this.name = 'SyncProblem';
  }
}
