/**
 * The calendar itself, following the calendar store (view + date) and drawing the events store:
 * the month is our own grid (MonthGrid.tsx, for speed), week, day and agenda are FullCalendar v7.
 * Clicking or dragging on empty time opens quick create; dragging or resizing an event sends a
 * PATCH and is put back if the server refuses.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import FullCalendar, {
  type CalendarRef,
  type EventInput,
  type DateSelectInfo,
  type DatesSetInfo,
  type EventClickInfo,
  type EventDisplayInfo,
  type EventDropInfo,
  type EventResizeDoneInfo,
  type MountInfo,
  type ViewDisplayInfo,
} from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/react/daygrid';
import timeGridPlugin from '@fullcalendar/react/timegrid';
import listPlugin from '@fullcalendar/react/list';
import multiMonthPlugin from '@fullcalendar/react/multimonth';
import interactionPlugin from '@fullcalendar/react/interaction';
import breezyTheme from '@fullcalendar/react/themes/breezy';
import esLocale from '@fullcalendar/react/locales/es';
import ptBrLocale from '@fullcalendar/react/locales/pt-br';
import '@fullcalendar/react/skeleton.css';
import '@fullcalendar/react/themes/breezy/theme.css';
import '@fullcalendar/react/themes/breezy/palettes/indigo.css';
import type { Event } from '@shared/api/records';
import { addDaysIso, dayOf, intlZone, midnightOf, systemZone, todayIso, viewerZone, wallTime } from '../lib/dates';
import { usePrinting } from '../print';
import { formatDay, offsetMinutes, timeRangeText } from '../lib/format';
import { AGENDA_DAYS, fcViewOf, useCalendar } from '../state/calendar';
import { moveEvent } from '../state/eventActions';
import { eventById, useEvents } from '../state/events';
import { useSettings } from '../state/settings';
import { useLookups } from '../state/lookups';
import { useCalendars } from '../state/calendars';
import { useUi } from '../state/ui';
import { useColorScheme } from '../lib/useColorScheme';
import { defaultEventMinutes, hour12Of, useCalendarSettings, useFirstDay, useLocale, useViewerZone } from '../state/calendarSettings';
import { toEventInput } from './toEventInput';
import { holdScrollTime } from './holdScrollTime';
import { layoutMonth, utcMs, type MonthWeek } from './monthCollapse';
import { Badges, DAY_TOP_PX, ENTRY_PX, MonthGrid } from './MonthGrid';
import { readOnlySource } from '../subscriptions/readOnlyCalendars';

const PLUGINS = [dayGridPlugin, timeGridPlugin, listPlugin, multiMonthPlugin, interactionPlugin, breezyTheme];
const LOCALES = [esLocale, ptBrLocale];
/** A week's title names its days ("Mar 9 – 15, 2031"), not just the month. */
const VIEW_OPTIONS = {
  timeGridWeek: { titleFormat: { year: 'numeric', month: 'short', day: 'numeric' } },
  // A run of days starting on the current date (a day-sized duration aligns to the day, not the month's 1st).
  listAgenda: { type: 'list', duration: { days: AGENDA_DAYS }, titleFormat: { year: 'numeric', month: 'short', day: 'numeric' } },
  timeGridThreeDay: { type: 'timeGrid', duration: { days: 3 }, titleFormat: { year: 'numeric', month: 'short', day: 'numeric' } },
} as const;
const NO_INPUTS: EventInput[] = [];
/** Working days for the shaded working hours (Monday to Friday). */
const WORK_DAYS = [1, 2, 3, 4, 5];

/** Whether the calendar's clock changes offset between an event's start and end (a DST night). */
function crossesOffsetChange(e: Event): boolean {
  return offsetMinutes(utcMs(e.utc_start_date)) !== offsetMinutes(utcMs(e.utc_end_date));
}
const minutesToDuration = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

declare global {
  interface Window {
    /** Render timings for the performance check of the e2e run. */
    __almanacPerf?: { renders: Array<{ events: number; drawn: number; ms: number }> };
  }
}

/** The month on screen: six weeks from the week of its first day, as midnights on the calendar's clock. */
interface MonthRange {
  month: string;
  firstDay: number;
  start: Date;
  end: Date;
  title: string;
}

function monthRange(month: string, firstDow: number, locale: string): MonthRange {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7)) - 1;
  // Days are counted in UTC (a date has no zone); only the bounds become instants, in the calendar's zone.
  const back = (new Date(Date.UTC(y, m, 1)).getUTCDay() - firstDow + 7) % 7;
  const firstDay = Math.floor(Date.UTC(y, m, 1 - back) / 86_400_000);
  const first = new Date(firstDay * 86_400_000).toISOString().slice(0, 10);
  return {
    month,
    firstDay,
    start: midnightOf(first),
    end: midnightOf(first, 42),
    title: formatDay(`${month}-15`, locale, 'month'),
  };
}

/** Rows of timed events a month cell has room for, from the calendar's height (six weeks). */
function useMonthCellCapacity(ref: React.RefObject<HTMLDivElement | null>): number {
  const [rows, setRows] = useState(4);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      // The host's 10px padding, the 40px weekday row and the borders, then the day number.
      const cell = (el.clientHeight - 10 - 42) / 6;
      // A short window (a phone with the reminders opened) may leave room for one row: "+N more" then.
      setRows(Math.max(1, Math.min(12, Math.floor((cell - DAY_TOP_PX - 2) / ENTRY_PX))));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return rows;
}

export function CalendarView() {
  const { t } = useTranslation();
  const ref = useRef<CalendarRef>(null);
  const view = useCalendar((s) => s.view);
  const date = useCalendar((s) => s.date);
  const compact = useCalendar((s) => s.compact);
  const events = useEvents((s) => s.events);
  const receivedAt = useEvents((s) => s.receivedAt);
  const uiLanguage = useSettings((s) => s.uiLanguage);
  const scheme = useColorScheme();

  const settings = useCalendarSettings((s) => s.settings);
  // The Settings zone (else the computer's): FullCalendar v7 draws named zones itself (Temporal).
  const zone = useViewerZone();
  // Week and day views open at the start of the working day (Settings), a quarter hour above it
  // so that hour's label is not cut in half by the top edge.
  const scrollTime = useMemo(() => {
    const [h, m] = settings.work_start.split(':').map(Number);
    return minutesToDuration(Math.max(0, h * 60 + m - 15));
  }, [settings.work_start]);
  // FullCalendar scrolls to the time when a view opens and on every new date range; the time grid
  // keeps its time of day while its slots change height (holdScrollTime.ts), and new working
  // hours scroll it again (FullCalendar applies a new scrollTime only to the next date range).
  const scrollTimeRef = useRef(scrollTime);
  const held = useRef<ReturnType<typeof holdScrollTime> | null>(null);
  useEffect(() => {
    if (scrollTimeRef.current === scrollTime) return;
    scrollTimeRef.current = scrollTime;
    ref.current?.getApi().scrollToTime(scrollTime);
    held.current?.reset();
  }, [scrollTime]);
  const onViewDidMount = useCallback((info: MountInfo<ViewDisplayInfo>) => {
    held.current?.stop();
    held.current = holdScrollTime(info.el, {
      toScrollTime: () => ref.current?.getApi().scrollToTime(scrollTimeRef.current),
      toTime: (ms) => ref.current?.getApi().scrollToTime({ milliseconds: ms }),
    });
  }, []);
  const onViewWillUnmount = useCallback(() => {
    held.current?.stop();
    held.current = null;
  }, []);
  const businessHours = useMemo(() => ({ daysOfWeek: WORK_DAYS, startTime: settings.work_start, endTime: settings.work_end }), [settings.work_start, settings.work_end]);
  // "8:00 – 12:00" must not leave a 12-hour reader guessing: am/pm unless the clock is 24-hour.
  const hour12 = hour12Of(settings.time_format);
  const eventTimeFormat = useMemo(() => ({ hour: 'numeric', minute: '2-digit', meridiem: 'short', ...(hour12 === undefined ? {} : { hour12 }) }) as const, [hour12]);
  const slotHeaderFormat = useMemo(() => ({ hour: 'numeric', minute: '2-digit', omitZeroMinute: true, meridiem: 'short', ...(hour12 === undefined ? {} : { hour12 }) }) as const, [hour12]);
  const defaultDuration = minutesToDuration(settings.default_event_minutes);
  const labels = useMemo(() => ({ featured: t('event.featured'), sticky: t('event.sticky'), repeats: t('repeat.mark'), reminds: t('notify.mark') }), [t]);
  const hostRef = useRef<HTMLDivElement>(null);
  const perDay = useMonthCellCapacity(hostRef);
  // "+N more" texts by count: a month asks for the same few dozen of them on every load.
  const moreText = useMemo(() => {
    const texts = new Map<number, string>();
    return (count: number) => {
      let text = texts.get(count);
      if (text === undefined) texts.set(count, (text = t('calendar.more', { count })));
      return text;
    };
  }, [t]);
  const locale = useLocale();
  const printing = usePrinting();
  const month = view === 'month' ? date.slice(0, 7) : null;
  const firstDow = useFirstDay();
  const range = useMemo(() => (month ? monthRange(month, firstDow, locale) : null), [month, firstDow, locale, zone]); // eslint-disable-line react-hooks/exhaustive-deps
  // Laid out again when the zone changes: an event may fall on another day.
  const weeks = useMemo<MonthWeek[] | null>(() => (range ? layoutMonth(events, range.firstDay, perDay) : null), [range, events, perDay, zone]); // eslint-disable-line react-hooks/exhaustive-deps
  // Categories reloaded (a colour chosen): the events are drawn again in their new colours.
  const categories = useLookups((s) => s.categories);
  // Calendars' colours draw events too: a recoloured calendar draws them again.
  const calendars = useCalendars((s) => s.calendars);
  const colours = useMemo(() => [categories, calendars], [categories, calendars]);
  const inputs = useMemo(() => (view === 'month' ? NO_INPUTS : events.map(toEventInput)), [events, view, colours]); // eslint-disable-line react-hooks/exhaustive-deps

  // The month grid reports its range itself (FullCalendar does through `datesSet`).
  useEffect(() => {
    if (range) useCalendar.getState().setVisible({ start: range.start, end: range.end }, range.title);
  }, [range]);

  // The store leads: follow its view and date.
  useEffect(() => {
    const api = ref.current?.getApi();
    if (!api) return;
    const type = fcViewOf(view, compact);
    if (api.view.type !== type) api.changeView(type, date);
    else api.gotoDate(date);
  }, [view, date, compact]);

  // How long from the data arriving to a painted, idle calendar (`npm run bench:ui`, the e2e run).
  // Only a render of other events or in another view counts: moving to the next month lays out
  // the old events on the new grid first, which is not a render of what arrived.
  const measured = useRef<{ events: Event[]; view: string } | null>(null);
  useEffect(() => {
    if (!receivedAt) return;
    if (measured.current?.events === events && measured.current.view === view) return;
    measured.current = { events, view };
    const count = events.length;
    const drawn = weeks ? weeks.reduce((n, w) => n + w.bars.length + w.days.reduce((m, d) => m + d.lines.length + (d.more ? 1 : 0), 0), 0) : inputs.length;
    requestAnimationFrame(() =>
      setTimeout(() => {
        performance.mark?.('almanac:events-drawn');
        const perf = (window.__almanacPerf ??= { renders: [] });
        perf.renders.push({ events: count, drawn, ms: performance.now() - receivedAt });
      }, 0),
    );
  }, [inputs, weeks, events, view, receivedAt]);

  const onDatesSet = useCallback((info: DatesSetInfo) => {
    const cal = useCalendar.getState();
    // A report from a view we have since left (keys pressed in quick succession) is stale.
    if (info.view.type !== fcViewOf(cal.view, cal.compact)) return;
    held.current?.reset();
    cal.setVisible({ start: info.start, end: info.end }, info.view.title);
  }, []);

  /** A day's number was clicked: open that day, through the store like every other move. */
  const onNavLinkDay = useCallback((date: Date) => {
    useCalendar.getState().openDay(dayOf(date));
  }, []);

  const onSelect = useCallback((info: DateSelectInfo) => {
    info.view.calendar.unselect();
    const tz = viewerZone();
    if (info.allDay) {
      const first = info.startStr.slice(0, 10);
      const last = addDaysIso(info.endStr.slice(0, 10), -1);
      useUi.getState().openQuickCreate({
        start_date: `${first} 00:00:00`,
        end_date: `${last < first ? first : last} 23:59:59`,
        all_day: true,
        timezone: tz,
      });
    } else {
      // A click selects one slot: the new event then gets the default length, as in Google
      // Calendar; a drag over several slots keeps what was dragged.
      const slotMs = 30 * 60_000;
      const end = info.end.getTime() - info.start.getTime() <= slotMs ? new Date(info.start.getTime() + defaultEventMinutes() * 60_000) : info.end;
      useUi.getState().openQuickCreate({
        start_date: wallTime(info.start, tz),
        end_date: wallTime(end, tz),
        all_day: false,
        timezone: tz,
      });
    }
  }, []);

  const onEventClick = useCallback((info: EventClickInfo) => {
    info.jsEvent.preventDefault();
    const e = eventById(info.event.id);
    if (!e) return;
    useUi.getState().openDetails(e, info.el);
  }, []);

  /** A double-click on an event skips its card and opens the full editor (month grid and FullCalendar views alike). */
  const onDoubleClick = useCallback((ev: React.MouseEvent) => {
    const el = (ev.target as HTMLElement).closest<HTMLElement>('[data-event-id]');
    const e = eventById(el?.dataset.eventId);
    if (!e) return;
    // A subscription's event has no editor: its card says where it comes from.
    if (readOnlySource(e) !== undefined) useUi.getState().openDetails(e, el!);
    else useUi.getState().openEditor({ kind: 'edit', event: e });
  }, []);

  const onChange = useCallback((info: EventDropInfo | EventResizeDoneInfo) => {
    const e = eventById(info.event.id);
    if (!e || !info.event.start) return info.revert();
    void moveEvent(
      e,
      {
        start: info.event.start,
        end: info.event.end,
        allDay: info.event.allDay,
        startDay: info.event.startStr.slice(0, 10),
        endDay: info.event.endStr ? info.event.endStr.slice(0, 10) : null,
      },
      info.revert,
    );
  }, []);

  const eventContent = useCallback(
    (arg: EventDisplayInfo) => {
      const record = arg.event.extendedProps.record as Event | undefined;
      // In the time grid the title may wrap under the time.
      const timed = arg.view.type.startsWith('timeGrid') && !arg.event.allDay;
      const column = timed && !arg.isShort;
      // A part of an event cut at midnight says the event's real times, not the part's
      // ("23:00 – 01:30", never "23:00 – 00:00"); so does an event the clocks change under.
      const cut = timed && record && (!arg.isStart || !arg.isEnd || crossesOffsetChange(record));
      const time = cut ? timeRangeText(record.utc_start_date, record.utc_end_date, locale) : arg.timeText;
      // A short event has one line: its title first, so a narrow column still says what it is.
      const titleFirst = arg.isShort && arg.view.type.startsWith('timeGrid');
      const line = (
        <span className="ev-line">
          <span className="ev-title">{arg.event.title}</span>
          <Badges event={record} labels={labels} />
        </span>
      );
      return (
        <span className={`ev ${column ? 'ev-column' : ''}${titleFirst ? ' ev-short' : ''}`} data-event-id={arg.event.id}>
          {titleFirst && line}
          {time && <span className="ev-time">{time}</span>}
          {!titleFirst && line}
        </span>
      );
    },
    [labels, locale],
  );

  if (weeks && range) {
    return (
      <div className="calendar-host" ref={hostRef} onDoubleClick={onDoubleClick}>
        <MonthGrid weeks={weeks} month={range.month} today={todayIso()} zone={zone} locale={locale} title={range.title} labels={labels} moreText={moreText} colours={colours} />
      </div>
    );
  }

  return (
    <div className="calendar-host" ref={hostRef} onDoubleClick={onDoubleClick}>
      <FullCalendar
        ref={ref}
        plugins={PLUGINS}
        locales={LOCALES}
        locale={uiLanguage}
        // The computer's zone is this page's own: "local" lets the calendar use native dates.
        timeZone={zone === systemZone() ? 'local' : intlZone(zone)}
        initialView={fcViewOf(view, compact)}
        initialDate={date}
        headerToolbar={false}
        height={printing ? 'auto' : '100%'}
        colorScheme={scheme}
        editable
        selectable
        selectMirror
        nowIndicator
        scrollTime={scrollTime}
        businessHours={businessHours}
        firstDay={firstDow}
        defaultTimedEventDuration={defaultDuration}
        slotHeaderFormat={slotHeaderFormat}
        navLinks
        navLinkDayClick={onNavLinkDay}
        dayMaxEvents
        eventOrder="-sticky,start,-duration,title"
        eventTimeFormat={eventTimeFormat}
        views={VIEW_OPTIONS}
        noEventsText={t('calendar.no_events')}
        events={inputs}
        datesSet={onDatesSet}
        viewDidMount={onViewDidMount}
        viewWillUnmount={onViewWillUnmount}
        select={onSelect}
        eventClick={onEventClick}
        eventDrop={onChange}
        eventResize={onChange}
        eventContent={eventContent}
      />
    </div>
  );
}
