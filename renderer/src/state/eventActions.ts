/**
 * Changes to events, each one: call the API, update what is on screen, say what happened, and
 * remember how to take it back. Failures are rethrown as ApiError for the caller to show where the
 * user is looking (the editor keeps its dialog open; a drag is put back and a toast explains).
 *
 * An occurrence of a repeating event is changed with a scope (this one, this and following, the
 * whole series); a change beyond one occurrence re-reads the range, since other rows changed too.
 * Undo puts back the previous values with the same scope, so a series-wide change is undone
 * series-wide.
 */
import type { Event } from '@shared/api/records';
import { eventFields } from '@shared/schema/resources';
import { ApiError } from '../api/client';
import { decodeEntities } from '../calendar/toEventInput';
import { changedFields, eventToForm, reverseBody } from '../editor/form';
import i18n from '../i18n';
import { currentLocale, useCalendarSettings } from './calendarSettings';
import { DateTime } from 'luxon';
import { useSettings } from './settings';
import { wallTime, addDaysIso } from '../lib/dates';
import { formatDay, formatInstant } from '../lib/format';
import { api } from './api';
import { reloadEvents, useEvents } from './events';
import { useLookups } from './lookups';
import { toastError, toastInfo, useToasts } from './toasts';
import { useUndo } from './undo';
import { useUi } from './ui';
import { askScope, type Scope } from '../recurrence/ScopeDialog';
import { readOnlySource, readOnlyWords } from '../subscriptions/readOnlyCalendars';
import { confirmDespiteConflicts } from '../booking/ConflictWarning';

const t = (key: string, opts?: Record<string, unknown>) => i18n.t(key, opts);
const titleOf = (e: Pick<Event, 'title'>) => decodeEntities(e.title);

/** Where an event now starts, briefly, on the calendar's clock and in the user's language: "Fri, Mar 28, 7:00 PM". */
function whenShort(e: Event): string {
  const locale = currentLocale();
  if (e.all_day) return formatDay(e.start_date, locale, 'short');
  return formatInstant(e.utc_start_date, locale, 'short');
}

/** A write may have created terms, venues or organizers on the way (names typed in pickers). */
function refreshLookupsAfter(body: Record<string, unknown>) {
  const l = useLookups.getState();
  const named = (v: unknown) => Array.isArray(v) && v.some((x) => typeof x === 'string');
  if (named(body.categories)) void l.reload('categories').catch(() => {});
  if (named(body.tags)) void l.reload('tags').catch(() => {});
  if (body.venue && typeof body.venue === 'object') void l.reload('venues').catch(() => {});
  if (Array.isArray(body.organizer) && body.organizer.some((o) => typeof o === 'object')) void l.reload('organizers').catch(() => {});
}

/** Shows the change at once, then re-reads the range quietly: filters may now hide the event. */
function showAndRevalidate(e: Event) {
  const ev = useEvents.getState();
  ev.upsert(e);
  void ev.refresh().catch(() => {});
}

export const isSeries = (e: Pick<Event, 'recurrence'>) => !!e.recurrence;

/** After a write that may have touched other rows of a series: drop every cached range too. */
function showSeriesChange(e: Event) {
  const ev = useEvents.getState();
  ev.upsert(e);
  void ev.reload().catch(() => {});
}

/** Whether a write reaches beyond the one record it was sent to. */
const widens = (body: Record<string, unknown>, scope: Scope | undefined) => (scope !== undefined && scope !== 'this') || 'recurrence' in body;

/** Asks which occurrences a change is for, when `e` belongs to a series; null: the user cancelled. */
export async function scopeFor(e: Event, kind: 'edit' | 'delete', scopes?: Scope[]): Promise<Scope | undefined | null> {
  if (!isSeries(e)) return undefined;
  return askScope(kind, titleOf(e), scopes);
}

export async function createEvent(body: Record<string, unknown>): Promise<Event> {
  const created = await api().createEvent(body);
  const series = isSeries(created);
  if (series) showSeriesChange(created);
  else showAndRevalidate(created);
  refreshLookupsAfter(body);
  const label = t('undo.create', { title: titleOf(created) });
  useUndo.getState().push({
    label,
    undo: async () => {
      await api().trash('events', created.id, series ? 'all' : undefined);
      useEvents.getState().remove(created.id);
      if (series) void reloadEvents();
    },
  });
  // Records belong to one language: when it is not the one the interface speaks, say where the event went.
  const { contentLanguage, uiLanguage } = useSettings.getState();
  const message =
    contentLanguage === uiLanguage
      ? t('toast.created', { title: titleOf(created) })
      : t('toast.created_in', { title: titleOf(created), language: t(`language.called.${contentLanguage}`) });
  toastInfo(message, { label: t('action.undo'), run: () => void undoLast() });
  return created;
}

/**
 * `scope` is the answer to the scope question for an occurrence of a series (undefined for a
 * single event). Undo sends the old values back with the same scope; "this and following" from a
 * later occurrence split the series (the answer is the new series' first event, keeping this
 * occurrence's id), and its undo joins the two again where it can (below).
 */
export async function updateEvent(before: Event, body: Record<string, unknown>, scope?: Scope): Promise<Event> {
  if (Object.keys(body).length === 0) return before;
  // A change to all made on an occurrence changed on its own: its values are not the series', so
  // undo needs the series' values as they are now, read before the change.
  const seriesBefore = scope === 'all' && before.is_exception && !('recurrence' in body) ? await seriesValuesBack(before, before.series_id ?? before.id, Object.keys(body)) : undefined;
  const after = await api().updateEvent(before.id, body, scope);
  const wide = widens(body, scope);
  if (wide) showSeriesChange(after);
  else showAndRevalidate(after);
  refreshLookupsAfter(body);
  const back = reverseBody(eventFields, before, Object.keys(body));
  if ('recurrence' in body) back.recurrence = before.recurrence ?? null;
  const first = before.series_id ?? before.id;
  // "This and following" from a later occurrence split the series in two.
  const split = scope === 'following' && first !== before.id;
  // A single event that was given a rule is a series now: its rule can only be taken back series-wide.
  const undoScope = scope ?? ('recurrence' in body ? 'all' : undefined);
  useUndo.getState().push({
    label: t('undo.edit', { title: titleOf(after) }),
    undo: async () => {
      // Joined back, the two are one series again ("All events" reaches them all, as before): the
      // old series gets its whole rule back and the new one goes. The old rule put on the new
      // series instead would count again from here (COUNT, BYSETPOS…). Occurrences changed on their
      // own since would lose their changes in the join, so then the values are put back instead.
      if (split && ('recurrence' in body || !(await hasExceptions(after)))) {
        await api().trash('events', after.id, 'all');
        await api().deleteForever('events', after.id);
        showSeriesChange(await api().updateEvent(first, { recurrence: before.recurrence }, 'all'));
        // The join wrote the occurrence the change was made on afresh, with the series' values.
        if (before.is_exception) await giveBackOwn(before, first);
        return;
      }
      if (seriesBefore) {
        // The series' values go back to all of them, then its own to it alone.
        await api().updateEvent(after.id, seriesBefore, 'all');
        showSeriesChange(await api().updateEvent(after.id, back, 'this'));
        return;
      }
      if (split && before.is_exception) {
        // Its own values sent to "this and following" would become the series' values there: the
        // series' values go back to all of them, then its own to it alone.
        const seriesBack = await seriesValuesBack(before, first, Object.keys(body));
        if (seriesBack) {
          await api().updateEvent(after.id, seriesBack, 'following');
          showSeriesChange(await api().updateEvent(after.id, back, 'this'));
          return;
        }
      }
      const restored = await api().updateEvent(after.id, back, undoScope);
      if (wide) showSeriesChange(restored);
      else showAndRevalidate(restored);
    },
  });
  return after;
}

/**
 * A window holding every row a series has: its horizon (a setting) from today, or from its start
 * when that is later. A series' own list (`post_parent`) gets its whole window written, so one to
 * 2200 wrote every occurrence of an open-ended series up to then, thousands of rows a request.
 * (Rows of a far window a list asked for are past it; they are rarely changed on their own.)
 */
function seriesRowsWindow(e: Pick<Event, 'start_date'>): { start_date: string; end_date: string } {
  const months = useCalendarSettings.getState().settings.recurrence_horizon_months || 24;
  const today = DateTime.now().toISODate()!;
  const from = e.start_date.slice(0, 10) > today ? e.start_date.slice(0, 10) : today;
  return { start_date: '1970-01-01', end_date: DateTime.fromISO(from).plus({ months, days: 2 }).toISODate()! };
}

/** Whether any occurrence of the series `first` starts (the first event apart) was changed on its own. */
async function hasExceptions(first: Event): Promise<boolean> {
  const members = await api().listAll<Event>('events', 'events', { post_parent: first.id, ...seriesRowsWindow(first) });
  return members.some((m) => m.is_exception);
}

/** Fields a row has of its own whatever its series: never put back from one row onto another. */
const PER_ROW = new Set(['slug', 'date', 'translation_of']);

/**
 * After a split was joined back: the occurrence the change was made on is a fresh row with the
 * series' values, so what it had changed on its own (`before`) goes back onto it alone.
 */
async function giveBackOwn(before: Event, first: number): Promise<void> {
  const day = before.recurrence_id!.slice(0, 10);
  const rows = await api().listAll<Event>('events', 'events', { post_parent: first, start_date: day, end_date: addDaysIso(day, 1) });
  const fresh = rows.find((r) => r.recurrence_id === before.recurrence_id);
  if (!fresh) return;
  const keys = changedFields(eventToForm(fresh, eventFields), eventToForm(before, eventFields)).filter((k) => !PER_ROW.has(k));
  if (keys.length) showAndRevalidate(await api().updateEvent(fresh.id, reverseBody(eventFields, before, keys), 'this'));
}

/**
 * The series' values of `keys` where the occurrence `before` (changed on its own) is: read from
 * the nearest occurrence of the series `first` that was not, its time of day and length put on
 * `before`'s original start. Undefined when every occurrence near it was changed on its own.
 */
async function seriesValuesBack(before: Event, first: number, keys: string[]): Promise<Record<string, unknown> | undefined> {
  const key = before.recurrence_id;
  if (!key) return undefined;
  const day = DateTime.fromISO(key.slice(0, 10));
  const near = await api().listAll<Event>('events', 'events', { post_parent: first, start_date: day.minus({ months: 3 }).toISODate()!, end_date: day.plus({ months: 3 }).toISODate()! });
  const distance = (e: Event) => Math.abs(DateTime.fromSQL(e.recurrence_id!).diff(DateTime.fromSQL(key)).toMillis());
  let ref = near.filter((e) => e.id !== before.id && !e.is_exception && !!e.recurrence_id).sort((a, b) => distance(a) - distance(b))[0];
  if (!ref && first !== before.id) {
    const head = await api().getEvent(first);
    if (!head.is_exception) ref = head;
  }
  if (!ref) return undefined;
  const out = reverseBody(eventFields, ref, keys);
  if ('start_date' in out) {
    const length = DateTime.fromSQL(ref.end_date, { zone: 'UTC' }).diff(DateTime.fromSQL(ref.start_date, { zone: 'UTC' }));
    out.start_date = before.recurrence_id;
    out.end_date = DateTime.fromSQL(before.recurrence_id!, { zone: 'UTC' }).plus(length).toFormat('yyyy-MM-dd HH:mm:ss');
  }
  return out;
}

/** An occurrence's original start as RFC 5545 writes it in EXDATE (`20270105T180000`, or a date). */
const icalKey = (e: Pick<Event, 'recurrence_id' | 'all_day'>) => {
  const compact = (e.recurrence_id ?? '').replace(/[-:]/g, '').replace(' ', 'T');
  return e.all_day ? compact.slice(0, 8) : compact;
};

/**
 * Undoes "delete this and following": the series gets its rule back, and the occurrences that
 * went to the trash with it come back (the ones deleted one by one before stay deleted).
 */
async function restoreFollowing(e: Event, first: number) {
  const trashed = await api().listAll<Event>('events', 'events', { status: 'trash', post_parent: first, ...seriesRowsWindow(e) });
  showSeriesChange(await api().updateEvent(first, { recurrence: e.recurrence }, 'all'));
  const deletedBefore = new Set(e.recurrence?.exdates ?? []);
  for (const r of trashed) {
    if (r.recurrence_id && e.recurrence_id && r.recurrence_id >= e.recurrence_id && !deletedBefore.has(icalKey(r))) await api().restore('events', r.id);
  }
  await reloadEvents();
}

export interface MoveTarget {
  start: Date;
  end: Date | null;
  allDay: boolean;
  /** `YYYY-MM-DD` of the first day and the (exclusive) end day, for all-day placements. */
  startDay: string;
  endDay: string | null;
}

/** The body that puts an event where it was dropped, in the event's own zone. */
export function moveBody(e: Event, to: MoveTarget): Record<string, unknown> {
  if (to.allDay) {
    const lastDay = to.endDay ? addDaysIso(to.endDay, -1) : to.startDay;
    return {
      ...(e.all_day ? {} : { all_day: true }),
      start_date: `${to.startDay} 00:00:00`,
      end_date: `${lastDay < to.startDay ? to.startDay : lastDay} 23:59:59`,
    };
  }
  const zone = e.timezone;
  // Coming out of the all-day row an event has no length of its own yet: give it an hour.
  const end = to.end ?? new Date(to.start.getTime() + 60 * 60 * 1000);
  return {
    ...(e.all_day ? { all_day: false } : {}),
    start_date: wallTime(to.start, zone),
    end_date: wallTime(end, zone),
  };
}

/**
 * An event of a read-only calendar is not changed, whichever way the change was asked for (a drag,
 * the Delete key, a menu): it says so instead, as the server would refuse it.
 */
function refusedAsReadOnly(e: Event): boolean {
  const name = readOnlySource(e);
  if (name === undefined) return false;
  toastInfo(readOnlyWords(e, name, t));
  return true;
}

/**
 * Drag-and-drop and resize. The calendar already shows the new place; if the server refuses,
 * `revert` puts the event back and the server's reason is shown.
 */
export async function moveEvent(e: Event, to: MoveTarget, revert: () => void): Promise<void> {
  if (refusedAsReadOnly(e)) return revert();
  try {
    const scope = await scopeFor(e, 'edit');
    if (scope === null) return revert();
    const body = moveBody(e, to);
    // Another event holding its venue or an organizer then: said before saving, the move still possible.
    const placement = {
      start_date: String(body.start_date),
      end_date: String(body.end_date),
      all_day: (body.all_day as boolean | undefined) ?? !!e.all_day,
      timezone: e.timezone,
      venue: Array.isArray(e.venue) ? null : (e.venue?.id ?? null),
      organizers: (e.organizer ?? []).map((o) => o.id),
      exclude: e.id,
    };
    if (!(await confirmDespiteConflicts(placement))) return revert();
    const after = await updateEvent(e, body, scope);
    // A drop is easy to make by accident: say where it went, with the way back, like every other edit.
    toastInfo(t('toast.moved', { title: titleOf(after), when: whenShort(after) }), { label: t('action.undo'), run: () => void undoLast() });
  } catch (err) {
    revert();
    toastError(err instanceof ApiError ? err.message : String(err));
  }
}

/**
 * Moves an event to the trash; for an occurrence of a series, after asking which ones. Undo:
 * one occurrence is restored (the server takes it off the series' deleted dates); a series cut
 * short gets its rule back; a whole series is restored whole (a restore with scope "all").
 */
export async function trashEvent(e: Event, answered?: Scope): Promise<void> {
  if (refusedAsReadOnly(e)) return;
  const scope = answered ?? (await scopeFor(e, 'delete'));
  if (scope === null) return;
  try {
    await api().trash('events', e.id, scope);
  } catch (err) {
    toastError((err as Error).message);
    return;
  }
  useEvents.getState().remove(e.id);
  if (widens({}, scope)) void reloadEvents();
  const ui = useUi.getState();
  if (ui.selectedEventId === e.id) ui.select(null);
  const label = t('undo.trash', { title: titleOf(e) });
  const first = e.series_id ?? e.id;
  const wholeSeries = scope === 'all' || (scope === 'following' && first === e.id);
  useUndo.getState().push({
    label,
    undo: async () => {
      if (wholeSeries) {
        // Through the occurrence deleted, for all: the first event may be gone for good already.
        showAndRevalidate(await api().updateEvent(e.id, { status: 'publish' }, 'all'));
        await reloadEvents();
      } else if (scope === 'following') await restoreFollowing(e, first);
      else await restoreEvent(e.id, { quiet: true });
    },
  });
  toastInfo(t('toast.trashed', { title: titleOf(e) }), { label: t('action.undo'), run: () => void undoLast() });
}

export async function restoreEvent(id: number, opts: { quiet?: boolean } = {}): Promise<Event> {
  const restored = await api().restore<Event>('events', id);
  showAndRevalidate(restored);
  if (!opts.quiet) toastInfo(t('toast.restored', { title: titleOf(restored) }));
  return restored;
}

export async function deleteEventForever(id: number): Promise<void> {
  await api().deleteForever('events', id);
}

/** Ctrl+Z: reverses the latest change and says so. */
export async function undoLast(): Promise<void> {
  try {
    const label = await useUndo.getState().undo();
    dismissUndoToasts();
    if (label) toastInfo(t('toast.undone', { what: label }));
    else toastInfo(t('toast.nothingToUndo'));
  } catch (err) {
    toastError((err as Error).message);
  }
}

/** An Undo button on an older toast would now undo something else: remove those buttons. */
function dismissUndoToasts() {
  const s = useToasts.getState();
  for (const toast of s.toasts) if (toast.action) s.dismiss(toast.id);
}
