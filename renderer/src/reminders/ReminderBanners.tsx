/**
 * The in-page reminders (issue 16): one banner per reminder that came due, with Snooze (5 min,
 * 10 min, 1 hour, until the start) and Dismiss, and the "While Almanac was closed" summary. A
 * click on the title opens the event's details card. In a browser tab that has not decided yet,
 * "Turn on notifications" asks for the browser's permission (a request needs the user's press).
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DueJson, Snooze } from '@shared/api/due-reminders';
import { Icon } from '../components/Icon';
import { formatDay, formatInstant } from '../lib/format';
import { useLocale, useViewerZone } from '../state/calendarSettings';
import { decodeEntities } from '../calendar/toEventInput';
import { askPermission, dismiss, dismissSummary, listen, openEvent, setWhenText, snooze, useAlerts } from './alerts';
import './reminders.css';

/**
 * "Wed, Mar 12, 2031, 10:00 AM" on the calendar's clock, with the user's 12/24-hour clock (the
 * locale carries it); an all-day event's own date.
 */
export function dueWhen(r: DueJson, locale: string, allDayText: string): string {
  if (r.all_day) return `${formatDay(r.start_date, locale)} · ${allDayText}`;
  return formatInstant(r.utc_start_date, locale, 'dateTimeWeekday');
}

/** Connects to the server's reminders for as long as the window is open. */
export function useReminderStream(): void {
  const { t } = useTranslation();
  const locale = useLocale();
  const zone = useViewerZone();
  useEffect(() => {
    setWhenText((r) => dueWhen(r, locale, t('field.all_day')));
  }, [locale, zone, t]);
  useEffect(() => {
    const stop = new AbortController();
    void listen(stop.signal);
    return () => stop.abort();
  }, []);
}

const SNOOZE_LABELS: Array<[Snooze, string]> = [
  ['5m', 'alerts.snooze_5m'],
  ['10m', 'alerts.snooze_10m'],
  ['1h', 'alerts.snooze_1h'],
  ['start', 'alerts.snooze_start'],
];

export function ReminderBanners({ now = () => Date.now() }: { now?: () => number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  useViewerZone();
  const alerts = useAlerts((s) => s.alerts);
  const missed = useAlerts((s) => s.missed);
  const permission = useAlerts((s) => s.permission);
  const [open, setOpen] = useState(false);
  if (!alerts.length && !missed) return null;
  const when = (r: DueJson) => dueWhen(r, locale, t('field.all_day'));
  // The stack sits under the calendar in the page's flow, covering nothing; three or more things
  // to say (banners, the summary) fold into one line naming them, opened on demand, so the
  // calendar keeps its room on a phone.
  const count = alerts.length + (missed?.count ?? 0);
  const foldable = alerts.length + (missed ? 1 : 0) >= 3;
  const folded = foldable && !open;
  const titles = [...new Set([...alerts.map((r) => decodeEntities(r.title)), ...(missed?.reminders ?? []).map((r) => decodeEntities(r.title))])];

  return (
    <section className={`reminder-stack${folded ? ' reminder-stack-folded' : ''}`} aria-label={t('alerts.region')}>
      {foldable && (
        <div className="reminder-fold" role="alert" aria-label={t('alerts.count', { count })}>
          <Icon name="bell" size={16} />
          <strong className="reminder-fold-count">{t('alerts.count', { count })}</strong>
          <span className="reminder-fold-titles">{titles.join(', ')}</span>
          <button type="button" className="button button-small" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? t('alerts.hide') : t('alerts.show')}
          </button>
          <button
            type="button"
            className="button button-small button-quiet"
            onClick={() => {
              void dismiss(alerts.map((r) => r.key));
              if (missed) void dismissSummary();
            }}
          >
            {t('alerts.dismiss_all')}
          </button>
        </div>
      )}
      {!folded && (
        <div className="reminder-list">
      {permission === 'default' && (
        <div className="reminder-banner reminder-permission">
          <p className="reminder-when">{t('alerts.permission_hint')}</p>
          <button type="button" className="button button-small" onClick={() => void askPermission()}>
            {t('alerts.turn_on')}
          </button>
        </div>
      )}
      {missed && (
        <div className="reminder-banner reminder-missed" role="alert" aria-label={t('alerts.missed_title')}>
          <div className="reminder-head">
            <Icon name="bell" size={18} />
            <strong>{t('alerts.missed_title')}</strong>
          </div>
          <ul>
            {missed.reminders.slice(-5).map((r) => (
              <li key={r.key}>
                <button type="button" className="reminder-title" onClick={() => void openEvent(r.event_id)}>
                  {t('alerts.missed_item', { title: decodeEntities(r.title), when: when(r) })}
                </button>
              </li>
            ))}
          </ul>
          {missed.count > Math.min(5, missed.reminders.length) && <p className="reminder-when">{t('alerts.missed_more', { count: missed.count - Math.min(5, missed.reminders.length) })}</p>}
          <div className="reminder-actions">
            <button type="button" className="button button-small" onClick={() => void dismissSummary()}>
              {t('alerts.dismiss_all')}
            </button>
            <button type="button" className="button button-small button-quiet" onClick={() => useAlerts.getState().closeMissed()}>
              {t('action.close')}
            </button>
          </div>
        </div>
      )}
      {alerts.map((r) => {
        const title = decodeEntities(r.title);
        const startsLater = Date.parse(`${r.utc_start_date.replace(' ', 'T')}Z`) > now();
        return (
          <div key={r.key} className="reminder-banner" role="alert" aria-label={t('alerts.banner', { title })}>
            <div className="reminder-head">
              <Icon name="bell" size={18} />
              <button type="button" className="reminder-title" onClick={() => void openEvent(r.event_id)}>
                {title}
              </button>
              <span className="spacer" />
              <button type="button" className="button button-small button-primary" onClick={() => void dismiss([r.key])}>
                {t('alerts.dismiss')}
              </button>
            </div>
            <p className="reminder-when">{when(r)}</p>
            <div className="reminder-actions">
              <span className="reminder-snooze" role="group" aria-label={t('alerts.snooze')}>
                <span className="reminder-snooze-label" aria-hidden="true">
                  {t('alerts.snooze')}
                </span>
                {/* "Until start" of an event that started already would ring again at once. */}
                {SNOOZE_LABELS.filter(([how]) => how !== 'start' || startsLater).map(([how, key]) => (
                  <button key={how} type="button" className="button button-small" aria-label={t(`${key}_named`)} onClick={() => void snooze(r, how)}>
                    {t(key)}
                  </button>
                ))}
              </span>
            </div>
          </div>
        );
      })}
        </div>
      )}
    </section>
  );
}
