/**
 * Export and import at scale: the calendar built by the API benchmark exported as iCalendar by
 * the running server (over HTTP, streamed to files as the CLI's `export --out` does), then those
 * files imported into an empty calendar.
 */
import { createWriteStream, mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { request } from 'undici';
import { openDatabase, closeDatabase } from '../electron/server/store/db';
import { createStore } from '../electron/server/store';
import { importFile } from '../electron/server/import-export/import-file';
import type { ImportReport } from '../electron/server/import-export/import-records';
import { LANGUAGES } from '../shared/i18n/languages';

export interface TransferFigures {
  exportSeconds: number;
  exportMegabytes: number;
  exportedEvents: number;
  importSeconds: number;
  importedEvents: number;
  peakRssMegabytes: number;
}

export async function measureTransfer(server: { url: URL; token: string }): Promise<TransferFigures> {
  const folder = mkdtempSync(join(tmpdir(), 'almanac-bench-ics-'));
  let peak = process.memoryUsage().rss;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  try {
    // Exports follow the request language, so the whole calendar is one file per language.
    const files: string[] = [];
    let exportedEvents = 0;
    let t = process.hrtime.bigint();
    for (const lang of LANGUAGES) {
      const res = await request(new URL(`/cal/events/v1/export?start_date=1970-01-01&status=any&i18n_language=${lang}`, server.url), { headers: { authorization: `Bearer ${server.token}` } });
      if (res.statusCode !== 200) throw new Error(`export → ${res.statusCode} ${await res.body.text()}`);
      const file = join(folder, `${lang}.ics`);
      await pipeline(res.body, createWriteStream(file));
      files.push(file);
      exportedEvents += Number(res.headers['x-cal-total']);
    }
    const exportSeconds = Number(process.hrtime.bigint() - t) / 1e9;

    const target = mkdtempSync(join(tmpdir(), 'almanac-bench-import-'));
    const db = openDatabase(join(target, 'almanac.sqlite'));
    const store = createStore(db);
    let importedEvents = 0;
    t = process.hrtime.bigint();
    for (const file of files) {
      // The import blocks this thread, so the timer above cannot sample it: its progress does.
      const onProgress = () => (peak = Math.max(peak, process.memoryUsage().rss));
      const report = importFile(store, readFileSync(file), { ctx: { lang: 'en', now: new Date(), siteZone: store.settings.get().timezone }, onProgress }) as ImportReport;
      importedEvents += report.created + report.updated;
    }
    const importSeconds = Number(process.hrtime.bigint() - t) / 1e9;
    closeDatabase(db);
    rmSync(target, { recursive: true, force: true });
    return {
      exportSeconds,
      exportMegabytes: files.reduce((n, f) => n + statSync(f).size, 0) / 2 ** 20,
      exportedEvents,
      importSeconds,
      importedEvents,
      peakRssMegabytes: peak / 2 ** 20,
    };
  } finally {
    clearInterval(sample);
    rmSync(folder, { recursive: true, force: true });
  }
}
