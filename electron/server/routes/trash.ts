/**
 * Empty trash (Almanac extension, issue 27): every trashed event, venue or organizer of the
 * request's language deleted for good in one transaction, as the Trash screen's button asks
 * after its confirmation. Events of read-only calendars (subscriptions, calendars a CalDAV
 * account may only read) are left: they change only at their source.
 */
import * as k from '../../../shared/schema/kinds';
import type { ParamSet } from '../../../shared/schema/queries';
import { ApiError } from '../errors';
import { route, type ApiRequest, type ApiResponse, type RouteDef } from '../http/route-table';

const KINDS = ['events', 'venues', 'organizers'] as const;

const emptyParams: ParamSet = {
  kind: { kind: k.oneOf(KINDS), description: 'What to delete for good from the trash: events, venues or organizers.', required: true },
};

function emptyTrash(req: ApiRequest): ApiResponse {
  const kind = req.values.kind as (typeof KINDS)[number];
  const deleted = req.store.write(() => {
    let n = 0;
    if (kind === 'events') {
      for (const id of req.store.events.trashedIds(req.lang)) {
        // Read again: deleting a series' first event for good takes its trashed occurrences along.
        const row = req.store.events.get(id);
        if (!row || row.status !== 'trash') continue;
        try {
          req.store.events.refuseReadOnlyEvent(row);
        } catch (e) {
          if (e instanceof ApiError) continue;
          throw e;
        }
        req.store.series.deleteForever(row);
        n++;
      }
    } else {
      const store = kind === 'venues' ? req.store.venues : req.store.organizers;
      for (const id of store.trashedIds(req.lang)) {
        store.deleteForever(id);
        n++;
      }
    }
    return n;
  });
  return { body: { kind, deleted } };
}

export const trashRoutes: RouteDef[] = [
  route('/trash', [
    {
      methods: ['DELETE'],
      summary: 'Empty the trash (Almanac): every trashed event, venue or organizer (kind) of the language deleted for good, in one transaction; events of read-only calendars stay. Answers {kind, deleted}.',
      args: emptyParams,
      write: true,
      response: 'object',
      errors: [400],
      handler: emptyTrash,
    },
  ]),
];
