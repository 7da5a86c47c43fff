/**
 * Killed (-9) in the middle of a website's sync, pulling and pushing (issue 26 item 7), against a
 * second real Almanac: the next round resumes, and nothing is lost or duplicated on either side.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { tempDir } from '../../helpers/temp-dir';
import { repoRoot, runCli } from '../../helpers/cli';
import { openDatabase, closeDatabase } from '../../../electron/server/store/db';
import { createStore, type Store } from '../../../electron/server/store';
import { DB_FILE } from '../../../electron/server/data-dir';
import { startProxy, type Proxy } from './_proxy';
import { listedTitles } from './_sites';

let site: TestServer;
let proxy: Proxy;
let dataDir: string;
let pw: string;

function withDir<T>(fn: (store: Store) => T): T {
  const db = openDatabase(join(dataDir, DB_FILE));
  try {
    return fn(createStore(db));
  } finally {
    closeDatabase(db);
  }
}

const siteTitles = () => listedTitles(site);

/** Runs the CLI and kills it (-9) once `when` says so (checked between the site's answers). */
async function killedWhen(args: string[], when: () => boolean): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'electron/cli.ts'), ...args], { cwd: repoRoot, stdio: 'ignore', env: { ...process.env, ALMANAC_TOKEN: '' } });
  const exited = new Promise((done) => child.once('exit', done));
  const deadline = Date.now() + 40_000;
  while (!when() && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 5));
  child.kill('SIGKILL');
  await exited;
}

beforeAll(async () => {
  site = await startTestServer({ syncIntervalMs: 0, syncDebounceMs: 0 });
  const ctx = { lang: 'en' as const, now: new Date(), siteZone: 'UTC' };
  site.server.store.write(() => {
    for (let i = 0; i < 300; i++) {
      const day = String((i % 28) + 1).padStart(2, '0');
      site.server.store.events.create({ title: `Site ${i}`, start_date: `2031-04-${day} 10:00:00`, end_date: `2031-04-${day} 11:00:00` }, ctx);
    }
  });
  proxy = await startProxy(site.server.url);
  dataDir = tempDir('almanac-kill-sites-');
  pw = join(tempDir('almanac-kill-sites-pw-'), 'pw');
  writeFileSync(pw, `${site.server.token}\n`, { mode: 0o600 });
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await site?.close();
});

describe('killed mid-sync', { timeout: 120_000 }, () => {
  it('while pulling: the next round takes the rest, each event once', async () => {
    const pages = () => proxy.sent.filter((s) => s.path.endsWith('/events') && s.query.get('page') === '3').length > 0;
    await killedWhen(['sites', 'add', '--url', proxy.url, '--user', 'owner', '--password-file', pw, '--name', 'Big', '--data-dir', dataDir], pages);
    const half = withDir((store) => store.db.prepare('SELECT count(*) FROM events e JOIN sites s ON s.calendar_id = e.calendar_id').pluck().get() as number);
    expect(half).toBeGreaterThan(0);
    expect(half).toBeLessThan(300);
    const r = await runCli(['sync', '--site', 'Big', '--data-dir', dataDir]);
    expect(r.code, r.out + r.err).toBe(0);
    const counts = withDir((store) => ({
      events: store.db.prepare('SELECT count(*) FROM events e JOIN sites s ON s.calendar_id = e.calendar_id').pluck().get(),
      titles: store.db.prepare('SELECT count(DISTINCT title) FROM events e JOIN sites s ON s.calendar_id = e.calendar_id').pluck().get(),
      waiting: store.db.prepare('SELECT count(*) FROM dav_outbox').pluck().get(),
    }));
    expect(counts).toEqual({ events: 300, titles: 300, waiting: 0 });
  });

  it('while pushing 40 new events: each once on the site, nothing waiting', async () => {
    const ctx = { lang: 'en' as const, now: new Date(), siteZone: 'UTC' };
    withDir((store) => {
      const calendar = store.sites.byName('Big')!.calendar_id;
      store.write(() => {
        for (let i = 0; i < 40; i++) store.events.create({ title: `Mine ${i}`, start_date: `2031-05-${String((i % 28) + 1).padStart(2, '0')} 10:00:00`, end_date: `2031-05-${String((i % 28) + 1).padStart(2, '0')} 11:00:00`, calendar }, ctx);
      });
    });
    const created = () => proxy.sent.filter((s) => s.method === 'POST' && s.path.endsWith('/events') && s.status === 201).length >= 5;
    proxy.clear();
    await killedWhen(['sync', '--site', 'Big', '--data-dir', dataDir], created);
    const sent = (await siteTitles()).filter((t) => t.startsWith('Mine ')).length;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(40);
    const r = await runCli(['sync', '--site', 'Big', '--data-dir', dataDir]);
    expect(r.code, r.out + r.err).toBe(0);
    const mine = (await siteTitles()).filter((t) => t.startsWith('Mine '));
    expect(mine).toHaveLength(40);
    expect(new Set(mine).size).toBe(40);
    const left = withDir((store) => ({ waiting: store.sites.pendingCount(store.sites.byName('Big')!.calendar_id), events: store.db.prepare("SELECT count(*) FROM events WHERE title LIKE 'Mine %'").pluck().get() }));
    expect(left).toEqual({ waiting: 0, events: 40 });
  });
});
