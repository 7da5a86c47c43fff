/**
 * CalDAV accounts and calendars (Almanac extension, issue 17): list, add (discovery as the CLI
 * does it, through the same caldav/accounts.ts) and remove accounts; list calendars and change
 * their name, colour, shown/hidden and synced; make and remove calendars of this computer's own. The fields are declared in shared/schema/accounts.ts.
 * A password goes in and never comes out.
 */
import { accountFields, calendarFields, LOCAL_CALENDAR_ID, newCalendarFields, REMOVED_CALENDAR_EVENTS, type AccountJson, type CalendarJson } from '../../../shared/schema/accounts';
import * as k from '../../../shared/schema/kinds';
import type { ParamSet } from '../../../shared/schema/queries';
import type { Language } from '../../../shared/i18n/languages';
import { ApiError, invalidParam } from '../errors';
import { capabilitiesOf } from '../sites/sync';
import { addAccount, removeAccount, UnknownCalendarError } from '../caldav/accounts';
import { CalDavError, errorText, type CalDavErrorKind } from '../caldav/errors';
import { DuplicateAccountError, type AccountRow, type CalendarRow } from '../store/caldav-accounts';
import type { Store } from '../store';
import { route, type ApiRequest, type ApiResponse, type RouteDef } from '../http/route-table';

/** A calendar as the API gives it; a subscription's last error worded in `lang`. */
export function calendarJson(c: CalendarRow, accountNames: Map<number, string>, lang: Language, sites: Map<number, NonNullable<CalendarJson['site']>> = new Map()): CalendarJson {
  return {
    id: c.id,
    name: c.name,
    color: c.color,
    visible: !!c.visible,
    account: c.account_id === null ? null : (accountNames.get(c.account_id) ?? null),
    account_id: c.account_id,
    synced: c.account_id !== null && !!c.synced,
    read_only: !!c.read_only,
    subscription: c.subscription_url === null ? null : { url: c.subscription_url, refreshed_utc: c.subscription_refreshed_utc, last_error: errorText(c.last_error, lang) },
    site: sites.get(c.id) ?? null,
  };
}

function accountJson(a: AccountRow, calendars: CalendarRow[], lang: Language): AccountJson {
  const names = new Map([[a.id, a.name]]);
  return {
    id: a.id,
    name: a.name,
    server_url: a.server_url,
    username: a.username,
    created: a.created_utc,
    last_sync: a.last_sync_utc,
    last_error: errorText(a.last_error, lang),
    calendars: calendars.map((c) => calendarJson(c, names, lang)),
  };
}

const accountNames = (store: Store) => new Map(store.accounts.list().map((a) => [a.id, a.name]));
const siteCalendars = (store: Store) => new Map(store.sites.list().map((s) => [s.calendar_id, { id: s.id, url: s.url, repeats: capabilitiesOf(s).almanac }]));

function listAccounts(req: ApiRequest): ApiResponse {
  return { body: req.store.accounts.list().map((a) => accountJson(a, a.calendars, req.lang)) };
}

/**
 * A malformed address is 400; everything the CalDAV server made of a well-formed request (the
 * login refused, not a CalDAV server, not reachable, too slow, failing) is 422 with the field to
 * fix and the code saying which: this API did not fail, the account cannot be added as asked.
 * Not 502/504 (this server is no gateway, and a 5xx tells clients and tests that it broke), never
 * 401 (that is this API's own token).
 */
const CALDAV_STATUS: Record<CalDavErrorKind, { status: number; field: keyof typeof accountFields | null }> = {
  bad_url: { status: 400, field: 'url' },
  unauthorized: { status: 422, field: 'password' },
  forbidden: { status: 422, field: 'username' },
  not_caldav: { status: 422, field: 'url' },
  unreachable: { status: 422, field: 'url' },
  tls: { status: 422, field: 'url' },
  timeout: { status: 422, field: 'url' },
  server_error: { status: 422, field: null },
  too_large: { status: 422, field: null },
  redirected: { status: 422, field: 'url' },
  too_many_calendars: { status: 422, field: null },
  foreign_calendar: { status: 422, field: 'url' },
};

async function createAccount(req: ApiRequest): Promise<ApiResponse> {
  const v = req.values as { url: string; username: string; password: string; name?: string; calendars?: string[] };
  if (v.username.includes(':') || !v.username.trim()) throw invalidParam('username', 'invalid_username');
  const secrets = req.sync?.secrets;
  if (!secrets) throw new ApiError('account-no-secret-store', 503, 'account-no-secret-store');
  try {
    const added = await addAccount(req.store, secrets, { url: v.url, username: v.username, password: v.password, name: v.name, calendars: v.calendars });
    return { status: 201, body: accountJson(added.account, added.calendars, req.lang) };
  } catch (err) {
    if (err instanceof CalDavError) {
      const { status, field } = CALDAV_STATUS[err.kind];
      throw new ApiError(`caldav_${err.kind}`, status, err.messageKey, err.vars, field ? { field } : {});
    }
    if (err instanceof DuplicateAccountError) throw new ApiError('account-name-taken', 409, 'account-name-taken', { name: err.accountName }, { field: 'name' });
    if (err instanceof UnknownCalendarError) throw new ApiError('account-calendar-unknown', 422, 'account-calendar-unknown', { name: err.wanted, names: err.names }, { field: 'calendars' });
    throw err;
  }
}

async function deleteAccount(req: ApiRequest): Promise<ApiResponse> {
  const id = Number(req.path.id);
  if (!req.store.accounts.byId(id)) throw new ApiError('account-not-found', 404, 'account-not-found', { id });
  // A round under way writes into the account's calendars: it ends first, its requests aborted
  // (a server that never answers must not hold the removal).
  await req.sync?.cancel(id);
  const account = req.store.accounts.byId(id);
  if (!account) throw new ApiError('account-not-found', 404, 'account-not-found', { id });
  const before = accountJson(account, req.store.accounts.calendarsOf(id), req.lang);
  removeAccount(req.store, req.sync?.secrets, id);
  return { body: { ...before, deleted: true } };
}

function listCalendars(req: ApiRequest): ApiResponse {
  const names = accountNames(req.store);
  const sites = siteCalendars(req.store);
  return { body: req.store.accounts.calendars().map((c) => calendarJson(c, names, req.lang, sites)) };
}

function updateCalendar(req: ApiRequest): ApiResponse {
  const id = Number(req.path.id);
  const calendar = req.store.accounts.calendar(id);
  if (!calendar) throw new ApiError('calendar-not-found', 404, 'calendar-not-found', { id });
  const v = req.values as { name?: string; color?: string; visible?: boolean; synced?: boolean };
  // "On this computer" has no server: asking to sync it is a mistake worth saying, not ignoring.
  if (v.synced === true && calendar.account_id === null && !req.store.sites.byCalendar(id)) throw new ApiError('calendar-not-on-server', 422, 'calendar-not-on-server', { name: calendar.name }, { field: 'synced' });
  const row = req.store.write(() =>
    req.store.accounts.updateCalendar(id, {
      name: v.name?.trim(),
      color: v.color === undefined ? undefined : v.color || null,
      visible: v.visible,
      synced: calendar.account_id === null ? undefined : v.synced,
    }),
  )!;
  return { body: calendarJson(row, accountNames(req.store), req.lang, siteCalendars(req.store)) };
}

function createCalendar(req: ApiRequest): ApiResponse {
  const v = req.values as { name: string; color?: string };
  const row = req.store.write(() => req.store.accounts.createLocal(v.name.trim(), v.color || null));
  return { status: 201, body: calendarJson(row, accountNames(req.store), req.lang) };
}

const removeCalendarParams: ParamSet = {
  events: { kind: k.oneOf(REMOVED_CALENDAR_EVENTS), description: 'Its events: moved to another calendar of this computer (move_to), or deleted for good.', default: 'move' },
  move_to: { kind: k.integer({ min: 1 }), description: `Where its events go with events=move: a calendar of this computer (default ${LOCAL_CALENDAR_ID}, "On this computer").`, default: LOCAL_CALENDAR_ID },
};

function removeCalendar(req: ApiRequest): ApiResponse {
  const id = Number(req.path.id);
  const calendar = req.store.accounts.calendar(id);
  if (!calendar) throw new ApiError('calendar-not-found', 404, 'calendar-not-found', { id });
  // The first calendar is where events go when no other is named; accounts' and feeds' calendars
  // leave with their account or subscription.
  if (id === LOCAL_CALENDAR_ID || !req.store.accounts.isLocal(calendar)) throw new ApiError('calendar-not-removable', 400, 'calendar-not-removable', { name: calendar.name });
  const move = (req.values.events ?? 'move') === 'move';
  const moveTo = Number(req.values.move_to ?? LOCAL_CALENDAR_ID);
  if (move) {
    const target = req.store.accounts.calendar(moveTo);
    if (!target || moveTo === id || !req.store.accounts.isLocal(target)) throw invalidParam('move_to', 'invalid_move_to');
  }
  req.store.write(() => req.store.accounts.removeLocal(id, move ? moveTo : null));
  return { body: { id, removed: true, events: move ? 'moved' : 'deleted', ...(move ? { move_to: moveTo } : {}) } };
}

export const accountRoutes: RouteDef[] = [
  route('/accounts', [
    {
      methods: ['GET'],
      summary: 'CalDAV accounts (Almanac): name, server, user name, last sync, last error in words, and their calendars. Never a password.',
      args: {},
      write: true,
      response: 'object',
      errors: [],
      handler: listAccounts,
    },
    {
      methods: ['POST'],
      summary:
        'Add a CalDAV account (Almanac): finds its calendars (RFC 6764, principal, calendar home) and stores them with the account; the password goes to the keychain or an owner-only file. A malformed address is 400; a login refused, a server that is not CalDAV, cannot be reached, does not answer in time or fails is 422 with `data.field` and a code saying which; a name in use 409; nothing is stored then.',
      args: accountFields,
      body: true,
      creates: true,
      write: true,
      response: 'object',
      errors: [400, 409, 422, 503],
      handler: createAccount,
    },
  ]),
  route('/accounts/{id}', [
    {
      methods: ['DELETE'],
      summary: 'Remove a CalDAV account (Almanac): its calendars and their events leave this computer for good (the server keeps them), and its password is forgotten.',
      args: {},
      write: true,
      response: 'object',
      errors: [404],
      handler: deleteAccount,
    },
  ]),
  route('/calendars', [
    {
      methods: ['GET'],
      summary: 'The calendars (Almanac): id 1 "On this computer", then each CalDAV account\'s and each iCalendar subscription, with name, colour, shown or hidden, synced, read-only, and for a subscription its feed (`subscription`: url, refreshed_utc, last_error).',
      args: {},
      // Account names are the owner's business, even where events may be read without the token.
      write: true,
      response: 'object',
      errors: [],
      handler: listCalendars,
    },
    {
      methods: ['POST'],
      summary: 'Make another calendar of this computer\'s own (Almanac) with a name and a colour (#rrggbb); 201 with the calendar.',
      args: newCalendarFields,
      body: true,
      creates: true,
      write: true,
      response: 'object',
      errors: [400],
      handler: createCalendar,
    },
  ]),
  route('/calendars/{id}', [
    {
      methods: ['PATCH', 'POST'],
      summary: `Change a calendar (Almanac): name, colour, shown or hidden, synced. "On this computer" (id ${LOCAL_CALENDAR_ID}) can be renamed and recoloured, not synced or removed.`,
      args: calendarFields,
      body: true,
      write: true,
      response: 'object',
      errors: [400, 404, 422],
      handler: updateCalendar,
    },
    {
      methods: ['DELETE'],
      summary: `Remove a calendar of this computer's own (Almanac) other than "On this computer" (id ${LOCAL_CALENDAR_ID}): its events move to move_to (events=move, the default) or are deleted for good (events=delete), in one transaction. An account's or a subscription's calendar goes with its account or subscription.`,
      args: removeCalendarParams,
      write: true,
      response: 'object',
      errors: [400, 404],
      handler: removeCalendar,
    },
  ]),
];
