/**
 * What the Electron preload hands the renderer as `window.almanac`, typed once for both sides:
 * the preload builds an object of this type, the main process answers its calls, and the renderer
 * reads it. Only types and constants live here (the renderer's build includes this file).
 *
 * In a plain browser tab (the headless server) there is no bridge: the page talks to its own
 * origin and is authenticated by the session cookie the login URL set.
 */

export const CALENDAR_VIEWS = ['month', 'week', 'day', 'agenda'] as const;
export type CalendarView = (typeof CALENDAR_VIEWS)[number];

export const IMPORT_FORMATS = ['ics', 'csv', 'json'] as const;
/** `ics` iCalendar, `csv` the original plugin's columns, `json` an Almanac backup (restores everything). */
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const IMPORT_KINDS = ['events', 'venues', 'organizers'] as const;
/** What a CSV file holds. */
export type ImportKind = (typeof IMPORT_KINDS)[number];

export const EXPORT_FORMATS = ['ics', 'json'] as const;
/** `ics` the events as iCalendar (list filters apply), `json` the whole calendar as a backup. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ImportOptions {
  /** Narrows the file picker; when left out every supported file is offered and the format is guessed. */
  format?: ImportFormat;
  /** For CSV files (default `events`). */
  kind?: ImportKind;
  /** Report what would happen and change nothing. */
  dryRun?: boolean;
  /** Import the good items and report the bad ones instead of refusing the file. */
  skipInvalid?: boolean;
  /** Content language of the imported records: `en`, `pt-br`, `es` (default `en`). */
  language?: string;
  /** Import the file picked by this window's previous `importFile` call without asking again (after a dry run). */
  useLastFile?: boolean;
}

export interface ExportOptions {
  /** Content language of the exported events (default `en`); ignored by the JSON backup. */
  language?: string;
  /** Events-list filters for an iCalendar export (`start_date`, `categories`, `search`…); arrays are sent comma-separated. */
  filters?: Record<string, string | number | boolean | Array<string | number>>;
}

import type { ImportProblem, ImportReport, RestoreReport } from './api/import-report';

export type { ImportProblem, ImportReport, RestoreReport };

export type ImportResult =
  | { status: 'cancelled' }
  | { status: 'imported'; file: string; report: ImportReport | RestoreReport }
  | { status: 'failed'; file?: string; message: string; code?: string; errors?: ImportProblem[] };

export type ExportResult =
  | { status: 'cancelled' }
  | { status: 'saved'; file: string; bytes: number }
  | { status: 'failed'; file?: string; message: string; code?: string };

/** What the application menu asks the calendar UI to do. */
export type DesktopCommand =
  | { name: 'show-view'; view: CalendarView }
  /** Help > Keyboard Shortcuts: the page's list of shortcuts (also `?` in the page). */
  | { name: 'show-shortcuts' }
  | { name: 'import'; format: ImportFormat; kind: ImportKind }
  | { name: 'export'; format: ExportFormat }
  /** A reminder's notification was clicked: the event's details card (issue 16). */
  | { name: 'open-event'; id: number }
  /**
   * A website approved Almanac (WordPress's "authorize application" flow, issue 26): the fields of
   * "Connect a website", its application password included, for the page to connect with.
   */
  | { name: 'site-authorized'; url: string; user: string; password: string };

/** What `authorizeSite` did: the site's approval page opened in the browser, or why not. */
export type SiteAuthorizeResult = { status: 'opened' } | { status: 'failed'; reason: 'bad-address' | 'unreachable' | 'not-a-site' | 'no-authorization' };

export interface DesktopBridge {
  /** Absolute URL of the API namespace root, with a trailing slash. */
  apiBase: string;
  /** The API token, sent as `Authorization: Bearer`. */
  token: string;
  version: string;
  /** Asks for a file with the native open dialog and sends it to `POST /import`. */
  importFile(options?: ImportOptions): Promise<ImportResult>;
  /** Asks where to save with the native save dialog and writes `GET /export` there. */
  exportFile(format: ExportFormat, options?: ExportOptions): Promise<ExportResult>;
  /** Shows the data directory in the system's file manager. */
  openDataFolder(): Promise<void>;
  /**
   * Menu commands for the UI. Returns the unsubscribe function. While nobody listens, the main
   * process performs the import and export commands itself (with default options).
   */
  onCommand(listener: (command: DesktopCommand) => void): () => void;
  /**
   * Opens the website's "authorize application" page in the browser; its answer comes back as the
   * `site-authorized` command.
   */
  authorizeSite(address: string): Promise<SiteAuthorizeResult>;
}

/** Every key of `DesktopBridge`, for checking at run time that the preload exposes exactly these. */
export const BRIDGE_KEYS = ['apiBase', 'token', 'version', 'importFile', 'exportFile', 'openDataFolder', 'onCommand', 'authorizeSite'] as const;
type BridgeKey = (typeof BRIDGE_KEYS)[number];
// Fails to compile when BRIDGE_KEYS and DesktopBridge disagree.
const keysMatch: [Exclude<keyof DesktopBridge, BridgeKey>, Exclude<BridgeKey, keyof DesktopBridge>] extends [never, never] ? true : false = true;
void keysMatch;

/** The name of the bridge on `window`. */
export const BRIDGE_NAME = 'almanac';

/** The preload's synchronous request for the values of the bridge (answered only for the app's own pages). */
export interface BridgeConfig {
  apiBase: string;
  token: string;
  version: string;
}

/** IPC channels between the preload and the main process. */
export const IPC = {
  /** sendSync → `BridgeConfig | null` */
  config: 'almanac:config',
  /** invoke(ImportOptions) → ImportResult */
  importFile: 'almanac:import-file',
  /** invoke(ExportFormat, ExportOptions) → ExportResult */
  exportFile: 'almanac:export-file',
  /** invoke() → void */
  openDataFolder: 'almanac:open-data-folder',
  /** main → renderer: DesktopCommand */
  command: 'almanac:command',
  /** renderer → main: how many `onCommand` listeners the page has now */
  commandListeners: 'almanac:command-listeners',
  /** invoke(address: string) → SiteAuthorizeResult */
  authorizeSite: 'almanac:authorize-site',
} as const;

export function isCalendarView(v: unknown): v is CalendarView {
  return (CALENDAR_VIEWS as readonly unknown[]).includes(v);
}

export function isImportFormat(v: unknown): v is ImportFormat {
  return (IMPORT_FORMATS as readonly unknown[]).includes(v);
}

export function isImportKind(v: unknown): v is ImportKind {
  return (IMPORT_KINDS as readonly unknown[]).includes(v);
}

export function isExportFormat(v: unknown): v is ExportFormat {
  return (EXPORT_FORMATS as readonly unknown[]).includes(v);
}

declare global {
  interface Window {
    almanac?: DesktopBridge;
  }
}
