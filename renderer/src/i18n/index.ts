/**
 * i18next with the three interface languages. Resources are bundled (the app is offline), so
 * initialisation is synchronous and the first paint is already in the user's language.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, type Language } from '@shared/i18n/languages';
import en from './locales/en.json';
import ptBr from './locales/pt-br.json';
import es from './locales/es.json';
import { useSettings } from '../state/settings';

export const resources = {
  en: { translation: en },
  'pt-br': { translation: ptBr },
  es: { translation: es },
} as const;

void i18n.use(initReactI18next).init({
  resources,
  lng: useSettings.getState().uiLanguage,
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  lowerCaseLng: true,
  initAsync: false,
  interpolation: { escapeValue: false },
  returnEmptyString: false,
});

/** BCP 47 tag for Intl and FullCalendar (`pt-br` → `pt-BR`). */
export function localeTag(l: Language): string {
  return l === 'pt-br' ? 'pt-BR' : l;
}

export default i18n;
