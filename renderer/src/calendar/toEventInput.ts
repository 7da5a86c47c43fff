/**
 * Event records → FullCalendar inputs.
 *
 * Timed events are placed by their UTC instants (the calendar converts to the viewer's zone), so an
 * event kept in another zone shows at the right time here. All-day events are dates, not instants:
 * they keep their own calendar days whatever the viewer's zone, so their local dates are used.
 */
import { decodeEntities } from '@shared/content';
import type { EventInput } from '@fullcalendar/react';
import type { Event, Term } from '@shared/api/records';
import { addDaysIso } from '../lib/dates';
import { useLookups } from '../state/lookups';
import { readOnlySource } from '../subscriptions/readOnlyCalendars';
import { useCalendars } from '../state/calendars';

/** Colours of categories with none chosen: distinct in light and dark themes, by id so they stay put. */
export const PALETTE = ['#4f46e5', '#0891b2', '#059669', '#d97706', '#dc2626', '#db2777', '#7c3aed', '#65a30d'];

/** Colours chosen on the Categories screen, by category id; rebuilt when the categories reload. */
let chosen = new Map<number, string>();
let cache = new WeakMap<Event, EventInput>();
useLookups.subscribe((s, prev) => {
  if (s.categories === prev.categories) return;
  chosen = new Map(s.categories.filter((c) => c.color).map((c) => [c.id, c.color as string]));
  // Converted inputs carry the old colours.
  cache = new WeakMap();
});

/** Colours of calendars that have one, by calendar id. */
let calendarColours = new Map<number, string>();
let readOnlyIds = '';
useCalendars.subscribe((s, prev) => {
  if (s.calendars === prev.calendars) return;
  const next = new Map(s.calendars.filter((c) => c.color).map((c) => [c.id, c.color as string]));
  // Inputs made before a calendar was known to be read-only would still be draggable.
  const readOnly = s.calendars.filter((c) => c.read_only).map((c) => c.id).join(',');
  if (JSON.stringify([...next]) === JSON.stringify([...calendarColours]) && readOnly === readOnlyIds) return;
  calendarColours = next;
  readOnlyIds = readOnly;
  cache = new WeakMap();
});

/** A category's colour: the one chosen for it, else one picked by its id. */
export function categoryColour(c: Pick<Term, 'id' | 'color'>): string {
  return c.color || chosen.get(c.id) || PALETTE[c.id % PALETTE.length];
}

/**
 * An event's colour, as Google Calendar decides it: the event's own (its first category with a
 * chosen colour) wins over its calendar's; a calendar's colour wins over the colour merely picked
 * by a category's id, which nobody chose.
 */
export function colourFor(e: Pick<Event, 'categories' | 'calendar'>): string | undefined {
  for (const c of e.categories) {
    const colour = chosen.get(c.id);
    if (colour) return colour;
  }
  const calendar = e.calendar === undefined ? undefined : calendarColours.get(e.calendar);
  if (calendar) return calendar;
  const c = e.categories[0];
  return c ? PALETTE[c.id % PALETTE.length] : undefined;
}

/** Memoised per record object: a 2,000-event month re-renders without re-converting. */
export function toEventInput(e: Event): EventInput {
  let input = cache.get(e);
  if (input) return input;
  const classNames = [e.featured && 'ev-featured', e.sticky && 'ev-sticky', e.status !== 'publish' && `ev-${e.status}`].filter(
    Boolean,
  ) as string[];
  const colour = colourFor(e);
  const common: EventInput = {
    id: String(e.id),
    title: decodeEntities(e.title),
    classNames,
    extendedProps: { record: e, sticky: e.sticky ? 1 : 0, featured: e.featured ? 1 : 0 },
  };
  // An explicit `color: undefined` would reach the CSS as the word "undefined"; leave it out.
  if (colour) common.color = colour;
  // A subscription's events cannot be dragged or resized: the server would refuse the move.
  if (readOnlySource(e) !== undefined) common.editable = false;
  if (e.all_day) {
    const start = e.start_date.slice(0, 10);
    const lastDay = e.end_date.slice(0, 10);
    input = { ...common, allDay: true, start, end: addDaysIso(lastDay < start ? start : lastDay, 1) };
  } else {
    input = {
      ...common,
      allDay: false,
      start: `${e.utc_start_date.replace(' ', 'T')}Z`,
      end: `${e.utc_end_date.replace(' ', 'T')}Z`,
    };
  }
  cache.set(e, input);
  return input;
}

/**
 * For lists that paint events with `colourFor` (search results, a day's list): draws them again
 * when a category's or a calendar's colour changes, as the calendar views do.
 */
export function useEventColours(): void {
  useLookups((s) => s.categories);
  useCalendars((s) => s.calendars);
}

/** Titles come back HTML-escaped as in the original API; shown as text (one decoder with the server's). */
export { decodeEntities };
