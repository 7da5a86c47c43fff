/**
 * `npm run cli -- subscribe URL [--name N]` and `npm run cli -- subscriptions list|remove|refresh`:
 * read-only iCalendar subscriptions of a data directory (issue 17 item 7).
 *
 * They work on the data directory's database even while Almanac runs on it (SQLite's locking
 * makes the two writers safe; the running server sees the new calendar at once and refreshes it
 * on its own schedule). A feed needs no password, so nothing here needs the app's keychain.
 */
import { errorText } from '../server/caldav/errors';
import { parseArgs } from 'node:util';
import type { Store } from '../server/store';
import { createSubscriptionService, type RefreshReport, type SubscriptionService } from '../server/subscriptions/service';
import { SubscriptionError } from '../server/subscriptions/fetch';
import { subscriptionFields } from '../../shared/schema/subscriptions';
import { validateFields } from '../server/validate';
import { ApiError } from '../server/errors';
import { message } from '../../shared/i18n/messages';
import type { CalendarRow } from '../server/store/caldav-accounts';
import { cliContext, type CliContext } from './common';
import { SUBSCRIPTIONS_HELP } from './help';
import { localContexts, withCalendarFile } from './calendar-file';

const OPTIONS = { 'data-dir': { type: 'string' }, lang: { type: 'string' }, help: { type: 'boolean' } } as const;

type Ctx = CliContext;

async function withService<T>(ctx: Ctx, fn: (service: SubscriptionService, store: Store) => Promise<T>): Promise<T> {
  return withCalendarFile(ctx.dataDir, async (store) => {
    const service = createSubscriptionService({ store, write: localContexts(store).write, intervalMs: 0 });
    try {
      return await fn(service, store);
    } finally {
      await service.close();
    }
  });
}

export async function subscribeCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options: { ...OPTIONS, name: { type: 'string' }, color: { type: 'string' } }, allowPositionals: true });
  if (values.help) return void process.stdout.write(SUBSCRIPTIONS_HELP);
  const ctx = cliContext(values);
  if (positionals.length !== 1) throw new Error('subscribe to what? npm run cli -- subscribe URL [--name NAME]');
  const input = checked(ctx, { url: positionals[0], name: values.name, color: values.color });
  await withService(ctx, async (service, store) => {
    try {
      const { calendar, report } = await service.subscribe(input);
      process.stdout.write(`Subscribed to "${calendar.name}" (calendar ${calendar.id}): ${eventCount(store, calendar.id)} events from ${calendar.subscription_url}\n`);
      for (const p of report.problems) process.stdout.write(`  skipped: ${p}\n`);
    } catch (err) {
      if (err instanceof SubscriptionError) throw new Error(`${message(ctx.lang, 'subscription_failed', { reason: err.describe(ctx.lang) })}`);
      throw err;
    }
  });
}

/** The API's own checks of the fields, worded in the CLI's language. */
function checked(ctx: Ctx, raw: Record<string, unknown>): { url: string; name?: string; color?: string } {
  const present = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
  try {
    return validateFields(subscriptionFields, present, 'create') as { url: string; name?: string; color?: string };
  } catch (err) {
    if (err instanceof ApiError && err.invalid) {
      throw new Error(Object.entries(err.invalid).map(([k, key]) => `${k === 'url' ? 'URL' : `--${k}`}: ${message(ctx.lang, key, err.invalidVars?.[k])}`).join('; '));
    }
    throw err;
  }
}

export async function subscriptionsCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true });
  if (sub === 'list') return list(cliContext(values));
  if (sub === 'refresh') return refresh(cliContext(values), positionals[0]);
  if (sub === 'remove') return remove(cliContext(values), positionals[0]);
  process.stdout.write(SUBSCRIPTIONS_HELP);
  if (sub && sub !== 'help' && sub !== '--help' && sub !== '-h') throw new Error(`unknown subscriptions command "${sub}" (list, refresh or remove)`);
}

const eventCount = (store: Store, calendarId: number): number =>
  (store.db.prepare('SELECT count(*) FROM events WHERE calendar_id = ? AND parent_id IS NULL').pluck().get(calendarId) as number) ?? 0;

function find(store: Store, which: string): CalendarRow {
  const all = store.subscriptions.list();
  const hit = /^\d+$/.test(which) ? all.find((s) => s.id === Number(which)) : all.find((s) => s.name.toLowerCase() === which.toLowerCase());
  if (hit) return hit;
  throw new Error(
    all.length ? `There is no subscription "${which}". There are: ${all.map((s) => `"${s.name}" (${s.id})`).join(', ')}.` : 'There are no subscriptions. Add one with: npm run cli -- subscribe URL',
  );
}

async function list(ctx: Ctx): Promise<void> {
  await withService(ctx, async (_service, store) => {
    const all = store.subscriptions.list();
    if (all.length === 0) return void process.stdout.write('No subscriptions. Add one with: npm run cli -- subscribe URL\n');
    for (const s of all) {
      const when = s.subscription_refreshed_utc ? `refreshed ${s.subscription_refreshed_utc}` : 'never refreshed';
      process.stdout.write(`${s.id}\t${s.name}\t${s.subscription_url}\t${eventCount(store, s.id)} events, ${when}${s.last_error ? `; last refresh failed: ${errorText(s.last_error, ctx.lang)}` : ''}\n`);
    }
  });
}

function describeRefresh(name: string, r: RefreshReport): string {
  if (!r.ok) return `${name}: failed: ${r.error}`;
  if (r.unchanged) return `${name}: unchanged (the server answered 304 Not Modified)`;
  return `${name}: ${r.added} new, ${r.updated} changed, ${r.removed} removed`;
}

async function refresh(ctx: Ctx, which: string | undefined): Promise<void> {
  await withService(ctx, async (service, store) => {
    const targets = which === undefined ? store.subscriptions.list() : [find(store, which)];
    if (targets.length === 0) throw new Error('There are no subscriptions. Add one with: npm run cli -- subscribe URL');
    for (const s of targets) {
      const report = (await service.refresh(s.id))!;
      process.stdout.write(`${describeRefresh(s.name, report)}\n`);
      if (!report.ok) process.exitCode = 1;
    }
  });
}

async function remove(ctx: Ctx, which: string | undefined): Promise<void> {
  if (!which) throw new Error('remove which? npm run cli -- subscriptions remove NAME|ID');
  await withService(ctx, async (service, store) => {
    const s = find(store, which);
    const events = eventCount(store, s.id);
    await service.remove(s.id);
    process.stdout.write(`Removed "${s.name}" and its ${events} events.\n`);
  });
}
