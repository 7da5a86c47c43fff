/**
 * Hand-built API records for the import/export tests, validated against the shared zod schemas so
 * that they have exactly the shape the server returns.
 */
import { DateTime } from 'luxon';
import { EmbeddedTerm, Event, Organizer, Venue } from '../../../shared/api/records';

const BASE = 'http://127.0.0.1:8765/cal/events/v1';

function details(s: string) {
  const [date, time] = s.split(' ');
  const [year, month, day] = date.split('-');
  const [hour, minutes, seconds] = time.split(':');
  return { year, month, day, hour, minutes, seconds };
}

function toUtc(local: string, zone: string): string {
  return DateTime.fromFormat(local, 'yyyy-MM-dd HH:mm:ss', { zone }).toUTC().toFormat('yyyy-MM-dd HH:mm:ss');
}

export function term(id: number, name: string, kind: 'categories' | 'tags'): EmbeddedTerm {
  return EmbeddedTerm.parse({
    name,
    slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    term_group: 0,
    term_taxonomy_id: id,
    taxonomy: kind === 'categories' ? 'tribe_events_cat' : 'post_tag',
    description: '',
    parent: 0,
    count: 1,
    filter: 'raw',
    id,
    urls: { self: `${BASE}/${kind}/${id}`, collection: `${BASE}/${kind}` },
  });
}

const header = (id: number, kind: string, slug: string) => ({
  id,
  author: '1',
  status: 'publish',
  date: '2025-01-05 14:23:36',
  date_utc: '2025-01-05 14:23:36',
  modified: '2025-01-05 14:23:36',
  modified_utc: '2025-01-05 14:23:36',
  url: `http://127.0.0.1:8765/${kind}/${slug}/`,
  global_id: `localhost?id=${id}`,
  global_id_lineage: [`localhost?id=${id}`],
  i18n_language: 'en',
  translations: {},
});

export function venue(fields: Partial<Venue> & { id: number; venue: string }): Venue {
  return Venue.parse({
    ...header(fields.id, 'venue', fields.venue.toLowerCase().replace(/\W+/g, '-')),
    show_map: true,
    show_map_link: true,
    ...fields,
  });
}

export function organizer(fields: Partial<Organizer> & { id: number; organizer: string }): Organizer {
  return Organizer.parse({
    ...header(fields.id, 'organizer', fields.organizer.toLowerCase().replace(/\W+/g, '-')),
    ...fields,
  });
}

type Required = Pick<Event, 'id' | 'title' | 'start_date' | 'end_date' | 'timezone'>;

export function event(fields: Partial<Event> & Required): Event {
  const slug = fields.slug ?? fields.title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const utcStart = toUtc(fields.start_date, fields.timezone);
  const utcEnd = toUtc(fields.end_date, fields.timezone);
  return Event.parse({
    global_id: `localhost?id=${fields.id}`,
    global_id_lineage: [`localhost?id=${fields.id}`],
    author: '1',
    status: 'publish',
    date: '2025-01-05 14:23:36',
    date_utc: '2025-01-05 14:23:36',
    modified: '2025-02-01 09:00:00',
    modified_utc: '2025-02-01 09:00:00',
    url: `http://127.0.0.1:8765/event/${slug}/`,
    rest_url: `${BASE}/events/${fields.id}`,
    description: '',
    excerpt: '',
    slug,
    image: false,
    all_day: false,
    start_date_details: details(fields.start_date),
    end_date_details: details(fields.end_date),
    utc_start_date: utcStart,
    utc_start_date_details: details(utcStart),
    utc_end_date: utcEnd,
    utc_end_date_details: details(utcEnd),
    timezone_abbr: DateTime.fromFormat(fields.start_date, 'yyyy-MM-dd HH:mm:ss', { zone: fields.timezone }).toFormat('ZZZZ'),
    cost: '',
    cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
    website: `http://127.0.0.1:8765/event/${slug}/`,
    show_map: false,
    show_map_link: false,
    hide_from_listings: false,
    sticky: false,
    featured: false,
    categories: [],
    tags: [],
    venue: [],
    organizer: [],
    custom_fields: [],
    i18n_language: 'en',
    translations: {},
    ...fields,
  });
}
