/**
 * The main-process side of `window.almanac`: answers the preload's calls (IPC.*) and sends menu
 * commands to the page. Only the app's own pages are answered, and every argument coming from a
 * page is checked, since a page is never trusted with more than it asked for.
 */
import {
  IPC,
  isExportFormat,
  isImportFormat,
  isImportKind,
  type BridgeConfig,
  type DesktopCommand,
  type ExportFormat,
  type ExportOptions,
  type ExportResult,
  type ImportOptions,
  type ImportResult,
  type SiteAuthorizeResult,
} from '../../shared/desktop-bridge';
import { isLanguage } from '../../shared/i18n/languages';
import { originOf } from './navigation';

export interface IpcSender {
  id: number;
}

export interface IpcEventLike {
  sender: IpcSender;
  senderFrame?: { url: string } | null;
}

export interface SyncIpcEventLike extends IpcEventLike {
  returnValue: unknown;
}

/** What of Electron's `ipcMain` the bridge uses. */
export interface IpcMainLike {
  // Arguments come from the page: typed `any` by Electron, checked here before use.
  on(channel: string, listener: (event: SyncIpcEventLike, ...args: any[]) => void): unknown;
  handle(channel: string, listener: (event: IpcEventLike, ...args: any[]) => unknown): void;
  removeHandler(channel: string): void;
  removeAllListeners(channel: string): unknown;
}

export class BridgeArgumentError extends Error {}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The import options a page sent, checked; unknown keys are refused. */
export function parseImportOptions(raw: unknown): ImportOptions {
  if (raw === undefined || raw === null) return {};
  if (!isPlainObject(raw)) throw new BridgeArgumentError('import options must be an object');
  const out: ImportOptions = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    switch (key) {
      case 'format':
        if (!isImportFormat(value)) throw new BridgeArgumentError('format must be ics, csv or json');
        out.format = value;
        break;
      case 'kind':
        if (!isImportKind(value)) throw new BridgeArgumentError('kind must be events, venues or organizers');
        out.kind = value;
        break;
      case 'language':
        if (!isLanguage(value)) throw new BridgeArgumentError('language must be en, pt-br or es');
        out.language = value;
        break;
      case 'dryRun':
      case 'skipInvalid':
      case 'useLastFile':
        if (typeof value !== 'boolean') throw new BridgeArgumentError(`${key} must be true or false`);
        out[key] = value;
        break;
      default:
        throw new BridgeArgumentError(`unknown import option "${key}"`);
    }
  }
  return out;
}

const FILTER_NAME = /^[a-z][a-z0-9_]{0,39}$/;
const isScalar = (v: unknown): v is string | number | boolean => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

export function parseExportArgs(format: unknown, raw: unknown): { format: ExportFormat; options: ExportOptions } {
  if (!isExportFormat(format)) throw new BridgeArgumentError('format must be ics or json');
  if (raw === undefined || raw === null) return { format, options: {} };
  if (!isPlainObject(raw)) throw new BridgeArgumentError('export options must be an object');
  const options: ExportOptions = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (key === 'language') {
      if (!isLanguage(value)) throw new BridgeArgumentError('language must be en, pt-br or es');
      options.language = value;
    } else if (key === 'filters') {
      if (!isPlainObject(value)) throw new BridgeArgumentError('filters must be an object');
      const filters: NonNullable<ExportOptions['filters']> = {};
      for (const [name, v] of Object.entries(value)) {
        if (!FILTER_NAME.test(name) || name === 'format') throw new BridgeArgumentError(`bad filter name "${name}"`);
        if (Array.isArray(v) ? !v.every((x) => typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x))) : !isScalar(v)) {
          throw new BridgeArgumentError(`bad value for filter "${name}"`);
        }
        filters[name] = v as string | number | boolean | Array<string | number>;
      }
      options.filters = filters;
    } else {
      throw new BridgeArgumentError(`unknown export option "${key}"`);
    }
  }
  return { format, options };
}

/** What of `webContents` commands are sent through. */
export interface CommandTarget {
  id: number;
  send(channel: string, ...args: unknown[]): void;
}

/**
 * Menu commands go to the page when it listens (`onCommand`); otherwise the fallback runs them
 * (the main process does import and export itself). A page load resets what it listens to.
 */
export function createCommandRouter(opts: {
  target: () => CommandTarget | undefined;
  fallback: (command: DesktopCommand) => void;
  /**
   * Commands only the page can carry out (open an event from a notification): kept, the newest
   * one, until a page listens, instead of falling back. A window reopened from the tray is still
   * loading when its notification is clicked.
   */
  holdForPage?: (command: DesktopCommand) => boolean;
}) {
  const listening = new Map<number, number>();
  let held: DesktopCommand | undefined;
  return {
    setListeners(contentsId: number, count: unknown) {
      listening.set(contentsId, typeof count === 'number' && count > 0 ? count : 0);
      const target = opts.target();
      if (held && target?.id === contentsId && (listening.get(contentsId) ?? 0) > 0) {
        target.send(IPC.command, held);
        held = undefined;
      }
    },
    reset(contentsId: number) {
      listening.delete(contentsId);
    },
    listens(contentsId: number): boolean {
      return (listening.get(contentsId) ?? 0) > 0;
    },
    dispatch(command: DesktopCommand): 'sent' | 'fallback' {
      const target = opts.target();
      if (target && (listening.get(target.id) ?? 0) > 0) {
        target.send(IPC.command, command);
        return 'sent';
      }
      if (opts.holdForPage?.(command)) {
        held = command;
        return 'fallback';
      }
      opts.fallback(command);
      return 'fallback';
    },
  };
}

export type CommandRouter = ReturnType<typeof createCommandRouter>;

export interface BridgeHandlers<W> {
  ipcMain: IpcMainLike;
  /** The server's origin (`http://127.0.0.1:PORT`) while it runs. */
  appOrigin: () => string | undefined;
  config: () => BridgeConfig | undefined;
  /** The window a page belongs to, for parenting the dialogs. */
  windowOf: (sender: IpcSender) => W | undefined;
  importFile: (window: W | undefined, options: ImportOptions) => Promise<ImportResult>;
  exportFile: (window: W | undefined, format: ExportFormat, options: ExportOptions) => Promise<ExportResult>;
  openDataFolder: () => Promise<void>;
  /** Opens a website's approval page (electron/main/site-authorize.ts). */
  authorizeSite?: (address: string) => Promise<SiteAuthorizeResult>;
  router: CommandRouter;
  log?: (line: string) => void;
}

/** True when the IPC message comes from a page of the app's own origin. */
export function fromApp(event: IpcEventLike, appOrigin: string | undefined): boolean {
  const url = event.senderFrame?.url;
  return !!appOrigin && !!url && originOf(url) === appOrigin;
}

export function registerBridgeIpc<W>(h: BridgeHandlers<W>): () => void {
  const refuse = (channel: string, event: IpcEventLike) => {
    h.log?.(`refused ${channel} from ${event.senderFrame?.url ?? 'an unknown frame'}`);
    return new Error('Not available to this page.');
  };

  h.ipcMain.on(IPC.config, (event) => {
    event.returnValue = fromApp(event, h.appOrigin()) ? (h.config() ?? null) : null;
  });
  h.ipcMain.on(IPC.commandListeners, (event, count: unknown) => {
    if (fromApp(event, h.appOrigin())) h.router.setListeners(event.sender.id, count);
  });
  h.ipcMain.handle(IPC.importFile, async (event, raw: unknown) => {
    if (!fromApp(event, h.appOrigin())) throw refuse(IPC.importFile, event);
    return h.importFile(h.windowOf(event.sender), parseImportOptions(raw));
  });
  h.ipcMain.handle(IPC.exportFile, async (event, format: unknown, raw: unknown) => {
    if (!fromApp(event, h.appOrigin())) throw refuse(IPC.exportFile, event);
    const args = parseExportArgs(format, raw);
    return h.exportFile(h.windowOf(event.sender), args.format, args.options);
  });
  h.ipcMain.handle(IPC.openDataFolder, async (event) => {
    if (!fromApp(event, h.appOrigin())) throw refuse(IPC.openDataFolder, event);
    await h.openDataFolder();
  });
  h.ipcMain.handle(IPC.authorizeSite, async (event, address: unknown) => {
    if (!fromApp(event, h.appOrigin()) || !h.authorizeSite) throw refuse(IPC.authorizeSite, event);
    if (typeof address !== 'string' || address.length > 2000) throw new BridgeArgumentError('address must be text of at most 2000 characters');
    return h.authorizeSite(address);
  });

  return () => {
    h.ipcMain.removeAllListeners(IPC.config);
    h.ipcMain.removeAllListeners(IPC.commandListeners);
    h.ipcMain.removeHandler(IPC.importFile);
    h.ipcMain.removeHandler(IPC.exportFile);
    h.ipcMain.removeHandler(IPC.openDataFolder);
    h.ipcMain.removeHandler(IPC.authorizeSite);
  };
}
