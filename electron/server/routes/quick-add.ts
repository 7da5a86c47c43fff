/**
 * POST /quick-add (Almanac): one sentence in plain words becomes an event, read by the parser the
 * calendar's Quick add field and the CLI's `add` use (shared/quick-add/parse.ts), in the request's
 * language, from now in the calendar's zone. The event is made as POST /events makes one (same
 * checks, same store call, its reminders in the same transaction) and answered in the same shape.
 */
import { eventFields } from '../../../shared/schema/resources';
import { quickAddParams } from '../../../shared/schema/queries';
import { parseQuickAdd } from '../../../shared/quick-add/parse';
import { validateFields } from '../validate';
import { invalidParam } from '../errors';
import { serializeEvent } from '../serialize/event';
import { insertEvent } from './events';
import { route, type ApiRequest, type ApiResponse, type RouteDef } from '../http/route-table';

function quickAdd(req: ApiRequest): ApiResponse {
  const parsed = parseQuickAdd(req.values.text as string, {
    lang: req.lang,
    now: req.now,
    zone: req.url.settings.timezone,
    defaultMinutes: req.url.settings.default_event_minutes,
    venues: req.store.venues.names(req.lang),
  });
  if (parsed.problems.length) throw invalidParam('text', parsed.problems.includes('no_date') ? 'quick_add_no_date' : 'quick_add_no_title');
  const calendar = req.values.calendar as number | undefined;
  // Checked as POST /events checks its body: the sentence's parts are values like any other.
  const values = validateFields(eventFields, { ...parsed.body, ...(calendar !== undefined ? { calendar } : {}) }, 'create');
  const record = () => serializeEvent(req.store.events.get(insertEvent(req, values))!, req.url, req.store);
  if (!req.values.dry_run) return { status: 201, body: req.store.write(record) };
  // The record exactly as it would be (its series, reminders and venue too), then nothing kept.
  return { body: req.store.dryRun(record) };
}

export const quickAddRoutes: RouteDef[] = [
  route('/quick-add', [
    {
      methods: ['POST'],
      summary:
        'Create an event from one sentence in plain words (Almanac): days, times, lengths, repeats, reminders, a venue by name and #categories, in the request\'s language (en, pt-br, es), from now in the calendar\'s zone. Answers 201 with the event as POST /events does (a series\' first event with its recurrence); with dry_run, 200 with the event it would make, saving nothing. A sentence that says no day or time, or no title, is refused with rest_invalid_param naming text.',
      args: quickAddParams,
      body: true,
      creates: true,
      dryRun: true,
      write: true,
      response: 'Event',
      errors: [400, 403],
      handler: quickAdd,
    },
  ]),
];
