/**
 * Taking a calendar's changes from the server. With RFC 6578 sync-collection (tsdav
 * `syncCollection`, no <limit>: Xandikos truncates silently) only what changed since the last
 * token is listed; without it, or when the server refuses the token (403/409 valid-sync-token,
 * any error), or once a day (servers prune their change logs without saying), a full listing
 * (sync-collection from no token where the server has it, else PROPFIND depth 1, getetag) is
 * compared with what is known: new and changed ETags are fetched, hrefs no longer listed were
 * deleted there. Without sync-collection an unchanged ctag skips the listing when nothing was sent.
 *
 * Changed resources are fetched with calendar-multiget, PULL_BATCH at a time (the next batch asked
 * for while one is applied), and applied a few per transaction (stepAt) as the server's (no outbox
 * rows come of it). The new token is saved with the last batch, never before: a round cut short
 * starts again from the old one.
 *
 * A resource changed there while also changed here (an outbox row waits): merged when each side
 * changed other fields (merge.ts; the merge is sent next), else the server's version wins and the
 * local one is kept as a conflict copy, unless both say the same. Deleted there while changed
 * here: the local version stays and is sent again as new.
 *
 * What the server says is checked before it costs anything (issue 25): an answer that is not a
 * readable multistatus is an error, never an empty calendar; a listing that would delete most of
 * the calendar is held for the user (held-deletes.ts); a resource that cannot be taken (several
 * UIDs, a time zone or text over the file import's bounds, an answer that left it out) is told
 * as the calendar's error, and the round's token is not saved, so the next round asks again.
 */
import { calendarMultiGet, propfind, syncCollection, type DAVResponse } from 'tsdav';
import { applyItems, localResource, mappedItems, sameMapped, veventUids } from './resource';
import { mergeThreeWay } from './merge';
import { decideBothChanged } from '../sync/merge';
import { HttpStatusError, type RoundContext } from './sync';
import { yieldToRequests } from '../sync/outbox';
import { text } from './discovery';
import { excerpt, SyncProblem } from './errors';
import { heldDeletes, mustHold, saveHeld } from './held-deletes';

/**
 * Resources fetched per calendar-multiget. Bigger batches save Radicale a little per request
 * (100 against 50: some 0.1-0.3 s per 1,200 resources here), but 50 big resources already make
 * tens of MB of answer against the transport's 64 MiB bound, and with the next batch asked for
 * while one is applied the requests' time is mostly hidden anyway.
 */
export const PULL_BATCH = 50;
/**
 * Bytes of resources (as the listing announces them) per calendar-multiget: its answer is parsed
 * in one piece on the server's thread (about 13 ms a megabyte here).
 */
export const PULL_BATCH_BYTES = 4 * 1024 * 1024;
/**
 * The largest resource taken: an event with a 200,000-character description and a series with
 * hundreds of changed occurrences stay far below; a 10 MB resource (a time zone of 100,000
 * observances) held the server for over a second. Refused unfetched when the listing announces its
 * size, else once read.
 */
export const MAX_RESOURCE_BYTES = 2 * 1024 * 1024;
/**
 * Resources applied per transaction, requests let in between: as many as make APPLY_TEXT_STEP
 * characters of iCalendar, at most APPLY_STEP. Each transaction's import has a set-up of its own,
 * so small resources go many at a time (a first sync of 1,000 small ones: some 15 % less work
 * than ten at a time) and big ones few. Counted in text rather than timed: on a busy machine a
 * timed step shrinks to one resource and the whole pull slows down.
 */
export const APPLY_STEP = 50;
export const APPLY_TEXT_STEP = 32 * 1024;

/** How many of `resources` from `from` on go in one transaction (one at least). */
function stepAt(resources: Array<{ text: string }>, from: number): number {
  let size = 0;
  let n = 0;
  while (from + n < resources.length && n < APPLY_STEP && (n === 0 || size + resources[from + n].text.length <= APPLY_TEXT_STEP)) size += resources[from + n++].text.length;
  return n;
}
/** A full listing at least this often, even with sync-collection. */
const FULL_LISTING_EVERY_MS = 24 * 3600_000;

interface Change {
  href: string;
  etag: string | null;
  /** getcontentlength, when the server gives it. */
  size?: number | null;
}

export async function pullCalendar(cx: RoundContext, pushed: boolean): Promise<void> {
  const { calendar, store } = cx;
  const now = Date.now();
  const fullDue = !calendar.last_full_sync_utc || now - Date.parse(calendar.last_full_sync_utc) > FULL_LISTING_EVERY_MS;

  let changed: Change[] = [];
  let deleted: string[] = [];
  let token: string | null = null;
  let full = true;
  let knownCount = 0;
  // Resources not taken this round, each told; while there are any the round's state is not saved.
  const problems: SyncProblem[] = [];
  if (calendar.has_sync_collection && !fullDue && calendar.sync_token) {
    const delta = await changesSince(cx, calendar.sync_token);
    if (delta) {
      ({ changed, deleted, token } = delta);
      full = false;
    }
  }
  // A full listing by sync-collection from no token (RFC 6578 §3.8: every member, and a token)
  // takes one request where PROPFIND takes two, and Radicale answers it many times faster than a
  // depth-1 PROPFIND (0.8 s against 6-8 s for 3,000 resources here). A server that refuses it
  // gets the PROPFINDs.
  const initial = full && calendar.has_sync_collection ? await changesSince(cx, '') : undefined;
  // With the changes (or that listing) in hand, the collection's ctag is not needed: one request fewer.
  const state = full && !initial ? await collectionState(cx) : { ctag: calendar.ctag, syncToken: initial?.token ?? null };
  if (full) {
    if (!pushed && !calendar.has_sync_collection && state.ctag !== null && state.ctag === calendar.ctag && !fullDue) return;
    const listed = initial ? initial.changed : await listing(cx);
    const known = new Map(store.davSync.objects(calendar.id).map((o) => [o.href, o.etag]));
    knownCount = known.size;
    changed = listed.filter((l) => known.get(l.href) !== l.etag || !known.has(l.href));
    const present = new Set(listed.map((l) => l.href));
    // An object whose first send was never confirmed (no ETag yet) is not "deleted there".
    deleted = [...known].filter(([href, etag]) => etag !== null && !present.has(href)).map(([href]) => href);
    // A token taken with the listing: changes after it come by sync-collection next time.
    token = state.syncToken;
  } else {
    const known = new Map(store.davSync.objects(calendar.id).map((o) => [o.href, o.etag]));
    knownCount = known.size;
    changed = changed.filter((c) => c.etag === null || known.get(c.href) !== c.etag);
  }

  const held = heldDeletes(calendar);
  if (deleted.length && mustHold(deleted.length, knownCount)) {
    if (held?.decision === 'refuse') {
      store.write(() => {
        for (const href of deleted) keptHere(cx, href);
        saveHeld(store, calendar.id, null);
      });
      deleted = [];
    } else if (held?.decision !== 'allow') {
      store.write(() => saveHeld(store, calendar.id, { count: deleted.length, total: knownCount, decision: null }));
      throw new SyncProblem('sync_deletes_held', { count: deleted.length, total: knownCount });
    }
  }

  const save = (last: boolean) => {
    if (!last || problems.length) return;
    store.davSync.saveCalendarState(calendar.id, { syncToken: token, ctag: state.ctag, fullSyncUtc: full ? new Date(now).toISOString() : null, error: null });
    if (held) saveHeld(store, calendar.id, null);
  };

  if (deleted.length) {
    store.write(() => {
      for (const href of deleted) removedThere(cx, href);
      if (changed.length === 0) save(true);
    });
  }
  const batches = batchesOf(changed, problems);
  // The next batch is asked for while this one is applied: the server works while we do.
  const ask = (i: number) => {
    const batch = batches[i];
    const pending = batch.length ? multiget(cx, batch.map((c) => c.href), problems) : Promise.resolve([]);
    // Awaited in its turn; a round that stops before (an error applying) must not leave it unhandled.
    pending.catch(() => {});
    return pending;
  };
  let next = batches.length ? ask(0) : undefined;
  for (let i = 0; i < batches.length; i++) {
    const fetched = await next!;
    const lastBatch = i === batches.length - 1;
    next = lastBatch ? undefined : ask(i + 1);
    if (fetched.length === 0 && lastBatch) store.write(() => save(true));
    for (let j = 0; j < fetched.length; ) {
      const part = fetched.slice(j, j + stepAt(fetched, j));
      store.write(() => {
        changedThere(cx, part, problems);
        save(lastBatch && j + part.length >= fetched.length);
      });
      j += part.length;
      await yieldToRequests();
    }
  }
  if (!deleted.length && !changed.length) store.write(() => save(true));
  if (problems.length) throw problems[0];
}

/**
 * The changed resources in multiget batches of PULL_BATCH and PULL_BATCH_BYTES at most (a larger
 * resource alone); those announced over MAX_RESOURCE_BYTES are refused unfetched. Always one
 * batch at least (possibly empty), whose end saves the round's state.
 */
function batchesOf(changed: Change[], problems: SyncProblem[]): Change[][] {
  const out: Change[][] = [[]];
  let bytes = 0;
  for (const c of changed) {
    const size = c.size ?? 0;
    if (size > MAX_RESOURCE_BYTES) {
      problems.push(tooLarge(c.href, size));
      continue;
    }
    let last = out[out.length - 1];
    if (last.length && (last.length >= PULL_BATCH || bytes + size > PULL_BATCH_BYTES)) {
      out.push((last = []));
      bytes = 0;
    }
    last.push(c);
    bytes += size;
  }
  return out;
}

function tooLarge(href: string, size: number): SyncProblem {
  const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;
  return new SyncProblem('sync_resource_too_large', { name: nameOf(href), size: mb(size), limit: mb(MAX_RESOURCE_BYTES) });
}

function nameOf(href: string): string {
  return decodeURIComponentSafe(new URL(href).pathname.split('/').filter(Boolean).pop() ?? href).slice(0, 100);
}

/**
 * Resources Almanac does not take, told by their name: more than one UID (a broken server serving
 * a whole calendar as one resource: refused at once, in time linear in its size, rather than
 * written in one piece on the server's thread), or nothing the mapping could read (a time zone or
 * text over the file import's bounds, ical.js failing).
 */
function refusal(href: string, uids: number, unreadable: string | undefined): SyncProblem | undefined {
  const name = nameOf(href);
  if (uids > 1) return new SyncProblem('sync_many_uids', { name, count: uids.toLocaleString('en') });
  if (unreadable !== undefined) return new SyncProblem('sync_resource_refused', { name, reason: excerpt(unreadable, 200) });
  return undefined;
}

/** Resources the server has in a new version: applied, as the server's. Call in a transaction. */
function changedThere(cx: RoundContext, all: Array<{ href: string; etag: string | null; text: string }>, problems: SyncProblem[]): void {
  const { store, calendar, report } = cx;
  const resources: typeof all = [];
  const readable: ReturnType<typeof mappedItems>[] = [];
  for (const r of all) {
    if (r.text.length > MAX_RESOURCE_BYTES) {
      problems.push(tooLarge(r.href, Buffer.byteLength(r.text)));
      continue;
    }
    const uids = veventUids(r.text);
    const errors: string[] = [];
    const mapped = uids > 1 ? [] : mappedItems(r.text, cx.write, errors);
    const refused = refusal(r.href, uids, mapped.length ? undefined : (errors[0] ?? 'no event could be read from it'));
    if (refused) problems.push(refused);
    else {
      resources.push(r);
      readable.push(mapped);
    }
  }
  const items = resources.map(({ text }, i) => {
    const mapped = readable[i];
    const uid = mapped[0]?.uid;
    if (!uid || !store.davSync.pending(calendar.id, uid)) return mapped;
    // Changed here too: merged when each side changed other fields (and then still to send);
    // else the server's version wins and ours is kept, unless it says the same.
    const local = localResource(store, calendar.id, uid, cx.url);
    const base = store.davSync.object(calendar.id, uid)?.base_ical;
    const decision = decideBothChanged(local ?? undefined, {
      same: (l) => sameMapped(l.text, text, cx.write),
      merge: (l) => (base ? mergeThreeWay(base, l.text, text, cx.write) : null),
    });
    if (decision.outcome === 'merged') {
      report.merged++;
      return decision.merged;
    }
    if (decision.outcome === 'conflict') {
      store.davSync.keepConflict(calendar.id, uid, local!.title, local!.text, new Date().toISOString());
      report.conflicts++;
    }
    store.davSync.dropPending(calendar.id, uid);
    return mapped;
  });
  const applied = store.davSync.asServer(() => applyItems(store, calendar.id, items, cx.write));
  resources.forEach(({ href, etag, text }, i) => {
    const uid = applied.uids[i];
    // Not written (a field over its bounds): not known either, so the next round fetches it again.
    if (uid !== undefined && applied.errors.length && !store.davSync.anchor(calendar.id, uid)) {
      problems.push(refusal(href, 1, applied.errors.find((e) => e.includes(uid)) ?? applied.errors[0])!);
      return;
    }
    const known = store.davSync.objectByHref(calendar.id, href);
    // A resource whose UID is not the one its name was known by (another client re-created it).
    if (known && uid && known.uid !== uid) store.davSync.forgetObject(calendar.id, known.uid);
    if (uid) store.davSync.saveObject({ calendarId: calendar.id, uid, href, etag, base: text });
    report.received.changed++;
  });
}

/** A resource the server no longer lists, kept here by the user: sent again as new. Call in a transaction. */
function keptHere(cx: RoundContext, href: string): void {
  const known = cx.store.davSync.objectByHref(cx.calendar.id, href);
  if (!known) return;
  cx.store.davSync.forgetObject(cx.calendar.id, known.uid);
  if (cx.store.davSync.anchor(cx.calendar.id, known.uid)) cx.store.davSync.requeue(cx.calendar.id, known.uid);
}

/** A resource deleted on the server. Call in a transaction. */
function removedThere(cx: RoundContext, href: string): void {
  const { store, calendar, report } = cx;
  const known = store.davSync.objectByHref(calendar.id, href);
  if (!known) return;
  store.davSync.forgetObject(calendar.id, known.uid);
  // Changed here meanwhile: kept, and sent again as new by the next push.
  if (store.davSync.pending(calendar.id, known.uid)) return;
  store.davSync.asServer(() => store.davSync.deleteResource(calendar.id, known.uid));
  report.received.deleted++;
}

/** Changes since `token`, or undefined when the server will not say (the caller lists instead). */
async function changesSince(cx: RoundContext, token: string): Promise<{ changed: Change[]; deleted: string[]; token: string | null } | undefined> {
  const url = cx.calendar.url!;
  let responses: DAVResponse[];
  try {
    responses = await syncCollection({ url, props: { 'd:getetag': {}, 'd:getcontentlength': {} }, syncLevel: 1, syncToken: token, fetch: cx.transport.fetch });
  } catch (err) {
    if (cx.transport.networkError || cx.transport.tooLarge) throw err;
    return undefined;
  }
  // Not a multistatus (a proxy's page): the changes cannot be told, so the whole listing is asked.
  if (!isMultistatus(responses) && responses[0]?.ok) return undefined;
  const failed = responses.find((r) => !r.href && !r.ok);
  if (failed || responses.some((r) => r.href && sameUrl(r.href, url) && !r.ok)) {
    const status = failed?.status ?? 0;
    if (status === 401 || status >= 500) throw new HttpStatusError(status, 'sync-collection');
    // 403/409 (token no longer valid), anything else: a full listing instead.
    return undefined;
  }
  const changed: Change[] = [];
  const deleted: string[] = [];
  for (const r of responses) {
    if (!r.href) continue;
    const href = new URL(r.href, url).href;
    if (sameUrl(href, url)) continue;
    if (r.status === 404) deleted.push(href);
    else if (r.ok) changed.push({ href, etag: text((r.props as Record<string, unknown> | undefined)?.getetag) ?? null, size: sizeOf(r.props) });
  }
  const raw = (responses[0]?.raw as { multistatus?: { syncToken?: unknown } } | undefined)?.multistatus?.syncToken;
  return { changed, deleted, token: text(raw) ?? null };
}

/** The collection's ctag and sync-token now (PROPFIND depth 0). */
async function collectionState(cx: RoundContext): Promise<{ ctag: string | null; syncToken: string | null }> {
  const url = cx.calendar.url!;
  const responses = await propfind({ url, props: { 'cs:getctag': {}, 'd:sync-token': {} }, depth: '0', fetch: cx.transport.fetch });
  const r = responses[0];
  if (!r || (!r.ok && !r.props)) throw new HttpStatusError(r?.status ?? 0, 'PROPFIND');
  const props = (r.props ?? {}) as Record<string, unknown>;
  return { ctag: text(props.getctag) ?? null, syncToken: text(props.syncToken) ?? null };
}

/** Every resource of the collection with its ETag (PROPFIND depth 1). */
async function listing(cx: RoundContext): Promise<Change[]> {
  const url = cx.calendar.url!;
  // The body is kept to tell a cut-off answer: tsdav's XML reading accepts one as far as it goes.
  let complete = false;
  const fetchWhole: typeof fetch = async (input, init) => {
    const res = await cx.transport.fetch(input, init);
    const body = await res.text();
    complete = /<\/(?:[A-Za-z_][\w.-]*:)?multistatus\s*>\s*$/.test(body.slice(-200));
    const out = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    Object.defineProperty(out, 'url', { value: res.url });
    return out;
  };
  const responses = await propfind({ url, props: { 'd:getetag': {}, 'd:resourcetype': {}, 'd:getcontentlength': {} }, depth: '1', fetch: fetchWhole });
  if (responses.length === 1 && !responses[0].ok && !responses[0].props) throw new HttpStatusError(responses[0].status, 'PROPFIND');
  // A depth-1 listing always names the collection itself: an answer without it (an HTML page, a
  // 207 that is not XML, cut short or empty) cannot say that anything is gone.
  if (!complete || !isMultistatus(responses) || !responses.some((r) => r.href && sameUrl(new URL(r.href, url).href, url))) {
    throw new SyncProblem('sync_listing_unreadable', { status: responses[0]?.status ?? 0 });
  }
  const out: Change[] = [];
  for (const r of responses) {
    if (!r.href || !r.ok) continue;
    const href = new URL(r.href, url).href;
    if (sameUrl(href, url)) continue;
    const props = (r.props ?? {}) as Record<string, unknown>;
    // Sub-collections are not events.
    if (props.resourcetype && typeof props.resourcetype === 'object' && 'collection' in (props.resourcetype as object)) continue;
    out.push({ href, etag: text(props.getetag) ?? null, size: sizeOf(props) });
  }
  return out;
}

function sizeOf(props: unknown): number | null {
  const n = Number(text((props as Record<string, unknown> | undefined)?.getcontentlength));
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/**
 * The texts and ETags of these resources (calendar-multiget). A resource that went meanwhile (404)
 * is left out; one the answer does not give at all is a problem (fetched again next round), and
 * an answer that is no multistatus an error.
 */
async function multiget(cx: RoundContext, hrefs: string[], problems: SyncProblem[]): Promise<Array<{ href: string; etag: string | null; text: string }>> {
  const url = cx.calendar.url!;
  const responses = await calendarMultiGet({
    url,
    props: { 'd:getetag': {}, 'c:calendar-data': {} },
    objectUrls: hrefs.map((h) => new URL(h).pathname),
    depth: '1',
    fetch: cx.transport.fetch,
  });
  if (responses.length === 1 && !responses[0].href && !responses[0].ok) throw new HttpStatusError(responses[0].status, 'calendar-multiget');
  if (!isMultistatus(responses)) throw new SyncProblem('sync_answer_unreadable', { count: hrefs.length, status: responses[0]?.status ?? 0 });
  const out: Array<{ href: string; etag: string | null; text: string }> = [];
  const answered = new Set<string>();
  for (const r of responses) {
    if (!r.href) continue;
    const href = new URL(r.href, url).href;
    if (r.status === 404) answered.add(sameKey(href));
    if (!r.ok) continue;
    const props = (r.props ?? {}) as Record<string, unknown>;
    const data = text(props.calendarData);
    if (!data) continue;
    answered.add(sameKey(href));
    out.push({ href, etag: text(props.getetag) ?? null, text: data });
  }
  const missing = hrefs.filter((h) => !answered.has(sameKey(h))).length;
  if (missing) problems.push(new SyncProblem('sync_answer_unreadable', { count: missing, status: responses[0]?.status ?? 0 }));
  return out;
}

/** tsdav's reading of a real multistatus keeps the parsed document; of anything else, the text. */
function isMultistatus(responses: DAVResponse[]): boolean {
  const raw = responses[0]?.raw as { multistatus?: unknown } | string | undefined;
  return !!raw && typeof raw === 'object' && raw.multistatus !== undefined;
}

function sameKey(u: string): string {
  return decodeURIComponentSafe(new URL(u, 'http://x/').pathname).replace(/\/+$/, '');
}

function sameUrl(a: string, b: string): boolean {
  const norm = (u: string) => decodeURIComponentSafe(new URL(u, 'http://x/').pathname).replace(/\/+$/, '');
  return norm(a) === norm(b);
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

