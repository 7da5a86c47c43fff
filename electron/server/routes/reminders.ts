/**
 * Reminders due now (Almanac extension, issue 16): what a client or a script shows, and what the
 * user did with each (snooze, dismiss), remembered per occurrence. The push channel
 * (`/reminders/stream`) is served by reminders/service.ts; it is declared here for `/doc`.
 */
import * as k from '../../../shared/schema/kinds';
import type { ParamSet } from '../../../shared/schema/queries';
import { ApiError, invalidParam } from '../errors';
import { dueJson } from '../reminders/service';
import { SNOOZES } from '../../../shared/api/due-reminders';
import { route, type ApiRequest, type ApiResponse, type RouteDef } from '../http/route-table';

export { SNOOZES };
const SNOOZE_MS: Record<string, number> = { '5m': 5 * 60_000, '10m': 10 * 60_000, '1h': 3600_000 };

const snoozeParams: ParamSet = {
  for: { kind: k.oneOf(SNOOZES), description: 'How long: 5m, 10m, 1h, or until the event starts (start).', default: '5m' },
};

function listDue(req: ApiRequest): ApiResponse {
  return { body: { reminders: req.store.reminders.due(req.now).map((r) => dueJson(r, req.url.apiRoot)) } };
}

function found(req: ApiRequest) {
  const key = req.path.key;
  const row = req.store.reminders.get(key);
  if (!row) throw new ApiError('reminder-not-found', 404, 'reminder-not-found', { key });
  return row;
}

function snooze(req: ApiRequest): ApiResponse {
  const row = found(req);
  const how = (req.values.for as string | undefined) ?? '5m';
  const now = req.now.getTime();
  const start = Date.parse(`${row.start_utc.replace(' ', 'T')}Z`);
  const until = how === 'start' ? start : now + SNOOZE_MS[how];
  // "Until the start" of an event that started already would ring again at once.
  if (until <= now) throw invalidParam('for', 'invalid_snooze');
  req.store.write(() => req.store.reminders.snooze(row.key, until, req.now));
  return { body: dueJson(req.store.reminders.get(row.key)!, req.url.apiRoot) };
}

function dismiss(req: ApiRequest): ApiResponse {
  const row = found(req);
  req.store.write(() => req.store.reminders.dismiss(row.key, req.now));
  return { body: { key: row.key, dismissed: true } };
}

function streamOutsideDispatch(): ApiResponse {
  // app.ts answers this path itself (a response that stays open); reaching here is a wiring bug.
  throw new Error('the reminders stream is served by the app, not the dispatcher');
}

export const reminderRoutes: RouteDef[] = [
  route('/reminders/due', [
    {
      methods: ['GET'],
      summary: 'Reminders due now (Almanac): fired or not yet, snoozed ones once their snooze ends, until dismissed. Oldest first.',
      args: {},
      write: true,
      response: 'object',
      errors: [],
      handler: listDue,
    },
  ]),
  route('/reminders/stream', [
    {
      methods: ['GET'],
      summary:
        'Server-sent events (Almanac): "due" with one reminder when it comes due, and once after start-up "missed" with the count and the last 20 of those that came due while Almanac was not running. Needs the token or the session cookie.',
      args: {},
      write: true,
      response: 'object',
      errors: [401],
      handler: streamOutsideDispatch,
    },
  ]),
  route('/reminders/{key}/snooze', [
    {
      methods: ['POST'],
      summary: 'Snooze a due reminder (Almanac) for 5m, 10m, 1h or until the event starts; it is due again then.',
      args: snoozeParams,
      body: true,
      write: true,
      response: 'object',
      errors: [400, 404],
      handler: snooze,
    },
  ]),
  route('/reminders/{key}/dismiss', [
    { methods: ['POST'], summary: 'Dismiss a reminder of one occurrence for good (Almanac).', args: {}, body: true, write: true, response: 'object', errors: [404], handler: dismiss },
  ]),
];
