/**
 * Changes to events, each one: call the API, update what is on screen, say what happened, and
 * remember how to take it back. Failures are rethrown as ApiError for the caller to show where the
 * user is looking (the editor keeps its dialog open; a drag is put back and a toast explains).
 */
import type { Event } from '@shared/api/records';
import { eventFields } from '@shared/schema/resources';
import { ApiError } from '../api/client';
import { decodeEntities } from '../calendar/toEventInput';
import { reverseBody } from '../editor/form';
import i18n, { localeTag } from '../i18n';
import { DateTime } from 'luxon';
import { useSettings } from './settings';
import { wallTime, addDaysIso } from '../lib/dates';
import { api } from './api';
import { useEvents } from './events';
import { useLookups } from './lookups';
import { toastError, toastInfo, useToasts } from './toasts';
import { useUndo } from './undo';
import { useUi } from './ui';

const t = (key: string, opts?: Record<string, unknown>) => i18n.t(key, opts);
const titleOf = (e: Pick<Event, 'title'>) => decodeEntities(e.title);

/** Where an event now starts, briefly, in the viewer's zone and language: "Fri, Mar 28, 7:00 PM". */
function whenShort(e: Event): string {
  const locale = localeTag(useSettings.getState().uiLanguage);
  if (e.all_day) return DateTime.fromISO(e.start_date.slice(0, 10)).setLocale(locale).toLocaleString({ weekday: 'short', month: 'short', day: 'numeric' });
  return DateTime.fromSQL(e.utc_start_date, { zone: 'utc' })
    .toLocal()
    .setLocale(locale)
    .toLocaleString({ weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
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

export async function createEvent(body: Record<string, unknown>): Promise<Event> {
  const created = await api().createEvent(body);
  showAndRevalidate(created);
  refreshLookupsAfter(body);
  const label = t('undo.create', { title: titleOf(created) });
  useUndo.getState().push({
    label,
    undo: async () => {
      await api().trash('events', created.id);
      useEvents.getState().remove(created.id);
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

export async function updateEvent(before: Event, body: Record<string, unknown>): Promise<Event> {
  if (Object.keys(body).length === 0) return before;
  const after = await api().updateEvent(before.id, body);
  showAndRevalidate(after);
  refreshLookupsAfter(body);
  const back = reverseBody(eventFields, before, Object.keys(body));
  useUndo.getState().push({
    label: t('undo.edit', { title: titleOf(after) }),
    undo: async () => {
      const restored = await api().updateEvent(before.id, back);
      showAndRevalidate(restored);
    },
  });
  return after;
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
 * Drag-and-drop and resize. The calendar already shows the new place; if the server refuses,
 * `revert` puts the event back and the server's reason is shown.
 */
export async function moveEvent(e: Event, to: MoveTarget, revert: () => void): Promise<void> {
  try {
    const after = await updateEvent(e, moveBody(e, to));
    // A drop is easy to make by accident: say where it went, with the way back, like every other edit.
    toastInfo(t('toast.moved', { title: titleOf(after), when: whenShort(after) }), { label: t('action.undo'), run: () => void undoLast() });
  } catch (err) {
    revert();
    toastError(err instanceof ApiError ? err.message : String(err));
  }
}

export async function trashEvent(e: Event): Promise<void> {
  try {
    await api().trash('events', e.id);
  } catch (err) {
    toastError((err as Error).message);
    return;
  }
  useEvents.getState().remove(e.id);
  const ui = useUi.getState();
  if (ui.selectedEventId === e.id) ui.select(null);
  const label = t('undo.trash', { title: titleOf(e) });
  useUndo.getState().push({
    label,
    undo: async () => {
      await restoreEvent(e.id, { quiet: true });
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
