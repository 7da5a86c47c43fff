/**
 * The small month in the sidebar, as Google Calendar and GNOME Calendar have it: a click on a
 * day goes there in the current view. It follows the calendar's date and pages through months
 * on its own. One day is in the Tab order; the arrow keys move between days (a grid's habit).
 * Its buttons' names avoid the toolbar's words (Month, Day, Next, Previous, Today): scripts and
 * tests find those buttons by name.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTime } from 'luxon';
import { Icon } from '../components/Icon';
import { localeTag } from '../i18n';
import { todayIso } from '../lib/dates';
import { useCalendar } from '../state/calendar';
import { useSettings } from '../state/settings';
import { useFirstDay, useViewerZone } from '../state/calendarSettings';
import { formatDay } from '../lib/format';
import './mini-month.css';


export function MiniMonth() {
  const { t } = useTranslation();
  const date = useCalendar((s) => s.date);
  const uiLanguage = useSettings((s) => s.uiLanguage);
  const locale = localeTag(uiLanguage);
  const [month, setMonth] = useState(date.slice(0, 7));
  const [focusDay, setFocusDay] = useState(date);
  const gridRef = useRef<HTMLDivElement>(null);
  const moveFocus = useRef(false);
  useEffect(() => {
    setMonth(date.slice(0, 7));
    setFocusDay(date);
  }, [date]);

  const first = DateTime.fromISO(`${month}-01`);
  // The week starts where the calendar's does (Settings, or the interface language's).
  const firstDow = useFirstDay();
  const start = first.minus({ days: ((first.weekday % 7) - firstDow + 7) % 7 });
  const days = useMemo(() => Array.from({ length: 42 }, (_, i) => start.plus({ days: i }).toISODate()!), [start.toISODate()]); // eslint-disable-line react-hooks/exhaustive-deps
  const weekdays = days.slice(0, 7).map((d) => DateTime.fromISO(d).setLocale(locale).toFormat('ccccc'));
  // Today on the calendar's clock; drawn again when the zone changes.
  useViewerZone();
  const today = todayIso();
  const tabbable = days.includes(focusDay) ? focusDay : `${month}-01`;

  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    gridRef.current?.querySelector<HTMLElement>(`[data-day="${focusDay}"]`)?.focus();
  }, [focusDay, month]);

  const step = (months: number) => {
    const next = first.plus({ months }).toISODate()!.slice(0, 7);
    setMonth(next);
    setFocusDay(`${next}-01`);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const by: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };
    const d = by[e.key];
    if (d === undefined) return;
    e.preventDefault();
    const next = DateTime.fromISO(focusDay).plus({ days: d }).toISODate()!;
    moveFocus.current = true;
    setFocusDay(next);
    if (next.slice(0, 7) !== month) setMonth(next.slice(0, 7));
  };

  const title = formatDay(`${month}-01`, locale, 'month');
  return (
    <section className="mini-month" aria-label={t('mini.label')}>
      <div className="mini-head">
        <span className="mini-title" aria-live="polite">
          {title}
        </span>
        <button type="button" className="icon-button" aria-label={t('mini.previous')} onClick={() => step(-1)}>
          <Icon name="left" size={16} />
        </button>
        <button type="button" className="icon-button" aria-label={t('mini.next')} onClick={() => step(1)}>
          <Icon name="right" size={16} />
        </button>
      </div>
      <div className="mini-grid" ref={gridRef} role="grid" aria-label={title} onKeyDown={onKeyDown}>
        <div role="row" className="mini-row">
          {weekdays.map((w, i) => (
            <span key={i} role="columnheader" className="mini-weekday">
              {w}
            </span>
          ))}
        </div>
        {Array.from({ length: 6 }, (_, w) => (
          <div role="row" className="mini-row" key={w}>
            {days.slice(w * 7, w * 7 + 7).map((d) => (
              <span role="gridcell" key={d}>
                <button
                  type="button"
                  data-day={d}
                  tabIndex={d === tabbable ? 0 : -1}
                  className={`mini-day ${d.startsWith(month) ? '' : 'mini-other'} ${d === today ? 'mini-today' : ''} ${d === date ? 'mini-selected' : ''}`}
                  // Without the weekday: "Wednesday" would make every day answer to the "Day" view button's name.
                  aria-label={formatDay(d, locale, 'full')}
                  aria-current={d === today ? 'date' : undefined}
                  aria-pressed={d === date}
                  onClick={() => {
                    setFocusDay(d);
                    useCalendar.getState().goto(d);
                  }}
                >
                  {Number(d.slice(8))}
                </button>
              </span>
            ))}
          </div>
        ))}
      </div>
    </section>
  );
}
