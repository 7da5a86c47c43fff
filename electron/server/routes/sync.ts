/**
 * CalDAV sync (Almanac extension, issue 17): its state in words (`GET /sync`: last sync, changes
 * waiting, last error, conflict copies), "Sync now" (`POST /sync`, answered at once while the
 * round runs in the background; errors in the request's language), and the conflict copies a sync kept: restore one (it becomes the
 * event again and is sent) or dismiss it.
 */
import * as k from '../../../shared/schema/kinds';
import type { ParamSet } from '../../../shared/schema/queries';
import { ApiError, missingParams } from '../errors';
import { applyResource } from '../caldav/resource';
import { decideHeld, heldDeletes } from '../caldav/held-deletes';
import { restoreSiteCopy } from '../sites/conflicts';
import { discardRefusal, retryRefusal } from '../sites/refusals';
import { route, type ApiRequest, type ApiResponse, type RouteDef } from '../http/route-table';

const syncParams: ParamSet = {
  account: { kind: k.text({ nonEmpty: true, max: 200 }), description: 'Sync only this account (its name); default: every account and site.' },
  site: { kind: k.text({ nonEmpty: true, max: 200 }), description: 'Sync only this website (its name); default: every account and site.' },
};

const deletionArgs: ParamSet = {
  allow: { kind: k.boolean(), required: true, description: 'true: delete the held events here; false: keep them and send them back to the server.' },
};

function service(req: ApiRequest) {
  if (!req.sync) throw new ApiError('sync-unavailable', 503, 'sync-unavailable');
  return req.sync;
}

function status(req: ApiRequest): ApiResponse {
  return { body: service(req).status(req.lang) };
}

function syncNow(req: ApiRequest): ApiResponse {
  const sync = service(req);
  let ids: number[] | undefined;
  const name = req.values.account as string | undefined;
  const siteName = req.values.site as string | undefined;
  if (name !== undefined) {
    const account = req.store.accounts.byName(name);
    if (!account) throw new ApiError('sync-account-not-found', 404, 'sync-account-not-found', { name });
    ids = [account.id];
  }
  let siteIds: number[] | undefined;
  if (siteName !== undefined) {
    const site = req.store.sites.byName(siteName);
    if (!site) throw new ApiError('sync-site-not-found', 404, 'sync-site-not-found', { name: siteName });
    siteIds = [site.id];
  }
  // The round's outcome is in the status (and the server's log); the request does not wait for the network.
  if (siteName === undefined) void sync.syncNow(ids);
  if (name === undefined) void sync.syncSitesNow(siteIds);
  return { status: 202, body: sync.status(req.lang) };
}

/**
 * The user's answer to deletions a round held (held-deletes.ts): `allow` deletes them at the next
 * round, which starts at once; otherwise they are kept and sent back to the server.
 */
function decideDeletions(req: ApiRequest): ApiResponse {
  const sync = service(req);
  // Required though the route updates: a decision left out must not read as "refuse".
  if (typeof req.values.allow !== 'boolean') throw missingParams(['allow']);
  const id = Number(req.path.id);
  const calendar = req.store.accounts.calendar(id);
  if (!calendar || calendar.account_id === null || !heldDeletes(calendar)) throw new ApiError('sync-nothing-held', 404, 'sync-nothing-held', { id });
  req.store.write(() => decideHeld(req.store, calendar, req.values.allow as boolean));
  void sync.syncNow([calendar.account_id]);
  return { body: sync.status(req.lang) };
}

function conflictOf(req: ApiRequest) {
  const id = Number(req.path.id);
  const row = req.store.davSync.conflict(id);
  if (!row) throw new ApiError('sync-conflict-not-found', 404, 'sync-conflict-not-found', { id });
  return row;
}

/** The kept local version becomes the event again: a local change, sent with the next round. */
function restore(req: ApiRequest): ApiResponse {
  const row = conflictOf(req);
  if (row.format === 'json') {
    // A site's record: written back as a local change, and so sent with the next round.
    const id = req.store.write(() => {
      const restored = restoreSiteCopy(req.store, row, req.write, req.url);
      req.store.davSync.dropConflict(row.id);
      return restored;
    });
    return { body: { restored: true, event: row.kind === 'event' ? (id ?? null) : null } };
  }
  const applied = req.store.write(() => {
    const result = applyResource(req.store, row.calendar_id, row.local_ical, req.write);
    req.store.davSync.dropConflict(row.id);
    return result;
  });
  const event = applied.uid === undefined ? undefined : req.store.davSync.anchor(row.calendar_id, applied.uid);
  return { body: { restored: true, event: event?.id ?? null } };
}

function dismiss(req: ApiRequest): ApiResponse {
  const row = conflictOf(req);
  req.store.write(() => req.store.davSync.dropConflict(row.id));
  return { body: { id: row.id, dismissed: true } };
}

function refusalOf(req: ApiRequest) {
  const id = Number(req.path.id);
  const row = req.store.sites.refusal(id);
  const site = row && req.store.sites.byCalendar(row.calendar_id);
  if (!row || !site) throw new ApiError('sync-refusal-not-found', 404, 'sync-refusal-not-found', { id });
  return { row, site };
}

/** A refused change goes at once: a round of its site starts (the answer does not wait for it). */
function retryRefused(req: ApiRequest): ApiResponse {
  const sync = service(req);
  const { row, site } = refusalOf(req);
  req.store.write(() => retryRefusal(req.store, row));
  void sync.syncSitesNow([site.id]);
  return { status: 202, body: sync.status(req.lang) };
}

/** A refused change is given up: the site's version comes back with the round that starts. */
function discardRefused(req: ApiRequest): ApiResponse {
  const sync = service(req);
  const { row, site } = refusalOf(req);
  req.store.write(() => discardRefusal(req.store, row));
  void sync.syncSitesNow([site.id]);
  return { body: sync.status(req.lang) };
}

export const syncRoutes: RouteDef[] = [
  route('/sync', [
    {
      methods: ['GET'],
      summary: 'Sync state (Almanac): per CalDAV account its last sync, changes waiting to be sent, the last error in words, per calendar the same and `held_deletes` ({count, total}: deletions held for the user to allow or refuse, see POST /sync/calendars/{id}/deletions; null when none); per website (`sites`) its last sync, `pending`, `last_error`, `conflicts`, `state`, `next_try` and `refused`: the records the site refused, newest first (at most 200), each `{id, direction, kind, title, reason, status, at, local_id, remote_id}` — `direction: push`, a change sent from here that the site refused (HTTP `status`, the site\'s `reason` in its words; the change waits: POST /sync/refusals/{id}/retry, DELETE /sync/refusals/{id} to discard it), `direction: pull`, a record of the site that could not be stored here (our `reason`, in the reader\'s language); a refusal goes once its record goes through or is deleted; and the conflict copies kept.',
      args: {},
      write: true,
      response: 'object',
      errors: [503],
      handler: status,
    },
    {
      methods: ['POST'],
      summary: 'Sync now (Almanac): starts a round for every account and website (or only `account`, or only `site`) and answers 202 at once with the state; follow it with GET /sync. 404 `sync-account-not-found` when no account has that name, `sync-site-not-found` when no website has that name.',
      args: syncParams,
      body: true,
      write: true,
      response: 'object',
      accepted: 'object',
      errors: [404, 503],
      handler: syncNow,
    },
  ]),
  route('/sync/calendars/{id}/deletions', [
    {
      methods: ['POST'],
      summary:
        'Decide on deletions a sync held (Almanac): when the server stops listing over 90 % of a calendar of more than 5 events at once, nothing is deleted here and `GET /sync` shows `held_deletes` on the calendar. `allow: true` deletes them (a round starts at once); `allow: false` keeps them and sends them back to the server. 404 when nothing is held. Answers with the sync state.',
      args: deletionArgs,
      body: true,
      write: true,
      response: 'object',
      errors: [400, 404, 503],
      handler: decideDeletions,
    },
  ]),
  route('/sync/refusals/{id}/retry', [
    {
      methods: ['POST'],
      summary:
        'Try a record a website refused again (Almanac): a refused change otherwise waits an hour (or until it is changed again here). Starts a round of its site and answers 202 at once with the sync state; the refusal goes from `sites[].refused` once the record goes through. 404 when there is no such refusal.',
      args: {},
      body: true,
      write: true,
      response: 'object',
      accepted: 'object',
      errors: [404, 503],
      handler: retryRefused,
    },
  ]),
  route('/sync/refusals/{id}', [
    {
      methods: ['DELETE'],
      summary:
        "Discard a change a website refused (Almanac): it is no longer sent, and the site's version comes back here with the round that starts at once (a record the site never had stays here, unsent, until changed again). For a record of the site that could not be stored here (`direction: pull`) the notice is dismissed; the next pull tells it again if it still cannot. Answers with the sync state; 404 when there is no such refusal.",
      args: {},
      write: true,
      response: 'object',
      errors: [404, 503],
      handler: discardRefused,
    },
  ]),
  route('/sync/conflicts/{id}/restore', [
    {
      methods: ['POST'],
      summary: 'Take back the local version a sync conflict kept (Almanac): it replaces the event here and is sent to the server.',
      args: {},
      body: true,
      write: true,
      response: 'object',
      errors: [404],
      handler: restore,
    },
  ]),
  route('/sync/conflicts/{id}', [
    { methods: ['DELETE'], summary: 'Dismiss a conflict copy (Almanac): the server’s version stays.', args: {}, write: true, response: 'object', errors: [404], handler: dismiss },
  ]),
];
