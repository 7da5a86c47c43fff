/**
 * The largest file an import takes, everywhere (API, CLI, app). A 100,000-event iCalendar export
 * of Almanac is about 120 MB; a file of 200 MB is refused with this limit in the message.
 * (A module of its own: the page imports it, and must not pull in zod, which probes for eval.)
 */
export const IMPORT_LIMIT_BYTES = 150 * 1024 * 1024;
export const IMPORT_LIMIT_LABEL = '150 MB';
