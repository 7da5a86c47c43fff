/** Starting points for new events. */
import { DateTime } from 'luxon';
import { API_FORMAT, todayIso, viewerZone } from '../lib/dates';
import { useCalendar } from './calendar';
import { defaultEventMinutes } from './calendarSettings';
import type { EventDraft } from './ui';

/** An event of the default length (Settings) on the day in view: the next full hour if that day is today, else 09:00. */
export function newEventDraft(now: DateTime = DateTime.local()): EventDraft {
  const zone = viewerZone();
  const day = useCalendar.getState().date;
  let start = day === todayIso() ? now.setZone(zone).startOf('hour').plus({ hours: 1 }) : DateTime.fromISO(`${day}T09:00`, { zone });
  if (!start.isValid) start = now.setZone(zone).startOf('hour').plus({ hours: 1 });
  return {
    start_date: start.toFormat(API_FORMAT),
    end_date: start.plus({ minutes: defaultEventMinutes() }).toFormat(API_FORMAT),
    all_day: false,
    timezone: zone,
  };
}
