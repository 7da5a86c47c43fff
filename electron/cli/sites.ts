/**
 * `npm run cli -- sites add|list|remove`: websites synced both ways (issue 26), on a data
 * directory's files (as `accounts` does). The site's API is found and the login proven before
 * anything is stored; the password goes to the owner-only secrets file, never printed, logged or
 * put in the database. `add` pulls the site's records at once.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { errorText } from '../server/caldav/errors';
import { SECRETS_FILE, siteSecretKey } from '../server/secrets';
import { addSite, removeSite, SiteAlreadyConnected } from '../server/sites/accounts';
import { SiteError } from '../server/sites/errors';
import { syncSite } from '../server/sites/sync';
import { DuplicateSiteError } from '../server/store/sites';
import { message } from '../../shared/i18n/messages';
import { cliContext } from './common';
import { SITES_HELP } from './help';
import { localContexts, withCalendarFile } from './calendar-file';
import { passwordFromFile, passwordFromStdin } from './accounts';
import { describeSites } from './sync';

const COMMON_OPTIONS = { 'data-dir': { type: 'string' }, lang: { type: 'string' } } as const;

export async function sitesCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === 'add') return add(rest);
  if (sub === 'list') return list(rest);
  if (sub === 'remove') return remove(rest);
  process.stdout.write(SITES_HELP);
  if (sub && sub !== 'help' && sub !== '--help' && sub !== '-h') throw new Error(`unknown sites command "${sub}" (add, list or remove)`);
}

async function add(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { ...COMMON_OPTIONS, url: { type: 'string' }, user: { type: 'string' }, name: { type: 'string' }, 'password-file': { type: 'string' } }, allowPositionals: false });
  const ctx = cliContext(values);
  if (!values.url) throw new Error('which website? --url URL (example.org, https://example.org/blog)');
  if (!values.user) throw new Error('which user? --user USER');
  if (values.user.includes(':')) throw new Error('a user name cannot contain ":" (HTTP Basic authentication has no way to send one)');
  const password = values['password-file'] !== undefined ? passwordFromFile(values['password-file']) : await passwordFromStdin(`Application password for ${values.user} at ${values.url}: `);
  const lines = await withCalendarFile(ctx.dataDir, async (store, secrets) => {
    let site;
    try {
      site = await addSite(store, secrets, { url: values.url!, user: values.user!, password, name: values.name });
    } catch (err) {
      if (err instanceof SiteError) throw new Error(err.describe(ctx.lang));
      if (err instanceof SiteAlreadyConnected) throw new Error(message(ctx.lang, 'site_duplicate', { name: err.existing.name }));
      if (err instanceof DuplicateSiteError) throw new Error(message(ctx.lang, 'site_name_taken', { name: err.siteName }));
      throw err;
    }
    const report = await syncSite({ store, ...localContexts(store) }, store.sites.byId(site.id)!, password);
    if (!report.ok) process.exitCode = 1;
    return [`Connected "${site.name}" (${site.username} at ${site.url}; its events API at ${site.api_root}).`, ...describeSites([report]), `The password is kept in ${join(ctx.dataDir, SECRETS_FILE)}, readable by you only.`];
  });
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function list(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: COMMON_OPTIONS, allowPositionals: false });
  const ctx = cliContext(values);
  const lines = await withCalendarFile(ctx.dataDir, (store, secrets) => {
    const sites = store.sites.list();
    if (sites.length === 0) return ['No websites. Connect one with: npm run cli -- sites add --url URL --user USER'];
    const stored = new Set(secrets.keys());
    return sites.flatMap((s) => [
      `${s.name}: ${s.username} at ${s.url}${stored.has(siteSecretKey(s.id)) ? '' : ' (no password stored: remove the site and connect it again)'}`,
      `  events API: ${s.api_root}`,
      `  last synced: ${s.last_sync_utc ?? 'never'}; changes waiting to be sent: ${store.sites.pendingCount(s.calendar_id)}; conflicts: ${store.sites.conflictCount(s.calendar_id)}`,
      ...(s.last_error ? [`  last error: ${errorText(s.last_error, ctx.lang)}`] : []),
    ]);
  });
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function remove(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options: COMMON_OPTIONS, allowPositionals: true });
  const ctx = cliContext(values);
  const name = positionals.join(' ').trim();
  if (!name) throw new Error('which site? npm run cli -- sites remove NAME');
  const removed = await withCalendarFile(ctx.dataDir, (store, secrets) => {
    const site = store.sites.byName(name);
    if (!site) {
      const names = store.sites.list().map((s) => `"${s.name}"`);
      throw new Error(`There is no site named "${name}".${names.length ? ` There are: ${names.join(', ')}.` : ''}`);
    }
    removeSite(store, secrets, site.id);
    return site;
  });
  process.stdout.write(`Removed "${removed.name}" and its calendar; its password is forgotten. Nothing was deleted on the site.\n`);
}
