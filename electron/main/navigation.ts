/**
 * The window shows the app's own origin (the embedded server on 127.0.0.1) and nothing else.
 * Navigations and redirects elsewhere are refused; `window.open` never opens an Electron window;
 * web links go to the system browser instead. `<webview>` is refused. Permission requests
 * (camera, notifications, geolocation…) are denied.
 */

/** Schemes handed to the system (browser, mail client). Never `file:`, `javascript:` or custom schemes. */
const EXTERNAL_SCHEMES = new Set(['https:', 'http:', 'mailto:']);

export function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.origin === 'null' ? undefined : u.origin;
  } catch {
    return undefined;
  }
}

export function isAppUrl(url: string, appOrigin: string): boolean {
  return originOf(url) === appOrigin;
}

export function isExternalLink(url: string): boolean {
  try {
    return EXTERNAL_SCHEMES.has(new URL(url).protocol);
  } catch {
    return false;
  }
}

export interface PreventableEvent {
  preventDefault(): void;
}

/** What of `webContents` the guards use. */
export interface GuardedContents {
  on(event: 'will-navigate', listener: (event: PreventableEvent & { url: string }) => void): unknown;
  on(event: 'will-frame-navigate', listener: (event: PreventableEvent & { url: string }) => void): unknown;
  on(event: 'will-redirect', listener: (event: PreventableEvent & { url: string }) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' } | { action: 'allow' }): void;
}

export interface NavigationGuardOptions {
  appOrigin: string;
  /** `shell.openExternal` */
  openExternal: (url: string) => unknown;
  log?: (line: string) => void;
}

/**
 * What to do with a navigation to `url`: stay (own origin), hand it to the system browser, or
 * drop it.
 */
export function navigationDecision(url: string, appOrigin: string): 'allow' | 'external' | 'refuse' {
  if (isAppUrl(url, appOrigin)) return 'allow';
  return isExternalLink(url) ? 'external' : 'refuse';
}

export function guardNavigation(contents: GuardedContents, opts: NavigationGuardOptions): void {
  const handle = (event: PreventableEvent & { url: string }, openOutside: boolean) => {
    const target = event.url;
    const decision = navigationDecision(target, opts.appOrigin);
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'external' && openOutside) {
      void Promise.resolve(opts.openExternal(target)).catch(() => {});
    } else {
      opts.log?.(`refused navigation to ${target}`);
    }
  };
  contents.on('will-navigate', (e) => handle(e, true));
  // Sub-frames (the app has none) and redirects: refuse, never open anything.
  contents.on('will-frame-navigate', (e) => handle(e, false));
  contents.on('will-redirect', (e) => handle(e, false));
  contents.on('will-attach-webview', (e) => e.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    // A new window is never opened: web links go to the system browser, anything else is dropped.
    if (navigationDecision(url, opts.appOrigin) === 'external') {
      void Promise.resolve(opts.openExternal(url)).catch(() => {});
    } else {
      opts.log?.(`refused window.open of ${url}`);
    }
    return { action: 'deny' };
  });
}

/** What of `session` the permission lock-down uses. */
export interface PermissionSession {
  setPermissionRequestHandler(handler: ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | null): void;
  setPermissionCheckHandler(handler: ((contents: unknown, permission: string) => boolean) | null): void;
}

/** Every permission request is denied: a calendar needs no camera, location or notifications. */
export function denyAllPermissions(session: PermissionSession, log?: (line: string) => void): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    log?.(`denied permission "${permission}"`);
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
}
