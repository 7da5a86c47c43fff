import { useEffect, useState } from 'react';

/** Whether a CSS media query matches now, kept current as the window is resized. */
export function useMediaQuery(query: string): boolean {
  const get = () => typeof matchMedia === 'function' && matchMedia(query).matches;
  const [matches, setMatches] = useState(get);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const mql = matchMedia(query);
    const onChange = () => setMatches(mql.matches);
    onChange();
    mql.addEventListener?.('change', onChange);
    return () => mql.removeEventListener?.('change', onChange);
  }, [query]);
  return matches;
}

/** Below this width the sidebar is a drawer behind the "Menu" button (half a 1366 screen is 683). */
export const DRAWER_QUERY = '(max-width: 760px)';
/** Below this width the week view shows three days: seven columns of 50 px hold no title. */
export const COMPACT_QUERY = '(max-width: 600px)';
