/**
 * Which calendars are read-only (subscriptions, and servers' calendars the account may not write),
 * and which events (a website's occurrences its site generates from a repeating event),
 * read from the one calendars store (state/calendars.ts): their events open with no Edit or
 * Delete and cannot be dragged, as the server would refuse the change anyway.
 */
import type { Event } from '@shared/api/records';
import type { CalendarJson } from '@shared/schema/accounts';
import { useCalendars } from '../state/calendars';

/** The read-only calendar's name, by id, or undefined when the calendar may be changed. */
function readOnlyName(calendars: readonly CalendarJson[], id: number | undefined): string | undefined {
  if (id === undefined) return undefined;
  const c = calendars.find((x) => x.id === id);
  return c?.read_only ? c.name : undefined;
}

/**
 * The calendar an event comes from when it is read-only (its calendar is, or it is a website's
 * occurrence its site generates: `read_only` on the event); undefined when it may be changed.
 */
export function readOnlySource(e: Pick<Event, 'calendar' | 'read_only'>): string | undefined {
  return sourceOf(useCalendars.getState().calendars, e);
}

/** The same, as a hook: drawn again when the calendars change. */
export function useReadOnlySource(e: Pick<Event, 'calendar' | 'read_only'>): string | undefined {
  return useCalendars((s) => sourceOf(s.calendars, e));
}

function sourceOf(calendars: readonly CalendarJson[], e: Pick<Event, 'calendar' | 'read_only'>): string | undefined {
  if (e.read_only) return calendars.find((c) => c.id === e.calendar)?.name ?? '';
  return readOnlyName(calendars, e.calendar);
}

/**
 * Why an event is read-only, in words (`source` from readOnlySource): a website's occurrence is
 * changed on its site, a read-only calendar's event at its source (`calendarKey` words that).
 */
export function readOnlyWords(e: Pick<Event, 'read_only'>, source: string, t: (key: string, vars: Record<string, unknown>) => string, calendarKey: 'editor.read_only' | 'subscribe.read_only' = 'editor.read_only'): string {
  return e.read_only?.reason === 'site_occurrence' ? t('editor.read_only_occurrence', { name: source }) : t(calendarKey, { name: source });
}
