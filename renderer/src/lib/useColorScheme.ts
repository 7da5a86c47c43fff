/**
 * The colour scheme: the theme chosen in Settings, or the system's when the theme is "system".
 * It is also written on <html data-color-scheme>, the attribute the app's and FullCalendar's
 * palettes key their dark colours on, and as `color-scheme` so form controls follow.
 */
import { useEffect, useState } from 'react';
import { useCalendarSettings } from '../state/calendarSettings';

const query = '(prefers-color-scheme: dark)';

function systemScheme(): 'light' | 'dark' {
  return typeof matchMedia === 'function' && matchMedia(query).matches ? 'dark' : 'light';
}

export function useColorScheme(): 'light' | 'dark' {
  const theme = useCalendarSettings((s) => s.settings.theme);
  const [system, setSystem] = useState(systemScheme);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const mql = matchMedia(query);
    const onChange = () => setSystem(systemScheme());
    mql.addEventListener?.('change', onChange);
    return () => mql.removeEventListener?.('change', onChange);
  }, []);
  const scheme = theme === 'system' ? system : theme;
  useEffect(() => {
    document.documentElement.dataset.colorScheme = scheme;
    document.documentElement.style.colorScheme = scheme;
  }, [scheme]);
  return scheme;
}
