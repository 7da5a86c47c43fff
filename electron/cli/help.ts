/**
 * The CLI's usage texts, apart from the commands: `--help` (and an unknown command) prints them
 * without loading any command's code, the server or the database.
 */
import { DEFAULT_PORT, defaultDataDir } from '../server/data-dir';

export const SERVE_HELP = `Usage: npm run serve -- [options]

  --data-dir DIR   where the calendar is kept (default: ${defaultDataDir()}; env ALMANAC_DATA_DIR)
  --port N         port to listen on (default ${DEFAULT_PORT}; a free one if it is taken; 0 = any free port)
  --host HOST      interface to listen on (default 127.0.0.1; anything else exposes your calendar)
  --token T        API token for this run (env ALMANAC_TOKEN; default: the one kept in the data dir)
  --public-read    let requests without the token read published records
  -h, --help       this text
`;

export const TRANSFER_HELP = `Usage: npm run cli -- export [--format ics|json] [--out FILE] [filters]
       npm run cli -- import FILE [--format ics|csv|json] [--kind events|venues|organizers] [--dry-run] [--skip-invalid]

  --data-dir DIR    the calendar to work on (default: ${defaultDataDir()})
  --lang LANG       language of the events exported or imported: en, pt-br, es (default en)
  --out FILE        where the export goes (default: standard output)
  export filters    any events-list parameter as an option: --start-date 2025-01-01 --categories music
                    --search "jazz" --venue 12 --status publish,draft ... (iCalendar only)
  --dry-run         show what the import would do, change nothing
  --skip-invalid    import the good items and list the bad ones, instead of refusing the file
`;

export const ACCOUNTS_HELP = `Usage: npm run cli -- accounts add --url URL --user USER [--name NAME] [--password-file FILE] [--calendars A,B]
       npm run cli -- accounts list
       npm run cli -- accounts remove NAME

  --url URL            the CalDAV server: its address, or just the domain (example.com)
  --user USER          the user name on that server
  --name NAME          what Almanac calls the account (default: the server's host name)
  --password-file FILE read the password from the first line of FILE; without it the password is
                       read from standard input (typed without echo on a terminal)
  --calendars A,B      sync only these calendars (names or URLs; default: all the account has)
  --data-dir DIR       the calendar to work on (default: ${defaultDataDir()})
  --lang LANG          language of the messages: en, pt-br, es (default en)
`;

export const SYNC_HELP = `Usage: npm run cli -- sync [--account NAME | --site NAME]

  --account NAME    sync this CalDAV account only (default: every account and website)
  --site NAME       sync this website only
  --data-dir DIR    the calendar to work on (default: ${defaultDataDir()})
  Prints what moved each way; exits with 1 when the sync failed (the reason is printed).
`;

export const SUBSCRIPTIONS_HELP = `Usage: npm run cli -- subscribe URL [--name NAME] [--color '#rrggbb']
       npm run cli -- subscriptions list
       npm run cli -- subscriptions refresh [NAME|ID]
       npm run cli -- subscriptions remove NAME|ID

  URL                  an iCalendar feed: webcal://, https:// or http:// (a holidays calendar, a
                       published team calendar); fetched at once, refreshed every 6 hours by the app
  --name NAME          the calendar's name (default: the feed's own, else its host)
  --data-dir DIR       the calendar to work on (default: ${defaultDataDir()})
  --lang LANG          language of the messages: en, pt-br, es (default en)
  remove deletes the calendar and its events for good; refresh exits with 1 when one failed.
`;

export const QUICK_ADD_HELP = `Usage: npm run cli -- add "TEXT" [--lang en|pt-br|es] [--dry-run] [--calendar ID]

  TEXT              the event in plain words: "Lunch with Ana tomorrow 1pm at Luso #work",
                    "Almoço amanhã 13h no Luso", "Gimnasio cada lunes 7h recordar 10 minutos antes"
  --lang LANG       the language TEXT is in, and of the event: en, pt-br, es (default en)
  --dry-run         show what it would make, save nothing
  --calendar ID     the calendar it goes to (default: On this computer)
  --data-dir DIR    the calendar to work on (default: ${defaultDataDir()})
`;

export const SITES_HELP = `Usage: npm run cli -- sites add --url URL --user USER [--password-file FILE] [--name NAME]
       npm run cli -- sites list
       npm run cli -- sites remove NAME

  --url URL            the website as you type it (example.org, https://example.org/blog)
  --user USER          your user name on the site
  --password-file FILE an application password of that user, first line of FILE (WordPress:
                       Users → Profile → Application Passwords; for another Almanac, its API
                       token); without it the password is read from standard input
  --name NAME          what Almanac calls the site and its calendar (default: its host and path)
  --data-dir DIR       the calendar to work on (default: ${defaultDataDir()})
  --lang LANG          language of the messages: en, pt-br, es (default en)
`;
