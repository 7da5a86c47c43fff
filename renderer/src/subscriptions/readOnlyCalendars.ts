/**
 * Which calendars are read-only (subscriptions, and servers' calendars the account may not write),
 * read from the one calendars store (state/calendars.ts): their events open with no Edit or
 * Delete and cannot be dragged, as the server would refuse the change anyway.
 */
import type { Event } from '@shared/api/records';
import type { CalendarJson } from '@shared/schema/accounts';
import { useCalendars } from '../state/calendars';

/** The read-only calendar's name, by id, or undefined when the calendar may be changed. */
export function readOnlyName(calendars: readonly CalendarJson[], id: number | undefined): string | undefined {
  if (id === undefined) return undefined;
  const c = calendars.find((x) => x.id === id);
  return c?.read_only ? c.name : undefined;
}

/** The calendar an event comes from when it is read-only; undefined when it may be changed. */
export function readOnlySource(e: Pick<Event, 'calendar'>): string | undefined {
  return readOnlyName(useCalendars.getState().calendars, e.calendar);
}

/** The same, as a hook: drawn again when the calendars change. */
export function useReadOnlySource(e: Pick<Event, 'calendar'>): string | undefined {
  return useCalendars((s) => readOnlyName(s.calendars, e.calendar));
}
