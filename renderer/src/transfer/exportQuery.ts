/** The export's share of the filters on screen, as `GET /export` and the desktop bridge take them. */
import { nothingShown } from '../api/client';
import { useFilters } from '../state/filters';

export type ExportFilters = Record<string, string | number | boolean | Array<string | number>>;

/**
 * What the sidebar filters and the search box show now, as events-list parameters; null when they
 * show nothing at all (every calendar hidden): there is nothing to export then.
 */
export function currentExportFilters(): ExportFilters | null {
  const f = useFilters.getState();
  if (nothingShown(f)) return null;
  const filters: ExportFilters = {};
  if (f.categories.length) filters.categories = f.categories;
  if (f.tags.length) filters.tags = f.tags;
  if (f.venues.length) filters.venue = f.venues;
  if (f.organizers.length) filters.organizer = f.organizers;
  if (f.featured) filters.featured = true;
  if (f.search.trim()) filters.search = f.search.trim();
  // Hidden calendars' events are not what the filters show.
  if (f.calendars) filters.calendar = f.calendars;
  return filters;
}
