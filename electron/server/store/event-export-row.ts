/**
 * An event as the iCalendar export reads it, apart from the store: the export's worker thread
 * (icalendar/export-worker.ts) parses rows too, and must not load the database for it.
 */
import type { EventRow } from './events';
import { OWN } from './series-fields';

/** The columns the export writes, in the order of each row's JSON text (events.ts exportBatchTexts). */
export const EXPORT_COLUMNS = [
  'id', 'lang', 'status', 'slug', 'title', 'content', 'excerpt', 'date_utc', 'modified_utc', 'image_id',
  'start_local', 'end_local', 'start_utc', 'end_utc', 'timezone', 'all_day', 'cost', 'website',
  'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured', 'venue_id', 'ics_uid',
  'parent_id', 'recurrence_id', 'own_fields', 'status_before_trash',
] as const satisfies ReadonlyArray<keyof EventRow>;

const REMINDERS_BIT = OWN.reminders;
/** The row is an occurrence that has its series' reminders. */
const INHERITS = `(e.parent_id IS NOT NULL AND e.recurrence_id IS NOT NULL AND (e.own_fields & ${REMINDERS_BIT}) = 0)`;

/**
 * What each row adds after its columns, from its series: for a series' first event its rule,
 * start and occurrence length (JSON text); for any occurrence, its series' UID.
 */
export const SERIES_EXPORT_SQL = [
  '(SELECT json_array(s.recurrence, s.start_local, s.duration_s, s.template) FROM event_series s WHERE s.id = e.id)',
  '(SELECT p.ics_uid FROM events p WHERE p.id = e.parent_id)',
  // Its reminders: its own, or its series' when it inherits them (store/reminders.ts); and for a
  // series' first event that changed its own, the series' (the master VEVENT's).
  `(SELECT json_group_array(json_array(r.action, r.trigger, r.related, r.at_utc, r.repeat_n, r.repeat_every, r.description, r.summary, r.attendees, r.ical))
    FROM (SELECT * FROM event_reminders r WHERE ${INHERITS}
      AND r.event_id = e.parent_id AND r.layer = (SELECT (p.own_fields & ${REMINDERS_BIT}) != 0 FROM events p WHERE p.id = e.parent_id)
      UNION ALL SELECT * FROM event_reminders r WHERE NOT ${INHERITS} AND r.event_id = e.id AND r.layer = 0 ORDER BY position) r)`,
  `(SELECT json_group_array(json_array(r.action, r.trigger, r.related, r.at_utc, r.repeat_n, r.repeat_every, r.description, r.summary, r.attendees, r.ical))
    FROM (SELECT * FROM event_reminders r WHERE e.own_fields & ${REMINDERS_BIT} AND e.parent_id IS NULL AND r.event_id = e.id AND r.layer = 1 ORDER BY position) r)`,
] as const;

/**
 * Those columns, and the ids of its organizers and of its terms in their order (comma-separated),
 * so that one query does what took four per batch.
 */
export type EventExportRow = Pick<EventRow, (typeof EXPORT_COLUMNS)[number]> & {
  organizer_ids: string | null;
  term_ids: string | null;
  /** `[recurrence JSON, start, duration in seconds, template JSON]` for a series' first event. */
  series: [recurrence: string, start: string, durationS: number, template: string] | null;
  series_uid: string | null;
  /** For a series' first event that changed some fields on its own: the series' values of those (JSON). */
  template: string | null;
  /** `[action, trigger, related, at_utc, repeat_n, repeat_every, description, summary, attendees JSON, ical]` each. */
  reminders: ReminderTuple[];
  series_reminders: ReminderTuple[];
};

export type ReminderTuple = [string, string | null, string, string | null, number, string | null, string | null, string | null, string | null, string | null];

/** What the export reads first of a row: what it links to (icalendar/export-rows.ts loads those). */
export type ExportRowLinks = Pick<EventExportRow, 'venue_id' | 'image_id' | 'organizer_ids' | 'term_ids' | 'template'>;

/** A batch of the export's rows: each as JSON text and its links (together, `parseExportRow`). */
export interface EventExportBatch {
  texts: string[];
  links: ExportRowLinks[];
}

/** A row of `exportBatchTexts` as an object. */
export function parseExportRow(text: string, links: ExportRowLinks): EventExportRow {
  const values = JSON.parse(text) as unknown[];
  const row: Record<string, unknown> = {};
  for (let i = 0; i < EXPORT_COLUMNS.length; i++) row[EXPORT_COLUMNS[i]] = values[i];
  row.series = values[EXPORT_COLUMNS.length] ?? null;
  row.series_uid = values[EXPORT_COLUMNS.length + 1] ?? null;
  row.reminders = (values[EXPORT_COLUMNS.length + 2] as ReminderTuple[] | null) ?? [];
  row.series_reminders = (values[EXPORT_COLUMNS.length + 3] as ReminderTuple[] | null) ?? [];
  row.organizer_ids = links.organizer_ids;
  row.term_ids = links.term_ids;
  row.template = links.template;
  return row as EventExportRow;
}
