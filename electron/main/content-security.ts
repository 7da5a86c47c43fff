/**
 * The Content-Security-Policy of the app's pages, sent as a response header on everything the
 * embedded server answers in the window's session. Scripts come only from the server itself (the
 * built renderer has no inline script and no eval), API calls go only to it, styles may be inline
 * (React sets `style` attributes), images may also be the event images users link to (http, https,
 * file) or data URLs (the favicon). Nothing can be framed, embedded, or used as a base URL.
 */

export function contentSecurityPolicy(serverOrigin: string): string {
  return [
    "default-src 'self'",
    `connect-src ${serverOrigin}`,
    // Event images are stored as the URLs users give (the API takes http, https and file).
    "img-src 'self' data: https: http: file:",
    "style-src 'self' 'unsafe-inline'",
    "script-src 'self'",
    "font-src 'self' data:",
    "object-src 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

import { originOf } from './navigation';

type Headers = Record<string, string | string[]>;

/**
 * The response headers with the app's policy added. A policy the server sent stays: a browser
 * enforces every policy it gets, so adding one can only narrow what the page may do.
 */
export function withContentSecurityPolicy(headers: Headers | undefined, policy: string): Headers {
  const out: Headers = { ...headers };
  const name = Object.keys(out).find((n) => n.toLowerCase() === 'content-security-policy') ?? 'Content-Security-Policy';
  const existing = out[name];
  out[name] = existing === undefined ? [policy] : [...(Array.isArray(existing) ? existing : [existing]), policy];
  return out;
}

/** What of `session.webRequest` the policy needs. */
export interface HeadersSession {
  webRequest: {
    onHeadersReceived(
      listener: (details: { url: string; responseHeaders?: Record<string, string | string[]> }, callback: (response: { responseHeaders?: Record<string, string | string[]> }) => void) => void,
    ): void;
  };
}

/**
 * Adds the policy to every response from the server's origin loaded in this session. The origin is
 * compared in the listener rather than through a URL filter, so a port in the pattern is never a
 * question; other responses pass unchanged (the window loads none).
 */
export function installContentSecurityPolicy(session: HeadersSession, serverOrigin: string): string {
  const policy = contentSecurityPolicy(serverOrigin);
  session.webRequest.onHeadersReceived((details, callback) => {
    if (originOf(details.url) !== serverOrigin) return callback({});
    callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders, policy) });
  });
  return policy;
}
