/**
 * Localhost is not a security boundary: any web page the user opens can send requests to
 * 127.0.0.1, and DNS rebinding can make a foreign name resolve there. So every request must name a
 * loopback host, must not come from another origin, and must carry the API token (or the session
 * cookie the login URL set). There is no CORS: no other origin is ever allowed.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { ApiError } from '../errors';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** `127.0.0.1:4780` → `127.0.0.1`; `[::1]:80` → `[::1]`. */
export function hostName(hostHeader: string | undefined): string | undefined {
  if (!hostHeader) return undefined;
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(hostHeader.trim().toLowerCase());
  return m ? m[1] : undefined;
}

/** `http://127.0.0.1:4780`: where the request was sent, as a browser names its origin. */
export function originOf(req: IncomingMessage): string {
  return `${(req.socket as TLSSocket).encrypted ? 'https' : 'http'}://${req.headers.host}`;
}

export function checkHost(req: IncomingMessage, extraHosts: string[]): ApiError | undefined {
  const name = hostName(req.headers.host);
  if (name && (LOOPBACK_HOSTS.has(name) || extraHosts.includes(name))) return undefined;
  return new ApiError('rest_forbidden', 403, 'rest_bad_host');
}

/** A browser sends `Origin` on cross-origin requests and on same-origin writes; only our own passes. */
export function checkOrigin(req: IncomingMessage): ApiError | undefined {
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  if (origin !== undefined && origin !== originOf(req)) return new ApiError('rest_forbidden', 403, 'rest_bad_origin');
  if (site === 'cross-site' || (site === 'same-site' && req.method !== 'GET' && req.method !== 'HEAD')) {
    return new ApiError('rest_forbidden', 403, 'rest_bad_origin');
  }
  return undefined;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class Auth {
  /** The cookie proves the browser once presented the token, without holding the token itself. */
  readonly cookieValue: string;

  constructor(
    private readonly token: string,
    readonly cookieName: string,
  ) {
    this.cookieValue = createHmac('sha256', token).update('almanac-session-v1').digest('base64url');
  }

  tokenMatches(candidate: unknown): boolean {
    return typeof candidate === 'string' && sameSecret(candidate, this.token);
  }

  /**
   * True when the request carries the token (as `Bearer`, or as the password of HTTP Basic, the way
   * WordPress takes an application password) or a valid session cookie.
   */
  authenticated(req: IncomingMessage): boolean {
    const header = req.headers.authorization;
    if (header) return this.tokenMatches(presentedSecret(header));
    const cookie = readCookie(req.headers.cookie, this.cookieName);
    return cookie !== undefined && sameSecret(cookie, this.cookieValue);
  }

  setCookieHeader(): string {
    return `${this.cookieName}=${this.cookieValue}; HttpOnly; SameSite=Strict; Path=/`;
  }
}

/**
 * The secret an `Authorization` header presents: the token of `Bearer <token>`, or the password of
 * `Basic base64(user:password)`, whatever the user name (Almanac has one user, its owner, and a
 * WordPress client must send some name). Undefined for anything else.
 */
function presentedSecret(header: string): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (bearer) return bearer[1];
  const basic = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!basic) return undefined;
  const pair = Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = pair.indexOf(':');
  return colon < 0 ? undefined : pair.slice(colon + 1);
}

/** `basic` when the header is HTTP Basic: a wrong one is refused as WordPress refuses a wrong application password. */
export function authScheme(req: IncomingMessage): 'basic' | 'other' | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  return /^Basic\s/i.test(header) ? 'basic' : 'other';
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/**
 * The request line for logs, with a login token in the query blanked out, however its name is
 * spelled (`%74oken=` is read as `token=` too).
 */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq < 0) return part;
      let name = part.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // a broken escape: judged as written
      }
      return /token/i.test(name) ? `${part.slice(0, eq + 1)}[redacted]` : part;
    });
  // And `?token=` anywhere after the first `?` (`/?a=1?token=…`), as before.
  return `${url.slice(0, q + 1)}${query.join('&')}`.replace(/([?&]token=)[^&]*/gi, '$1[redacted]');
}
