/**
 * `npm run cli -- export|import`: the command-line face of /export and /import.
 *
 * With Almanac running on the data directory (its discovery file says where), the command goes
 * through that server's API, so the two never write the file at once. Otherwise it works on the
 * data directory itself: an export through a private in-process server (the same code as the API),
 * an import by calling the importer directly, which lets it draw a real progress bar.
 */
import { createWriteStream, readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SingleBar, Presets } from 'cli-progress';
import { createServer, silentLogger } from '../server';
import { defaultDataDir } from '../server/data-dir';
import { runningApp } from './common';
import { withCalendarFile } from './calendar-file';
import { importFile, type ImportFormat } from '../server/import-export/import-file';
import { IMPORT_LIMIT_BYTES, IMPORT_LIMIT_LABEL } from '../../shared/api/import-limit';
import type { ImportKind, ImportReport } from '../server/import-export/import-records';
import type { ImportJob } from '../../shared/api/import-report';
import { ApiError } from '../server/errors';
import { errorBody } from '../server/http/dispatch';
import { isLanguage, type Language } from '../../shared/i18n/languages';
import { isImportFormat } from '../../shared/desktop-bridge';
import { TRANSFER_HELP } from './help';

interface Parsed {
  positionals: string[];
  options: Record<string, string | true>;
}

/** `--start-date X` → `start_date: X`; flags without a value are `true`. */
function parse(argv: string[]): Parsed {
  const out: Parsed = { positionals: [], options: {} };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      out.positionals.push(a);
      continue;
    }
    const [rawKey, inline] = a.slice(2).split(/=(.*)/s, 2);
    const key = rawKey.replace(/-/g, '_');
    if (inline !== undefined) out.options[key] = inline;
    else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) out.options[key] = argv[++i];
    else out.options[key] = true;
  }
  return out;
}

function take(o: Parsed['options'], key: string): string | undefined {
  const v = o[key];
  delete o[key];
  if (v === true) throw new Error(`--${key.replace(/_/g, '-')} needs a value`);
  return v;
}

function takeFlag(o: Parsed['options'], key: string): boolean {
  const v = o[key];
  delete o[key];
  return v !== undefined && v !== 'false';
}

function language(o: Parsed['options']): Language {
  const lang = take(o, 'lang') ?? 'en';
  if (!isLanguage(lang)) throw new Error(`--lang must be en, pt-br or es, not "${lang}"`);
  return lang;
}

async function failFromResponse(res: Response): Promise<never> {
  const body = (await res.json().catch(() => ({}))) as { message?: string; data?: Record<string, unknown> };
  throw failure({ message: body.message ?? `the server answered ${res.status}`, data: body.data ?? {} });
}

/** An API error body as the CLI tells it: the message, then each item's problem on its own line. */
function failure(body: { message: string; data: Record<string, unknown> }): Error {
  const errors = (body.data.errors ?? []) as Array<{ message: string }>;
  return new Error([body.message, ...errors.map((e) => `  ${e.message}`)].join('\n'));
}

const bar = (unit: string, total: number) => {
  const b = new SingleBar({ format: `{bar} {percentage}% | {value}/{total} ${unit}`, stream: process.stderr, hideCursor: true, clearOnComplete: false }, Presets.shades_classic);
  b.start(total, 0);
  return b;
};

/** One progress bar per import phase: reading the file, then writing its items. */
function phaseBars() {
  let current: SingleBar | undefined;
  let phase: 'reading' | 'writing' | undefined;
  return {
    show(done: number, total: number, next: 'reading' | 'writing') {
      if (next !== phase) {
        current?.stop();
        current = bar(next === 'reading' ? 'read' : 'items written', total);
        phase = next;
      }
      current!.setTotal(total);
      current!.update(done);
    },
    stop: () => current?.stop(),
  };
}

export async function exportCommand(argv: string[]): Promise<void> {
  const { options } = parse(argv);
  const dataDir = take(options, 'data_dir') ?? defaultDataDir();
  const out = take(options, 'out');
  const lang = language(options);
  const params = new URLSearchParams({ format: take(options, 'format') ?? 'ics', i18n_language: lang });
  for (const [k, v] of Object.entries(options)) params.set(k, v === true ? 'true' : v);

  const app = runningApp(dataDir);
  // A private server for one export: it must not start syncing the accounts over the network.
  const server = app ? undefined : await createServer({ dataDir, port: 0, announce: false, log: silentLogger, syncIntervalMs: 0, syncDebounceMs: 0 });
  try {
    const apiRoot = app?.apiRoot ?? server!.apiRoot;
    const token = app?.token ?? server!.token;
    const res = await fetch(`${apiRoot}export?${params}`, { headers: { Authorization: `Bearer ${token}` } });
    if (!res.ok || !res.body) await failFromResponse(res);
    const total = Number(res.headers.get('x-cal-total') ?? 0);
    const progress = out && total ? bar('events', total) : undefined;
    let seen = 0;
    const counted = Readable.fromWeb(res.body as never).map((chunk: Buffer) => {
      if (progress) {
        seen += chunk.toString('utf8').split('BEGIN:VEVENT').length - 1;
        progress.update(Math.min(seen, total));
      }
      return chunk;
    });
    await pipeline(counted, out ? createWriteStream(out) : process.stdout);
    progress?.update(total);
    progress?.stop();
    if (out) process.stderr.write(`Exported ${params.get('format') === 'json' ? 'the whole calendar' : `${total} events`} to ${out}\n`);
  } finally {
    await server?.close();
  }
}

function printReport(report: ImportReport | { dry_run: boolean; restored: Record<string, number>; previous_copy?: string }) {
  const w = (s: string) => process.stdout.write(`${s}\n`);
  if ('restored' in report) {
    w(`${report.dry_run ? 'Dry run: the backup is valid and would restore' : 'Restored'} ${report.restored.events ?? 0} events, ${report.restored.venues ?? 0} venues, ${report.restored.organizers ?? 0} organizers, ${report.restored.terms ?? 0} categories and tags.`);
    if (report.previous_copy) w(`The calendar as it was before is kept in ${report.previous_copy}`);
    return;
  }
  if (report.dry_run) for (const item of report.items) w(`  ${item.row !== undefined ? `row ${item.row}` : `line ${item.line}`}: ${item.action} "${item.title}"`);
  w(`${report.dry_run ? 'Dry run, nothing changed: would create' : 'Created'} ${report.created}, ${report.dry_run ? 'update' : 'updated'} ${report.updated}, reused ${report.reused}, skipped ${report.skipped}.`);
  for (const e of report.errors) w(`  error: ${e.message}`);
  if (report.warnings.length) w(`${report.warnings.length} warning(s):`);
  for (const e of report.warnings.slice(0, 20)) w(`  ${e.message}`);
}

export async function importCommand(argv: string[]): Promise<void> {
  const { positionals, options } = parse(argv);
  const file = positionals[0];
  if (!file) throw new Error('which file? npm run cli -- import FILE');
  const dataDir = take(options, 'data_dir') ?? defaultDataDir();
  const lang = language(options);
  const format = take(options, 'format') as ImportFormat | undefined;
  if (format !== undefined && !isImportFormat(format)) throw new Error(`--format must be ics, csv or json, not "${format}"`);
  const kind = (take(options, 'kind') ?? 'events') as ImportKind;
  const dryRun = takeFlag(options, 'dry_run');
  const skipInvalid = takeFlag(options, 'skip_invalid');
  const unknown = Object.keys(options);
  if (unknown.length) throw new Error(`unknown option --${unknown[0].replace(/_/g, '-')}`);
  if (statSync(file).size > IMPORT_LIMIT_BYTES) throw new Error(`${file} is larger than the import limit of ${IMPORT_LIMIT_LABEL}`);
  const bytes = readFileSync(file);

  const phases = phaseBars();
  const app = runningApp(dataDir);
  if (app) {
    // A background job, so the server keeps answering the app meanwhile and the bars can follow it.
    const params = new URLSearchParams({ i18n_language: lang, kind, dry_run: String(dryRun), skip_invalid: String(skipInvalid), background: 'true' });
    if (format) params.set('format', format);
    params.set('filename', basename(file));
    process.stderr.write(`Sending ${file} to the running Almanac…\n`);
    const auth = { Authorization: `Bearer ${app.token}` };
    const res = await fetch(`${app.apiRoot}import?${params}`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/octet-stream' }, body: bytes });
    if (!res.ok) await failFromResponse(res);
    let job = (await res.json()) as ImportJob;
    while (job.state === 'running') {
      await new Promise((ok) => setTimeout(ok, 200));
      const poll = await fetch(`${job.rest_url}?i18n_language=${lang}`, { headers: auth });
      if (!poll.ok) await failFromResponse(poll);
      job = (await poll.json()) as ImportJob;
      if (job.total > 0) phases.show(job.done, job.total, job.phase);
    }
    phases.stop();
    if (job.state === 'failed' && job.error) throw failure(job.error);
    if (job.state !== 'done' || !job.report) throw new Error(`the import ended ${job.state}; nothing was changed`);
    printReport(job.report);
    return;
  }

  await withCalendarFile(dataDir, (store) => {
    try {
      const report = importFile(store, bytes, {
        format,
        name: basename(file),
        kind,
        dryRun,
        skipInvalid,
        ctx: { lang, now: new Date(), siteZone: store.settings.get().timezone },
        onProgress: phases.show,
      });
      phases.stop();
      printReport(report);
    } catch (err) {
      phases.stop();
      if (err instanceof ApiError) {
        throw failure(errorBody(err, lang));
      }
      throw err;
    }
  });
}
