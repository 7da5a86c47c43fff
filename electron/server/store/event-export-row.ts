/**
 * An event as the iCalendar export reads it, apart from the store: the export's worker thread
 * (icalendar/export-worker.ts) parses rows too, and must not load the database for it.
 */
import type { EventRow } from './events';

/** The columns the export writes, in the order of each row's JSON text (events.ts exportBatchTexts). */
export const EXPORT_COLUMNS = [
  'id', 'lang', 'status', 'slug', 'title', 'content', 'excerpt', 'date_utc', 'modified_utc', 'image_id',
  'start_local', 'end_local', 'start_utc', 'end_utc', 'timezone', 'all_day', 'cost', 'website',
  'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured', 'venue_id', 'ics_uid',
  'parent_id', 'recurrence_id', 'own_fields', 'status_before_trash',
] as const satisfies ReadonlyArray<keyof EventRow>;

/**
 * What each row adds after its columns, from its series: for a series' first event its rule,
 * start and occurrence length (JSON text); for any occurrence, its series' UID.
 */
export const SERIES_EXPORT_SQL = [
  '(SELECT json_array(s.recurrence, s.start_local, s.duration_s, s.template) FROM event_series s WHERE s.id = e.id)',
  '(SELECT p.ics_uid FROM events p WHERE p.id = e.parent_id)',
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
};

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
  row.organizer_ids = links.organizer_ids;
  row.term_ids = links.term_ids;
  row.template = links.template;
  return row as EventExportRow;
}
