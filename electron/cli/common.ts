/**
 * What the CLI's commands share: the data directory and language options, and finding the running
 * app (whose server then does the work, as it holds the file and, on the desktop, the keychain).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultDataDir, readDiscovery, TOKEN_FILE } from '../server/data-dir';
import { isLanguage, type Language } from '../../shared/i18n/languages';

export interface CliContext {
  dataDir: string;
  lang: Language;
}

/** `--data-dir` and `--lang`, checked. */
export function cliContext(values: { 'data-dir'?: string; lang?: string }): CliContext {
  const lang = values.lang ?? 'en';
  if (!isLanguage(lang)) throw new Error(`--lang must be en, pt-br or es, not "${lang}"`);
  return { dataDir: values['data-dir'] ?? defaultDataDir(), lang };
}

/** The app running on `dataDir`, with the token to call it (ALMANAC_TOKEN, else the data dir's); undefined when none runs. */
export function runningApp(dataDir: string): { url: string; apiRoot: string; token: string } | undefined {
  const found = readDiscovery(dataDir);
  if (!found) return undefined;
  let token = process.env.ALMANAC_TOKEN;
  if (!token) {
    try {
      token = readFileSync(join(dataDir, TOKEN_FILE), 'utf8').trim();
    } catch {
      throw new Error(`Almanac is running at ${found.url} with a token that is not in ${dataDir}; set ALMANAC_TOKEN to it.`);
    }
  }
  return { url: found.url, apiRoot: found.apiRoot, token };
}
