/**
 * Printing the calendar as it is on screen (agenda, week or month), through the system's print
 * dialog, so "Save as PDF" works too. The stylesheet's `@media print` (styles/print.css) keeps the
 * calendar alone and in light colours; the time grid and the agenda are drawn at their full
 * height while printing, not in their scrolled box.
 */
import { useEffect, useState } from 'react';
import { useUi } from './state/ui';

/** Whether the page is being printed (between `beforeprint` and `afterprint`). */
export function usePrinting(): boolean {
  const [printing, setPrinting] = useState(false);
  useEffect(() => {
    const on = () => setPrinting(true);
    const off = () => setPrinting(false);
    const query = window.matchMedia?.('print');
    const change = (e: MediaQueryListEvent) => setPrinting(e.matches);
    window.addEventListener('beforeprint', on);
    window.addEventListener('afterprint', off);
    query?.addEventListener?.('change', change);
    return () => {
      window.removeEventListener('beforeprint', on);
      window.removeEventListener('afterprint', off);
      query?.removeEventListener?.('change', change);
    };
  }, []);
  return printing;
}

/** Opens the system's print dialog on the calendar (the desktop app's too: Chromium's own). */
export function printCalendar(): void {
  const ui = useUi.getState();
  ui.setScreen('calendar');
  ui.closeDetails();
  // A frame for the calendar screen to be drawn before the dialog takes its picture.
  requestAnimationFrame(() => window.print());
}
