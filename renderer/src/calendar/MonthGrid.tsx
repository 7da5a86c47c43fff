/**
 * The month view: a grid of our own instead of FullCalendar's (which stays for week, day and
 * agenda). FullCalendar measures every event it places, twice, and a crowded month's 170 entries
 * cost it well over 100 ms; here every entry has a fixed height, so one React render and one plain
 * layout draw the month (issue #4's 200 ms budget, shown by `npm run bench:ui`).
 *
 * What it keeps from the calendar: day cells named by their date (`role="cell"`, `data-date`), the
 * day number going to the day view, a click or a drag over empty days opening quick create for
 * them, events as buttons (click to edit, focus + Delete to trash) that can be dragged to another
 * day, multi-day bars stacked per week, and "+N more" opening the day's full list. Pointer and key
 * handling is delegated to the grid, so a month of entries adds no listeners.
 */
import { memo, useCallback, useMemo, useRef } from 'react';
import type { Event } from '@shared/api/records';
import { addDaysIso, dayOf, midnightOf, plusDays, viewerZone, wallTime } from '../lib/dates';
import { shortTime } from '../lib/format';
import { useCalendar } from '../state/calendar';
import { moveEvent } from '../state/eventActions';
import { eventById, useEvents } from '../state/events';
import { useUi } from '../state/ui';
import { Icon } from '../components/Icon';
import { colourFor, decodeEntities } from './toEventInput';
import { dayNumberOf, dayRange, utcMs, type MonthBar, type MonthWeek } from './monthCollapse';
import './month.css';

/** Heights the layout counts in (month.css draws with the same): the day number, and one entry. */
export const DAY_TOP_PX = 32;
export const ENTRY_PX = 23;

export interface EventLabels {
  featured: string;
  sticky: string;
  /** The mark of an occurrence of a repeating event. */
  repeats: string;
  /** The bell of an event that has reminders; optional for callers from before reminders. */
  reminds?: string;
}

/** The featured star, sticky pin, repeat mark and bell after a title, named for screen readers. */
export function Badges({ event, labels }: { event: Event | undefined; labels: EventLabels }) {
  return (
    <>
      {event?.featured && (
        <span className="ev-badge ev-badge-featured" title={labels.featured}>
          ★<span className="visually-hidden"> {labels.featured}</span>
        </span>
      )}
      {event?.sticky && (
        <span className="ev-badge ev-badge-sticky" title={labels.sticky}>
          <Icon name="pushpin" size={12} />
          <span className="visually-hidden"> {labels.sticky}</span>
        </span>
      )}
      {event?.recurrence && (
        <span className="ev-badge ev-badge-repeat" title={labels.repeats}>
          <Icon name="repeat" size={12} />
          <span className="visually-hidden"> {labels.repeats}</span>
        </span>
      )}
      {labels.reminds && event?.reminders?.length ? (
        <span className="ev-badge ev-badge-bell" title={labels.reminds}>
          <Icon name="bell" size={12} />
          <span className="visually-hidden"> {labels.reminds}</span>
        </span>
      ) : null}
    </>
  );
}

/** Classes and colour of an event's box (the same classes the other views' events get). */
function eventBox(e: Event, extra: string): { className: string; style: React.CSSProperties | undefined } {
  let className = `mg-ev ${extra}`;
  if (e.featured) className += ' ev-featured';
  if (e.sticky) className += ' ev-sticky';
  if (e.status !== 'publish') className += ` ev-${e.status}`;
  const colour = colourFor(e);
  return { className, style: colour ? ({ '--fc-event-color': colour } as React.CSSProperties) : undefined };
}

export interface MonthGridProps {
  weeks: MonthWeek[];
  /** `YYYY-MM` of the month shown (other months' days are greyed). */
  month: string;
  today: string;
  /** The zone the calendar is drawn in: entry times are drawn again when it changes. */
  zone: string;
  locale: string;
  title: string;
  labels: EventLabels;
  moreText: (count: number) => string;
  /** The categories whose colours the entries are drawn in: new ones draw them again. */
  colours: unknown;
}

interface Texts {
  moreText: (count: number) => string;
  longDate: (day: string) => string;
  line: (e: Event) => React.ReactElement;
  bar: (b: MonthBar) => React.ReactElement;
}

const DayCell = memo(function DayCell({
  day,
  lines,
  more,
  bars,
  barRows,
  other,
  today,
  texts,
}: {
  day: string;
  lines: Event[];
  more: number;
  bars: MonthBar[] | undefined;
  barRows: number;
  other: boolean;
  today: boolean;
  texts: Texts;
}) {
  const name = texts.longDate(day);
  return (
    <div role="cell" aria-label={name} data-date={day} className={`mg-day${other ? ' mg-other' : ''}${today ? ' mg-today' : ''}`}>
      <div className="mg-day-top">
        <span role="link" tabIndex={0} className="mg-daynum" data-navday={day} aria-label={name}>
          {Number(day.slice(8, 10))}
        </span>
      </div>
      {bars?.map(texts.bar)}
      <div className="mg-entries" style={barRows ? { paddingTop: barRows * ENTRY_PX } : undefined}>
        {lines.map(texts.line)}
        {more > 0 && (
          <button type="button" className="mg-ev mg-more" data-more={day}>
            <span className="ev ev-more-link">
              <span className="ev-more-long">{texts.moreText(more)}</span>
              {/* A phone's column is 55 px: "+2" whole rather than "+2 mo". */}
              <span className="ev-more-short" aria-hidden="true">
                +{more}
              </span>
            </span>
          </button>
        )}
      </div>
    </div>
  );
});

/**
 * Shifts an event's start and end by whole days (wall-clock times kept, as a drag in a calendar
 * does): a move shifts both, a resize only the end, never to before the start. Shown at once where
 * it was dropped; the server's copy replaces it, or `revert` puts it back.
 */
function shiftByDays(e: Event, startDays: number, endDays: number) {
  useUi.getState().select(e.id);
  const revert = () => useEvents.getState().upsert(e);
  if (e.all_day) {
    const startDay = addDaysIso(e.start_date.slice(0, 10), startDays);
    const lastDay = addDaysIso(e.end_date.slice(0, 10), endDays);
    if (lastDay < startDay) return;
    useEvents.getState().upsert({ ...e, start_date: `${startDay}${e.start_date.slice(10)}`, end_date: `${lastDay}${e.end_date.slice(10)}` });
    void moveEvent(e, { start: midnightOf(startDay), end: null, allDay: true, startDay, endDay: addDaysIso(lastDay, 1) }, revert);
    return;
  }
  // Whole days on the calendar's clock: the same hour there, across a DST change too.
  const start = plusDays(new Date(utcMs(e.utc_start_date)), startDays);
  const end = plusDays(new Date(utcMs(e.utc_end_date)), endDays);
  if (end <= start) return;
  const utc = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
  const zone = e.timezone || viewerZone();
  useEvents.getState().upsert({ ...e, utc_start_date: utc(start), utc_end_date: utc(end), start_date: wallTime(start, zone), end_date: wallTime(end, zone) });
  void moveEvent(e, { start, end, allDay: false, startDay: dayOf(start), endDay: dayOf(end) }, revert);
}

const DRAG_THRESHOLD_PX = 4;

export function MonthGrid({ weeks, month, today, zone, locale, title, labels, moreText, colours }: MonthGridProps) {
  const rootRef = useRef<HTMLDivElement>(null);
  /** Set when a pointer gesture was a drag, so the click that ends it does not also open the event. */
  const dragged = useRef(false);

  const texts = useMemo<Texts>(() => {
    const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
    const dates = new Map<string, string>();
    // Entries kept once drawn, by record: a re-render with the same records hands React the very
    // same elements, which it skips. They depend only on the record, `labels` and `locale`.
    const lines = new WeakMap<Event, React.ReactElement>();
    const bars = new WeakMap<Event, Map<string, React.ReactElement>>();
    return {
      moreText,
      longDate(day) {
        let text = dates.get(day);
        if (text === undefined) dates.set(day, (text = dateFormat.format(new Date(`${day}T00:00:00Z`))));
        return text;
      },
      line(e) {
        let node = lines.get(e);
        if (node) return node;
        const box = eventBox(e, 'mg-line');
        node = (
          <button key={e.id} type="button" className={box.className} style={box.style} data-event-id={e.id}>
            <span className="ev">
              <span className="ev-time ev-dotted">{shortTime(utcMs(e.utc_start_date), locale)}</span>
              <span className="ev-title">{decodeEntities(e.title)}</span>
              <Badges event={e} labels={labels} />
            </span>
          </button>
        );
        lines.set(e, node);
        return node;
      },
      bar(b) {
        const key = `${b.start}:${b.end}:${b.level}:${b.isStart}:${b.isEnd}`;
        let byPlace = bars.get(b.event);
        let node = byPlace?.get(key);
        if (node) return node;
        const e = b.event;
        const span = b.end - b.start;
        const box = eventBox(e, `mg-bar${b.isStart ? '' : ' mg-bar-cont-before'}${b.isEnd ? '' : ' mg-bar-cont-after'}`);
        node = (
          <button
            key={e.id}
            type="button"
            className={box.className}
            style={{ ...box.style, top: DAY_TOP_PX + b.level * ENTRY_PX, width: `calc(${span * 100}% + ${span - 1 - (b.isStart ? 4 : 0) - (b.isEnd ? 4 : 0)}px)` }}
            data-event-id={e.id}
          >
            <span className="ev">
              <span className="ev-line">
                <span className="ev-title">{decodeEntities(e.title)}</span>
                <Badges event={e} labels={labels} />
              </span>
            </span>
            {/* Dragged to another day, the end moves there (the editor does the same from the keyboard). */}
            {b.isEnd && <span className="mg-resize" data-resize="" aria-hidden="true" />}
          </button>
        );
        if (!byPlace) bars.set(e, (byPlace = new Map()));
        byPlace.set(key, node);
        return node;
      },
    };
  }, [locale, zone, labels, moreText, colours]); // eslint-disable-line react-hooks/exhaustive-deps

  const weekdays = useMemo(() => {
    const f = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
    return weeks[0]?.days.map((d) => f.format(new Date(`${d.day}T12:00:00Z`))) ?? [];
  }, [weeks, locale]);

  const cellAt = (x: number, y: number): HTMLElement | null => {
    const el = document.elementFromPoint(x, y)?.closest<HTMLElement>('[data-date]') ?? null;
    return el && rootRef.current?.contains(el) ? el : null;
  };

  /** An event pressed: a click opens it (see onClick), a drag moves it to the day it is dropped on. */
  const dragEvent = useCallback((down: React.PointerEvent, el: HTMLElement, fromDay: string) => {
    const x0 = down.clientX;
    const y0 = down.clientY;
    let ghost: HTMLElement | null = null;
    let over: HTMLElement | null = null;
    let dx = 0;
    let dy = 0;
    const setOver = (cell: HTMLElement | null) => {
      if (cell === over) return;
      over?.classList.remove('mg-drop');
      over = cell;
      over?.classList.add('mg-drop');
    };
    const move = (ev: PointerEvent) => {
      if (!ghost) {
        if (Math.hypot(ev.clientX - x0, ev.clientY - y0) < DRAG_THRESHOLD_PX) return;
        const box = el.getBoundingClientRect();
        dx = x0 - box.left;
        dy = y0 - box.top;
        ghost = el.cloneNode(true) as HTMLElement;
        ghost.classList.add('mg-ghost');
        ghost.removeAttribute('data-event-id');
        ghost.setAttribute('aria-hidden', 'true');
        ghost.style.width = `${box.width}px`;
        ghost.style.top = '0';
        document.body.append(ghost);
        el.classList.add('mg-dragging');
      }
      ghost.style.transform = `translate(${ev.clientX - dx}px, ${ev.clientY - dy}px)`;
      setOver(cellAt(ev.clientX, ev.clientY));
    };
    const end = (ev: PointerEvent) => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
      if (!ghost) return;
      dragged.current = true;
      ghost.remove();
      el.classList.remove('mg-dragging');
      const to = ev.type === 'pointerup' ? over?.dataset.date : undefined;
      setOver(null);
      const e = eventById(el.dataset.eventId);
      if (!e || !to || to === fromDay) return;
      shiftByDays(e, dayNumberOf(to) - dayNumberOf(fromDay), dayNumberOf(to) - dayNumberOf(fromDay));
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
  }, []);

  /**
   * Follows the pointer over the days of the grid from `fromDay` until it is let go: `paint` is
   * told each day it moves onto, `done` the day it was let go on (null when the gesture was cancelled).
   */
  const sweepDays = (fromDay: string, paint: (toDay: string) => void, done: (toDay: string | null) => void) => {
    let toDay = fromDay;
    const move = (ev: PointerEvent) => {
      const d = cellAt(ev.clientX, ev.clientY)?.dataset.date;
      if (d && d !== toDay) paint((toDay = d));
    };
    const end = (ev: PointerEvent) => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
      done(ev.type === 'pointerup' ? toDay : null);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
  };

  const markDays = (className: string, inRange: (day: string) => boolean) => {
    for (const cell of rootRef.current?.querySelectorAll<HTMLElement>('[data-date]') ?? []) cell.classList.toggle(className, inRange(cell.dataset.date!));
  };

  /** A bar's end handle pressed: the day it is dragged to is the event's new last day. */
  const dragEnd = useCallback((down: React.PointerEvent, el: HTMLElement) => {
    down.preventDefault();
    down.stopPropagation();
    const e = eventById(el.dataset.eventId);
    if (!e) return;
    const [first, fromDay] = dayRange(e);
    sweepDays(
      fromDay,
      (toDay) => markDays('mg-drop', (d) => toDay !== fromDay && first <= d && d <= toDay),
      (toDay) => {
        // A press and release on the handle without a move is a click: it opens the event.
        dragged.current = !!toDay && toDay !== fromDay;
        markDays('mg-drop', () => false);
        if (toDay && toDay !== fromDay) shiftByDays(e, 0, dayNumberOf(toDay) - dayNumberOf(fromDay));
      },
    );
  }, []);

  /** Empty space pressed: the days from there to where the pointer is let go open quick create. */
  const selectDays = useCallback((down: React.PointerEvent, fromDay: string) => {
    down.preventDefault(); // no text selection while sweeping over days
    const between = (a: string, b: string) => (a <= b ? [a, b] : [b, a]);
    const paint = (toDay: string) => {
      const [a, b] = between(fromDay, toDay);
      markDays('mg-selected', (d) => a <= d && d <= b);
    };
    paint(fromDay);
    sweepDays(fromDay, paint, (toDay) => {
      markDays('mg-selected', () => false);
      if (!toDay) return;
      const [first, last] = between(fromDay, toDay);
      useUi.getState().openQuickCreate({ start_date: `${first} 00:00:00`, end_date: `${last} 23:59:59`, all_day: true, timezone: viewerZone() });
    });
  }, []);

  const onPointerDown = useCallback(
    (ev: React.PointerEvent) => {
      dragged.current = false;
      if (ev.button !== 0) return;
      const target = ev.target as HTMLElement;
      if (target.closest('[data-navday], [data-more]')) return;
      const day = target.closest<HTMLElement>('[data-date]')?.dataset.date;
      if (!day) return;
      const eventEl = target.closest<HTMLElement>('[data-event-id]');
      if (eventEl && target.closest('[data-resize]')) dragEnd(ev, eventEl);
      else if (eventEl) dragEvent(ev, eventEl, day);
      else selectDays(ev, day);
    },
    [dragEvent, dragEnd, selectDays],
  );

  const activate = useCallback((target: HTMLElement) => {
    const nav = target.closest<HTMLElement>('[data-navday]');
    if (nav) {
      useCalendar.getState().openDay(nav.dataset.navday!);
      return true;
    }
    const more = target.closest<HTMLElement>('[data-more]');
    if (more) {
      useUi.getState().openDayList(more.dataset.more!);
      return true;
    }
    const e = eventById(target.closest<HTMLElement>('[data-event-id]')?.dataset.eventId);
    if (!e) return false;
    useUi.getState().openDetails(e, target.closest('[data-event-id]'));
    return true;
  }, []);

  const onClick = useCallback(
    (ev: React.MouseEvent) => {
      if (dragged.current) {
        dragged.current = false;
        return;
      }
      if (activate(ev.target as HTMLElement)) ev.preventDefault();
    },
    [activate],
  );

  // Buttons answer Enter and Space themselves (as clicks); the day numbers are links.
  const onKeyDown = useCallback((ev: React.KeyboardEvent) => {
    const nav = (ev.target as HTMLElement).closest<HTMLElement>('[data-navday]');
    if (nav && ev.key === 'Enter') {
      ev.preventDefault();
      useCalendar.getState().openDay(nav.dataset.navday!);
    }
  }, []);

  return (
    <div ref={rootRef} className="mg" role="table" aria-label={title} onPointerDown={onPointerDown} onClick={onClick} onKeyDown={onKeyDown}>
      <div className="mg-head" role="row">
        {weekdays.map((name, i) => (
          <div key={i} role="columnheader" className="mg-weekday">
            {name}
          </div>
        ))}
      </div>
      <div className="mg-body">
        {weeks.map((week, w) => {
          const barsByStart = new Map<number, MonthBar[]>();
          for (const b of week.bars) {
            const list = barsByStart.get(b.start);
            if (list) list.push(b);
            else barsByStart.set(b.start, [b]);
          }
          return (
            <div key={w} className="mg-week" role="row">
              {week.days.map((d, c) => (
                <DayCell
                  key={c}
                  day={d.day}
                  lines={d.lines}
                  more={d.more}
                  bars={barsByStart.get(c)}
                  barRows={d.barRows}
                  other={!d.day.startsWith(month)}
                  today={d.day === today}
                  texts={texts}
                />
              ))}
            </div>
          );
        })}
      </div>
    </div>
  );
}
