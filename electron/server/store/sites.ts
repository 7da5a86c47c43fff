/**
 * Websites synced both ways (issue 26), as stored: the site (its calendar, where its API is, who
 * logs in; never the password: secrets.ts), the site's copy of each record Almanac knows there
 * (`sync_objects`) and what waits to be sent for venues, organizers and terms (`site_outbox`,
 * written by triggers). A site's events queue in `dav_outbox` by UID, as CalDAV's do.
 */
import type { DB } from './db';

interface EventDeleter {
  deleteForever(id: number): void;
}

export type SiteKind = 'event' | 'venue' | 'organizer' | 'category' | 'tag';

export interface SiteRow {
  id: number;
  name: string;
  url: string;
  api_root: string;
  username: string;
  calendar_id: number;
  capabilities: string;
  created_utc: string;
  last_sync_utc: string | null;
  last_error: string | null;
}

export interface SyncObjectRow {
  id: number;
  calendar_id: number;
  kind: SiteKind;
  local_id: number | null;
  uid: string | null;
  remote_id: number | null;
  base_json: string | null;
  base_hash: string | null;
  /** 'creating': a create was sent whose answer has not been recorded (look it up before sending again). */
  remote_status: string | null;
  hidden: number;
  /** Why the site's record may not be written back (JSON, see ReadOnlyReason); null: writable. */
  read_only: string | null;
}

/** Why a site's event is read-only here: an occurrence the site generates from its series (Events Calendar Pro). */
export interface ReadOnlyReason {
  reason: 'site_occurrence';
  /** The site's id of the series it belongs to, when its JSON names one. */
  series: number | null;
}

/** A record a site refused, as stored (site_refusals). */
export interface SiteRefusalRow {
  id: number;
  calendar_id: number;
  direction: 'push' | 'pull';
  kind: SiteKind;
  record_key: string;
  local_id: number | null;
  remote_id: number | null;
  title: string;
  reason: string;
  status: number | null;
  at_utc: string;
}

export interface SiteOutboxRow {
  calendar_id: number;
  kind: Exclude<SiteKind, 'event'>;
  local_id: number;
  rev: number;
  attempts: number;
  next_try_utc: string | null;
  error: string | null;
}

export class DuplicateSiteError extends Error {
  constructor(readonly siteName: string) {
    super(`There is already a site named "${siteName}".`);
  }
}

export interface NewSite {
  name: string;
  url: string;
  apiRoot: string;
  username: string;
  color: string | null;
  capabilities: Record<string, unknown>;
  createdUtc: string;
}

/** Push order: categories (parents first, by the caller), tags, venues, organizers. */
const KIND_ORDER = "CASE kind WHEN 'category' THEN 0 WHEN 'tag' THEN 1 WHEN 'venue' THEN 2 ELSE 3 END";

export function createSiteStore(db: DB, events: EventDeleter) {
  const insertCalendar = db.prepare<[string, string | null]>('INSERT INTO calendars (account_id, name, color) VALUES (NULL, ?, ?)');
  const insertSite = db.prepare<[string, string, string, string, number, string, string]>(
    'INSERT INTO sites (name, url, api_root, username, calendar_id, capabilities, created_utc) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const all = db.prepare<[], SiteRow>('SELECT * FROM sites ORDER BY name COLLATE NOCASE, id');
  const byId = db.prepare<[number], SiteRow>('SELECT * FROM sites WHERE id = ?');
  const byName = db.prepare<[string], SiteRow>('SELECT * FROM sites WHERE name = ? COLLATE NOCASE');
  const byCalendar = db.prepare<[number], SiteRow>('SELECT * FROM sites WHERE calendar_id = ?');
  const byUrl = db.prepare<[string], SiteRow>('SELECT * FROM sites WHERE api_root = ?');
  const setResult = db.prepare<[string | null, string | null, number]>('UPDATE sites SET last_sync_utc = coalesce(?, last_sync_utc), last_error = ? WHERE id = ?');
  const deleteSite = db.prepare<[number]>('DELETE FROM sites WHERE id = ?');
  const deleteCalendar = db.prepare<[number]>('DELETE FROM calendars WHERE id = ?');
  const calendarEvents = db.prepare<[number], number>('SELECT id FROM events WHERE calendar_id = ? ORDER BY parent_id IS NULL, id').pluck();

  const objByRemote = db.prepare<[number, string, number], SyncObjectRow>('SELECT * FROM sync_objects WHERE calendar_id = ? AND kind = ? AND remote_id = ?');
  const anyOfRemote = db.prepare<[number, SiteKind, string], number>('SELECT 1 FROM sync_objects WHERE calendar_id = ? AND kind = ? AND remote_id IN (SELECT value FROM json_each(?)) LIMIT 1').pluck();
  const objByLocal = db.prepare<[number, string, number], SyncObjectRow>('SELECT * FROM sync_objects WHERE calendar_id = ? AND kind = ? AND local_id = ?');
  const objByUid = db.prepare<[number, string], SyncObjectRow>('SELECT * FROM sync_objects WHERE calendar_id = ? AND uid = ?');
  const objById = db.prepare<[number], SyncObjectRow>('SELECT * FROM sync_objects WHERE id = ?');
  const HEAD = 'id, calendar_id, kind, local_id, uid, remote_id, base_hash, remote_status, hidden, read_only';
  const objHeadById = db.prepare<[number], Omit<SyncObjectRow, 'base_json'>>(`SELECT ${HEAD} FROM sync_objects WHERE id = ?`);
  const objHeadsByRemote = db.prepare<[number, string, string], Omit<SyncObjectRow, 'base_json'>>(
    `SELECT ${HEAD} FROM sync_objects WHERE calendar_id = ? AND kind = ? AND remote_id IN (SELECT value FROM json_each(?))`,
  );
  const objBase = db.prepare<[number], string | null>('SELECT base_json FROM sync_objects WHERE id = ?').pluck();
  const objsOfKind = db.prepare<[number, string], Omit<SyncObjectRow, 'base_json'>>(
    'SELECT id, calendar_id, kind, local_id, uid, remote_id, NULL AS base_json, base_hash, remote_status, hidden, read_only FROM sync_objects WHERE calendar_id = ? AND kind = ?',
  );
  const insertObj = db.prepare(
    `INSERT INTO sync_objects (calendar_id, kind, local_id, uid, remote_id, base_json, base_hash, remote_status, hidden, read_only)
     VALUES (@calendar_id, @kind, @local_id, @uid, @remote_id, @base_json, @base_hash, @remote_status, @hidden, @read_only)`,
  );
  const updateObj = db.prepare(
    `UPDATE sync_objects SET local_id = @local_id, uid = @uid, remote_id = @remote_id, base_json = @base_json,
       base_hash = @base_hash, remote_status = @remote_status, hidden = @hidden, read_only = @read_only WHERE id = @id`,
  );
  const updateObjKeepBase = db.prepare(
    `UPDATE sync_objects SET local_id = @local_id, uid = @uid, remote_id = @remote_id,
       base_hash = @base_hash, remote_status = @remote_status, hidden = @hidden, read_only = @read_only WHERE id = @id`,
  );
  const deleteObj = db.prepare<[number]>('DELETE FROM sync_objects WHERE id = ?');

  const due = db.prepare<[number, string, number], SiteOutboxRow>(
    `SELECT * FROM site_outbox WHERE calendar_id = ? AND (next_try_utc IS NULL OR next_try_utc <= ?) ORDER BY ${KIND_ORDER}, local_id LIMIT ?`,
  );
  const pendingOf = db.prepare<[number, string, number], SiteOutboxRow>('SELECT * FROM site_outbox WHERE calendar_id = ? AND kind = ? AND local_id = ?');
  const sent = db.prepare<[number, string, number, number]>('DELETE FROM site_outbox WHERE calendar_id = ? AND kind = ? AND local_id = ? AND rev = ?');
  const drop = db.prepare<[number, string, number]>('DELETE FROM site_outbox WHERE calendar_id = ? AND kind = ? AND local_id = ?');
  const failed = db.prepare<[string, string | null, number, string, number]>(
    'UPDATE site_outbox SET attempts = attempts + 1, error = ?, next_try_utc = ? WHERE calendar_id = ? AND kind = ? AND local_id = ?',
  );
  const pendingCount = db.prepare<[number, number], number>(
    'SELECT (SELECT count(*) FROM site_outbox WHERE calendar_id = ?) + (SELECT count(*) FROM dav_outbox WHERE calendar_id = ?)',
  ).pluck();
  const outboxError = db.prepare<[number, number], string>(
    'SELECT error FROM (SELECT error FROM site_outbox WHERE calendar_id = ? AND error IS NOT NULL UNION ALL SELECT error FROM dav_outbox WHERE calendar_id = ? AND error IS NOT NULL) LIMIT 1',
  ).pluck();
  const conflictCount = db.prepare<[number], number>('SELECT count(*) FROM sync_conflicts WHERE calendar_id = ?').pluck();
  const anyPending = db.prepare<[], number>('SELECT 1 FROM site_outbox UNION ALL SELECT 1 FROM dav_outbox o JOIN sites s ON s.calendar_id = o.calendar_id LIMIT 1').pluck();

  // A record here that is the site's (same name and address, same e-mail, same slug) and that
  // this site does not link yet: linked on the first pull instead of duplicated.
  const notLinked = (kind: string) => `id NOT IN (SELECT local_id FROM sync_objects WHERE calendar_id = @calendar AND kind = '${kind}' AND local_id IS NOT NULL)`;
  const sameVenue = db.prepare<[{ calendar: number; name: string; address: string }], number>(
    `SELECT id FROM venues WHERE status != 'trash' AND lower(trim(title)) = lower(trim(@name)) AND lower(trim(address)) = lower(trim(@address)) AND ${notLinked('venue')} ORDER BY id LIMIT 1`,
  ).pluck();
  const sameOrganizerEmail = db.prepare<[{ calendar: number; email: string }], number>(
    `SELECT id FROM organizers WHERE status != 'trash' AND email <> '' AND lower(trim(email)) = lower(trim(@email)) AND ${notLinked('organizer')} ORDER BY id LIMIT 1`,
  ).pluck();
  const sameOrganizerName = db.prepare<[{ calendar: number; name: string }], number>(
    `SELECT id FROM organizers WHERE status != 'trash' AND email = '' AND lower(trim(title)) = lower(trim(@name)) AND ${notLinked('organizer')} ORDER BY id LIMIT 1`,
  ).pluck();
  const sameTerm = db.prepare<[{ calendar: number; taxonomy: string; kind: string; slug: string; name: string }], number>(
    `SELECT id FROM terms WHERE taxonomy = @taxonomy AND (lower(slug) = lower(@slug) OR lower(name) = lower(@name))
       AND id NOT IN (SELECT local_id FROM sync_objects WHERE calendar_id = @calendar AND kind = @kind AND local_id IS NOT NULL)
     ORDER BY lower(slug) = lower(@slug) DESC, id LIMIT 1`,
  ).pluck();

  const refusalsOf = db.prepare<[number], SiteRefusalRow>('SELECT * FROM site_refusals WHERE calendar_id = ? ORDER BY at_utc DESC, id DESC LIMIT 200');
  const refusalById = db.prepare<[number], SiteRefusalRow>('SELECT * FROM site_refusals WHERE id = ?');
  const putRefusal = db.prepare(
    `INSERT INTO site_refusals (calendar_id, direction, kind, record_key, local_id, remote_id, title, reason, status, at_utc)
     VALUES (@calendar_id, @direction, @kind, @record_key, @local_id, @remote_id, @title, @reason, @status, @at_utc)
     ON CONFLICT (calendar_id, direction, kind, record_key) DO UPDATE SET local_id = excluded.local_id, remote_id = excluded.remote_id,
       title = excluded.title, reason = excluded.reason, status = excluded.status, at_utc = excluded.at_utc`,
  );
  const dropRefusal = db.prepare<[number, string, string, string]>('DELETE FROM site_refusals WHERE calendar_id = ? AND direction = ? AND kind = ? AND record_key = ?');
  const dropRefusalById = db.prepare<[number]>('DELETE FROM site_refusals WHERE id = ?');
  const dropPullRefusalsBefore = db.prepare<[number, string]>("DELETE FROM site_refusals WHERE calendar_id = ? AND direction = 'pull' AND at_utc < ?");
  const anyRefusal = db.prepare<[number], number>('SELECT 1 FROM site_refusals WHERE calendar_id = ? LIMIT 1').pluck();
  const readOnlyEventsIn = db.prepare<[string], { local_id: number; read_only: string }>(
    "SELECT local_id, read_only FROM sync_objects WHERE kind = 'event' AND local_id IN (SELECT value FROM json_each(?)) AND read_only IS NOT NULL",
  );
  const retrySiteOutbox = db.prepare<[number, string, number]>('UPDATE site_outbox SET next_try_utc = NULL WHERE calendar_id = ? AND kind = ? AND local_id = ?');
  const retryDavOutbox = db.prepare<[number, string]>('UPDATE dav_outbox SET next_try_utc = NULL WHERE calendar_id = ? AND uid = ?');

  type ObjectInput = Partial<Omit<SyncObjectRow, 'id' | 'calendar_id' | 'kind'>> & { id?: number; calendar_id: number; kind: SiteKind };

  return {
    /** Adds a site with its calendar. Call inside a write transaction. */
    add(site: NewSite): SiteRow {
      if (byName.get(site.name)) throw new DuplicateSiteError(site.name);
      const calendarId = Number(insertCalendar.run(site.name, site.color).lastInsertRowid);
      const id = Number(insertSite.run(site.name, site.url, site.apiRoot, site.username, calendarId, JSON.stringify(site.capabilities), site.createdUtc).lastInsertRowid);
      return byId.get(id)!;
    },
    list: (): SiteRow[] => all.all(),
    byId: (id: number) => byId.get(id),
    byName: (name: string) => byName.get(name),
    byCalendar: (calendarId: number) => byCalendar.get(calendarId),
    byApiRoot: (apiRoot: string) => byUrl.get(apiRoot),
    setResult: (id: number, syncedUtc: string | null, error: string | null) => void setResult.run(syncedUtc, error, id),
    /**
     * Removes the site, its calendar and its events for good (the site keeps its copies). Its
     * sync rows and outbox rows go with the calendar. Call in a write transaction, as the server's
     * (no outbox row must come of it).
     */
    remove(id: number): boolean {
      const site = byId.get(id);
      if (!site) return false;
      for (const e of calendarEvents.all(site.calendar_id)) events.deleteForever(e);
      db.prepare('DELETE FROM sync_objects WHERE calendar_id = ?').run(site.calendar_id);
      db.prepare('DELETE FROM site_outbox WHERE calendar_id = ?').run(site.calendar_id);
      db.prepare('DELETE FROM dav_outbox WHERE calendar_id = ?').run(site.calendar_id);
      db.prepare('DELETE FROM sync_conflicts WHERE calendar_id = ?').run(site.calendar_id);
      db.prepare('DELETE FROM site_refusals WHERE calendar_id = ?').run(site.calendar_id);
      deleteSite.run(id);
      deleteCalendar.run(site.calendar_id);
      return true;
    },

    objectByRemote: (calendarId: number, kind: SiteKind, remoteId: number) => objByRemote.get(calendarId, kind, remoteId),
    /** Whether any of these ids of the site is linked here (a batch of a first pull has none). */
    anyLinked: (calendarId: number, kind: SiteKind, remoteIds: number[]) => anyOfRemote.get(calendarId, kind, JSON.stringify(remoteIds)) !== undefined,
    objectByLocal: (calendarId: number, kind: SiteKind, localId: number) => objByLocal.get(calendarId, kind, localId),
    objectByUid: (calendarId: number, uid: string) => objByUid.get(calendarId, uid),
    /** Every object of a kind, without its base copy (a listing compares ids and hashes only). */
    objects: (calendarId: number, kind: SiteKind) => objsOfKind.all(calendarId, kind),
    /** The objects of these ids of the site, without their base copies: a batch of a listing reads them at once. */
    objectsByRemote: (calendarId: number, kind: SiteKind, remoteIds: number[]) => objHeadsByRemote.all(calendarId, kind, JSON.stringify(remoteIds)),
    /** An object's base copy, read only when it is compared (its hash differs). */
    objectBase: (id: number): string | null => objBase.get(id) ?? null,
    /**
     * Inserts or updates (by `id`) an object; returns its id. `current`: its row as the caller
     * read it in this transaction, so it is not read again (the base copy is never read: left as
     * it is unless `o` gives one). Call in a write transaction.
     */
    saveObject(o: ObjectInput, current: Omit<SyncObjectRow, 'base_json'> | undefined = o.id !== undefined ? objHeadById.get(o.id) : undefined): number {
      const row = {
        calendar_id: o.calendar_id,
        kind: o.kind,
        local_id: o.local_id !== undefined ? o.local_id : (current?.local_id ?? null),
        uid: o.uid !== undefined ? o.uid : (current?.uid ?? null),
        remote_id: o.remote_id !== undefined ? o.remote_id : (current?.remote_id ?? null),
        base_hash: o.base_hash !== undefined ? o.base_hash : (current?.base_hash ?? null),
        remote_status: o.remote_status !== undefined ? o.remote_status : (current?.remote_status ?? null),
        hidden: o.hidden !== undefined ? o.hidden : (current?.hidden ?? 0),
        read_only: o.read_only !== undefined ? o.read_only : (current?.read_only ?? null),
      };
      if (current) {
        if (o.base_json === undefined) updateObjKeepBase.run({ ...row, id: current.id });
        else updateObj.run({ ...row, base_json: o.base_json, id: current.id });
        return current.id;
      }
      return Number(insertObj.run({ ...row, base_json: o.base_json ?? null }).lastInsertRowid);
    },
    object: (id: number) => objById.get(id),
    forgetObject: (id: number) => void deleteObj.run(id),
    /** The local record a site's venue, organizer or term is (see above), if any. */
    sameHere(calendarId: number, kind: Exclude<SiteKind, 'event'>, r: Record<string, unknown>): number | undefined {
      const text = (v: unknown) => (typeof v === 'string' ? v : '');
      if (kind === 'venue') return sameVenue.get({ calendar: calendarId, name: text(r.venue), address: text(r.address) }) as number | undefined;
      if (kind === 'organizer') {
        return text(r.email)
          ? (sameOrganizerEmail.get({ calendar: calendarId, email: text(r.email) }) as number | undefined)
          : (sameOrganizerName.get({ calendar: calendarId, name: text(r.organizer) }) as number | undefined);
      }
      return sameTerm.get({ calendar: calendarId, taxonomy: kind, kind, slug: text(r.slug), name: text(r.name) }) as number | undefined;
    },

    /** Venues, organizers and terms to send, in dependency order of kind. */
    due: (calendarId: number, nowUtc: string, limit: number) => due.all(calendarId, nowUtc, limit),
    pending: (calendarId: number, kind: SiteKind, localId: number) => pendingOf.get(calendarId, kind, localId),
    markSent: (row: Pick<SiteOutboxRow, 'calendar_id' | 'kind' | 'local_id' | 'rev'>) => void sent.run(row.calendar_id, row.kind, row.local_id, row.rev),
    dropPending: (calendarId: number, kind: SiteKind, localId: number) => void drop.run(calendarId, kind, localId),
    markFailed: (row: Pick<SiteOutboxRow, 'calendar_id' | 'kind' | 'local_id'>, error: string, nextTryUtc: string | null) =>
      void failed.run(error, nextTryUtc, row.calendar_id, row.kind, row.local_id),
    /** Changes waiting for the site's calendar: its events' and its venues', organizers' and terms'. */
    pendingCount: (calendarId: number): number => pendingCount.get(calendarId, calendarId) as number,
    outboxError: (calendarId: number): string | null => (outboxError.get(calendarId, calendarId) as string | undefined) ?? null,
    conflictCount: (calendarId: number): number => conflictCount.get(calendarId) as number,
    hasPending: (): boolean => anyPending.get() !== undefined,

    /** The read-only reasons of these local events (only those that have one). */
    readOnlyEvents(localIds: number[]): Map<number, ReadOnlyReason> {
      const out = new Map<number, ReadOnlyReason>();
      if (localIds.length === 0) return out;
      for (const r of readOnlyEventsIn.all(JSON.stringify(localIds))) out.set(r.local_id, JSON.parse(r.read_only) as ReadOnlyReason);
      return out;
    },

    /** Records of the site's calendar it refused, newest first (at most 200). */
    refusals: (calendarId: number): SiteRefusalRow[] => refusalsOf.all(calendarId),
    refusal: (id: number) => refusalById.get(id),
    /** Records (or replaces) the refusal of a record. Call in a write transaction. */
    refuse: (r: Omit<SiteRefusalRow, 'id'>) => void putRefusal.run(r),
    /** The record went through (or is gone): its refusal, if any, goes. */
    clearRefusal(calendarId: number, direction: 'push' | 'pull', kind: SiteKind, recordKey: string): void {
      if (anyRefusal.get(calendarId) !== undefined) dropRefusal.run(calendarId, direction, kind, recordKey);
    },
    dropRefusal: (id: number) => void dropRefusalById.run(id),
    /** After a whole pull: what was refused before it started and was not refused again went through. */
    clearPullRefusalsBefore: (calendarId: number, startedUtc: string) => void dropPullRefusalsBefore.run(calendarId, startedUtc),
    /** A refused change is tried again in the next round instead of waiting its hour. Call in a write transaction. */
    retryRefused(r: Pick<SiteRefusalRow, 'calendar_id' | 'kind' | 'record_key'>): void {
      if (r.kind === 'event') retryDavOutbox.run(r.calendar_id, r.record_key);
      else retrySiteOutbox.run(r.calendar_id, r.kind, Number(r.record_key));
    },
  };
}

export type SiteStore = ReturnType<typeof createSiteStore>;
