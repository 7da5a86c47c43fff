/**
 * Taking a site's records (issue 26 item 3). The API has no modified-since filter, so every pull
 * lists everything the login may see, in the site's pages of 50 (the totals from its count
 * headers, a page past the end ends the listing): categories (also the empty ones), tags, venues,
 * organizers, then events over the whole window 1900–2200 with the site's default statuses (an
 * editor's include drafts, pending, private and scheduled; `status=any` is refused by the
 * original), then the trash. What changed is found by the hash of each normalized record against
 * the copy both sides last agreed on. Records Almanac knows that no list gave (hidden from
 * listings, trashed, or gone) are read one by one: a 200 is applied, a trashed one trashed, and
 * only a confirmed 404 deletes. Each page is applied in one transaction as the site's (no outbox
 * rows), with requests let in between; a pull cut short is simply done again.
 *
 * Changed there while changed here (a change waits to be sent): the sync core decides (same,
 * merged field by field, or a conflict: the site's wins and ours is kept as a conflict copy).
 * Trashed there while edited here: ours stays and the push brings it back. Deleted here while
 * changed there: it comes back with the site's version.
 */
import { decideRecords } from '../sync/merge';
import { apiUrl } from './http';
import { SiteError } from './errors';
import { identity, normRecord, recordHash, recordTitle, type SiteRecord } from './records';
import { applyLocally, keepLocalCopy, localRecord, withLinksRemembered } from './local';
import { jsonOf, PATHS, yieldToRequests, type SiteRound } from './round';
import { deferFirstEvent, isOccurrenceJson, noteOccurrence, occurrencesMayWait, takeFirstEvents, takeOccurrences, withExdatesMerged } from './occurrences';
import type { SiteKind, SyncObjectRow } from '../store/sites';

export const FULL_WINDOW = { start_date: '1900-01-01 00:00:00', end_date: '2200-12-31 23:59:59' };
export const PER_PAGE = 50;
/** Pages read per listing at most (200,000 records): a site that never stops paging cannot hold a round. */
const MAX_PAGES = 4000;
/**
 * Records read one by one per round at most (hidden ones first): a list that suddenly lacks
 * thousands of known records (a caching plugin, a bad page) costs a bounded round, and what was
 * not confirmed gone is left as it is until a later round asks.
 */
export const MAX_SINGLE_READS = 500;
const singleReads = new WeakMap<SiteRound, { left: number }>();
const mayReadOne = (cx: SiteRound) => {
  let budget = singleReads.get(cx);
  if (!budget) singleReads.set(cx, (budget = { left: MAX_SINGLE_READS }));
  return budget.left-- > 0;
};

type Linked = Exclude<SiteKind, 'event'>;

export async function pullSite(cx: SiteRound): Promise<void> {
  for (const kind of ['category', 'tag', 'venue', 'organizer'] as const) await pullLinked(cx, kind);
  await pullEvents(cx);
}

/**
 * Pages of a listing asked for ahead of the one being applied. Applying a page costs this side
 * more than serving it costs the site, so with one page ahead the site sat idle most of the
 * time; with a few it works on the next pages while this side stores one, and a pull costs little
 * more than its own storing. Bounded: at most this many answers (each under the size limit) wait.
 */
export const PAGES_AHEAD = 3;

/**
 * Every page of a collection; `onPage` gets each page's records, in order. Pages beyond the
 * current one are asked for only up to the total its answer gives, and a page that says the list
 * ends there ends it (what was asked ahead is dropped).
 */
async function listAll(cx: SiteRound, kind: SiteKind, params: Record<string, string | number | boolean>, onPage: (records: Array<Record<string, unknown>>) => Promise<void>): Promise<void> {
  const key = PATHS[kind];
  const host = new URL(cx.apiRoot).host;
  const ask = (page: number) => {
    const answer = cx.http.request('GET', apiUrl(cx.apiRoot, key, { ...params, per_page: PER_PAGE, page }));
    // Failures are met when awaited, below; never as an unhandled rejection meanwhile.
    answer.catch(() => undefined);
    return answer;
  };
  const ahead: Array<ReturnType<typeof ask>> = [ask(1)];
  let asked = 1;
  const dropAhead = async () => {
    await Promise.all(ahead.splice(0).map((a) => a.catch(() => undefined)));
  };
  for (let page = 1; ahead.length > 0 && page <= MAX_PAGES; page++) {
    let answer: Awaited<ReturnType<typeof ask>>;
    try {
      answer = await ahead.shift()!;
    } catch (err) {
      await dropAhead();
      throw err;
    }
    try {
      // A page past the end: 404 for posts, 400 for WordPress's terms.
      if (page > 1 && (answer.status === 404 || answer.status === 400) && answer.json !== undefined) break;
      const json = jsonOf(cx, answer, `GET ${key}`);
      if (answer.status !== 200) throw new SiteError('bad_answer', { host, what: `GET ${key}: HTTP ${answer.status}` }, answer.status);
      const records = Array.isArray(json[key]) ? (json[key] as Array<Record<string, unknown>>) : Array.isArray(json) ? (json as unknown as Array<Record<string, unknown>>) : undefined;
      if (!records) throw new SiteError('bad_answer', { host, what: `GET ${key}: no "${key}" list` }, answer.status);
      const totalPages = Number(answer.headers.get('x-tec-totalpages') ?? answer.headers.get('x-wp-totalpages') ?? json.total_pages ?? 1);
      const last = Math.min(totalPages, MAX_PAGES);
      if (records.length === 0 || page >= last) await dropAhead();
      else while (asked < last && asked < page + PAGES_AHEAD) ahead.push(ask(++asked));
      await onPage(records.filter((r) => r && typeof r === 'object'));
    } catch (err) {
      await dropAhead();
      throw err;
    }
  }
  await dropAhead();
}

const idOf = (json: Record<string, unknown>) => {
  const n = Number(json.id);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

async function pullLinked(cx: SiteRound, kind: Linked): Promise<void> {
  const seen = new Set<number>();
  const params: Record<string, boolean> = kind === 'category' || kind === 'tag' ? { hide_empty: false } : {};
  const apply = async (records: Array<Record<string, unknown>>) => {
    for (let i = 0; i < records.length; i += PER_PAGE) {
      const part = records.slice(i, i + PER_PAGE);
      cx.store.write(() => cx.store.davSync.asServer(() => part.forEach((json) => takeRecord(cx, kind, json, seen))));
      await yieldToRequests();
    }
  };
  if (kind === 'category') {
    // A child may come on a page before its parent: all of them first, then parents before children.
    const all: Array<Record<string, unknown>> = [];
    await listAll(cx, kind, params, async (records) => void all.push(...records));
    await apply(parentsFirst(all));
  } else await listAll(cx, kind, params, apply);
  for (const o of cx.store.sites.objects(cx.calendarId, kind)) {
    if (o.remote_id === null || seen.has(o.remote_id) || o.local_id === null) continue;
    if (!mayReadOne(cx)) break;
    const answer = await cx.http.request('GET', apiUrl(cx.apiRoot, `${PATHS[kind]}/${o.remote_id}`));
    if (answer.status === 200) {
      const json = jsonOf(cx, answer, `GET ${PATHS[kind]}/${o.remote_id}`);
      cx.store.write(() => cx.store.davSync.asServer(() => takeRecord(cx, kind, json, seen)));
    } else if ([400, 404, 410].includes(answer.status) && answer.json !== undefined) {
      // Gone there: the link goes; the record stays here (events of other calendars may use it).
      cx.store.write(() => cx.store.sites.forgetObject(o.id));
    } else jsonOf(cx, answer, `GET ${PATHS[kind]}/${o.remote_id}`);
  }
}

/** Categories ordered so that each comes after its parent (a loop, which a site should not have, ends the chain). */
function parentsFirst(records: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  const byId = new Map(records.map((r) => [Number(r.id), r]));
  const depth = (r: Record<string, unknown>) => {
    let d = 0;
    for (let p = byId.get(Number(r.parent)); p && d < 50; p = byId.get(Number(p.parent))) d++;
    return d;
  };
  return records.map((r) => [depth(r), r] as const).sort((a, b) => a[0] - b[0]).map(([, r]) => r);
}

async function pullEvents(cx: SiteRound): Promise<void> {
  const seen = new Set<number>();
  const page = async (records: Array<Record<string, unknown>>) => {
    await takeLinkedOf(cx, records);
    cx.store.write(() => cx.store.davSync.asServer(() => withLinksRemembered(cx, () => records.forEach((json) => takeRecord(cx, 'event', json, seen)))));
    await yieldToRequests();
  };
  await listAll(cx, 'event', FULL_WINDOW, page);
  await listAll(cx, 'event', { ...FULL_WINDOW, status: 'trash' }, page);
  // Known there but in no list: hidden from listings, trashed (older sites), or gone. Asked one by one.
  const known = cx.store.sites.objects(cx.calendarId, 'event').sort((a, b) => b.hidden - a.hidden);
  for (const o of known) {
    if (o.remote_id === null || seen.has(o.remote_id) || o.remote_status === 'creating') continue;
    if (!mayReadOne(cx)) break;
    const answer = await cx.http.request('GET', apiUrl(cx.apiRoot, `events/${o.remote_id}`));
    if (answer.status === 200) {
      const json = jsonOf(cx, answer, `GET events/${o.remote_id}`);
      await takeLinkedOf(cx, [json]);
      cx.store.write(() => cx.store.davSync.asServer(() => takeRecord(cx, 'event', json, seen)));
    } else if ((answer.status === 403 || answer.status === 410) && answer.json !== undefined) {
      cx.store.write(() => cx.store.davSync.asServer(() => trashedThere(cx, o)));
    } else if ((answer.status === 404 || answer.status === 400) && answer.json !== undefined) {
      cx.store.write(() => cx.store.davSync.asServer(() => goneThere(cx, o)));
    } else jsonOf(cx, answer, `GET events/${o.remote_id}`);
  }
  takeFirstEvents(cx, (json) => takeRecord(cx, 'event', json, seen));
  await takeOccurrences(cx, yieldToRequests);
}

/** Venues, organizers and terms a page of events names that are not linked here yet: taken from the events' own copies. */
/** Linked records a round found linked already: the events of a site name the same few again and again. */
const linkedThisRound = new WeakMap<SiteRound, Set<string>>();

async function takeLinkedOf(cx: SiteRound, events: Array<Record<string, unknown>>): Promise<void> {
  let known = linkedThisRound.get(cx);
  if (!known) linkedThisRound.set(cx, (known = new Set()));
  const todo: Array<[Linked, Record<string, unknown>]> = [];
  for (const e of events) {
    const venue = e.venue && typeof e.venue === 'object' && !Array.isArray(e.venue) ? [e.venue] : [];
    for (const [kind, list] of [['venue', venue], ['organizer', e.organizer], ['category', e.categories], ['tag', e.tags]] as const) {
      if (!Array.isArray(list)) continue;
      for (const item of list) {
        const id = item && typeof item === 'object' ? idOf(item as Record<string, unknown>) : undefined;
        if (id === undefined || known.has(`${kind}:${id}`)) continue;
        if (cx.store.sites.objectByRemote(cx.calendarId, kind, id)) known.add(`${kind}:${id}`);
        else todo.push([kind, item as Record<string, unknown>]);
      }
    }
  }
  if (todo.length === 0) return;
  // Parents of categories first.
  todo.sort((a, b) => (a[0] === 'category' && b[0] === 'category' ? Number(a[1].parent ?? 0) - Number(b[1].parent ?? 0) : 0));
  cx.store.write(() => cx.store.davSync.asServer(() => todo.forEach(([kind, json]) => takeRecord(cx, kind, json, new Set(), true))));
}

function pendingOf(cx: SiteRound, kind: SiteKind, o: Pick<SyncObjectRow, 'uid' | 'local_id'>): boolean {
  if (kind === 'event') return !!o.uid && !!cx.store.davSync.pending(cx.calendarId, o.uid);
  return o.local_id !== null && !!cx.store.sites.pending(cx.calendarId, kind, o.local_id);
}

function dropPending(cx: SiteRound, kind: SiteKind, o: Pick<SyncObjectRow, 'uid' | 'local_id'>): void {
  if (kind === 'event') {
    // A series' occurrences changed here on their own may still wait: the push compares them.
    if (o.uid && !(o.local_id !== null && occurrencesMayWait(cx, o.local_id))) cx.store.davSync.dropPending(cx.calendarId, o.uid);
  } else if (o.local_id !== null) cx.store.sites.dropPending(cx.calendarId, kind, o.local_id);
}

/** One record's writes as a savepoint of the page's transaction: a record that cannot be stored leaves nothing behind. Made once per database. */
const savepoints = new WeakMap<object, (fn: () => void) => void>();
function savepoint(store: SiteRound['store']): (fn: () => void) => void {
  let run = savepoints.get(store.db);
  if (!run) savepoints.set(store.db, (run = store.db.transaction((fn: () => void) => fn())));
  return run;
}

const uidOf = (cx: SiteRound, localId: number) => cx.store.events.icsUid(localId);

/**
 * One record of the site, as listed: new → created here (or linked to the same record here),
 * unchanged → nothing, changed → applied, or decided with the local change. Call in a write
 * transaction, as the site's. A record that cannot be stored here is reported, not fatal.
 */
function takeRecord(cx: SiteRound, kind: SiteKind, json: Record<string, unknown>, seen: Set<number>, embedded = false): void {
  const remoteId = idOf(json);
  if (remoteId === undefined) return;
  // An occurrence of an Almanac site's series is not a record of its own: one changed on its own is taken after the listings (occurrences.ts).
  if (kind === 'event' && isOccurrenceJson(json)) return noteOccurrence(cx, json);
  if (!embedded) seen.add(remoteId);
  if (kind === 'event' && deferFirstEvent(cx, json)) return;
  const r = normRecord(kind, json, identity, { series: cx.caps.almanac });
  const hash = recordHash(r);
  const { store, calendarId } = cx;
  try {
    savepoint(store)(() => {
      const o = store.sites.objectByRemote(calendarId, kind, remoteId);
      const hidden = kind === 'event' && r.hide_from_listings ? 1 : 0;
      if (!o) {
        const linked = kind === 'event' ? undefined : store.sites.sameHere(calendarId, kind, r);
        // A record here that is the site's: linked, and from now on the site's version.
        const localId = applyLocally(cx, kind, r, linked);
        store.sites.saveObject({ calendar_id: calendarId, kind, local_id: localId, uid: kind === 'event' ? uidOf(cx, localId) : null, remote_id: remoteId, base_json: JSON.stringify(r), base_hash: hash, version: str(json.modified_utc), hidden });
        cx.report.received.changed++;
        return;
      }
      if (o.base_hash === hash) {
        if (o.hidden !== hidden) store.sites.saveObject({ id: o.id, calendar_id: calendarId, kind, hidden });
        return;
      }
      // Embedded copies (an event's venue) are not always whole: only a listing changes a known record.
      if (embedded) return;
      const localId = o.local_id !== null && localRecord(cx, kind, o.local_id) !== undefined ? o.local_id : undefined;
      const save = (id: number | undefined) =>
        store.sites.saveObject({ id: o.id, calendar_id: calendarId, kind, local_id: id ?? null, uid: kind === 'event' && id !== undefined ? uidOf(cx, id) : o.uid, base_json: JSON.stringify(r), base_hash: hash, version: str(json.modified_utc), remote_status: null, hidden });
      if (!pendingOf(cx, kind, o)) {
        save(applyLocally(cx, kind, r, localId));
        const trashedNow = kind === 'event' && r.status === 'trash' && !(o.base_json ?? '').includes('"status":"trash"');
        cx.report.received[trashedNow ? 'deleted' : 'changed']++;
        return;
      }
      const local = localId === undefined ? undefined : localRecord(cx, kind, localId);
      // Trashed there while edited here: ours stays, and the push brings it back with the change.
      if (kind === 'event' && r.status === 'trash' && local && local.status !== 'trash') {
        store.sites.saveObject({ id: o.id, calendar_id: calendarId, kind, remote_status: 'trash' });
        return;
      }
      const base = o.base_json ? (JSON.parse(o.base_json) as SiteRecord) : undefined;
      const [mine, theirs] = kind === 'event' ? withExdatesMerged(base, local, r) : [local, r];
      const decision = decideRecords(base, mine, theirs);
      switch (decision.outcome) {
        case 'same':
          dropPending(cx, kind, o);
          save(localId);
          return;
        case 'merged':
          // Each side changed other fields: both kept; the merge goes out with the next push.
          applyLocally(cx, kind, decision.merged, localId);
          save(localId);
          cx.report.merged++;
          return;
        case 'conflict':
          keepLocalCopy(cx, kind, o, local!, localId!);
          cx.report.conflicts++;
          break;
        case 'theirs':
          // Deleted here while changed there: it comes back with the site's version.
          break;
      }
      dropPending(cx, kind, o);
      save(applyLocally(cx, kind, r, localId));
      cx.report.received.changed++;
    });
  } catch (err) {
    if (err instanceof SiteError) throw err;
    cx.report.problems.push(`${PATHS[kind]}/${remoteId} "${recordTitle(kind, r)}": ${(err as Error).message}`);
  }
}

/** An event the site has in its trash (GET answered 403/410). Call in a write transaction, as the site's. */
function trashedThere(cx: SiteRound, o: Omit<SyncObjectRow, 'base_json'>): void {
  const { store, calendarId } = cx;
  if (o.local_id === null) return;
  const row = store.events.get(o.local_id);
  if (!row || row.status === 'trash') return;
  // Edited here meanwhile: ours stays; the push restores it with the change.
  if (pendingOf(cx, 'event', o)) {
    store.sites.saveObject({ id: o.id, calendar_id: calendarId, kind: 'event', remote_status: 'trash' });
    return;
  }
  store.events.trash(o.local_id, cx.write);
  const full = store.sites.object(o.id)!;
  const base = full.base_json ? { ...(JSON.parse(full.base_json) as SiteRecord), status: 'trash' } : null;
  store.sites.saveObject({ id: o.id, calendar_id: calendarId, kind: 'event', remote_status: 'trash', base_json: base ? JSON.stringify(base) : null, base_hash: base ? recordHash(base) : null });
  cx.report.received.deleted++;
}

/** An event the site no longer has (a confirmed 404). Call in a write transaction, as the site's. */
function goneThere(cx: SiteRound, o: Omit<SyncObjectRow, 'base_json'>): void {
  const { store } = cx;
  store.sites.forgetObject(o.id);
  // Changed here meanwhile: kept, and sent again as new by the next push.
  if (pendingOf(cx, 'event', o) || o.local_id === null) return;
  if (o.uid) store.davSync.deleteResource(cx.calendarId, o.uid);
  cx.report.received.deleted++;
}

const str = (v: unknown) => (typeof v === 'string' ? v : null);
