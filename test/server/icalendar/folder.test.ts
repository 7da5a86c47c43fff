/**
 * Every calendar of python icalendar's test suite (163 files from Google, Thunderbird, Outlook,
 * Etar, RFC examples, fuzzed and broken files; test/fixtures/ics/python-icalendar/, BSD-2-Clause),
 * imported through the API and through the CLI, checked for what needs no oracle: no crash and no
 * 5xx, nothing written by a refused file, a line in every refusal, the same verdict and message from
 * both, at least one event from every good file with a VEVENT that has a DTSTART, and each single
 * event's (and each series' first) stored start as ical.js reads DTSTART.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { importCommand } from '../../../electron/cli/transfer';
import { FAST_TMP, startTestServer, type TestServer } from '../../helpers/server';

const folder = join(import.meta.dirname, '../../fixtures/ics/python-icalendar');
const files: string[] = [];
(function walk(dir: string) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.ics')) files.push(path);
  }
})(folder);

/**
 * Files refused as broken although ical.js reads a DTSTART in them, each for what is wrong with it
 * (a line ical.js skips or guesses at, a truncated file): refusing them is the point.
 */
const BROKEN_WITH_DTSTART: Record<string, RegExp> = {
  'calendars/big_bad_calendar.ics': /^The file ends at line 41 inside VCALENDAR/,
  'calendars/broken_ical.ics': /^Line 4 is not a valid iCalendar line \(malformed parameter/,
  'calendars/invalid_duration.ics': /^Line 8: the duration "P999999999999999999W" is longer than 100 years/,
  'calendars/issue_104_broken_calendar.ics': /^Line 13 is not a valid iCalendar line/,
  'calendars/issue_168_input.ics': /^Line 6 is not a valid iCalendar line/,
  'calendars/issue_348_exception_parsing_value.ics': /^Line 8 is not a valid iCalendar line/,
  'calendars/issue_351_whitespace_in_property_and_params.ics': /^Line 4 is not a valid iCalendar line \(expected ":" after "REFRESH"\)/,
  'calendars/pr_480_summary_with_colon.ics': /^The file ends at line 7 inside VCALENDAR/,
  'calendars/small_bad_calendar.ics': /^The file ends at line 3 inside VCALENDAR/,
  'calendars/timezone_rdate.ics': /^Line 53 is not a valid iCalendar line/,
  'calendars/timezone_same_start_and_offset.ics': /^Line 23: "END:VCALENDARD" does not close/,
  'events/event_with_escaped_character3.ics': /^Line 2 is not a valid iCalendar line/,
  'events/event_with_escaped_characters.ics': /^Line 2 is not a valid iCalendar line/,
  'events/issue_104_mark_events_broken.ics': /^Line 9 is not a valid iCalendar line/,
};

interface Expected {
  line: number;
  /** `Y-m-d H:i:s`: in UTC when `utc`, else the wall time written. */
  start: string;
  utc: boolean;
  allDay: boolean;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const wall = (t: InstanceType<typeof ICAL.Time>) => `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;

/**
 * What ical.js reads as the DTSTART of each VEVENT it can read, with the line the VEVENT begins on.
 * Times in a zone the file defines are compared as instants (ical.js converts them with it), other
 * zoned times and floating ones as written (Almanac keeps the wall time of IANA and unknown zones).
 * For a series, its first occurrence as ical.js expands it; only series without EXDATE and without
 * an override of that UID in the file (their first occurrence may then be another VEVENT).
 */
function oracle(text: string): { vevents: number; starts: Expected[] } {
  const body = text.replace(/^\uFEFF/, '');
  const bare = !/^\s*BEGIN:VCALENDAR/i.test(body);
  let roots: Array<InstanceType<typeof ICAL.Component>>;
  try {
    const jcal = ICAL.parse(bare ? `BEGIN:VCALENDAR\r\n${body}\r\nEND:VCALENDAR\r\n` : body) as unknown[];
    roots = (typeof jcal[0] === 'string' ? [jcal] : jcal).map((c) => new ICAL.Component(c as never));
  } catch {
    return { vevents: 0, starts: [] };
  }
  const physical = body.split(/\r\n|\r|\n/);
  const beginLines = physical.flatMap((l, i) => (/^BEGIN:VEVENT\s*$/i.test(l) ? [i + 1] : []));
  const vevents = roots.flatMap((root) => root.getAllSubcomponents('vevent'));
  const registered: string[] = [];
  for (const vtimezone of roots.flatMap((root) => root.getAllSubcomponents('vtimezone'))) {
    const tzid = vtimezone.getFirstPropertyValue('tzid');
    if (typeof tzid === 'string' && !ICAL.TimezoneService.has(tzid)) {
      ICAL.TimezoneService.register(new ICAL.Timezone(vtimezone), tzid);
      registered.push(tzid);
    }
  }
  try {
    const overridden = new Set(vevents.filter((v) => v.hasProperty('recurrence-id')).map((v) => v.getFirstPropertyValue('uid')));
    const starts: Expected[] = [];
    vevents.forEach((v, i) => {
      let start: InstanceType<typeof ICAL.Time> | null;
      try {
        start = v.getFirstPropertyValue('dtstart') as InstanceType<typeof ICAL.Time> | null;
        if (!start || typeof start.toUnixTime !== 'function' || !Number.isFinite(start.year) || start.year < 1000) return;
      } catch {
        return;
      }
      if (v.hasProperty('recurrence-id') || v.hasProperty('exdate') || overridden.has(v.getFirstPropertyValue('uid'))) return;
      // A series' first event starts at DTSTART too: it always counts as the first occurrence
      // (RFC 5545 §3.3.10), whether or not the rule makes it.
      const tzid = v.getFirstProperty('dtstart')!.getParameter('tzid') as string | undefined;
      const utc = !start.isDate && (start.zone === ICAL.Timezone.utcTimezone || (!!tzid && registered.includes(tzid)));
      const shown = utc ? wall(start.convertToZone(ICAL.Timezone.utcTimezone)) : start.isDate ? `${wall(start).slice(0, 10)} 00:00:00` : wall(start);
      starts.push({ line: beginLines[i], start: shown, utc, allDay: start.isDate });
    });
    return { vevents: vevents.length, starts };
  } finally {
    for (const tzid of registered) ICAL.TimezoneService.remove(tzid);
  }
}

/** A refusal as the CLI prints it: the message, then each problem on a line of its own. */
const told = (body: { message: string; data?: { errors?: Array<{ message: string }> } }) =>
  [body.message, ...(body.data?.errors ?? []).map((e) => `  ${e.message}`)].join('\n');

let s: TestServer;
let cliDir: string;
beforeAll(async () => {
  s = await startTestServer();
  cliDir = mkdtempSync(join(FAST_TMP, 'almanac-cli-folder-'));
});
afterAll(async () => {
  await s.close();
  rmSync(cliDir, { recursive: true, force: true });
});

describe('python icalendar’s 163 calendars', () => {
  it('imports each good file, refuses each bad one naming a line, writes nothing for a refused one, and the CLI says the same', { timeout: 120_000 }, async () => {
    expect(files).toHaveLength(163);
    const counts = { files: files.length, imported: 0, refused: 0, eventLess: 0, retriedSkippingInvalid: 0 };
    const refusals: string[] = [];
    /** Files refused as broken but not listed in BROKEN_WITH_DTSTART with that reason. */
    const unlisted: string[] = [];
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      for (const path of files) {
        const name = relative(folder, path);
        const bytes = readFileSync(path);
        const before = s.snapshot();
        const res = await s.api('post', `import?filename=${encodeURIComponent(name.split('/').pop()!)}`).set('Content-Type', 'application/octet-stream').send(bytes);
        expect([200, 400], `${name}: ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);

        // The CLI on a data directory of its own, in this process (the same code `npm run cli` runs).
        out.mockClear();
        let cliError: string | undefined;
        try {
          await importCommand([path, '--data-dir', cliDir]);
        } catch (err) {
          cliError = (err as Error).message;
        }
        const printed = out.mock.calls.map((c) => String(c[0])).join('');

        const { vevents, starts } = oracle(bytes.toString('utf8'));
        if (res.status === 400) {
          counts.refused++;
          expect(s.snapshot(), `${name} wrote something`).toEqual(before);
          const errors = (res.body.data?.errors ?? []) as Array<{ line?: number; message: string }>;
          const lined =
            errors.length > 0
              ? errors.every((e) => Number.isInteger(e.line) && e.line! >= 1 && (/line \d+/i.test(e.message) || /no events|is empty/.test(e.message)))
              : /line \d+/i.test(res.body.message);
          expect(lined, `${name}: a refusal without its line: ${told(res.body)}`).toBe(true);
          expect(cliError, `${name}: the CLI imported what the API refused`).toBe(told(res.body));
          refusals.push(`${name}: ${told(res.body)}`);
          if (/no events|is empty/.test(res.body.message)) {
            counts.eventLess++;
            expect(vevents, `${name} has events`).toBe(0);
            continue;
          }
          if (!starts.length) continue;
          if (res.body.code === 'import-file-invalid' && errors.every((e) => !/was not imported/.test(e.message))) {
            // Broken as a file: each such file is listed with what is wrong with it.
            if (!BROKEN_WITH_DTSTART[name]?.test(errors[0]?.message ?? '')) unlisted.push(`${name}: ${errors[0]?.message}`);
            continue;
          }
          // Some of its events are bad: the good ones come in when the bad ones may be skipped.
          counts.retriedSkippingInvalid++;
          const skipping = await s.api('post', `import?skip_invalid=true&filename=${encodeURIComponent(name.split('/').pop()!)}`).set('Content-Type', 'application/octet-stream').send(bytes);
          expect(skipping.status, `${name} with skip_invalid: ${JSON.stringify(skipping.body)}`).toBe(200);
          await checkStarts(name, skipping.body, starts);
          continue;
        }

        counts.imported++;
        expect(cliError, `${name}: the CLI refused what the API imported`).toBeUndefined();
        const report = res.body as { created: number; updated: number; reused: number; errors: unknown[] };
        expect(madeBy(printed), `${name}: the CLI made other events: ${printed}`).toBe(report.created + report.updated);
        expect(report.created + report.updated, `${name} imported nothing`).toBeGreaterThan(0);
        await checkStarts(name, res.body, starts);
      }
    } finally {
      out.mockRestore();
    }
    expect(unlisted, 'refused as broken although ical.js reads a DTSTART in them').toEqual([]);
    expect(Object.keys(BROKEN_WITH_DTSTART).filter((name) => !refusals.some((r) => r.startsWith(`${name}:`)))).toEqual([]);
    // The figures, and every refusal as the user reads it.
    console.log(`python icalendar folder: ${JSON.stringify(counts)}\n${refusals.join('\n')}`);
    expect(counts.imported + counts.refused).toBe(163);
  });
});

/** "Created 3, updated 2, …": the events the CLI wrote (updated: a UID imported before from another file). */
function madeBy(printed: string): number {
  const m = /Created (\d+), updated (\d+)/.exec(printed);
  return m ? Number(m[1]) + Number(m[2]) : -1;
}

/** Each expected start is the stored start of the first event made from that VEVENT. */
async function checkStarts(name: string, report: { items: Array<{ line?: number; id?: number; action: string }> }, starts: Expected[]) {
  expect(report.items.some((i) => i.id !== undefined), `${name}: no event from a file whose VEVENT has a DTSTART`).toBe(true);
  for (const expected of starts) {
    const items = report.items.filter((i) => i.line === expected.line && i.id !== undefined);
    if (!items.length) continue; // skipped as bad, or outside the import window: reported, not lost
    const events = await Promise.all(items.map(async (i) => (await s.api('get', `events/${i.id}`)).body as { start_date: string; utc_start_date: string; all_day: boolean }));
    const first = events.map((e) => (expected.utc ? e.utc_start_date : e.start_date)).sort()[0];
    expect(first, `${name}: the event at line ${expected.line}`).toBe(expected.start);
    expect(events[0].all_day, `${name}: the event at line ${expected.line} all day`).toBe(expected.allDay);
  }
}
