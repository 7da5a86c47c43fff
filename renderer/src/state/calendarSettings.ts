/**
 * The calendar's settings as the server keeps them (`/settings`, shared/schema/settings.ts), and
 * what the views read from them: the first day of the week, the clock, the working hours, the
 * theme, a new event's length. Every view subscribes, so a saved change shows at once.
 */
import { create } from 'zustand';
import type { LocaleInput } from '@fullcalendar/react';
import esLocale from '@fullcalendar/react/locales/es';
import ptBrLocale from '@fullcalendar/react/locales/pt-br';
import { settingsFields, type CalendarSettings, type Theme, type TimeFormat, type WeekStart } from '@shared/schema/settings';
import type { Language } from '@shared/i18n/languages';
import type { Reminder } from '@shared/reminders';
import { localeTag } from '../i18n';
import { setViewerZone, todayIso, viewerZone } from '../lib/dates';
import { useCalendar } from './calendar';
import { api } from './api';
import { useSettings } from './settings';

export const DEFAULT_SETTINGS = Object.fromEntries(Object.entries(settingsFields).map(([name, d]) => [name, d.default])) as unknown as CalendarSettings;

/**
 * The theme of the last session, for the first paint: the settings arrive a moment later, and a
 * dark-theme user should not see the page flash white first.
 */
const THEME_KEY = 'almanac.theme';
function rememberedTheme(): Theme {
  try {
    const v = localStorage.getItem(THEME_KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

interface CalendarSettingsState {
  settings: CalendarSettings;
  loaded: boolean;
  /**
   * The first answer came (or the request failed): the views wait for it, as the week's first day
   * and the zone decide the range they show, and a range drawn from the defaults first was fetched
   * for nothing before the right one.
   */
  settled: boolean;
  /** The zone the calendar is drawn in (views subscribe to redraw when it changes). */
  zone: string;
  load(): Promise<void>;
  /** Sends the changes; the server's answer (all of them) becomes the settings. */
  save(changes: Partial<CalendarSettings>): Promise<CalendarSettings>;
}

function remember(s: CalendarSettings) {
  try {
    localStorage.setItem(THEME_KEY, s.theme);
  } catch {
    /* private mode: the first paint just follows the system */
  }
}

/**
 * The zone the settings ask the calendar to be drawn in: the one chosen, or null for the
 * computer's. The server answers its own zone for an unset one; this page's zone stands for the
 * computer's then (they are the same computer's, except for a test browser told another zone).
 */
export function chosenZoneOf(s: Pick<CalendarSettings, 'timezone' | 'system_timezone'>): string | null {
  return s.timezone && s.timezone !== s.system_timezone ? s.timezone : null;
}

export const useCalendarSettings = create<CalendarSettingsState>()((set) => {
  const apply = (settings: CalendarSettings) => {
    remember(settings);
    const today = todayIso();
    // Today in the new zone may be another day: a calendar showing today keeps showing today.
    if (setViewerZone(chosenZoneOf(settings)) && useCalendar.getState().date === today) useCalendar.getState().goto(todayIso());
    set({ settings, loaded: true, settled: true, zone: viewerZone() });
  };
  return {
    settings: { ...DEFAULT_SETTINGS, theme: rememberedTheme() },
    loaded: false,
    settled: false,
    zone: viewerZone(),
    async load() {
      try {
        apply(await api().get<CalendarSettings>('settings'));
      } catch (e) {
        // The calendar is still drawn, with the defaults, when the settings cannot be read.
        set({ settled: true });
        throw e;
      }
    },
    async save(changes) {
      const settings = await api().patch<CalendarSettings>('settings', changes);
      apply(settings);
      return settings;
    },
  };
});

/** The zone the calendar is drawn in; a component using it redraws when it changes. */
export const useViewerZone = (): string => useCalendarSettings((s) => s.zone);

/** The reminders Settings gives a new event of this kind (what the Notifications section starts with). */
export const defaultRemindersFor = (allDay: boolean): Reminder[] => {
  const s = useCalendarSettings.getState().settings;
  return (allDay ? s.reminders_all_day : s.reminders_timed) ?? [];
};

/** First day of the week by interface language, as FullCalendar's locales have it (English: Sunday). */
const dowOf = (l: LocaleInput) => (l as { week?: { dow?: number } }).week?.dow ?? l.firstDay ?? 0;
const LANGUAGE_FIRST_DAY: Record<string, number> = { es: dowOf(esLocale), 'pt-br': dowOf(ptBrLocale) };
const WEEK_START_DAY: Record<Exclude<WeekStart, 'language'>, number> = { sunday: 0, monday: 1, saturday: 6 };

/** 0 = Sunday … 6 = Saturday. */
export function firstDayOf(weekStart: WeekStart, language: Language): number {
  return weekStart === 'language' ? (LANGUAGE_FIRST_DAY[language] ?? 0) : WEEK_START_DAY[weekStart];
}

export function useFirstDay(): number {
  const weekStart = useCalendarSettings((s) => s.settings.week_starts_on);
  const language = useSettings((s) => s.uiLanguage);
  return firstDayOf(weekStart, language);
}

/** true/false when the clock is set, undefined to let the language decide. */
export function hour12Of(format: TimeFormat): boolean | undefined {
  return format === 'language' ? undefined : format === '12h';
}

/**
 * The interface language's tag with the chosen clock as a Unicode extension (`en-US-u-hc-h23`):
 * Intl and luxon both honour it, so every time formatted with this tag follows the setting
 * without each call naming `hour12`.
 */
export function clockLocale(language: Language, format: TimeFormat): string {
  const tag = localeTag(language);
  return format === '12h' ? `${tag}-u-hc-h12` : format === '24h' ? `${tag}-u-hc-h23` : tag;
}

/** The locale for dates and times in components (re-renders when the language or clock changes). */
export function useLocale(): string {
  const format = useCalendarSettings((s) => s.settings.time_format);
  const language = useSettings((s) => s.uiLanguage);
  return clockLocale(language, format);
}

/** The same outside components (toasts). */
export function currentLocale(): string {
  return clockLocale(useSettings.getState().uiLanguage, useCalendarSettings.getState().settings.time_format);
}

/** Length of a new timed event, in minutes. */
export function defaultEventMinutes(): number {
  return useCalendarSettings.getState().settings.default_event_minutes;
}
