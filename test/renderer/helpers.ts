/**
 * Shared pieces of the renderer tests: records shaped like the API's, and a fetch stand-in that
 * answers by route and remembers every request (the boundary the renderer talks through).
 */
import { request } from 'node:http';
import type { Event, Term, Venue, Organizer } from '@shared/api/records';
import type { CalendarJson } from '@shared/schema/accounts';
import { ApiClient } from '../../renderer/src/api/client';
import { setApiClient } from '../../renderer/src/state/api';
import { useSettings } from '../../renderer/src/state/settings';

const details = (s: string) => ({
  year: s.slice(0, 4),
  month: s.slice(5, 7),
  day: s.slice(8, 10),
  hour: s.slice(11, 13),
  minutes: s.slice(14, 16),
  seconds: s.slice(17, 19),
});

export function makeEvent(over: Partial<Event> = {}): Event {
  const start = over.start_date ?? '2031-03-12 10:00:00';
  const end = over.end_date ?? '2031-03-12 11:00:00';
  const base: Event = {
    id: 1,
    global_id: 'localhost?id=1',
    global_id_lineage: ['localhost?id=1'],
    author: '1',
    status: 'publish',
    date: '2031-01-01 00:00:00',
    date_utc: '2031-01-01 00:00:00',
    modified: '2031-01-01 00:00:00',
    modified_utc: '2031-01-01 00:00:00',
    url: 'http://127.0.0.1/event/e/',
    rest_url: 'http://127.0.0.1/cal/events/v1/events/1',
    title: 'Event',
    description: '',
    excerpt: '',
    slug: 'event',
    image: false,
    all_day: false,
    start_date: start,
    start_date_details: details(start),
    end_date: end,
    end_date_details: details(end),
    utc_start_date: over.utc_start_date ?? start,
    utc_start_date_details: details(start),
    utc_end_date: over.utc_end_date ?? end,
    utc_end_date_details: details(end),
    timezone: 'UTC',
    timezone_abbr: 'UTC',
    cost: '',
    cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
    website: 'http://127.0.0.1/event/e/',
    show_map: false,
    show_map_link: false,
    hide_from_listings: false,
    sticky: false,
    featured: false,
    categories: [],
    tags: [],
    recurrence: null,
    series_id: null,
    recurrence_id: null,
    is_exception: false,
    venue: [],
    organizer: [],
    custom_fields: [],
    i18n_language: 'en',
    translations: {},
  };
  return { ...base, ...over };
}

export function makeTerm(id: number, name: string, extra: Partial<Term> = {}): Term {
  return {
    id,
    count: 0,
    series_count: 0,
    description: '',
    name,
    slug: name.toLowerCase(),
    taxonomy: 'cal_events_cat',
    meta: [],
    url: '',
    urls: { self: '', collection: '' },
    i18n_language: 'en',
    translations: {},
    ...extra,
  };
}

export function embedded(t: Term) {
  return { name: t.name, slug: t.slug, term_group: 0, term_taxonomy_id: t.id, taxonomy: t.taxonomy, description: '', parent: t.parent ?? 0, count: 0, filter: 'raw' as const, id: t.id, urls: t.urls };
}

export function makeVenue(id: number, name: string, extra: Partial<Venue> = {}): Venue {
  return {
    id,
    status: 'publish',
    date: '',
    date_utc: '',
    modified: '',
    modified_utc: '',
    url: '',
    venue: name,
    show_map: true,
    show_map_link: true,
    global_id: '',
    global_id_lineage: [],
    i18n_language: 'en',
    translations: {},
    ...extra,
  };
}

export function makeOrganizer(id: number, name: string, extra: Partial<Organizer> = {}): Organizer {
  return { id, status: 'publish', date: '', date_utc: '', modified: '', modified_utc: '', url: '', organizer: name, global_id: '', global_id_lineage: [], i18n_language: 'en', translations: {}, ...extra };
}

export interface Call {
  method: string;
  url: URL;
  body: unknown;
  headers: Record<string, string>;
}

type Reply = { status?: number; body: unknown } | ((call: Call) => { status?: number; body: unknown } | Promise<{ status?: number; body: unknown }>);

/** `METHOD path` (path relative to the namespace, no query) → reply. Unknown routes answer 404. */
export function mockApi(routes: Record<string, Reply> = {}) {
  const calls: Call[] = [];
  const table = { ...routes };
  const fetchImpl = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const call: Call = {
      method: init.method ?? 'GET',
      url,
      // Files (imports) are kept as sent; everything else is JSON.
      body: init.body instanceof Blob ? init.body : init.body ? JSON.parse(String(init.body)) : undefined,
      headers: (init.headers ?? {}) as Record<string, string>,
    };
    calls.push(call);
    const path = url.pathname.replace(/^\/cal\/events\/v1\//, '');
    const reply = table[`${call.method} ${path}`] ?? table[`${call.method} ${path.replace(/\/\d+$/, '/:id')}`];
    const r = typeof reply === 'function' ? await reply(call) : reply;
    if (!r) return new Response(JSON.stringify({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } }), { status: 404 });
    return new Response(JSON.stringify(r.body), { status: r.status ?? 200, headers: { 'Content-Type': 'application/json' } });
  };
  const client = new ApiClient({
    base: 'http://127.0.0.1:4780/cal/events/v1/',
    language: () => useSettings.getState().contentLanguage,
    fetch: fetchImpl as typeof fetch,
  });
  setApiClient(client);
  return {
    calls,
    client,
    routes: table,
    /** Requests to one path (`events`, `events/7`), any query. */
    to: (method: string, path: string) => calls.filter((c) => c.method === method && c.url.pathname.endsWith(`/cal/events/v1/${path}`)),
  };
}

export const listOf = (key: string, items: unknown[]) => ({ body: { [key]: items, rest_url: '', total: items.length, total_pages: items.length ? 1 : 0 } });

/**
 * Node's own HTTP for an ApiClient talking to a real server: happy-dom's fetch applies a page's rules
 * (CORS) these tests have no use for.
 */
export function nodeFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(String(input)), { method: init.method ?? 'GET', headers: init.headers as Record<string, string> }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers[k] = v;
        resolve(new Response(Buffer.concat(chunks).toString('utf8'), { status: res.statusCode, headers }));
      });
    });
    req.on('error', reject);
    if (typeof init.body === 'string') req.write(init.body);
    req.end();
  });
}

/** An ISO time `n` minutes ago (last syncs, created times). */
export const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

/** A calendar as `GET /calendars` gives it: on this computer unless `over` says otherwise. */
export const makeCalendar = (id: number, name: string, over: Partial<CalendarJson> = {}): CalendarJson => ({ id, name, color: null, visible: true, account: null, account_id: null, synced: false, read_only: false, subscription: null, site: null, ...over });
