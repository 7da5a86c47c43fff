/**
 * Taking a calendar's changes from the server. With RFC 6578 sync-collection (tsdav
 * `syncCollection`, no <limit>: Xandikos truncates silently) only what changed since the last
 * token is listed; without it, or when the server refuses the token (403/409 valid-sync-token,
 * any error), or once a day (servers prune their change logs without saying), a full listing
 * (PROPFIND depth 1, getetag) is compared with what is known: new and changed ETags are fetched,
 * hrefs no longer listed were deleted there. Without sync-collection an unchanged ctag skips the
 * listing when nothing was sent.
 *
 * Changed resources are fetched with calendar-multiget, PULL_BATCH at a time, and each batch is
 * applied in one transaction as the server's (no outbox rows come of it). The new token is saved
 * with the last batch, never before: a round cut short starts again from the old one.
 *
 * A resource changed there while also changed here (an outbox row waits): merged when each side
 * changed other fields (merge.ts; the merge is sent next), else the server's version wins and the
 * local one is kept as a conflict copy, unless both say the same. Deleted there while changed
 * here: the local version stays and is sent again as new.
 */
import { calendarMultiGet, propfind, syncCollection, type DAVResponse } from 'tsdav';
import { applyItems, localResource, mappedItems, sameMapped } from './resource';
import { mergeThreeWay } from './merge';
import { decideBothChanged } from '../sync/merge';
import { HttpStatusError, yieldToRequests, type RoundContext } from './sync';
import { text } from './discovery';

/** Resources fetched per calendar-multiget. */
export const PULL_BATCH = 50;
/** Resources applied per transaction, with requests let in between. */
export const APPLY_STEP = 10;
/** A full listing at least this often, even with sync-collection. */
const FULL_LISTING_EVERY_MS = 24 * 3600_000;

interface Change {
  href: string;
  etag: string | null;
}

export async function pullCalendar(cx: RoundContext, pushed: boolean): Promise<void> {
  const { calendar, store } = cx;
  const now = Date.now();
  const fullDue = !calendar.last_full_sync_utc || now - Date.parse(calendar.last_full_sync_utc) > FULL_LISTING_EVERY_MS;

  let changed: Change[] = [];
  let deleted: string[] = [];
  let token: string | null = null;
  let full = true;
  if (calendar.has_sync_collection && !fullDue && calendar.sync_token) {
    const delta = await changesSince(cx, calendar.sync_token);
    if (delta) {
      ({ changed, deleted, token } = delta);
      full = false;
    }
  }
  // With the changes in hand, the collection's ctag is not needed: one request fewer per round.
  const state = full ? await collectionState(cx) : { ctag: calendar.ctag, syncToken: null };
  if (full) {
    if (!pushed && !calendar.has_sync_collection && state.ctag !== null && state.ctag === calendar.ctag && !fullDue) return;
    const listed = await listing(cx);
    const known = new Map(store.davSync.objects(calendar.id).map((o) => [o.href, o.etag]));
    changed = listed.filter((l) => known.get(l.href) !== l.etag || !known.has(l.href));
    const present = new Set(listed.map((l) => l.href));
    // An object whose first send was never confirmed (no ETag yet) is not "deleted there".
    deleted = [...known].filter(([href, etag]) => etag !== null && !present.has(href)).map(([href]) => href);
    // A token taken with the listing: changes after it come by sync-collection next time.
    token = state.syncToken;
  } else {
    const known = new Map(store.davSync.objects(calendar.id).map((o) => [o.href, o.etag]));
    changed = changed.filter((c) => c.etag === null || known.get(c.href) !== c.etag);
  }

  const save = (last: boolean) => {
    if (!last) return;
    store.davSync.saveCalendarState(calendar.id, { syncToken: token, ctag: state.ctag, fullSyncUtc: full ? new Date(now).toISOString() : null, error: null });
  };

  if (deleted.length) {
    store.write(() => {
      for (const href of deleted) removedThere(cx, href);
      if (changed.length === 0) save(true);
    });
  }
  for (let i = 0; i < changed.length; i += PULL_BATCH) {
    const batch = changed.slice(i, i + PULL_BATCH);
    const fetched = await multiget(cx, batch.map((c) => c.href));
    const lastBatch = i + PULL_BATCH >= changed.length;
    if (fetched.length === 0 && lastBatch) store.write(() => save(true));
    for (let j = 0; j < fetched.length; j += APPLY_STEP) {
      const part = fetched.slice(j, j + APPLY_STEP);
      store.write(() => {
        changedThere(cx, part);
        save(lastBatch && j + APPLY_STEP >= fetched.length);
      });
      await yieldToRequests();
    }
  }
  if (!deleted.length && !changed.length) store.write(() => save(true));
}

/** Resources the server has in a new version: applied, as the server's. Call in a transaction. */
function changedThere(cx: RoundContext, resources: Array<{ href: string; etag: string | null; text: string }>): void {
  const { store, calendar, report } = cx;
  const items = resources.map(({ text }) => {
    const mapped = mappedItems(text, cx.write);
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
  if (applied.errors.length) store.davSync.setCalendarError(calendar.id, applied.errors[0]);
  resources.forEach(({ href, etag, text }, i) => {
    const uid = applied.uids[i];
    const known = store.davSync.objectByHref(calendar.id, href);
    // A resource whose UID is not the one its name was known by (another client re-created it).
    if (known && uid && known.uid !== uid) store.davSync.forgetObject(calendar.id, known.uid);
    if (uid) store.davSync.saveObject({ calendarId: calendar.id, uid, href, etag, base: text });
    report.received.changed++;
  });
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
    responses = await syncCollection({ url, props: { 'd:getetag': {} }, syncLevel: 1, syncToken: token, fetch: cx.transport.fetch });
  } catch (err) {
    if (cx.transport.networkError || cx.transport.tooLarge) throw err;
    return undefined;
  }
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
    else if (r.ok) changed.push({ href, etag: text((r.props as Record<string, unknown> | undefined)?.getetag) ?? null });
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
  const responses = await propfind({ url, props: { 'd:getetag': {}, 'd:resourcetype': {} }, depth: '1', fetch: cx.transport.fetch });
  if (responses.length === 1 && !responses[0].ok && !responses[0].props) throw new HttpStatusError(responses[0].status, 'PROPFIND');
  const out: Change[] = [];
  for (const r of responses) {
    if (!r.href || !r.ok) continue;
    const href = new URL(r.href, url).href;
    if (sameUrl(href, url)) continue;
    const props = (r.props ?? {}) as Record<string, unknown>;
    // Sub-collections are not events.
    if (props.resourcetype && typeof props.resourcetype === 'object' && 'collection' in (props.resourcetype as object)) continue;
    out.push({ href, etag: text(props.getetag) ?? null });
  }
  return out;
}

/** The texts and ETags of these resources (calendar-multiget). A resource that went meanwhile is left out. */
async function multiget(cx: RoundContext, hrefs: string[]): Promise<Array<{ href: string; etag: string | null; text: string }>> {
  const url = cx.calendar.url!;
  const responses = await calendarMultiGet({
    url,
    props: { 'd:getetag': {}, 'c:calendar-data': {} },
    objectUrls: hrefs.map((h) => new URL(h).pathname),
    depth: '1',
    fetch: cx.transport.fetch,
  });
  if (responses.length === 1 && !responses[0].href && !responses[0].ok) throw new HttpStatusError(responses[0].status, 'calendar-multiget');
  const out: Array<{ href: string; etag: string | null; text: string }> = [];
  for (const r of responses) {
    if (!r.href || !r.ok) continue;
    const props = (r.props ?? {}) as Record<string, unknown>;
    const data = text(props.calendarData);
    if (!data) continue;
    out.push({ href: new URL(r.href, url).href, etag: text(props.getetag) ?? null, text: data });
  }
  return out;
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

