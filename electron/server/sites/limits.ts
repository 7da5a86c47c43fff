/**
 * What a website's API cannot do, refused where the user does it rather than lost at push time:
 * the original's event update ignores an empty venue (`""`, `0`, `null`, `[]`), so a venue cannot
 * be taken off an event of a site's calendar.
 */
import { ApiError } from '../errors';
import { isEmptyLink } from '../validate';
import type { Store } from '../store';

export function refuseWhatSitesCannot(store: Store, row: { calendar_id: number; venue_id: number | null }, values: Record<string, unknown>): void {
  if (values.venue === undefined || !isEmptyLink(values.venue) || !row.venue_id) return;
  const site = store.sites.byCalendar((values.calendar as number | undefined) ?? row.calendar_id);
  if (site) throw new ApiError('site-venue-unlink', 400, 'site_venue_unlink', { name: site.name }, { field: 'venue' });
}
