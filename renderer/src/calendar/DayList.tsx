/** Every event of one day, for the "+N more" entry of a crowded month cell. */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDay, formatInstant } from '../lib/format';
import { Dialog } from '../components/Dialog';
import { useLocale } from '../state/calendarSettings';
import { useEvents } from '../state/events';
import { useSettings } from '../state/settings';
import { useUi } from '../state/ui';
import { eventsOnDay } from './monthCollapse';
import { colourFor, decodeEntities, useEventColours } from './toEventInput';
import { EventMarks } from './EventMarks';

export function DayList({ day }: { day: string }) {
  const { t } = useTranslation();
  const events = useEvents((s) => s.events);
  useEventColours();
  const close = useUi((s) => s.closeDayList);
  const list = useMemo(() => eventsOnDay(events, day), [events, day]);
  const locale = useLocale();
  const title = formatDay(day, locale);
  const time = (utc: string) => formatInstant(utc, locale);
  return (
    <Dialog title={title} onRequestClose={close} closeLabel={t('action.close')} className="daylist-dialog">
      <ul className="daylist" aria-label={t('calendar.day_events', { count: list.length })}>
        {list.map((e, i) => (
          <li key={e.id}>
            <button
              type="button"
              className="daylist-item"
              data-event-id={e.id}
              {...(i === 0 ? { 'data-autofocus': true } : {})}
              onClick={(ev) => {
                useUi.getState().openDetails(e, ev.currentTarget);
              }}
            >
              <span className="ev-dot" style={{ background: colourFor(e) ?? 'var(--accent)' }} aria-hidden="true" />
              <span className="daylist-time">{e.all_day ? t('field.all_day') : time(e.utc_start_date)}</span>
              <span className="daylist-title">
                {decodeEntities(e.title)}
                {e.featured && (
                  <span className="ev-badge ev-badge-featured">
                    <span aria-hidden="true">★</span>
                    <span className="visually-hidden">{t('event.featured')}</span>
                  </span>
                )}
                <EventMarks event={e} />
              </span>
            </button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
