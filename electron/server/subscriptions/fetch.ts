/**
 * Fetching a subscribed iCalendar feed over http(s), conditionally (RFC 9110 §13: If-None-Match
 * with the ETag, If-Modified-Since with the Last-Modified the server last gave), with every way a
 * feed could hold the server bounded: redirects (a few), time (headers to last byte) and size
 * (announced or counted while reading). A failure is a SubscriptionError the user reads in words.
 */
import { message, type MessageKey } from '../../../shared/i18n/messages';
import type { Language } from '../../../shared/i18n/languages';
import { feedHttpUrl } from '../../../shared/schema/subscriptions';
import { networkReason } from '../caldav/errors';
import { deadline, readBoundedText, sizeLabel } from '../net/bounded-read';

export const FEED_TIMEOUT_MS = 30_000;
/** Large enough for a decade of a country's holidays or a busy team's year; a feed is one request. */
export const MAX_FEED_BYTES = 16 * 1024 * 1024;
export const MAX_REDIRECTS = 5;
const USER_AGENT = 'Almanac (iCalendar subscription; +https://almanac.local)';

export type SubscriptionErrorKind = 'unreachable' | 'timeout' | 'http' | 'redirects' | 'not_ical' | 'web_page' | 'empty' | 'broken' | 'too_large' | 'too_many' | 'duplicate';

const KEYS: Record<SubscriptionErrorKind, MessageKey> = {
  unreachable: 'subscription_unreachable',
  timeout: 'subscription_timeout',
  http: 'subscription_http',
  redirects: 'subscription_redirects',
  not_ical: 'subscription_not_ical',
  web_page: 'subscription_web_page',
  empty: 'subscription_empty',
  duplicate: 'subscription_duplicate',
  broken: 'subscription_broken',
  too_large: 'subscription_too_large',
  too_many: 'subscription_too_many',
};

export class SubscriptionError extends Error {
  readonly messageKey: MessageKey;
  constructor(
    readonly kind: SubscriptionErrorKind,
    readonly vars: Record<string, string | number>,
  ) {
    super(message('en', KEYS[kind], vars));
    this.name = 'SubscriptionError';
    this.messageKey = KEYS[kind];
  }
  describe(lang: Language): string {
    return message(lang, this.messageKey, this.vars);
  }
}

export interface FeedRequest {
  /** As typed (webcal:// is read as https://). */
  url: string;
  etag?: string | null;
  lastModified?: string | null;
  timeoutMs?: number;
  maxBytes?: number;
  fetch?: typeof fetch;
}

export type FeedAnswer =
  | { status: 'unchanged' }
  | { status: 'ok'; text: string; etag: string | null; lastModified: string | null; contentType: string };

/** Fetches the feed; `unchanged` when the server answered 304 to the validators sent. */
export async function fetchFeed(req: FeedRequest): Promise<FeedAnswer> {
  const timeoutMs = req.timeoutMs ?? FEED_TIMEOUT_MS;
  const maxBytes = req.maxBytes ?? MAX_FEED_BYTES;
  const doFetch = req.fetch ?? fetch;
  // One deadline for the whole exchange, redirects and body included: a server trickling bytes
  // cannot hold a refresh any longer than one that never answers.
  const signal = deadline(timeoutMs);
  let url = new URL(feedHttpUrl(req.url));
  const headers: Record<string, string> = { 'User-Agent': USER_AGENT, Accept: 'text/calendar, text/plain;q=0.5, */*;q=0.1' };
  if (req.etag) headers['If-None-Match'] = req.etag;
  if (req.lastModified) headers['If-Modified-Since'] = req.lastModified;
  for (let hops = 0; ; hops++) {
    let res: Response;
    try {
      res = await doFetch(url, { headers, redirect: 'manual', signal });
    } catch (err) {
      throw networkFailure(err, url.host, timeoutMs);
    }
    if (res.status >= 300 && res.status < 400 && res.status !== 304) {
      const location = res.headers.get('location');
      void res.body?.cancel();
      if (!location) throw new SubscriptionError('http', { host: url.host, status: res.status });
      if (hops >= MAX_REDIRECTS) throw new SubscriptionError('redirects', { host: url.host, limit: MAX_REDIRECTS });
      const next = new URL(feedHttpUrl(new URL(location, url).href));
      if (next.protocol !== 'https:' && next.protocol !== 'http:') throw new SubscriptionError('http', { host: url.host, status: res.status });
      url = next;
      continue;
    }
    if (res.status === 304) {
      void res.body?.cancel();
      return { status: 'unchanged' };
    }
    if (res.status < 200 || res.status >= 300) {
      void res.body?.cancel();
      throw new SubscriptionError('http', { host: url.host, status: res.status });
    }
    const text = await readBounded(res, maxBytes, url.host, timeoutMs);
    return { status: 'ok', text, etag: res.headers.get('etag'), lastModified: res.headers.get('last-modified'), contentType: res.headers.get('content-type') ?? '' };
  }
}

async function readBounded(res: Response, max: number, host: string, timeoutMs: number): Promise<string> {
  let text: string;
  try {
    text = await readBoundedText(res, { maxBytes: max, tooLarge: () => new SubscriptionError('too_large', { limit: sizeLabel(max) }) });
  } catch (err) {
    if (err instanceof SubscriptionError) throw err;
    throw networkFailure(err, host, timeoutMs);
  }
  // RFC 5545 §3.1.4: UTF-8; a byte-order mark some producers write is not part of the text.
  return text.replace(/^\uFEFF/, '');
}

function networkFailure(err: unknown, host: string, timeoutMs: number): SubscriptionError {
  const name = (err as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return new SubscriptionError('timeout', { host, seconds: Math.round(timeoutMs / 1000) });
  const reason = networkReason(err);
  return new SubscriptionError('unreachable', { host, reason });
}
