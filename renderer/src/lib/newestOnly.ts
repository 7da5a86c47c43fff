import { useRef } from 'react';

/**
 * For data loaded again and again (a search being typed, a record just saved, another tab or
 * range picked): answers can arrive out of order, and an older one arriving last would put back
 * what the screen has moved past (a trashed row, the previous search's results). Each load calls
 * `begin()` and applies its answer only while the returned `isNewest()` still holds.
 */
export function newestOnly(): () => () => boolean {
  let latest = 0;
  return () => {
    const ticket = ++latest;
    return () => ticket === latest;
  };
}

/** `newestOnly` for a component: one sequence for as long as it is mounted. */
export function useNewestOnly(): () => () => boolean {
  const begin = useRef<() => () => boolean>(undefined);
  return (begin.current ??= newestOnly());
}
