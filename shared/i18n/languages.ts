/** The languages Almanac's records and messages come in; `en` is the default. */
export const LANGUAGES = ['en', 'pt-br', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

export function isLanguage(v: unknown): v is Language {
  return typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v);
}
