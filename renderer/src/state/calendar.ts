/**
 * What the calendar shows: the view and the date it is centred on. The store leads and
 * FullCalendar follows, so shortcuts, the toolbar and the date picker all move the same state;
 * FullCalendar reports back the exact visible range, which is what gets fetched.
 */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { DateTime } from 'luxon';
import type { Range } from '../api/client';
import { todayIso } from '../lib/dates';

export type ViewName = 'year' | 'month' | 'week' | 'day' | 'agenda';
export const VIEWS: ViewName[] = ['year', 'month', 'week', 'day', 'agenda'];

export const FC_VIEWS: Record<ViewName, string> = {
  year: 'multiMonthYear',
  month: 'dayGridMonth',
  week: 'timeGridWeek',
  day: 'timeGridDay',
  // From the current date on, as Google's Schedule and Thunderbird's agenda: today first, not the 1st.
  agenda: 'listAgenda',
};

/** How many days the agenda lists from its first day. */
export const AGENDA_DAYS = 30;

const STEP: Record<ViewName, { years?: number; months?: number; weeks?: number; days?: number }> = {
  year: { years: 1 },
  month: { months: 1 },
  week: { weeks: 1 },
  day: { days: 1 },
  agenda: { days: AGENDA_DAYS },
};

interface CalendarState {
  view: ViewName;
  /** The date the view is centred on, `YYYY-MM-DD`. */
  date: string;
  /** The range on screen, as the calendar reports it; null until it has drawn once. */
  range: Range | null;
  title: string;
  /** A narrow window: fewer days in the week view. */
  compact: boolean;
  setCompact(compact: boolean): void;
  setView(view: ViewName): void;
  goto(date: string): void;
  /** The day view of `date` (a day's number in month or week view). */
  openDay(date: string): void;
  today(): void;
  prev(): void;
  next(): void;
  setVisible(range: Range, title: string): void;
}

/** On a narrow window the week view shows three days (and moves by three). */
export function fcViewOf(view: ViewName, compact: boolean): string {
  return compact && view === 'week' ? 'timeGridThreeDay' : FC_VIEWS[view];
}

const shift = (date: string, view: ViewName, sign: 1 | -1, compact = false) => {
  const step = compact && view === 'week' ? { days: 3 } : STEP[view];
  const d = DateTime.fromISO(date);
  return (sign > 0 ? d.plus(step) : d.minus(step)).toISODate()!;
};

export const useCalendar = create<CalendarState>()(
  persist(
    (set, get) => ({
      view: 'month',
      date: todayIso(),
      range: null,
      title: '',
      compact: false,
      setCompact: (compact) => set({ compact }),
      setView: (view) => set({ view }),
      goto: (date) => set({ date }),
      openDay: (date) => set({ date, view: 'day' }),
      today: () => set({ date: todayIso() }),
      prev: () => set({ date: shift(get().date, get().view, -1, get().compact) }),
      next: () => set({ date: shift(get().date, get().view, 1, get().compact) }),
      setVisible(range, title) {
        const cur = get().range;
        if (cur && cur.start.getTime() === range.start.getTime() && cur.end.getTime() === range.end.getTime() && get().title === title) return;
        set({ range, title });
      },
    }),
    // The view is a preference; the date always opens on today.
    { name: 'almanac.calendar', partialize: (s) => ({ view: s.view }) },
  ),
);
