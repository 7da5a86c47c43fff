/**
 * What the Electron preload hands the renderer as `window.almanac`, typed once for both sides.
 *
 * In a plain browser tab (the headless server) there is no bridge: the page talks to its own
 * origin and is authenticated by the session cookie the login URL set.
 */
export interface DesktopBridge {
  /** Absolute URL of the API namespace root, with a trailing slash. */
  apiBase: string;
  /** The API token, sent as `Authorization: Bearer`. */
  token: string;
  version: string;
}

declare global {
  interface Window {
    almanac?: DesktopBridge;
  }
}
