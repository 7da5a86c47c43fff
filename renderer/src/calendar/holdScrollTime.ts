/**
 * Keeps a time grid at the same time of day while its slots change height: at its scroll time
 * (the working day's start) until the person scrolls, then at the time they scrolled to.
 *
 * FullCalendar v7 turns `scrollTime` into pixels once, with the slot height of its first layout,
 * and keeps those pixels when the slots are measured again. The slot height follows the hour
 * labels, and the labels shrink once the columns are measured as narrow (7 days at half a 1366
 * screen: 29px slots instead of 33): the week opened at 8:50 instead of 7:45, the 8:00 events
 * hidden above the fold. It also notes where the person scrolled only half a second after the
 * scrolling stops, so a window resized right after a scroll jumped back to the old pixels.
 * So a change of slot height asks FullCalendar to scroll to a time again, which it converts with
 * the slots' new height.
 */

/** Input by which a person scrolls the grid (or starts to drag its scrollbar). */
const PERSON_SCROLLS = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;
const DAY_MS = 86_400_000;

export interface ScrollTarget {
  /** Scroll to the working day's start. */
  toScrollTime(): void;
  /** Scroll so that this time of day (milliseconds after midnight) is at the top. */
  toTime(ms: number): void;
}

/**
 * Watches the time grid inside `viewEl` (does nothing for views without one). `reset()` (a new
 * date range or new working hours: FullCalendar or we scrolled to the scroll time) holds the
 * scroll time again even after the person scrolled.
 */
export function holdScrollTime(viewEl: HTMLElement, target: ScrollTarget): { reset(): void; stop(): void } {
  // Every slot and hour label carries its time; watching them all catches a change of slot
  // height whichever of them FullCalendar measures (the first label is drawn empty, 0px high).
  const slots = [...viewEl.querySelectorAll<HTMLElement>('[data-time]')];
  let scroller = slots[0]?.parentElement ?? null;
  while (scroller && scroller !== viewEl && !/(auto|scroll)/.test(getComputedStyle(scroller).overflowY)) scroller = scroller.parentElement;
  if (!slots.length || !scroller || scroller === viewEl || typeof ResizeObserver === 'undefined') return { reset() {}, stop() {} };
  const grid = scroller;

  let held = true;
  // The time at the top, as a share of the grid: CalendarView sets no slotMinTime/slotMaxTime,
  // so the grid is the whole day.
  let top = 0;
  const letGo = () => {
    held = false;
  };
  const onScroll = () => {
    if (grid.scrollHeight > 0) top = grid.scrollTop / grid.scrollHeight;
  };
  for (const type of PERSON_SCROLLS) viewEl.addEventListener(type, letGo, { passive: true, capture: true });
  grid.addEventListener('scroll', onScroll, { passive: true });

  const heights = new Map<Element, number>();
  const observer = new ResizeObserver((entries) => {
    // A grid being taken down (another view, a new date range) reports its slots at no height
    // before FullCalendar tells us it is gone; asking it to scroll then fails inside it.
    if (!grid.isConnected) return;
    let changed = false;
    for (const entry of entries) {
      if (!entry.target.isConnected || entry.contentRect.height === 0) continue;
      const before = heights.get(entry.target);
      heights.set(entry.target, entry.contentRect.height);
      // The first report of each element is its size when watching began, not a change.
      if (before !== undefined && before !== entry.contentRect.height) changed = true;
    }
    if (!changed) return;
    if (held) target.toScrollTime();
    else target.toTime(Math.round(top * DAY_MS));
  });
  for (const slot of slots) observer.observe(slot);
  return {
    reset() {
      held = true;
    },
    stop() {
      observer.disconnect();
      for (const type of PERSON_SCROLLS) viewEl.removeEventListener(type, letGo, { capture: true });
      grid.removeEventListener('scroll', onScroll);
    },
  };
}
