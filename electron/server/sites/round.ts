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
import type { LinkMemo } from '../store/event-links';

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

/** What one round remembers between its steps, each part kept by the file named. */
export interface RoundState {
  /** push.ts: records the site refused in this round (kind:key): a later send of them clears no refusal. */
  refused: Set<string>;
  /** pull.ts: reads of one record by id this round has made (bounded). */
  singleReads: number;
  /** pull.ts: venues, organizers and terms the events named that were found linked already (kind:id). */
  linked: Set<string>;
  /** local.ts: while a page of events is stored (withPageLinks). */
  page?: { found: Map<string, number>; memo?: LinkMemo };
  /** occurrences.ts: the site's occurrences the listings noted, taken after them. */
  notedOccurrences: Array<Record<string, unknown>>;
  /** occurrences.ts: original starts of the occurrences known here, per series of the site, as first asked. */
  knownKeys: Map<number, Set<string>>;
  /** occurrences.ts: a generated occurrence of each series of the site, as the listings gave them (its series' values). */
  generated: Map<number, Record<string, unknown>>;
  /** occurrences.ts: first events changed on their own there, taken after the listings. */
  deferredFirst: Array<Record<string, unknown>>;
  /** occurrences.ts: the deferred first events are being taken (they are not deferred again). */
  takingDeferred: boolean;
  /** occurrences.ts: the first event being taken, and a generated occurrence of its series. */
  firstEvent?: { first: Record<string, unknown>; generated: Record<string, unknown> };
}

export const newRoundState = (): RoundState => ({ refused: new Set(), singleReads: 0, linked: new Set(), notedOccurrences: [], knownKeys: new Map(), generated: new Map(), deferredFirst: [], takingDeferred: false });

/**
 * The local side of a site's round (local.ts, occurrences.ts's writes here): all but the
 * connection, so that Keep mine (conflicts.ts), which talks to no site, has all it needs.
 */
export interface SiteLocal {
  store: Store;
  site: SiteRow;
  calendarId: number;
  caps: SiteCapabilities;
  write: WriteContext;
  url: UrlContext;
  report: SiteReport;
  state: RoundState;
}

export interface SiteRound extends SiteLocal {
  http: SiteHttp;
  apiRoot: string;
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

