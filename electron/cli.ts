/**
 * Almanac's command line, plain Node (never imports electron):
 *   npm run serve -- [options]                       the API and the calendar UI, headless
 *   npm run cli -- export --format ics|json [...]    export the calendar
 *   npm run cli -- import FILE [--dry-run] [...]     import an iCalendar, CSV or backup file
 *   npm run cli -- accounts add|list|remove [...]    CalDAV accounts
 *   npm run cli -- sync [--account NAME]             one CalDAV sync round
 *   npm run cli -- subscribe URL [--name N]          subscribe to an iCalendar feed (read-only)
 *   npm run cli -- subscriptions list|refresh|remove iCalendar subscriptions
 */
import { serveCommand, SERVE_HELP } from './cli/serve';
import { exportCommand, importCommand, TRANSFER_HELP } from './cli/transfer';
import { accountsCommand, ACCOUNTS_HELP } from './cli/accounts';
import { sitesCommand, SITES_HELP } from './cli/sites';
import { syncCommand, SYNC_HELP } from './cli/sync';
import { subscribeCommand, subscriptionsCommand, SUBSCRIPTIONS_HELP } from './cli/subscriptions';

const commands: Record<string, (argv: string[]) => Promise<void>> = {
  serve: serveCommand,
  export: exportCommand,
  import: importCommand,
  accounts: accountsCommand,
  sites: sitesCommand,
  sync: syncCommand,
  subscribe: subscribeCommand,
  subscriptions: subscriptionsCommand,
};

async function main([name, ...rest]: string[]) {
  const command = name ? commands[name] : undefined;
  if (!command) {
    process.stdout.write(`${SERVE_HELP}\n${TRANSFER_HELP}\n${ACCOUNTS_HELP}\n${SITES_HELP}\n${SYNC_HELP}\n${SUBSCRIPTIONS_HELP}`);
    if (name && name !== 'help' && name !== '--help' && name !== '-h') throw new Error(`unknown command "${name}"`);
    return;
  }
  await command(rest);
}

main(process.argv.slice(2)).catch((err: Error) => {
  process.stderr.write(`almanac: ${err.message}\n`);
  process.exit(1);
});
