/**
 * Repeating events against an independent engine (issue #14): every case of
 * test/fixtures/recurrence/dateutil-cases.json (random rules in random zones, many across DST
 * changes, written by python-dateutil from scripts/recurrence-oracle.py) is created through the
 * API, and the occurrences the API lists in the case's window must be exactly the starts dateutil
 * gave. Rules over the documented bound (24 a day) must be refused with that reason.
 *
 * Each case is isolated by a word only its title has (a text search, so windows past the horizon
 * are generated as for any list) and trashed when checked, so later far windows do not write rows
 * for it. About 13 s of CPU on this machine (the wall time grows with the machine's load).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { expectInvalidParam } from './_support';

interface Case {
  id: number;
  zone: string;
  all_day: boolean;
  start: string;
  duration_s: number;
  recurrence: { rules: string[]; rdates: string[]; exdates: string[] };
  window: { from: string; to: string };
  expected?: string[];
  refused?: string;
}

const fixture = JSON.parse(readFileSync(join(__dirname, '../../fixtures/recurrence/dateutil-cases.json'), 'utf8')) as { seed: number; cases: Case[] };

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  // List bounds are read in the site's zone: UTC has no DST gap to move a bound.
  t.server.store.settings.update({ timezone: 'UTC' });
});
afterAll(async () => {
  await t?.close();
});

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
/** Wall-clock arithmetic on `Y-m-d H:i:s` (no zone: the API's end is its start plus the duration in wall time). */
function addSeconds(wall: string, s: number): string {
  const d = new Date(Date.UTC(+wall.slice(0, 4), +wall.slice(5, 7) - 1, +wall.slice(8, 10), +wall.slice(11, 13), +wall.slice(14, 16), +wall.slice(17, 19)) + s * 1000);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

const RUN = Math.random().toString(36).slice(2, 8);
const word = (c: Case) => `orc${c.id}q${RUN}`;

const icalOf = (c: Case) => (c.all_day ? c.start.slice(0, 10).replace(/-/g, '') : c.start.replace(/[-:]/g, '').replace(' ', 'T'));
/** Cases whose EXDATE names DTSTART: RFC 5545 §3.8.5.1 excludes the first occurrence too. */
const excludesStart = (c: Case) => c.recurrence.exdates.includes(icalOf(c));

interface Outcome {
  c: Case;
  got?: string[];
  error?: string;
}

/** Creates the case's series and answers what the API lists in its window (or checks it was refused). */
async function run(c: Case): Promise<Outcome> {
  const body = {
    title: `Oracle ${word(c)}`,
    timezone: c.zone,
    all_day: c.all_day,
    start_date: c.all_day ? c.start.slice(0, 10) : c.start,
    end_date: c.all_day ? c.start.slice(0, 10) : addSeconds(c.start, c.duration_s),
    recurrence: c.recurrence,
  };
  const created = await t.api('post', 'events').send(body);
  if (c.refused) {
    expectInvalidParam(created, 'recurrence');
    expect(created.body.data.details.recurrence.message, `case ${c.id}`).toContain(c.refused);
    return { c };
  }
  if (created.status !== 201) return { c, error: `refused ${created.status} ${JSON.stringify(created.body)}` };
  // strict_dates keeps events with start ≥ start_date and end ≤ end_date; the occurrences wanted
  // start in [from, to), so end_date is the last second before `to` plus the duration.
  const endDate = addSeconds(c.window.to, (c.all_day ? 86_399 : c.duration_s) - 1);
  const got: string[] = [];
  for (let page = 1; ; page++) {
    // The series' own list (post_parent): its window is made whole whatever the other cases need.
    const res = await t.api('get', 'events').query({ post_parent: created.body.id, start_date: c.window.from, end_date: endDate, strict_dates: true, per_page: 50, page });
    if (res.status === 404 && page > 1) break;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    got.push(...res.body.events.map((e: { start_date: string }) => e.start_date));
    if (page >= Number(res.headers['x-wp-totalpages'])) break;
  }
  // post_parent lists the other occurrences; the first event is the series itself, read on its
  // own (gone, 404, when an EXDATE names its start).
  const read = await t.api('get', `events/${created.body.id}`);
  expect([200, 404]).toContain(read.status);
  const first = read.body as { start_date: string; end_date: string };
  if (read.status === 200 && first.start_date >= c.window.from && first.end_date <= endDate) got.push(first.start_date);
  // Out of the way: a later list of a window past the horizon writes rows for every series that
  // has occurrences there.
  const trashed = await t.api('delete', `events/${created.body.id}`).query({ recurrence_scope: 'all' });
  expect(trashed.status, JSON.stringify(trashed.body)).toBe(200);
  return { c, got: got.sort() };
}

function disagreement({ c, got, error }: Outcome): string | null {
  const where = `case ${c.id} ${c.zone}${c.all_day ? ' all-day' : ''} start ${c.start} ${JSON.stringify(c.recurrence)} window [${c.window.from}, ${c.window.to})`;
  if (error) return `${where}: ${error}`;
  if (!got) return null;
  const want = c.expected!;
  if (JSON.stringify(got) === JSON.stringify(want)) return null;
  const missing = want.filter((x) => !got.includes(x));
  const extra = got.filter((x) => !want.includes(x));
  return `${where}: ${got.length} listed, ${want.length} expected; missing ${JSON.stringify(missing.slice(0, 8))} extra ${JSON.stringify(extra.slice(0, 8))}`;
}

async function runAll(cases: Case[]): Promise<Outcome[]> {
  const out: Outcome[] = [];
  // A few requests at a time: the server answers one at a time anyway, this only keeps it busy.
  const BATCH = 8;
  for (let i = 0; i < cases.length; i += BATCH) out.push(...(await Promise.all(cases.slice(i, i + BATCH).map(run))));
  return out;
}

describe('occurrences listed by the API equal python-dateutil’s expansion', () => {
  const main = fixture.cases.filter((c) => !excludesStart(c));
  it(`for ${main.length} random rules in zones with DST (fixture seed ${fixture.seed})`, async () => {
    const failures = (await runAll(main)).map(disagreement).filter((f): f is string => f !== null);
    expect(failures, `${failures.length} of ${main.length} cases disagree:\n${failures.join('\n')}`).toEqual([]);
  }, 120_000);

  // An EXDATE naming DTSTART takes the first event out of the list (RFC 5545 §3.8.5.1).
  const startExcluded = fixture.cases.filter(excludesStart);
  let outcomes: Outcome[] = [];
  it(`creates and lists the ${startExcluded.length} cases whose EXDATE names DTSTART`, async () => {
    expect(startExcluded.length).toBeGreaterThanOrEqual(5);
    outcomes = await runAll(startExcluded);
    for (const o of outcomes) expect(o.error, `case ${o.c.id}`).toBeUndefined();
  }, 60_000);
  it('an EXDATE on DTSTART takes the first event out of the list', () => {
    expect(outcomes.length).toBe(startExcluded.length);
    expect(outcomes.map(disagreement).filter(Boolean)).toEqual([]);
  });

  it('the fixture covers what the issue lists', () => {
    const rules = fixture.cases.map((c) => c.recurrence.rules[0]);
    for (const part of ['FREQ=DAILY', 'FREQ=WEEKLY', 'FREQ=MONTHLY', 'FREQ=YEARLY', 'FREQ=HOURLY', 'INTERVAL=', 'BYMONTHDAY=-', 'BYMONTH=', 'BYSETPOS=', 'COUNT=', 'UNTIL=']) {
      expect(rules.filter((r) => r.includes(part)).length, part).toBeGreaterThanOrEqual(5);
    }
    expect(rules.filter((r) => /BYDAY=[^;]*[0-9](MO|TU|WE|TH|FR|SA|SU)/.test(r)).length).toBeGreaterThanOrEqual(10);
    expect(fixture.cases.filter((c) => c.recurrence.exdates.length).length).toBeGreaterThanOrEqual(30);
    expect(fixture.cases.filter((c) => c.recurrence.rdates.length).length).toBeGreaterThanOrEqual(30);
    expect(fixture.cases.filter((c) => c.all_day).length).toBeGreaterThanOrEqual(20);
    expect(fixture.cases.filter((c) => c.refused).length).toBeGreaterThanOrEqual(3);
    expect(new Set(fixture.cases.map((c) => c.zone)).size).toBeGreaterThanOrEqual(7);
    // Windows past the 24-month horizon, generated on demand.
    expect(fixture.cases.filter((c) => c.window.from > '2060').length).toBeGreaterThanOrEqual(10);
    expect(fixture.cases.reduce((n, c) => n + (c.expected?.length ?? 0), 0)).toBeGreaterThanOrEqual(3000);
  });
});
