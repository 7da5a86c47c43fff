/**
 * `npm run cli -- add "TEXT"`: quick add from the command line. The sentence goes to
 * POST /quick-add, of the running app when there is one (it holds the file), else of a private
 * in-process server on the data directory: one parser and one way of making the event, whichever
 * face is used. Prints what it made (or, with --dry-run, would make).
 */
import { parseArgs } from 'node:util';
import { QUICK_ADD_HELP } from './help';
import { cliContext, runningApp } from './common';
import { parseDuration, type Reminder } from '../../shared/reminders';

interface MadeEvent {
  id: number;
  title: string;
  start_date: string;
  end_date: string;
  all_day: boolean;
  timezone: string;
  calendar: number;
  venue: { venue?: string } | unknown[];
  categories: Array<{ name: string }>;
  recurrence: { rules: string[] } | null;
  reminders: Reminder[];
}

export async function quickAddCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { lang: { type: 'string' }, 'dry-run': { type: 'boolean' }, calendar: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean' } },
    allowPositionals: true,
  });
  if (values.help) {
    process.stdout.write(QUICK_ADD_HELP);
    return;
  }
  const text = positionals.join(' ').trim();
  if (!text) throw new Error('what to add? npm run cli -- add "Lunch with Ana tomorrow 1pm"');
  const { dataDir, lang } = cliContext(values);
  const calendar = values.calendar === undefined ? undefined : Number(values.calendar);
  if (calendar !== undefined && !(Number.isInteger(calendar) && calendar > 0)) throw new Error(`--calendar must be a calendar's id, not "${values.calendar}"`);
  const dryRun = !!values['dry-run'];

  const app = runningApp(dataDir);
  // A private server for one sentence: it must not start syncing the accounts over the network.
  const server = app ? undefined : await privateServer(dataDir);
  try {
    const apiRoot = app?.apiRoot ?? server!.apiRoot;
    const token = app?.token ?? server!.token;
    const res = await fetch(`${apiRoot}quick-add`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ text, dry_run: dryRun, i18n_language: lang, ...(calendar !== undefined ? { calendar } : {}) }),
    });
    const body = (await res.json()) as MadeEvent & { message?: string; data?: { params?: Record<string, string> } };
    if (!res.ok) {
      const params = Object.entries(body.data?.params ?? {}).map(([name, why]) => `  ${name}: ${why}`);
      throw new Error([body.message ?? `the server answered ${res.status}`, ...params].join('\n'));
    }
    for (const line of describeMade(body, dryRun)) process.stdout.write(`${line}\n`);
  } finally {
    await server?.close();
  }
}

/** The event in lines a person reads. */
function describeMade(e: MadeEvent, dryRun: boolean): string[] {
  const day = (s: string) => s.slice(0, 10);
  const time = (s: string) => s.slice(11, 16);
  const when = e.all_day
    ? day(e.start_date) === day(e.end_date)
      ? `${day(e.start_date)}, all day`
      : `${day(e.start_date)} to ${day(e.end_date)}, all day`
    : day(e.start_date) === day(e.end_date)
      ? `${day(e.start_date)} ${time(e.start_date)}–${time(e.end_date)} (${e.timezone})`
      : `${day(e.start_date)} ${time(e.start_date)} to ${day(e.end_date)} ${time(e.end_date)} (${e.timezone})`;
  const lines = [dryRun ? `Dry run, nothing saved. Would add "${e.title}"` : `Added "${e.title}" (event ${e.id})`, `  when:       ${when}`];
  if (e.recurrence) lines.push(`  repeats:    ${e.recurrence.rules.join('; ')}`);
  if (!Array.isArray(e.venue) && e.venue.venue) lines.push(`  venue:      ${e.venue.venue}`);
  if (e.reminders.length) lines.push(`  reminders:  ${e.reminders.map(reminderWords).join(', ')}`);
  if (e.categories.length) lines.push(`  categories: ${e.categories.map((c) => c.name).join(', ')}`);
  lines.push(`  calendar:   ${e.calendar}`);
  return lines;
}

function reminderWords(r: Reminder): string {
  if (r.at) return `at ${r.at}`;
  const d = parseDuration(r.trigger ?? '');
  if (!d) return r.trigger ?? '';
  const minutes = Math.abs(d.days * 1440 + d.seconds / 60);
  const amount = minutes % 1440 === 0 ? `${minutes / 1440} day` : minutes % 60 === 0 ? `${minutes / 60} hour` : `${minutes} minute`;
  const n = Number(amount.split(' ')[0]);
  const side = d.days < 0 || d.seconds < 0 ? 'before' : 'after';
  return minutes === 0 ? 'at the start' : `${amount}${n === 1 ? '' : 's'} ${side}${r.related === 'end' ? ' the end' : ''}`;
}

/**
 * A server of its own on the data directory, for one sentence; it must not start syncing the
 * accounts over the network. Loaded only here: through the running app the CLI needs none of it.
 */
async function privateServer(dataDir: string) {
  const { createServer, silentLogger } = await import('../server');
  return createServer({ dataDir, port: 0, announce: false, log: silentLogger, syncIntervalMs: 0, syncDebounceMs: 0 });
}
