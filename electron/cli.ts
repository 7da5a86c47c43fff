/**
 * Almanac's command line, plain Node (never imports electron):
 *   npm run serve -- [options]                       the API and the calendar UI, headless
 *   npm run cli -- export --format ics|json [...]    export the calendar
 *   npm run cli -- import FILE [--dry-run] [...]     import an iCalendar, CSV or backup file
 *   npm run cli -- accounts add|list|remove [...]    CalDAV accounts
 *   npm run cli -- sites add|list|remove [...]       websites synced both ways
 *   npm run cli -- sync [--account N | --site N]     one sync round (CalDAV accounts, websites)
 *   npm run cli -- subscribe URL [--name N]          subscribe to an iCalendar feed (read-only)
 *   npm run cli -- subscriptions list|refresh|remove iCalendar subscriptions
 *   npm run cli -- add "TEXT" [--dry-run]            quick add: an event in plain words
 */
import { ACCOUNTS_HELP, QUICK_ADD_HELP, SITES_HELP, SERVE_HELP, SUBSCRIPTIONS_HELP, SYNC_HELP, TRANSFER_HELP } from './cli/help';

type Command = (argv: string[]) => Promise<void>;

/**
 * Each command's code is loaded when it runs, not before: `--help` loads none, and `sync` does
 * not pay for the import/export or the HTTP server it does not use.
 */
const commands: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./cli/serve')).serveCommand,
  export: async () => (await import('./cli/transfer')).exportCommand,
  import: async () => (await import('./cli/transfer')).importCommand,
  accounts: async () => (await import('./cli/accounts')).accountsCommand,
  sites: async () => (await import('./cli/sites')).sitesCommand,
  sync: async () => (await import('./cli/sync')).syncCommand,
  subscribe: async () => (await import('./cli/subscriptions')).subscribeCommand,
  subscriptions: async () => (await import('./cli/subscriptions')).subscriptionsCommand,
  add: async () => (await import('./cli/quick-add')).quickAddCommand,
};

async function main([name, ...rest]: string[]) {
  const load = name && Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!load) {
    process.stdout.write(`${SERVE_HELP}\n${TRANSFER_HELP}\n${ACCOUNTS_HELP}\n${SITES_HELP}\n${SYNC_HELP}\n${SUBSCRIPTIONS_HELP}\n${QUICK_ADD_HELP}`);
    if (name && name !== 'help' && name !== '--help' && name !== '-h') throw new Error(`unknown command "${name}"`);
    return;
  }
  await (await load())(rest);
}

main(process.argv.slice(2)).catch((err: Error) => {
  process.stderr.write(`almanac: ${err.message}\n`);
  process.exit(1);
});
