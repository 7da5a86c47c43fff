/**
 * Keeps data in step with what is on screen: the visible range, the filters and the records
 * language decide the events fetched; the languages decide the interface text and the lookups.
 */
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import i18n from './i18n';
import { localeTag } from './i18n';
import { useCalendar } from './state/calendar';
import { useEvents } from './state/events';
import { filtersOf, useFilters } from './state/filters';
import { useLookups } from './state/lookups';
import { useCalendarSettings } from './state/calendarSettings';
import { useSettings } from './state/settings';
import { toastError } from './state/toasts';
import { useUndo } from './state/undo';
import { useCalendars } from './state/calendars';
import { serverHasSites, useSites } from './state/sites';
import { useSyncStatus } from './state/syncStatus';

export function useDataSync() {
  const range = useCalendar((s) => s.range);
  const filters = useFilters(useShallow(filtersOf));
  const language = useSettings((s) => s.contentLanguage);
  const uiLanguage = useSettings((s) => s.uiLanguage);

  useEffect(() => {
    void i18n.changeLanguage(uiLanguage);
    document.documentElement.lang = localeTag(uiLanguage);
  }, [uiLanguage]);

  // Once: the calendar's settings (week start, clock, theme…) decide how every view draws.
  useEffect(() => {
    useCalendarSettings
      .getState()
      .load()
      .catch((e: Error) => toastError(e.message));
  }, []);

  // Calendars (shown or hidden decides the events asked for) and the accounts' sync state, whose
  // errors come worded in the interface's language.
  useEffect(() => {
    useCalendars
      .getState()
      .load()
      // The websites synced as calendars (issue 26), their errors worded the same way.
      .then(() => (serverHasSites(useSyncStatus.getState().status) ? useSites.getState().load() : undefined))
      .catch((e: Error) => toastError(e.message));
  }, [uiLanguage]);

  useEffect(() => {
    useLookups
      .getState()
      .loadAll()
      .then(() => {
        const l = useLookups.getState();
        const ids = (xs: Array<{ id: number }>) => new Set(xs.map((x) => x.id));
        useFilters.getState().prune({ categories: ids(l.categories), tags: ids(l.tags), venues: ids(l.venues), organizers: ids(l.organizers) });
      })
      .catch((e: Error) => toastError(e.message));
  }, [language]);

  // Undo entries refer to records of the language they were made in.
  useEffect(() => () => useUndo.getState().clear(), [language]);

  useEffect(() => {
    if (!range) return;
    useEvents
      .getState()
      .load({ range, filters, language })
      .catch((e: Error) => toastError(e.message));
  }, [range, filters, language]);
}
