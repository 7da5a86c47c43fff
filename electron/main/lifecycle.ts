/**
 * The desktop app's life: one instance per data directory, the embedded server, the window, the
 * menu and the bridge, and a clean stop. Electron comes in as parameters (`DesktopDeps`), so tests
 * drive all of it with a fake; only electron/main.ts passes the real modules.
 *
 *   start        data dir → single-instance lock → ready → server on 127.0.0.1 (4780, or a free
 *                port) with the per-install token and the discovery file → CSP, permissions, IPC,
 *                menu → window on the login URL
 *   2nd launch   the first instance's window is restored and focused; the second quits at once
 *                and never starts a server
 *   quit         window state saved; the quit waits until the server has stopped and the
 *                database is closed (its write-ahead log folded back into the file)
 *   reminders    a native notification per reminder the server fires; with the setting
 *                `keep_running_in_tray`, closing the window leaves the app in the tray
 */
import { join } from 'node:path';
import { DEFAULT_PORT, type AlmanacServer, type Logger, type ServerOptions } from '../server';
import { APP_NAME, ensureDataDir } from '../server/data-dir';
import type { DesktopCommand } from '../../shared/desktop-bridge';
import { resolveDataDir, sessionDataDir } from './data-dir';
import { loadWindowState, MIN_SIZE, trackWindowState, windowStateFile, type DisplayLike, type Rectangle } from './window-state';
import { denyAllPermissions, guardNavigation, type PermissionSession, type PreventableEvent } from './navigation';
import { installContentSecurityPolicy, type HeadersSession } from './content-security';
import { menuTemplate, type MenuItemTemplate } from './menu';
import { createTransfers, describeExport, describeImport, dialogsFor, showApiAccess, type DialogApi, type MessageBoxOptions } from './dialogs';
import { createCommandRouter, registerBridgeIpc, type IpcMainLike } from './bridge-ipc';
import { createSafeStorageSecrets, type SafeStorageLike } from './safe-storage-secrets';
import { createReminderNotifier, languageOf, type NotificationApi } from './reminder-notifications';
import { createTrayKeeper, type TrayLike } from './tray';
import { createSiteAuthorizer, linkFromArgv, PROTOCOL } from './site-authorize';

export interface AppLike {
  readonly isPackaged: boolean;
  requestSingleInstanceLock(): boolean;
  whenReady(): Promise<unknown>;
  quit(): void;
  exit(exitCode?: number): void;
  getVersion(): string;
  setName(name: string): void;
  getAppPath(): string;
  getPath(name: 'appData' | 'documents'): string;
  setPath(name: 'userData' | 'sessionData', path: string): void;
  enableSandbox(): void;
  /** Windows: notifications' clicks reach the app only under its App User Model ID. */
  setAppUserModelId?(id: string): void;
  /** Electron passes the second launch's command line: an `almanac://` link the system opened comes in it (Windows, Linux). */
  on(event: 'second-instance', listener: (event: unknown, argv?: readonly string[]) => void): unknown;
  /** macOS hands `almanac://` links here. */
  on(event: 'open-url', listener: (event: PreventableEvent, url: string) => void): unknown;
  /** Makes the system open `almanac://` links with this app. */
  setAsDefaultProtocolClient?(protocol: string, path?: string, args?: string[]): boolean;
  on(event: 'window-all-closed', listener: () => void): unknown;
  on(event: 'activate', listener: () => void): unknown;
  on(event: 'will-quit', listener: (event: PreventableEvent) => void): unknown;
}

export interface ContentsLike {
  id: number;
  send(channel: string, ...args: unknown[]): void;
  reload(): void;
  on(event: 'will-navigate', listener: (event: PreventableEvent & { url: string }) => void): unknown;
  on(event: 'will-frame-navigate', listener: (event: PreventableEvent & { url: string }) => void): unknown;
  on(event: 'will-redirect', listener: (event: PreventableEvent & { url: string }) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  on(event: 'did-start-navigation', listener: (details: { isMainFrame: boolean; isSameDocument: boolean }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' } | { action: 'allow' }): void;
}

export interface WindowLike {
  webContents: ContentsLike;
  loadURL(url: string): Promise<void>;
  show(): void;
  focus(): void;
  restore(): void;
  maximize(): void;
  isDestroyed(): boolean;
  getBounds(): Rectangle;
  getNormalBounds(): Rectangle;
  isMaximized(): boolean;
  isMinimized(): boolean;
  isFullScreen(): boolean;
  on(event: 'resize' | 'move' | 'maximize' | 'unmaximize' | 'close' | 'closed', listener: () => void): unknown;
  once(event: 'ready-to-show', listener: () => void): unknown;
}

export interface WindowOptions {
  x?: number;
  y?: number;
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  show: boolean;
  title: string;
  webPreferences: {
    preload: string;
    contextIsolation: true;
    nodeIntegration: false;
    nodeIntegrationInSubFrames: false;
    nodeIntegrationInWorker: false;
    sandbox: true;
    webSecurity: true;
    allowRunningInsecureContent: false;
    webviewTag: false;
    navigateOnDragDrop: false;
    devTools: boolean;
    spellcheck: boolean;
  };
}

export interface DesktopDeps<W extends WindowLike = WindowLike> {
  app: AppLike;
  createWindow(options: WindowOptions): W;
  /** Electron's `screen` (usable after ready only, hence a function). */
  screen(): { getAllDisplays(): DisplayLike[] };
  /** The window's session: `session.defaultSession` (after ready). */
  session(): PermissionSession & HeadersSession;
  Menu: { buildFromTemplate(template: MenuItemTemplate[]): unknown; setApplicationMenu(menu: never): void };
  ipcMain: IpcMainLike;
  dialog: DialogApi<W> & { showErrorBox(title: string, content: string): void };
  shell: { openExternal(url: string): Promise<void>; openPath(path: string): Promise<string> };
  clipboard: { writeText(text: string): void };
  createServer(options: ServerOptions): Promise<AlmanacServer>;
  argv: readonly string[];
  env: Record<string, string | undefined>;
  cwd: string;
  platform: NodeJS.Platform;
  /** Path of the Electron-ABI better-sqlite3 addon; throws with a message for the user when missing. */
  nativeBinding?: () => string | undefined;
  /** Default 4780 (a free port when taken). */
  port?: number;
  log?: Logger;
  /** `process.on` for SIGINT/SIGTERM, so Ctrl+C in a terminal quits cleanly too. */
  onSignal?: (signal: 'SIGINT' | 'SIGTERM', handler: () => void) => void;
  fetch?: typeof fetch;
  /** Electron's safeStorage: account passwords go to the OS keychain when it offers one. */
  safeStorage?: SafeStorageLike;
  /** After this long, a quit waiting for the server gives up and exits. */
  quitTimeoutMs?: number;
  /** Electron's `Notification`: reminders as native notifications (issue 16). */
  Notification?: NotificationApi;
  /** Makes the tray icon (`new Tray(icon)`), for "keep running in the tray". */
  createTray?: () => TrayLike;
  /** The system's locale (`app.getLocale()`), for the notifications' and tray's words. */
  locale?: () => string;
}

/** electron-builder.yml's appId. */
export const APP_USER_MODEL_ID = 'org.almanac.desktop';

export interface DesktopApp<W extends WindowLike = WindowLike> {
  /** False when another instance already had this data directory: this one quits. */
  primary: boolean;
  dataDir: string;
  /** Settles once the server runs and the window is loading (rejects when start-up failed). */
  ready: Promise<void>;
  server(): AlmanacServer | undefined;
  window(): W | undefined;
  /** Runs a menu command as the menu would. */
  command(command: DesktopCommand): 'sent' | 'fallback';
  menu(): MenuItemTemplate[];
}

export const warningsOnly: Logger = (level, line) => {
  if (level !== 'info') process.stderr.write(`${new Date().toISOString()} ${level.toUpperCase()} ${line}\n`);
};

export function startDesktopApp<W extends WindowLike>(deps: DesktopDeps<W>): DesktopApp<W> {
  const { app } = deps;
  const log = deps.log ?? warningsOnly;
  const { dir: dataDir } = resolveDataDir({ argv: deps.argv, env: deps.env, appData: app.getPath('appData'), cwd: deps.cwd });

  // Electron's own files live with the calendar, and the instance lock is per data directory.
  app.setName(APP_NAME);
  ensureDataDir(dataDir);
  app.setPath('userData', dataDir);
  app.setPath('sessionData', sessionDataDir(dataDir));
  app.enableSandbox();
  if (deps.platform === 'win32') app.setAppUserModelId?.(APP_USER_MODEL_ID);

  let server: AlmanacServer | undefined;
  let window: W | undefined;
  let template: MenuItemTemplate[] = [];
  let starting: Promise<void> | undefined;
  let stopping: Promise<void> | undefined;
  const stateFile = windowStateFile(dataDir);
  let windowState: ReturnType<typeof trackWindowState> | undefined;
  let notifier: ReturnType<typeof createReminderNotifier> | undefined;
  let tray: ReturnType<typeof createTrayKeeper> | undefined;
  const language = () => languageOf(deps.locale?.());

  const handle: DesktopApp<W> = {
    primary: app.requestSingleInstanceLock(),
    dataDir,
    ready: Promise.resolve(),
    server: () => server,
    window: () => (window && !window.isDestroyed() ? window : undefined),
    command: (c) => router.dispatch(c),
    menu: () => template,
  };

  if (!handle.primary) {
    // The first instance gets 'second-instance' and shows its window; this one has nothing to do.
    app.quit();
    return handle;
  }

  const transfers = createTransfers<W>({
    dialog: deps.dialog,
    server: () => server,
    documentsDir: safePath(() => app.getPath('documents'), dataDir),
    fetch: deps.fetch,
  });

  const message = (options: MessageBoxOptions | undefined) => {
    if (options) void dialogsFor(deps.dialog, handle.window()).message(options).catch(() => {});
  };

  // The menu's file commands still work while the page does not listen for commands.
  const router = createCommandRouter({
    target: () => handle.window()?.webContents,
    holdForPage: (command) => command.name === 'open-event' || command.name === 'site-authorized',
    fallback: (command) => {
      const win = handle.window();
      if (command.name === 'import') {
        void transfers.importFile(win, { format: command.format, kind: command.kind }).then((result) => {
          message(describeImport(result));
          if (result.status === 'imported' && !result.report.dry_run) handle.window()?.webContents.reload();
        });
      } else if (command.name === 'export') {
        void transfers.exportFile(win, command.format).then((result) => message(describeExport(result)));
      } else {
        log('warn', `the calendar page does not listen for "${command.name}" commands`);
      }
    },
  });

  const openDataFolder = async () => {
    const error = await deps.shell.openPath(dataDir);
    if (error) log('warn', `could not open ${dataDir}: ${error}`);
  };

  function showWindow() {
    const win = handle.window();
    if (win) {
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
    } else if (server && !stopping) {
      void createMainWindow(server);
    }
  }

  async function createMainWindow(srv: AlmanacServer): Promise<void> {
    const state = loadWindowState(stateFile, deps.screen().getAllDisplays());
    const appPath = app.getAppPath();
    const win = deps.createWindow({
      ...state.bounds,
      minWidth: MIN_SIZE.width,
      minHeight: MIN_SIZE.height,
      show: false,
      title: APP_NAME,
      webPreferences: {
        preload: join(appPath, 'out', 'preload', 'preload.cjs'),
        contextIsolation: true,
        nodeIntegration: false,
        nodeIntegrationInSubFrames: false,
        nodeIntegrationInWorker: false,
        sandbox: true,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
        navigateOnDragDrop: false,
        devTools: !app.isPackaged,
        spellcheck: true,
      },
    });
    window = win;
    if (state.maximized) win.maximize();
    windowState = trackWindowState(win, stateFile, { onError: (err) => log('warn', `could not save the window state: ${String(err)}`) });
    guardNavigation(win.webContents, { appOrigin: srv.url, openExternal: (url) => deps.shell.openExternal(url), log: (line) => log('warn', line) });
    const contentsId = win.webContents.id;
    win.webContents.on('did-start-navigation', (details) => {
      if (details.isMainFrame && !details.isSameDocument) router.reset(contentsId);
    });
    win.once('ready-to-show', () => win.show());
    win.on('closed', () => {
      router.reset(contentsId);
      if (window === win) window = undefined;
    });
    // The login URL trades the token for the session cookie and redirects to the calendar; the
    // page then calls the API with the token the preload hands it.
    try {
      await win.loadURL(srv.loginUrl);
    } catch (err) {
      log('error', `the calendar page did not load: ${String(err)}`);
    }
  }

  async function start(): Promise<void> {
    await app.whenReady();
    if (stopping) return;
    const nativeBinding = deps.nativeBinding?.();
    server = await deps.createServer({
      dataDir,
      port: deps.port ?? DEFAULT_PORT,
      fallbackToFreePort: true,
      nativeBinding,
      rendererDir: join(app.getAppPath(), 'out', 'renderer'),
      log,
      ...(deps.safeStorage ? { secrets: createSafeStorageSecrets(deps.safeStorage, dataDir, { platform: deps.platform, log: (line) => log('warn', line) }) } : {}),
    });
    if (stopping) return;
    const srv = server;
    const session = deps.session();
    installContentSecurityPolicy(session, srv.url);
    denyAllPermissions(session, (line) => log('warn', line));
    registerBridgeIpc<W>({
      ipcMain: deps.ipcMain,
      appOrigin: () => server?.url,
      config: () => (server ? { apiBase: server.apiRoot, token: server.token, version: app.getVersion() } : undefined),
      windowOf: (sender) => (handle.window()?.webContents.id === sender.id ? handle.window() : undefined),
      importFile: (win, options) => transfers.importFile(win, options),
      exportFile: (win, format, options) => transfers.exportFile(win, format, options),
      openDataFolder,
      authorizeSite: (address) => authorizer.start(address),
      router,
      log: (line) => log('warn', line),
    });
    template = menuTemplate({
      platform: deps.platform,
      appName: APP_NAME,
      devTools: !app.isPackaged,
      actions: {
        command: (c) => router.dispatch(c),
        openDataFolder: () => void openDataFolder(),
        showApiAccess: () =>
          void showApiAccess(deps.dialog, handle.window(), { apiRoot: srv.apiRoot, token: srv.token, tokenFile: srv.tokenFile, dataDir }, deps.clipboard).catch(() => {}),
      },
    });
    deps.Menu.setApplicationMenu(deps.Menu.buildFromTemplate(template) as never);
    if (deps.Notification) {
      notifier = createReminderNotifier({
        Notification: deps.Notification,
        subscribe: (listener) => srv.reminders.onMessage(listener),
        showWindow,
        openEvent: (id) => void router.dispatch({ name: 'open-event', id }),
        language,
        log: (line) => log('warn', line),
      });
    }
    if (deps.createTray) {
      const createTray = deps.createTray;
      tray = createTrayKeeper({
        createTray,
        buildMenu: (items) => deps.Menu.buildFromTemplate(items),
        keepRunning: () => !!server?.store.settings.get().keep_running_in_tray,
        showWindow,
        quit: () => app.quit(),
        language,
        log: (line) => log('warn', line),
      });
      tray.sync();
    }
    await createMainWindow(srv);
  }

  async function stop(): Promise<void> {
    windowState?.flush();
    await starting?.catch(() => {});
    notifier?.stop();
    tray?.destroy();
    const srv = server;
    server = undefined;
    await srv?.close();
  }

  // WordPress's "authorize application" flow: the approval comes back as an almanac:// link.
  const authorizer = createSiteAuthorizer({
    fetch: deps.fetch ?? ((url, init) => fetch(url, init)),
    openExternal: (url) => deps.shell.openExternal(url),
    deliver: (a) => void router.dispatch({ name: 'site-authorized', ...a }),
    log: (line) => log('warn', line),
  });
  const takeLink = (link: string | undefined) => {
    if (!link) return;
    showWindow();
    authorizer.handleLink(link);
  };
  // Run from the sources (`electron .`), the system must be told how to start this app again.
  if (app.isPackaged) app.setAsDefaultProtocolClient?.(PROTOCOL);
  else if (deps.argv[1]) app.setAsDefaultProtocolClient?.(PROTOCOL, deps.argv[0], [deps.argv[1]]);
  app.on('second-instance', (_event, argv) => {
    showWindow();
    takeLink(linkFromArgv(argv ?? []));
  });
  app.on('open-url', (event, url) => {
    event.preventDefault();
    takeLink(url);
  });
  app.on('activate', showWindow);
  app.on('window-all-closed', () => {
    // In the tray (the user's setting) the server keeps firing reminders; the icon brings the window back.
    if (server && !stopping && tray?.windowClosed()) return;
    // macOS apps stay in the Dock without windows; elsewhere closing the window quits.
    if (deps.platform !== 'darwin') app.quit();
  });
  app.on('will-quit', (event) => {
    windowState?.flush();
    if (!server && !starting) return;
    // Hold the quit until the server is closed, then quit for real.
    event.preventDefault();
    if (stopping) return;
    const timeout = setTimeout(() => {
      log('error', 'the server did not stop in time; exiting anyway');
      app.exit(1);
    }, deps.quitTimeoutMs ?? 10_000);
    timeout.unref?.();
    stopping = stop()
      .catch((err) => log('error', `could not close the calendar cleanly: ${String(err)}`))
      .finally(() => {
        clearTimeout(timeout);
        starting = undefined;
        app.quit();
      });
  });
  deps.onSignal?.('SIGINT', () => app.quit());
  deps.onSignal?.('SIGTERM', () => app.quit());

  starting = start();
  handle.ready = starting.catch(async (err: Error) => {
    const detail = err?.message ?? String(err);
    log('error', `start-up failed: ${err?.stack ?? detail}`);
    starting = undefined;
    const srv = server;
    server = undefined;
    await srv?.close().catch(() => {});
    deps.dialog.showErrorBox('Almanac could not start', detail);
    app.exit(1);
    throw err;
  });
  // The ready promise is for callers who want it; an unobserved failure is already reported.
  handle.ready.catch(() => {});
  return handle;
}

function safePath(get: () => string, fallback: string): string {
  try {
    return get();
  } catch {
    return fallback;
  }
}
