import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase, closeDatabase } from '/work/main/electron/server/store/db';
import { createStore } from '/work/main/electron/server/store';
const N = 5000;
const siteDir = mkdtempSync(join(tmpdir(), 'floor-'));
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
function run(label: string, opts: { defer: boolean; orIgnore: boolean; perPage: number; noTerms?: boolean }) {
  const target = mkdtempSync(join(tmpdir(), 'f2-'));
  const from = new Database(join(siteDir, 'almanac.sqlite'), { readonly: true });
  const db = openDatabase(join(target, 'almanac.sqlite'));
  const copy = (table: string, post?: string) => { const rows = from.prepare(`SELECT * FROM ${table}`).raw(true).all() as unknown[][]; if (!rows.length) return; const ins = db.prepare(`INSERT INTO ${table} VALUES (${rows[0].map(() => '?').join(',')})`); const reg = db.prepare('INSERT INTO posts (id, type) VALUES (?, ?)'); db.transaction(() => { for (const r of rows) { if (post) reg.run(r[0], post); ins.run(r); } })(); };
  copy('venues', 'venue'); copy('organizers', 'organizer'); copy('terms');
  const events = from.prepare('SELECT * FROM events ORDER BY id').raw(true).all() as unknown[][];
  const et = from.prepare('SELECT * FROM event_terms').raw(true).all() as unknown[][];
  const eo = from.prepare('SELECT * FROM event_organizers').raw(true).all() as unknown[][];
  const byE = (rows: unknown[][]) => { const m = new Map<unknown, unknown[][]>(); for (const r of rows) { const l = m.get(r[0]); if (l) l.push(r); else m.set(r[0], [r]); } return m; };
  const T = byE(et), O = byE(eo);
  const reg = db.prepare("INSERT INTO posts (id, type) VALUES (?, 'event')");
  const ins = db.prepare(`INSERT INTO events VALUES (${events[0].map(() => '?').join(',')})`);
  const lt = db.prepare(`INSERT ${opts.orIgnore ? 'OR IGNORE ' : ''}INTO event_terms VALUES (?, ?, ?)`);
  const lo = db.prepare('INSERT INTO event_organizers VALUES (?, ?, ?)');
  const so = db.prepare("INSERT INTO sync_objects (calendar_id, kind, local_id, uid, remote_id, version, base_json, base_hash) VALUES (1, 'event', ?, ?, ?, ?, ?, ?)");
  const base = JSON.stringify({ title: 'Event 1234', description: 'About event 1234\nSecond line', excerpt: '', status: 'publish', date: '2026-11-28 10:00:00', start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00', all_day: false, timezone: 'Europe/Lisbon', cost: ['10'], website: '', featured: false, sticky: false, show_map: true, show_map_link: true, hide_from_listings: false, venue: 1, organizer: [2], categories: [3], tags: [4] });
  const t = performance.now();
  for (let p = 0; p < events.length; p += opts.perPage) {
    db.transaction(() => {
      const search = opts.defer ? createStore(db).events.deferSearchIndex() : undefined;
      for (const row of events.slice(p, p + opts.perPage)) {
        reg.run(row[0]); ins.run(row);
        if (!opts.noTerms) for (const l of T.get(row[0]) ?? []) lt.run(l);
        for (const l of O.get(row[0]) ?? []) lo.run(l);
        so.run(row[0], `uid-${row[0]}`, row[0], '2026', base, 'abcdef0123456789abcdef0123456789');
      }
      search?.finish();
    })();
  }
  console.log(label.padEnd(40), (performance.now() - t).toFixed(0), 'ms');
  from.close(); closeDatabase(db); rmSync(target, { recursive: true, force: true });
}
for (let k = 0; k < 2; k++) {
  run('all, one tx, deferred fts', { defer: true, orIgnore: false, perPage: 5000 });
  run('all, one tx, fts trigger', { defer: false, orIgnore: false, perPage: 5000 });
  run('per page 50, fts trigger', { defer: false, orIgnore: false, perPage: 50 });
  run('per page 50, fts trigger, or ignore', { defer: false, orIgnore: true, perPage: 50 });
  run('per page 50, fts trigger, no terms', { defer: false, orIgnore: true, perPage: 50, noTerms: true });
  run('per page 500, fts trigger', { defer: false, orIgnore: false, perPage: 500 });
}
