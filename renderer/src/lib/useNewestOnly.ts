import { useCallback, useRef } from 'react';

/**
 * For lists loaded again and again (a search being typed, a record just saved, another tab picked):
 * answers can arrive out of order, and an older one arriving last would put back what the screen
 * has moved past (a trashed row, the previous search's results). Each load calls `begin()` and
 * applies its answer only while the returned `isNewest()` still holds.
 */
export function useNewestOnly(): () => () => boolean {
  const latest = useRef(0);
  return useCallback(() => {
    const ticket = ++latest.current;
    return () => ticket === latest.current;
  }, []);
}
