/**
 * One sync round of a website (issue 26): prove the login (a stripped Authorization header must
 * never read as "the site has nothing"), push what changed here, then pull what changed there.
 * Plain Node; never imports electron. Errors are kept as message keys, so each reader gets them
 * in their language.
 */
import type { Store } from '../store';
import type { SiteRow } from '../store/sites';
import type { WriteContext } from '../store/post-fields';
import type { UrlContext } from '../serialize/context';
import { storedError } from '../caldav/errors';
import { createSiteHttp, type SiteHttpOptions } from './http';
import { proveLogin, type SiteCapabilities } from './discovery';
import { SiteError } from './errors';
import { newReport, newRoundState, type SiteReport, type SiteRound } from './round';
import { pushSite } from './push';
import { pullSite } from './pull';

export interface SiteSyncDeps {
  store: Store;
  url: () => UrlContext;
  write: () => WriteContext;
  /** The HTTP client's limits and its fetch (tests). */
  http?: SiteHttpOptions;
}

export function capabilitiesOf(site: SiteRow): SiteCapabilities {
  let parsed: Partial<SiteCapabilities> = {};
  try {
    parsed = JSON.parse(site.capabilities) as Partial<SiteCapabilities>;
  } catch {
    // Not written by anyone else: an unreadable value is the empty one.
  }
  return { usersMe: parsed.usersMe ?? null, almanac: !!parsed.almanac, ifMatch: !!parsed.ifMatch };
}

export async function syncSite(deps: SiteSyncDeps, site: SiteRow, password: string): Promise<SiteReport> {
  const { store } = deps;
  const report = newReport(site);
  const http = createSiteHttp(site.api_root, { user: site.username, password }, deps.http);
  const caps = capabilitiesOf(site);
  const cx: SiteRound = { store, site, calendarId: site.calendar_id, http, apiRoot: site.api_root, caps, write: deps.write(), url: deps.url(), report, state: newRoundState() };
  let error: string | null = null;
  try {
    await proveLogin(http, site.api_root, caps, site.url);
    await pushSite(cx);
    await pullSite(cx);
  } catch (err) {
    report.ok = false;
    if (deps.http?.signal?.aborted) {
      // Stopped here (the site removed, the app quitting): not the site's fault, so no error is
      // kept (an abort reads as a timeout to the HTTP client); the next round resumes.
      report.error = 'The round was stopped.';
      report.transient = true;
      return report;
    }
    report.error = (err as Error).message;
    report.transient = err instanceof SiteError && err.transient;
    if (err instanceof SiteError) report.retryAfterMs = err.retryAfterMs;
    error = storedError(err);
  } finally {
    report.requests = http.requests;
    report.pending = store.sites.pendingCount(site.calendar_id);
  }
  store.write(() => store.sites.setResult(site.id, report.ok ? new Date().toISOString() : null, error));
  return report;
}
