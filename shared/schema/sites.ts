/**
 * Websites synced both ways (Almanac, issue 26): sites that serve the events REST API v1 (the
 * original plugin's WordPress sites, and other Almanacs). Declared once: `POST /sites` validates
 * with these, `/doc` describes them, the CLI and the renderer's "Connect a website" draw from them.
 */
import * as k from './kinds';
import type { FieldDef, FieldSet } from './resources';

const f = (kind: k.Kind, description: string, label: string, extra: Partial<FieldDef> = {}): FieldDef => ({ kind, description, label, ...extra });

export const siteFields: FieldSet = {
  url: f(k.text({ nonEmpty: true, max: 2000 }), 'The website as a person types it (example.org, https://example.org/blog); its events API is found the way WordPress clients find it (the Link header, /wp-json/, ?rest_route=).', 'sites.url', { required: true }),
  user: f(k.text({ nonEmpty: true, max: 500 }), 'The user name on the site.', 'sites.user', { required: true }),
  password: f(k.password(), 'An application password of that user (WordPress: Users → Profile → Application Passwords). Kept in the OS keychain or an owner-only file, never in the database, never returned.', 'sites.password', { required: true }),
  name: f(k.text({ nonEmpty: true, max: 200 }), 'What Almanac calls the site and its calendar (default: the site\'s host and path); unique.', 'sites.name'),
  color: f(k.color(), 'Colour of the site\'s calendar, #rrggbb.', 'sites.color'),
  api_root: f(k.url(), 'The events API\'s root, only for a site that hides its /wp-json/ index (https://example.org/wp-json/…/events/v1/); found by itself otherwise.', 'sites.api_root'),
};

export type SiteState = 'ok' | 'syncing' | 'error' | 'password';

/** A site as `GET /sites` and `POST /sites` answer: never its password. */
export interface SiteJson {
  id: number;
  name: string;
  /** As typed, normalised (scheme added, no trailing slash). */
  url: string;
  /** The events namespace's root found on the site. */
  api_root: string;
  user: string;
  calendar_id: number;
  color: string | null;
  created: string;
  last_sync: string | null;
  /** In the reader's language. */
  last_error: string | null;
  /** Local changes waiting to be sent. */
  pending: number;
  /** Conflict copies kept for this site. */
  conflicts: number;
  state: SiteState;
  /** Whether the site takes a series as a series (another Almanac); the original plugin alone does not. */
  repeats: boolean;
  /** Records the site refused, as `GET /sync` gives them (SiteRefusalJson). */
  refused: SiteRefusalJson[];
}

/** A site's sync state in `GET /sync` (`sites`). */
export interface SiteSyncJson {
  id: number;
  name: string;
  calendar_id: number;
  last_sync: string | null;
  pending: number;
  last_error: string | null;
  conflicts: number;
  state: SiteState;
  next_try: string | null;
  /** Records the site refused (newest first, at most 200), until they go through or are discarded. */
  refused: SiteRefusalJson[];
}

/**
 * A record the site refused (`GET /sync`, per site): a change sent from here (`push`: the site
 * answered 400/403… with its reason; the change waits) or a record of the site that could not be
 * stored here (`pull`).
 */
export interface SiteRefusalJson {
  id: number;
  direction: 'push' | 'pull';
  kind: 'event' | 'venue' | 'organizer' | 'category' | 'tag';
  title: string;
  /** The site's reason, or ours, in the reader's language. */
  reason: string;
  /** The HTTP status of the site's refusal; null when it was refused here. */
  status: number | null;
  /** When it was last refused (UTC, ISO 8601). */
  at: string;
  /** The local record's id (an event's, a venue's…), when it is here. */
  local_id: number | null;
  /** The site's id of the record, when the site has it. */
  remote_id: number | null;
}
