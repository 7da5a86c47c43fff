/**
 * "Keep mine" for a site's conflict copy (routes/sync.ts, the same choice as CalDAV's): the kept
 * record becomes the local one again, as a local change, so the next round sends it.
 */
import type { Store } from '../store';
import type { ConflictRow } from '../store/dav-sync';
import type { WriteContext } from '../store/post-fields';
import type { UrlContext } from '../serialize/context';
import type { SiteKind } from '../store/sites';
import { capabilitiesOf } from './sync';
import { applyLocally } from './local';
import { restoreOccurrenceCopy } from './occurrences';
import { newReport, newRoundState, type SiteLocal } from './round';
import type { SiteRecord } from './records';

/** Writes the kept copy over the record here (a local change). Returns the local id. Call in a write transaction. */
export function restoreSiteCopy(store: Store, row: ConflictRow, write: WriteContext, url: UrlContext): number | undefined {
  const site = store.sites.byCalendar(row.calendar_id);
  if (!site) return undefined;
  const kind = row.kind as SiteKind;
  // The local side of a round, with no connection: nothing is sent from here.
  const cx: SiteLocal = { store, site, calendarId: site.calendar_id, caps: capabilitiesOf(site), write, url, report: newReport(site), state: newRoundState() };
  // An occurrence's copy (kept under its series' UID and original start) is that occurrence again.
  if (kind === 'event' && row.uid.includes('#')) {
    const id = restoreOccurrenceCopy(cx, row.uid, JSON.parse(row.local_ical) as SiteRecord);
    if (id !== undefined) return id;
  }
  const localId = kind === 'event' ? store.davSync.anchor(site.calendar_id, row.uid)?.id : Number(row.uid.split(':')[1]) || undefined;
  return applyLocally(cx, kind, JSON.parse(row.local_ical) as SiteRecord, localId);
}
