/**
 * The records the cal/events/v1 API returns, declared once.
 *
 * The server's serialisers are typed by these, the renderer reads them, the `/doc` route turns them
 * into OpenAPI component schemas, and the tests check live responses against them key by key.
 * Shapes follow the original API (reference §7): `author` is a string, `*_details` hold zero-padded
 * strings, venue is an object or `[]`, organizer is always a list.
 */
import { z } from 'zod';

export const DateDetails = z
  .object({
    year: z.string(),
    month: z.string(),
    day: z.string(),
    hour: z.string(),
    minutes: z.string(),
    seconds: z.string(),
  })
  .strict()
  .meta({ id: 'DateDetails', description: 'A date split into zero-padded string parts.' });
export type DateDetails = z.infer<typeof DateDetails>;

export const ImageSize = z
  .object({
    width: z.number().int().optional(),
    height: z.number().int().optional(),
    'mime-type': z.string().optional(),
    filesize: z.number().int().optional(),
    url: z.string(),
  })
  .meta({ id: 'ImageSize' });

export const Image = z
  .object({
    url: z.string(),
    id: z.number().int().optional(),
    extension: z.string().optional(),
    width: z.number().int().optional(),
    height: z.number().int().optional(),
    filesize: z.number().int().optional(),
    sizes: z.record(z.string(), ImageSize).optional(),
  })
  .strict()
  .meta({ id: 'Image', description: 'Featured image; `false` when the record has none.' });
export type Image = z.infer<typeof Image>;

export const CostDetails = z
  .object({
    currency_symbol: z.string(),
    currency_code: z.string(),
    currency_position: z.enum(['prefix', 'postfix', '']),
    values: z.array(z.string()),
  })
  .strict()
  .meta({ id: 'CostDetails' });
export type CostDetails = z.infer<typeof CostDetails>;

const TermUrls = z
  .object({ self: z.string(), collection: z.string(), up: z.string().optional() })
  .strict();

/** A category or tag as the term endpoints return it (reference §7.4a). */
export const Term = z
  .object({
    id: z.number().int(),
    count: z.number().int(),
    /** Almanac: published events using it, a repeating event counted once (`count` counts each occurrence, as the original does). */
    series_count: z.number().int().meta({ description: 'Published events using it, a repeating event counted once (Almanac); count counts every occurrence, as the original does.' }),
    description: z.string(),
    name: z.string(),
    slug: z.string(),
    taxonomy: z.string(),
    parent: z.number().int().optional(),
    /** Categories only (Almanac): `#rrggbb`, or "" for none. */
    color: z.string().optional(),
    meta: z.array(z.never()),
    url: z.string(),
    urls: TermUrls,
    i18n_language: z.string(),
    translations: z.record(z.string(), z.number().int()),
  })
  .strict()
  .meta({ id: 'Term', description: 'An event category or tag.' });
export type Term = z.infer<typeof Term>;

/** A category or tag as embedded in an event (reference §7.4b). */
export const EmbeddedTerm = z
  .object({
    name: z.string(),
    slug: z.string(),
    term_group: z.number().int(),
    term_taxonomy_id: z.number().int(),
    taxonomy: z.string(),
    description: z.string(),
    parent: z.number().int(),
    count: z.number().int(),
    filter: z.literal('raw'),
    id: z.number().int(),
    urls: TermUrls,
  })
  .strict()
  .meta({ id: 'EmbeddedTerm' });
export type EmbeddedTerm = z.infer<typeof EmbeddedTerm>;

const postHeader = {
  id: z.number().int(),
  author: z.string().optional(),
  status: z.string(),
  date: z.string(),
  date_utc: z.string(),
  modified: z.string(),
  modified_utc: z.string(),
  url: z.string(),
};

const globalIds = {
  global_id: z.string(),
  global_id_lineage: z.array(z.string()),
};

/** Almanac additions: the record's language and its translations (language code → id). */
const languageKeys = {
  i18n_language: z.string(),
  translations: z.record(z.string(), z.number().int()),
};

/** Keys venues and organizers share after their name (all dropped when empty). */
const linkedPostBody = {
  description: z.string().optional(),
  excerpt: z.string().optional(),
  slug: z.string().optional(),
  image: Image.optional(),
};

/** A series' rule as events carry it (Almanac): RFC 5545 values, dates as wall times of the event's zone. */
export const Recurrence = z
  .object({ rules: z.array(z.string()), rdates: z.array(z.string()), exdates: z.array(z.string()) })
  .strict()
  .meta({ id: 'Recurrence', description: 'How a repeating event repeats: RRULE values, RDATEs and EXDATEs (RFC 5545).' });
export type Recurrence = z.infer<typeof Recurrence>;

/** What tells an occurrence of a repeating event from a single event (Almanac). */
const recurrenceKeys = {
  // Optional: backups and records written before repeating events existed have none of them.
  recurrence: Recurrence.nullable().optional().meta({ description: "The series' recurrence, on its first event and on every occurrence; null for a single event." }),
  series_id: z.number().int().nullable().optional().meta({ description: 'Id of the series (its first event, post_parent of the others); null for a single event.' }),
  recurrence_id: z.string().nullable().optional().meta({ description: "The occurrence's original start (Y-m-d H:i:s in the event's zone), RFC 5545 RECURRENCE-ID; null for a single event." }),
  is_exception: z.boolean().optional().meta({ description: 'This occurrence was changed on its own; changes to the whole series leave what it changed alone.' }),
};

/** One reminder (Almanac), an RFC 5545 VALARM: shared/reminders.ts says what each key means. */
export const ReminderRecord = z
  .object({
    action: z.enum(['display', 'audio', 'email']),
    trigger: z.string().optional(),
    related: z.enum(['start', 'end']).optional(),
    at: z.string().optional(),
    repeat: z.number().int().optional(),
    repeat_every: z.string().optional(),
    description: z.string().optional(),
    summary: z.string().optional(),
    attendees: z.array(z.string()).optional(),
  })
  .strict()
  .meta({ id: 'Reminder', description: 'When to remind: a trigger relative to the start (or the end), or an absolute UTC time.' });
export type ReminderRecord = z.infer<typeof ReminderRecord>;

// Optional: backups and records written before reminders existed have none.
const reminderKeys = {
  reminders: z.array(ReminderRecord).optional().meta({ description: "The event's reminders; an occurrence of a series has the series' unless changed on its own." }),
};

/** Why a website's event may be read and never written here (Almanac, issue 26). */
export const ReadOnlyReason = z
  .object({
    reason: z.enum(['site_occurrence']).meta({ description: '`site_occurrence`: an occurrence the website generates from its repeating event (Events Calendar Pro), changed only there, on the whole series.' }),
    series: z.number().int().nullable().meta({ description: "The website's id of the repeating event (series) it belongs to, when the site names it." }),
  })
  .strict()
  .meta({ id: 'ReadOnlyReason', description: 'Why an event cannot be changed here: every write to it (PUT, POST, DELETE) answers 403 event-read-only.' });
export type ReadOnlyReason = z.infer<typeof ReadOnlyReason>;

// Absent on every event that may be written (all but a website's generated occurrences).
const readOnlyKeys = {
  read_only: ReadOnlyReason.optional().meta({ description: 'Almanac extension: present only on an event that cannot be changed here, with the reason (its calendar is otherwise writable).' }),
};

const jsonLd = { json_ld: z.record(z.string(), z.unknown()).optional() };

/**
 * Venue. Falsy values are dropped from the output as in the original, so nearly every key is
 * optional; `show_map`, `show_map_link` and the global ids are always present.
 */
export const Venue = z
  .object({
    ...postHeader,
    venue: z.string().optional(),
    ...linkedPostBody,
    address: z.string().optional(),
    city: z.string().optional(),
    country: z.string().optional(),
    province: z.string().optional(),
    state: z.string().optional(),
    zip: z.string().optional(),
    phone: z.string().optional(),
    website: z.string().optional(),
    stateprovince: z.string().optional(),
    geo_lat: z.number().optional(),
    geo_lng: z.number().optional(),
    ...jsonLd,
    show_map: z.boolean(),
    show_map_link: z.boolean(),
    ...globalIds,
    ...languageKeys,
  })
  .strict()
  .meta({ id: 'Venue', description: 'A place where events happen.' });
export type Venue = z.infer<typeof Venue>;

export const Organizer = z
  .object({
    ...postHeader,
    organizer: z.string().optional(),
    ...linkedPostBody,
    phone: z.string().optional(),
    website: z.string().optional(),
    email: z.string().optional(),
    ...jsonLd,
    ...globalIds,
    ...languageKeys,
  })
  .strict()
  .meta({ id: 'Organizer', description: 'A person or group that organizes events.' });
export type Organizer = z.infer<typeof Organizer>;

export const Event = z
  .object({
    id: z.number().int(),
    ...globalIds,
    author: z.string(),
    status: z.string(),
    date: z.string(),
    date_utc: z.string(),
    modified: z.string(),
    modified_utc: z.string(),
    url: z.string(),
    rest_url: z.string(),
    title: z.string(),
    description: z.string(),
    excerpt: z.string(),
    slug: z.string(),
    image: z.union([Image, z.literal(false)]),
    all_day: z.boolean(),
    start_date: z.string(),
    start_date_details: DateDetails,
    end_date: z.string(),
    end_date_details: DateDetails,
    utc_start_date: z.string(),
    utc_start_date_details: DateDetails,
    utc_end_date: z.string(),
    utc_end_date_details: DateDetails,
    timezone: z.string(),
    timezone_abbr: z.string(),
    cost: z.string(),
    cost_details: CostDetails,
    website: z.string(),
    show_map: z.boolean(),
    show_map_link: z.boolean(),
    hide_from_listings: z.boolean(),
    sticky: z.boolean(),
    featured: z.boolean(),
    categories: z.array(EmbeddedTerm),
    tags: z.array(EmbeddedTerm),
    venue: z.union([Venue, z.tuple([])]),
    organizer: z.array(Organizer),
    custom_fields: z.union([z.record(z.string(), z.unknown()), z.tuple([])]),
    ...languageKeys,
    ...jsonLd,
    ...recurrenceKeys,
    ...reminderKeys,
    calendar: z.number().int().optional().meta({ description: 'ID of the calendar the event belongs to (Almanac): 1 is "On this computer".' }),
    ...readOnlyKeys,
  })
  .strict()
  .meta({ id: 'Event', description: 'A calendar event.' });
export type Event = z.infer<typeof Event>;

/** The error body every failure uses. */
export const ApiErrorBody = z
  .object({
    code: z.string(),
    message: z.string(),
    data: z
      .object({
        status: z.number().int(),
        params: z.union([z.array(z.string()), z.record(z.string(), z.string())]).optional(),
        details: z.union([z.record(z.string(), z.unknown()), z.tuple([])]).optional(),
        term_id: z.number().int().optional(),
      })
      .passthrough(),
  })
  .meta({ id: 'Error', description: 'Error body: a stable code, a message in the request language, the HTTP status.' });
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

const listEnvelope = {
  rest_url: z.string(),
  next_rest_url: z.string().optional(),
  previous_rest_url: z.string().optional(),
  total: z.number().int(),
  total_pages: z.number().int(),
};

export const EventList = z.object({ events: z.array(Event), ...listEnvelope }).strict();
export const VenueList = z.object({ venues: z.array(Venue), ...listEnvelope }).strict();
export const OrganizerList = z.object({ organizers: z.array(Organizer), ...listEnvelope }).strict();
export const CategoryList = z.object({ categories: z.array(Term), ...listEnvelope }).strict();
export const TagList = z.object({ tags: z.array(Term), ...listEnvelope }).strict();
export type EventList = z.infer<typeof EventList>;
export type VenueList = z.infer<typeof VenueList>;
export type OrganizerList = z.infer<typeof OrganizerList>;
export type CategoryList = z.infer<typeof CategoryList>;
export type TagList = z.infer<typeof TagList>;
