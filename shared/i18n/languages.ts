/** The languages Almanac's records and messages come in; `en` is the default. */
export const LANGUAGES = ['en', 'pt-br', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/**
 * The language of an event that has none of its own (issue 27): synced from a CalDAV server, from a
 * subscription, or imported from a file that says nothing of language. Lists, views, search and
 * exports of every language show it.
 */
export const NO_LANGUAGE = '';
export type RecordLanguage = Language | typeof NO_LANGUAGE;

export function isLanguage(v: unknown): v is Language {
  return typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v);
}
