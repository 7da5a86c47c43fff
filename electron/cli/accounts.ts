/**
 * `npm run cli -- accounts add|list|remove`: CalDAV accounts of a data directory.
 *
 * These work on the data directory's files even while Almanac runs on it: the database takes
 * the account (SQLite's locking makes the two writers safe, and the running server notices the
 * change), the password goes to the owner-only secrets file, from which a running desktop app
 * moves it into the OS keychain. The password is never printed, logged or put in the database.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CalDavError } from '../server/caldav';
import { errorText } from '../server/caldav/errors';
import { addAccount as addStoredAccount, removeAccount as removeStoredAccount } from '../server/caldav/accounts';
import { accountSecretKey, SECRETS_FILE } from '../server/secrets';
import { DuplicateAccountError, type CalendarRow } from '../server/store/caldav-accounts';
import { cliContext } from './common';
import { ACCOUNTS_HELP } from './help';
import { withCalendarFile } from './calendar-file';


export async function accountsCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === 'add') return addAccount(rest);
  if (sub === 'list') return listAccounts(rest);
  if (sub === 'remove') return removeAccount(rest);
  process.stdout.write(ACCOUNTS_HELP);
  if (sub && sub !== 'help' && sub !== '--help' && sub !== '-h') throw new Error(`unknown accounts command "${sub}" (add, list or remove)`);
}

const COMMON_OPTIONS = { 'data-dir': { type: 'string' }, lang: { type: 'string' } } as const;

async function addAccount(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { ...COMMON_OPTIONS, url: { type: 'string' }, user: { type: 'string' }, name: { type: 'string' }, 'password-file': { type: 'string' }, calendars: { type: 'string' } },
    allowPositionals: false,
  });
  const ctx = cliContext(values);
  if (!values.url) throw new Error('which server? --url URL (or just the domain)');
  if (!values.user) throw new Error('which user? --user USER');
  const user = values.user;
  if (user.includes(':')) throw new Error('a user name cannot contain ":" (HTTP Basic authentication has no way to send one)');
  const requestedName = values.name?.trim();
  if (requestedName !== undefined && !requestedName) throw new Error('--name cannot be empty');
  if (requestedName) await withCalendarFile(ctx.dataDir, (store) => {
    if (store.accounts.byName(requestedName)) throw new DuplicateAccountError(requestedName);
  });

  const password = values['password-file'] !== undefined ? passwordFromFile(values['password-file']) : await passwordFromStdin(`Password for ${user} at ${values.url}: `);
  const wanted = values.calendars?.split(',');
  const { account, calendars, secretsKind } = await withCalendarFile(ctx.dataDir, async (store, secrets) => {
    try {
      return await addStoredAccount(store, secrets, { url: values.url!, username: user, password, name: requestedName, calendars: wanted });
    } catch (err) {
      if (err instanceof CalDavError) throw new Error(err.describe(ctx.lang));
      throw err;
    }
  });

  const w = (s: string) => process.stdout.write(`${s}\n`);
  w(`Added account "${account.name}" (${account.username} at ${account.server_url}) with ${calendars.length} calendar${calendars.length === 1 ? '' : 's'}:`);
  for (const line of calendarLines(calendars)) w(line);
  if (calendars.length === 0) w('  (the account has no calendars of events yet)');
  w(secretsKind === 'owner-only-file' ? `The password is kept in ${join(ctx.dataDir, SECRETS_FILE)}, readable by you only.` : 'The password is kept in the system keychain.');
}

function calendarLines(calendars: CalendarRow[]): string[] {
  const width = Math.max(0, ...calendars.map((c) => c.name.length));
  return calendars.map((c) => {
    const notes = [c.synced ? 'synced' : 'not synced', ...(c.read_only ? ['read-only'] : [])];
    return `  ${c.name.padEnd(width)}  ${(c.color ?? 'no colour').padEnd(9)}  ${notes.join(', ')}  ${c.url}`;
  });
}

export function passwordFromFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the password file ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) {
    process.stderr.write(`Warning: ${file} can be read by other users of this computer (chmod 600 ${file}).\n`);
  }
  const password = text.split(/\r?\n/, 1)[0];
  if (!password) throw new Error(`the password file ${file} is empty (the password is its first line)`);
  return password;
}

/** The first line of standard input; on a terminal, asked for and typed without echo. */
export async function passwordFromStdin(prompt: string): Promise<string> {
  const stdin = process.stdin;
  if (stdin.isTTY) {
    process.stderr.write(prompt);
    stdin.setRawMode(true);
    stdin.resume();
    try {
      const typed = await new Promise<string>((ok, fail) => {
        let value = '';
        const onData = (chunk: Buffer) => {
          for (const ch of chunk.toString('utf8')) {
            if (ch === '\r' || ch === '\n' || ch === '\u0004') return done(ok, value);
            if (ch === '\u0003') return done(fail, new Error('cancelled'));
            if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
            else value += ch;
          }
        };
        const done = <T>(settle: (v: T) => void, v: T) => {
          stdin.off('data', onData);
          settle(v);
        };
        stdin.on('data', onData);
      });
      process.stderr.write('\n');
      if (!typed) throw new Error('no password was typed');
      return typed;
    } finally {
      stdin.setRawMode(false);
      stdin.pause();
    }
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    // Only the first line matters; a huge pipe is not read to its end.
    if (size > 64 * 1024 || (chunk as Buffer).includes(10)) break;
  }
  const password = Buffer.concat(chunks).toString('utf8').split(/\r?\n/, 1)[0];
  if (!password) throw new Error('no password on standard input (give it there, or use --password-file FILE)');
  return password;
}

async function listAccounts(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: COMMON_OPTIONS, allowPositionals: false });
  const ctx = cliContext(values);
  const lines = await withCalendarFile(ctx.dataDir, (store, secrets) => {
    const accounts = store.accounts.list();
    if (accounts.length === 0) return ['No CalDAV accounts. Add one with: npm run cli -- accounts add --url URL --user USER'];
    const stored = new Set(secrets.keys());
    return accounts.flatMap((a) => [
      `${a.name}: ${a.username} at ${a.server_url}${stored.has(accountSecretKey(a.id)) ? '' : ' (no password stored: remove the account and add it again)'}`,
      `  last synced: ${a.last_sync_utc ?? 'never'}; changes waiting to be sent: ${a.calendars.reduce((n, c) => n + store.davSync.pendingCount(c.id), 0)}`,
      ...(a.last_error ? [`  last error: ${errorText(a.last_error, ctx.lang)}`] : []),
      ...calendarLines(a.calendars),
    ]);
  });
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function removeAccount(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options: COMMON_OPTIONS, allowPositionals: true });
  const ctx = cliContext(values);
  const name = positionals.join(' ').trim();
  if (!name) throw new Error('which account? npm run cli -- accounts remove NAME');
  const removed = await withCalendarFile(ctx.dataDir, (store, secrets) => {
    const account = store.accounts.byName(name);
    if (!account) {
      const names = store.accounts.list().map((a) => `"${a.name}"`);
      throw new Error(`There is no account named "${name}".${names.length ? ` There are: ${names.join(', ')}.` : ''}`);
    }
    return removeStoredAccount(store, secrets, account.id)!;
  });
  process.stdout.write(`Removed account "${removed.name}" and its calendars; its password is forgotten. Nothing was deleted on the server.\n`);
}
