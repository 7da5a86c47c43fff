/**
 * The one `fetch` every CalDAV request of an account goes through (tsdav takes it as its `fetch`
 * override). It adds what tsdav gets wrong or leaves out:
 *
 * - Basic auth encoded as UTF-8 (RFC 7617). tsdav's own helper throws on any character outside
 *   Latin-1, so a password with "€" or "ł" could never log in.
 * - The password goes only where the user sent it: the origin they typed, or an https origin the
 *   server's well-known redirect named. An href pointing elsewhere gets no credentials.
 * - Every request has a time limit, and every answer a size limit, so a server that never answers
 *   or never stops answering cannot hold a sync (or the CLI) forever, nor fill the memory.
 * - A record of the answers seen, from which a failure is told in words (wrong password, not a
 *   CalDAV server, unreachable) rather than tsdav's "cannot find principalUrl".
 */
import { CalDavError, fromNetworkError } from './errors';

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
}

export interface Transport {
  fetch: typeof fetch;
  /** HTTP statuses answered, in order (for telling a failure in words). */
  readonly statuses: number[];
  /** Set while the latest request got no answer at all (refused, timed out), told as a CalDavError. */
  networkError?: CalDavError;
  /** An answer cut off for being too large: the failure to report, whatever tsdav made of it. */
  tooLarge?: CalDavError;
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
      // Never hand the password to a plain-http origin the user did not choose: another host, or
      // a downgrade of the https address they typed.
      if (u.protocol === 'https:' || (typed.protocol === 'http:' && u.hostname === typed.hostname)) trusted.add(u.origin);
    },
    fetch: async (input, init = {}) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      const headers = new Headers(init.headers);
      headers.delete('authorization');
      if (trusted.has(url.origin)) headers.set('Authorization', authorization);
      if (!headers.has('user-agent')) headers.set('User-Agent', opts.userAgent ?? USER_AGENT);
      const signal = init.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
      let res: Response;
      try {
        res = await base(url, { ...init, headers, signal });
      } catch (err) {
        transport.networkError = fromNetworkError(err, url.host, timeoutMs);
        throw err;
      }
      transport.networkError = undefined;
      transport.statuses.push(res.status);
      if (res.status >= 300 && res.status < 400) {
        const location = res.headers.get('location');
        // A well-known redirect names where the service really is (often another host).
        if (location && url.pathname.startsWith('/.well-known/')) transport.trust(new URL(location, url).origin);
      }
      return bounded(res, maxBytes, () => {
        transport.tooLarge = new CalDavError('too_large', { host: url.host, limit: sizeLabel(maxBytes) }, res.status);
        return transport.tooLarge;
      });
    },
  };
  return transport;
}

/** The same answer, failing once more than `max` bytes of body have come (or are announced). */
function bounded(res: Response, max: number, tooLarge: () => CalDavError): Response {
  if (!res.body) return res;
  const announced = Number(res.headers.get('content-length'));
  if (Number.isFinite(announced) && announced > max) {
    void res.body.cancel();
    throw tooLarge();
  }
  let seen = 0;
  const limited = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > max) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
  const out = new Response(limited, { status: res.status, statusText: res.statusText, headers: res.headers });
  // tsdav reports some failures with the response's URL, which a new Response does not have.
  Object.defineProperty(out, 'url', { value: res.url });
  return out;
}

function sizeLabel(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}
