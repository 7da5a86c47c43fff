/**
 * A feed's text as the resources a subscription holds: its events read by the same VEVENT mapping
 * as the iCalendar import (on the reading thread, so a large feed never holds the server), grouped
 * by UID (a series with its RECURRENCE-ID overrides is one resource), each with a hash of what it
 * says so that a refresh rewrites only what changed.
 */
import { createHash } from 'node:crypto';
import type { ImportItem } from '../import-export/import-records';
import { readIcsInBackground } from '../icalendar/read-threaded';
import { CLEARED } from '../caldav/resource';
import { canonical } from '../sync/merge';
import { SubscriptionError } from './fetch';

/** Events a feed may hold: a country's holidays for decades, a team's busy years. */
export const MAX_FEED_EVENTS = 10_000;
/** Resources hashed between two looks at waiting requests. */
const HASH_STEP = 500;

export interface Feed {
  /** The feed's own name (X-WR-CALNAME), if it gives one. */
  name?: string;
  /** Resources by UID, in the feed's order; the master item first. */
  resources: Map<string, ImportItem[]>;
  hashes: Map<string, string>;
  /** Events the mapping could not read (named in `problems`); the rest are taken. */
  problems: string[];
}

/** Whether a text looks like iCalendar at all: its first line opens a calendar (or, leniently, an event). */
function looksLikeICalendar(text: string): boolean {
  const first = /^\s*([^\r\n]*)/.exec(text)?.[1] ?? '';
  return /^BEGIN:(VCALENDAR|VEVENT)\s*$/i.test(first);
}

/** A body that is not iCalendar, told by what it looks like. */
function notICalendar(text: string, contentType: string): SubscriptionError {
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (text.trim() === '') return new SubscriptionError('empty', {});
  if (type === 'text/html' || /^\s*<(!doctype|html)/i.test(text)) return new SubscriptionError('web_page', {});
  return new SubscriptionError('not_ical', { type: type || 'text', start: text.trimStart().slice(0, 30).replace(/[\r\n]+/g, ' ') });
}

export function feedName(text: string): string | undefined {
  const m = /^X-WR-CALNAME(?:;[^:\r\n]*)?:([^\r\n]*(?:\r?\n[ \t][^\r\n]*)*)/im.exec(text.slice(0, 64 * 1024));
  if (!m) return undefined;
  const name = m[1]
    .replace(/\r?\n[ \t]/g, '')
    .replace(/\\([,;\\])/g, '$1')
    .replace(/\\n/gi, ' ')
    .trim();
  return name ? name.slice(0, 200) : undefined;
}

export async function readFeed(text: string, contentType: string, opts: { siteZone: string; now: Date; maxEvents?: number }): Promise<Feed> {
  const maxEvents = opts.maxEvents ?? MAX_FEED_EVENTS;
  if (!looksLikeICalendar(text)) throw notICalendar(text, contentType);
  const read = await readIcsInBackground(text, { siteZone: opts.siteZone, now: opts.now }, { maxEvents });
  if (read.vevents > maxEvents) throw new SubscriptionError('too_many', { count: read.vevents, limit: maxEvents });
  if (read.broken || read.unreadable) throw new SubscriptionError('broken', { reason: read.errors[0]?.message ?? 'it is not iCalendar' });
  const resources = new Map<string, ImportItem[]>();
  for (const e of read.events) {
    const item: ImportItem = { line: e.line, uid: e.uid, recurrenceId: e.recurrenceId, body: { ...CLEARED, ...e.body } };
    const list = resources.get(e.uid);
    if (!list) resources.set(e.uid, [item]);
    // The master before its overrides, whatever order the feed wrote them in.
    else if (item.recurrenceId === undefined) list.unshift(item);
    else list.push(item);
  }
  // Hashing 10,000 resources takes a tenth of a second or more: in steps, with requests answered between.
  const hashes = new Map<string, string>();
  let step = 0;
  for (const [uid, items] of resources) {
    hashes.set(uid, hashOf(items));
    if (++step % HASH_STEP === 0) await new Promise<void>((done) => setImmediate(done));
  }
  return { name: feedName(text), resources, hashes, problems: read.errors.map((p) => p.message) };
}

/** What a resource says to Almanac, as a hash: the file's line numbers do not count. */
function hashOf(items: ImportItem[]): string {
  return createHash('sha256')
    .update(canonical(items.map((i) => [i.recurrenceId ?? null, i.body])))
    .digest('base64url');
}

