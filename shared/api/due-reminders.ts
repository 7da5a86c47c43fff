/**
 * A reminder that came due, as `GET /reminders/due` lists it and `GET /reminders/stream` pushes it
 * (issue 16): declared once here for the server, the calendar window and the desktop shell.
 */
export interface DueJson {
  key: string;
  event_id: number;
  series_id: number | null;
  recurrence_id: string | null;
  title: string;
  action: 'display' | 'audio' | 'email';
  /** When it was due (a snoozed one: when the snooze ends), ISO 8601 UTC. */
  due_at: string;
  /** A client was told of it already (it fired); still listed until dismissed. */
  fired: boolean;
  start_date: string;
  utc_start_date: string;
  end_date: string;
  timezone: string;
  all_day: boolean;
  rest_url: string;
}

export type ReminderMessage = { type: 'due'; reminder: DueJson } | { type: 'missed'; count: number; reminders: DueJson[] };

/** How long a snooze lasts: the API's `for`. */
export const SNOOZES = ['5m', '10m', '1h', 'start'] as const;
export type Snooze = (typeof SNOOZES)[number];
