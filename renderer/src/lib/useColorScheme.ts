/**
 * Dark mode follows the system. The scheme is also written on <html data-color-scheme>, the
 * attribute FullCalendar's theme palettes key their dark colours on.
 */
import { useEffect, useState } from 'react';

const query = '(prefers-color-scheme: dark)';

function current(): 'light' | 'dark' {
  return typeof matchMedia === 'function' && matchMedia(query).matches ? 'dark' : 'light';
}

export function useColorScheme(): 'light' | 'dark' {
  const [scheme, setScheme] = useState(current);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const mql = matchMedia(query);
    const onChange = () => setScheme(current());
    mql.addEventListener?.('change', onChange);
    return () => mql.removeEventListener?.('change', onChange);
  }, []);
  useEffect(() => {
    document.documentElement.dataset.colorScheme = scheme;
  }, [scheme]);
  return scheme;
}
