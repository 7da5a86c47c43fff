/**
 * Applies parsed import items (from iCalendar or CSV) to the calendar through the same field
 * checks and store code the API uses. One transaction per import: all of it, or none of it,
 * unless the user chose to skip bad items, and then the report lists them.
 *
 * Items carry a stable UID (the file's own for iCalendar, one made from a CSV row's content), so
 * importing the same file again updates what the first import created instead of duplicating it.
 * A dry run does the whole import and rolls it back, so its report is exactly what would happen.
 */
import { createHash } from 'node:crypto';
import { eventFields } from '../../../shared/schema/resources';
import { message } from '../../../shared/i18n/messages';
import type { Language } from '../../../shared/i18n/languages';
import { prepareItem, type PreparedItem } from './import-values';
import type { ImportProblem, ImportReport } from '../../../shared/api/import-report';

export type { ImportReport };
import { ApiError } from '../errors';
import { FIELDS } from '../store/linked-posts';
import type { Store } from '../store';
import type { WriteContext } from '../store/post-fields';
import { LinkMemo } from '../store/events';
import { MAX_IMPORT_OCCURRENCE_ROWS } from '../icalendar/bounds';

export type ImportKind = 'events' | 'venues' | 'organizers';

export interface ImportItem {
  /** Where the item is in the file: a line (iCalendar) or a row (CSV). */
  line?: number;
  row?: number;
  uid?: string;
  /**
   * An occurrence changed on its own: its original start (a wall time of its series), `uid` being
   * the series'. Items of a series come after its master item.
   */
  recurrenceId?: string;
  /** As the file gave it; empty when `prepared` says what it holds. */
  body: Record<string, unknown>;
  /** The body checked already (import-values.ts), by the thread that read the file. */
  prepared?: PreparedItem;
}

export interface ImportOptions {
  dryRun?: boolean;
  /** Import the good items and report the bad ones, instead of refusing the whole file. */
  skipInvalid?: boolean;
  onProgress?: (done: number, total: number) => void;
  /** Problems the parser already found; they count like bad items, so all are reported at once. */
  parseErrors?: ImportProblem[];
  /** Occurrence rows the import writes for its series at most (default bounds.ts). */
  maxOccurrenceRows?: number;
  /**
   * The calendar the events go to and UIDs are matched in (a CalDAV sync's pull). Left out: UIDs
   * match in any calendar and new events go to the one their body names, else this computer's.
   */
  calendarId?: number;
}

/**
 * Items between two runs of the search index while a large import writes (events.ts `catchUp`):
 * with 100,000 events, every 2,000 took the import from 15.1 to 13.9 s here (median of five);
 * every 500 or every 5,000 gained less.
 */
const SEARCH_INDEX_EVERY = 2000;

/** A UID for a CSV event row: the same row content gives the same UID on every import. */
export function csvRowUid(body: Record<string, unknown>): string {
  const key = JSON.stringify([body.title, body.start_date, body.end_date, body.timezone ?? '']);
  return `csv-${createHash('sha256').update(key).digest('hex').slice(0, 32)}@almanac`;
}

function describeError(err: unknown, lang: Language): string {
  if (err instanceof ApiError) {
    const fields = err.invalid ? Object.entries(err.invalid).map(([k, key]) => `${k}: ${message(lang, key, err.invalidVars?.[k])}`) : [];
    if (err.missing) fields.push(message(lang, 'rest_missing_callback_param', { params: err.missing.join(', ') }));
    return fields.length ? fields.join('; ') : message(lang, err.messageKey, err.vars);
  }
  throw err; // not a problem with the item: a bug or a broken database must not be reported as one
}

/**
 * A value as a string of its own. A title read from a file is often a slice of a larger string
 * (a VEVENT's whole text, for ical.js), which V8 keeps alive as long as the slice: the report
 * would hold every VEVENT of the file.
 */
function own(value: unknown): string {
  return (' ' + String(value)).slice(1);
}

/** The savepoint-free attempt met a bad item: it is rolled back and the import run again with savepoints. */
class NeedsSavepoints extends Error {}

/**
 * Items made as they are written, so that a large file is never held whole: `each` hands them
 * over in order and may be called again (the import's second attempt), giving the same items.
 */
export interface ItemSource {
  /** How many items there will be, as far as is known yet: exact once `each` has returned. */
  expected(): number;
  /** Hands over every item; returns the problems found in the file meanwhile. */
  each(emit: (item: ImportItem) => void): { parseErrors: ImportProblem[] };
}

export function importRecords(store: Store, kind: ImportKind, source: ImportItem[] | ItemSource, baseCtx: WriteContext, opts: ImportOptions = {}): ImportReport {
  const items: ItemSource = Array.isArray(source)
    ? { expected: () => source.length, each: (emit) => (source.forEach((item) => emit(item)), { parseErrors: opts.parseErrors ?? [] }) }
    : source;
  // Most files have no bad item, and then a savepoint per item (to undo just that item) is pure
  // cost; so is the search index kept by triggers row by row. The first attempt does without
  // both; an item that fails sends the import back to the start, this time item by item with
  // savepoints and the triggers, as it always was. Both attempts write the same rows.
  try {
    return attempt(store, kind, items, baseCtx, opts, false);
  } catch (err) {
    if (!(err instanceof NeedsSavepoints)) throw err;
  }
  return attempt(store, kind, items, baseCtx, opts, true);
}

function attempt(store: Store, kind: ImportKind, items: ItemSource, baseCtx: WriteContext, opts: ImportOptions, savepoints: boolean): ImportReport {
  // The file's own problems come first in the report; they are known once every item is made.
  const report: ImportReport = { dry_run: !!opts.dryRun, created: 0, updated: 0, reused: 0, skipped: 0, items: [], errors: [], warnings: [] };
  const idByUid = new Map<string, number>();
  let touchedEvents = false;
  // Series this import created: their occurrences changed on their own are new to the user too.
  const newSeries = new Set<number>();
  // The occurrence rows this import may write; series past it get theirs in the background.
  const rows = { left: opts.maxOccurrenceRows ?? MAX_IMPORT_OCCURRENCE_ROWS };
  let toldRows = false;
  const fields = kind === 'events' ? eventFields : FIELDS[kind === 'venues' ? 'venue' : 'organizer'];
  const memo = new LinkMemo();
  // Languages of Almanac's own exports: one context each instead of a copy per item.
  const contexts = new Map<Language, WriteContext>();
  const contextFor = (lang: Language | undefined): WriteContext => {
    if (lang === undefined) return baseCtx;
    let ctx = contexts.get(lang);
    // A language the item names is its own, whatever the import's default for events.
    if (!ctx) contexts.set(lang, (ctx = { ...baseCtx, lang, eventLang: lang }));
    return ctx;
  };

  const apply = (item: ImportItem) => {
    const { values, reminders, lang, dates } = item.prepared ?? prepareItem(fields, item.body, kind === 'events');
    // Almanac's own exports say each event's language; everything else joins the request's.
    const ctx = contextFor(lang);
    if (kind === 'events') touchedEvents = true;
    if (kind !== 'events') {
      const linked = kind === 'venues' ? store.venues : store.organizers;
      const { id, reused } = linked.create(values, ctx);
      report[reused ? 'reused' : 'created']++;
      report.items.push({ line: item.line, row: item.row, action: reused ? 'reuse' : 'create', id, title: own(values[kind === 'venues' ? 'venue' : 'organizer']) });
      return;
    }
    const uid = item.uid ?? csvRowUid(item.body);
    if (item.recurrenceId !== undefined) {
      // An occurrence changed on its own: it updates its series' occurrence when the calendar has
      // the series, and is an event of its own otherwise (a single shared instance).
      const seriesId = idByUid.get(uid) ?? store.events.getByIcsUid(uid, opts.calendarId)?.id;
      const series = seriesId === undefined ? undefined : store.series.get(seriesId);
      if (series) {
        const { id, created } = store.series.importException(series, item.recurrenceId, values, ctx, memo);
        if (reminders !== undefined) store.reminders.importOwn(id, reminders);
        const isNew = created || newSeries.has(series.id);
        report[isNew ? 'created' : 'updated']++;
        report.items.push({ line: item.line, row: item.row, action: isNew ? 'create' : 'update', id, title: own(values.title) });
        return;
      }
    }
    const ownUid = item.recurrenceId !== undefined ? `${uid}#${item.recurrenceId.replace(/[-: ]/g, '')}` : uid;
    const { recurrence, ...fieldValues } = values;
    // A calendar imported before series existed has `<UID>#<key>` rows: they become the series.
    const existing = store.events.getByIcsUid(ownUid, opts.calendarId) ?? (recurrence && opts.calendarId === undefined ? store.series.adoptLegacyRows(uid) : undefined);
    let id: number;
    if (existing) {
      id = existing.id;
      if (store.series.seriesOf(existing)) {
        store.series.update(existing, { ...fieldValues, ...(recurrence !== undefined ? { recurrence } : {}) }, 'all', ctx);
      } else {
        store.events.update(existing.id, fieldValues, ctx, { icsUid: ownUid, memo });
        if (recurrence) store.series.create(existing.id, recurrence, { uid, budget: rows });
      }
      report.updated++;
    } else {
      id = store.events.create(fieldValues, ctx, { icsUid: ownUid, memo, calendarId: opts.calendarId, dates });
      if (recurrence) {
        store.series.create(id, recurrence, { uid, budget: rows });
        newSeries.add(id);
      }
      report.created++;
    }
    // The file's reminders replace the event's (a file without them says nothing: CSV).
    if (reminders !== undefined) store.reminders.set(store.events.get(id)!, reminders, 'all');
    idByUid.set(ownUid, id);
    if (rows.left <= 0 && !toldRows) {
      toldRows = true;
      const limit = (opts.maxOccurrenceRows ?? MAX_IMPORT_OCCURRENCE_ROWS).toLocaleString('en');
      report.warnings.push({
        line: item.line,
        row: item.row,
        message: `The file's repeating events have more than ${limit} occurrences in the next two years; from "${own(values.title)}" on, their later occurrences are added in the background over the next minutes.`,
      });
    }
    report.items.push({ line: item.line, row: item.row, action: existing ? 'update' : 'create', id, title: own(values.title) });
  };

  // About every 1% of the items, so a large import moves steadily.
  const step = Math.max(1, Math.min(500, Math.floor(items.expected() / 100)));
  let written = 0;
  let lastTotal = 0;
  (opts.dryRun ? store.dryRun : store.write)(() => {
    const search = !savepoints && kind === 'events' ? store.events.deferSearchIndex() : undefined;
    try {
      const { parseErrors } = items.each((item) => {
        if (!savepoints) {
          try {
            apply(item);
          } catch {
            throw new NeedsSavepoints();
          }
        } else {
          try {
            // A savepoint per item, so a skipped item leaves nothing half-written behind.
            store.db.transaction(() => apply(item))();
          } catch (err) {
            // What the memo remembers may have been rolled back with the item.
            memo.clear();
            const where = item.row !== undefined ? `Row ${item.row}` : `Line ${item.line}`;
            report.errors.push({ line: item.line, row: item.row, message: `${where}: ${describeError(err, baseCtx.lang)}` });
            report.skipped++;
            report.items.push({ line: item.line, row: item.row, action: 'skip', title: own(item.body.title ?? item.body.venue ?? item.body.organizer ?? item.prepared?.values.title ?? '') });
          }
        }
        written++;
        if (search && written % SEARCH_INDEX_EVERY === 0) search.catchUp();
        if (opts.onProgress && written % step === 0) {
          lastTotal = Math.max(written, items.expected());
          opts.onProgress(written, lastTotal);
        }
      });
      // The last call says done (an empty import says nothing, as before).
      if (opts.onProgress && written > 0 && (written % step !== 0 || lastTotal !== written)) opts.onProgress(written, written);
      report.errors = parseErrors.concat(report.errors);
      report.skipped += parseErrors.length;
      search?.finish();
      // The schedule once for the whole import, rather than per event.
      if (touchedEvents) {
        store.reminders.refill(baseCtx.now);
        store.reminders.settleImported(idByUid.values(), baseCtx.now);
      }
    } catch (err) {
      search?.abandon();
      throw err;
    }
    if (report.errors.length && !opts.skipInvalid) {
      report.errors.sort((a, b) => (a.row ?? a.line ?? 0) - (b.row ?? b.line ?? 0));
      throw new ImportRefused(report);
    }
  });
  // A dry run was rolled back: those ids were never kept.
  if (opts.dryRun) for (const item of report.items) delete item.id;
  return report;
}

/** Thrown when an import has bad items and the user did not ask to skip them: nothing was written. */
export class ImportRefused extends Error {
  constructor(readonly report: ImportReport) {
    super(`${report.errors.length} item(s) could not be imported`);
  }
}
