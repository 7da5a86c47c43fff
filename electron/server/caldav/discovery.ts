/**
 * From what a user types (a server URL, or just a domain) and their password to the list of
 * their calendars: RFC 6764 well-known URL → current-user-principal → calendar-home-set (tsdav's
 * `createAccount`), then one PROPFIND depth 1 on the home for every calendar's name, colour,
 * ctag, sync-token, reports and privileges (tsdav's `propfind`; its `fetchCalendars` would add one
 * more request per calendar for the reports).
 */
import { createAccount, propfind, type DAVResponse } from 'tsdav';
import { CalDavError } from './errors';
import { createTransport, type Credentials, type Transport, type TransportOptions } from './transport';

export interface DiscoveredCalendar {
  /** Absolute URL of the collection (what the sync talks to). */
  url: string;
  /** The href as the server wrote it: the collection's identity on that server. */
  href: string;
  displayName: string;
  description: string;
  /** `#rrggbb`, from calendar-color (Apple's `#RRGGBBAA` loses its alpha), or null when unset. */
  color: string | null;
  ctag: string | null;
  syncToken: string | null;
  /** RFC 6578 sync-collection is offered: later syncs can ask for changes only. */
  supportsSyncCollection: boolean;
  /** The user may read but not write (a shared calendar, a subscription the server holds). */
  readOnly: boolean;
  /** Component types the calendar takes (empty: the server did not say, so any). */
  components: string[];
}

export interface DiscoveredAccount {
  /** The server address as used (scheme added to a bare domain). */
  serverUrl: string;
  rootUrl: string;
  principalUrl: string;
  homeUrl: string;
  calendars: DiscoveredCalendar[];
}

export interface DiscoverOptions extends TransportOptions {}

/**
 * Calendars one account may list. People have tens; a home listing more is broken or hostile (a
 * listing of 120,000 held the server for seconds and took 855 MB): it is refused while it
 * arrives, before anything parses it.
 */
export const MAX_CALENDARS = 1000;

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * A name DNS can hold (RFC 1123 labels, after the URL parser's IDNA) or an IP address: "..", "-x"
 * or "a..b" are told as a bad address at once rather than as a server that cannot be found.
 */
function isHostName(host: string): boolean {
  if (host.startsWith('[')) return true; // IPv6: the URL parser checked it
  const labels = host.endsWith('.') ? host.slice(0, -1).split('.') : host.split('.');
  return host.length <= 253 && labels.every((l) => /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/i.test(l));
}

/**
 * The URLs to try for what the user typed. A bare domain is tried over https only: sending a
 * password over plain http because https did not answer would hand it to anyone on the path.
 * The one exception is this computer (localhost), where no one is on the path.
 */
export function serverCandidates(input: string): string[] {
  const typed = input.trim();
  const bad = () => new CalDavError('bad_url', { url: typed });
  if (!typed || /\s/.test(typed)) throw bad();
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(typed);
  let url: URL;
  try {
    url = new URL(hasScheme ? typed : `https://${typed}`);
  } catch {
    throw bad();
  }
  // A password inside the address would be stored with the address: it belongs in its own field.
  if (url.username || url.password) throw bad();
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw bad();
  if (!url.hostname || !isHostName(url.hostname)) throw bad();
  if (hasScheme) return [url.href];
  const out = [url.href];
  if (LOOPBACK.test(url.hostname)) {
    url.protocol = 'http:';
    out.push(url.href);
  }
  return out;
}

/** Finds the account's calendars. Throws a CalDavError that says in words what went wrong. */
export async function discoverAccount(input: string, credentials: Credentials, opts: DiscoverOptions = {}): Promise<DiscoveredAccount> {
  const candidates = serverCandidates(input);
  let last: CalDavError | undefined;
  for (const serverUrl of candidates) {
    // The home itself is one more response than its calendars.
    const transport = createTransport(serverUrl, credentials, { maxResponses: MAX_CALENDARS + 1, ...opts });
    let account;
    try {
      account = await createAccount({ account: { serverUrl, accountType: 'caldav' }, fetch: transport.fetch });
    } catch (err) {
      last = explain(transport, serverUrl, err);
      // Only a server that could not be reached at all is worth the next address (http on localhost).
      if (last.kind === 'unreachable' || last.kind === 'tls' || last.kind === 'timeout') continue;
      throw last;
    }
    const { rootUrl, principalUrl, homeUrl } = account as { rootUrl: string; principalUrl: string; homeUrl: string };
    const calendars = await listCalendars(homeUrl, transport);
    // A calendar must live where the password goes: another host (or port) could be anyone's.
    const own = new URL(serverUrl);
    const foreign = calendars.find((c) => !sameServer(new URL(c.url), own));
    if (foreign) throw new CalDavError('foreign_calendar', { host: own.host, url: foreign.url.slice(0, 200) });
    return { serverUrl, rootUrl, principalUrl, homeUrl, calendars };
  }
  throw last!;
}

/** The account's origin, or https on its host (what the transport sends the password to). */
export function sameServer(url: URL, account: URL): boolean {
  return url.origin === account.origin || (url.protocol === 'https:' && url.hostname === account.hostname);
}

const CALENDAR_PROPS = {
  'd:resourcetype': {},
  'd:displayname': {},
  'c:calendar-description': {},
  'ca:calendar-color': {},
  'cs:getctag': {},
  'd:sync-token': {},
  'd:supported-report-set': {},
  'd:current-user-privilege-set': {},
  'c:supported-calendar-component-set': {},
};

/** The calendars (of events) in a calendar home, from one PROPFIND depth 1. */
export async function listCalendars(homeUrl: string, transport: Transport): Promise<DiscoveredCalendar[]> {
  let responses: DAVResponse[];
  try {
    responses = await propfind({ url: homeUrl, props: CALENDAR_PROPS, depth: '1', fetch: transport.fetch });
  } catch (err) {
    throw explain(transport, homeUrl, err);
  }
  // An error answer to the PROPFIND itself comes back as one response without props.
  if (responses.length === 1 && !responses[0].ok && !responses[0].props) throw explain(transport, homeUrl, undefined, responses[0].status);
  const out: DiscoveredCalendar[] = [];
  for (const r of responses) {
    const props = (r.props ?? {}) as Record<string, unknown>;
    if (!r.ok || !r.href || !Object.keys(objectOf(props.resourcetype)).includes('calendar')) continue;
    const components = listOf(objectOf(props.supportedCalendarComponentSet).comp)
      .map((c) => text(objectOf(objectOf(c)._attributes).name)?.toUpperCase())
      .filter((c): c is string => !!c);
    // Almanac keeps events: a task list (VTODO only) is not one of its calendars.
    if (components.length > 0 && !components.includes('VEVENT')) continue;
    const url = new URL(r.href, homeUrl).href;
    out.push({
      url,
      href: r.href,
      displayName: text(props.displayname) || lastSegment(url),
      description: text(props.calendarDescription) ?? '',
      color: normalizeColor(text(props.calendarColor)),
      ctag: text(props.getctag) ?? null,
      syncToken: text(props.syncToken) ?? null,
      supportsSyncCollection: reportsOf(props).includes('syncCollection'),
      readOnly: isReadOnly(props.currentUserPrivilegeSet),
      components,
    });
  }
  // Servers list members in no particular order (Radicale's follows its folder listing).
  return out.sort((a, b) => a.displayName.localeCompare(b.displayName) || a.url.localeCompare(b.url));
}

/**
 * `#RGB`, `#RRGGBB` or Apple's `#RRGGBBAA` (any case) → `#rrggbb`; anything else → null. The
 * alpha is dropped: clients write FF, and a half-transparent calendar colour would only blur
 * the text drawn on it.
 */
export function normalizeColor(value: string | undefined): string | null {
  const v = value?.trim().toLowerCase();
  if (!v) return null;
  let m = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(v);
  if (m) return `#${m[1]}${m[1]}${m[2]}${m[2]}${m[3]}${m[3]}`;
  m = /^#([0-9a-f]{6})(?:[0-9a-f]{2})?$/.exec(v);
  return m ? `#${m[1]}` : null;
}

/**
 * Read-only unless the privileges name a write. A server that does not say (no
 * current-user-privilege-set) is taken as writable: its first refusal will tell.
 */
function isReadOnly(privilegeSet: unknown): boolean {
  if (privilegeSet === undefined || privilegeSet === null || privilegeSet === '') return false;
  const granted = listOf(objectOf(privilegeSet).privilege).flatMap((p) => Object.keys(objectOf(p)));
  return !granted.some((p) => p === 'all' || p === 'write' || p === 'writeContent');
}

/**
 * RFC 3253 wraps each report in `<report>`; Xandikos 0.2 leaves the wrapper out
 * (`<supported-report><sync-collection/></supported-report>`), which tsdav reads as no report
 * at all. Both are read here.
 */
function reportsOf(props: Record<string, unknown>): string[] {
  return listOf(objectOf(props.supportedReportSet).supportedReport).flatMap((sr) => {
    const o = objectOf(sr);
    return 'report' in o ? Object.keys(objectOf(o.report)) : Object.keys(o).filter((k) => !k.startsWith('_'));
  });
}

/**
 * tsdav's XML reading turns text that looks like a number or a boolean into one ("2024" → 2024,
 * "TRUE" → true): turned back into text here. It cannot undo "1.50" → 1.5, so a ctag is only
 * ever compared with another read the same way.
 */
export function text(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const o = v as { _text?: unknown; _cdata?: unknown };
  if (o._cdata !== undefined) return text(o._cdata);
  if (o._text !== undefined) return text(o._text);
  return undefined;
}

function objectOf(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function listOf(v: unknown): unknown[] {
  return v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
}

function lastSegment(url: string): string {
  const parts = new URL(url).pathname.split('/').filter(Boolean);
  const last = parts[parts.length - 1] ?? url;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/**
 * A failed discovery in words, from what the server answered along the way: any 401 means the
 * login was refused (tsdav reports it as "cannot find principalUrl" after trying other paths);
 * a last request without an answer is the network; answers without a calendar home mean it is
 * not CalDAV.
 */
function explain(transport: Transport, url: string, err: unknown, status?: number): CalDavError {
  // The transport counted the home's own response too.
  if (err instanceof CalDavError && err.kind === 'too_many_calendars') return new CalDavError('too_many_calendars', { limit: MAX_CALENDARS.toLocaleString('en') });
  if (err instanceof CalDavError) return err;
  if (transport.tooLarge) return transport.tooLarge;
  const host = new URL(url).host;
  const seen = status === undefined ? transport.statuses : [...transport.statuses, status];
  if (transport.untrusted) return transport.untrusted;
  if (seen.includes(401)) return new CalDavError('unauthorized', { host }, 401);
  if (transport.networkError) return transport.networkError;
  const serverErrors = seen.filter((s) => s >= 500);
  if (serverErrors.length > 0 && !seen.some((s) => s >= 200 && s < 300)) return new CalDavError('server_error', { host, status: serverErrors[0] }, serverErrors[0]);
  if (seen.includes(403)) return new CalDavError('forbidden', { host }, 403);
  return new CalDavError('not_caldav', { host, url });
}
