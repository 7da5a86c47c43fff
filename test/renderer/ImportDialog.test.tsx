// @vitest-environment happy-dom
/**
 * The import dialog: it sends the file as a background import, shows how far the job got, can
 * stop it, and ends with what happened (or what would, for a check), problems listed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18n from '../../renderer/src/i18n';
import type { ImportJob } from '../../shared/api/import-report';
import { ImportDialog } from '../../renderer/src/transfer/ImportDialog';
import { useImports } from '../../renderer/src/state/imports';
import { useEvents } from '../../renderer/src/state/events';
import { useSettings } from '../../renderer/src/state/settings';
import { useUi } from '../../renderer/src/state/ui';
import { listOf, mockApi } from './helpers';
import { emptyFilters } from '../../renderer/src/api/client';

const report = (over: Record<string, unknown> = {}) => ({ dry_run: false, created: 2, updated: 1, reused: 0, skipped: 0, items: [], errors: [], warnings: [], ...over });
const job = (over: Partial<ImportJob> = {}): ImportJob => ({
  id: 'abc123',
  state: 'running',
  phase: 'reading',
  done: 0,
  total: 0,
  started: '2026-11-22T10:00:00.000Z',
  finished: null,
  rest_url: 'http://127.0.0.1:4780/cal/events/v1/import/jobs/abc123',
  report: null,
  error: null,
  ...over,
});

/** The job's answers in turn, the last one repeated. */
function jobReplies(...states: ImportJob[]) {
  let i = 0;
  return () => ({ body: states[Math.min(i++, states.length - 1)] });
}

const ics = (name = 'party.ics') => new File(['BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n'], name, { type: 'text/calendar' });
const pick = (file: File) => fireEvent.change(screen.getByLabelText('File'), { target: { files: [file] } });

beforeEach(async () => {
  useSettings.setState({ uiLanguage: 'en', contentLanguage: 'en' });
  await i18n.changeLanguage('en');
  useImports.getState().reset();
  useUi.setState({ importDialog: {} });
  useEvents.setState({ events: [], query: null });
});
afterEach(cleanup);

describe('ImportDialog', () => {
  it('reads the file as the server will: a backup named .ics warns before it restores, and a broken .ics is sent as iCalendar', async () => {
    const done = job({ state: 'done', finished: '2026-11-22T10:00:01.000Z', report: report({ created: 0, updated: 0 }) });
    const api = mockApi({ 'POST import': { status: 202, body: done }, 'GET events': listOf('events', []) });
    render(<ImportDialog preset={{}} />);
    pick(new File(['{"almanac_backup":1}'], 'events.ics', { type: 'text/calendar' }));
    // Clicked before the content was read: nothing is restored, the warning shows instead.
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect((await screen.findByRole('note')).textContent).toMatch(/replaces every event/);
    expect(api.to('POST', 'import')).toHaveLength(0);

    pick(new File(['BEGIN:VTODO\r\nSUMMARY:Tax\r\nEND:VTODO\r\n'], 'tasks.ics', { type: 'text/calendar' }));
    await waitFor(() => expect(screen.queryByRole('note')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(api.to('POST', 'import')).toHaveLength(1));
    expect(api.to('POST', 'import')[0].url.searchParams.get('format')).toBe('ics');
    await screen.findByText('Imported: 0 new, 0 updated, 0 skipped');
  });

  it('imports in the background, shows the progress of each phase, then the report, and reloads the calendar', async () => {
    const api = mockApi({
      'POST import': { status: 202, body: job() },
      'GET import/jobs/abc123': jobReplies(
        job({ phase: 'reading', done: 40, total: 100 }),
        job({ phase: 'writing', done: 1200, total: 5000 }),
        job({ state: 'done', phase: 'writing', done: 5000, total: 5000, finished: '2026-11-22T10:00:05.000Z', report: report({ created: 4990, updated: 10 }) }),
      ),
      'GET events': listOf('events', []),
    });
    // The calendar on screen, to be fetched again once the import is in.
    useEvents.setState({ query: { range: { start: new Date('2030-01-01T00:00:00Z'), end: new Date('2030-02-01T00:00:00Z') }, filters: emptyFilters(), language: 'en' } });
    render(<ImportDialog preset={{}} />);
    const importButton = screen.getByRole('button', { name: 'Import' });
    expect(importButton).toHaveProperty('disabled', true);
    pick(ics());
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));

    await screen.findByText('Reading the file… 40%');
    expect(screen.getByRole('progressbar', { name: 'Import progress' })).toHaveProperty('value', 40);
    await screen.findByText('Saving 1,200 of 5,000…');
    await screen.findByText('Imported: 4990 new, 10 updated, 0 skipped');

    const sent = api.to('POST', 'import')[0];
    expect(Object.fromEntries(sent.url.searchParams)).toMatchObject({ background: 'true', format: 'ics', dry_run: 'false', skip_invalid: 'false', i18n_language: 'en' });
    expect(sent.body).toBeInstanceOf(Blob);
    // The calendar is fetched again once the import is in.
    await waitFor(() => expect(api.to('GET', 'events').length).toBeGreaterThan(0));
  });

  it('a check shows what would happen and its problems, then imports the same file for real', async () => {
    const checked = report({ dry_run: true, created: 1, updated: 0, skipped: 1, errors: [{ row: 3, message: 'Row 3: event_start_date: Invalid date.' }] });
    const api = mockApi({
      'POST import': (call) => ({ status: 202, body: job({ id: call.url.searchParams.get('dry_run') === 'true' ? 'dry' : 'real' }) }),
      'GET import/jobs/dry': { body: job({ id: 'dry', state: 'done', report: checked, finished: '2026-11-22T10:00:01.000Z' }) },
      'GET import/jobs/real': { body: job({ id: 'real', state: 'done', report: report({ created: 1, updated: 0, skipped: 1 }), finished: '2026-11-22T10:00:02.000Z' }) },
      'GET events': listOf('events', []),
    });
    render(<ImportDialog preset={{ format: 'csv', kind: 'events' }} />);
    pick(new File(['event_name\n'], 'events.csv', { type: 'text/csv' }));
    fireEvent.change(screen.getByLabelText('The file holds'), { target: { value: 'venues' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Skip items that cannot be imported' }));
    fireEvent.click(screen.getByRole('button', { name: 'Check file' }));

    await screen.findByText('Trial import: 1 would be new, 0 updated, 1 skipped');
    const problems = screen.getByRole('region', { name: 'Problems (1)' });
    expect(within(problems).getByText('Row 3: event_start_date: Invalid date.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Import it now' }));
    await screen.findByText('Imported: 1 new, 0 updated, 1 skipped');
    const [dry, real] = api.to('POST', 'import').map((c) => Object.fromEntries(c.url.searchParams));
    expect(dry).toMatchObject({ dry_run: 'true', kind: 'venues', format: 'csv', skip_invalid: 'true' });
    expect(real).toMatchObject({ dry_run: 'false', kind: 'venues', format: 'csv', skip_invalid: 'true' });
  });

  it('stops a running import on request', async () => {
    let cancelled = false;
    const api = mockApi({
      'POST import': { status: 202, body: job() },
      'GET import/jobs/abc123': () => ({ body: cancelled ? job({ state: 'cancelled', finished: '2026-11-22T10:00:03.000Z' }) : job({ phase: 'writing', done: 10, total: 100 }) }),
      'DELETE import/jobs/abc123': () => {
        cancelled = true;
        return { status: 202, body: job({ phase: 'writing', done: 10, total: 100 }) };
      },
    });
    render(<ImportDialog preset={{}} />);
    pick(ics());
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Stop import' }));
    await screen.findByText('The import was stopped; nothing was changed.');
    expect(api.to('DELETE', 'import/jobs/abc123')).toHaveLength(1);
  });

  it('shows why a file was refused, with the lines at fault, and nothing reloads', async () => {
    const error = { code: 'import-items-invalid', message: '1 item(s) in the file could not be imported, so nothing was imported.', data: { status: 400, errors: [{ line: 9, message: 'Line 9: start_date: Required.' }] } };
    const api = mockApi({
      'POST import': { status: 202, body: job() },
      'GET import/jobs/abc123': { body: job({ state: 'failed', error, finished: '2026-11-22T10:00:01.000Z' }) },
    });
    render(<ImportDialog preset={{}} />);
    pick(ics());
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect((await screen.findByRole('alert')).textContent).toBe(error.message);
    expect(screen.getByText('Line 9: start_date: Required.')).toBeTruthy();
    expect(api.to('GET', 'events')).toHaveLength(0);
  });

  it('a file the server will not take at all is told at once, and the form stays to pick another', async () => {
    mockApi({ 'POST import': { status: 413, body: { code: 'import-file-too-large', message: 'The file is larger than the import limit of 150 MB.', data: { status: 413 } } } });
    render(<ImportDialog preset={{}} />);
    pick(ics('huge.ics'));
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The file is larger than the import limit of 150 MB.');
    expect(screen.getByLabelText('File')).toBeTruthy();
  });

  it('a file over the limit is refused before it is sent', () => {
    const api = mockApi({});
    render(<ImportDialog preset={{}} />);
    const huge = ics('huge.ics');
    Object.defineProperty(huge, 'size', { value: 200 * 1024 * 1024 });
    pick(huge);
    expect(screen.getByRole('alert').textContent).toBe('This file is larger than the import limit of 150 MB.');
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(api.to('POST', 'import')).toHaveLength(0);
  });

  it('a backup is restored only after a plain warning, with a button that says what it does', () => {
    mockApi({});
    render(<ImportDialog preset={{ format: 'json' }} />);
    pick(new File(['{}'], 'almanac-backup.json', { type: 'application/json' }));
    expect(screen.getByRole('note').textContent).toMatch(/replaces every event/);
    expect(screen.getByRole('button', { name: 'Replace calendar' })).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: 'Skip items that cannot be imported' })).toBeNull();
  });
});
