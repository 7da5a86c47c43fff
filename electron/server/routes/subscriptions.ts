/**
 * Read-only iCalendar subscriptions (Almanac extension, issue 17 item 7): subscribe to a feed's
 * URL (fetched and read before anything is stored), refresh one now, remove one with its events.
 * The work is subscriptions/service.ts; the calendars themselves are listed by GET /calendars.
 */
import { subscriptionFields } from '../../../shared/schema/subscriptions';
import { ApiError } from '../errors';
import { SubscriptionError } from '../subscriptions/fetch';
import { calendarJson } from './accounts';
import { route, type ApiRequest, type ApiResponse, type RouteDef } from '../http/route-table';
import type { CalendarRow } from '../store/caldav-accounts';

function service(req: ApiRequest) {
  if (!req.subscriptions) throw new ApiError('subscriptions-unavailable', 503, 'subscriptions-unavailable');
  return req.subscriptions;
}

const jsonIn = (req: ApiRequest) => (c: CalendarRow) => calendarJson(c, new Map(), req.lang);

function subscriptionOf(req: ApiRequest): CalendarRow {
  const id = Number(req.path.id);
  const row = req.store.subscriptions.get(id);
  if (!row) throw new ApiError('subscription-not-found', 404, 'subscription-not-found', { id });
  return row;
}

async function subscribe(req: ApiRequest): Promise<ApiResponse> {
  const { url, name, color } = req.values as { url: string; name?: string; color?: string };
  try {
    const { calendar, report } = await service(req).subscribe({ url, name, color });
    return { status: 201, body: { ...jsonIn(req)(calendar), events: report.added, problems: report.problems } };
  } catch (err) {
    if (!(err instanceof SubscriptionError)) throw err;
    // The address is what is wrong (or what cannot be reached): told on its field, in words.
    const reason = err.describe(req.lang);
    throw new ApiError('rest_invalid_param', 400, 'subscription_failed', { reason }, { params: { url: reason }, reason: err.kind });
  }
}

function list(req: ApiRequest): ApiResponse {
  return { body: req.store.subscriptions.list().map(jsonIn(req)) };
}

async function refresh(req: ApiRequest): Promise<ApiResponse> {
  const row = subscriptionOf(req);
  const report = await service(req).refresh(row.id);
  const now = req.store.subscriptions.get(row.id);
  if (!report || !now) throw new ApiError('subscription-not-found', 404, 'subscription-not-found', { id: row.id });
  return { body: { ...jsonIn(req)(now), refresh: report } };
}

async function remove(req: ApiRequest): Promise<ApiResponse> {
  const row = subscriptionOf(req);
  if (!(await service(req).remove(row.id))) throw new ApiError('subscription-not-found', 404, 'subscription-not-found', { id: row.id });
  return { body: { ...jsonIn(req)(row), deleted: true } };
}

export const subscriptionRoutes: RouteDef[] = [
  route('/subscriptions', [
    {
      methods: ['GET'],
      summary: 'The iCalendar subscriptions (Almanac): read-only calendars filled from a feed, with its URL, last refresh and last error.',
      args: {},
      write: true,
      response: 'object',
      errors: [],
      handler: list,
    },
    {
      methods: ['POST'],
      summary:
        'Subscribe to an iCalendar feed (Almanac): webcal:// (read as https://), https:// or http://. The feed is fetched and read first; one that cannot be reached, is not iCalendar, or is too large (16 MB, 10,000 events) is refused with rest_invalid_param naming `url` in words, and nothing is stored. Answers 201 with the new read-only calendar, `events` (how many were stored) and `problems` (events of the feed that could not be read). Refreshed every 6 hours with If-None-Match / If-Modified-Since.',
      args: subscriptionFields,
      body: true,
      creates: true,
      write: true,
      response: 'object',
      errors: [400],
      handler: subscribe,
    },
  ]),
  route('/subscriptions/{id}/refresh', [
    {
      methods: ['POST'],
      summary: 'Refresh a subscription now (Almanac): a conditional fetch; a new feed replaces the events by UID (kept events keep their ids). Answers with the calendar and `refresh` (added, updated, removed, unchanged, error).',
      args: {},
      body: true,
      write: true,
      response: 'object',
      errors: [404],
      handler: refresh,
    },
  ]),
  route('/subscriptions/{id}', [
    {
      methods: ['DELETE'],
      summary: 'Unsubscribe (Almanac): the calendar and its events are deleted for good.',
      args: {},
      write: true,
      response: 'object',
      errors: [404],
      handler: remove,
    },
  ]),
];
