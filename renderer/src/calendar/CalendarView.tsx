/**
 * The calendar itself: FullCalendar v7 following the calendar store (view + date) and drawing the
 * events store. Clicking or dragging on empty time opens quick create; dragging or resizing an
 * event sends a PATCH and is put back if the server refuses.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import FullCalendar, {
  type CalendarRef,
  type DateSelectInfo,
  type DatesSetInfo,
  type EventClickInfo,
  type EventDisplayInfo,
  type EventDropInfo,
  type EventResizeDoneInfo,
} from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/react/daygrid';
import timeGridPlugin from '@fullcalendar/react/timegrid';
import listPlugin from '@fullcalendar/react/list';
import interactionPlugin from '@fullcalendar/react/interaction';
import breezyTheme from '@fullcalendar/react/themes/breezy';
import esLocale from '@fullcalendar/react/locales/es';
import ptBrLocale from '@fullcalendar/react/locales/pt-br';
import '@fullcalendar/react/skeleton.css';
import '@fullcalendar/react/themes/breezy/theme.css';
import '@fullcalendar/react/themes/breezy/palettes/indigo.css';
import type { Event } from '@shared/api/records';
import { addDaysIso, todayIso, viewerZone, wallTime } from '../lib/dates';
import { FC_VIEWS, useCalendar } from '../state/calendar';
import { moveEvent } from '../state/eventActions';
import { useEvents } from '../state/events';
import { useSettings } from '../state/settings';
import { useUi } from '../state/ui';
import { useColorScheme } from '../lib/useColorScheme';
import { toEventInput } from './toEventInput';
import { collapseMonth, MORE_PREFIX, utcMs, type MoreInfo } from './monthCollapse';
import { localeTag } from '../i18n';
import { Icon } from '../components/Icon';

const PLUGINS = [dayGridPlugin, timeGridPlugin, listPlugin, interactionPlugin, breezyTheme];
const LOCALES = [esLocale, ptBrLocale];
/** A week's title names its days ("Mar 9 – 15, 2031"), not just the month. */
const VIEW_OPTIONS = {
  timeGridWeek: { titleFormat: { year: 'numeric', month: 'short', day: 'numeric' } },
  dayGridMonth: { displayEventTime: false },
} as const;

const timeFormats = new Map<string, Intl.DateTimeFormat>();
/** Texts by locale and local minute of the day: a crowded month repeats the same few start times. */
const timeTexts = new Map<string, string[]>();
/** "9a", "12:30p" (en) or "9:00", "14:30" (24-hour locales), as month cells show start times. */
export function shortTime(ms: number, locale: string): string {
  const local = new Date(ms);
  const minute = local.getHours() * 60 + local.getMinutes();
  let texts = timeTexts.get(locale);
  if (!texts) timeTexts.set(locale, (texts = []));
  return (texts[minute] ??= formatShortTime(ms, locale));
}

function formatShortTime(ms: number, locale: string): string {
  let f = timeFormats.get(locale);
  if (!f) timeFormats.set(locale, (f = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' })));
  const text = f.format(ms);
  const m = /^(\d{1,2}):(\d{2})\s*([AP])\.?\s*M\.?$/i.exec(text);
  if (m) return `${m[1]}${m[2] === '00' ? '' : `:${m[2]}`}${m[3].toLowerCase()}`;
  return text;
}

/** A month one-liner as drawn, with what it was drawn from (see `eventContent`). */
interface DrawnLine {
  id: string;
  title: string;
  node: React.ReactElement;
}

declare global {
  interface Window {
    /** Render timings for the performance check of the e2e run. */
    __almanacPerf?: { renders: Array<{ events: number; drawn: number; ms: number }> };
  }
}

function recordOf(id: string): Event | undefined {
  const n = Number(id);
  return useEvents.getState().events.find((e) => e.id === n);
}

/** Rows of timed events a month cell has room for, from the calendar's height (six weeks). */
function useMonthCellCapacity(ref: React.RefObject<HTMLDivElement | null>): number {
  const [rows, setRows] = useState(4);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const cell = (el.clientHeight - 48) / 6;
      setRows(Math.max(2, Math.min(12, Math.floor((cell - 34) / 22))));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return rows;
}

function toDay(d: Date): string {
  return wallTime(d, viewerZone()).slice(0, 10);
}

export function CalendarView() {
  const { t } = useTranslation();
  const ref = useRef<CalendarRef>(null);
  const view = useCalendar((s) => s.view);
  const date = useCalendar((s) => s.date);
  const events = useEvents((s) => s.events);
  const receivedAt = useEvents((s) => s.receivedAt);
  const uiLanguage = useSettings((s) => s.uiLanguage);
  const scheme = useColorScheme();

  // Week and day views open an hour before now when showing today, else at the start of the
  // working day.
  const scrollTime = useMemo(
    () => (date === todayIso() ? `${String(Math.max(0, new Date().getHours() - 1)).padStart(2, '0')}:00:00` : '07:00:00'),
    [date],
  );
  const labels = useMemo(() => ({ featured: t('event.featured'), sticky: t('event.sticky') }), [t]);
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
  const inputs = useMemo(
    () => (view === 'month' ? collapseMonth(events, perDay, toEventInput, moreText) : events.map(toEventInput)),
    [events, view, perDay, moreText],
  );

  // The store leads: follow its view and date.
  useEffect(() => {
    const api = ref.current?.getApi();
    if (!api) return;
    const type = FC_VIEWS[view];
    if (api.view.type !== type) api.changeView(type, date);
    else api.gotoDate(date);
  }, [view, date]);

  // How long from the data arriving to a painted, idle calendar (checked by the e2e run).
  useEffect(() => {
    if (!receivedAt) return;
    const count = events.length;
    const drawn = inputs.length;
    requestAnimationFrame(() =>
      setTimeout(() => {
        performance.mark?.('almanac:events-drawn');
        const perf = (window.__almanacPerf ??= { renders: [] });
        perf.renders.push({ events: count, drawn, ms: performance.now() - receivedAt });
      }, 0),
    );
  }, [inputs, events, receivedAt]);

  const onDatesSet = useCallback((info: DatesSetInfo) => {
    const cal = useCalendar.getState();
    // A report from a view we have since left (keys pressed in quick succession) is stale.
    if (info.view.type !== FC_VIEWS[cal.view]) return;
    cal.setVisible({ start: info.start, end: info.end }, info.view.title);
  }, []);

  /** A day's number was clicked: open that day, through the store like every other move. */
  const onNavLinkDay = useCallback((date: Date) => {
    const cal = useCalendar.getState();
    cal.goto(toDay(date));
    cal.setView('day');
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
      useUi.getState().openQuickCreate({
        start_date: wallTime(info.start, tz),
        end_date: wallTime(info.end, tz),
        all_day: false,
        timezone: tz,
      });
    }
  }, []);

  const onEventClick = useCallback((info: EventClickInfo) => {
    info.jsEvent.preventDefault();
    const more = info.event.extendedProps.more as MoreInfo | undefined;
    if (more) return useUi.getState().openDayList(more.day);
    const e = recordOf(info.event.id);
    if (!e) return;
    useUi.getState().select(e.id);
    useUi.getState().openEditor({ kind: 'edit', event: e });
  }, []);

  const onChange = useCallback((info: EventDropInfo | EventResizeDoneInfo) => {
    const e = recordOf(info.event.id);
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

  const locale = localeTag(uiLanguage);
  const eventContent = useMemo(() => {
    // The month's one-liners and "+N more" entries, kept once drawn: the calendar draws each event
    // twice (once to measure it, once in place) and again on every update, and handing it back the
    // very same element lets React skip it. They depend only on the record, `labels` and `locale`.
    const lines = new WeakMap<Event, DrawnLine>();
    const more = new Map<string, React.ReactElement>();
    return (arg: EventDisplayInfo) => {
      if (arg.event.id.startsWith(MORE_PREFIX)) {
        const title = arg.event.title;
        let node = more.get(title);
        if (!node) more.set(title, (node = <span className="ev ev-more-link">{title}</span>));
        return node;
      }
      const record = arg.event.extendedProps.record as Event | undefined;
      const type = arg.view.type;
      // Timed events in the month grid are one-liners with a colour dot and a short start time
      // (written here: the calendar's own time formatting is the costly part of a crowded month);
      // in the time grid the title may wrap under the time.
      const dot = type === 'dayGridMonth' && !arg.event.allDay;
      const line = dot && record ? lines.get(record) : undefined;
      if (line && line.id === arg.event.id && line.title === arg.event.title) return line.node;
      const column = type.startsWith('timeGrid') && !arg.event.allDay && !arg.isShort;
      const time = dot && record ? shortTime(utcMs(record.utc_start_date), locale) : arg.timeText;
      const badges = (
        <>
          {record?.featured && (
            <span className="ev-badge ev-badge-featured" title={labels.featured}>
              ★<span className="visually-hidden"> {labels.featured}</span>
            </span>
          )}
          {record?.sticky && (
            <span className="ev-badge ev-badge-sticky" title={labels.sticky}>
              <Icon name="pushpin" size={12} />
              <span className="visually-hidden"> {labels.sticky}</span>
            </span>
          )}
        </>
      );
      if (dot) {
        // The month's one-liners are the bulk of a crowded month: kept to a few elements, with
        // nothing set per element that the stylesheet can do (the dot takes the event's colour
        // from the calendar's own --fc-event-color).
        const node = (
          <span className="ev" data-event-id={arg.event.id}>
            <span className="ev-time ev-dotted">{time}</span>
            <span className="ev-title">{arg.event.title}</span>
            {badges}
          </span>
        );
        if (record) lines.set(record, { id: arg.event.id, title: arg.event.title, node });
        return node;
      }
      return (
        <span className={`ev ${column ? 'ev-column' : ''}`} data-event-id={arg.event.id}>
          {time && <span className="ev-time">{time}</span>}
          <span className="ev-line">
            <span className="ev-title">{arg.event.title}</span>
            {badges}
          </span>
        </span>
      );
    };
  }, [labels, locale]);

  return (
    <div className="calendar-host" ref={hostRef}>
      <FullCalendar
        ref={ref}
        plugins={PLUGINS}
        locales={LOCALES}
        locale={uiLanguage}
        // The viewer's zone is this page's own zone; "local" lets the calendar use native dates.
        timeZone="local"
        initialView={FC_VIEWS[view]}
        initialDate={date}
        headerToolbar={false}
        height="100%"
        colorScheme={scheme}
        editable
        selectable
        selectMirror
        nowIndicator
        scrollTime={scrollTime}
        navLinks
        navLinkDayClick={onNavLinkDay}
        dayMaxEvents
        eventOrder="-sticky,start,-duration,title"
        views={VIEW_OPTIONS}
        noEventsText={t('calendar.no_events')}
        events={inputs}
        datesSet={onDatesSet}
        select={onSelect}
        eventClick={onEventClick}
        eventDrop={onChange}
        eventResize={onChange}
        eventContent={eventContent}
      />
    </div>
  );
}
