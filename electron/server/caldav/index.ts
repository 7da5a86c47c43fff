/**
 * CalDAV sync (issue #17): plain Node, never imports electron. What exists, and what comes next.
 *
 * DONE (this folder)
 *   transport.ts  the one fetch of an account: UTF-8 Basic auth sent only to the typed origin (or
 *                 a well-known redirect's https target), a time and a size limit on every
 *                 request, a record of the answers for telling failures in words.
 *   discovery.ts  URL or bare domain → RFC 6764 well-known → current-user-principal →
 *                 calendar-home-set (tsdav `createAccount`), then ONE PROPFIND depth 1 on the home:
 *                 name, colour, ctag, sync-token, sync-collection support, read-only.
 *   errors.ts     CalDavError: kind (unauthorized, unreachable, timeout, tls, not_caldav,
 *                 server_error, forbidden, bad_url, too_large) + message key (en/pt-br/es) +
 *                 `transient` (worth retrying with backoff, or the user must act).
 *   secrets       ../secrets.ts (password store interface; 0600 file for the headless server) and
 *                 ../../main/safe-storage-secrets.ts (Electron safeStorage).
 *
 * DONE: the sync round (sync.ts, push.ts, pull.ts, resource.ts, service.ts; rows in
 * ../store/dav-sync.ts), following calendar-patterns.md §3.4 with these choices:
 *   - `dav_objects(calendar_id, uid, href, etag, base_ical)`; `dav_outbox(calendar_id, uid, rev,
 *     attempts, next_try_utc, error)` kept by TRIGGERS on events/event_series/event_reminders, so
 *     every write path (API, import, series jobs, CLI) queues its change in its own transaction;
 *     the sync's own writes set `sync_guard.applying` so they queue nothing. `rev` guards a change
 *     made while its send is under way.
 *   - The body is built at send time by the iCalendar export of the resource's events, with the
 *     properties the mapping does not know copied from `base_ical` (the copy fetched back after
 *     the last PUT or pull), VEVENT by VEVENT (RECURRENCE-ID).
 *   - Push, then pull; 412 → fetch, same mapped fields = done (a replay after kill -9), else the
 *     server wins and the local text goes to `sync_conflicts`. No per-field three-way merge yet.
 *   - Pull: sync-collection when offered and a token is held and the last full listing is < 24 h
 *     old, else PROPFIND depth 1 with mark-and-sweep; calendar-multiget 50 at a time, each batch
 *     one transaction, the token saved with the last.
   - Traps met while building this (keep them in mind for the sync; the tests show each):
 *     . tsdav's XML reader turns text that looks like a number/boolean into one (ctag "1.50" →
 *       1.5): only compare values read the same way. Its Basic auth throws on non-Latin-1.
 *     . Xandikos omits <report> inside <supported-report>; ignores calendar-color in MKCALENDAR
 *       (PROPPATCH works).
 *     . Xandikos answers a PUT whose UID exists under another name with **207** Multi-Status
 *       holding a 412 no-uid-conflict; Radicale says 409. Success is 200/201/204 only, never
 *       "any 2xx". Radicale answers 201 to an update as well as to a create.
 *     . Both rewrite what they store: Radicale turns TRIGGER;VALUE=DURATION: into TRIGGER: and
 *       cuts an X- property's value at an unescaped comma (Apple's X-APPLE-STRUCTURED-LOCATION
 *       "geo:lat,lon" loses its longitude); Xandikos escapes that comma and quotes parameters.
 *       So `base_ical` must be the copy fetched back after a PUT, and comparisons are by mapped
 *       fields, never by text.
 *     . The sync-token and ctag seen at discovery are NOT stored (cli/accounts.ts): the first
 *       sync must be a full one.
 *   - Tests: test/server/caldav/sync.test.ts (two data dirs through each server),
 *     sync-recovery.test.ts (kill -9, a forgotten token, deleted there while changed here),
 *     test/server/cli-sync.test.ts.
 */
export { discoverAccount, listCalendars, normalizeColor, serverCandidates, type DiscoveredAccount, type DiscoveredCalendar } from './discovery';
export { CalDavError, type CalDavErrorKind } from './errors';
export { createTransport, type Credentials, type Transport } from './transport';
export { syncAccount, type SyncReport, type CalendarReport } from './sync';
export { createSyncService, type SyncService } from './service';
