/**
 * The calendar's settings (Almanac, issue 15 item 8), declared once: `GET/PATCH /settings`
 * validates with these, `/doc` describes them, the renderer's Settings dialog draws its fields from
 * them, and the settings store keeps them (electron/server/store/settings.ts) in the SQLite file
 * of the data dir.
 */
import * as k from './kinds';
import type { FieldDef, FieldSet } from './resources';

export const WEEK_STARTS = ['language', 'sunday', 'monday', 'saturday'] as const;
export type WeekStart = (typeof WEEK_STARTS)[number];
export const TIME_FORMATS = ['language', '12h', '24h'] as const;
export type TimeFormat = (typeof TIME_FORMATS)[number];
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** Bounds a user can set: a horizon of months of rows per series, an event of up to a day. */
export const HORIZON_MONTHS = { min: 3, max: 120 } as const;
export const EVENT_MINUTES = { min: 5, max: 1440 } as const;

const f = (kind: k.Kind, description: string, label: string, defaultValue: unknown): FieldDef => ({ kind, description, label, default: defaultValue });

export const settingsFields: FieldSet = {
  week_starts_on: f(k.oneOf(WEEK_STARTS), 'First day of the week in the month, week, mini month and year views; "language" follows the interface language (Sunday in English, Monday in Portuguese and Spanish).', 'settings.week_starts_on', 'language'),
  time_format: f(k.oneOf(TIME_FORMATS), 'Clock of every time shown: 12h (am/pm), 24h, or "language" for the interface language\'s.', 'settings.time_format', 'language'),
  work_start: f(k.clock(), 'Start of the working day (HH:MM): week and day views open scrolled to it.', 'settings.work_start', '09:00'),
  work_end: f(k.clock(), 'End of the working day (HH:MM), after work_start.', 'settings.work_end', '17:00'),
  timezone: f(k.timezone(), 'Time zone of dates given without one, of list windows and of every view of the app (IANA id, UTC or UTC+N); "" for the system\'s. Answers also give `system_timezone`, the server\'s own zone.', 'settings.timezone', ''),
  theme: f(k.oneOf(THEMES), 'Colours of the interface: system (follow the desktop), light or dark.', 'settings.theme', 'system'),
  default_event_minutes: f(
    k.integer({ min: EVENT_MINUTES.min, max: EVENT_MINUTES.max, issue: 'invalid_event_minutes' }),
    `Length of a new timed event in minutes (${EVENT_MINUTES.min}–${EVENT_MINUTES.max}).`,
    'settings.default_event_minutes',
    60,
  ),
  recurrence_horizon_months: f(
    k.integer({ min: HORIZON_MONTHS.min, max: HORIZON_MONTHS.max, issue: 'invalid_horizon' }),
    `How many months ahead a repeating event's occurrences are kept as rows (${HORIZON_MONTHS.min}–${HORIZON_MONTHS.max}); further out they are worked out when asked for.`,
    'settings.recurrence_horizon_months',
    24,
  ),
  reminders_timed: f(k.reminders(), 'Reminders of new timed events created without a `reminders` field (a reminders list, as on events); never given to imported events.', 'settings.reminders_timed', []),
  reminders_all_day: f(k.reminders(), 'Reminders of new all-day events created without a `reminders` field.', 'settings.reminders_all_day', []),
  reminder_sound: f(k.boolean(), 'Browser tab: a short chime with each reminder banner (off by default; AUDIO alarms always chime).', 'settings.reminder_sound', false),
  keep_running_in_tray: f(k.boolean(), 'Desktop app: closing the window leaves Almanac running in the tray, so reminders still come.', 'settings.keep_running_in_tray', false),
};

/** The settings as the API gives them. */
export interface CalendarSettings {
  week_starts_on: WeekStart;
  time_format: TimeFormat;
  work_start: string;
  work_end: string;
  /** The zone in use: the one set, or the system's when none is. */
  timezone: string;
  /**
   * The server's own zone (read only): a `timezone` equal to it means "the computer's zone", which
   * the app draws in the page's own zone (the same computer's, or a test browser's).
   */
  system_timezone?: string;
  theme: Theme;
  default_event_minutes: number;
  recurrence_horizon_months: number;
  reminders_timed: import('../reminders').Reminder[];
  reminders_all_day: import('../reminders').Reminder[];
  reminder_sound: boolean;
  keep_running_in_tray: boolean;
}

/** Whether the working day ends after it starts (checked across the two fields). */
export const workHoursInOrder = (start: string, end: string): boolean => start < end;
