/**
 * What a site's sync round shares (push.ts, pull.ts, local.ts): the site, its HTTP client, the
 * report, and the reading of answers (a status the round cannot go on with becomes a SiteError).
 */
import type { Store } from '../store';
import type { SiteRow } from '../store/sites';
import type { WriteContext } from '../store/post-fields';
import type { UrlContext } from '../serialize/context';
import type { SiteHttp, SiteAnswer } from './http';
import type { SiteCapabilities } from './discovery';
import { SiteError } from './errors';

export interface SiteReport {
  siteId: number;
  site: string;
  ok: boolean;
  sent: { created: number; updated: number; deleted: number };
  received: { changed: number; deleted: number };
  conflicts: number;
  merged: number;
  /** Changes waiting to be sent after the round. */
  pending: number;
  /** Requests the round sent (push and pull). */
  requests: number;
  /** Of which the push's. */
  pushRequests: number;
  /** Records the site gave that could not be stored here, in words. */
  problems: string[];
  /** Changes this round sent that the site refused (they wait), in words. */
  refused: string[];
  error?: string;
  transient?: boolean;
  retryAfterMs?: number;
}

export interface SiteRound {
  store: Store;
  site: SiteRow;
  calendarId: number;
  http: SiteHttp;
  apiRoot: string;
  caps: SiteCapabilities;
  write: WriteContext;
  url: UrlContext;
  report: SiteReport;
}

export const newReport = (site: SiteRow): SiteReport => ({
  siteId: site.id,
  site: site.name,
  ok: true,
  sent: { created: 0, updated: 0, deleted: 0 },
  received: { changed: 0, deleted: 0 },
  conflicts: 0,
  merged: 0,
  pending: 0,
  requests: 0,
  pushRequests: 0,
  problems: [],
  refused: [],
});

/** The JSON of an answer the round can go on with; otherwise the reason, as a SiteError. */
export function jsonOf(cx: SiteRound, a: SiteAnswer, what: string): Record<string, unknown> {
  const host = new URL(cx.apiRoot).host;
  // A password revoked (or a login dropped) in the middle of a sync: the user must act.
  if (a.status === 401) throw new SiteError('unauthorized', { host }, 401);
  if (a.html) throw new SiteError('blocked', { host }, a.status);
  if (a.json === undefined || a.json === null || typeof a.json !== 'object') throw new SiteError('bad_answer', { host, what: `${what}: HTTP ${a.status}` }, a.status);
  return a.json as Record<string, unknown>;
}

/** The API path of a kind's collection. */
export const PATHS = { event: 'events', venue: 'venues', organizer: 'organizers', category: 'categories', tag: 'tags' } as const;

