/**
 * Two real Almanacs for the website tests (issue 26): `site` plays the website (its own data
 * directory, port and token), `here` is the Almanac that syncs with it, signing in as a WordPress
 * client does (HTTP Basic, the site's token as the application password) and finding the API
 * from the address as typed.
 */
import { expect } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import type { SiteReport } from '../../../electron/server/sites/round';
import type { SiteHttpOptions } from '../../../electron/server/sites/http';

export interface SitePair {
  site: TestServer;
  here: TestServer;
  siteId: number;
  calendarId: number;
  /** One round; fails the test when the round failed (unless `allowError`). */
  sync(allowError?: boolean): Promise<SiteReport>;
  /** The site's events (every status but trash, or trash), as its API lists them to an editor. */
  siteEvents(status?: string): Promise<Array<Record<string, any>>>;
  hereEvents(): Promise<Array<Record<string, any>>>;
  close(): Promise<void>;
}

export const FULL = { start_date: '1900-01-01 00:00:00', end_date: '2200-12-31 23:59:59', per_page: '50' };

/**
 * Every event `server` lists to an editor over the whole calendar, page after page; `query` narrows
 * it (`calendar`, `status`, `search`).
 */
export async function listedEvents(server: TestServer, query: Record<string, string> = {}): Promise<Array<Record<string, any>>> {
  const out: Array<Record<string, any>> = [];
  for (let page = 1; ; page++) {
    const res = await server.api('get', 'events').query({ ...FULL, ...query, page });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.events);
    if (page >= res.body.total_pages) break;
  }
  return out;
}

/** The titles of those events, sorted: two calendars compared title by title. */
export async function listedTitles(server: TestServer, query: Record<string, string> = {}): Promise<string[]> {
  return (await listedEvents(server, query)).map((e) => e.title as string).sort();
}

/**
 * The event of calendar `calendar` of `here` titled `title` (or, with `prefix`, whose title begins
 * so), found by search; `status` widens it past the published (to the trash, say).
 */
export async function hereEvent(here: TestServer, calendar: number, title: string, opts: { status?: string; prefix?: boolean } = {}): Promise<Record<string, any> | undefined> {
  const events = await listedEvents(here, { calendar: String(calendar), search: title, ...(opts.status ? { status: opts.status } : {}) });
  return events.find((e) => (opts.prefix ? e.title.startsWith(title) : e.title === title));
}

export const siteHttp = (extra: SiteHttpOptions = {}): SiteHttpOptions => ({ timeoutMs: 5000, ...extra });

export async function startHere(extra: SiteHttpOptions = {}): Promise<TestServer> {
  return startTestServer({ syncIntervalMs: 0, syncDebounceMs: 0, siteHttp: siteHttp(extra) });
}

export const apiRootOf = (site: TestServer) => `${site.server.url}/wp-json/cal/events/v1/`;

/**
 * Connects `here` to `site` through the API, as a user would; the first pull is awaited. `via`:
 * the address typed, when it is not the site's own (a recording proxy in front of it).
 */
export async function connect(here: TestServer, site: TestServer, extra: Record<string, unknown> = {}, via = site.server.url): Promise<{ siteId: number; calendarId: number }> {
  const res = await here.api('post', 'sites').send({ url: via, user: 'owner', password: site.server.token, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await here.server.sync.siteSettled(res.body.id);
  return { siteId: res.body.id, calendarId: res.body.calendar_id };
}

export async function startPair(extra: SiteHttpOptions = {}): Promise<SitePair> {
  const site = await startTestServer({ syncIntervalMs: 0, syncDebounceMs: 0 });
  const here = await startHere(extra);
  return pairOf(site, here);
}

export async function pairOf(site: TestServer, here: TestServer, connected?: { siteId: number; calendarId: number }): Promise<SitePair> {
  let ids = connected;
  const pair: SitePair = {
    site,
    here,
    get siteId() {
      return ids!.siteId;
    },
    get calendarId() {
      return ids!.calendarId;
    },
    async sync(allowError = false) {
      if (!ids) ids = await connect(here, site);
      const [report] = await here.server.sync.syncSitesNow([ids.siteId]);
      if (!allowError) expect(report.error, JSON.stringify(report)).toBeUndefined();
      return report;
    },
    siteEvents: (status?: string) => listedEvents(site, status ? { status } : {}),
    async hereEvents() {
      const out: Array<Record<string, any>> = [];
      for (let page = 1; ; page++) {
        const res = await here.api('get', 'events').query({ ...FULL, page, calendar: String(ids!.calendarId), status: 'publish,draft,pending,private,future' });
        if (res.status === 404 && page > 1) break;
        expect(res.status).toBe(200);
        out.push(...res.body.events);
        if (page >= res.body.total_pages) break;
      }
      return out;
    },
    async close() {
      await here.close();
      await site.close();
    },
  };
  return pair;
}
