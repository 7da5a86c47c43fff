/**
 * The reminders' schedule at scale (issue 16): a calendar of 100,000 events with a reminder each
 * and 1,000 repeating series with two (BENCH_REMINDER_EVENTS, BENCH_REMINDER_SERIES to change),
 * then the time to find the next due firing and the list of due ones (target < 5 ms), the schedule's
 * part of one event's write and of a whole series' (target < 1 ms for an event), a whole update with
 * its schedule in its own transaction, and a full refill of the week's window (run in batches of
 * 200 events by the server).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, closeDatabase } from '../electron/server/store/db';
import { createStore } from '../electron/server/store';
import { FAST_TMP } from '../test/helpers/server';

const EVENTS = Number(process.env.BENCH_REMINDER_EVENTS ?? 100_000);
const SERIES = Number(process.env.BENCH_REMINDER_SERIES ?? 1_000);
const RUNS = 200;

const dir = mkdtempSync(join(FAST_TMP, 'almanac-bench-reminders-'));
const db = openDatabase(join(dir, 'almanac.sqlite'));
const store = createStore(db);
const now = new Date('2031-03-01T12:00:00Z');
const ctx = { lang: 'en' as const, now, siteZone: 'UTC' };
const ms = (start: number, n = 1) => ((performance.now() - start) / n).toFixed(3);

let t = performance.now();
store.write(() => {
  const search = store.events.deferSearchIndex();
  for (let i = 0; i < EVENTS; i++) {
    // Spread over four years, at every hour of the day.
    const start = new Date(Date.UTC(2030, 0, 1) + (i % 1500) * 86400_000 + (i % 24) * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
    const id = store.events.create({ title: `Event ${i}`, start_date: start, end_date: start, timezone: 'Europe/Lisbon' }, ctx);
    store.reminders.set(store.events.get(id)!, [{ action: 'display', trigger: '-PT15M' }], 'all');
  }
  for (let i = 0; i < SERIES; i++) {
    const day = `2031-0${1 + (i % 3)}-0${1 + (i % 9)}`;
    const id = store.events.create({ title: `Series ${i}`, start_date: `${day} 09:00:00`, end_date: `${day} 10:00:00`, timezone: 'America/New_York' }, ctx);
    store.series.create(id, { rules: [i % 2 ? 'FREQ=DAILY' : 'FREQ=WEEKLY;BYDAY=MO,WE,FR'] });
    store.reminders.set(store.events.get(id)!, [{ action: 'display', trigger: '-PT10M' }, { action: 'audio', trigger: '-P1D' }], 'all');
  }
  search.finish();
});
const rows = db.prepare('SELECT count(*) FROM events').pluck().get();
console.log(`calendar: ${EVENTS} events and ${SERIES} series (${rows} event rows), built in ${((performance.now() - t) / 1000).toFixed(1)} s`);

t = performance.now();
const scheduled = store.write(() => store.reminders.refill(now));
console.log(`refill of the week: ${scheduled} events scheduled in ${ms(t)} ms, ${db.prepare('SELECT count(*) FROM reminder_due').pluck().get()} firings`);

t = performance.now();
for (let i = 0; i < RUNS; i++) store.reminders.nextFire();
const next = ms(t, RUNS);
t = performance.now();
for (let i = 0; i < RUNS; i++) store.reminders.due(now);
console.log(`next due firing: ${next} ms; due list: ${ms(t, RUNS)} ms (target < 5 ms)`);

const singles = db.prepare("SELECT id FROM events WHERE parent_id IS NULL AND recurrence_id IS NULL AND start_utc > '2031-03-02' LIMIT ?").pluck().all(RUNS) as number[];
t = performance.now();
store.write(() => singles.forEach((id) => store.reminders.reschedule([id], now)));
const one = ms(t, singles.length);
const anchors = db.prepare('SELECT id FROM event_series LIMIT ?').pluck().all(RUNS) as number[];
t = performance.now();
store.write(() => anchors.forEach((id) => store.reminders.reschedule([id], now)));
console.log(`schedule part of a write: ${one} ms for an event (target < 1 ms), ${ms(t, anchors.length)} ms for a whole series`);

t = performance.now();
for (const id of singles.slice(0, 100)) {
  store.write(() => {
    store.events.update(id, { title: `Renamed ${id}` }, ctx);
    store.reminders.reschedule([id], now);
  });
}
console.log(`an event's update with its schedule, in its own transaction: ${ms(t, 100)} ms`);

closeDatabase(db);
rmSync(dir, { recursive: true, force: true });
