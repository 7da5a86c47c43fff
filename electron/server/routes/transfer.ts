/**
 * Export and import (Almanac additions to the namespace): `GET /export` streams the calendar as
 * iCalendar (any events-list filter applies) or as the JSON backup; `POST /import` takes an
 * iCalendar, CSV or JSON backup file as the request body.
 */
import { eventListParams } from '../../../shared/schema/queries';
import * as k from '../../../shared/schema/kinds';
import type { ParamSet } from '../../../shared/schema/queries';
import { ApiError } from '../errors';
import { eventQuery, prepareOccurrences } from './events';
import { icsExportChunks } from '../icalendar/export-threaded';
import { backupChunks } from '../import-export/json-backup';
import { importFile, type ImportFormat } from '../import-export/import-file';
import type { ImportKind } from '../import-export/import-records';
import type { ImportJobRecord } from '../import-export/import-jobs';
import type { ImportJob } from '../../../shared/api/import-report';
import { IMPORT_LIMIT_LABEL } from '../../../shared/api/import-limit';
import { errorBody } from '../http/dispatch';
import { route, type ApiRequest, type ApiResponse, type RouteDef } from '../http/route-table';
import type { Store } from '../store';

/** The events-list filters; an export is the whole selection, so no paging. */
const eventFilters = Object.fromEntries(Object.entries(eventListParams).filter(([name]) => name !== 'page' && name !== 'per_page'));

const exportParams: ParamSet = {
  format: { kind: k.oneOf(['ics', 'json'] as const), description: 'ics: the events as iCalendar (the events-list filters apply); json: the whole calendar as a lossless backup.', default: 'ics' },
  ...eventFilters,
};

const importParams: ParamSet = {
  format: { kind: k.oneOf(['ics', 'csv', 'json'] as const), description: 'Format of the file; when left out, its first characters tell, else its `filename`, else it is read as CSV.' },
  filename: { kind: k.text({ max: 1000 }), description: 'Name of the file (`calendar.ics`): tells its format when its first characters do not.' },
  kind: { kind: k.oneOf(['events', 'venues', 'organizers'] as const), description: 'What a CSV file holds.', default: 'events' },
  dry_run: { kind: k.boolean(), description: 'Report what the import would do, and change nothing.', default: false },
  skip_invalid: { kind: k.boolean(), description: 'Import the good items and report the bad ones instead of refusing the file.', default: false },
  background: {
    kind: k.boolean(),
    description: 'Answer 202 at once with an import job and run the import on its own thread; follow its progress, then its report or error, at the job’s rest_url.',
    default: false,
  },
};

/** Runs `produce` inside one read transaction of its own connection, closing it when done. */
function* snapshot(req: ApiRequest, produce: (reader: Store) => Iterable<string | Uint8Array>): Generator<string | Uint8Array> {
  const reader = req.openReader();
  reader.store.db.exec('BEGIN');
  try {
    yield* produce(reader.store);
  } finally {
    reader.store.db.exec('COMMIT');
    reader.close();
  }
}

function exportCalendar(req: ApiRequest): ApiResponse {
  const day = req.now.toISOString().slice(0, 10);
  if (req.values.format === 'json') {
    return { stream: { contentType: 'application/json; charset=utf-8', filename: `almanac-backup-${day}.json`, chunks: snapshot(req, (r) => backupChunks(r.db, req.now)) } };
  }
  // Checked before streaming starts, so a bad filter is still a plain 400.
  const q = eventQuery(req, { defaultWindow: false });
  prepareOccurrences(req, q);
  const events = req.store.events.count(q);
  const options = { uidHost: req.url.settings.global_id_host, calendarName: 'Almanac', events };
  return {
    headers: { 'X-Cal-Total': String(events) },
    stream: { contentType: 'text/calendar; charset=utf-8', filename: `almanac-${day}.ics`, chunks: snapshot(req, (r) => icsExportChunks(r, q, req.url, options)) },
  };
}

function importCalendar(req: ApiRequest): ApiResponse | Promise<ApiResponse> {
  if (!req.file || req.file.length === 0) throw new ApiError('import-file-invalid', 400, 'import-file-invalid', { reason: 'the request has no file in its body.' });
  const options = {
    format: req.values.format as ImportFormat | undefined,
    name: (req.values.filename as string | undefined) || undefined,
    kind: req.values.kind as ImportKind,
    dryRun: req.values.dry_run as boolean,
    skipInvalid: req.values.skip_invalid as boolean,
    ctx: req.write,
  };
  if (req.values.background) {
    const job = req.imports.start(req.file, options);
    const body = jobJson(job, req);
    return { status: 202, headers: { Location: body.rest_url }, body };
  }
  // Off the server's thread, so that other clients are answered meanwhile: reading a file and
  // writing its events (and its series' occurrences) can take seconds. A calendar in memory has no
  // file for another thread to open; it is the tests' and runs here.
  if (req.store.db.name === ':memory:') return { status: 200, body: importFile(req.store, req.file, options) };
  return req.imports.run(req.file, options).then((report) => ({ status: 200, body: report }));
}

function jobJson(job: ImportJobRecord, req: ApiRequest): ImportJob {
  return {
    id: job.id,
    state: job.state,
    phase: job.phase,
    done: job.done,
    total: job.total,
    started: job.started.toISOString(),
    finished: job.finished?.toISOString() ?? null,
    rest_url: `${req.url.apiRoot}import/jobs/${job.id}`,
    report: job.report,
    error: job.error ? errorBody(job.error, req.lang) : null,
  };
}

function findJob(req: ApiRequest): ImportJobRecord {
  const job = req.imports.get(req.path.job);
  if (!job) throw new ApiError('import-job-not-found', 404, 'import-job-not-found');
  return job;
}

/** A running job is asked to stop (202: it rolls back and ends `cancelled`); an ended one is as it was. */
function cancelJob(req: ApiRequest): ApiResponse {
  const job = findJob(req);
  const asked = req.imports.cancel(job.id);
  return { status: asked ? 202 : 200, body: jobJson(job, req) };
}

export const transferRoutes: RouteDef[] = [
  route('/export', [
    { methods: ['GET'], summary: 'Export events as iCalendar, or the whole calendar as a JSON backup (streamed).', args: exportParams, write: false, response: 'File', errors: [400], handler: exportCalendar },
  ]),
  route('/import', [
    {
      methods: ['POST'],
      summary: `Import an iCalendar, CSV or JSON backup file sent as the request body (up to ${IMPORT_LIMIT_LABEL}). All or nothing unless skip_invalid.`,
      args: importParams,
      rawBody: true,
      write: true,
      response: 'ImportReport',
      accepted: 'ImportJob',
      errors: [400, 413],
      handler: importCalendar,
    },
  ]),
  route('/import/jobs/{job}', [
    { methods: ['GET'], summary: 'An import started in the background: its progress, then its report or error. Kept for an hour after it ends.', args: {}, write: true, response: 'ImportJob', errors: [404], handler: (req) => ({ body: jobJson(findJob(req), req) }) },
    { methods: ['DELETE'], summary: 'Cancel an import running in the background: nothing of it is kept.', args: {}, write: true, response: 'ImportJob', accepted: 'ImportJob', errors: [404], handler: cancelJob },
  ]),
];
