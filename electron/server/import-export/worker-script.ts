/**
 * Starts one of the import's or export's worker threads: the built `<name>.js` beside this code in out/main,
 * or, when the server runs from its TypeScript sources (tests, the benchmark), the source through
 * tsx (ts-worker.mjs).
 */
import { Worker, type TransferListItem } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type WorkerName = 'import-worker' | 'ics-read-worker' | 'ics-export-worker';

/** Each worker's source, from this folder: the built entries all sit in out/main, the sources do not. */
const SOURCES: Record<WorkerName, string> = {
  'import-worker': 'import-worker.ts',
  'ics-read-worker': '../icalendar/read-worker.ts',
  'ics-export-worker': '../icalendar/export-worker.ts',
};

/** Where built workers are looked for: beside this code, or where `useBuiltWorkers` says. */
let builtDir: string | undefined;

/**
 * Starts workers from the build in `dir` while this code runs from its sources: the benchmark
 * measures an import with the reading thread the app runs. From sources the thread runs under
 * tsx, which keeps every function's name (esbuild's keepNames: a call for each closure made),
 * and read about a fifth slower than built.
 */
export function useBuiltWorkers(dir: string): void {
  builtDir = dir;
}

export function startWorker(name: WorkerName, workerData: object, transferList: TransferListItem[] = []): Worker {
  const here = dirname(fileURLToPath(import.meta.url));
  const built = join(builtDir ?? here, `${name}.js`);
  if (existsSync(built)) return new Worker(built, { workerData, transferList });
  const tsEntry = pathToFileURL(join(here, SOURCES[name])).href;
  return new Worker(join(here, 'ts-worker.mjs'), { workerData: { ...workerData, tsEntry }, transferList });
}
