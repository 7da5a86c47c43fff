/**
 * What format an imported file is in, told the same way by the CLI, the API and the import dialog
 * (the dialog shows the restore warning for a backup, so it must reach the verdict the server will).
 *
 * An explicit choice (`--format`, `format=`, a menu that imports one format) wins; then the content,
 * when its first characters say (`BEGIN:` is iCalendar, even a broken one or one without its
 * VCALENDAR; `{` is a backup); then the file's name; CSV last, since a CSV file starts with anything.
 * So a broken `.ics` file is refused with iCalendar's message, not with CSV's missing columns.
 */
import type { ImportFormat } from './desktop-bridge';

export type { ImportFormat };

/** File name extensions of each format, for the open dialogs as well. `.txt` says nothing: the content decides. */
export const IMPORT_EXTENSIONS: Readonly<Record<ImportFormat, readonly string[]>> = {
  ics: ['ics', 'ical', 'icalendar', 'ifb'],
  csv: ['csv'],
  json: ['json'],
};

/** Characters of the file's start that `formatOfContent` needs (after a byte order mark and white space). */
export const FORMAT_HEAD_CHARS = 512;

/** What the file's name says it is, if its extension is one of ours. */
export function formatOfName(name: string): ImportFormat | undefined {
  const ext = /\.([a-z0-9]+)$/i.exec(name.trim())?.[1]?.toLowerCase();
  if (!ext) return undefined;
  for (const format of Object.keys(IMPORT_EXTENSIONS) as ImportFormat[]) {
    if (IMPORT_EXTENSIONS[format].includes(ext)) return format;
  }
  return undefined;
}

/** What the file's first characters say it is, if they say. */
export function formatOfContent(text: string): ImportFormat | undefined {
  const head = text.slice(0, FORMAT_HEAD_CHARS).replace(/^\uFEFF/, '').trimStart();
  if (/^BEGIN:/i.test(head)) return 'ics';
  if (head.startsWith('{')) return 'json';
  return undefined;
}

/** The format a file is imported as: the explicit one, else what its content says, else its name, else CSV. */
export function importFormat(text: string, name?: string, explicit?: ImportFormat): ImportFormat {
  return explicit ?? formatOfContent(text) ?? (name ? formatOfName(name) : undefined) ?? 'csv';
}
