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
import { baseOf, identity, normRecord, recordTitle, siteOccurrence, type SiteRecord } from './records';
import { refusedHere } from './refusals';
import { applyLocally, keepLocalCopy, localRecord, withPageLinks } from './local';
import { jsonOf, PATHS, type SiteRound } from './round';
import { yieldToRequests } from '../sync/outbox';
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
const MAX_SINGLE_READS = 500;
const mayReadOne = (cx: SiteRound) => cx.state.singleReads++ < MAX_SINGLE_READS;

type Linked = Exclude<SiteKind, 'event'>;

export async function pullSite(cx: SiteRound): Promise<void> {
  const started = new Date().toISOString();
  for (const kind of ['category', 'tag', 'venue', 'organizer'] as const) await pullLinked(cx, kind);
  await pullEvents(cx);
  // A whole pull: what was refused before and not again this time was stored.
  cx.store.write(() => cx.store.sites.clearPullRefusalsBefore(cx.calendarId, started));
}

/**
 * Pages of a listing asked for ahead of the one being applied. Storing a page costs this side
 * more than serving it costs the site (another Almanac serves from its cache), so with one page
 * ahead the site sat idle most of the time; with several it works on the next pages while this
 * side stores. Bounded: at most this many answers (each under the size limit) wait.
 */
const PAGES_AHEAD = 8;

/**
 * Records applied in one write transaction at most. Pages that have arrived while the previous
 * ones were stored are applied together: each commit flushes the search index's new segment and
 * rewrites the same index pages, so 50 events per transaction cost about twice what 500 do. The
 * bound keeps each transaction short (a few tens of milliseconds) for the requests waiting
 * between them.
 */
const MAX_BATCH = 400;

/**
 * Every page of a collection; `onBatch` gets the records of one or more consecutive pages, in
 * order. Pages beyond the current one are asked for only up to the total its answer gives, and a
 * page that says the list ends there ends it (what was asked ahead is dropped).
 */
async function listAll(cx: SiteRound, kind: SiteKind, params: Record<string, string | number | boolean>, onBatch: (records: Array<Record<string, unknown>>) => Promise<void>): Promise<void> {
  const key = PATHS[kind];
  const host = new URL(cx.apiRoot).host;
  type Asked = { answer: ReturnType<SiteRound['http']['request']>; settled: boolean };
  const ask = (page: number): Asked => {
    const asked: Asked = { answer: cx.http.request('GET', apiUrl(cx.apiRoot, key, { ...params, per_page: PER_PAGE, page })), settled: false };
    // Failures are met when awaited, below; never as an unhandled rejection meanwhile.
    asked.answer.then(
      () => void (asked.settled = true),
      () => void (asked.settled = true),
    );
    return asked;
  };
  const ahead: Asked[] = [ask(1)];
  let asked = 1;
  let batch: Array<Record<string, unknown>> = [];
  const dropAhead = async () => {
    await Promise.all(ahead.splice(0).map((a) => a.answer.catch(() => undefined)));
  };
  let storing = false;
  const flush = async () => {
    if (batch.length === 0) return;
    const records = batch;
    batch = [];
    storing = true;
    await onBatch(records);
    storing = false;
  };
  for (let page = 1; ahead.length > 0 && page <= MAX_PAGES; page++) {
    let answer: Awaited<Asked['answer']>;
    try {
      answer = await ahead.shift()!.answer;
    } catch (err) {
      await dropAhead();
      await flush();
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
      for (const r of records) if (r && typeof r === 'object') batch.push(r);
      // Stored now unless the next page is already here and the batch has room for it.
      if (ahead.length === 0 || !ahead[0].settled || batch.length + PER_PAGE > MAX_BATCH) await flush();
    } catch (err) {
      await dropAhead();
      // What came before the failure is kept, as when each page was stored on arrival.
      if (!storing) await flush();
      throw err;
    }
  }
  await dropAhead();
  await flush();
}

const idOf = (json: Record<string, unknown>) => {
  const n = Number(json.id);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

async function pullLinked(cx: SiteRound, kind: Linked): Promise<void> {
  const seen = new Set<number>();
  const params: Record<string, boolean> = kind === 'category' || kind === 'tag' ? { hide_empty: false } : {};
  const apply = async (records: Array<Record<string, unknown>>) => {
    for (let i = 0; i < records.length; i += MAX_BATCH) {
      storeBatch(cx, kind, records.slice(i, i + MAX_BATCH), seen);
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
    storeBatch(cx, 'event', records, seen);
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
  await takeOccurrences(cx);
}

/** Venues, organizers and terms a page of events names that are not linked here yet: taken from the events' own copies. */
async function takeLinkedOf(cx: SiteRound, events: Array<Record<string, unknown>>): Promise<void> {
  // Linked records a round found linked already: the events of a site name the same few again and again.
  const known = cx.state.linked;
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

/**
 * A batch of a listing's records, stored in one write transaction as the site's. First all at
 * once: a savepoint per record costs a sixth of the storing (each copies the index pages it
 * touches), and a record that cannot be stored here is rare. If one fails, the transaction is
 * rolled back (the report's counts with it) and the batch is stored again, each record in its own
 * savepoint, so the others are kept and the one that failed is reported.
 *
 * A batch of events all new here (a first pull) builds their search index once at its end, as an
 * import does: row by row it was a quarter of the storing. Only then: the deferred index must see
 * no event's text changed, nor part of the work rolled back, but through the events store.
 */
function storeBatch(cx: SiteRound, kind: SiteKind, listed: Array<Record<string, unknown>>, seen: Set<number>): void {
  const { store, calendarId } = cx;
  // Occurrences of an Almanac site's series and first events changed on their own are taken after
  // the listings (occurrences.ts): noted once here, not again if the batch is stored twice.
  const records =
    kind !== 'event'
      ? listed
      : listed.filter((json) => {
          if (isOccurrenceJson(json)) {
            noteOccurrence(cx, json);
            return false;
          }
          if (!deferFirstEvent(cx, json)) return true;
          const id = idOf(json);
          if (id !== undefined) seen.add(id);
          return false;
        });
  const each = (careful: boolean) => () => {
    const known = knownObjects(cx, kind, records);
    records.forEach((json) => takeRecord(cx, kind, json, seen, false, careful, known));
  };
  const allNew =
    kind === 'event' &&
    records.every((json) => json.recurrence === undefined || json.recurrence === null) &&
    !store.sites.anyLinked(calendarId, 'event', records.map(idOf).filter((id): id is number => id !== undefined));
  const fast = () => {
    const search = allNew ? store.events.deferSearchIndex() : undefined;
    try {
      // Events name the same few venues, organizers and terms: their links looked up and checked once a batch.
      if (kind === 'event') withPageLinks(cx, true, each(false));
      else each(false)();
      search?.finish();
    } catch (err) {
      search?.abandon();
      throw err;
    }
  };
  const careful = kind === 'event' ? () => withPageLinks(cx, false, each(true)) : each(true);
  const counts = JSON.stringify({ received: cx.report.received, merged: cx.report.merged, conflicts: cx.report.conflicts });
  try {
    store.write(() => store.davSync.asServer(fast));
  } catch (err) {
    if (err instanceof SiteError) throw err;
    Object.assign(cx.report, JSON.parse(counts));
    store.write(() => store.davSync.asServer(careful));
  }
}

function pendingOf(cx: SiteRound, kind: SiteKind, o: Pick<SyncObjectRow, 'uid' | 'local_id'>): boolean {
  if (kind === 'event') return !!o.uid && !!cx.store.davSync.pending(cx.calendarId, o.uid);
  return o.local_id !== null && !!cx.store.sites.pending(cx.calendarId, kind, o.local_id);
}

/** The change here is settled by the pull (the same, or the site's kept): nothing waits, nor a refusal of it. */
function dropPending(cx: SiteRound, kind: SiteKind, o: Pick<SyncObjectRow, 'uid' | 'local_id'>): void {
  if (kind === 'event') {
    // A series' occurrences changed here on their own may still wait: the push compares them.
    if (!o.uid || (o.local_id !== null && occurrencesMayWait(cx, o.local_id))) return;
    cx.store.davSync.dropPending(cx.calendarId, o.uid);
    cx.store.sites.clearRefusal(cx.calendarId, 'push', kind, o.uid);
  } else if (o.local_id !== null) {
    cx.store.sites.dropPending(cx.calendarId, kind, o.local_id);
    cx.store.sites.clearRefusal(cx.calendarId, 'push', kind, String(o.local_id));
  }
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
 * A batch's objects by the site's id, without their base copies (read only for a record whose
 * hash differs), in one query inside the batch's transaction; null: not linked here. A record
 * saved is dropped from it, so a later copy of it in the batch (or a batch stored again) reads it.
 */
type KnownObjects = Map<number, Omit<SyncObjectRow, 'base_json'> | null>;
function knownObjects(cx: SiteRound, kind: SiteKind, records: Array<Record<string, unknown>>): KnownObjects {
  const ids = records.map(idOf).filter((id): id is number => id !== undefined);
  const known: KnownObjects = new Map(ids.map((id) => [id, null]));
  for (const o of cx.store.sites.objectsByRemote(cx.calendarId, kind, ids)) known.set(o.remote_id!, o);
  return known;
}

/**
 * One record of the site, as listed: new → created here (or linked to the same record here),
 * unchanged → nothing, changed → applied, or decided with the local change. Call in a write
 * transaction, as the site's. A record that cannot be stored here is reported, not fatal.
 */
function takeRecord(cx: SiteRound, kind: SiteKind, json: Record<string, unknown>, seen: Set<number>, embedded = false, careful = true, known?: KnownObjects): void {
  const remoteId = idOf(json);
  if (remoteId === undefined) return;
  // An occurrence of an Almanac site's series is not a record of its own: one changed on its own is taken after the listings (occurrences.ts).
  if (kind === 'event' && isOccurrenceJson(json)) return noteOccurrence(cx, json);
  if (!embedded) seen.add(remoteId);
  if (kind === 'event' && deferFirstEvent(cx, json)) return;
  const r = normRecord(kind, json, identity, { series: cx.caps.almanac });
  const base = baseOf(r);
  const hash = base.base_hash;
  const { store, calendarId } = cx;
  const occurrence = kind === 'event' && !cx.caps.almanac ? siteOccurrence(json) : null;
  const readOnly = occurrence ? JSON.stringify(occurrence) : null;
  // Unguarded in a batch's first try (storeBatch): a failure there throws, and the batch is
  // stored again, each record in its own savepoint.
  const guarded = careful ? savepoint(store) : (fn: () => void) => fn();
  try {
    guarded(() => {
      const o = known?.has(remoteId) ? (known.get(remoteId) ?? undefined) : store.sites.objectByRemote(calendarId, kind, remoteId);
      known?.delete(remoteId);
      const hidden = kind === 'event' && r.hide_from_listings ? 1 : 0;
      if (!o) {
        const linked = kind === 'event' ? undefined : store.sites.sameHere(calendarId, kind, r);
        // A record here that is the site's: linked, and from now on the site's version.
        const localId = applyLocally(cx, kind, r, linked);
        store.sites.saveObject({ calendar_id: calendarId, kind, local_id: localId, uid: kind === 'event' ? uidOf(cx, localId) : null, remote_id: remoteId, ...base, hidden, read_only: readOnly });
        cx.report.received.changed++;
        return;
      }
      if (o.base_hash === hash) {
        if (o.hidden !== hidden || (kind === 'event' && o.read_only !== readOnly)) store.sites.saveObject({ id: o.id, calendar_id: calendarId, kind, hidden, read_only: kind === 'event' ? readOnly : undefined }, o);
        return;
      }
      // Embedded copies (an event's venue) are not always whole: only a listing changes a known record.
      if (embedded) return;
      const baseJson = store.sites.objectBase(o.id);
      const local = o.local_id !== null ? localRecord(cx, kind, o.local_id) : undefined;
      const localId = local !== undefined ? o.local_id! : undefined;
      const save = (id: number | undefined) =>
        store.sites.saveObject({ id: o.id, calendar_id: calendarId, kind, local_id: id ?? null, uid: kind === 'event' && id !== undefined ? uidOf(cx, id) : o.uid, ...base, remote_status: null, hidden, read_only: kind === 'event' ? readOnly : undefined }, o);
      if (!pendingOf(cx, kind, o)) {
        save(applyLocally(cx, kind, r, localId));
        const trashedNow = kind === 'event' && r.status === 'trash' && !(baseJson ?? '').includes('"status":"trash"');
        cx.report.received[trashedNow ? 'deleted' : 'changed']++;
        return;
      }
      // Trashed there while edited here: ours stays, and the push brings it back with the change.
      if (kind === 'event' && r.status === 'trash' && local && local.status !== 'trash') {
        store.sites.saveObject({ id: o.id, calendar_id: calendarId, kind, remote_status: 'trash' }, o);
        return;
      }
      const agreed = baseJson ? (JSON.parse(baseJson) as SiteRecord) : undefined;
      const [mine, theirs] = kind === 'event' ? withExdatesMerged(agreed, local, r) : [local, r];
      const decision = decideRecords(agreed, mine, theirs);
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
    if (err instanceof SiteError || !careful) throw err;
    refusedHere(cx, kind, remoteId, recordTitle(kind, r), err);
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
  store.sites.saveObject({ id: o.id, calendar_id: calendarId, kind: 'event', remote_status: 'trash', ...(base ? baseOf(base) : { base_json: null, base_hash: null }) });
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

