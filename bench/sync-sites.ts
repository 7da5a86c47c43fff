/**
 * Website sync timings on loopback (issue 26 item 8), a second Almanac as the site, in its own
 * process (`npm run serve`) as a website would be:
 *   - the first pull of an N-event site, beside the time it takes only to GET all its pages (the
 *     floor: the same list requests, nothing stored), and their ratio (target ≤ 1.5); beside them,
 *     what storing those rows alone costs here, nothing checked (bench/transfer.ts's write floor);
 *   - a round with nothing changed on either side;
 *   - a round that pushes one changed event, with the push's requests (target ≤ 3).
 * `SITES_EVENTS=5000 npm run bench:sync-sites` (default 5000; a smoke run: SITES_EVENTS=300).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openDatabase, closeDatabase } from '../electron/server/store/db';
import { createStore } from '../electron/server/store';
import { createFileSecretStore } from '../electron/server/secrets';
import { addSite } from '../electron/server/sites/accounts';
import { syncSite } from '../electron/server/sites/sync';
import { FULL_WINDOW, PER_PAGE } from '../electron/server/sites/pull';
import { measureWriteFloor } from './transfer';

const N = Number(process.env.SITES_EVENTS ?? 5000);
const root = resolve(import.meta.dirname, '..');
const TOKEN = 'bench-site-token-0123456789abcdef';

// The site's calendar, written straight into its file: N API creates would measure the site.
const siteDir = mkdtempSync(join(tmpdir(), 'almanac-sitebench-site-'));
{
  const db = openDatabase(join(siteDir, 'almanac.sqlite'));
  const store = createStore(db);
  const ctx = { lang: 'en' as const, now: new Date(), siteZone: 'UTC' };
  store.write(() => {
    const venue = store.venues.create({ venue: 'Main Hall', address: '1 Main St' }, ctx).id;
    const organizer = store.organizers.create({ organizer: 'The Club', email: 'club@example.org' }, ctx).id;
    for (let i = 0; i < N; i++) {
      const day = String((i % 28) + 1).padStart(2, '0');
      const month = String((i % 12) + 1).padStart(2, '0');
      store.events.create({ title: `Event ${i}`, description: `About event ${i}\nSecond line`, start_date: `2031-${month}-${day} 10:00:00`, end_date: `2031-${month}-${day} 11:00:00`, timezone: 'Europe/Lisbon', venue, organizer: [organizer], categories: [`Cat ${i % 10}`], tags: [`tag${i % 7}`], cost: ['10'] }, ctx);
    }
  });
  closeDatabase(db);
}
const site = spawn(process.execPath, ['--import', 'tsx', join(root, 'electron/cli.ts'), 'serve', '--data-dir', siteDir, '--port', '0', '--token', TOKEN], { cwd: root, stdio: 'ignore' });
const discovery = join(siteDir, 'server.json');
for (let t = Date.now(); !existsSync(discovery); ) {
  if (Date.now() - t > 60_000) throw new Error('the site did not start');
  await new Promise((r) => setTimeout(r, 100));
}
const siteUrl = (JSON.parse(readFileSync(discovery, 'utf8')) as { url: string }).url;
const auth = `Basic ${Buffer.from(`bench:${TOKEN}`).toString('base64')}`;

const ms = (t0: number) => performance.now() - t0;
// This process's own CPU time (the site's is its process's): on a shared machine wall times wander
// with the others' load, CPU time much less.
const cpuMs = (c0: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};
const row = (label: string, value: string) => console.log(`${label.padEnd(58)} ${value}`);

try {
  // The floor: every page a pull lists, fetched and parsed, nothing stored.
  const floor = async () => {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    let requests = 0;
    for (const path of ['categories?hide_empty=false', 'tags?hide_empty=false', 'venues?', 'organizers?', `events?start_date=${FULL_WINDOW.start_date}&end_date=${FULL_WINDOW.end_date}`, `events?status=trash&start_date=${FULL_WINDOW.start_date}&end_date=${FULL_WINDOW.end_date}`]) {
      for (let page = 1; ; page++) {
        const res = await fetch(`${siteUrl}/wp-json/cal/events/v1/${path}&per_page=${PER_PAGE}&page=${page}`, { headers: { Authorization: auth } });
        requests++;
        const body = (await res.json()) as { total_pages?: number };
        if (res.status !== 200 || page >= (body.total_pages ?? 1)) break;
      }
    }
    return { ms: ms(t0), cpu: cpuMs(c0), requests };
  };
  await floor(); // the site's own first reading (its caches), as the pull will not pay it either
  const base = await floor();

  const dir = mkdtempSync(join(tmpdir(), 'almanac-sitebench-here-'));
  const db = openDatabase(join(dir, 'almanac.sqlite'));
  const store = createStore(db);
  const deps = { store, url: () => ({ origin: 'http://127.0.0.1', apiRoot: 'http://127.0.0.1/cal/events/v1/', settings: store.settings.get() }), write: () => ({ lang: 'en' as const, now: new Date(), siteZone: 'UTC' }) };
  const added = await addSite(store, createFileSecretStore(dir), { url: siteUrl, user: 'bench', password: TOKEN });
  let t0 = performance.now();
  const c0 = process.cpuUsage();
  const first = await syncSite(deps, store.sites.byId(added.id)!, TOKEN);
  const pull = ms(t0);
  const pullCpu = cpuMs(c0);
  if (!first.ok) throw new Error(first.error);
  const events = store.db.prepare('SELECT count(*) FROM events WHERE calendar_id = ?').pluck().get(added.calendar_id);
  row(`GET every page only (${base.requests} requests, the floor)`, `${base.ms.toFixed(0)} ms (this process's CPU ${base.cpu.toFixed(0)} ms)`);
  row(`first pull of a ${N}-event site (${first.requests} requests, ${events} events)`, `${pull.toFixed(0)} ms  = ${(pull / base.ms).toFixed(2)}x the floor (target ≤ 1.5x) (this process's CPU ${pullCpu.toFixed(0)} ms)`);

  // What storing alone costs here: the pulled events' rows, links and search index copied into an
  // empty file with prepared statements (nothing read from the network, nothing checked, no sync
  // copies kept): the least a pull can add to the floor while one thread both reads and stores.
  const storing = measureWriteFloor(join(dir, 'almanac.sqlite'));
  row(`  storing the pulled rows alone (prepared statements, nothing checked)`, `${(storing.seconds * 1000).toFixed(0)} ms; with the floor ${(base.ms + storing.seconds * 1000).toFixed(0)} ms = ${((base.ms + storing.seconds * 1000) / base.ms).toFixed(2)}x the floor`);

  t0 = performance.now();
  const idle = await syncSite(deps, store.sites.byId(added.id)!, TOKEN);
  row(`a round with nothing changed (${idle.requests} requests)`, `${ms(t0).toFixed(0)} ms; received ${idle.received.changed}, sent ${idle.sent.updated}`);

  const one = store.db.prepare('SELECT id FROM events WHERE calendar_id = ? LIMIT 1').pluck().get(added.calendar_id) as number;
  store.write(() => store.events.update(one, { title: 'Changed here' }, deps.write()));
  t0 = performance.now();
  const push = await syncSite(deps, store.sites.byId(added.id)!, TOKEN);
  row(`a round pushing one changed event (push: ${push.pushRequests} requests, target ≤ 3)`, `${ms(t0).toFixed(0)} ms; sent ${push.sent.updated} changed`);
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
} finally {
  site.kill('SIGTERM');
  await new Promise((r) => site.once('exit', r));
  rmSync(siteDir, { recursive: true, force: true });
}
