/**
 * Websites synced both ways (Almanac extension, issue 26): list, connect
 * (the API found and the login proven before anything is stored; `201`, then the first pull runs
 * in the background) and remove. Fields declared in shared/schema/sites.ts. A password goes in
 * and never comes out.
 */
import { siteFields, type SiteJson } from '../../../shared/schema/sites';
import { message } from '../../../shared/i18n/messages';
import { ApiError, invalidParam } from '../errors';
import { SiteError, SITE_ERROR_CODES } from '../sites/errors';
import { addSite, removeSite, SiteAlreadyConnected } from '../sites/accounts';
import { DuplicateSiteError, type SiteRow } from '../store/sites';
import { errorText } from '../caldav/errors';
import { capabilitiesOf } from '../sites/sync';
import { route, type ApiRequest, type ApiResponse, type RouteDef } from '../http/route-table';

export function siteJson(req: ApiRequest, s: SiteRow): SiteJson {
  const status = req.sync?.siteStatus(s.id, req.lang);
  const calendar = req.store.accounts.calendar(s.calendar_id);
  return {
    id: s.id,
    name: s.name,
    url: s.url,
    api_root: s.api_root,
    user: s.username,
    calendar_id: s.calendar_id,
    color: calendar?.color ?? null,
    created: s.created_utc,
    last_sync: s.last_sync_utc,
    last_error: status?.last_error ?? errorText(s.last_error, req.lang),
    // The sync service's status has counted them already; without one (no sync here), the store.
    pending: status?.pending ?? req.store.sites.pendingCount(s.calendar_id),
    conflicts: status?.conflicts ?? req.store.sites.conflictCount(s.calendar_id),
    state: status?.state ?? (s.last_error ? 'error' : 'ok'),
    repeats: capabilitiesOf(s).almanac,
    // Without a sync service here nothing is sent, so nothing is refused.
    refused: status?.refused ?? [],
  };
}

function listSites(req: ApiRequest): ApiResponse {
  return { body: req.store.sites.list().map((s) => siteJson(req, s)) };
}

/** 422 with the words on the field to fix; a malformed address 400. */
function fieldError(req: ApiRequest, code: string, status: number, field: string, key: Parameters<typeof message>[1], vars: Record<string, string | number>): ApiError {
  return new ApiError(code, status, key, vars, { params: { [field]: message(req.lang, key, vars) } });
}

async function createSite(req: ApiRequest): Promise<ApiResponse> {
  const v = req.values as { url: string; user: string; password: string; name?: string; color?: string; api_root?: string };
  if (v.user.includes(':') || !v.user.trim()) throw invalidParam('user', 'invalid_username');
  const secrets = req.sync?.secrets;
  if (!req.sync || !secrets) throw new ApiError('site-no-secret-store', 503, 'site_no_secret_store');
  let site: SiteRow;
  try {
    site = await addSite(req.store, secrets, { url: v.url, user: v.user.trim(), password: v.password, name: v.name, color: v.color || null }, { ...req.sync.siteHttp, apiRoot: v.api_root || undefined });
  } catch (err) {
    if (err instanceof SiteError) {
      const { code, field } = SITE_ERROR_CODES[err.kind];
      throw fieldError(req, code, err.kind === 'bad_url' ? 400 : 422, field, err.messageKey, err.vars);
    }
    if (err instanceof SiteAlreadyConnected) throw fieldError(req, 'site-duplicate', 422, 'url', 'site_duplicate', { name: err.existing.name });
    if (err instanceof DuplicateSiteError) throw fieldError(req, 'site-duplicate', 422, 'name', 'site_name_taken', { name: err.siteName });
    throw err;
  }
  // The first pull goes on in the background; GET /sync and GET /sites follow it.
  void req.sync.syncSitesNow([site.id]);
  return { status: 201, body: siteJson(req, site) };
}

async function deleteSite(req: ApiRequest): Promise<ApiResponse> {
  const id = Number(req.path.id);
  if (!req.store.sites.byId(id)) throw new ApiError('site-not-found', 404, 'site_missing', { id });
  // A round under way writes into the site's calendar: it ends first, its requests aborted.
  await req.sync?.cancelSite(id);
  const site = req.store.sites.byId(id);
  if (!site) throw new ApiError('site-not-found', 404, 'site_missing', { id });
  const previous = siteJson(req, site);
  removeSite(req.store, req.sync?.secrets, id);
  return { body: { deleted: true, previous } };
}

export const siteRoutes: RouteDef[] = [
  route('/sites', [
    {
      methods: ['GET'],
      summary: 'Websites synced both ways (Almanac): each with its calendar, last sync, last error in words, changes waiting, conflicts, state and `refused` (the records the site refused, as GET /sync gives them). Never a password.',
      args: {},
      write: true,
      response: 'object',
      errors: [],
      handler: listSites,
    },
    {
      methods: ['POST'],
      summary:
        'Connect a website that serves the events REST API (Almanac): its API is found from the address as typed (Link header, /wp-json/, ?rest_route=), the login is proven (a host that strips the Authorization header is told), and the site becomes a calendar; 201 with the site, and its first pull starts at once. A malformed address is 400; a refused password (site-unauthorized), an address that is not such a site or whose events API is off (site-not-found), a web page from a security plugin or firewall (site-blocked), an unreachable site or one whose certificate cannot be trusted (site-unreachable, the certificate told in words), a stripped login (site-anonymous) or a site connected already (site-duplicate) is 422 with the words under data.params.<field>; nothing is stored then.',
      args: siteFields,
      body: true,
      creates: true,
      write: true,
      response: 'object',
      errors: [400, 422, 503],
      handler: createSite,
    },
  ]),
  route('/sites/{id}', [
    {
      methods: ['DELETE'],
      summary: 'Remove a website (Almanac): its calendar and events leave this computer for good (the site keeps them), and its password is forgotten.',
      args: {},
      write: true,
      response: 'object',
      errors: [404],
      handler: deleteSite,
    },
  ]),
];
