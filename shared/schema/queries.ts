/**
 * Query parameters of the list routes (seed tables 4.2.1, 4.3.1, 4.5.1, plus what the original
 * accepts beyond them and Almanac's geoloc radius), declared once for validation and `/doc`.
 */
import * as k from './kinds';
import type { Kind } from './kinds';
import { LANGUAGES } from '../i18n/languages';

export interface ParamDef {
  kind: Kind;
  description: string;
  default?: unknown;
  required?: boolean;
}
export type ParamSet = Record<string, ParamDef>;

const p = (kind: Kind, description: string, extra: Partial<ParamDef> = {}): ParamDef => ({ kind, description, ...extra });

/** Accepted on every route. */
export const languageParam: ParamSet = {
  i18n_language: p(k.language(LANGUAGES), 'Language of the records listed or created (en, pt-br, es).'),
};

const paging = (what: string): ParamSet => ({
  page: p(k.integer({ min: 1 }), `Page of the ${what} to return.`, { default: 1 }),
  per_page: p(k.integer({ min: 1 }), `Number of ${what} per page (at most 50; more is clamped).`, { default: 10 }),
});

const date = (description: string) => p(k.dateTime({ nonEmpty: true }), description);

export const eventListParams: ParamSet = {
  ...paging('events'),
  start_date: date('Events that start on or after this date (default: start of yesterday).'),
  end_date: date('Events that end on or before this date (default: 24 months from now).'),
  starts_before: date('Events that start on or before this date.'),
  starts_after: date('Events that start on or after this date.'),
  ends_before: date('Events that end on or before this date.'),
  ends_after: date('Events that end on or after this date.'),
  strict_dates: p(k.boolean(), 'Use the dates exactly as given instead of whole days.', { default: false }),
  search: p(k.text({ nonEmpty: true }), 'Events whose title, description or excerpt contain every word.'),
  search_places: p(k.boolean(), 'Almanac extension: with `search`, a word may also be in the event\'s venue (name, city, address) or an organizer\'s name, as the calendar\'s search box asks. Off by default, so search means what it means in the original.', { default: false }),
  categories: p(k.slugOrIdList(), 'Events in any of these categories (slugs or ids).'),
  tags: p(k.slugOrIdList(), 'Events with any of these tags (slugs or ids).'),
  venue: p(k.idList(), 'Events at any of these venues (ids).'),
  organizer: p(k.idList(), 'Events by any of these organizers (ids).'),
  featured: p(k.boolean(), 'Only featured (true) or only not featured (false) events.'),
  calendar: p(k.idList(), 'Events in any of these calendars (ids; Almanac). Left out: every calendar.'),
  status: p(k.statusList(), 'Post statuses to list.'),
  geoloc: p(k.boolean(), 'Only events whose venue has coordinates.'),
  geoloc_lat: p(k.number({ min: -90, max: 90 }), 'Latitude of the centre point; needs geoloc_lng.'),
  geoloc_lng: p(k.number({ min: -180, max: 180 }), 'Longitude of the centre point; needs geoloc_lat.'),
  geoloc_radius: p(k.number({ min: 0, max: 20040 }), 'Radius around the centre point in km (Almanac).', { default: 10 }),
  include: p(k.idList(), 'Only these event ids; the date filters are then ignored.'),
  post_parent: p(k.integer({ min: 1 }), 'Events whose parent is this event.'),
  ticketed: p(k.boolean(), 'Ticketed events; ticketing is not available, so true is refused.'),
};

/** `GET /events/conflicts` (Almanac): who holds a venue or organizers at overlapping times. */
export const conflictParams: ParamSet = {
  start_date: p(k.dateTime({ nonEmpty: true }), 'Start of the time to check, exactly as given (in the calendar\'s zone unless it names one).', { required: true }),
  end_date: p(k.dateTime({ nonEmpty: true }), 'End of the time to check; after start_date. Touching ends are not a conflict.', { required: true }),
  venue: p(k.integer({ min: 1 }), 'Events at this venue (id). Give a venue, organizers, or both.'),
  organizer: p(k.idList(), 'Events with any of these organizers (ids).'),
  exclude: p(k.integer({ min: 1 }), 'The event being checked (id): it and the other occurrences of its series are left out.'),
};

export const linkedListParams: ParamSet = {
  ...paging('records'),
  search: p(k.text({ nonEmpty: true }), 'Records with every word in one of their fields.'),
  event: p(k.integer({ min: 1 }), 'Records linked to this event.'),
  has_events: p(k.boolean(), 'Only records with (true) or without (false) events.'),
  only_with_upcoming: p(k.boolean(), 'Only records with upcoming events.', { default: false }),
  status: p(k.statusList(), 'Post statuses to list.'),
};

const termListBase = (): ParamSet => ({
  ...paging('terms'),
  search: p(k.text({ nonEmpty: true }), 'Terms whose name or slug contains the text.'),
  exclude: p(k.idList(), 'Leave out these term ids.'),
  include: p(k.idList(), 'Only these term ids.'),
  order: p(k.text({ nonEmpty: true }), 'asc or desc.', { default: 'asc' }),
  orderby: p(k.text({ nonEmpty: true }), 'Term attribute to sort by (name, id, slug, count, parent, description, include).', { default: 'name' }),
  hide_empty: p(k.boolean(), 'Hide terms no published event uses.', { default: true }),
  post: p(k.integer({ min: 1 }), 'Terms of this event.'),
  event: p(k.integer({ min: 1 }), 'Terms of this event (alias of post).'),
  slug: p(k.text({ nonEmpty: true }), 'Terms with this slug.'),
});

export const categoryListParams: ParamSet = {
  ...termListBase(),
  parent: p(k.integer({ min: 0 }), 'Direct children of this category.'),
};
export const tagListParams: ParamSet = termListBase();

export const deleteParams: ParamSet = {
  force: p(k.boolean(), 'Delete a record that is already in the trash for good.', { default: false }),
};

export const RECURRENCE_SCOPES = ['this', 'following', 'all'] as const;

/** Which occurrences of a repeating event an update or delete changes (Almanac). */
export const recurrenceScopeParams: ParamSet = {
  recurrence_scope: p(
    k.oneOf(RECURRENCE_SCOPES),
    'For an occurrence of a repeating event (Almanac): this occurrence only (default), this and the following ones (the series is split), or all of them. A status of trash with following or all trashes as the DELETE with that scope does; another status with all, on an event of a series trashed whole, restores the series whole.',
  ),
};

export const indexParams: ParamSet = {
  namespace: p(k.text(), 'Namespace of the index.', { default: 'cal/events/v1' }),
  context: p(k.text(), 'Scope of the answer.', { default: 'view' }),
};

/** POST /quick-add (Almanac): one sentence in plain words becomes an event (shared/quick-add/). */
export const quickAddParams: ParamSet = {
  text: p(k.text({ nonEmpty: true, max: 1000 }), 'The event in plain words, in the request\'s language: "Lunch with Ana tomorrow 1pm at Luso #work", "Almoço amanhã 13h no Luso", "Cena el viernes a las 21h". Words it cannot read stay in the title.', { required: true }),
  dry_run: p(k.boolean(), 'Answer 200 with the event it would make, and save nothing.', { default: false }),
  calendar: p(k.integer({ min: 1 }), 'The calendar the event goes to (GET /calendars); "On this computer" when left out.'),
};
