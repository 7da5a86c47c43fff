/**
 * The calendar's settings (Almanac extension): read them all, or change some. The fields are
 * declared in shared/schema/settings.ts; a token is needed for both (a setting is not public data).
 */
import { settingsFields, workHoursInOrder, type CalendarSettings } from '../../../shared/schema/settings';
import { systemTimeZone } from '../../../shared/dates/zones';
import { invalidParam } from '../errors';
import { storedReminders, type Settings } from '../store/settings';
import { route, type ApiRequest, type ApiResponse, type RouteDef } from '../http/route-table';


export function settingsJson(s: Settings): CalendarSettings {
  return {
    week_starts_on: s.week_starts_on,
    time_format: s.time_format,
    work_start: s.work_start,
    work_end: s.work_end,
    timezone: s.timezone,
    system_timezone: systemTimeZone(),
    theme: s.theme,
    default_event_minutes: s.default_event_minutes,
    recurrence_horizon_months: s.recurrence_horizon_months,
    reminders_timed: storedReminders(s.reminders_timed),
    reminders_all_day: storedReminders(s.reminders_all_day),
    reminder_sound: s.reminder_sound,
    keep_running_in_tray: s.keep_running_in_tray,
  };
}

function update(req: ApiRequest): ApiResponse {
  const values = req.values as Partial<CalendarSettings>;
  const current = req.store.settings.get();
  const start = values.work_start ?? current.work_start;
  const end = values.work_end ?? current.work_end;
  if (!workHoursInOrder(start, end)) throw invalidParam(values.work_end !== undefined ? 'work_end' : 'work_start', 'invalid_work_hours');
  const changes: Partial<Settings> = {};
  for (const [name, value] of Object.entries(values)) {
    (changes as Record<string, unknown>)[name] = Array.isArray(value) ? JSON.stringify(value) : value;
  }
  const next = req.store.write(() => req.store.settings.update(changes));
  return { body: settingsJson(next) };
}

export const settingsRoutes: RouteDef[] = [
  route('/settings', [
    {
      methods: ['GET'],
      summary: 'The calendar\'s settings (Almanac): week start, clock, working hours, time zone, theme, default event length, repeat horizon, default reminders.',
      args: {},
      write: true,
      response: 'object',
      errors: [],
      handler: (req) => ({ body: settingsJson(req.store.settings.get()) }),
    },
    {
      methods: ['POST', 'PUT', 'PATCH'],
      summary: 'Change some of the settings (Almanac); those left out keep their values. Answers with all of them.',
      args: settingsFields,
      body: true,
      write: true,
      response: 'object',
      errors: [400],
      handler: update,
    },
  ]),
];
