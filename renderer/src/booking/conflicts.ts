/**
 * Double bookings (issue 27): the question "does another event hold this venue, or one of these
 * organizers, at an overlapping time?" and the sentence that answers it ("Sala Luso is booked
 * 19:00–21:00 by Recital"), in one place for every way of placing an event: the editor, a drag or
 * resize in the calendar, and quick add. The server answers the question (`GET
 * /events/conflicts`: not trashed events, touching ends are no conflict, series by occurrence);
 * here it is asked and told, times on the calendar's clock in the interface language.
 */
import type { Event, Organizer, Venue } from '@shared/api/records';
import i18n from '../i18n';
import { api } from '../state/api';
import { currentLocale } from '../state/calendarSettings';
import { decodeEntities } from '../calendar/toEventInput';
import { fromApi } from '../lib/dates';
import { formatDay, formatInstant, shownDay } from '../lib/format';

/** Where and when an event would be: wall times in its zone, as the API takes them. */
export interface Placement {
  start_date: string;
  end_date: string;
  timezone: string;
  all_day?: boolean;
  /** A venue's id; a venue not created yet (a name typed) cannot be booked by anyone else. */
  venue?: number | null;
  organizers?: number[];
  /** The event being placed: it never conflicts with itself nor with its own series. */
  exclude?: number;
}

/** One conflict: the event in the way and what it holds that the placement wants. */
export interface Conflict {
  event: Event;
  /** The venue both want, or undefined when only organizers meet. */
  venue?: Venue;
  /** The organizers both want. */
  organizers: Organizer[];
}

/** The placement's instants, as the API's ISO times with their offset (so no zone is assumed). */
function window(p: Placement): { start: string; end: string } | undefined {
  const zone = p.timezone || 'UTC';
  let start = fromApi(p.start_date, zone);
  let end = fromApi(p.end_date, zone);
  if (!start.isValid || !end.isValid) return undefined;
  if (p.all_day) {
    start = start.startOf('day');
    end = end.plus({ days: 1 }).startOf('day');
  }
  if (end <= start) return undefined;
  return { start: start.toISO({ suppressMilliseconds: true })!, end: end.toISO({ suppressMilliseconds: true })! };
}

/** What another event holds that the placement asks for. */
function whatMeets(e: Event, p: Placement): Conflict {
  const venue = !Array.isArray(e.venue) && e.venue && p.venue != null && e.venue.id === p.venue ? e.venue : undefined;
  const organizers = (e.organizer ?? []).filter((o) => p.organizers?.includes(o.id));
  return { event: e, venue, organizers };
}

/**
 * The events that would conflict with `p`, by start (none when it names no existing venue and no
 * existing organizer, or its times are not whole yet). Network errors are left to the caller:
 * a warning that cannot be asked is simply not shown, and Save stays possible.
 */
export async function findConflicts(p: Placement, signal?: AbortSignal): Promise<Conflict[]> {
  const organizers = (p.organizers ?? []).filter((o) => Number.isInteger(o) && o > 0);
  const venue = typeof p.venue === 'number' && p.venue > 0 ? p.venue : undefined;
  const w = window(p);
  if (!w || (venue === undefined && !organizers.length)) return [];
  const query: Record<string, string | number> = { start_date: w.start, end_date: w.end };
  if (venue !== undefined) query.venue = venue;
  if (organizers.length) query.organizer = organizers.join(',');
  if (p.exclude !== undefined) query.exclude = p.exclude;
  const { events } = await api().get<{ events: Event[] }>('events/conflicts', query, signal);
  return events.map((e) => whatMeets(e, p));
}

/** "19:00–21:00"; "Fri, Mar 14 19:00 – Sat, Mar 15 01:00" across days; a date for an all-day event. */
function conflictWhen(e: Event, locale = currentLocale()): string {
  if (e.all_day) {
    const first = e.start_date.slice(0, 10);
    const last = e.end_date.slice(0, 10);
    return first === last ? formatDay(first, locale, 'short') : `${formatDay(first, locale, 'short')} – ${formatDay(last, locale, 'short')}`;
  }
  const sameDay = shownDay(e.utc_start_date) === shownDay(e.utc_end_date);
  if (sameDay) return `${formatInstant(e.utc_start_date, locale, 'time')}–${formatInstant(e.utc_end_date, locale, 'time')}`;
  return `${formatInstant(e.utc_start_date, locale, 'short')} – ${formatInstant(e.utc_end_date, locale, 'short')}`;
}

/**
 * The sentence for one conflict, in the interface language: "Sala Luso is booked 19:00–21:00 by
 * Recital", or for an organizer "Ana Lima is busy 19:00–21:00 with Recital at Sala Luso". The day
 * is said when it is not the day of the placement.
 */
export function conflictSentence(c: Conflict, placedDay?: string, locale = currentLocale()): string {
  const t = (key: string, opts: Record<string, unknown>) => i18n.t(key, opts);
  const title = decodeEntities(c.event.title) || t('booking.untitled', {});
  let when = conflictWhen(c.event, locale);
  if (!c.event.all_day && placedDay && shownDay(c.event.utc_start_date) !== placedDay && shownDay(c.event.utc_start_date) === shownDay(c.event.utc_end_date)) {
    when = `${formatDay(shownDay(c.event.utc_start_date), locale, 'short')} ${when}`;
  }
  if (c.venue) return t('booking.venue_booked', { venue: decodeEntities(c.venue.venue ?? ''), when, title });
  const who = c.organizers.map((o) => decodeEntities(o.organizer ?? '')).join(', ');
  const at = !Array.isArray(c.event.venue) && c.event.venue ? decodeEntities(c.event.venue.venue ?? '') : '';
  return at ? t('booking.organizer_busy_at', { organizer: who, when, title, venue: at }) : t('booking.organizer_busy', { organizer: who, when, title });
}

/** The day a placement starts on the calendar's clock, to tell conflicts on other days by theirs. */
export function placementDay(p: Placement): string | undefined {
  const w = window(p);
  return w ? shownDay(w.start) : undefined;
}
