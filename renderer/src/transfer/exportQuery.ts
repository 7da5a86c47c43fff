/** The export's share of the filters on screen, as `GET /export` and the desktop bridge take them. */
import { useFilters } from '../state/filters';

/** An id no calendar has (ids count up from 1): asks for the events of no calendar. */
const NO_CALENDAR = 2_147_483_647;

export type ExportFilters = Record<string, string | number | boolean | Array<string | number>>;

/** What the sidebar filters and the search box show now, as events-list parameters. */
export function currentExportFilters(): ExportFilters {
  const f = useFilters.getState();
  const filters: ExportFilters = {};
  if (f.categories.length) filters.categories = f.categories;
  if (f.tags.length) filters.tags = f.tags;
  if (f.venues.length) filters.venue = f.venues;
  if (f.organizers.length) filters.organizer = f.organizers;
  if (f.featured) filters.featured = true;
  if (f.search.trim()) filters.search = f.search.trim();
  // Hidden calendars' events are not what the filters show. With none shown, the export is empty.
  if (f.calendars) filters.calendar = f.calendars.length ? f.calendars : [NO_CALENDAR];
  return filters;
}
