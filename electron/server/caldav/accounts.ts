/**
 * Adding and removing a CalDAV account: the one path the CLI (`accounts add|remove`) and the API
 * (`POST /accounts`, `DELETE /accounts/{id}`) both take, so a refused login, an unreachable server
 * or a duplicate name stores nothing whichever way the account was asked for.
 */
import type { Store } from '../store';
import { DuplicateAccountError, type AccountRow, type CalendarRow } from '../store/caldav-accounts';
import { accountSecretKey, type SecretStore } from '../secrets';
import { discoverAccount, type DiscoveredCalendar, type DiscoverOptions } from './discovery';

export interface NewAccountInput {
  /** The server's address, or just its domain. */
  url: string;
  username: string;
  password: string;
  /** What Almanac calls the account (default: the server's host). */
  name?: string;
  /** Calendars to sync, by display name or URL (default: every one the account has). */
  calendars?: string[];
}

/** `calendars` named one the account does not have. */
export class UnknownCalendarError extends Error {
  constructor(
    readonly wanted: string,
    readonly names: string,
  ) {
    super(`The account has no calendar "${wanted}". It has: ${names}.`);
  }
}

export interface AddedAccount {
  account: AccountRow;
  calendars: CalendarRow[];
  secretsKind: SecretStore['kind'];
}

/**
 * Discovers the account's calendars and stores the account, its calendars and its password, all
 * or nothing. Throws CalDavError (the server), DuplicateAccountError, UnknownCalendarError.
 */
export async function addAccount(store: Store, secrets: SecretStore, input: NewAccountInput, opts: DiscoverOptions = {}): Promise<AddedAccount> {
  const requestedName = input.name?.trim() || undefined;
  // Told before the network is asked: the answer cannot change it.
  if (requestedName && store.accounts.byName(requestedName)) throw new DuplicateAccountError(requestedName);
  const found = await discoverAccount(input.url, { user: input.username, password: input.password }, opts);
  const name = requestedName ?? new URL(found.serverUrl).host;
  const chosen = chooseCalendars(found.calendars, input.calendars);
  const account = store.write(() =>
    store.accounts.add(
      { name, serverUrl: found.serverUrl, username: input.username, principalUrl: found.principalUrl, homeUrl: found.homeUrl, createdUtc: new Date().toISOString() },
      found.calendars.map((c) => ({
        url: c.url,
        name: c.displayName,
        color: c.color,
        // Neither is kept yet: saved now, they would tell the first sync that nothing changed
        // and it would never pull what the calendar already holds. The first sync saves them.
        ctag: null,
        syncToken: null,
        hasSyncCollection: c.supportsSyncCollection,
        readOnly: c.readOnly,
        synced: chosen.has(c.url),
      })),
    ),
  );
  try {
    secrets.set(accountSecretKey(account.id), input.password);
  } catch (err) {
    // An account without its password would only fail at every sync: take it back out.
    store.write(() => store.accounts.remove(account.id));
    throw err;
  }
  return { account, calendars: store.accounts.calendarsOf(account.id), secretsKind: secrets.kind };
}

/** The calendars `wanted` names (by display name or URL), or all of them. */
function chooseCalendars(calendars: DiscoveredCalendar[], wanted: string[] | undefined): Set<string> {
  if (wanted === undefined) return new Set(calendars.map((c) => c.url));
  const out = new Set<string>();
  for (const raw of wanted.map((s) => s.trim()).filter(Boolean)) {
    const hit = calendars.find((c) => c.url === raw || c.displayName.toLowerCase() === raw.toLowerCase());
    if (!hit) throw new UnknownCalendarError(raw, calendars.map((c) => `"${c.displayName}"`).join(', ') || 'none');
    out.add(hit.url);
  }
  return out;
}

/**
 * Removes the account, its calendars and their events from this computer (the server keeps
 * them), and forgets its password. The account as it was, or undefined when there was none.
 */
export function removeAccount(store: Store, secrets: SecretStore | undefined, id: number): AccountRow | undefined {
  const account = store.accounts.byId(id);
  if (!account) return undefined;
  store.write(() => store.accounts.remove(account.id));
  secrets?.delete(accountSecretKey(account.id));
  return account;
}
