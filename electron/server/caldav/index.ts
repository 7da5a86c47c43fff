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
 * NEXT: the sync round (calendar-patterns.md §3.4, which this follows). Tables in a new migration:
 * `dav_objects(calendar_id, uid, href, etag, base_ical, local_rev, sent_rev, seen)` and
 * `outbox(calendar_id, uid, op put|delete, base_etag, state, attempts, next_try_utc, error)`;
 * events get `calendar_id` (lead's table) and a UUID `ics_uid`.
 *   - Outbox is state, not a log: a local write bumps `local_rev` and upserts the outbox row in the
 *     SAME transaction as the event change; the body is built at send time from `base_ical` patched
 *     with the mapped fields (so ATTENDEE/VALARM/X- survive). `base_etag` = the ETag the user's
 *     edit was based on, never a fresher listed one.
 *   - One round per calendar, under a per-calendar lock:
 *     1. PROPFIND depth 0 (token, ctag, colour, name): `listCalendars` already reads these.
 *     2. Push deletes (If-Match), then puts: new = PUT `<uid>.ics` If-None-Match: * (href stored
 *        BEFORE the first send, so a replay after kill -9 hits the same name); change = If-Match.
 *        2xx → store ETag (null if the server gives none: re-fetch on pull), sent_rev, base_ical.
 *        412 → fetch, three-way merge, back to pending (a fetched copy equal to what we sent counts
 *        as done); 404 on update → retry as create; 409 no-uid-conflict / 412 on create → find the
 *        href by UID (calendar-query) and adopt it; network/5xx/429 → backoff honouring
 *        Retry-After (1 min..2 h); 400/403/415 → failed, in words, local data kept.
 *     3. Skip the pull when nothing was pushed and token/ctag are unchanged.
 *     4. Pull with tsdav `syncCollection` (no <limit>: Xandikos truncates silently; loop on 507);
 *        ANY error on it (403/409 valid-sync-token, 418, 5xx) → full listing, PROPFIND depth 1
 *        getetag with mark-and-sweep on `seen`. Keep every href (tsdav's helpers drop hrefs not
 *        ending in .ics; do not use smartCollectionSync/syncCalendars).
 *     5. calendar-multiget in batches of 10-50, parse with the SAME module as ICS import, apply
 *        each batch in one transaction; clean object → replace; dirty → merge; remote delete of a
 *        dirty object → keep local and re-create (conflict noted).
 *     6. Save the new sync-token in the transaction of the LAST batch, never earlier.
 *     7. A full listing every 24 h and after > 1 day offline even with sync-collection (Radicale
 *        drops tokens after 30 days, Nextcloud prunes its change log without an error).
 *   - Conflicts: three-way merge per mapped field on `base_ical`, per RECURRENCE-ID, EXDATEs
 *     unioned; both sides changed a field differently → server wins the event, the local version
 *     is kept in `event_conflicts` for the user to restore. Compare by mapped fields, never bytes
 *     (Radicale and Xandikos rewrite what they store).
 *   - Traps met while building this (keep them in mind for the sync; the tests show each):
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
 *   - Tests to write with it: convergence (a second sync right after writes nothing), Radicale
 *     with a tiny max_sync_token_age, a third client editing between our GET and PUT (412), kill -9
 *     between PUT and commit, against Radicale AND Xandikos. test/helpers/caldav-servers.ts starts
 *     both (halt/resume for "offline"), writes as Thunderbird/Apple do (`putIcs`, `resourcesOf`
 *     splits a calendar file into per-UID resources) and reads back (`getResource`).
 */
export { discoverAccount, listCalendars, normalizeColor, serverCandidates, type DiscoveredAccount, type DiscoveredCalendar } from './discovery';
export { CalDavError, type CalDavErrorKind } from './errors';
export { createTransport, type Credentials, type Transport } from './transport';
