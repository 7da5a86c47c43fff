/**
 * `npm run cli -- sync [--account NAME]`: one CalDAV sync round, for scripts and cron. Prints what
 * moved each way per calendar and exits non-zero when the sync failed.
 *
 * With Almanac running on the data directory, the running app does the round (`POST /sync`, then
 * `GET /sync` until it ends): in the desktop app the password is in the OS keychain, which only
 * the app can open. Otherwise the round runs here on the data directory, with the password from
 * the owner-only secrets file. Two rounds at once (the app's and this one) are safe: every send
 * is conditional (If-Match / If-None-Match), so the second meets the first's result, not a copy.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultDataDir, ensureDataDir, DB_FILE } from '../server/data-dir';
import { runningApp } from './common';
import type { AccountStatus } from '../server/caldav/service';
import type { SyncReport } from '../server/caldav/sync';
import { DEFAULT_LANGUAGE } from '../../shared/i18n/languages';
import { SYNC_HELP } from './help';

/** How long the CLI waits for a running app's round. */
const APP_ROUND_LIMIT_MS = 10 * 60_000;

export async function syncCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { account: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean' } }, allowPositionals: false });
  if (values.help) {
    process.stdout.write(SYNC_HELP);
    return;
  }
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const running = runningApp(dataDir);
  const reports = running ? await throughApp(running, values.account) : await here(dataDir, values.account);
  for (const line of describe(reports)) process.stdout.write(`${line}\n`);
  if (reports.some((r) => !r.ok)) process.exitCode = 1;
}

async function here(dataDir: string, accountName: string | undefined): Promise<SyncReport[]> {
  // Loaded only here: with the app running, the command needs none of the database or the sync.
  const [{ openDatabase, closeDatabase }, { createStore }, { createFileSecretStore }, { createSyncService }] = await Promise.all([
    import('../server/store/db'),
    import('../server/store'),
    import('../server/secrets'),
    import('../server/caldav/service'),
  ]);
  ensureDataDir(dataDir);
  const db = openDatabase(join(dataDir, DB_FILE));
  try {
    const store = createStore(db);
    const ids = accountIds(store.accounts.list(), accountName);
    const origin = 'http://127.0.0.1';
    const service = createSyncService({
      store,
      secrets: createFileSecretStore(dataDir),
      url: () => ({ origin, apiRoot: `${origin}/cal/events/v1/`, settings: store.settings.get() }),
      write: () => ({ lang: DEFAULT_LANGUAGE, now: new Date(), siteZone: store.settings.get().timezone }),
      intervalMs: 0,
      debounceMs: 0,
    });
    const reports = await service.syncNow(ids);
    await service.close();
    return reports;
  } finally {
    closeDatabase(db);
  }
}

function accountIds(accounts: Array<{ id: number; name: string }>, name: string | undefined): number[] {
  if (accounts.length === 0) throw new Error('There are no CalDAV accounts. Add one with: npm run cli -- accounts add --url URL --user USER');
  if (name === undefined) return accounts.map((a) => a.id);
  const hit = accounts.find((a) => a.name.toLowerCase() === name.toLowerCase());
  if (!hit) throw new Error(`There is no account named "${name}". There are: ${accounts.map((a) => `"${a.name}"`).join(', ')}.`);
  return [hit.id];
}

async function throughApp({ apiRoot, token }: { apiRoot: string; token: string }, accountName: string | undefined): Promise<SyncReport[]> {
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const started = new Date().toISOString();
  const res = await fetch(`${apiRoot}sync`, { method: 'POST', headers, body: JSON.stringify(accountName ? { account: accountName } : {}) });
  const body = (await res.json()) as { message?: string; accounts?: AccountStatus[] };
  if (res.status !== 202) throw new Error(body.message ?? `the running app answered ${res.status}`);
  const wanted = body.accounts!.filter((a) => !accountName || a.name.toLowerCase() === accountName.toLowerCase()).map((a) => a.id);
  const deadline = Date.now() + APP_ROUND_LIMIT_MS;
  for (;;) {
    const state = (await (await fetch(`${apiRoot}sync`, { headers })).json()) as { accounts: AccountStatus[] };
    const mine = state.accounts.filter((a) => wanted.includes(a.id));
    // Done once each account has a round that ended after this command asked for one.
    if (mine.every((a) => !a.syncing && a.last_round && a.last_round.finished >= started)) return mine.map((a) => a.last_round!);
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
