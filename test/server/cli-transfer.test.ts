/** `npm run cli -- import|export` on a data directory, with and without Almanac running on it. */
import { describe, it, expect } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createServer, silentLogger } from '../../electron/server';
import { tempDir } from '../helpers/temp-dir';
import { runCli } from '../helpers/cli';

const root = resolve(import.meta.dirname, '../..');
const fixture = (name: string) => join(root, 'test/fixtures', name);

const cli = (args: string[]) => runCli(args);

describe('CLI import and export', { timeout: 60_000 }, () => {
  it('imports into a data directory, reports a dry run per row, refuses bad rows, and exports', async () => {
    const dir = tempDir('almanac-cli-x-');
    const first = await cli(['import', fixture('ics/google.ics'), '--data-dir', dir]);
    expect(first.code).toBe(0);
    // The file's four VEVENTs: a weekly series (whose occurrences the calendar makes), its moved
    // occurrence, two single events.
    expect(first.out).toMatch(/Created 4, updated 0/);

    const dry = await cli(['import', fixture('csv/events-original-columns.csv'), '--data-dir', dir, '--dry-run', '--skip-invalid']);
    expect(dry.code).toBe(0);
    expect(dry.out).toMatch(/row 2: create "Spring Concert"/);
    expect(dry.out).toMatch(/Dry run, nothing changed: would create 3/);
    expect(dry.out).toMatch(/error: Row 8: "2025-13-45" is not a date/);

    const refused = await cli(['import', fixture('csv/events-original-columns.csv'), '--data-dir', dir]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/nothing was imported/);
    expect(refused.err).toMatch(/Row 9: "Mars\/Olympus" is not a time zone/);

    const out = join(dir, 'out.ics');
    const exported = await cli(['export', '--data-dir', dir, '--out', out, '--start-date', '2000-01-01']);
    expect(exported.code).toBe(0);
    expect(exported.err).toMatch(/Exported 6 events/);
    // Six events, in four VEVENTs: the series goes out once, with its rule and its moved occurrence.
    expect(readFileSync(out, 'utf8').match(/BEGIN:VEVENT/g)).toHaveLength(4);
  });

  it('goes through the running app instead of opening its file', async () => {
    const dir = tempDir('almanac-cli-x-');
    const server = await createServer({ dataDir: dir, port: 0, log: silentLogger });
    try {
      const res = await cli(['import', fixture('ics/apple.ics'), '--data-dir', dir]);
      expect(res.code, res.err).toBe(0);
      expect(res.err).toMatch(/Sending .* to the running Almanac/);
      expect(res.out).toMatch(/Created \d+, updated 0/);
      // The app imported them (on its import thread) and its own connection sees them.
      const n = (server.store.db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
      expect(n).toBeGreaterThan(0);
      const json = await cli(['export', '--data-dir', dir, '--format', 'json']);
      expect(JSON.parse(json.out).tables.events.rows).toHaveLength(n);

      // A refused file is told as the direct import tells it, rows named, and nothing is written.
      const refused = await cli(['import', fixture('csv/events-original-columns.csv'), '--data-dir', dir]);
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(/nothing was imported/);
      expect(refused.err).toMatch(/Row 9: "Mars\/Olympus" is not a time zone/);
      expect((server.store.db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n).toBe(n);
    } finally {
      await server.close();
    }
  });

  it('reads a file named .ics as iCalendar even when it does not start with BEGIN:VCALENDAR; --format overrides', async () => {
    const dir = tempDir('almanac-cli-x-');
    const file = join(dir, 'tasks.ics');
    writeFileSync(file, 'PRODID:-//Someone//EN\r\nBEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:Taxes\r\nEND:VTODO\r\nEND:VCALENDAR\r\n');
    const named = await cli(['import', file, '--data-dir', dir]);
    expect(named.code).toBe(1);
    expect(named.err).toMatch(/This is not an iCalendar file: line 1 should be "BEGIN:VCALENDAR"/);
    const forced = await cli(['import', file, '--data-dir', dir, '--format', 'csv']);
    expect(forced.err).toMatch(/Event Name/);
    expect((await cli(['import', file, '--data-dir', dir, '--format', 'xml'])).err).toMatch(/--format must be ics, csv or json/);
  });

  it('explains a missing file and an unknown option', async () => {
    expect((await cli(['import'])).err).toMatch(/which file/);
    expect((await cli(['import', fixture('ics/apple.ics'), '--colour', 'red'])).err).toMatch(/unknown option --colour/);
  });
});
