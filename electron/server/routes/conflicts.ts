/**
 * `GET /events/conflicts` (Almanac, issue 27): the events that hold a venue or any of some
 * organizers at a time overlapping the one given — the question the editor, quick add and a drag
 * in the calendar ask before saving, and scripts too. The work is in store/event-conflicts.ts.
 */
import { DateTime } from 'luxon';
import { conflictParams } from '../../../shared/schema/queries';
import { parseDate } from '../../../shared/dates/parse';
import { formatLocal } from '../../../shared/dates/format';
import { invalidParam, invalidParams } from '../errors';
import type { ApiRequest, ApiResponse, RouteDef } from '../http/route-table';
import { route } from '../http/route-table';
import { defaultStatuses } from '../store/posts';
import { eventsJson } from '../serialize/event';
import { isVirtualId } from '../store/series-virtual';
import { joined } from '../http/paging';

/** A time as given (never widened to whole days), read in the calendar's zone unless it names one. */
function utcOf(req: ApiRequest, name: string): DateTime {
  const dt = parseDate(req.values[name] as string | number, { zone: req.url.settings.timezone, now: req.now });
  if (!dt) throw invalidParam(name, 'invalid_date');
  return dt.toUTC();
}

function listConflicts(req: ApiRequest): ApiResponse {
  const v = req.values;
  const start = utcOf(req, 'start_date');
  const end = utcOf(req, 'end_date');
  if (end <= start) throw invalidParam('end_date', 'invalid_conflict_end');
  const venue = v.venue as number | undefined;
  const organizers = v.organizer as number[] | undefined;
  if (venue === undefined && !organizers?.length) throw invalidParams({ venue: 'invalid_conflict_subject', organizer: 'invalid_conflict_subject' });
  if (venue !== undefined && !req.store.venues.get(venue)) throw invalidParam('venue', 'invalid_venue_ref');
  for (const id of organizers ?? []) if (!req.store.organizers.get(id)) throw invalidParam('organizer', 'invalid_organizer_ref');
  let exclude = v.exclude as number | undefined;
  // An occurrence shown without a row (series-virtual.ts) is named by its id too: its row's if it has one by now.
  if (exclude !== undefined && isVirtualId(exclude)) {
    const { row, exists } = req.store.series.virtual.resolve(exclude);
    if (row === undefined && !exists) throw invalidParam('exclude', 'invalid_event_ref');
    exclude = row ?? exclude;
  } else if (exclude !== undefined && !req.store.events.get(exclude)) throw invalidParam('exclude', 'invalid_event_ref');
  const ids = req.store.conflicts.find({
    startUtc: formatLocal(start),
    endUtc: formatLocal(end),
    venue,
    organizers,
    exclude,
    statuses: defaultStatuses(req.viewer),
  });
  const items = eventsJson(ids, req.url, req.store);
  return { json: Buffer.concat([Buffer.from('{"events":['), ...joined(items), Buffer.from(']}')]) };
}

export const conflictRoutes: RouteDef[] = [
  route('/events/conflicts', [
    {
      methods: ['GET'],
      summary:
        'Double bookings (Almanac): the events (not trashed) that hold the venue or any of the organizers at a time overlapping start_date–end_date, by start, at most 100, in the list\'s record shape. Touching ends do not overlap; repeating events count by their occurrences, also past the repeat horizon; `exclude` leaves out the event being checked and the rest of its series.',
      args: conflictParams,
      write: false,
      response: 'ConflictList',
      errors: [400],
      handler: listConflicts,
    },
  ]),
];
