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
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
const sess = new Session(); sess.connect(); await sess.post('Profiler.enable');
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

try {
  const recorded = new Map<string, { status: number; headers: [string, string][]; body: string }>();
  const keyOf = (u: string) => { const x = new URL(u); x.searchParams.delete('_almanac'); return x.href; };
  const recording: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    const body = await res.text();
    recorded.set(keyOf(String(input)), { status: res.status, headers: [...res.headers], body });
    return new Response(body, { status: res.status, headers: res.headers });
  };
  const replaying: typeof fetch = async (input) => {
    const r = recorded.get(keyOf(String(input)));
    if (!r) throw new Error('not recorded ' + input);
    return new Response(r.body, { status: r.status, headers: r.headers });
  };
  const once = async (f: typeof fetch) => {
    const dir = mkdtempSync(join(tmpdir(), 'almanac-apply-'));
    const db = openDatabase(join(dir, 'almanac.sqlite'));
    if (process.env.DROPTRIG) for (const t of process.env.DROPTRIG.split(',')) db.exec(`DROP TRIGGER ${t}`);
    const store = createStore(db);
    const deps = { store, http: { fetch: f }, url: () => ({ origin: 'http://127.0.0.1', apiRoot: 'http://127.0.0.1/cal/events/v1/', settings: store.settings.get() }), write: () => ({ lang: 'en' as const, now: new Date(), siteZone: 'UTC' }) };
    const added = await addSite(store, createFileSecretStore(dir), { url: siteUrl, user: 'bench', password: TOKEN });
    const t0 = performance.now(); const c0 = process.cpuUsage();
    const rep = await syncSite(deps, store.sites.byId(added.id)!, TOKEN);
    const out = { ms: ms(t0), cpu: cpuMs(c0), ok: rep.ok, n: store.db.prepare('SELECT count(*) FROM events WHERE calendar_id = ?').pluck().get(added.calendar_id) };
    closeDatabase(db); rmSync(dir, { recursive: true, force: true });
    return out;
  };
  console.log('record', await once(recording));
  const runs = [];
  for (let i = 0; i < Number(process.env.RUNS ?? 5); i++) runs.push(await once(replaying));
  if (process.env.PROF) { await sess.post('Profiler.start'); await once(replaying); const { profile } = await sess.post('Profiler.stop'); writeFileSync('/tmp/prof/apply.cpuprofile', JSON.stringify(profile)); }
  runs.sort((a, b) => a.cpu - b.cpu);
  console.log(runs.map((r) => `${r.ms.toFixed(0)}ms/${r.cpu.toFixed(0)}cpu`).join('  '), 'median cpu', runs[runs.length >> 1].cpu.toFixed(0), 'n', runs[0].n);
} finally {
  site.kill('SIGTERM');
  await new Promise((r) => site.once('exit', r));
  rmSync(siteDir, { recursive: true, force: true });
}
