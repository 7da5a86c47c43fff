/**
 * Importing a file, whatever its format: decode the bytes, read them with the format's parser,
 * and apply the result in one transaction. The API route and the CLI both call this.
 */
import { ApiError } from '../errors';
import type { Store } from '../store';
import type { WriteContext } from '../store/post-fields';
import { NO_LANGUAGE } from '../../../shared/i18n/languages';
import { decodeImportFile, plainUtf8 } from './text-input';
import { openIcs, type IcsFile, type ReadEvent } from '../icalendar/import';
import { openIcsThreaded } from '../icalendar/read-threaded';
import { parseCsv } from './csv-import';
import { restoreBackup, trialRestore } from './json-backup';
import { importRecords, ImportRefused, type ImportItem, type ImportKind, type ItemSource } from './import-records';
import type { ImportReport, RestoreReport } from '../../../shared/api/import-report';
import { IMPORT_LIMIT_BYTES, IMPORT_LIMIT_LABEL } from '../../../shared/api/import-limit';
import { importFormat, type ImportFormat } from '../../../shared/import-format';

export type { ImportFormat };

export interface ImportFileOptions {
  /** Overrides what the content and the name say (shared/import-format.ts). */
  format?: ImportFormat;
  /** The file's name, which tells its format when its first characters do not. */
  name?: string;
  kind?: ImportKind;
  dryRun?: boolean;
  skipInvalid?: boolean;
  ctx: WriteContext;
  /**
   * Items read from the file so far (`reading`: an iCalendar file's VEVENTs scanned), then items
   * written (`writing`; an iCalendar file's items are made while they are written, so the total
   * grows when a series has more occurrences than was counted). Ends each phase with done = total.
   */
  onProgress?: (done: number, total: number, phase: 'reading' | 'writing') => void;
  /** Occurrence rows the import writes for its series at most (default icalendar/bounds.ts). */
  maxOccurrenceRows?: number;
}

const fileError = (reason: string, errors?: Array<{ line?: number; row?: number; message: string }>) =>
  new ApiError('import-file-invalid', 400, 'import-file-invalid', { reason }, errors ? { errors } : {});

/**
 * From this size on (about 2,500 events) an iCalendar file is read on a worker thread while the
 * import writes (icalendar/read-threaded.ts); below it, starting the thread costs more than it saves.
 */
export const THREADED_READING_BYTES = 1_000_000;

/**
 * The file's format and text. A large UTF-8 iCalendar file stays bytes (`utf8`, without its byte
 * order mark): the thread that reads it decodes it (text-input.ts plainUtf8).
 */
function contentOf(bytes: Uint8Array, opts: ImportFileOptions): { format: ImportFormat; text: string } | { format: 'ics'; utf8: Uint8Array } {
  const plain = bytes.length >= THREADED_READING_BYTES ? plainUtf8(bytes) : undefined;
  if (plain && importFormat(plain.head, opts.name, opts.format) === 'ics') return { format: 'ics', utf8: plain.body };
  const decoded = decodeImportFile(bytes);
  if ('error' in decoded) throw fileError(decoded.error);
  return { format: importFormat(decoded.text, opts.name, opts.format), text: decoded.text };
}

export function importFile(store: Store, bytes: Uint8Array, opts: ImportFileOptions): ImportReport | RestoreReport {
  if (bytes.length > IMPORT_LIMIT_BYTES) throw new ApiError('import-file-too-large', 413, 'import-file-too-large', { limit: IMPORT_LIMIT_LABEL });
  const content = contentOf(bytes, opts);
  const format = content.format;

  if (content.format === 'json') {
    let data: unknown;
    try {
      data = JSON.parse(content.text);
    } catch (err) {
      throw fileError(`it is not valid JSON (${(err as Error).message}).`);
    }
    if (opts.dryRun) {
      return { dry_run: true, restored: trialRestore(store.db, data) };
    }
    const report = restoreBackup(store.db, data, store.db.name);
    // The schedule is derived: made again from the restored reminders and what was done with them.
    store.write(() => store.reminders.refill(opts.ctx.now));
    return { dry_run: false, restored: report.counts, previous_copy: report.previousCopy };
  }

  const reading = opts.onProgress && ((done: number, total: number) => opts.onProgress!(done, total, 'reading'));
  let items: ImportItem[] | ItemSource;
  let file: IcsFile<ReadEvent> | undefined;
  let parseErrors: Array<{ line?: number; row?: number; message: string }> | undefined;
  let warnings: Array<{ line?: number; message: string }> = [];
  const kind: ImportKind = format === 'ics' ? 'events' : (opts.kind ?? 'events');
  if (format === 'ics') {
    // Reading is the scan; the events are made from the file while they are written, one UID at a
    // time, so that a large file is never held whole.
    const icsOptions = { siteZone: opts.ctx.siteZone, now: opts.ctx.now, onProgress: reading };
    const prepare = { now: opts.ctx.now, siteZone: opts.ctx.siteZone };
    if ('utf8' in content) file = openIcsThreaded(content.utf8, icsOptions, prepare);
    else file = bytes.length >= THREADED_READING_BYTES ? openIcsThreaded(content.text, icsOptions, prepare) : openIcs(content.text, icsOptions);
    if (file.broken) {
      const result = file.read(() => {});
      throw fileError(result.errors[0].message, result.errors);
    }
    items = icsItems(file, (w) => (warnings = w));
  } else {
    const result = parseCsv(content.text, kind, { siteZone: opts.ctx.siteZone });
    reading?.(result.rows.length + result.errors.length, result.rows.length + result.errors.length);
    const structural = result.errors.filter((e) => e.row <= 1);
    if (structural.length) throw fileError(structural.map((e) => e.message).join(' '), structural);
    items = result.rows.map((r) => ({ row: r.row, body: r.body }));
    parseErrors = result.errors;
  }

  try {
    // An iCalendar file's events have the language the file gives them (Almanac's own exports say
    // it), else none of their own: every language's lists show them (issue 27).
    const ctx = format === 'ics' ? { ...opts.ctx, eventLang: opts.ctx.eventLang ?? NO_LANGUAGE } : opts.ctx;
    const report = importRecords(store, kind, items, ctx, { dryRun: opts.dryRun, skipInvalid: opts.skipInvalid, maxOccurrenceRows: opts.maxOccurrenceRows, onProgress: opts.onProgress && ((done, total) => opts.onProgress!(done, total, 'writing')), parseErrors });
    report.warnings.push(...warnings);
    return report;
  } catch (err) {
    if (err instanceof ImportRefused) {
      throw new ApiError('import-items-invalid', 400, 'import-items-invalid', { count: err.report.errors.length }, { errors: err.report.errors });
    }
    throw err;
  } finally {
    file?.close?.();
  }
}

/**
 * The events of a scanned iCalendar file as import items, made while they are written. A file in
 * which nothing could be read (or that ical.js cannot parse) is refused as a broken file.
 */
function icsItems(file: IcsFile<ReadEvent>, onWarnings: (warnings: Array<{ line?: number; message: string }>) => void): ItemSource {
  let made = 0;
  let read = 0;
  return {
    // Each VEVENT not read yet stands for one item (occurrences of a series are more).
    expected: () => made + file.vevents - read,
    each(emit) {
      made = 0;
      read = 0;
      const result = file.read(
        (e) => {
          made++;
          emit('prepared' in e ? { line: e.line, uid: e.uid, recurrenceId: e.recurrenceId, body: {}, prepared: e.prepared } : { line: e.line, uid: e.uid, recurrenceId: e.recurrenceId, body: { ...e.body } });
        },
        (n) => (read += n),
      );
      if (result.unreadable || (made === 0 && result.errors.length)) throw fileError(result.errors[0].message, result.errors);
      read = file.vevents;
      onWarnings(result.warnings);
      return { parseErrors: result.errors };
    },
  };
}
