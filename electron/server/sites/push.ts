/**
 * Sending what changed here to a site (issue 26 items 4 and 5), in dependency order: categories
 * (parents first), tags, venues, organizers (site_outbox), then events (dav_outbox), then events
 * trashed or deleted here. A venue, organizer or term the site has not got yet is created there
 * first and linked by id (`term_exists` adopts the site's term).
 *
 * Before an update the site's copy is read: unchanged since the last sync → ours is sent; changed
 * → the sync core decides (same: done; merged: the merge is sent; conflict: the site's wins here
 * and ours is kept as a conflict copy). An event update carries the whole event (the original's
 * updates are not partial). Trashed there while edited here: the update brings it back. Deleted
 * here while changed there: it comes back here with the site's version instead of being deleted.
 *
 * A create is journalled before it is sent (`remote_status = 'creating'`); a create whose answer
 * was lost (timeout, kill -9) is looked up in its day by title, start and venue before being
 * sent again, so it never makes a second event.
 */
import { decideRecords, same } from '../sync/merge';
import { drainOutbox, retryLater } from '../sync/outbox';
import { errorText, excerpt, storedError } from '../caldav/errors';
import { apiUrl } from './http';
import { SiteError } from './errors';
import { baseOf, identity, normRecord, payload, recordHash, recordTitle, type SiteEvent, type SiteRecord } from './records';
import { applyLocally, keepLocalCopy, localRecord } from './local';
import { jsonOf, PATHS, type SiteRound } from './round';
import { pushOccurrences, seriesBodies, seriesOfFirstEvent, withExdatesMerged } from './occurrences';
import type { SiteKind, SiteOutboxRow, SyncObjectRow } from '../store/sites';
import type { OutboxRow } from '../store/dav-sync';

type Linked = Exclude<SiteKind, 'event'>;
const BATCH = 50;
/** Changes sent per round at most: the rest go in the next round. */
const ROUND_LIMIT = 2000;

export async function pushSite(cx: SiteRound): Promise<boolean> {
  const before = cx.http.requests;
  const now = () => new Date().toISOString();
  // Venues, organizers and terms first: events name them.
  let sent = await drainOutbox({
    due: (limit) => cx.store.sites.due(cx.calendarId, now(), limit),
    key: (r) => `${r.kind}:${r.local_id}`,
    order: (rows) => sortParentsFirst(cx, rows),
    send: (row) => tracked(cx, row.kind, String(row.local_id), () => withRetry(() => pushLinked(cx, row))),
    batch: BATCH,
    limit: ROUND_LIMIT,
  });
  // Events: changes first, then what was trashed or deleted here.
  const alive = (r: OutboxRow) => {
    const a = cx.store.davSync.anchor(cx.calendarId, r.uid);
    return !!a && a.status !== 'trash';
  };
  sent += await drainOutbox({
    due: (limit) => cx.store.davSync.due(cx.calendarId, now(), limit),
    key: (r) => r.uid,
    order: (rows) => [...rows.filter(alive), ...rows.filter((r) => !alive(r))],
    send: (row) => tracked(cx, 'event', row.uid, () => withRetry(() => pushEvent(cx, row))),
    batch: BATCH,
    limit: ROUND_LIMIT,
  });
  cx.report.pushRequests += cx.http.requests - before;
  return sent > 0;
}

/**
 * Sends one outbox row; when the record went through (sent, found the same, or gone on both
 * sides) rather than refused, the refusal the user was shown for it goes.
 */
async function tracked(cx: SiteRound, kind: SiteKind, key: string, send: () => Promise<void>): Promise<void> {
  await send();
  // clearRefusal itself looks first whether the site has any refusal (most have none): one query.
  if (!cx.state.refused.has(`${kind}:${key}`)) cx.store.write(() => cx.store.sites.clearRefusal(cx.calendarId, 'push', kind, key));
}

/** The record a refusal is about: what the user is shown in GET /sync and the sidebar. */
interface Who {
  kind: SiteKind;
  /** The event's UID, or the local id of a venue, organizer or term. */
  key: string;
  localId: number | null;
  remoteId: number | null;
  title: string;
}

const whoEvent = (row: OutboxRow, localId: number | null | undefined, remoteId: number | null | undefined, title: string): Who => ({ kind: 'event', key: row.uid, localId: localId ?? null, remoteId: remoteId ?? null, title });

function sortParentsFirst(cx: SiteRound, rows: SiteOutboxRow[]): SiteOutboxRow[] {
  const depth = (r: SiteOutboxRow) => {
    if (r.kind !== 'category') return 0;
    let d = 0;
    for (let t = cx.store.terms.get('category', r.local_id); t && t.parent && d < 50; t = cx.store.terms.get('category', t.parent)) d++;
    return d;
  };
  const order = { category: 0, tag: 1, venue: 2, organizer: 3 } as const;
  return [...rows].sort((a, b) => order[a.kind] - order[b.kind] || depth(a) - depth(b));
}

const path = (kind: SiteKind, id?: number) => (id === undefined ? PATHS[kind] : `${PATHS[kind]}/${id}`);
const host = (cx: SiteRound) => new URL(cx.apiRoot).host;

/**
 * The site changed the record between our read and our write (412 to our If-Match): the change
 * is decided again against the new copy.
 */
class ChangedMeanwhile extends Error {}

/** Tries a change again while the site keeps changing the record under it (If-Match), a few times. */
async function withRetry(fn: () => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof ChangedMeanwhile) || attempt >= 2) throw err instanceof ChangedMeanwhile ? new Error('the site kept changing the record while it was sent') : err;
    }
  }
}

/** The site's copy of a record: the normalized record with its ETag, 'trashed', or 'gone'. */
async function readThere(cx: SiteRound, kind: SiteKind, remoteId: number): Promise<{ r: SiteRecord; json: Record<string, unknown>; etag: string | null } | 'trashed' | 'gone'> {
  const a = await cx.http.request('GET', apiUrl(cx.apiRoot, path(kind, remoteId)));
  if (a.status === 200) {
    const json = jsonOf(cx, a, `GET ${path(kind, remoteId)}`);
    const r = normRecord(kind, json, identity, { series: cx.caps.almanac });
    if (kind !== 'event' && json.status === 'trash') return 'trashed';
    return { r, json, etag: a.headers.get('etag') };
  }
  if ((a.status === 403 || a.status === 410) && a.json !== undefined && kind === 'event') return 'trashed';
  if ((a.status === 404 || a.status === 400 || a.status === 410) && a.json !== undefined) return 'gone';
  jsonOf(cx, a, `GET ${path(kind, remoteId)}`);
  throw new SiteError('bad_answer', { host: host(cx), what: `GET ${path(kind, remoteId)}: HTTP ${a.status}` }, a.status);
}

/** The site refused to create a record another one needs (its venue, a term): that one waits, told in words. */
class Refused extends Error {
  constructor(
    readonly status: number,
    readonly json: unknown,
    readonly title: string,
  ) {
    super(`the site refused "${title}" (HTTP ${status})`);
  }
}

/**
 * A write the site refused for this record only (400, 403, 409…): the change stays waiting (tried
 * again in an hour, at once on "Sync now", or when changed again here), and the refusal is kept
 * for the user (GET /sync, the sidebar) until the record goes through or the change is discarded.
 */
function refuse(cx: SiteRound, status: number, json: unknown, title: string, mark: (error: string, next: string) => void, who: Who): void {
  if (status === 401) throw new SiteError('unauthorized', { host: host(cx) }, 401);
  const reason = excerpt(String((json as { message?: unknown } | undefined)?.message ?? (json as { code?: unknown } | undefined)?.code ?? ''), 300);
  keepRefusal(cx, who, storedError({ key: 'site_push_refused', vars: { title, status, reason } }), status, mark);
}

function keepRefusal(cx: SiteRound, who: Who, error: string, status: number | null, mark: (error: string, next: string) => void): void {
  cx.state.refused.add(`${who.kind}:${who.key}`);
  cx.store.write(() => {
    mark(error, retryLater());
    cx.store.sites.refuse({ calendar_id: cx.calendarId, direction: 'push', kind: who.kind, record_key: who.key, local_id: who.localId, remote_id: who.remoteId, title: excerpt(who.title, 200), reason: error, status, at_utc: new Date().toISOString() });
  });
  cx.report.refused.push(errorText(error, 'en') ?? who.title);
}

/**
 * The site's id of a local venue, organizer or term, creating it there first when the site has
 * not got it (parents of categories before them).
 */
async function ensureThere(cx: SiteRound, kind: Linked, localId: number, depth = 0): Promise<number | undefined> {
  const known = cx.store.sites.objectByLocal(cx.calendarId, kind, localId);
  if (known?.remote_id) return known.remote_id;
  let r = localRecord(cx, kind, localId);
  if (!r) return undefined;
  if (kind === 'category' && typeof r.parent === 'string' && depth < 20) {
    await ensureThere(cx, 'category', Number(String(r.parent).slice(6)), depth + 1);
    r = localRecord(cx, kind, localId)!;
  }
  const a = await cx.http.request('POST', apiUrl(cx.apiRoot, path(kind)), payload(kind, r, { almanac: cx.caps.almanac }));
  let json: Record<string, unknown>;
  if ((a.status === 400 || a.status === 409) && (a.json as { code?: string } | undefined)?.code === 'term_exists') {
    // The site has a term of that name already: that one is ours.
    const termId = Number((a.json as { data?: { term_id?: unknown } }).data?.term_id);
    if (!Number.isInteger(termId)) throw new SiteError('bad_answer', { host: host(cx), what: 'term_exists without term_id' });
    const there = await readThere(cx, kind, termId);
    if (typeof there === 'string') return undefined;
    json = there.json;
  } else if (a.status === 200 || a.status === 201) {
    json = jsonOf(cx, a, `POST ${path(kind)}`);
  } else {
    if (a.status === 401) throw new SiteError('unauthorized', { host: host(cx) }, 401);
    throw new Refused(a.status, a.json, recordTitle(kind, r));
  }
  const remoteId = Number(json.id);
  const there = normRecord(kind, json, identity, { series: cx.caps.almanac });
  cx.store.write(() => {
    const other = cx.store.sites.objectByRemote(cx.calendarId, kind, remoteId);
    if (other) cx.store.sites.forgetObject(other.id);
    cx.store.sites.saveObject({ id: known?.id, calendar_id: cx.calendarId, kind, local_id: localId, remote_id: remoteId, ...baseOf(there) });
    cx.store.sites.dropPending(cx.calendarId, kind, localId);
  });
  cx.report.sent.created++;
  return remoteId;
}

async function pushLinked(cx: SiteRound, row: SiteOutboxRow): Promise<void> {
  const { store, calendarId } = cx;
  const kind = row.kind;
  const o = store.sites.objectByLocal(calendarId, kind, row.local_id);
  const local = localRecord(cx, kind, row.local_id);
  if (!local) {
    // Deleted here: trashed there (venues, organizers) or deleted (terms take force=true).
    if (o?.remote_id) {
      const a = await cx.http.request('DELETE', apiUrl(cx.apiRoot, path(kind, o.remote_id), kind === 'category' || kind === 'tag' ? { force: true } : {}));
      if (![200, 204, 404, 410].includes(a.status)) {
        const title = o.base_json ? recordTitle(kind, JSON.parse(o.base_json) as SiteRecord) : `${kind} ${o.remote_id}`;
        return refuse(cx, a.status, a.json, title, (e, n) => store.sites.markFailed(row, e, n), { kind, key: String(row.local_id), localId: row.local_id, remoteId: o.remote_id, title });
      }
      cx.report.sent.deleted++;
    }
    store.write(() => {
      if (o) store.sites.forgetObject(o.id);
      store.sites.markSent(row);
    });
    return;
  }
  const create = async () => {
    try {
      await ensureThere(cx, kind, row.local_id);
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      return refuse(cx, err.status, err.json, err.title, (e, n) => store.sites.markFailed(row, e, n), { kind, key: String(row.local_id), localId: row.local_id, remoteId: null, title: recordTitle(kind, local) });
    }
    store.write(() => store.sites.markSent(row));
  };
  if (!o?.remote_id) return create();
  const there = await readThere(cx, kind, o.remote_id);
  if (there === 'gone' || there === 'trashed') {
    // Gone there while changed here: made again.
    store.write(() => store.sites.forgetObject(o.id));
    return create();
  }
  const toSend = decideAgainstSite(cx, kind, o, local, there.r, row.local_id);
  if (!toSend) {
    // Done (unless it changed again meanwhile: then it goes next round).
    store.write(() => store.sites.markSent(row));
    return;
  }
  await sendUpdate(cx, kind, o, toSend, row.local_id, () => store.sites.markSent(row), (e, n) => store.sites.markFailed(row, e, n), there.etag);
}

/**
 * The record to send, decided against the site's copy: ours when the site's has not changed since
 * the last sync, else the sync core's outcome. Undefined when nothing is to be sent (same, or a
 * conflict: the site's wins here and ours is kept).
 */
function decideAgainstSite(cx: SiteRound, kind: SiteKind, o: SyncObjectRow, local: SiteRecord, remote: SiteRecord, localId: number): SiteRecord | undefined {
  const { store, calendarId } = cx;
  const remoteBase = baseOf(remote);
  const hash = remoteBase.base_hash;
  if (hash === o.base_hash) {
    // Neither side changed it (a change undone, a write that changed nothing the site has): nothing to send.
    return o.base_json && same(local, JSON.parse(o.base_json)) ? undefined : local;
  }
  const base = o.base_json ? (JSON.parse(o.base_json) as SiteRecord) : undefined;
  // Trashed there while changed here: ours brings it back whatever the status said.
  const remoteForMerge = kind === 'event' && remote.status === 'trash' ? { ...remote, status: local.status } : remote;
  const [mine, theirs] = kind === 'event' ? withExdatesMerged(base, local, remoteForMerge) : [local, remoteForMerge];
  const decision = decideRecords(base, mine, theirs);
  const saveBase = () => store.sites.saveObject({ id: o.id, calendar_id: calendarId, kind, ...remoteBase });
  if (decision.outcome === 'same' && remote === remoteForMerge) {
    store.write(saveBase);
    return undefined;
  }
  if (decision.outcome === 'merged') {
    store.write(() => {
      store.davSync.asServer(() => applyLocally(cx, kind, decision.merged, localId));
      saveBase();
    });
    cx.report.merged++;
    return decision.merged;
  }
  if (decision.outcome === 'same') return local;
  // The same field changed on both sides: the site's version wins, ours is kept.
  store.write(() => {
    keepLocalCopy(cx, kind, o, local, localId);
    store.davSync.asServer(() => applyLocally(cx, kind, remote, localId));
    saveBase();
  });
  cx.report.conflicts++;
  cx.report.received.changed++;
  return undefined;
}

/** Sends a whole record as an update; what the site answers is the new base (and what is shown here). */
async function sendUpdate(
  cx: SiteRound,
  kind: SiteKind,
  o: SyncObjectRow,
  r: SiteRecord,
  localId: number,
  done: () => void,
  failed: (error: string, next: string) => void,
  etag?: string | null,
  bodies?: Array<Record<string, unknown>>,
): Promise<void> {
  const who: Who = { kind, key: kind === 'event' ? (o.uid ?? String(localId)) : String(localId), localId, remoteId: o.remote_id, title: recordTitle(kind, r) };
  const { store, calendarId } = cx;
  // Where the site honours If-Match (another Almanac), the write is refused if the record changed
  // since it was read: no race window between the read and the write.
  const headers: Record<string, string> = cx.caps.ifMatch && etag ? { 'If-Match': etag } : {};
  // A series whose first event changed on its own goes in two bodies (occurrences.ts seriesBodies).
  let a: Awaited<ReturnType<typeof cx.http.request>> | undefined;
  for (const [i, body] of (bodies ?? [payload(kind, r, { almanac: cx.caps.almanac })]).entries()) {
    a = await cx.http.request('POST', apiUrl(cx.apiRoot, path(kind, o.remote_id!)), body, i === 0 ? headers : {});
    if (a.status === 412) throw new ChangedMeanwhile();
    if (a.status !== 200 && a.status !== 201) return refuse(cx, a.status, a.json, recordTitle(kind, r), failed, who);
  }
  if (!a) return;
  const answer = normRecord(kind, jsonOf(cx, a, `POST ${path(kind, o.remote_id!)}`), identity, { series: cx.caps.almanac });
  store.write(() => {
    store.sites.saveObject({ id: o.id, calendar_id: calendarId, kind, ...baseOf(answer), remote_status: null });
    // The site stores text its own way (entities, paragraphs): shown here as the site shows it.
    // (Not a first event's own fields: written whole, they would become the series'.)
    if (!same(answer, r) && !bodies) store.davSync.asServer(() => applyLocally(cx, kind, answer, localId));
    done();
  });
  cx.report.sent.updated++;
}

async function pushEvent(cx: SiteRound, row: OutboxRow): Promise<void> {
  const { store, calendarId } = cx;
  const anchor = store.davSync.anchor(calendarId, row.uid);
  let o = store.sites.objectByUid(calendarId, row.uid);
  const markSent = () => store.davSync.markSent(row);
  const failed = (e: string, n: string) => store.davSync.markFailed(row, e, n);

  if (o?.read_only) {
    // An occurrence the site generates (read-only, see pull.ts): never written there, whatever
    // changed it here (the API refuses edits; an import by UID would not). The change waits,
    // shown to the user, who discards it; nothing is sent.
    const title = anchor ? (store.events.get(anchor.id)?.title ?? row.uid) : row.uid;
    return keepRefusal(cx, whoEvent(row, anchor?.id, o.remote_id, title), storedError({ key: 'site_occurrence_push', vars: { title } }), null, failed);
  }

  if (!anchor || anchor.status === 'trash') {
    if (!o?.remote_id) {
      // Never got there (or its create is still unconfirmed): nothing to take back there.
      store.write(() => {
        if (o && !anchor) store.sites.forgetObject(o.id);
        markSent();
      });
      return;
    }
    const there = await readThere(cx, 'event', o.remote_id);
    if (there === 'gone' || there === 'trashed') {
      store.write(() => {
        if (there === 'gone') store.sites.forgetObject(o!.id);
        else store.sites.saveObject({ id: o!.id, calendar_id: calendarId, kind: 'event', local_id: anchor ? anchor.id : null, remote_status: 'trash' });
        markSent();
      });
      return;
    }
    if (recordHash(there.r) !== o.base_hash) {
      // Deleted here while changed there: it comes back with the site's version.
      store.write(() => {
        const id = store.davSync.asServer(() => applyLocally(cx, 'event', there.r, anchor?.id));
        const uid = store.events.get(id)?.ics_uid ?? null;
        store.sites.saveObject({ id: o!.id, calendar_id: calendarId, kind: 'event', local_id: id, uid, ...baseOf(there.r) });
        store.davSync.dropPending(calendarId, row.uid);
        store.sites.clearRefusal(calendarId, 'push', 'event', row.uid);
      });
      cx.report.received.changed++;
      return;
    }
    const a = await cx.http.request('DELETE', apiUrl(cx.apiRoot, `events/${o.remote_id}`));
    if (![200, 204, 404, 410].includes(a.status)) return refuse(cx, a.status, a.json, there.r.title as string, failed, whoEvent(row, anchor?.id, o.remote_id, there.r.title as string));
    const trashed = { ...there.r, status: 'trash' };
    store.write(() => {
      // Kept (local_id null when deleted for good here) so the site's trash does not bring it back.
      store.sites.saveObject({ id: o!.id, calendar_id: calendarId, kind: 'event', local_id: anchor ? anchor.id : null, uid: anchor ? row.uid : null, remote_status: 'trash', ...baseOf(trashed) });
      markSent();
    });
    cx.report.sent.deleted++;
    return;
  }

  // The venue, organizers and terms it names, on the site first.
  try {
    await ensureLinksOf(cx, anchor.id);
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    return refuse(cx, err.status, err.json, err.title, failed, whoEvent(row, anchor.id, o?.remote_id, store.events.get(anchor.id)?.title ?? row.uid));
  }
  const local = localRecord(cx, 'event', anchor.id) as unknown as SiteEvent & SiteRecord;

  if (o?.remote_id && o.remote_status !== 'creating') {
    // Occurrences changed on their own go by themselves (occurrences.ts): the ones trashed here
    // before the rule (so each is in the site's trash, not just an EXDATE there), the others after
    // it (a change of the whole series reaches them there as here, and is not sent twice).
    const occurrences = (pass: 'trashed' | 'others') => occurrencesOf(cx, o!, anchor.id, pass, failed);
    if (!(await occurrences('trashed'))) return;
    const series = localRecord(cx, 'event', anchor.id) as SiteRecord;
    let there: Awaited<ReturnType<typeof readThere>> | undefined;
    // The series itself unchanged here: nothing of it to send (a change there comes with the pull).
    if (o.remote_status === 'trash' || !o.base_json || !same(series, JSON.parse(o.base_json))) there = await readThere(cx, 'event', o.remote_id);
    if (there === 'gone') {
      // Deleted there while changed here: created again, the change is not lost.
      store.write(() => store.sites.forgetObject(o!.id));
      o = undefined;
    } else {
      const toSend = there === undefined ? undefined : there === 'trashed' ? series : decideAgainstSite(cx, 'event', o, series, there.r, anchor.id);
      if (toSend) {
        let sent = false;
        const bodies = seriesBodies(cx, anchor.id, o.base_json ? (JSON.parse(o.base_json) as SiteRecord) : undefined, toSend);
        await sendUpdate(cx, 'event', o, toSend, anchor.id, () => void (sent = true), failed, there === 'trashed' ? null : there!.etag, bodies);
        // Refused: the row waits, told in words.
        if (!sent) return;
      }
      if (!(await occurrences('others'))) return;
      store.write(markSent);
      return;
    }
  }

  // A series whose first event changed on its own before it was ever sent: made there with the
  // series' values, then the first event's own go to it alone (occurrences.ts).
  const asSeries = seriesOfFirstEvent(cx, anchor.id, local) as (SiteEvent & SiteRecord) | undefined;
  const created = asSeries ?? local;
  if (o?.remote_status === 'creating') {
    // A create was sent before and its answer never recorded: it may be there already.
    const found = await findCreated(cx, created);
    if (found !== undefined) {
      store.write(() => store.sites.saveObject({ id: o!.id, calendar_id: calendarId, kind: 'event', remote_id: found, remote_status: null }));
      return sendUpdate(cx, 'event', store.sites.object(o.id)!, local, anchor.id, markSent, failed);
    }
  } else {
    // Journalled before it is sent: a lost answer is looked up next time instead of sent twice.
    const id = store.write(() => store.sites.saveObject({ calendar_id: calendarId, kind: 'event', local_id: anchor.id, uid: row.uid, remote_status: 'creating' }));
    o = store.sites.object(id);
  }
  const a = await cx.http.request('POST', apiUrl(cx.apiRoot, 'events'), payload('event', created, { almanac: cx.caps.almanac }));
  if (a.status !== 200 && a.status !== 201) return refuse(cx, a.status, a.json, local.title, failed, whoEvent(row, anchor.id, null, local.title));
  const json = jsonOf(cx, a, 'POST events');
  const answer = normRecord('event', json, identity, { series: cx.caps.almanac });
  // A series made here with occurrences already changed on their own: those go right after it.
  const occurrencesToo = cx.caps.almanac && (!!asSeries || store.siteOccurrences.localExceptions(anchor.id).length > 0);
  store.write(() => {
    store.sites.saveObject({ id: o!.id, calendar_id: calendarId, kind: 'event', remote_id: Number(json.id), remote_status: null, ...baseOf(answer), hidden: answer.hide_from_listings ? 1 : 0 });
    if (!asSeries && !same(answer, local)) store.davSync.asServer(() => applyLocally(cx, 'event', answer, anchor.id));
    if (!occurrencesToo) markSent();
  });
  cx.report.sent.created++;
  if (!occurrencesToo) return;
  if (asSeries) {
    let sent = false;
    await sendUpdate(cx, 'event', store.sites.object(o!.id)!, local, anchor.id, () => void (sent = true), failed, null, seriesBodies(cx, anchor.id, answer, local));
    if (!sent) return;
  }
  for (const pass of ['trashed', 'others'] as const) if (!(await occurrencesOf(cx, store.sites.object(o!.id)!, anchor.id, pass, failed))) return;
  store.write(markSent);
}

/** A pass of a series' occurrences changed on their own (occurrences.ts); false when the site refused one (the series' row then waits, told in words). */
async function occurrencesOf(cx: SiteRound, o: SyncObjectRow, anchorId: number, pass: 'trashed' | 'others', failed: (error: string, next: string) => void): Promise<boolean> {
  // Refused, the series waits (its UID is the outbox's key), told as its own refusal.
  const who = (title: string): Who => ({ kind: 'event', key: o.uid ?? String(anchorId), localId: anchorId, remoteId: o.remote_id, title });
  try {
    const pushed = await pushOccurrences(cx, o, anchorId, pass, (rowId) => ensureLinksOf(cx, rowId));
    if (pushed.ok) return true;
    // Its row is the refusal's local record: discarding the change removes it, as the site has it.
    if ('gone' in pushed) keepRefusal(cx, { ...who(pushed.title), localId: pushed.rowId }, storedError({ key: 'site_occurrence_gone', vars: { title: pushed.title, when: pushed.key } }), null, failed);
    else refuse(cx, pushed.status, pushed.json, pushed.title, failed, who(pushed.title));
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    refuse(cx, err.status, err.json, err.title, failed, who(err.title));
  }
  return false;
}

/** The venue, organizers and terms an event here names, created on the site first where it has not got them. */
async function ensureLinksOf(cx: SiteRound, eventId: number): Promise<void> {
  const { store } = cx;
  const ev = store.events.get(eventId)!;
  const deps: Array<[Linked, number]> = [];
  if (ev.venue_id) deps.push(['venue', ev.venue_id]);
  for (const id of store.events.organizersFor([ev.id]).get(ev.id) ?? []) deps.push(['organizer', id]);
  for (const t of store.terms.forEvents([ev.id]).get(ev.id) ?? []) deps.push([t.taxonomy === 'category' ? 'category' : 'tag', t.id]);
  for (const [kind, id] of deps) await ensureThere(cx, kind, id);
}

/** The site's event a lost create made, if any: same title, start and venue, in its day (drafts, hidden and trashed included). */
async function findCreated(cx: SiteRound, local: SiteEvent): Promise<number | undefined> {
  const day = local.start_date.slice(0, 10);
  for (const status of [undefined, 'trash']) {
    const a = await cx.http.request('GET', apiUrl(cx.apiRoot, 'events', { start_date: `${day} 00:00:00`, end_date: `${day} 23:59:59`, per_page: 50, status }));
    if (a.status === 404) continue;
    const json = jsonOf(cx, a, 'GET events');
    for (const e of (json.events as Array<Record<string, unknown>>) ?? []) {
      const r = normRecord('event', e, identity, { series: cx.caps.almanac }) as unknown as SiteEvent;
      if (r.title === local.title && r.start_date === local.start_date && r.venue === local.venue && !cx.store.sites.objectByRemote(cx.calendarId, 'event', Number(e.id))) return Number(e.id);
    }
  }
  return undefined;
}
