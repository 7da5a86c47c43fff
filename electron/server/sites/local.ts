/**
 * A site's records on this side: read as the sync's normalized form (through the same JSON the
 * API serves, so both sides normalize the same way) and written from it, through the stores' own
 * checks. Links are translated between the site's ids and local ids with `sync_objects`.
 */
import { eventFields, organizerFields, venueFields } from '../../../shared/schema/resources';
import { validateFields } from '../validate';
import { LinkMemo } from '../store/events';
import { serializeEvent } from '../serialize/event';
import { serializeLinked } from '../serialize/linked-posts';
import { serializeTerm } from '../serialize/terms';
import type { SiteKind } from '../store/sites';
import { normEvent, normRecord, recordTitle, type Ref, type RefOf, type SiteEvent, type SiteRecord } from './records';
import type { SyncObjectRow } from '../store/sites';
import type { SiteLocal } from './round';
import { applyFirstEvent, splitFirstEvent } from './occurrences';

type Linked = Exclude<SiteKind, 'event'>;

/** The site's id of a local record, or `local:N` while the site has not got it. */
export const localRefOf =
  (cx: SiteLocal): RefOf =>
  (kind, id) =>
    cx.store.sites.objectByLocal(cx.calendarId, kind, id)?.remote_id ?? `local:${id}`;

/**
 * Runs `fn` (the storing of a page of events) with the local ids of the venues, organizers and
 * terms it names looked up once each instead of once per event. Only links found are kept, and
 * only while `fn` runs: storing events creates and forgets no venue, organizer or term link.
 * `inOneGo` (nothing of the page is rolled back but all of it): also with the events store's
 * memory of the venues, organizers, terms and calendar it has found usable, each checked once a
 * page rather than once an event (a record rolled back alone could leave it wrong).
 */
export function withPageLinks<T>(cx: SiteLocal, inOneGo: boolean, fn: () => T): T {
  cx.state.page = { found: new Map(), memo: inOneGo ? new LinkMemo() : undefined };
  try {
    return fn();
  } finally {
    cx.state.page = undefined;
  }
}

/** The local id a reference names, if that record is here. */
function localIdOf(cx: SiteLocal, kind: Linked, ref: Ref): number | undefined {
  if (typeof ref === 'string') {
    const m = /^local:(\d+)$/.exec(ref);
    return m ? Number(m[1]) : undefined;
  }
  const memo = cx.state.page?.found;
  const key = memo && `${kind}:${ref}`;
  const known = key === undefined ? undefined : memo!.get(key);
  if (known !== undefined) return known;
  const id = cx.store.sites.objectByRemote(cx.calendarId, kind, ref)?.local_id ?? undefined;
  if (key !== undefined && id !== undefined) memo!.set(key, id);
  return id;
}

/** The local record in the sync's form, or undefined when it is not here (deleted). */
export function localRecord(cx: SiteLocal, kind: SiteKind, localId: number): SiteRecord | undefined {
  const { store, url } = cx;
  if (kind === 'event') {
    const row = store.events.get(localId);
    if (!row || row.calendar_id !== cx.calendarId) return undefined;
    return normEvent(serializeEvent(row, url, store) as unknown as Record<string, unknown>, localRefOf(cx), { series: cx.caps.almanac }) as unknown as SiteRecord;
  }
  if (kind === 'venue' || kind === 'organizer') {
    const row = (kind === 'venue' ? store.venues : store.organizers).get(localId);
    if (!row) return undefined;
    return normRecord(kind, serializeLinked(kind, [row], url, store)[0] as unknown as Record<string, unknown>, localRefOf(cx));
  }
  const row = store.terms.get(kind, localId);
  if (!row) return undefined;
  return normRecord(kind, serializeTerm(row, url, {}) as unknown as Record<string, unknown>, localRefOf(cx));
}

const ids = (cx: SiteLocal, kind: Linked, refs: Ref[]) => refs.map((r) => localIdOf(cx, kind, r)).filter((n): n is number => n !== undefined);

/** An event record of the site as the values the event store takes (links as local ids). */
export function eventValues(cx: SiteLocal, e: SiteEvent, mode: 'create' | 'update'): Record<string, unknown> {
  const venue = e.venue === null ? undefined : localIdOf(cx, 'venue', e.venue);
  const body: Record<string, unknown> = {
    title: e.title,
    description: e.description,
    excerpt: e.excerpt,
    status: e.status,
    start_date: e.start_date,
    end_date: e.end_date,
    all_day: e.all_day,
    timezone: e.timezone || undefined,
    cost: e.cost,
    website: e.website,
    featured: e.featured,
    sticky: e.sticky,
    show_map: e.show_map,
    show_map_link: e.show_map_link,
    hide_from_listings: e.hide_from_listings,
    venue: venue ?? 0,
    organizer: ids(cx, 'organizer', e.organizer),
    categories: ids(cx, 'category', e.categories),
    tags: ids(cx, 'tag', e.tags),
    calendar: cx.calendarId,
  };
  if (e.date) body.date = e.date;
  if (mode === 'create' && body.venue === 0) delete body.venue;
  const values = validateFields(eventFields, body, mode);
  if (values.venue === undefined && mode === 'update') values.venue = 0;
  return values;
}

/**
 * Writes a record of the site here: updates `localId`, or creates one. Returns the local id. Call
 * in a write transaction, as the site's (store.davSync.asServer): no outbox row comes of it.
 */
export function applyLocally(cx: SiteLocal, kind: SiteKind, r: SiteRecord, localId?: number): number {
  const { store, write } = cx;
  const mode = localId === undefined ? 'create' : 'update';
  if (kind === 'event') {
    const e = r as unknown as SiteEvent;
    // A first event changed on its own there: the series' values for the series, its own for it (occurrences.ts).
    const split = e.recurrence ? splitFirstEvent(cx, r, localId) : undefined;
    const values = eventValues(cx, (split?.series ?? e) as unknown as SiteEvent, mode);
    if (split?.sameTiming) for (const f of ['start_date', 'end_date', 'timezone', 'all_day']) delete values[f];
    const recurrence = e.recurrence ? validateFields(eventFields, { recurrence: e.recurrence }, 'update').recurrence : undefined;
    if (localId === undefined) {
      const id = store.events.create(values, write, { calendarId: cx.calendarId, memo: cx.state.page?.memo });
      if (recurrence) store.series.create(id, recurrence);
      if (split && recurrence) applyFirstEvent(cx, id, split.first);
      return id;
    }
    const row = store.events.get(localId)!;
    if (e.recurrence !== undefined && (recurrence || store.series.get(localId))) {
      // A series changed whole: its occurrences follow (a rule ended there ends it here too).
      const id = store.series.update(row, { ...values, recurrence: recurrence ?? null }, 'all', write);
      if (split && recurrence) applyFirstEvent(cx, id, split.first);
      return id;
    }
    store.events.update(localId, values, write, { memo: cx.state.page?.memo });
    return localId;
  }
  if (kind === 'venue' || kind === 'organizer') {
    const linked = kind === 'venue' ? store.venues : store.organizers;
    const values = validateFields(kind === 'venue' ? venueFields : organizerFields, { ...r }, mode);
    if (localId === undefined) return linked.create(values, write).id;
    linked.update(localId, values, write);
    return localId;
  }
  const values: Record<string, unknown> = { name: r.name, slug: r.slug, description: r.description };
  if (kind === 'category') values.parent = r.parent === null || r.parent === undefined ? 0 : (localIdOf(cx, 'category', r.parent as Ref) ?? 0);
  if (localId === undefined) return store.terms.create(kind, values, write);
  store.terms.update(kind, localId, values);
  return localId;
}

/**
 * Ours, kept as a conflict copy the user can restore ("Keep mine") when the site's version of the
 * same record wins (the same field changed on both sides): the one place pull and push keep it.
 */
export function keepLocalCopy(cx: SiteLocal, kind: SiteKind, o: Pick<SyncObjectRow, 'uid'>, local: SiteRecord, localId: number): void {
  cx.store.davSync.keepConflict(cx.calendarId, o.uid ?? `${kind}:${localId}`, recordTitle(kind, local), JSON.stringify(local), new Date().toISOString(), 'json', kind);
}
