/**
 * Connecting and removing websites, one code for the API and the CLI: discovery and the proof of
 * the login come first, and nothing is stored unless both worked; the password goes to the
 * secrets store (keychain or owner-only file), never into the database.
 */
import type { Store } from '../store';
import type { SecretStore } from '../secrets';
import { siteSecretKey } from '../secrets';
import type { SiteRow } from '../store/sites';
import { discoverSite, type DiscoverOptions } from './discovery';

export class SiteAlreadyConnected extends Error {
  constructor(readonly existing: SiteRow) {
    super(`This site is connected already, as "${existing.name}".`);
  }
}

export interface NewSiteInput {
  url: string;
  user: string;
  password: string;
  name?: string;
  color?: string | null;
}

/** The name a site gets when none is given: its host and path ("example.org/blog"). */
function defaultSiteName(url: string): string {
  const u = new URL(url);
  return `${u.host}${u.pathname}`.replace(/\/+$/, '');
}

export async function addSite(store: Store, secrets: SecretStore, input: NewSiteInput, opts: DiscoverOptions = {}): Promise<SiteRow> {
  const found = await discoverSite(input.url, { user: input.user, password: input.password }, opts);
  const existing = store.sites.byApiRoot(found.apiRoot);
  if (existing) throw new SiteAlreadyConnected(existing);
  const name = input.name?.trim() || defaultSiteName(found.url);
  // A name taken is refused by store.sites.add, in the transaction (DuplicateSiteError).
  const site = store.write(() =>
    store.sites.add({ name, url: found.url, apiRoot: found.apiRoot, username: input.user, color: input.color ?? null, capabilities: { ...found.capabilities }, createdUtc: new Date().toISOString() }),
  );
  try {
    secrets.set(siteSecretKey(site.id), input.password);
  } catch (err) {
    store.write(() => store.davSync.asServer(() => store.sites.remove(site.id)));
    throw err;
  }
  return site;
}

/** Removes a site, its calendar and events here (the site keeps its copies), and its password. */
export function removeSite(store: Store, secrets: SecretStore | undefined, id: number): boolean {
  const removed = store.write(() => store.davSync.asServer(() => store.sites.remove(id)));
  secrets?.delete(siteSecretKey(id));
  return removed;
}
