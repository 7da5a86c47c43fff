/**
 * WordPress's "authorize application" flow for "Connect a website…" (issue 26 item 1), in the
 * desktop app: the site's approval page opens in the user's browser, and the application password
 * it makes comes back through an `almanac://site-authorized?site_url=…&user_login=…&password=…`
 * link, which the system hands to this app (`open-url` on macOS, the second instance's command line
 * on Windows and Linux). The dialog is then filled in; pasting a password stays the fallback.
 *
 * A link is taken only as the answer to an approval this app asked for in the last 15 minutes, on
 * that site: a page that opens `almanac://site-authorized` on its own cannot slip a login in.
 */
import type { SiteAuthorizeResult } from '../../shared/desktop-bridge';
import { apiLink, normalizeSiteUrl } from '../server/sites/discovery';

export const PROTOCOL = 'almanac';
export const CALLBACK = `${PROTOCOL}://site-authorized`;
/** Almanac's application id, the same for every install (WordPress lists the passwords under it). */
export const APP_ID = '6f1c2d7e-3b4a-4c5d-9e8f-a1b2c3d4e5f6';
const PENDING_MS = 15 * 60_000;
const FETCH_TIMEOUT_MS = 15_000;
const MAX_INDEX_BYTES = 4 * 1024 * 1024;

/** The approval page's address, as WordPress's `authorize-application.php` takes it. */
export function authorizationUrl(endpoint: string, appName = 'Almanac'): string {
  const u = new URL(endpoint);
  u.searchParams.set('app_name', appName);
  u.searchParams.set('app_id', APP_ID);
  u.searchParams.set('success_url', CALLBACK);
  u.searchParams.set('reject_url', `${CALLBACK}?success=false`);
  return u.href;
}

/**
 * The site's address as the server reads it when it connects (`normalizeSiteUrl`: https unless
 * typed otherwise or this computer), as a base for the paths asked below.
 */
export function siteBase(address: string): URL | undefined {
  try {
    return new URL(`${normalizeSiteUrl(address)}/`);
  } catch {
    return undefined;
  }
}

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text.length > MAX_INDEX_BYTES) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The site's approval page, read from its `/wp-json/` index (`authentication.application-passwords
 * .endpoints.authorization`), found as WordPress clients find it: the `Link` header of the site's
 * address, else `/wp-json/`, else `?rest_route=/`. This reads one address; finding and checking
 * the events API is the server's (`POST /sites`).
 */
export async function findAuthorizationEndpoint(address: string, fetchImpl: Fetch): Promise<SiteAuthorizeResult | { status: 'found'; endpoint: string; site: URL }> {
  const base = siteBase(address);
  if (!base) return { status: 'failed', reason: 'bad-address' };
  const get = (url: string) => fetchImpl(url, { headers: { Accept: 'application/json' }, redirect: 'follow', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  const candidates: string[] = [];
  try {
    const front = await get(base.href);
    const link = apiLink(front.headers.get('link'), base.href);
    if (link) candidates.push(link);
    await front.body?.cancel().catch(() => {});
  } catch {
    return { status: 'failed', reason: 'unreachable' };
  }
  candidates.push(new URL('wp-json/', base).href, `${base.href}?rest_route=/`);
  for (const url of [...new Set(candidates)]) {
    let index: unknown;
    try {
      const res = await get(url);
      if (!res.ok) continue;
      index = await readJson(res);
    } catch {
      continue;
    }
    const auth = (index as { authentication?: Record<string, { endpoints?: { authorization?: unknown } }> } | undefined)?.authentication;
    if (!index || typeof index !== 'object' || !('namespaces' in index)) continue;
    const endpoint = auth?.['application-passwords']?.endpoints?.authorization;
    if (typeof endpoint !== 'string') return { status: 'failed', reason: 'no-authorization' };
    try {
      const u = new URL(endpoint);
      // The password comes back in the approval page's redirect: never over plain http elsewhere.
      if (u.protocol !== 'https:' && !isLoopback(u.hostname)) return { status: 'failed', reason: 'no-authorization' };
      return { status: 'found', endpoint: u.href, site: base };
    } catch {
      return { status: 'failed', reason: 'no-authorization' };
    }
  }
  return { status: 'failed', reason: 'not-a-site' };
}

const isLoopback = (host: string) => host === 'localhost' || host === '127.0.0.1' || host === '[::1]';

/** What an `almanac://site-authorized` link says. */
export type AuthorizeCallback = { approved: true; siteUrl: string; user: string; password: string } | { approved: false; siteUrl?: string };

export function parseCallback(link: string): AuthorizeCallback | undefined {
  let u: URL;
  try {
    u = new URL(link);
  } catch {
    return undefined;
  }
  if (`${u.protocol}//${u.host}` !== CALLBACK) return undefined;
  const q = u.searchParams;
  if (q.get('success') === 'false') return { approved: false, siteUrl: q.get('site_url') ?? undefined };
  const siteUrl = q.get('site_url');
  const user = q.get('user_login');
  const password = q.get('password');
  if (!siteUrl || !user || !password) return undefined;
  return { approved: true, siteUrl, user, password };
}

/** The `almanac://` link among a launch's arguments (Windows and Linux pass it so). */
export function linkFromArgv(argv: readonly string[]): string | undefined {
  return argv.find((a) => a.toLowerCase().startsWith(`${PROTOCOL}://`));
}

/** What the flow hands the page: the fields of the "Connect a website" dialog. */
export interface Authorized {
  url: string;
  user: string;
  password: string;
}

export interface SiteAuthorizerDeps {
  fetch: Fetch;
  openExternal(url: string): Promise<unknown> | unknown;
  /** The approval came back: fill in the dialog (the page decides to connect). */
  deliver(authorized: Authorized): void;
  now?: () => number;
  log?: (line: string) => void;
}

export function createSiteAuthorizer(deps: SiteAuthorizerDeps) {
  const now = deps.now ?? Date.now;
  /** Approvals asked for: the site's address as typed, by its host. */
  const pending = new Map<string, { typed: string; at: number }>();

  return {
    /** Opens the site's approval page in the browser. */
    async start(address: string): Promise<SiteAuthorizeResult> {
      const found = await findAuthorizationEndpoint(address, deps.fetch);
      if (found.status !== 'found') return found;
      pending.set(found.site.host.toLowerCase(), { typed: address.trim(), at: now() });
      await deps.openExternal(authorizationUrl(found.endpoint));
      return { status: 'opened' };
    },
    /** A link the system handed the app; true when it was an approval this app was waiting for. */
    handleLink(link: string): boolean {
      const answer = parseCallback(link);
      if (!answer) return false;
      let host: string;
      try {
        host = new URL(answer.siteUrl ?? '').host.toLowerCase();
      } catch {
        deps.log?.('an almanac:// link without a site address was ignored');
        return false;
      }
      const asked = pending.get(host);
      if (!asked || now() - asked.at > PENDING_MS) {
        deps.log?.(`an almanac:// link for ${host}, which no approval was asked of, was ignored`);
        return false;
      }
      pending.delete(host);
      if (!answer.approved) return true;
      deps.deliver({ url: asked.typed, user: answer.user, password: answer.password });
      return true;
    },
  };
}

export type SiteAuthorizer = ReturnType<typeof createSiteAuthorizer>;
