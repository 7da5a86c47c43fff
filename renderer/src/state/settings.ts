/**
 * Which language the interface speaks, and which language's records are shown and created.
 * They are separate on purpose: someone may read the app in Spanish while keeping an English
 * calendar. Both survive a reload.
 */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { LANGUAGES, type Language } from '@shared/i18n/languages';

export { LANGUAGES, type Language };

export function detectLanguage(tags: readonly string[] = typeof navigator !== 'undefined' ? navigator.languages ?? [] : []): Language {
  for (const tag of tags) {
    const t = tag.toLowerCase();
    if (t.startsWith('pt')) return 'pt-br';
    if (t.startsWith('es')) return 'es';
    if (t.startsWith('en')) return 'en';
  }
  return 'en';
}

interface SettingsState {
  uiLanguage: Language;
  contentLanguage: Language;
  setUiLanguage(l: Language): void;
  setContentLanguage(l: Language): void;
}

export const useSettings = create<SettingsState>()(
  persist(
    (set) => ({
      uiLanguage: detectLanguage(),
      contentLanguage: 'en',
      setUiLanguage: (uiLanguage) => set({ uiLanguage }),
      setContentLanguage: (contentLanguage) => set({ contentLanguage }),
    }),
    { name: 'almanac.settings', partialize: (s) => ({ uiLanguage: s.uiLanguage, contentLanguage: s.contentLanguage }) },
  ),
);
