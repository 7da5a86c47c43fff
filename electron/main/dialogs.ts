/**
 * Import and export through the native open and save dialogs. The main process picks the file,
 * then talks to its own server's /import and /export with the token, so the page never touches
 * the file system. Also: the data folder in the file manager, and the API address and token for
 * scripts.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { IMPORT_LIMIT_BYTES, IMPORT_LIMIT_LABEL } from '../../shared/api/import-limit';
import { FORMAT_HEAD_CHARS, IMPORT_EXTENSIONS, importFormat } from '../../shared/import-format';
import type {
  ExportFormat,
  ExportOptions,
  ExportResult,
  ImportFormat,
  ImportOptions,
  ImportProblem,
  ImportReport,
  ImportResult,
  RestoreReport,
} from '../../shared/desktop-bridge';


export interface FileFilter {
  name: string;
  extensions: string[];
}

export interface MessageBoxOptions {
  type?: 'none' | 'info' | 'error' | 'question' | 'warning';
  title?: string;
  message: string;
  detail?: string;
  buttons?: string[];
  defaultId?: number;
  cancelId?: number;
  noLink?: boolean;
}

export interface OpenDialogOptions {
  title?: string;
  defaultPath?: string;
  properties: Array<'openFile'>;
  filters: FileFilter[];
}

export interface SaveDialogOptions {
  title?: string;
  defaultPath?: string;
  filters: FileFilter[];
}

/**
 * What of Electron's `dialog` this module uses; `W` is the BrowserWindow a dialog belongs to
 * (without one, as on macOS with every window closed, the dialog stands alone).
 */
export interface DialogApi<W> {
  showOpenDialog(window: W, options: OpenDialogOptions): Promise<{ canceled: boolean; filePaths: string[] }>;
  showOpenDialog(options: OpenDialogOptions): Promise<{ canceled: boolean; filePaths: string[] }>;
  showSaveDialog(window: W, options: SaveDialogOptions): Promise<{ canceled: boolean; filePath?: string }>;
  showSaveDialog(options: SaveDialogOptions): Promise<{ canceled: boolean; filePath?: string }>;
  showMessageBox(window: W, options: MessageBoxOptions): Promise<{ response: number }>;
  showMessageBox(options: MessageBoxOptions): Promise<{ response: number }>;
}

/** The dialog calls with or without a parent window. */
export function dialogsFor<W>(dialog: DialogApi<W>, window: W | undefined) {
  return {
    open: (o: OpenDialogOptions) => (window ? dialog.showOpenDialog(window, o) : dialog.showOpenDialog(o)),
    save: (o: SaveDialogOptions) => (window ? dialog.showSaveDialog(window, o) : dialog.showSaveDialog(o)),
    message: (o: MessageBoxOptions) => (window ? dialog.showMessageBox(window, o) : dialog.showMessageBox(o)),
  };
}

export interface TransferDeps<W> {
  dialog: DialogApi<W>;
  /** The running server: where its API is and its token. */
  server: () => { apiRoot: string; token: string } | undefined;
  /** Where the save dialog starts (`app.getPath('documents')`). */
  documentsDir: string;
  fetch?: typeof fetch;
  now?: () => Date;
}

export const IMPORT_FILTERS: Record<ImportFormat, FileFilter> = {
  ics: { name: 'iCalendar', extensions: [...IMPORT_EXTENSIONS.ics] },
  csv: { name: 'CSV', extensions: [...IMPORT_EXTENSIONS.csv, 'txt'] },
  json: { name: 'Almanac backup (JSON)', extensions: [...IMPORT_EXTENSIONS.json] },
};

const EXPORT_FILTERS: Record<ExportFormat, FileFilter> = {
  ics: { name: 'iCalendar', extensions: ['ics'] },
  json: { name: 'Almanac backup (JSON)', extensions: ['json'] },
};

export function importFilters(format?: ImportFormat): FileFilter[] {
  if (format) return [IMPORT_FILTERS[format], { name: 'All files', extensions: ['*'] }];
  const all = Object.values(IMPORT_FILTERS);
  return [{ name: 'Calendar files', extensions: all.flatMap((f) => f.extensions) }, ...all, { name: 'All files', extensions: ['*'] }];
}

/**
 * The format of a file from its first bytes and its name, as the server tells it
 * (shared/import-format.ts); the dialog needs it first, to ask before a backup replaces the calendar.
 */
export function formatOfFile(file: string, head: Buffer, explicit?: ImportFormat): ImportFormat {
  const text = head[0] === 0xff && head[1] === 0xfe ? head.subarray(2).toString('utf16le') : head.toString('utf8');
  return importFormat(text, basename(file), explicit);
}

async function readHead(file: string, bytes = FORMAT_HEAD_CHARS): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export function defaultExportName(format: ExportFormat, now: Date): string {
  const day = now.toISOString().slice(0, 10);
  return format === 'json' ? `almanac-backup-${day}.json` : `almanac-${day}.ics`;
}

/** Query string of an export: the format, the language and the events-list filters. */
export function exportQuery(format: ExportFormat, options: ExportOptions = {}): URLSearchParams {
  const params = new URLSearchParams({ format });
  if (format === 'ics') {
    for (const [key, value] of Object.entries(options.filters ?? {})) {
      if (key === 'format' || key === 'i18n_language') continue;
      if (Array.isArray(value)) {
        if (value.length) params.set(key, value.join(','));
      } else params.set(key, String(value));
    }
  }
  if (options.language) params.set('i18n_language', options.language);
  return params;
}

interface ApiErrorBody {
  code?: string;
  message?: string;
  data?: { errors?: ImportProblem[]; reason?: string };
}

async function errorOf(res: Response): Promise<{ message: string; code?: string; errors?: ImportProblem[] }> {
  const body = (await res.json().catch(() => ({}))) as ApiErrorBody;
  return {
    message: body.message ?? `The server answered ${res.status}.`,
    ...(body.code ? { code: body.code } : {}),
    ...(body.data?.errors?.length ? { errors: body.data.errors } : {}),
  };
}

const NOT_RUNNING = 'The calendar is not running (it may be closing).';

/**
 * Import and export for the windows of one app. Remembers, per window, the last file picked for
 * import, so a dry run can be followed by the real import of the same file.
 */
export function createTransfers<W>(deps: TransferDeps<W>) {
  const doFetch = deps.fetch ?? fetch;
  const now = deps.now ?? (() => new Date());
  const lastImport = new WeakMap<object, string>();

  async function importFile(window: W | undefined, options: ImportOptions = {}): Promise<ImportResult> {
    const server = deps.server();
    if (!server) return { status: 'failed', message: NOT_RUNNING };
    const dialogs = dialogsFor(deps.dialog, window);
    let file = options.useLastFile && window ? lastImport.get(window as object) : undefined;
    if (!file) {
      const picked = await dialogs.open({
        title: options.format === 'json' ? 'Restore a backup' : 'Import',
        properties: ['openFile'],
        filters: importFilters(options.format),
      });
      if (picked.canceled || !picked.filePaths[0]) return { status: 'cancelled' };
      file = picked.filePaths[0];
    }
    if (window) lastImport.set(window as object, file);

    try {
      const size = (await stat(file)).size;
      if (size > IMPORT_LIMIT_BYTES) return { status: 'failed', file, message: `${basename(file)} is larger than the import limit of ${IMPORT_LIMIT_LABEL}.`, code: 'import-file-too-large' };
      const format = formatOfFile(file, await readHead(file), options.format);
      if (format === 'json' && !options.dryRun) {
        const { response } = await dialogs.message({
          type: 'warning',
          title: 'Restore a backup',
          message: `Replace the whole calendar with the backup in ${basename(file)}?`,
          detail: 'Every event, venue, organizer, category, tag and setting is replaced by the backup’s. A copy of the calendar as it is now is kept in the data folder.',
          buttons: ['Restore', 'Cancel'],
          defaultId: 1,
          cancelId: 1,
          noLink: true,
        });
        if (response !== 0) return { status: 'cancelled' };
      }
      const params = new URLSearchParams({
        format,
        kind: options.kind ?? 'events',
        dry_run: String(!!options.dryRun),
        skip_invalid: String(!!options.skipInvalid),
      });
      if (options.language) params.set('i18n_language', options.language);
      const body = await readFile(file);
      const res = await doFetch(`${server.apiRoot}import?${params}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/octet-stream' },
        body,
      });
      if (!res.ok) return { status: 'failed', file, ...(await errorOf(res)) };
      return { status: 'imported', file, report: (await res.json()) as ImportReport | RestoreReport };
    } catch (err) {
      return { status: 'failed', file, message: (err as Error).message };
    }
  }

  async function exportFile(window: W | undefined, format: ExportFormat, options: ExportOptions = {}): Promise<ExportResult> {
    const server = deps.server();
    if (!server) return { status: 'failed', message: NOT_RUNNING };
    const picked = await dialogsFor(deps.dialog, window).save({
      title: format === 'json' ? 'Save a backup of the whole calendar' : 'Export events',
      defaultPath: join(deps.documentsDir, defaultExportName(format, now())),
      filters: [EXPORT_FILTERS[format]],
    });
    if (picked.canceled || !picked.filePath) return { status: 'cancelled' };
    const file = picked.filePath;
    // Written beside the target and renamed at the end: a failed export never leaves half a file.
    const part = `${file}.${randomBytes(4).toString('hex')}.part`;
    try {
      const res = await doFetch(`${server.apiRoot}export?${exportQuery(format, options)}`, { headers: { Authorization: `Bearer ${server.token}` } });
      if (!res.ok || !res.body) return { status: 'failed', file, ...(await errorOf(res)) };
      let bytes = 0;
      const counted = Readable.fromWeb(res.body as never).map((chunk: Buffer) => {
        bytes += chunk.length;
        return chunk;
      });
      await pipeline(counted, createWriteStream(part, { mode: 0o600 }));
      await rename(part, file);
      return { status: 'saved', file, bytes };
    } catch (err) {
      await rm(part, { force: true }).catch(() => {});
      return { status: 'failed', file, message: (err as Error).message };
    }
  }

  return { importFile, exportFile };
}

export type Transfers<W> = ReturnType<typeof createTransfers<W>>;

/** The message box that reports an import, when the main process ran it on its own (menu, no UI listening). */
export function describeImport(result: ImportResult): MessageBoxOptions | undefined {
  if (result.status === 'cancelled') return undefined;
  const name = result.file ? basename(result.file) : 'the file';
  if (result.status === 'failed') {
    const errors = (result.errors ?? []).slice(0, 10).map((e) => `${e.row !== undefined ? `Row ${e.row}` : e.line !== undefined ? `Line ${e.line}` : '•'}: ${e.message}`);
    return { type: 'error', title: 'Import', message: `Could not import ${name}.`, detail: [result.message, ...errors].join('\n'), buttons: ['OK'] };
  }
  const report = result.report;
  if ('restored' in report) {
    const r = report.restored;
    return {
      type: 'info',
      title: 'Restore',
      message: `Restored ${r.events ?? 0} events, ${r.venues ?? 0} venues and ${r.organizers ?? 0} organizers from ${name}.`,
      detail: report.previous_copy ? `The calendar as it was before is kept in ${report.previous_copy}` : undefined,
      buttons: ['OK'],
    };
  }
  const lines = [`Created ${report.created}, updated ${report.updated}, reused ${report.reused}, skipped ${report.skipped}.`];
  for (const e of report.errors.slice(0, 10)) lines.push(`Error: ${e.message}`);
  if (report.warnings.length) lines.push(`${report.warnings.length} warning(s), for example: ${report.warnings[0].message}`);
  return { type: report.errors.length ? 'warning' : 'info', title: 'Import', message: `Imported ${name}.`, detail: lines.join('\n'), buttons: ['OK'] };
}

export function describeExport(result: ExportResult): MessageBoxOptions | undefined {
  if (result.status === 'cancelled') return undefined;
  if (result.status === 'failed') return { type: 'error', title: 'Export', message: 'Could not export the calendar.', detail: result.message, buttons: ['OK'] };
  return { type: 'info', title: 'Export', message: `Saved ${basename(result.file)}.`, detail: result.file, buttons: ['OK'] };
}

/** The Help menu's box: where scripts find the API and the token, with buttons to copy them. */
export async function showApiAccess<W>(
  dialog: DialogApi<W>,
  window: W | undefined,
  info: { apiRoot: string; token: string; tokenFile?: string; dataDir: string },
  clipboard: { writeText(text: string): void },
): Promise<'token' | 'address' | 'none'> {
  const { response } = await dialogsFor(dialog, window).message({
    type: 'info',
    title: 'API address and token',
    message: 'Scripts and other programs can use your calendar through its API.',
    detail: [
      `API address: ${info.apiRoot}`,
      info.tokenFile ? `Token file: ${info.tokenFile} (readable by you only)` : 'Token: given at start-up (ALMANAC_TOKEN)',
      '',
      'Send the token in every request: "Authorization: Bearer <token>".',
      `While the app runs, ${join(info.dataDir, 'server.json')} says which port it is on.`,
      'Keep the token secret: it gives full access to the calendar.',
    ].join('\n'),
    buttons: ['Copy Token', 'Copy API Address', 'Close'],
    defaultId: 2,
    cancelId: 2,
    noLink: true,
  });
  if (response === 0) {
    clipboard.writeText(info.token);
    return 'token';
  }
  if (response === 1) {
    clipboard.writeText(info.apiRoot);
    return 'address';
  }
  return 'none';
}
