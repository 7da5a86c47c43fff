/**
 * The CalDAV sync's own rows (migration "CalDAV sync state"): each server resource Almanac knows
 * (`dav_objects`), what is waiting to be sent (`dav_outbox`, written by triggers in the same
 * transaction as the event change, whichever code made it), local versions that lost a conflict
 * (`sync_conflicts`), and the guard that tells those triggers a write is the server's.
 */
import type { DB } from './db';
import type { EventStore } from './events';

export interface DavObjectRow {
  calendar_id: number;
  uid: string;
  href: string;
  etag: string | null;
  base_ical: string | null;
}

export interface OutboxRow {
  calendar_id: number;
  uid: string;
  rev: number;
  attempts: number;
  next_try_utc: string | null;
  error: string | null;
}

export interface ConflictRow {
  id: number;
  calendar_id: number;
  uid: string;
  title: string;
  /** The kept copy: iCalendar text (`format` 'ical', CalDAV) or the site's normalized JSON record ('json'). */
  local_ical: string;
  created_utc: string;
  /** What kind of record the copy is (sync_objects kinds: 'event' for every CalDAV one). */
  kind: string;
  format: 'ical' | 'json';
}

/** `events`: the one way an event leaves for good (its post id released with it). */
export function createDavSyncStore(db: DB, events: Pick<EventStore, 'deleteForever'>) {
  const objectByUid = db.prepare<[number, string], DavObjectRow>('SELECT * FROM dav_objects WHERE calendar_id = ? AND uid = ?');
  const objectByHref = db.prepare<[number, string], DavObjectRow>('SELECT * FROM dav_objects WHERE calendar_id = ? AND href = ?');
  const objectsOf = db.prepare<[number], DavObjectRow>('SELECT calendar_id, uid, href, etag, NULL AS base_ical FROM dav_objects WHERE calendar_id = ?');
  const upsertObject = db.prepare<[number, string, string, string | null, string | null]>(
    `INSERT INTO dav_objects (calendar_id, uid, href, etag, base_ical) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (calendar_id, uid) DO UPDATE SET href = excluded.href, etag = excluded.etag, base_ical = coalesce(excluded.base_ical, base_ical)`,
  );
  const deleteObject = db.prepare<[number, string]>('DELETE FROM dav_objects WHERE calendar_id = ? AND uid = ?');
  const due = db.prepare<[number, string, number], OutboxRow>(
    'SELECT * FROM dav_outbox WHERE calendar_id = ? AND (next_try_utc IS NULL OR next_try_utc <= ?) ORDER BY rowid LIMIT ?',
  );
  const outboxRow = db.prepare<[number, string], OutboxRow>('SELECT * FROM dav_outbox WHERE calendar_id = ? AND uid = ?');
  const sent = db.prepare<[number, string, number]>('DELETE FROM dav_outbox WHERE calendar_id = ? AND uid = ? AND rev = ?');
  const dropOutbox = db.prepare<[number, string]>('DELETE FROM dav_outbox WHERE calendar_id = ? AND uid = ?');
  const failed = db.prepare<[string, string | null, number, string]>('UPDATE dav_outbox SET attempts = attempts + 1, error = ?, next_try_utc = ? WHERE calendar_id = ? AND uid = ?');
  const pendingCount = db.prepare<[number], number>('SELECT count(*) FROM dav_outbox WHERE calendar_id = ?').pluck();
  const anyPending = db.prepare<[], number>('SELECT 1 FROM dav_outbox LIMIT 1').pluck();
  const outboxErrors = db.prepare<[number], { uid: string; error: string }>('SELECT uid, error FROM dav_outbox WHERE calendar_id = ? AND error IS NOT NULL');
  const setGuard = db.prepare<[number]>('UPDATE sync_guard SET applying = ?');
  const addConflict = db.prepare<[number, string, string, string, string, string, string]>(
    'INSERT INTO sync_conflicts (calendar_id, uid, title, local_ical, created_utc, kind, format) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const conflicts = db.prepare<[], ConflictRow>('SELECT * FROM sync_conflicts ORDER BY id');
  const conflictById = db.prepare<[number], ConflictRow>('SELECT * FROM sync_conflicts WHERE id = ?');
  const deleteConflict = db.prepare<[number]>('DELETE FROM sync_conflicts WHERE id = ?');
  const resourceEvents = db.prepare<[{ calendar: number; uid: string }], number>(
    'SELECT id FROM events WHERE calendar_id = @calendar AND (ics_uid = @uid AND parent_id IS NULL OR parent_id IN (SELECT id FROM events WHERE calendar_id = @calendar AND ics_uid = @uid AND parent_id IS NULL)) ORDER BY parent_id IS NULL, id',
  ).pluck();
  const anchor = db.prepare<[number, string], { id: number; status: string; title: string; lang: string }>(
    'SELECT id, status, title, lang FROM events WHERE calendar_id = ? AND ics_uid = ? AND parent_id IS NULL ORDER BY id LIMIT 1',
  );
  const exceptions = db.prepare<[number], number>("SELECT id FROM events WHERE parent_id = ? AND own_fields <> 0 AND status <> 'trash' ORDER BY recurrence_id").pluck();
  const saveState = db.prepare<[string | null, string | null, string | null, string | null, number]>(
    'UPDATE calendars SET sync_token = ?, ctag = ?, last_full_sync_utc = coalesce(?, last_full_sync_utc), last_error = ? WHERE id = ?',
  );
  const setCalendarError = db.prepare<[string | null, number]>('UPDATE calendars SET last_error = ? WHERE id = ?');
  const setHeld = db.prepare<[string | null, number]>('UPDATE calendars SET held_deletes = ? WHERE id = ?');
  const requeue = db.prepare<[number, string]>("INSERT INTO dav_outbox (calendar_id, uid) VALUES (?, ?) ON CONFLICT DO UPDATE SET rev = rev + 1, attempts = 0, next_try_utc = NULL, error = NULL");
  const setAccountResult = db.prepare<[string | null, string | null, number]>('UPDATE caldav_accounts SET last_sync_utc = coalesce(?, last_sync_utc), last_error = ? WHERE id = ?');

  return {
    object: (calendarId: number, uid: string) => objectByUid.get(calendarId, uid),
    objectByHref: (calendarId: number, href: string) => objectByHref.get(calendarId, href),
    /** href and ETag of every resource known in a calendar (no text: a listing compares these only). */
    objects: (calendarId: number) => objectsOf.all(calendarId),
    /** `base` null keeps the text stored (a new ETag learnt before the text is fetched). */
    saveObject: (o: { calendarId: number; uid: string; href: string; etag: string | null; base: string | null }) => void upsertObject.run(o.calendarId, o.uid, o.href, o.etag, o.base),
    forgetObject: (calendarId: number, uid: string) => void deleteObject.run(calendarId, uid),
    /** The next changes to send, oldest first, not waiting for a retry time. */
    due: (calendarId: number, nowUtc: string, limit: number) => due.all(calendarId, nowUtc, limit),
    pending: (calendarId: number, uid: string) => outboxRow.get(calendarId, uid),
    /** Sent: done, unless the event changed again meanwhile (rev moved on), then it goes next time. */
    markSent: (row: Pick<OutboxRow, 'calendar_id' | 'uid' | 'rev'>) => void sent.run(row.calendar_id, row.uid, row.rev),
    dropPending: (calendarId: number, uid: string) => void dropOutbox.run(calendarId, uid),
    markFailed: (row: Pick<OutboxRow, 'calendar_id' | 'uid'>, error: string, nextTryUtc: string | null) => void failed.run(error, nextTryUtc, row.calendar_id, row.uid),
    pendingCount: (calendarId: number): number => pendingCount.get(calendarId) as number,
    /** Whether any change waits to be sent, in any calendar. */
    hasPending: (): boolean => anyPending.get() !== undefined,
    outboxErrors: (calendarId: number) => outboxErrors.all(calendarId),
    /**
     * Runs `fn` with the outbox triggers off: what it writes came from the server. Call inside the
     * write transaction (a rollback puts the guard back with everything else).
     */
    asServer<T>(fn: () => T): T {
      setGuard.run(1);
      try {
        return fn();
      } finally {
        setGuard.run(0);
      }
    },
    /** Keeps a local version that lost to the other side's (any sync: CalDAV's iCalendar, a site's JSON). */
    keepConflict: (calendarId: number, uid: string, title: string, localCopy: string, nowUtc: string, format: ConflictRow['format'] = 'ical', kind = 'event') =>
      Number(addConflict.run(calendarId, uid, title, localCopy, nowUtc, kind, format).lastInsertRowid),
    conflicts: () => conflicts.all(),
    conflict: (id: number) => conflictById.get(id),
    dropConflict: (id: number) => deleteConflict.run(id).changes > 0,
    /** A resource's first event (or single event), whatever its status. */
    anchor: (calendarId: number, uid: string) => anchor.get(calendarId, uid),
    /** Occurrences of a series changed on their own: its RECURRENCE-ID VEVENTs. */
    exceptions: (anchorId: number) => exceptions.all(anchorId) as number[],
    /** Deletes every row of a resource (a series with its occurrences) for good. Call in a transaction. */
    deleteResource(calendarId: number, uid: string): number {
      const ids = resourceEvents.all({ calendar: calendarId, uid }) as number[];
      // Occurrences first: they point at their first event.
      for (const id of ids) events.deleteForever(id);
      return ids.length;
    },
    saveCalendarState: (calendarId: number, s: { syncToken: string | null; ctag: string | null; fullSyncUtc: string | null; error: string | null }) =>
      void saveState.run(s.syncToken, s.ctag, s.fullSyncUtc, s.error, calendarId),
    setCalendarError: (calendarId: number, error: string | null) => void setCalendarError.run(error, calendarId),
    /** Deletions held for the user (JSON), or null. */
    setHeldDeletes: (calendarId: number, held: string | null) => void setHeld.run(held, calendarId),
    /** Queues a resource to be sent (again) as it is here: the server lost it, the user keeps it. */
    requeue: (calendarId: number, uid: string) => void requeue.run(calendarId, uid),
    setAccountResult: (accountId: number, syncedUtc: string | null, error: string | null) => void setAccountResult.run(syncedUtc, error, accountId),
  };
}

export type DavSyncStore = ReturnType<typeof createDavSyncStore>;
