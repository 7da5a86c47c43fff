/**
 * `npm run cli -- sync [--account NAME | --site NAME]`: one sync round of the CalDAV accounts and
 * websites, for scripts and cron. Prints what
 * moved each way per calendar and exits non-zero when the sync failed.
 *
 * With Almanac running on the data directory, the running app does the round (`POST /sync`, then
 * `GET /sync` until it ends): in the desktop app the password is in the OS keychain, which only
 * the app can open. Otherwise the round runs here on the data directory, with the password from
 * the owner-only secrets file. Two rounds at once (the app's and this one) are safe: every send
 * is conditional (If-Match / If-None-Match), so the second meets the first's result, not a copy.
 */
import { parseArgs } from 'node:util';
import { defaultDataDir } from '../server/data-dir';
import { runningApp } from './common';
import type { AccountStatus } from '../server/caldav/service';
import type { SyncReport } from '../server/caldav/sync';
import type { SiteReport } from '../server/sites/round';
import { SYNC_HELP } from './help';

/** How long the CLI waits for a running app's round. */
const APP_ROUND_LIMIT_MS = 10 * 60_000;

export async function syncCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { account: { type: 'string' }, site: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean' } }, allowPositionals: false });
  if (values.help) {
    process.stdout.write(SYNC_HELP);
    return;
  }
  if (values.account !== undefined && values.site !== undefined) throw new Error('--account or --site, not both');
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const running = runningApp(dataDir);
  const { accounts, sites } = running ? await throughApp(running, values.account, values.site) : await here(dataDir, values.account, values.site);
  for (const line of [...describe(accounts), ...describeSites(sites)]) process.stdout.write(`${line}\n`);
  if (accounts.some((r) => !r.ok) || sites.some((r) => !r.ok)) process.exitCode = 1;
}

/** What moved with each website, in words. */
export function describeSites(reports: SiteReport[]): string[] {
  return reports.flatMap((r) => {
    const sent = `sent ${r.sent.created} new, ${r.sent.updated} changed, ${r.sent.deleted} deleted`;
    const received = `received ${r.received.changed} new or changed, ${r.received.deleted} deleted`;
    const extra = [
      r.merged ? `${r.merged} changed on both sides, merged` : '',
      r.conflicts ? `${r.conflicts} conflict${r.conflicts === 1 ? '' : 's'} (the site's version kept; yours is in GET /sync)` : '',
      r.pending ? `${r.pending} waiting to be sent` : '',
    ].filter(Boolean);
    return [
      `${r.site}: ${r.ok ? 'synced' : `FAILED: ${r.error}`}`,
      `  ${sent}; ${received}${extra.length ? `; ${extra.join('; ')}` : ''}`,
      ...r.problems.slice(0, 20).map((p) => `  not taken: ${p}`),
      ...r.refused.slice(0, 20).map((p) => `  not sent: ${p}`),
    ];
  });
}

function siteIds(sites: Array<{ id: number; name: string }>, name: string | undefined): number[] {
  if (name === undefined) return sites.map((s) => s.id);
  const hit = sites.find((s) => s.name.toLowerCase() === name.toLowerCase());
  if (!hit) throw new Error(`There is no site named "${name}".${sites.length ? ` There are: ${sites.map((s) => `"${s.name}"`).join(', ')}.` : ''}`);
  return [hit.id];
}

async function here(dataDir: string, accountName: string | undefined, siteName: string | undefined): Promise<{ accounts: SyncReport[]; sites: SiteReport[] }> {
  // Loaded only here: with the app running, the command needs none of the database or the sync.
  const [{ withCalendarFile, localContexts }, { createSyncService }] = await Promise.all([import('./calendar-file'), import('../server/caldav/service')]);
  return withCalendarFile(dataDir, async (store, secrets) => {
    const everything = accountName === undefined && siteName === undefined;
    if (everything && store.accounts.list().length === 0 && store.sites.list().length === 0) {
      throw new Error('There are no CalDAV accounts or websites. Add one with: npm run cli -- accounts add --url URL --user USER, or npm run cli -- sites add --url URL --user USER');
    }
    const ids = siteName !== undefined || (everything && store.accounts.list().length === 0) ? [] : accountIds(store.accounts.list(), accountName);
    const sites = accountName !== undefined ? [] : siteIds(store.sites.list(), siteName);
    const service = createSyncService({ store, secrets, ...localContexts(store), intervalMs: 0, debounceMs: 0 });
    const reports = ids.length ? await service.syncNow(ids) : [];
    const siteReports = sites.length ? await service.syncSitesNow(sites) : [];
    await service.close();
    return { accounts: reports, sites: siteReports };
  });
}

function accountIds(accounts: Array<{ id: number; name: string }>, name: string | undefined): number[] {
  if (accounts.length === 0) throw new Error('There are no CalDAV accounts. Add one with: npm run cli -- accounts add --url URL --user USER');
  if (name === undefined) return accounts.map((a) => a.id);
  const hit = accounts.find((a) => a.name.toLowerCase() === name.toLowerCase());
  if (!hit) throw new Error(`There is no account named "${name}". There are: ${accounts.map((a) => `"${a.name}"`).join(', ')}.`);
  return [hit.id];
}

type SiteState = { id: number; name: string; state: string; last_round: (SiteReport & { finished: string }) | null };

async function throughApp({ apiRoot, token }: { apiRoot: string; token: string }, accountName: string | undefined, siteName: string | undefined): Promise<{ accounts: SyncReport[]; sites: SiteReport[] }> {
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const started = new Date().toISOString();
  const res = await fetch(`${apiRoot}sync`, { method: 'POST', headers, body: JSON.stringify(accountName ? { account: accountName } : siteName ? { site: siteName } : {}) });
  const body = (await res.json()) as { message?: string; accounts?: AccountStatus[]; sites?: SiteState[] };
  if (res.status !== 202) throw new Error(body.message ?? `the running app answered ${res.status}`);
  const wanted = siteName !== undefined ? [] : body.accounts!.filter((a) => !accountName || a.name.toLowerCase() === accountName.toLowerCase()).map((a) => a.id);
  const wantedSites = accountName !== undefined ? [] : (body.sites ?? []).filter((s) => !siteName || s.name.toLowerCase() === siteName.toLowerCase()).map((s) => s.id);
  const deadline = Date.now() + APP_ROUND_LIMIT_MS;
  for (;;) {
    const state = (await (await fetch(`${apiRoot}sync`, { headers })).json()) as { accounts: AccountStatus[]; sites?: SiteState[] };
    const mine = state.accounts.filter((a) => wanted.includes(a.id));
    const mySites = (state.sites ?? []).filter((s) => wantedSites.includes(s.id));
    // Done once each account and site has a round that ended after this command asked for one.
    if (mine.every((a) => !a.syncing && a.last_round && a.last_round.finished >= started) && mySites.every((s) => s.state !== 'syncing' && s.last_round && s.last_round.finished >= started)) {
      return { accounts: mine.map((a) => a.last_round!), sites: mySites.map((s) => s.last_round!) };
    }
    if (Date.now() > deadline) throw new Error('the running app has not finished the sync round after 10 minutes');
    await new Promise((done) => setTimeout(done, 300));
  }
}

/** What moved, in words, per account and calendar. */
export function describe(reports: SyncReport[]): string[] {
  const lines: string[] = [];
  for (const r of reports) {
    lines.push(`${r.account}: ${r.ok ? 'synced' : `FAILED: ${r.error}`}`);
    for (const c of r.calendars) {
      const sent = `sent ${c.sent.created} new, ${c.sent.updated} changed, ${c.sent.deleted} deleted`;
      const received = `received ${c.received.changed} new or changed, ${c.received.deleted} deleted`;
      const extra = [c.merged ? `${c.merged} changed on both sides, merged` : '', c.conflicts ? `${c.conflicts} conflict${c.conflicts === 1 ? '' : 's'} (the server's version kept; yours is in GET /sync)` : '', c.pending ? `${c.pending} waiting to be sent` : '', c.error ? `error: ${c.error}` : ''].filter(Boolean);
      lines.push(`  ${c.name}: ${sent}; ${received}${extra.length ? `; ${extra.join('; ')}` : ''}`);
    }
  }
  return lines;
}
