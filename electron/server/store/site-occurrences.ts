/**
 * Occurrences of a site's series changed on their own (migration 17): per series record
 * (sync_objects), the copy of each such occurrence both sides last agreed on, keyed by its
 * original start (RECURRENCE-ID), and the site's row id for it.
 */
import type { DB } from './db';

export interface SyncOccurrenceRow {
  object_id: number;
  recurrence_id: string;
  remote_id: number | null;
  base_json: string;
  base_hash: string;
}

export function createSiteOccurrenceStore(db: DB) {
  const ofObject = db.prepare<[number], SyncOccurrenceRow>('SELECT * FROM sync_occurrences WHERE object_id = ? ORDER BY recurrence_id');
  const one = db.prepare<[number, string], SyncOccurrenceRow>('SELECT * FROM sync_occurrences WHERE object_id = ? AND recurrence_id = ?');
  const save = db.prepare<[number, string, number | null, string, string]>(
    `INSERT INTO sync_occurrences (object_id, recurrence_id, remote_id, base_json, base_hash) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (object_id, recurrence_id) DO UPDATE SET remote_id = coalesce(excluded.remote_id, remote_id), base_json = excluded.base_json, base_hash = excluded.base_hash`,
  );
  const forget = db.prepare<[number, string]>('DELETE FROM sync_occurrences WHERE object_id = ? AND recurrence_id = ?');
  // Local occurrences of a series that differ from it: changed on their own, or in the trash.
  const exceptions = db.prepare<[number], { id: number; recurrence_id: string }>(
    "SELECT id, recurrence_id FROM events WHERE parent_id = ? AND recurrence_id IS NOT NULL AND (own_fields <> 0 OR status = 'trash')",
  );
  const at = db.prepare<[number, string], { id: number }>('SELECT id FROM events WHERE parent_id = ? AND recurrence_id = ?');
  const generated = db.prepare<[number], { id: number }>("SELECT id FROM events WHERE parent_id = ? AND recurrence_id IS NOT NULL AND own_fields = 0 AND status <> 'trash' LIMIT 1");

  return {
    of: (objectId: number) => ofObject.all(objectId),
    get: (objectId: number, key: string) => one.get(objectId, key),
    save: (r: SyncOccurrenceRow) => void save.run(r.object_id, r.recurrence_id, r.remote_id, r.base_json, r.base_hash),
    forget: (objectId: number, key: string) => void forget.run(objectId, key),
    /** The occurrences of the series `anchorId` (not its first event) changed on their own or trashed here. */
    localExceptions: (anchorId: number) => exceptions.all(anchorId),
    /** The row of the occurrence of `anchorId` at `key` (not its first event), if it has one. */
    rowAt: (anchorId: number, key: string) => at.get(anchorId, key)?.id,
    /** A row of the series `anchorId` as the series makes it (changed in nothing on its own), if it has one. */
    generatedRow: (anchorId: number) => generated.get(anchorId)?.id,
  };
}

export type SiteOccurrenceStore = ReturnType<typeof createSiteOccurrenceStore>;
