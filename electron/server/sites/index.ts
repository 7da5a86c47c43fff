/**
 * Websites synced both ways (issue 26): plain Node, never imports electron. The sync core
 * (../sync/merge.ts) is shared with CalDAV; this folder is the websites' transport and local side.
 *
 * TESTED against a second real Almanac started by the tests (test/server/sites/*), with a proxy
 * in front of it only for what a real site cannot be made to do on demand (a lost answer, a
 * stripped Authorization header, a firewall's page, garbage, 401/429/503 mid-round, no answer):
 * discovery by Link header, /wp-json/ and ?rest_route=; the proof of the login; pull of the five
 * kinds with drafts, past, hidden and trashed events; linking instead of duplicating; hashes that
 * see no change when nothing changed; whole-event updates; dependency order; term_exists; the
 * lost create; If-Match 412; the conflict cases; kill -9 while pulling and pushing; the CLI;
 * occurrences of a series changed on their own both ways (occurrences.ts), far ones shown without rows.
 *
 * NOT TESTED without a real WordPress site (what the research in site-sync.md says, unverified here):
 *   - application passwords themselves (only over https or a `local` environment), the authorize
 *     flow, the exact 401 codes (`incorrect_password`, `invalid_username`) and a really stripped
 *     header behind Apache/nginx/FastCGI (here a proxy drops it);
 *   - the original's rendering (wptexturize's curly quotes, wpautop's edge cases, `&#038;`) beyond
 *     what records.ts decodes; cost strings of several values ("10 – 20") and the currency meta;
 *   - the original's resets on partial updates (verified live by the research, mirrored here only
 *     by always sending the whole event), its post `date` handling, `force` on term deletes;
 *   - TEC's error codes for a page past the end of terms (WordPress core's 400), older TEC's 400
 *     for a missing id, 403/410 for trashed events and venues' `status: trash` reads;
 *   - Events Calendar Pro occurrences and series: which keys a Pro version's REST v1 answer really
 *     gives an occurrence (`post_parent`, a recurring flag, the provisional id: records.ts
 *     siteOccurrence); tested only with a proxy that shows one of a second Almanac's events in
 *     the shape the docs describe (test/server/sites/occurrences.test.ts);
 *   - security plugins' and WAFs' real answers, hosts' caches (the cache-buster is sent but its
 *     effect on LiteSpeed/Cloudflare is unverified), shared-hosting timeouts and rate limits;
 *   - WPML and other multilingual setups; tags shared with blog posts (Almanac never deletes
 *     them there unless the user deletes the tag here).
 */
export { discoverSite, normalizeSiteUrl, proveLogin, type DiscoveredSite, type SiteCapabilities } from './discovery';
export { SiteError, type SiteErrorKind } from './errors';
export { syncSite } from './sync';
export { addSite, removeSite } from './accounts';
