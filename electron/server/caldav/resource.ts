/**
 * One CalDAV resource ↔ Almanac's events, through the same VEVENT mapping as the iCalendar file
 * import and export (icalendar/): a series with its RECURRENCE-ID exceptions is one resource.
 *
 * - `localResource`: the resource's text as Almanac would write it now, or null when the event
 *   is gone here (deleted, trashed, moved to another calendar).
 * - `withUnknownOf`: that text with the properties Almanac does not map (ATTENDEE, other
 *   clients' X- properties, TRANSP, unknown sub-components) copied from the server's last copy,
 *   byte for byte, so a change made here never strips what another client wrote.
 * - `applyResource`: the server's text written over the local events (the file importer, scoped
 *   to the calendar, with the fields the text leaves out cleared: the server's copy is the truth).
 * - `sameMapped`: whether two texts say the same to Almanac. Servers rewrite what they store
 *   (folding, escapes, parameter quoting), so texts are never compared byte for byte.
 */
import type { Store } from '../store';
import type { EventListQuery } from '../store/events';
import type { WriteContext } from '../store/post-fields';
import type { UrlContext } from '../serialize/context';
import { icsExportChunks } from '../icalendar/export-threaded';
import { openIcs } from '../icalendar/import';
import { importRecords, type ImportItem } from '../import-export/import-records';
import type { Language } from '../../../shared/i18n/languages';
import { canonical } from '../sync/merge';

/** Every status an event of a calendar can have but trash ('inherit': a series whose first date was deleted). */
const SENT_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'inherit'] as EventListQuery['statuses'];

export interface LocalResource {
  text: string;
  title: string;
}

/** The resource as Almanac writes it now; null when the calendar no longer has it. */
export function localResource(store: Store, calendarId: number, uid: string, url: UrlContext): LocalResource | null {
  const anchor = store.davSync.anchor(calendarId, uid);
  if (!anchor || anchor.status === 'trash') return null;
  const include = [anchor.id, ...store.davSync.exceptions(anchor.id)];
  const q: EventListQuery = { lang: anchor.lang as Language, statuses: SENT_STATUSES, page: 1, perPage: include.length, include };
  let text = '';
  for (const chunk of icsExportChunks(store, q, url, { uidHost: url.settings.global_id_host, threadedFrom: Infinity, events: include.length })) {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  }
  // RFC 4791 §4.1: a stored calendar object has no METHOD.
  text = text.replace(/^METHOD:[^\r\n]*\r\n/m, '');
  if (!/BEGIN:VEVENT/.test(text)) return null;
  return { text, title: anchor.title };
}

/** Properties the mapping reads and writes; anything else in a VEVENT is another client's, kept. */
const MAPPED = new Set([
  'UID', 'DTSTAMP', 'DTSTART', 'DTEND', 'DURATION', 'RRULE', 'RDATE', 'EXDATE', 'RECURRENCE-ID', 'SUMMARY', 'DESCRIPTION',
  'X-ALT-DESC', 'CATEGORIES', 'URL', 'IMAGE', 'STATUS', 'CLASS', 'CREATED', 'LAST-MODIFIED', 'SEQUENCE', 'LOCATION', 'GEO', 'ORGANIZER',
]);
const isMapped = (name: string) => MAPPED.has(name) || name.startsWith('X-ALMANAC-');

interface VeventBlock {
  /** RECURRENCE-ID's value (no parameters), '' for the master. */
  key: string;
  /** Folded lines of the properties Almanac does not map, as the server has them. */
  unknown: string[];
  /** Folded lines of the sub-components Almanac does not map (all but VALARMs). */
  components: string[];
  sequence: number;
}

/** The VEVENTs of a text with what of each Almanac does not map. */
function veventBlocks(text: string): VeventBlock[] {
  const raw = text.replace(/\r\n|\r|\n/g, '\n').split('\n');
  // Logical lines (a folded line with its continuations), kept folded as written.
  const lines: string[] = [];
  for (const l of raw) {
    if ((l.startsWith(' ') || l.startsWith('\t')) && lines.length) lines[lines.length - 1] += `\r\n${l}`;
    else if (l !== '') lines.push(l);
  }
  const out: VeventBlock[] = [];
  let block: VeventBlock | undefined;
  let sub: string[] | undefined;
  let subDepth = 0;
  for (const line of lines) {
    const unfolded = line.replace(/\r\n[ \t]/g, '');
    const name = /^[^:;]+/.exec(unfolded)?.[0].toUpperCase() ?? '';
    if (!block) {
      if (unfolded.toUpperCase() === 'BEGIN:VEVENT') block = { key: '', unknown: [], components: [], sequence: 0 };
      continue;
    }
    if (sub) {
      sub.push(line);
      if (name === 'BEGIN') subDepth++;
      if (name === 'END' && --subDepth === 0) {
        // VALARMs are reminders, which the mapping carries; other sub-components are kept.
        if (!/^BEGIN:VALARM$/i.test(sub[0])) block.components.push(...sub);
        sub = undefined;
      }
      continue;
    }
    if (name === 'BEGIN') {
      sub = [line];
      subDepth = 1;
      continue;
    }
    if (unfolded.toUpperCase() === 'END:VEVENT') {
      out.push(block);
      block = undefined;
      continue;
    }
    if (name === 'RECURRENCE-ID') block.key = keyOf(unfolded);
    else if (name === 'SEQUENCE') block.sequence = Number(unfolded.slice(unfolded.indexOf(':') + 1)) || 0;
    if (!isMapped(name)) block.unknown.push(line);
  }
  return out;
}

/** A RECURRENCE-ID's date and time digits, whatever its parameters: the key exceptions are matched by. */
function keyOf(unfolded: string): string {
  return unfolded.slice(unfolded.indexOf(':') + 1).replace(/[^0-9T]/g, '');
}

/**
 * `ours` with what `base` (the server's last copy) has that Almanac does not map, VEVENT by
 * VEVENT (matched by RECURRENCE-ID), and SEQUENCE one past the server's (RFC 5546: a change).
 */
export function withUnknownOf(ours: string, base: string | null | undefined): string {
  const kept = new Map(base ? veventBlocks(base).map((b) => [b.key, b]) : []);
  const lines = ours.split('\r\n');
  const out: string[] = [];
  let key = '';
  let inEvent = false;
  let depth = 0;
  /** Where the VEVENT's properties end (its first sub-component, or its END): RFC 5545 puts them first. */
  let propertiesEnd = -1;
  for (const line of lines) {
    if (line === 'BEGIN:VEVENT') {
      inEvent = true;
      key = '';
      depth = 0;
      propertiesEnd = -1;
    } else if (inEvent && line.startsWith('BEGIN:')) {
      if (depth++ === 0 && propertiesEnd < 0) propertiesEnd = out.length;
    } else if (inEvent && line.startsWith('END:') && line !== 'END:VEVENT') depth--;
    else if (inEvent && depth === 0 && line.startsWith('RECURRENCE-ID')) key = keyOf(line);
    if (line === 'END:VEVENT') {
      inEvent = false;
      const from = kept.get(key);
      if (from) {
        const at = propertiesEnd < 0 ? out.length : propertiesEnd;
        out.push(...from.components);
        out.splice(at, 0, ...from.unknown, `SEQUENCE:${from.sequence + 1}`);
      }
    }
    out.push(line);
  }
  return out.join('\r\n');
}

/**
 * The fields a server's copy sets, cleared when it leaves them out: without it a removed location
 * or description would stay here. An event the server has is not in the trash here (Almanac's own
 * copies say their status in X-ALMANAC-STATUS; other clients' events are published).
 */
export const CLEARED: Record<string, unknown> = { description: '', excerpt: '', website: '', venue: null, organizer: [], categories: [], tags: [], cost: '', reminders: [], status: 'publish' };

/**
 * What the mapping reads from a text: the items the importer would write, in order. With
 * `errors`, why nothing could be read (the file import's own words: a bound crossed, a line
 * ical.js cannot parse) is added to it.
 */
export function mappedItems(text: string, ctx: WriteContext, errors?: string[]): ImportItem[] {
  const file = openIcs(text, { siteZone: ctx.siteZone, now: ctx.now });
  const items: ImportItem[] = [];
  if (file.broken) {
    errors?.push(...file.read(() => undefined).errors.slice(0, 1).map((e) => e.message));
    return items;
  }
  const result = file.read((e) => items.push({ line: e.line, uid: e.uid, recurrenceId: e.recurrenceId, body: { ...CLEARED, ...e.body } }));
  if (result.unreadable) {
    errors?.push(...result.errors.slice(0, 1).map((e) => e.message));
    return [];
  }
  return items;
}

/**
 * How many different UIDs the VEVENTs of a text carry (a VALARM's own UID, as Apple writes, does
 * not count): one line-by-line pass, before anything is parsed.
 */
export function veventUids(text: string): number {
  const uids = new Set<string>();
  let depth = 0;
  let inEvent = false;
  const line = /^(BEGIN|END|UID)([:;])([^\r\n]*)/gim;
  for (let m = line.exec(text); m; m = line.exec(text)) {
    const name = m[1].toUpperCase();
    if (name === 'BEGIN') {
      depth++;
      if (m[3].trim().toUpperCase() === 'VEVENT' && m[2] === ':') inEvent = true;
    } else if (name === 'END') {
      depth--;
      if (m[3].trim().toUpperCase() === 'VEVENT') inEvent = false;
    } else if (inEvent && depth === 2) uids.add((m[2] === ':' ? m[3] : m[3].slice(m[3].indexOf(':') + 1)).trim());
  }
  return uids.size;
}

/** Whether two texts of one resource say the same to Almanac (every mapped field, every exception). */
export function sameMapped(a: string, b: string, ctx: WriteContext): boolean {
  const view = (text: string) => canonical(mappedItems(text, ctx).map(({ uid, recurrenceId, body }) => [uid, recurrenceId ?? null, body]));
  return view(a) === view(b);
}

/**
 * Writes the server's copy of a resource over the calendar's events (creating them when new),
 * as the server's: no outbox row comes of it. Call inside a write transaction. Returns the UID
 * the text is about (its first VEVENT's), or undefined when no event could be read from it.
 */
export function applyResource(store: Store, calendarId: number, text: string, ctx: WriteContext): { uid?: string; errors: string[] } {
  const { uids, errors } = applyItems(store, calendarId, [mappedItems(text, ctx)], ctx);
  return { uid: uids[0], errors };
}

/**
 * Resources whose events are read already (or merged: merge.ts), in one import of all their events
 * (an import's set-up, such as putting the search index aside, costs more than a small resource's
 * own rows). `uids[i]` is the UID of `resources[i]` (undefined when nothing could be read from it).
 * Call inside a write transaction.
 */
export function applyItems(store: Store, calendarId: number, resources: ImportItem[][], ctx: WriteContext): { uids: Array<string | undefined>; errors: string[] } {
  const all: ImportItem[] = [];
  const uids: Array<string | undefined> = [];
  const errors: string[] = [];
  for (const items of resources) {
    const uid = items[0]?.uid;
    uids.push(uid);
    if (items.length === 0) {
      errors.push('no event could be read from it');
      continue;
    }
    // Exceptions the server's copy no longer has, and a rule it dropped, are read afresh: the
    // resource is written again whole (ids of a series' rows are not kept across that).
    const anchor = uid === undefined ? undefined : store.davSync.anchor(calendarId, uid);
    if (anchor && uid !== undefined && shapeChanged(store, anchor.id, items)) store.davSync.deleteResource(calendarId, uid);
    all.push(...items);
  }
  if (all.length) errors.push(...importRecords(store, 'events', all, ctx, { calendarId, skipInvalid: true }).errors.map((e) => e.message));
  return { uids, errors };
}

/** A single event that became a series or the reverse, or exceptions that went: simpler written anew. */
function shapeChanged(store: Store, anchorId: number, items: ImportItem[]): boolean {
  const isSeries = !!store.series.get(anchorId);
  const willBe = items.some((i) => i.recurrenceId === undefined && i.body.recurrence);
  if (isSeries !== willBe) return true;
  if (!isSeries) return false;
  const remote = items.filter((i) => i.recurrenceId !== undefined).length;
  return store.davSync.exceptions(anchorId).length > remote;
}
