/**
 * Website sync timings on loopback (issue 26 item 8), a second Almanac as the site, in its own
 * process (`npm run serve`) as a website would be:
 *   - the first pull of an N-event site, beside the time it takes only to GET all its pages (the
 *     floor: the same list requests, nothing stored), and their ratio (target ≤ 1.5);
 *   - a round with nothing changed on either side;
 *   - a round that pushes one changed event, with the push's requests (target ≤ 3).
 * `SITES_EVENTS=5000 npm run bench:sync-sites` (default 5000; a smoke run: SITES_EVENTS=300).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openDatabase, closeDatabase } from '/work/main/electron/server/store/db';
import { createStore } from '/work/main/electron/server/store';
import { createFileSecretStore } from '/work/main/electron/server/secrets';
import { addSite } from '/work/main/electron/server/sites/accounts';
import { syncSite } from '/work/main/electron/server/sites/sync';
import { FULL_WINDOW, PER_PAGE } from '/work/main/electron/server/sites/pull';

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

import { createSiteHttp } from '/work/main/electron/server/sites/http';
try {
  const paths = ['categories?hide_empty=false', 'tags?hide_empty=false', 'venues?', 'organizers?', `events?start_date=${FULL_WINDOW.start_date}&end_date=${FULL_WINDOW.end_date}`, `events?status=trash&start_date=${FULL_WINDOW.start_date}&end_date=${FULL_WINDOW.end_date}`];
  const floorFetch = async () => { const c0 = process.cpuUsage(); const t0 = performance.now(); let bytes = 0;
    for (const path of paths) for (let page = 1; ; page++) { const res = await fetch(`${siteUrl}/wp-json/cal/events/v1/${path}&per_page=${PER_PAGE}&page=${page}`, { headers: { Authorization: auth } }); const t = await res.text(); bytes += t.length; const body = JSON.parse(t); if (res.status !== 200 || page >= (body.total_pages ?? 1)) break; }
    return `fetch seq: ${ms(t0).toFixed(0)} ms cpu ${cpuMs(c0).toFixed(0)} bytes ${bytes}`; };
  const http = createSiteHttp(siteUrl, { user: 'b', password: TOKEN });
  const floorHttp = async (ahead: number) => { const c0 = process.cpuUsage(); const t0 = performance.now();
    for (const path of paths) { let total = 1; const q: Promise<any>[] = []; let asked = 0;
      const ask = () => { asked++; const p = http.request('GET', `${siteUrl}/wp-json/cal/events/v1/${path}&per_page=${PER_PAGE}&page=${asked}`); p.catch(() => {}); q.push(p); };
      ask(); for (let page = 1; q.length; page++) { const a = await q.shift(); total = (a.json as any)?.total_pages ?? 1; if (a.status !== 200 || page >= total) { await Promise.allSettled(q.splice(0)); break; } while (asked < total && asked < page + ahead) ask(); } }
    return `sitehttp ahead ${ahead}: ${ms(t0).toFixed(0)} ms cpu ${cpuMs(c0).toFixed(0)}`; };
  for (let i = 0; i < 3; i++) { console.log(await floorFetch()); console.log(await floorHttp(1)); console.log(await floorHttp(8)); }
} finally {
  site.kill('SIGTERM');
  await new Promise((r) => site.once('exit', r));
  rmSync(siteDir, { recursive: true, force: true });
}
