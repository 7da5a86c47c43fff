/**
 * Occurrences of an Almanac site's series changed on their own (moved, retitled, given another
 * venue, trashed), synced one by one both ways. The same concept as CalDAV's: a series is one
 * record (its first event and rule, `sync_objects`) plus its overrides, each known by its series
 * and original start (RECURRENCE-ID, Almanac's `recurrence_id`), never by row ids, which differ on
 * each side and which generated rows do not keep. Here they are stored by the series store's
 * `importException`, as an imported RECURRENCE-ID VEVENT is; there they are written with
 * `recurrence_scope=this`, the whole state of that occurrence each time. Occurrences that neither
 * side changed on their own are never sent or stored as records (`sync_occurrences` holds only the
 * others' agreed copies). When both sides changed one, the sync core decides (sync/merge.ts), and
 * a conflict keeps ours as a conflict copy of that occurrence.
 *
 * Pull: the listings note the site's occurrences changed on their own, trashed, or known here; they
 * are taken after the listings, once their series are. Push: the occurrences of a series trashed
 * here go before the series itself (so each is in the site's trash, not just an EXDATE there), the
 * others after it (a change of the whole series then reaches them there as here). An occurrence
 * neither side had changed before is merged against what its series makes there.
 *
 * The first event is the series' handle on both sides (its JSON is how the series is read): when
 * it changed on its own, its own fields go to it alone and the rest to the whole series; from the
 * site, the series' values are read from a generated occurrence of it.
 *
 * Not done: an occurrence's post date is not synced (each side's rows have their own); an
 * occurrence changed here goes with its whole state, so there it owns every field (a later change
 * of the whole series there does not reach it; here it is then made as the site has it).
 */
import { decideRecords, same } from '../sync/merge';
import { serializeEvent } from '../serialize/event';
import { apiUrl } from './http';
import { SiteError } from './errors';
import { identity, normEvent, payload, recordHash, recordTitle, type RefOf, type SiteEvent, type SiteRecord } from './records';
import { eventValues, keepLocalCopy, localRefOf } from './local';
import { jsonOf, type SiteLocal, type SiteRound } from './round';
import { refusedHere } from './refusals';
import type { SyncObjectRow } from '../store/sites';
import type { SeriesRow } from '../store/series';
import { GROUP_OF_FIELD, OWN } from '../store/series-fields';
import { addSeconds, wallMs } from '../store/series-record';
import { virtualId } from '../store/series-virtual';
import { yieldToRequests } from '../sync/outbox';

/** A site's event JSON that is an occurrence of a series other than its first event. */
export const isOccurrenceJson = (json: Record<string, unknown>): boolean => json.series_id !== undefined && json.series_id !== null && Number(json.series_id) !== Number(json.id);

/** Whether the series `anchorId` has occurrences changed here on their own (or trashed) that a push may still have to send. */
export const occurrencesMayWait = (cx: SiteRound, anchorId: number): boolean => cx.caps.almanac && cx.store.siteOccurrences.localExceptions(anchorId).length > 0;

/**
 * An occurrence as the sync compares it: its event record without what is its series' (the rule)
 * or its post's own (the post date, which each side's generated rows have their own).
 */
function occurrenceRecord(json: Record<string, unknown>, ref: RefOf): SiteRecord {
  const { date: _date, recurrence: _rule, ...rest } = normEvent(json, ref) as unknown as SiteRecord;
  return rest;
}

function localOccurrence(cx: SiteLocal, rowId: number): SiteRecord | undefined {
  const row = cx.store.events.get(rowId);
  if (!row) return undefined;
  return occurrenceRecord(serializeEvent(row, cx.url, cx.store) as unknown as Record<string, unknown>, localRefOf(cx));
}

/** Whether the local row differs from its series (changed on its own, or trashed). */
function isLocalException(cx: SiteLocal, rowId: number): boolean {
  const row = cx.store.events.get(rowId);
  return !!row && (row.own_fields !== 0 || row.status === 'trash');
}

/** The key under which an occurrence's conflict copy is kept: its series' UID and original start. */
const copyUid = (seriesUid: string, key: string) => `${seriesUid}#${key}`;

/**
 * Writes the site's version of the occurrence at `key` of series `s` here, as an override
 * (`importException`: it owns the groups in which it differs from the series), trashing or
 * restoring it as the site did. Returns its row. Call in a write transaction (as the site's, except
 * for "Keep mine", which is a local change).
 */
function applyOccurrence(cx: SiteLocal, s: SeriesRow, key: string, r: SiteRecord, rowId: number | undefined): number {
  const { store, write } = cx;
  const { calendar: _calendar, date: _date, status, ...values } = eventValues(cx, r as unknown as SiteEvent, 'update');
  // An occurrence shown without a row here (past the rows' horizon) gets its row first, as an edit of it does.
  const far = rowId === undefined ? virtualId(s.id, key) : undefined;
  if (far !== undefined) rowId = store.series.virtual.materialise(far);
  let row = rowId === undefined ? undefined : store.events.get(rowId);
  const trashed = status === 'trash';
  if (row && row.status === 'trash' && !trashed) {
    // Restored there: an occurrence of its series again here (its EXDATE goes).
    store.series.update(row, { status }, 'this', write);
  }
  const { id } = store.series.importException(s, key, trashed || !status ? values : { ...values, status }, write);
  row = store.events.get(id)!;
  if (trashed && row.status !== 'trash') store.series.trash(row, 'this', write);
  return id;
}

// ---- pull

function keysKnown(cx: SiteRound, seriesRemoteId: number): Set<string> {
  const bySeries = cx.state.knownKeys;
  let keys = bySeries.get(seriesRemoteId);
  if (!keys) {
    const o = cx.store.sites.objectByRemote(cx.calendarId, 'event', seriesRemoteId);
    keys = new Set(o ? cx.store.siteOccurrences.of(o.id).map((b) => b.recurrence_id) : []);
    bySeries.set(seriesRemoteId, keys);
  }
  return keys;
}

/**
 * An occurrence a listing gave (not a record of its own): kept for `takeOccurrences` when it was
 * changed on its own there, is in the trash, or is known here; an unchanged generated one is not.
 */
export function noteOccurrence(cx: SiteRound, json: Record<string, unknown>): void {
  if (!cx.caps.almanac || typeof json.recurrence_id !== 'string') return;
  noteGenerated(cx, json);
  if (!json.is_exception && json.status !== 'trash' && !keysKnown(cx, Number(json.series_id)).has(String(json.recurrence_id))) return;
  cx.state.notedOccurrences.push(json);
}

/** Takes the occurrences noted by the listings, each in a savepoint of one transaction per batch. */
export async function takeOccurrences(cx: SiteRound): Promise<void> {
  const list = cx.state.notedOccurrences;
  cx.state.notedOccurrences = [];
  cx.state.knownKeys = new Map();
  for (let i = 0; i < list.length; i += 50) {
    const part = list.slice(i, i + 50);
    cx.store.write(() => cx.store.davSync.asServer(() => part.forEach((json) => takeOne(cx, json))));
    await yieldToRequests();
  }
}

function takeOne(cx: SiteRound, json: Record<string, unknown>): void {
  const { store, calendarId } = cx;
  const o = store.sites.objectByRemote(calendarId, 'event', Number(json.series_id));
  const s = o?.local_id != null ? store.series.get(o.local_id) : undefined;
  if (!o || !s || !o.uid) return;
  const key = String(json.recurrence_id);
  const remote = occurrenceRecord(json, identity);
  const hash = recordHash(remote);
  const base = store.siteOccurrences.get(o.id, key);
  const saveBase = () => store.siteOccurrences.save({ object_id: o.id, recurrence_id: key, remote_id: Number(json.id), base_json: JSON.stringify(remote), base_hash: hash });
  try {
    store.db.transaction(() => {
      if (base?.base_hash === hash) {
        if (base.remote_id !== Number(json.id)) saveBase();
        // Unchanged there, but changed here by a change of the whole series the site made (which
        // does not reach it there: it owns those fields there) while nothing of the series waits to
        // be sent from here: it is as the site has it.
        if (store.davSync.pending(calendarId, o.uid!)) return;
        const rowId = store.siteOccurrences.rowAt(s.id, key);
        const local = rowId === undefined ? undefined : localOccurrence(cx, rowId);
        if (local && !same(local, remote)) applyOccurrence(cx, s, key, remote, rowId);
        return;
      }
      const rowId = store.siteOccurrences.rowAt(s.id, key);
      const local = rowId === undefined ? undefined : localOccurrence(cx, rowId);
      const baseRecord = base ? (JSON.parse(base.base_json) as SiteRecord) : asTheSeriesMakesIt(cx, Number(json.series_id), key);
      const changedHere = local !== undefined && (base ? !same(local, baseRecord) : isLocalException(cx, rowId!));
      const trashedNow = remote.status === 'trash' && baseRecord?.status !== 'trash';
      // Trashed there while changed here: ours stays, and the push brings it back with the change.
      if (changedHere && remote.status === 'trash' && local!.status !== 'trash') return;
      if (changedHere) {
        const decision = decideRecords(baseRecord, local, remote);
        if (decision.outcome === 'same') return saveBase();
        if (decision.outcome === 'merged') {
          // Each side changed other fields: both kept; the merge goes out with the next push.
          applyOccurrence(cx, s, key, decision.merged, rowId);
          saveBase();
          cx.report.merged++;
          return;
        }
        keepLocalCopy(cx, 'event', { uid: copyUid(o.uid!, key) }, local!, rowId!);
        cx.report.conflicts++;
      }
      applyOccurrence(cx, s, key, remote, rowId);
      saveBase();
      cx.report.received[trashedNow ? 'deleted' : 'changed']++;
    })();
  } catch (err) {
    if (err instanceof SiteError) throw err;
    refusedHere(cx, 'event', Number(json.id), recordTitle('event', remote), err, key);
  }
}

// ---- push

/** A record of the site the push must create first (a venue, organizer, term): given its local kind and id. */
export type EnsureThere = (rowId: number) => Promise<void>;

export type OccurrencesPushed =
  | { ok: true }
  | { ok: false; status: number; json: unknown; title: string }
  /** The site makes no occurrence at `key` any more: the change here (row `rowId`) cannot be sent there. */
  | { ok: false; gone: true; title: string; key: string; rowId: number };

/**
 * Sends the occurrences of the series `o` (its first event `anchorId`) changed here on their own
 * since they were last agreed, each with `recurrence_scope=this` and its whole state. Stops at the
 * first one the site refuses (the series' outbox row then waits, told in words).
 */
export async function pushOccurrences(cx: SiteRound, o: SyncObjectRow, anchorId: number, pass: 'trashed' | 'others', ensure: EnsureThere): Promise<OccurrencesPushed> {
  const { store } = cx;
  if (!cx.caps.almanac || !o.remote_id || !o.uid || !store.series.get(anchorId)) return { ok: true };
  const keys = new Map<string, number | undefined>();
  for (const e of store.siteOccurrences.localExceptions(anchorId)) keys.set(e.recurrence_id, e.id);
  for (const b of store.siteOccurrences.of(o.id)) if (!keys.has(b.recurrence_id)) keys.set(b.recurrence_id, store.siteOccurrences.rowAt(anchorId, b.recurrence_id));
  for (const [key, rowId] of keys) {
    const base = store.siteOccurrences.get(o.id, key);
    if (rowId === undefined) {
      // No occurrence here at that start any more (deleted for good, or the series moved whole,
      // re-keying it): nothing of it to send. Its copy stays, so that the site's trash does not
      // bring back one deleted for good here; a change of it there still does.
      continue;
    }
    let local = localOccurrence(cx, rowId);
    if (!local || (base && same(local, JSON.parse(base.base_json)))) continue;
    if ((pass === 'trashed') !== (local.status === 'trash')) continue;
    await ensure(rowId);
    local = localOccurrence(cx, rowId)!;
    for (let attempt = 0; ; attempt++) {
      const result = await pushOne(cx, o, key, rowId, local, attempt);
      if (result === 'again') continue;
      if (result !== 'done') return result;
      break;
    }
  }
  return { ok: true };
}

/** The site's occurrence of series `seriesRemoteId` at `key` as its lists give it, looked up around its day (and in the trash). */
async function findThere(cx: SiteRound, seriesRemoteId: number, key: string): Promise<Record<string, unknown> | undefined> {
  const day = Date.parse(`${key.slice(0, 10)}T00:00:00Z`);
  const at = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  for (const status of [undefined, 'trash']) {
    // A day either side: the site's list filter may read wall times in another zone than the series'.
    const a = await cx.http.request('GET', apiUrl(cx.apiRoot, 'events', { start_date: `${at(day - 86_400_000)} 00:00:00`, end_date: `${at(day + 86_400_000)} 23:59:59`, per_page: 50, status }));
    if (a.status === 404 && a.json !== undefined) continue;
    const json = jsonOf(cx, a, 'GET events');
    if (a.status !== 200) throw new SiteError('bad_answer', { host: new URL(cx.apiRoot).host, what: `GET events: HTTP ${a.status}` }, a.status);
    const found = ((json.events as Array<Record<string, unknown>>) ?? []).find((e) => Number(e.series_id) === seriesRemoteId && e.recurrence_id === key);
    if (found) return found;
  }
  return undefined;
}

/**
 * The site's copy of the occurrence at `key`: read by the id known for it (with its ETag), else
 * (unknown, in the trash, which a read of one by id does not show, or the id names another now)
 * from its lists.
 */
async function readThere(cx: SiteRound, seriesRemoteId: number, key: string, knownId: number | null | undefined): Promise<{ json: Record<string, unknown>; etag: string | null } | undefined> {
  const host = new URL(cx.apiRoot).host;
  if (knownId !== null && knownId !== undefined) {
    const read = await cx.http.request('GET', apiUrl(cx.apiRoot, `events/${knownId}`));
    if (read.status === 200) {
      const json = jsonOf(cx, read, `GET events/${knownId}`);
      if (json.recurrence_id === key && Number(json.series_id) === seriesRemoteId) return { json, etag: read.headers.get('etag') };
    } else if (!([403, 404, 410].includes(read.status) && read.json !== undefined)) {
      jsonOf(cx, read, `GET events/${knownId}`);
      throw new SiteError('bad_answer', { host, what: `GET events/${knownId}: HTTP ${read.status}` }, read.status);
    }
  }
  const json = await findThere(cx, seriesRemoteId, key);
  if (!json) return undefined;
  if (cx.caps.ifMatch && json.status !== 'trash') {
    // Read once more by its id for its ETag: where the site honours If-Match, no race window.
    const read = await cx.http.request('GET', apiUrl(cx.apiRoot, `events/${json.id}`));
    const again = read.status === 200 ? jsonOf(cx, read, `GET events/${json.id}`) : undefined;
    if (again && again.recurrence_id === key && Number(again.series_id) === seriesRemoteId) return { json: again, etag: read.headers.get('etag') };
  }
  return { json, etag: null };
}

async function pushOne(cx: SiteRound, o: SyncObjectRow, key: string, rowId: number, local: SiteRecord, attempt: number): Promise<'done' | 'again' | OccurrencesPushed> {
  const { store } = cx;
  const host = new URL(cx.apiRoot).host;
  const s = store.series.get(o.local_id!)!;
  const base = store.siteOccurrences.get(o.id, key);
  let baseRecord = base ? (JSON.parse(base.base_json) as SiteRecord) : undefined;
  const there = await readThere(cx, o.remote_id!, key, base?.remote_id);
  if (!there) {
    // The site makes no occurrence there (its rule changed, or it was deleted for good there):
    // the change here cannot be sent. It stays here, kept as a refusal the user sees (Discard
    // brings the site's series back), never dropped in silence.
    store.write(() => store.siteOccurrences.forget(o.id, key));
    return { ok: false, gone: true, title: recordTitle('event', local), key, rowId };
  }
  const { json } = there;
  const remoteId = Number(json.id);
  const remote = occurrenceRecord(json, identity);
  const saveBase = (r: SiteRecord, id: number) => store.siteOccurrences.save({ object_id: o.id, recurrence_id: key, remote_id: id, base_json: JSON.stringify(r), base_hash: recordHash(r) });
  let baseHash = base?.base_hash;
  if (!baseRecord && !json.is_exception && json.status !== 'trash') {
    // As its series makes it there, unchanged: the copy both sides started from. Kept, so that a
    // change there between this read and the write (If-Match) is merged against it, not a conflict.
    store.write(() => saveBase(remote, remoteId));
    baseRecord = remote;
    baseHash = recordHash(remote);
  }
  const remoteChanged = baseRecord ? recordHash(remote) !== baseHash : !!json.is_exception || json.status === 'trash';
  // Changed on its own on both sides, neither known to the other yet: merged against what the series makes there.
  baseRecord ??= asTheLocalSeriesMakesIt(cx, o.local_id!, key);
  let toSend = local;
  // Trashed there while changed here: ours is sent, which brings it back there with the change.
  const rescue = remote.status === 'trash' && local.status !== 'trash';
  if (remoteChanged && !rescue) {
    const decision = decideRecords(baseRecord, local, remote);
    if (decision.outcome === 'same') {
      store.write(() => saveBase(remote, remoteId));
      return 'done';
    }
    if (decision.outcome === 'merged') {
      toSend = decision.merged;
      store.write(() => store.davSync.asServer(() => applyOccurrence(cx, s, key, toSend, rowId)));
      cx.report.merged++;
    } else {
      // The same field changed on both sides: the site's version of this occurrence wins, ours is kept.
      store.write(() => {
        keepLocalCopy(cx, 'event', { uid: copyUid(o.uid!, key) }, local, rowId);
        store.davSync.asServer(() => applyOccurrence(cx, s, key, remote, rowId));
        saveBase(remote, remoteId);
      });
      cx.report.conflicts++;
      cx.report.received.changed++;
      return 'done';
    }
  }
  const headers: Record<string, string> = cx.caps.ifMatch && there.etag ? { 'If-Match': there.etag } : {};
  const trash = toSend.status === 'trash';
  if (trash && remote.status === 'trash') {
    // In the trash on both sides: nothing to send; what it says there is the copy agreed on.
    store.write(() => saveBase(toSend, remoteId));
    return 'done';
  }
  const a = trash
    ? await cx.http.request('DELETE', apiUrl(cx.apiRoot, `events/${remoteId}`, { recurrence_scope: 'this' }), undefined, headers)
    : await cx.http.request('POST', apiUrl(cx.apiRoot, `events/${remoteId}`), { ...payload('event', toSend, { almanac: true }), recurrence_scope: 'this' }, headers);
  if (a.status === 412) {
    if (attempt >= 2) throw new SiteError('bad_answer', { host, what: `events/${remoteId}: the site kept changing the occurrence while it was sent` }, 412);
    return 'again';
  }
  if (a.status === 401) throw new SiteError('unauthorized', { host }, 401);
  if (a.status !== 200 && a.status !== 201) return { ok: false, status: a.status, json: a.json, title: recordTitle('event', toSend) };
  const answerJson = jsonOf(cx, a, `POST events/${remoteId}`);
  const answer = occurrenceRecord(answerJson, identity);
  store.write(() => {
    // A change of an occurrence without a row there gives it one, with an id of its own from then on.
    saveBase(answer, Number(answerJson.id));
    if (!same(answer, toSend)) store.davSync.asServer(() => applyOccurrence(cx, s, key, answer, rowId));
  });
  cx.report.sent[trash ? 'deleted' : 'updated']++;
  return 'done';
}

// ---- the series' own record

/**
 * A series' rule as both sides last agreed on it, ours and the site's, with their EXDATEs merged as
 * a set (each side's additions and removals kept): an occurrence trashed on its own is an EXDATE of
 * its series on either side, and it travels as that occurrence (above), so trashing one here and
 * another there is not a conflict of the rule. Returns the two records to decide on.
 */
export function withExdatesMerged<R extends SiteRecord | undefined>(base: SiteRecord | undefined, local: R, remote: SiteRecord): [R, SiteRecord] {
  type Rule = { rules?: unknown; rdates?: unknown; exdates?: unknown };
  const rule = (r: SiteRecord | undefined) => (r && r.recurrence && typeof r.recurrence === 'object' ? (r.recurrence as Rule) : undefined);
  const [b, l, t] = [rule(base), rule(local), rule(remote)];
  if (!b || !l || !t || !Array.isArray(b.exdates) || !Array.isArray(l.exdates) || !Array.isArray(t.exdates)) return [local, remote];
  const [bs, ls, ts] = [new Set(b.exdates as string[]), new Set(l.exdates as string[]), new Set(t.exdates as string[])];
  const merged = new Set([...bs].filter((x) => ls.has(x) && ts.has(x)));
  for (const x of [...ls, ...ts]) if (!bs.has(x)) merged.add(x);
  const exdates = [...merged].sort();
  return [{ ...local!, recurrence: { ...l, exdates } }, { ...remote, recurrence: { ...t, exdates } }];
}

/** "Keep mine" of an occurrence's conflict copy: the kept record is that occurrence again, as a local change. Undefined when it is not one. */
export function restoreOccurrenceCopy(cx: SiteLocal, uid: string, r: SiteRecord): number | undefined {
  const at = uid.lastIndexOf('#');
  if (at < 0) return undefined;
  const anchor = cx.store.davSync.anchor(cx.calendarId, uid.slice(0, at));
  const s = anchor ? cx.store.series.get(anchor.id) : undefined;
  if (!s) return undefined;
  const key = uid.slice(at + 1);
  return applyOccurrence(cx, s, key, r, cx.store.siteOccurrences.rowAt(s.id, key));
}

// ---- the first event, when it changed on its own

const WHEN = ['start_date', 'end_date', 'timezone', 'all_day'];

/**
 * The bodies that send a change of a series whose first event changed on its own here (it owns
 * some field groups, as the series store keeps them): what is the series' goes to the whole
 * series without the first event's own fields, and those go to it alone (`recurrence_scope=this`:
 * the first event is the series' handle there too, so it must own there exactly what it owns
 * here, or the series' later changes would not show in it). Undefined when it owns nothing: the
 * series goes whole, in one body, as before.
 */
export function seriesBodies(cx: SiteRound, anchorId: number, base: SiteRecord | undefined, r: SiteRecord): Array<Record<string, unknown>> | undefined {
  const anchor = cx.store.events.get(anchorId);
  if (!cx.caps.almanac || !anchor || !anchor.own_fields || !base || !cx.store.series.get(anchorId)) return undefined;
  const owned = (f: string) => {
    const group = GROUP_OF_FIELD[f];
    return !!group && !!(anchor.own_fields & OWN[group]);
  };
  const body = payload('event', r, { almanac: true });
  const changed = Object.keys({ ...r, ...base }).filter((f) => !same(r[f], base[f]));
  const out: Array<Record<string, unknown>> = [];
  if (changed.some((f) => !owned(f))) out.push(Object.fromEntries(Object.entries(body).filter(([f]) => !owned(f))));
  if (changed.some(owned)) out.push({ ...Object.fromEntries(Object.entries(body).filter(([f]) => owned(f))), recurrence_scope: 'this' });
  return out;
}

/**
 * A series made here whose first event changed on its own before it was ever sent: its record with
 * the series' values where the first event has its own (read from a generated occurrence, as a
 * pull reads the site's), to be made there; undefined when the first event owns nothing.
 */
export function seriesOfFirstEvent(cx: SiteRound, anchorId: number, local: SiteRecord): SiteRecord | undefined {
  const anchor = cx.store.events.get(anchorId);
  const s = cx.store.series.get(anchorId);
  if (!cx.caps.almanac || !anchor || !anchor.own_fields || !s) return undefined;
  const g = asTheLocalSeriesMakesIt(cx, anchorId, s.start_local);
  if (!g) return undefined;
  const series: SiteRecord = { ...local };
  for (const f of Object.keys(g)) {
    const group = GROUP_OF_FIELD[f];
    if (group && anchor.own_fields & OWN[group]) series[f] = g[f];
  }
  return series;
}

/**
 * Whether the listing's record is the first event of a series changed on its own there: then it is
 * taken after the listings, with its series' values read from a generated occurrence (the API
 * gives the first event's own values; the series' are only in what its occurrences show).
 */
export function deferFirstEvent(cx: SiteRound, json: Record<string, unknown>): boolean {
  if (!cx.caps.almanac || json.is_exception !== true || Number(json.series_id) !== Number(json.id) || cx.state.takingDeferred) return false;
  cx.state.deferredFirst.push(json);
  return true;
}

/** Takes the first events deferred by the listings (`take`: the pull's own taking of a record). */
export function takeFirstEvents(cx: SiteRound, take: (json: Record<string, unknown>) => void): void {
  const list = cx.state.deferredFirst;
  cx.state.deferredFirst = [];
  cx.state.takingDeferred = true;
  for (const json of list) {
    const generated = cx.state.generated.get(Number(json.id));
    if (generated) cx.state.firstEvent = { first: json, generated };
    try {
      // Without a generated occurrence (every other one changed on its own) it goes whole, as before.
      cx.store.write(() => cx.store.davSync.asServer(() => take(json)));
    } finally {
      cx.state.firstEvent = undefined;
    }
  }
  cx.state.takingDeferred = false;
}

/**
 * The occurrence at `key` as the site's series makes it now (a generated occurrence of it, moved
 * to that start): the copy both sides started from for one neither had changed on its own before.
 * Undefined when the listings gave none.
 */
function asTheSeriesMakesIt(cx: SiteRound, seriesRemoteId: number, key: string): SiteRecord | undefined {
  const g = cx.state.generated.get(seriesRemoteId);
  return g ? movedTo(occurrenceRecord(g, identity), key) : undefined;
}

/** The same from this side (a push, before the site's lists are read): a generated occurrence of the local series. */
function asTheLocalSeriesMakesIt(cx: SiteRound, anchorId: number, key: string): SiteRecord | undefined {
  const id = cx.store.siteOccurrences.generatedRow(anchorId);
  const r = id === undefined ? undefined : localOccurrence(cx, id);
  return r ? movedTo(r, key) : undefined;
}

/** An occurrence's record moved to start at `key`, its length kept. */
function movedTo(r: SiteRecord, key: string): SiteRecord {
  const length = Math.max(0, wallMs(String(r.end_date)) - wallMs(String(r.start_date))) / 1000;
  return { ...r, start_date: key, end_date: addSeconds(key, length) };
}

/** Notes a generated occurrence of a series as the listings give it. */
function noteGenerated(cx: SiteRound, json: Record<string, unknown>): void {
  if (json.is_exception || json.status === 'trash') return;
  const map = cx.state.generated;
  if (!map.has(Number(json.series_id))) map.set(Number(json.series_id), json);
}

/**
 * While a first event changed on its own there is taken: the record `r` (the first event as the
 * site shows it, or a merge of it) split into its series' values and its own, with what the
 * series store needs to write them (local.ts applyLocally). The series' values are the generated
 * occurrence's where the first event differs from it; its start is the first event's original one.
 */
export function splitFirstEvent(cx: SiteLocal, r: SiteRecord, localId: number | undefined): { series: SiteRecord; first: SiteRecord; sameTiming: boolean } | undefined {
  const taking = cx.state.firstEvent;
  if (!taking) return undefined;
  const g = occurrenceRecord(taking.generated, identity);
  const key = String(taking.first.recurrence_id);
  const series: SiteRecord = { ...r };
  for (const f of Object.keys(g)) if (!WHEN.includes(f) && !same(r[f], g[f])) series[f] = g[f];
  const length = Math.max(0, wallMs(String(g.end_date)) - wallMs(String(g.start_date))) / 1000;
  Object.assign(series, { start_date: key, end_date: addSeconds(key, length), timezone: g.timezone, all_day: g.all_day });
  const s = localId === undefined ? undefined : cx.store.series.get(localId);
  const sameTiming = !!s && s.start_local === key && s.duration_s === length && s.timezone === g.timezone && !!s.all_day === !!g.all_day;
  return { series, first: r, sameTiming };
}

/** The first event's own values written over it, as an override of its series (importException). */
export function applyFirstEvent(cx: SiteLocal, anchorId: number, first: SiteRecord): void {
  const s = cx.store.series.get(anchorId);
  if (!s) return;
  const { calendar: _calendar, date: _date, ...values } = eventValues(cx, first as unknown as SiteEvent, 'update');
  cx.store.series.importException(s, s.start_local, values, cx.write);
}
