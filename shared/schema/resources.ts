/**
 * The fields of each record kind, declared once (seed §2).
 *
 * From these come: request validation (server/http/validate.ts), the columns plain fields are
 * stored in (`column`, read by the stores), the body parameters of `/doc`, and the renderer's
 * editor forms (`label`, and the kind's `input`). A field without `column` is stored by code that
 * knows its meaning (dates, cost, links, terms, image).
 */
import * as k from './kinds';
import type { Kind } from './kinds';
import type { ParamDef } from './queries';

/** A body field: a declared argument (required meaning "required on create") with its storage and form label. */
export interface FieldDef extends ParamDef {
  /** Column of the record's table holding a plain value. */
  column?: string;
  /** i18n key of the form label. */
  label: string;
}

export type FieldSet = Record<string, FieldDef>;

const f = (kind: Kind, description: string, label: string, extra: Partial<FieldDef> = {}): FieldDef => ({
  kind,
  description,
  label,
  ...extra,
});

/** Publication fields shared by events, venues and organizers (they are all "posts"). */
const postFields = (): FieldSet => ({
  author: f(k.integer({ min: 1 }), 'ID of the author (a local user).', 'field.author', { column: 'author' }),
  date: f(k.dateTime({ nonEmpty: true }), 'Publication date.', 'field.date'),
  date_utc: f(k.dateTime({ nonEmpty: true }), 'Publication date in UTC.', 'field.date_utc'),
  description: f(k.longText(), 'Description (HTML allowed).', 'field.description', { column: 'content' }),
  status: f(k.status(), 'Post status.', 'field.status', { column: 'status' }),
  image: f(k.image(), 'ID or URL of the featured image.', 'field.image'),
  translation_of: f(k.integer({ min: 1 }), 'ID of the same record in another language (Almanac).', 'field.translation_of'),
});

export const eventFields: FieldSet = {
  title: f(k.text({ nonEmpty: true }), 'Event title.', 'field.title', { required: true, column: 'title' }),
  start_date: f(k.dateTime({ nonEmpty: true }), 'Event start, in the event time zone.', 'field.start_date', { required: true }),
  end_date: f(k.dateTime({ nonEmpty: true }), 'Event end, in the event time zone.', 'field.end_date', { required: true }),
  ...postFields(),
  slug: f(k.text({ nonEmpty: true, max: 200 }), 'Event slug.', 'field.slug'),
  excerpt: f(k.longText(), 'Event excerpt.', 'field.excerpt', { column: 'excerpt' }),
  timezone: f(k.timezone(), 'Event time zone (IANA id, UTC or UTC+N).', 'field.timezone'),
  all_day: f(k.boolean(), 'Whether the event lasts the whole day.', 'field.all_day'),
  cost: f(k.cost(), 'Event cost: one value or a list.', 'field.cost'),
  website: f(k.url(), 'URL of the event website.', 'field.website', { column: 'website' }),
  show_map: f(k.boolean(), 'Whether the event shows a map.', 'field.show_map', { column: 'show_map' }),
  show_map_link: f(k.boolean(), 'Whether the event shows a map link.', 'field.show_map_link', { column: 'show_map_link' }),
  hide_from_listings: f(k.boolean(), 'Hide the event in calendar views.', 'field.hide_from_listings', { column: 'hide_from_listings' }),
  sticky: f(k.boolean(), 'Pin the event in calendar views.', 'field.sticky', { column: 'sticky' }),
  featured: f(k.boolean(), 'Show the event as featured.', 'field.featured', { column: 'featured' }),
  calendar: f(k.integer({ min: 1 }), 'ID of the calendar the event belongs to (Almanac): 1 is "On this computer" (the default), others are CalDAV calendars or read-only iCalendar subscriptions, whose events cannot be written (403 calendar-read-only) (GET /calendars). A whole series is in one calendar.', 'field.calendar', { column: 'calendar_id' }),
  categories: f(k.termRefs(), 'Category ids, names or slugs.', 'field.categories'),
  tags: f(k.termRefs(), 'Tag ids, names or slugs.', 'field.tags'),
  venue: f(k.linkedRecords('venue'), 'Venue id, or venue data to create one.', 'field.venue'),
  organizer: f(k.linkedRecords('organizers'), 'Organizer ids, or organizer data to create them.', 'field.organizer'),
  recurrence: f(
    k.recurrence(),
    'How the event repeats (Almanac): RFC 5545 RRULE values, RDATEs and EXDATEs, as {"rules": [...], "rdates": [...], "exdates": [...]}; null for none. Dates are wall times of the event\'s zone (20270105T180000, or 20270105 for all-day events); UTC values (…Z) are accepted.',
    'field.recurrence',
  ),
  reminders: f(
    k.reminders(),
    'When to remind (Almanac): a list of reminders, each an RFC 5545 VALARM: {"action": "display"|"audio"|"email", "trigger": "-PT15M"} relative to the start (with "related": "end", to the end), or {"action": ..., "at": "2027-01-05T08:00:00Z"}; optional "repeat" and "repeat_every" ("PT5M"), "description". A bare "-PT15M" is a display reminder; null or [] for none. Durations of an all-day event count from its local midnight ("-PT15H": 09:00 the day before). An occurrence of a series has the series\' reminders unless changed on its own. Left out on create: the settings\' default reminders.',
    'field.reminders',
  ),
};

export const venueFields: FieldSet = {
  venue: f(k.text({ nonEmpty: true }), 'Venue name.', 'field.venue_name', { required: true, column: 'title' }),
  ...postFields(),
  slug: f(k.text({ nonEmpty: true, max: 200 }), 'Venue slug.', 'field.slug'),
  excerpt: f(k.longText(), 'Venue excerpt.', 'field.excerpt', { column: 'excerpt' }),
  show_map: f(k.boolean(), 'Whether events at the venue show a map.', 'field.show_map', { column: 'show_map' }),
  show_map_link: f(k.boolean(), 'Whether events at the venue show a map link.', 'field.show_map_link', { column: 'show_map_link' }),
  address: f(k.text(), 'Street address.', 'field.address', { column: 'address' }),
  city: f(k.text(), 'City.', 'field.city', { column: 'city' }),
  country: f(k.text(), 'Country.', 'field.country', { column: 'country' }),
  province: f(k.text(), 'Province.', 'field.province', { column: 'province' }),
  state: f(k.text(), 'State.', 'field.state', { column: 'state' }),
  zip: f(k.text(), 'Postal code.', 'field.zip', { column: 'zip' }),
  phone: f(k.text(), 'Phone number.', 'field.phone', { column: 'phone' }),
  stateprovince: f(k.text(), 'State or province.', 'field.stateprovince', { column: 'stateprovince' }),
  website: f(k.url(), 'Venue website URL.', 'field.website', { column: 'website' }),
  geo_lat: f(k.number({ min: -90, max: 90, clearable: true }), 'Latitude in degrees (Almanac).', 'field.geo_lat', { column: 'geo_lat' }),
  geo_lng: f(k.number({ min: -180, max: 180, clearable: true }), 'Longitude in degrees (Almanac).', 'field.geo_lng', { column: 'geo_lng' }),
};

export const organizerFields: FieldSet = {
  organizer: f(k.text({ nonEmpty: true }), 'Organizer name.', 'field.organizer_name', { required: true, column: 'title' }),
  ...postFields(),
  slug: f(k.text({ nonEmpty: true, max: 200 }), 'Organizer slug.', 'field.slug'),
  excerpt: f(k.longText(), 'Organizer excerpt.', 'field.excerpt', { column: 'excerpt' }),
  phone: f(k.text(), 'Phone number.', 'field.phone', { column: 'phone' }),
  website: f(k.url(), 'Website.', 'field.website', { column: 'website' }),
  email: f(k.email(), 'E-mail address.', 'field.email', { column: 'email' }),
};

const termBase = (): FieldSet => ({
  name: f(k.text({ nonEmpty: true, max: 200 }), 'Term name.', 'field.name', { required: true, column: 'name' }),
  description: f(k.longText({ nonEmpty: true }), 'Description.', 'field.description', { column: 'description' }),
  slug: f(k.text({ nonEmpty: true, max: 200 }), 'Slug.', 'field.slug'),
  translation_of: f(k.integer({ min: 1 }), 'ID of the same term in another language (Almanac).', 'field.translation_of'),
});

export const categoryFields: FieldSet = {
  ...termBase(),
  parent: f(k.integer({ min: 0 }), 'ID of the parent category.', 'field.parent'),
  color: f(k.color(), 'Colour of the category\'s events in every view, #rrggbb; "" for none (Almanac).', 'field.color', { column: 'color' }),
};

export const tagFields: FieldSet = termBase();

/** The plain columns a field set maps to, with the field each comes from. */
export function plainColumns(fields: FieldSet): Array<[field: string, column: string]> {
  return Object.entries(fields)
    .filter(([, d]) => d.column)
    .map(([name, d]) => [name, d.column as string]);
}
