/**
 * Which data directory the desktop app uses: `--data-dir DIR` (or `--data-dir=DIR`) on the command
 * line, else the ALMANAC_DATA_DIR environment variable, else `Almanac` in the OS's application-data
 * folder (Electron's `appData`), which is the folder the headless server defaults to as well.
 *
 * The app also makes this folder Electron's `userData`, so the single-instance lock is per data
 * directory: a second launch on the same calendar focuses the first window, while two different
 * calendars can be open at once.
 */
import { isAbsolute, join, resolve } from 'node:path';
import { APP_NAME } from '../server/data-dir';

export type DataDirSource = 'argv' | 'env' | 'default';

/** The value of `--data-dir` in a command line, if any (the last one wins, like most CLIs). */
export function dataDirArg(argv: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') break;
    if (a === '--data-dir') {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('--')) {
        found = next;
        i++;
      }
    } else if (a.startsWith('--data-dir=')) {
      found = a.slice('--data-dir='.length);
    }
  }
  return found || undefined;
}

export interface DataDirInput {
  argv: readonly string[];
  env: Record<string, string | undefined>;
  /** Electron's `app.getPath('appData')`. */
  appData: string;
  /** For relative `--data-dir` values. */
  cwd: string;
}

export function resolveDataDir({ argv, env, appData, cwd }: DataDirInput): { dir: string; source: DataDirSource } {
  const fromArgv = dataDirArg(argv);
  if (fromArgv) return { dir: absolute(fromArgv, cwd), source: 'argv' };
  if (env.ALMANAC_DATA_DIR) return { dir: absolute(env.ALMANAC_DATA_DIR, cwd), source: 'env' };
  return { dir: join(appData, APP_NAME), source: 'default' };
}

function absolute(p: string, cwd: string): string {
  return isAbsolute(p) ? p : resolve(cwd, p);
}

/** Chromium's own files (cookies, local storage, caches) go in a sub-folder, apart from the calendar's. */
export function sessionDataDir(dataDir: string): string {
  return join(dataDir, 'Session');
}
