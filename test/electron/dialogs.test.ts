/**
 * Import and export through the native dialogs (faked) against the real server: the main process
 * picks the file, calls its own API with the token, and reports back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTransfers, describeImport, exportQuery, formatOfFile, importFilters, showApiAccess } from '../../electron/main/dialogs';
import type { ImportReport, RestoreReport } from '../../shared/desktop-bridge';
import { IMPORT_LIMIT_BYTES } from '../../shared/api/import-limit';
import { startTestServer, type TestServer } from '../helpers/server';
import { FakeDialog, removeTempDirs, ROOT, tempDir } from './fake-electron';

const FIXTURES = join(ROOT, 'test', 'fixtures');
let t: TestServer;
let work: string;
const win = { id: 'window' };

beforeAll(async () => {
  t = await startTestServer();
  work = tempDir('almanac-files-');
});
afterAll(async () => {
  await t.close();
  removeTempDirs();
});

function transfers() {
  const dialog = new FakeDialog();
  const x = createTransfers<object>({ dialog, server: () => t.server, documentsDir: work, now: () => new Date('2031-05-06T10:00:00Z') });
  return { dialog, ...x };
}

const eventCount = () => t.snapshot().events;

describe('import', () => {
  it('imports the iCalendar file picked in the open dialog', async () => {
    const { dialog, importFile } = transfers();
    dialog.openAnswers = [join(FIXTURES, 'ics', 'google.ics')];
    const before = eventCount();
    const result = await importFile(win, { format: 'ics' });
    expect(result).toMatchObject({ status: 'imported', file: join(FIXTURES, 'ics', 'google.ics') });
    const report = (result as { report: ImportReport }).report;
    expect(report.created).toBeGreaterThan(0);
    // Four VEVENTs, six events: the weekly series' occurrences are events of their own.
    expect(report.created).toBe(4);
    expect(eventCount()).toBe(before + 6);
    expect(dialog.opened[0].filters[0]).toEqual({ name: 'iCalendar', extensions: ['ics', 'ical', 'icalendar', 'ifb'] });
  });

  it('previews with a dry run, then imports the same file without asking again', async () => {
    const { dialog, importFile } = transfers();
    dialog.openAnswers = [join(FIXTURES, 'csv', 'venues.csv')];
    const before = t.snapshot().venues;
    const dry = await importFile(win, { format: 'csv', kind: 'venues', dryRun: true, skipInvalid: true });
    expect((dry as { report: ImportReport }).report).toMatchObject({ dry_run: true, skipped: 1 });
    expect(t.snapshot().venues).toBe(before);
    const real = await importFile(win, { format: 'csv', kind: 'venues', skipInvalid: true, useLastFile: true });
    expect((real as { report: ImportReport }).report.created).toBeGreaterThan(0);
    expect(t.snapshot().venues).toBeGreaterThan(before);
    expect(dialog.opened).toHaveLength(1);
  });

  it('does nothing when the dialog is cancelled', async () => {
    const { importFile } = transfers();
    const before = t.snapshot();
    expect(await importFile(win, {})).toEqual({ status: 'cancelled' });
    expect(t.snapshot()).toEqual(before);
  });

  it('reports a broken file with the server’s message and changes nothing', async () => {
    const { dialog, importFile } = transfers();
    const bad = join(work, 'broken.ics');
    writeFileSync(bad, 'BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:No dates\nEND:VEVENT\nEND:VCALENDAR\n');
    dialog.openAnswers = [bad];
    const before = t.snapshot();
    const result = await importFile(win, {});
    expect(result).toMatchObject({ status: 'failed', file: bad, code: 'import-file-invalid' });
    expect((result as { message: string }).message.length).toBeGreaterThan(0);
    expect(t.snapshot()).toEqual(before);
    expect(describeImport(result)).toMatchObject({ type: 'error', message: 'Could not import broken.ics.' });
  });

  it('asks before a backup replaces the calendar, and restores it when confirmed', async () => {
    const { dialog, importFile, exportFile } = transfers();
    const backup = join(work, 'backup.json');
    dialog.saveAnswers = [backup];
    expect(await exportFile(win, 'json')).toMatchObject({ status: 'saved', file: backup });
    const before = t.snapshot();

    // Named .txt: the content says it is a backup, so the question is asked all the same.
    const renamed = join(work, 'backup.txt');
    copyFileSync(backup, renamed);
    dialog.openAnswers = [renamed];
    dialog.messageAnswers = [1]; // Cancel
    expect(await importFile(win, {})).toEqual({ status: 'cancelled' });
    expect(dialog.messages[0]).toMatchObject({ type: 'warning', buttons: ['Restore', 'Cancel'], cancelId: 1, defaultId: 1 });

    dialog.openAnswers = [backup];
    dialog.messageAnswers = [0]; // Restore
    const result = await importFile(win, { format: 'json' });
    const report = (result as { report: RestoreReport }).report;
    expect(report.restored.events).toBe(before.events);
    expect(report.previous_copy).toBeTruthy();
    expect(t.snapshot().events).toBe(before.events);
  });

  it('refuses a file over the import limit before sending it', async () => {
    const { dialog, importFile } = transfers();
    const big = join(work, 'big.csv');
    writeFileSync(big, '');
    const { truncateSync } = await import('node:fs');
    truncateSync(big, IMPORT_LIMIT_BYTES + 1);
    dialog.openAnswers = [big];
    expect(await importFile(win, {})).toMatchObject({ status: 'failed', code: 'import-file-too-large' });
  });
});

describe('export', () => {
  it('writes the iCalendar export where the save dialog says, named by date by default', async () => {
    const { dialog, exportFile } = transfers();
    const file = join(work, 'mine.ics');
    dialog.saveAnswers = [file];
    const result = await exportFile(win, 'ics', { language: 'en' });
    expect(result).toEqual({ status: 'saved', file, bytes: readFileSync(file).length });
    expect(readFileSync(file, 'utf8')).toMatch(/^BEGIN:VCALENDAR[\s\S]*BEGIN:VEVENT[\s\S]*END:VCALENDAR\r?\n?$/);
    expect(dialog.saved[0].defaultPath).toBe(join(work, 'almanac-2031-05-06.ics'));
    expect(readdirSync(work).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('applies the list filters and the language', () => {
    expect(exportQuery('ics', { language: 'pt-br', filters: { start_date: '2030-01-01', categories: [3, 4], featured: true, tags: [] } }).toString()).toBe(
      'format=ics&start_date=2030-01-01&categories=3%2C4&featured=true&i18n_language=pt-br',
    );
    expect(exportQuery('json', { filters: { search: 'x' } }).toString()).toBe('format=json');
  });

  it('leaves no file behind when the server refuses', async () => {
    const { dialog, exportFile } = transfers();
    const file = join(work, 'refused.ics');
    dialog.saveAnswers = [file];
    const result = await exportFile(win, 'ics', { filters: { start_date: 'not a date at all' } });
    expect(result).toMatchObject({ status: 'failed', code: 'rest_invalid_param' });
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(work).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('does nothing when the dialog is cancelled', async () => {
    const { exportFile } = transfers();
    expect(await exportFile(win, 'json')).toEqual({ status: 'cancelled' });
  });
});

describe('file types', () => {
  it('knows a format by its first bytes, else by the file name, as the server does', () => {
    expect(formatOfFile('a.txt', Buffer.from('\uFEFFBEGIN:VCALENDAR'))).toBe('ics');
    expect(formatOfFile('a.txt', Buffer.from('  {"almanac_backup":1}'))).toBe('json');
    expect(formatOfFile('a', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('BEGIN:VCALENDAR', 'utf16le')]))).toBe('ics');
    expect(formatOfFile('a.txt', Buffer.from('Event Name,Event Start Date'))).toBe('csv');
    // A backup named .ics is still a backup: the dialog must ask before it replaces the calendar.
    expect(formatOfFile('events.ics', Buffer.from('{"almanac_backup":1}'))).toBe('json');
    expect(formatOfFile('tasks.ICS', Buffer.from('PRODID:-//x//EN\r\n'))).toBe('ics');
    expect(formatOfFile('a.ics', Buffer.from('Event Name'), 'csv')).toBe('csv');
  });

  it('offers every supported file when no format is chosen', () => {
    expect(importFilters()[0]).toEqual({ name: 'Calendar files', extensions: ['ics', 'ical', 'icalendar', 'ifb', 'csv', 'txt', 'json'] });
  });
});

describe('API address and token', () => {
  it('shows where the API is and copies the token or the address', async () => {
    const dialog = new FakeDialog();
    let copied = '';
    const info = { apiRoot: t.server.apiRoot, token: t.server.token, tokenFile: '/d/api-token', dataDir: '/d' };
    dialog.messageAnswers = [0];
    expect(await showApiAccess(dialog, win, info, { writeText: (s) => (copied = s) })).toBe('token');
    expect(copied).toBe(t.server.token);
    expect(dialog.messages[0].detail).toContain(`API address: ${t.server.apiRoot}`);
    expect(dialog.messages[0].detail).not.toContain(t.server.token);
    dialog.messageAnswers = [1];
    expect(await showApiAccess(dialog, undefined, info, { writeText: (s) => (copied = s) })).toBe('address');
    expect(copied).toBe(t.server.apiRoot);
  });
});
