/**
 * Schema versions. Each migration runs once, in order, inside a transaction, and moves
 * `PRAGMA user_version` to its number. Never edit a migration that has shipped: add a new one.
 *
 * Events, venues, organizers and images share one id space (the `posts` registry) as they do in the
 * original, where they are all posts: an id tells what kind of record it is, so the API can answer
 * "that id is not an event" (400) apart from "no such id" (404).
 *
 * One file per version, named for what it does; this list is the order they run in. Their SQL
 * keeps the indentation it was written with: SQLite stores a CREATE statement's text as given, so
 * re-indenting one would make new files' schemas differ from those of files made before.
 */
import type { Migration } from './migration';
import { initialSchema } from './01-initial-schema';
import { repeatingEvents } from './02-repeating-events';
import { caldavAccounts } from './03-caldav-accounts';
import { reminders } from './04-reminders';
import { categoryColours } from './05-category-colours';
import { eventUidsCaldavSync } from './06-event-uids-caldav-sync';
import { dayCounts } from './07-day-counts';
import { subscriptions } from './08-subscriptions';
import { seriesFirstDeleted } from './09-series-first-deleted';
import { sites } from './10-sites';
import { doubleBookingIndexes } from './11-double-booking-indexes';
import { languagelessSyncedEvents } from './12-languageless-synced-events';
import { heldDeletes } from './13-held-deletes';
import { termSeriesCount } from './14-term-series-count';
import { siteReadOnlyRefusals } from './15-site-read-only-refusals';
import { noSiteVersion } from './16-no-site-version';
import { siteOccurrences } from './17-site-occurrences';
import { noConflictTarget } from './18-no-conflict-target';

export type { Migration } from './migration';

export const migrations: Migration[] = [
  initialSchema,
  repeatingEvents,
  caldavAccounts,
  reminders,
  categoryColours,
  eventUidsCaldavSync,
  dayCounts,
  subscriptions,
  seriesFirstDeleted,
  sites,
  doubleBookingIndexes,
  languagelessSyncedEvents,
  heldDeletes,
  termSeriesCount,
  siteReadOnlyRefusals,
  noSiteVersion,
  siteOccurrences,
  noConflictTarget,
];
