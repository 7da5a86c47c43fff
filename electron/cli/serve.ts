/** `npm run serve -- [options]`: the API and the calendar UI for scripts and browser tabs. */
import { parseArgs } from 'node:util';
import { createServer, consoleLogger, DEFAULT_PORT } from '../server';
import { defaultDataDir } from '../server/data-dir';
import { SERVE_HELP } from './help';

export async function serveCommand(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      token: { type: 'string' },
      'public-read': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(SERVE_HELP);
    return;
  }
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a number from 0 to 65535, not "${values.port}"`);
  // An empty ALMANAC_TOKEN (`ALMANAC_TOKEN= npm run serve`) means none was given, as for the import.
  const token = values.token ?? (process.env.ALMANAC_TOKEN || undefined);
  if (token !== undefined && token.length < 16) throw new Error('The API token must be at least 16 characters long.');
  const dataDir = values['data-dir'] ?? defaultDataDir();

  const server = await createServer({
    dataDir,
    port,
    host: values.host,
    token,
    publicRead: values['public-read'],
    fallbackToFreePort: values.port === undefined,
    log: consoleLogger,
  });
  const tokenWhere = token ? 'given on the command line or in ALMANAC_TOKEN' : `in ${server.tokenFile}`;
  process.stdout.write(
    [
      `Almanac is running at ${server.url}`,
      `  API:        ${server.apiRoot}  (send "Authorization: Bearer <token>"; the token is ${tokenWhere})`,
      `  Calendar:   ${server.loginUrl}`,
      `  Data:       ${dataDir}`,
      `Press Ctrl+C to stop.`,
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    consoleLogger('info', `${signal} received; closing the calendar.`);
    server.close().then(
      () => process.exit(0),
      (err) => {
        consoleLogger('error', `Could not close cleanly: ${String(err)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
