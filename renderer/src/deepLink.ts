/**
 * Record permalinks (`/event/<slug>/` and the like) reach the page as `#/event/<slug>`: open that
 * record where it lives — an event in the calendar on its day, a venue or organizer in its screen.
 */
import { useEffect } from 'react';
import type { Event } from '@shared/api/records';
import { isLanguage } from '@shared/i18n/languages';
import { api } from './state/api';
import { useCalendar } from './state/calendar';
import { useSettings } from './state/settings';
import { toastError } from './state/toasts';
import { useUi } from './state/ui';

const LINK = /^#\/(event|venue|organizer)\/([^/]+)\/?$/;

export async function openLink(hash: string): Promise<boolean> {
  const m = LINK.exec(hash);
  if (!m) return false;
  const kind = m[1] as 'event' | 'venue' | 'organizer';
  const slug = decodeURIComponent(m[2]);
  const ui = useUi.getState();
  if (kind === 'event') {
    const event = await api().get<Event>(`events/by-slug/${encodeURIComponent(slug)}`);
    // A record belongs to one language; show the calendar of that language so it is in view.
    if (isLanguage(event.i18n_language) && event.i18n_language !== useSettings.getState().contentLanguage) {
      useSettings.getState().setContentLanguage(event.i18n_language);
    }
    ui.setScreen('calendar');
    useCalendar.getState().goto(event.start_date.slice(0, 10));
    ui.select(event.id);
    ui.openEditor({ kind: 'edit', event });
  } else {
    ui.setScreen(kind === 'venue' ? 'venues' : 'organizers');
    ui.requestOpen(slug);
  }
  return true;
}

export function useDeepLinks() {
  useEffect(() => {
    const handle = () => {
      if (!LINK.test(location.hash)) return;
      const hash = location.hash;
      history.replaceState(null, '', location.pathname + location.search);
      openLink(hash).catch((e: Error) => toastError(e.message));
    };
    handle();
    window.addEventListener('hashchange', handle);
    return () => window.removeEventListener('hashchange', handle);
  }, []);
}
