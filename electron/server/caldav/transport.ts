/**
 * The one `fetch` every CalDAV request of an account goes through (tsdav takes it as its `fetch`
 * override). It adds what tsdav gets wrong or leaves out:
 *
 * - Basic auth encoded as UTF-8 (RFC 7617). tsdav's own helper throws on any character outside
 *   Latin-1, so a password with "€" or "ł" could never log in.
 * - The password goes only where the user sent it: the origin they typed (scheme, host and port),
 *   or https on that same host when a well-known redirect names it. Anything else (another port
 *   over http, another host) gets no credentials, and a 401 from there is told as the redirect it
 *   is, not as a refused password.
 * - Every request has a time limit, and every answer a size limit, so a server that never answers
 *   or never stops answering cannot hold a sync (or the CLI) forever, nor fill the memory.
 * - A record of the answers seen, from which a failure is told in words (wrong password, not a
 *   CalDAV server, unreachable) rather than tsdav's "cannot find principalUrl".
 */
import { CalDavError, fromNetworkError } from './errors';
import { boundedResponse, deadline, sizeLabel } from '../net/bounded-read';

export interface Credentials {
  user: string;
  password: string;
}

export interface TransportOptions {
  /** Per request, headers to last byte (default 30 s). */
  timeoutMs?: number;
  /** Largest answer read (default 64 MiB: a home of hundreds of calendars, a multiget of 50 big events). */
  maxResponseBytes?: number;
  /** The underlying fetch (tests); defaults to Node's. */
  fetch?: typeof fetch;
  userAgent?: string;
  /** Aborts every request under way and to come (an account removed, the app quitting). */
  signal?: AbortSignal;
  /**
   * A multistatus answer listing more `<response>`s than this is cut off while it arrives, before
   * anything parses it (a calendar home listing 100,000 calendars). Unbounded by default.
   */
  maxResponses?: number;
}

export interface Transport {
  fetch: typeof fetch;
  /** HTTP statuses answered, in order (for telling a failure in words). */
  readonly statuses: number[];
  /** Set while the latest request got no answer at all (refused, timed out), told as a CalDavError. */
  networkError?: CalDavError;
  /** An answer cut off for being too large: the failure to report, whatever tsdav made of it. */
  tooLarge?: CalDavError;
  /** A 401 from an origin the password is not sent to (a redirect elsewhere): told as such. */
  untrusted?: CalDavError;
  readonly timeoutMs: number;
  /** Lets the password go to this origin too (a redirect target the user's server named). */
  trust(origin: string): void;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
const USER_AGENT = 'Almanac (CalDAV; +https://almanac.local)';

export function basicAuth({ user, password }: Credentials): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}

export function createTransport(typedUrl: string, credentials: Credentials, opts: TransportOptions = {}): Transport {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const base = opts.fetch ?? fetch;
  const typed = new URL(typedUrl);
  const trusted = new Set([typed.origin]);
  const authorization = basicAuth(credentials);
  const transport: Transport = {
    statuses: [],
    networkError: undefined,
    timeoutMs,
    trust(origin: string) {
      const u = new URL(origin);
      // The same host over https is the user's server, better protected; another port over http
      // may be anyone on that machine, another host anyone at all.
      if (u.protocol === 'https:' && u.hostname === typed.hostname) trusted.add(u.origin);
    },
    fetch: async (input, init = {}) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      const headers = new Headers(init.headers);
      headers.delete('authorization');
      if (trusted.has(url.origin)) headers.set('Authorization', authorization);
      if (!headers.has('user-agent')) headers.set('User-Agent', opts.userAgent ?? USER_AGENT);
      const signal = deadline(timeoutMs, init.signal, opts.signal);
      let res: Response;
      try {
        res = await base(url, { ...init, headers, signal });
      } catch (err) {
        transport.networkError = fromNetworkError(err, url.host, timeoutMs);
        throw err;
      }
      transport.networkError = undefined;
      transport.statuses.push(res.status);
      // fetch follows redirects itself and drops the password on the way to another origin.
      const answered = new URL(res.url || url.href);
      if (res.status === 401 && !trusted.has(answered.origin)) {
        transport.untrusted = new CalDavError('redirected', { host: typed.host, target: answered.origin }, 401);
      }
      if (res.status >= 300 && res.status < 400) {
        const location = res.headers.get('location');
        // A well-known redirect names where the service really is (often another host).
        if (location && url.pathname.startsWith('/.well-known/')) transport.trust(new URL(location, url).origin);
      }
      const tooLarge = () => {
        transport.tooLarge = new CalDavError('too_large', { host: url.host, limit: sizeLabel(maxBytes) }, res.status);
        return transport.tooLarge;
      };
      return boundedResponse(res, { maxBytes, tooLarge }, opts.maxResponses === undefined ? undefined : responseCounter(opts.maxResponses));
    },
  };
  return transport;
}

/**
 * Counts `<response` / `<x:response` opening tags across chunks (a tag may straddle two); the
 * error to end the answer with once more than `limit` were seen. Linear in the bytes, nothing kept
 * but a short tail.
 */
function responseCounter(limit: number): (chunk: Uint8Array) => CalDavError | undefined {
  const decoder = new TextDecoder();
  const tag = /<(?:[A-Za-z_][\w.-]*:)?response[\s>/]/g;
  let tail = '';
  let count = 0;
  return (chunk) => {
    const text = tail + decoder.decode(chunk, { stream: true });
    tag.lastIndex = 0;
    let last = 0;
    for (let m = tag.exec(text); m; m = tag.exec(text)) {
      count++;
      last = m.index + m[0].length;
    }
    // Keep what could be the start of a tag cut by the chunk's end.
    tail = text.slice(Math.max(last, text.length - 40));
    return count > limit ? new CalDavError('too_many_calendars', { limit: limit.toLocaleString('en') }) : undefined;
  };
}
