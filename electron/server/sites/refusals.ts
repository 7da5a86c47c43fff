/**
 * What the user does with a record a site refused (GET /sync shows them, routes/sync.ts acts):
 * try it again at the next round, or discard the change. A refusal itself goes by itself once its
 * record goes through (push.ts) or is stored (pull.ts).
 */
import type { Store } from '../store';
import type { SiteKind, SiteRefusalRow } from '../store/sites';
import { PATHS, type SiteRound } from './round';
import { storedError } from '../caldav/errors';

/**
 * A record of the site that cannot be stored here (its `err`): told in the round's report and
 * kept for the user (GET /sync, the sidebar) until a whole pull stores it. Call in the pull's
 * write transaction. `what`: which part of the record, when it is not all of it (an occurrence).
 */
export function refusedHere(cx: SiteRound, kind: SiteKind, remoteId: number, title: string, err: unknown, what = ''): void {
  cx.report.problems.push(`${PATHS[kind]}/${remoteId} "${title}"${what ? ` (${what})` : ''}: ${(err as Error).message}`);
  const reason = storedError(err);
  cx.store.sites.refuse({ calendar_id: cx.calendarId, direction: 'pull', kind, record_key: String(remoteId), local_id: null, remote_id: remoteId, title: title.slice(0, 200), reason, status: null, at_utc: new Date().toISOString() });
}

/** The change waits no longer: the next round sends it. Call in a write transaction. */
export function retryRefusal(store: Store, r: SiteRefusalRow): void {
  if (r.direction === 'push') store.sites.retryRefused(r);
}

/**
 * Discards a refused change: it is no longer waiting, and the next pull brings the site's version
 * back here (its base is forgotten, so the site's copy reads as changed there). A record the site
 * never had stays here, unsent, until it is changed again. A pull's refusal is only a notice: it
 * is dismissed, and comes back if the site's record still cannot be stored. Call in a write
 * transaction.
 */
export function discardRefusal(store: Store, r: SiteRefusalRow): void {
  if (r.direction === 'push') {
    const { calendar_id: calendarId } = r;
    const o = r.kind === 'event' ? store.sites.objectByUid(calendarId, r.record_key) : store.sites.objectByLocal(calendarId, r.kind, Number(r.record_key));
    if (r.kind === 'event') store.davSync.dropPending(calendarId, r.record_key);
    else store.sites.dropPending(calendarId, r.kind, Number(r.record_key));
    if (o && o.remote_id === null) store.sites.forgetObject(o.id);
    else if (o) store.sites.saveObject({ id: o.id, calendar_id: calendarId, kind: o.kind, base_hash: null });
    // An occurrence changed here that the site's series no longer makes: as the site has it, gone.
    const row = r.kind === 'event' && r.local_id !== null ? store.events.get(r.local_id) : undefined;
    if (row && row.calendar_id === calendarId && row.parent_id !== null && row.recurrence_id !== null) store.davSync.asServer(() => store.series.deleteForever(row));
  }
  store.sites.dropRefusal(r.id);
}
