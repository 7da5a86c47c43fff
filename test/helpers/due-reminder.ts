/** A due reminder as the API lists and pushes it (shared/api/due-reminders.ts): "Dentist & check-up", due 10 minutes before 10:00 UTC. */
import type { DueJson } from '../../shared/api/due-reminders';

export const makeDue = (over: Partial<DueJson> = {}): DueJson => ({
  key: 'k1',
  event_id: 7,
  series_id: null,
  recurrence_id: null,
  title: 'Dentist &amp; check-up',
  action: 'display',
  due_at: '2031-03-12T09:50:00Z',
  fired: true,
  start_date: '2031-03-12 10:00:00',
  utc_start_date: '2031-03-12 10:00:00',
  end_date: '2031-03-12 11:00:00',
  timezone: 'UTC',
  all_day: false,
  rest_url: 'http://127.0.0.1/cal/events/v1/events/7',
  ...over,
});
