/**
 * A small stand-in for the parts of Electron the desktop app uses, for running the main-process
 * modules under Node. It behaves as Electron does where the app depends on it: one instance lock
 * per userData folder (a refused second instance makes the first emit 'second-instance'), closing
 * the last window emits 'window-all-closed', and `quit()` emits a preventable 'will-quit'.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer, silentLogger, type ServerOptions } from '../../electron/server';
import type { DesktopDeps, WindowOptions } from '../../electron/main/lifecycle';
import type { MenuItemTemplate } from '../../electron/main/menu';
import type { MessageBoxOptions, OpenDialogOptions, SaveDialogOptions } from '../../electron/main/dialogs';
import type { DisplayLike, Rectangle } from '../../electron/main/window-state';

export const ROOT = resolve(import.meta.dirname, '../..');

const madeDirs: string[] = [];
/** A fresh temporary folder, removed by `removeTempDirs()` (call it in `afterAll`). */
export function tempDir(prefix = 'almanac-electron-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeDirs.push(dir);
  return dir;
}
export function removeTempDirs(): void {
  for (const dir of madeDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

type Listener = (...args: any[]) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any

export class Emitter {
  private listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Listener): this {
    const wrapped: Listener = (...args) => {
      this.off(event, wrapped);
      return listener(...args);
    };
    return this.on(event, wrapped);
  }
  off(event: string, listener: Listener): this {
    this.listeners.set(event, (this.listeners.get(event) ?? []).filter((l) => l !== listener));
    return this;
  }
  removeAllListeners(event: string): this {
    this.listeners.delete(event);
    return this;
  }
  emit(event: string, ...args: unknown[]): boolean {
    const ls = this.listeners.get(event) ?? [];
    for (const l of ls) l(...args);
    return ls.length > 0;
  }
  listenerCount(event: string): number {
    return this.listeners.get(event)?.length ?? 0;
  }
}

/** An Electron-style event: `preventDefault()` records that it was called. */
export function preventable<T extends object>(extra: T = {} as T): T & { preventDefault(): void; defaultPrevented: boolean } {
  const e = {
    ...extra,
    defaultPrevented: false,
    preventDefault() {
      e.defaultPrevented = true;
    },
  };
  return e;
}

let nextContentsId = 1;

export class FakeWebContents extends Emitter {
  readonly id = nextContentsId++;
  readonly sent: Array<{ channel: string; args: unknown[] }> = [];
  reloads = 0;
  windowOpenHandler?: (details: { url: string }) => { action: 'deny' } | { action: 'allow' };
  send(channel: string, ...args: unknown[]) {
    this.sent.push({ channel, args });
  }
  reload() {
    this.reloads++;
  }
  setWindowOpenHandler(handler: NonNullable<FakeWebContents['windowOpenHandler']>) {
    this.windowOpenHandler = handler;
  }
  /** What Electron does when the page navigates: 'will-navigate' (main frame), then 'will-frame-navigate' unless prevented. */
  navigate(url: string): { prevented: boolean } {
    const e = preventable({ url, isMainFrame: true });
    this.emit('will-navigate', e);
    if (!e.defaultPrevented) this.emit('will-frame-navigate', e);
    return { prevented: e.defaultPrevented };
  }
}

export class FakeWindow extends Emitter {
  readonly webContents = new FakeWebContents();
  readonly loaded: string[] = [];
  bounds: Rectangle;
  normalBounds: Rectangle;
  maximized = false;
  minimized = false;
  fullScreen = false;
  visible = false;
  destroyed = false;
  focusCount = 0;
  restoreCount = 0;

  constructor(
    readonly options: WindowOptions,
    private readonly onClosed: (w: FakeWindow) => void,
  ) {
    super();
    // Like the OS: a window without a position is centred on the first display.
    this.bounds = { x: options.x ?? 100, y: options.y ?? 80, width: options.width, height: options.height };
    this.normalBounds = { ...this.bounds };
  }
  async loadURL(url: string) {
    this.loaded.push(url);
    this.emit('ready-to-show');
  }
  show() {
    this.visible = true;
    this.minimized = false;
  }
  focus() {
    this.focusCount++;
  }
  restore() {
    this.restoreCount++;
    this.minimized = false;
  }
  minimize() {
    this.minimized = true;
    this.emit('minimize');
  }
  maximize() {
    this.maximized = true;
    this.emit('maximize');
  }
  unmaximize() {
    this.maximized = false;
    this.emit('unmaximize');
  }
  isDestroyed() {
    return this.destroyed;
  }
  getBounds() {
    return { ...this.bounds };
  }
  getNormalBounds() {
    return { ...(this.maximized ? this.normalBounds : this.bounds) };
  }
  isMaximized() {
    return this.maximized;
  }
  isMinimized() {
    return this.minimized;
  }
  isFullScreen() {
    return this.fullScreen;
  }
  /** The user drags or resizes the window. */
  setBounds(b: Partial<Rectangle>) {
    this.bounds = { ...this.bounds, ...b };
    if (!this.maximized) this.normalBounds = { ...this.bounds };
    this.emit('move');
    this.emit('resize');
  }
  close() {
    if (this.destroyed) return;
    const e = preventable();
    this.emit('close', e);
    if (e.defaultPrevented) return;
    this.destroyed = true;
    this.emit('closed');
    this.onClosed(this);
  }
}

/** Instance locks shared by the fake apps of one test, as the OS shares them between processes. */
export class LockTable {
  private readonly held = new Map<string, FakeApp>();
  request(app: FakeApp, userData: string): boolean {
    const holder = this.held.get(userData);
    if (holder && holder !== app && !holder.ended) {
      // Electron tells the first instance, with the second one's command line.
      queueMicrotask(() => holder.emit('second-instance', preventable(), [...app.argv], app.cwd, null));
      return false;
    }
    this.held.set(userData, app);
    return true;
  }
}

export class FakeApp extends Emitter {
  isPackaged = false;
  name = 'almanac';
  readonly paths = new Map<string, string>();
  readonly windows: FakeWindow[] = [];
  readonly calls: string[] = [];
  quitCount = 0;
  /** True once the app has really quit (a will-quit that was not prevented) or exited. */
  ended = false;
  exitCode?: number;
  sandboxed = false;

  constructor(
    readonly locks: LockTable,
    readonly argv: string[],
    readonly cwd: string,
    appData: string,
  ) {
    super();
    this.paths.set('appData', appData);
    this.paths.set('documents', join(appData, 'Documents'));
  }
  requestSingleInstanceLock() {
    return this.locks.request(this, this.getPath('userData'));
  }
  async whenReady() {}
  getVersion() {
    return '0.1.0';
  }
  setName(name: string) {
    this.name = name;
  }
  getAppPath() {
    return ROOT;
  }
  getPath(name: string): string {
    if (name === 'userData') return this.paths.get('userData') ?? join(this.paths.get('appData')!, this.name);
    const p = this.paths.get(name);
    if (!p) throw new Error(`no path ${name}`);
    return p;
  }
  setPath(name: string, path: string) {
    this.calls.push(`setPath ${name}`);
    this.paths.set(name, path);
  }
  enableSandbox() {
    this.sandboxed = true;
  }
  /** The protocols the app asked the system to open with it (`almanac://`). */
  readonly protocols: string[] = [];
  setAsDefaultProtocolClient(protocol: string) {
    this.protocols.push(protocol);
    return true;
  }
  /** Like Electron: close the windows, then 'will-quit'; the app ends unless a listener prevents it. */
  quit() {
    this.quitCount++;
    if (this.ended) return;
    for (const w of [...this.windows]) w.close();
    const e = preventable();
    this.emit('will-quit', e);
    if (!e.defaultPrevented) {
      this.ended = true;
      this.emit('quit');
    }
  }
  exit(code = 0) {
    this.exitCode = code;
    this.ended = true;
  }
  windowClosed(w: FakeWindow) {
    this.windows.splice(this.windows.indexOf(w), 1);
    if (this.windows.length === 0 && !this.ended) this.emit('window-all-closed');
  }
}

export class FakeIpcMain extends Emitter {
  readonly handlers = new Map<string, Listener>();
  handle(channel: string, listener: Listener) {
    if (this.handlers.has(channel)) throw new Error(`a handler for ${channel} exists`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  }
  /** As `ipcRenderer.invoke` from a page at `url` in `contents`. */
  async invoke(contents: { id: number }, url: string, channel: string, ...args: unknown[]) {
    const h = this.handlers.get(channel);
    if (!h) throw new Error(`no handler for ${channel}`);
    return h({ sender: contents, senderFrame: { url } }, ...args);
  }
  /** As `ipcRenderer.sendSync`. */
  sendSync(contents: { id: number }, url: string, channel: string, ...args: unknown[]): unknown {
    const event = { sender: contents, senderFrame: { url }, returnValue: undefined as unknown };
    this.emit(channel, event, ...args);
    return event.returnValue;
  }
  /** As `ipcRenderer.send`. */
  send(contents: { id: number }, url: string, channel: string, ...args: unknown[]) {
    this.emit(channel, { sender: contents, senderFrame: { url }, returnValue: undefined }, ...args);
  }
}

type HeadersListener = (details: { url: string; responseHeaders?: Record<string, string | string[]> }, cb: (r: { responseHeaders?: Record<string, string | string[]> }) => void) => void;

export class FakeSession {
  headersListener?: HeadersListener;
  permissionRequestHandler?: ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | null;
  permissionCheckHandler?: ((contents: unknown, permission: string) => boolean) | null;
  webRequest = {
    onHeadersReceived: (listener: HeadersListener) => {
      this.headersListener = listener;
    },
  };
  setPermissionRequestHandler(h: FakeSession['permissionRequestHandler']) {
    this.permissionRequestHandler = h;
  }
  setPermissionCheckHandler(h: FakeSession['permissionCheckHandler']) {
    this.permissionCheckHandler = h;
  }
  /** The headers a response from `url` ends up with (as Electron: unchanged when the listener gives none). */
  responseHeaders(url: string, headers: Record<string, string | string[]> = {}) {
    let out: Record<string, string | string[]> | undefined;
    this.headersListener?.({ url, responseHeaders: headers }, (r) => (out = r.responseHeaders ?? headers));
    return out;
  }
  /** Whether a page's request for `permission` is granted. */
  request(permission: string): boolean | undefined {
    let granted: boolean | undefined;
    this.permissionRequestHandler?.({}, permission, (g) => (granted = g));
    return granted;
  }
}

export class FakeDialog {
  readonly opened: OpenDialogOptions[] = [];
  readonly saved: SaveDialogOptions[] = [];
  readonly messages: MessageBoxOptions[] = [];
  readonly errors: Array<{ title: string; content: string }> = [];
  /** What the next dialogs answer; the default is Cancel. */
  openAnswers: Array<string | null> = [];
  saveAnswers: Array<string | null> = [];
  messageAnswers: number[] = [];
  private argsOf<T>(a: unknown, b: unknown): T {
    return (b ?? a) as T;
  }
  async showOpenDialog(a: unknown, b?: unknown) {
    this.opened.push(this.argsOf(a, b));
    const file = this.openAnswers.shift() ?? null;
    return file ? { canceled: false, filePaths: [file] } : { canceled: true, filePaths: [] };
  }
  async showSaveDialog(a: unknown, b?: unknown) {
    this.saved.push(this.argsOf(a, b));
    const file = this.saveAnswers.shift() ?? null;
    return file ? { canceled: false, filePath: file } : { canceled: true, filePath: '' };
  }
  async showMessageBox(a: unknown, b?: unknown) {
    const options = this.argsOf<MessageBoxOptions>(a, b);
    this.messages.push(options);
    return { response: this.messageAnswers.shift() ?? options.cancelId ?? 0 };
  }
  showErrorBox(title: string, content: string) {
    this.errors.push({ title, content });
  }
}

/**
 * Electron's safeStorage as an OS keychain behaves: the key stays with "the OS" (this object, shared
 * across restarts of one test's app), so the ciphertext on disk is useless without it. Like
 * Electron, encrypting throws when no encryption is available.
 */
export class FakeSafeStorage {
  available = true;
  /** Linux's answer to getSelectedStorageBackend(); 'basic_text' is Chromium's built-in key. */
  backend = 'gnome_libsecret';
  private readonly key = randomBytes(32);
  isEncryptionAvailable() {
    return this.available;
  }
  getSelectedStorageBackend() {
    return this.backend;
  }
  encryptString(plainText: string): Buffer {
    if (!this.available) throw new Error('Error while encrypting the text provided to safeStorage.encryptString. Encryption is not available.');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from('v11'), iv, cipher.getAuthTag(), body]);
  }
  decryptString(encrypted: Buffer): string {
    if (!this.available) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString. Decryption is not available.');
    const decipher = createDecipheriv('aes-256-gcm', this.key, encrypted.subarray(3, 15));
    decipher.setAuthTag(encrypted.subarray(15, 31));
    return Buffer.concat([decipher.update(encrypted.subarray(31)), decipher.final()]).toString('utf8');
  }
}

export interface FakeElectronOptions {
  argv?: string[];
  env?: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
  displays?: DisplayLike[];
  /** Shared with another FakeElectron to play a second launch. */
  locks?: LockTable;
  /** The OS keychain; share one to play a restart of the app on the same computer. */
  safeStorage?: FakeSafeStorage;
  appData?: string;
  /** The port the app asks for; 'default' leaves it to the app (4780). Default 0 (any free port). */
  port?: number | 'default';
  serverOptions?: Partial<ServerOptions>;
}

/** Electron's `Notification`: each one made is kept in `made`, shown or not, until the test clicks or closes it. */
export class FakeNotification extends Emitter {
  static supported = true;
  static made: FakeNotification[] = [];
  static isSupported() {
    return FakeNotification.supported;
  }
  shown = false;
  closed = false;
  constructor(readonly options: { title: string; body: string; silent: boolean }) {
    super();
    FakeNotification.made.push(this);
  }
  show() {
    this.shown = true;
  }
  close() {
    if (this.closed) return;
    this.closed = true;
    this.emit('close');
  }
  /** The user clicks it (the OS takes it away). */
  click() {
    this.emit('click');
    this.closed = true;
  }
}

/** Electron's `Tray`: its tooltip, the menu template it was given, and whether it was destroyed. */
export class FakeTray extends Emitter {
  tooltip = '';
  menu?: MenuItemTemplate[];
  destroyed = false;
  setToolTip(text: string) {
    this.tooltip = text;
  }
  setContextMenu(menu: unknown) {
    this.menu = (menu as { template: MenuItemTemplate[] }).template;
  }
  destroy() {
    this.destroyed = true;
  }
  /** A menu item's click, by id. */
  choose(id: string) {
    const item = this.menu?.find((i) => i.id === id);
    if (!item?.click) throw new Error(`no tray menu item ${id}`);
    item.click();
  }
}

/** One process's worth of fake Electron, and the deps that hand it to `startDesktopApp`. */
export class FakeElectron {
  readonly locks: LockTable;
  readonly appData: string;
  readonly app: FakeApp;
  readonly ipcMain = new FakeIpcMain();
  readonly session = new FakeSession();
  readonly dialog = new FakeDialog();
  readonly safeStorage: FakeSafeStorage;
  readonly opened: string[] = [];
  readonly openedPaths: string[] = [];
  clipboardText = '';
  menu?: MenuItemTemplate[];
  readonly serversStarted: ServerOptions[] = [];
  readonly signals = new Map<string, () => void>();
  displays: DisplayLike[];
  readonly platform: NodeJS.Platform;
  readonly trays: FakeTray[] = [];
  /** What `app.getLocale()` answers. */
  locale = 'en-US';
  /** A desktop without a tray: `new Tray()` throws. */
  noTray = false;

  constructor(readonly options: FakeElectronOptions = {}) {
    this.locks = options.locks ?? new LockTable();
    this.safeStorage = options.safeStorage ?? new FakeSafeStorage();
    this.appData = options.appData ?? tempDir('almanac-appdata-');
    this.platform = options.platform ?? 'linux';
    this.app = new FakeApp(this.locks, options.argv ?? ['/usr/bin/electron', '.'], ROOT, this.appData);
    this.displays = options.displays ?? [{ workArea: { x: 0, y: 0, width: 1920, height: 1040 } }];
  }

  deps(): DesktopDeps<FakeWindow> {
    const app = this.app;
    return {
      app,
      createWindow: (options) => {
        const w = new FakeWindow(options, (closed) => app.windowClosed(closed));
        app.windows.push(w);
        return w;
      },
      screen: () => ({ getAllDisplays: () => this.displays }),
      session: () => this.session,
      Menu: {
        buildFromTemplate: (template) => ({ template }),
        setApplicationMenu: (menu: never) => {
          this.menu = (menu as { template: MenuItemTemplate[] }).template;
        },
      },
      ipcMain: this.ipcMain,
      dialog: this.dialog,
      shell: {
        openExternal: async (url) => {
          this.opened.push(url);
        },
        openPath: async (path) => {
          this.openedPaths.push(path);
          return '';
        },
      },
      clipboard: { writeText: (text) => (this.clipboardText = text) },
      safeStorage: this.safeStorage,
      createServer: (opts) => {
        this.serversStarted.push(opts);
        return createServer({ ...opts, log: silentLogger, ...this.options.serverOptions });
      },
      argv: app.argv,
      env: this.options.env ?? {},
      cwd: ROOT,
      platform: this.platform,
      ...(this.options.port === 'default' ? {} : { port: this.options.port ?? 0 }),
      log: silentLogger,
      onSignal: (signal, handler) => this.signals.set(signal, handler),
      Notification: FakeNotification,
      createTray: () => {
        if (this.noTray) throw new Error('no system tray');
        const t = new FakeTray();
        this.trays.push(t);
        return t;
      },
      locale: () => this.locale,
    };
  }

  get window(): FakeWindow | undefined {
    return this.app.windows[this.app.windows.length - 1];
  }
}

/** Resolves once `check` is true (the app's quit runs over a few ticks). */
export async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}
