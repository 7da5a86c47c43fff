/**
 * Folders for a test file's databases and exports, removed when the file's tests end: a test run
 * must not leave hundreds of calendars behind in the system's temporary folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];

// Each test file evaluates this module afresh (vitest isolates files), so this runs per file.
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new empty folder in the system's temporary folder; `prefix` names it for whoever finds one. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
