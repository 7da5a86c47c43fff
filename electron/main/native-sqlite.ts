/**
 * better-sqlite3 in two runtimes. Tests and the CLI run under Node and load the addon npm compiled
 * in node_modules. The Electron app needs the same addon built for Electron's ABI, which
 * `npm run rebuild:electron` (scripts/build-electron-sqlite.mjs) writes to
 * `native/electron/better_sqlite3.node` without touching node_modules; the packaged app carries it
 * as an extra resource. The main process passes its path to the server as `nativeBinding`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ADDON_FILE = 'better_sqlite3.node';
/** Relative to the project root, in a checkout. */
export const DEV_ADDON_DIR = join('native', 'electron');
/** Relative to `process.resourcesPath`, in a packaged app (see electron-builder.yml). */
export const PACKAGED_ADDON_DIR = 'native';
/** Written next to the addon by the build script. */
export const BUILD_INFO_FILE = 'build-info.json';

export interface AddonBuildInfo {
  electron: string;
  platform: string;
  arch: string;
  method?: string;
  builtAt?: string;
}

export interface AddonLocation {
  isPackaged: boolean;
  /** `app.getAppPath()`: the project root in a checkout. */
  appPath: string;
  /** `process.resourcesPath` */
  resourcesPath: string;
}

export function electronAddonPath(loc: AddonLocation): string {
  return loc.isPackaged ? join(loc.resourcesPath, PACKAGED_ADDON_DIR, ADDON_FILE) : join(loc.appPath, DEV_ADDON_DIR, ADDON_FILE);
}

export class MissingAddonError extends Error {}

/**
 * The Electron-ABI addon's path, checked: it must exist and, when the build script recorded what it
 * was built for, match this Electron and this machine. The message says how to fix it.
 */
export function locateElectronAddon(
  loc: AddonLocation,
  runtime: { electron: string; platform: string; arch: string },
  exists: (p: string) => boolean = existsSync,
  read: (p: string) => string = (p) => readFileSync(p, 'utf8'),
): string {
  const addon = electronAddonPath(loc);
  const fix = loc.isPackaged ? 'Reinstall Almanac.' : 'Run "npm run rebuild:electron" in the project folder (it needs the internet once), then start the app again.';
  if (!exists(addon)) {
    throw new MissingAddonError(`The SQLite module built for Electron is missing (${addon}). ${fix}`);
  }
  const infoFile = join(addon, '..', BUILD_INFO_FILE);
  if (!loc.isPackaged && exists(infoFile)) {
    let info: AddonBuildInfo | undefined;
    try {
      info = JSON.parse(read(infoFile)) as AddonBuildInfo;
    } catch {
      info = undefined;
    }
    if (info && (majorOf(info.electron) !== majorOf(runtime.electron) || info.platform !== runtime.platform || info.arch !== runtime.arch)) {
      throw new MissingAddonError(
        `The SQLite module in ${addon} was built for Electron ${info.electron} on ${info.platform}-${info.arch}, but this is Electron ${runtime.electron} on ${runtime.platform}-${runtime.arch}. ${fix}`,
      );
    }
  }
  return addon;
}

/** Electron keeps one ABI per major version. */
function majorOf(version: string): string {
  return version.replace(/^v/, '').split('.')[0];
}
