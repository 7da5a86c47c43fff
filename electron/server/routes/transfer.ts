/**
 * Export and import (Almanac additions to the namespace): `GET /export` streams the calendar as
 * iCalendar (any events-list filter applies) or as the JSON backup; `POST /import` takes an
 * iCalendar, CSV or JSON backup file as the request body.
 */
import { eventListParams } from '../../../shared/schema/queries';
import * as k from '../../../shared/schema/kinds';
import type { ParamSet } from '../../../shared/schema/queries';
import type { Event } from '../../../shared/api/records';
import { ApiError } from '../errors';
import { eventQuery } from './events';
import { serializeEvents } from '../serialize/event';
import { exportIcs, zonesUsed } from '../import-export/ics-export';
import { backupChunks } from '../import-export/json-backup';
import { importFile } from '../import-export/import-file';
import { route, type ApiRequest, type ApiResponse, type RouteDef } from '../http/route-table';
import type { Store } from '../store';
import type { EventListQuery } from '../store/events';

/** The events-list filters; an export is the whole selection, so no paging. */
const eventFilters = Object.fromEntries(Object.entries(eventListParams).filter(([name]) => name !== 'page' && name !== 'per_page'));

const exportParams: ParamSet = {
  format: { kind: k.oneOf(['ics', 'json'] as const), description: 'ics: the events as iCalendar (the events-list filters apply); json: the whole calendar as a lossless backup.', default: 'ics' },
  ...eventFilters,
};

const importParams: ParamSet = {
  format: { kind: k.oneOf(['ics', 'csv', 'json'] as const), description: 'Format of the file; guessed from its content when left out.' },
  kind: { kind: k.oneOf(['events', 'venues', 'organizers'] as const), description: 'What a CSV file holds.', default: 'events' },
  dry_run: { kind: k.boolean(), description: 'Report what the import would do, and change nothing.', default: false },
  skip_invalid: { kind: k.boolean(), description: 'Import the good items and report the bad ones instead of refusing the file.', default: false },
};

function* icsChunks(reader: Store, q: EventListQuery, req: ApiRequest): Generator<string> {
  const uids = new Map<number, string>();
  function* events(): Generator<Event> {
    for (const rows of reader.events.batches(q)) {
      for (const [id, uid] of reader.events.icsUids(rows.map((r) => r.id))) uids.set(id, uid);
      yield* serializeEvents(rows, req.url, reader);
      uids.clear();
    }
  }
  yield* exportIcs(events(), {
    uidHost: req.url.settings.global_id_host,
    calendarName: 'Almanac',
    zones: zonesUsed(reader.events.zoneSpans(q)),
    uidOf: (e) => uids.get(e.id),
  });
}

/** Runs `produce` inside one read transaction of its own connection, closing it when done. */
function* snapshot(req: ApiRequest, produce: (reader: Store) => Iterable<string>): Generator<string> {
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
  return {
    headers: { 'X-Cal-Total': String(req.store.events.count(q)) },
    stream: { contentType: 'text/calendar; charset=utf-8', filename: `almanac-${day}.ics`, chunks: snapshot(req, (r) => icsChunks(r, q, req)) },
  };
}

function importCalendar(req: ApiRequest): ApiResponse {
  if (!req.file || req.file.length === 0) throw new ApiError('import-file-invalid', 400, 'import-file-invalid', { reason: 'the request has no file in its body.' });
  const report = importFile(req.store, req.file, {
    format: req.values.format as 'ics' | 'csv' | 'json' | undefined,
    kind: req.values.kind as 'events' | 'venues' | 'organizers',
    dryRun: req.values.dry_run as boolean,
    skipInvalid: req.values.skip_invalid as boolean,
    ctx: req.write,
  });
  return { status: 200, body: report };
}

export const transferRoutes: RouteDef[] = [
  route('/export', [
    { methods: ['GET'], summary: 'Export events as iCalendar, or the whole calendar as a JSON backup (streamed).', args: exportParams, write: false, response: 'File', errors: [400], handler: exportCalendar },
  ]),
  route('/import', [
    {
      methods: ['POST'],
      summary: 'Import an iCalendar, CSV or JSON backup file sent as the request body (up to 100 MB). All or nothing unless skip_invalid.',
      args: importParams,
      rawBody: true,
      write: true,
      response: 'ImportReport',
      errors: [400, 413],
      handler: importCalendar,
    },
  ]),
];
