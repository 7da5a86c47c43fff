/**
 * Which calendars are read-only subscriptions (GET /calendars), so the calendar offers no Edit or
 * Delete on their events: the server would refuse them (403 calendar-read-only) anyway.
 */
import { create } from 'zustand';
import type { Event } from '@shared/api/records';
import { api } from '../state/api';

export interface CalendarInfo {
  id: number;
  name: string;
  read_only: boolean;
  subscription: { url: string; refreshed_utc: string | null; last_error: string | null } | null;
}

interface ReadOnlyState {
  /** Read-only calendars by id, with their names. */
  names: Map<number, string>;
  load(): Promise<void>;
}

export const useReadOnlyCalendars = create<ReadOnlyState>()((set) => ({
  names: new Map(),
  async load() {
    const all = await api().get<CalendarInfo[]>('calendars');
    set({ names: new Map(all.filter((c) => c.read_only && c.subscription).map((c) => [c.id, c.name])) });
  },
}));

/** The subscription an event comes from, when it is read-only; undefined when it may be changed. */
export function readOnlySource(e: Pick<Event, 'calendar'>): string | undefined {
  return e.calendar === undefined ? undefined : useReadOnlyCalendars.getState().names.get(e.calendar);
}
