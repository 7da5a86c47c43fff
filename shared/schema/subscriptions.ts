/**
 * Read-only iCalendar subscriptions (issue 17 item 7): what `POST /subscriptions` takes, declared
 * once for the server's validation, `/doc`, the CLI and the renderer's "Subscribe to calendar"
 * form.
 */
import * as k from './kinds';
import type { Kind } from './kinds';
import type { ParamSet } from './queries';

const FEED_SCHEMES = new Set(['webcal:', 'webcals:', 'https:', 'http:']);

/** Longest feed address taken (a URL with a long private token still fits). */
export const MAX_FEED_URL = 2048;

/**
 * The address a feed is fetched from: `webcal://` (and `webcals://`) is how calendar sites link
 * feeds for a calendar app to pick up; it means https (RFC 5545 has no scheme of its own).
 */
export function feedHttpUrl(typed: string): string {
  const s = typed.trim();
  return s.replace(/^webcals?:\/\//i, 'https://');
}

/** A feed's address: webcal://, webcals://, https:// or http://. */
export const feedUrl = (): Kind<string> => ({
  parse: (v, ctx) => {
    if (typeof v !== 'string' || v.trim() === '') {
      ctx.addIssue('invalid_feed_url');
      return undefined as never;
    }
    const s = v.trim();
    if (s.length > MAX_FEED_URL || !k.isAbsoluteUrl(s, FEED_SCHEMES)) {
      ctx.addIssue('invalid_feed_url');
      return undefined as never;
    }
    return s;
  },
  openapi: { type: 'string', format: 'uri (webcal://, https:// or http://)' },
  input: 'url',
});

export const subscriptionFields: ParamSet = {
  url: { kind: feedUrl(), description: 'The iCalendar feed: webcal:// (read as https://), https:// or http://.', required: true },
  name: { kind: k.text({ nonEmpty: true, max: 200 }), description: "The calendar's name; default: the feed's own (X-WR-CALNAME), else its host." },
  color: { kind: k.color(), description: 'Colour of its events, #rrggbb; default none.' },
};
