/**
 * The websites in the sidebar's Calendars section (issue 26 items 1 and 6): each site with its
 * calendar (name, colour, show/hide, as every calendar), when it last synced in words, the changes
 * waiting, its last error, its conflicts, "Sync now" and × to remove it (after asking); and
 * "Connect a website…".
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CalendarJson } from '@shared/schema/accounts';
import { useSites, siteOf, type SiteJson } from '../state/sites';
import { useEvents } from '../state/events';
import { useSettings } from '../state/settings';
import { toastError, toastInfo } from '../state/toasts';
import { localeTag } from '../i18n';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ConnectSiteDialog } from './SiteDialogs';
import { timeAgo } from './timeAgo';

/** How often the sites' state is asked for while there are sites (background rounds change it). */
const REFRESH_MS = 30_000;
/** After the events on screen changed: one look at what waits to be sent, once things settle. */
const AFTER_WRITE_MS = 400;

const reloadEvents = () => useEvents.getState().reload().catch(() => {});

/** Is this calendar a site's? Those are listed under their site, not with this computer's. */
export function isSiteCalendar(c: CalendarJson, sites: SiteJson[]): boolean {
  return siteOf(c) !== null || sites.some((s) => s.calendar_id === c.id);
}

function SiteStatus({ site }: { site: SiteJson }) {
  const { t } = useTranslation();
  const locale = localeTag(useSettings((s) => s.uiLanguage));
  const [busy, setBusy] = useState(false);
  const syncing = busy || site.state === 'syncing';
  return (
    <div className="account-status" role="group" aria-label={t('sites.status_of', { name: site.name })}>
      <p className="account-line">{syncing ? t('calendars.syncing') : site.last_sync ? t('calendars.last_sync', { when: timeAgo(site.last_sync, locale) }) : t('calendars.never_synced')}</p>
      {site.pending > 0 && <p className="account-line">{t('calendars.pending', { count: site.pending })}</p>}
      {site.conflicts > 0 && <p className="account-line">{t('calendars.conflicts', { count: site.conflicts })}</p>}
      {!syncing && site.state === 'password' && <p className="account-line account-error">{t('sites.password_refused')}</p>}
      {!syncing && site.last_error && <p className="account-line account-error">{site.last_error}</p>}
      <button
        type="button"
        className="button button-small"
        disabled={syncing}
        aria-label={t('calendars.sync_now_named', { name: site.name })}
        onClick={async () => {
          setBusy(true);
          try {
            await useSites.getState().syncNow(site.name);
            await reloadEvents();
          } catch (err) {
            toastError((err as Error).message);
          } finally {
            setBusy(false);
          }
        }}
      >
        {syncing ? t('calendars.syncing') : t('calendars.sync_now')}
      </button>
    </div>
  );
}

/** The sites, each with its calendar; `row` draws a calendar as the section draws every calendar. */
export function Sites({ calendars, row }: { calendars: CalendarJson[]; row(c: CalendarJson): ReactNode }) {
  const { t } = useTranslation();
  const { sites, available } = useSites();
  const [removing, setRemoving] = useState<SiteJson | null>(null);

  const hasSites = sites.length > 0;
  useEffect(() => {
    if (!hasSites) return;
    const timer = setInterval(() => void useSites.getState().load().catch(() => {}), REFRESH_MS);
    return () => clearInterval(timer);
  }, [hasSites]);

  // A change saved here is a change waiting to be sent: say so soon after, not at the next poll.
  const events = useEvents((s) => s.events);
  useEffect(() => {
    if (!hasSites) return;
    const timer = setTimeout(() => void useSites.getState().load().catch(() => {}), AFTER_WRITE_MS);
    return () => clearTimeout(timer);
  }, [events, hasSites]);

  if (!available) return null;
  return (
    <>
      {sites.map((s) => (
        <section key={s.id} className="account site" aria-labelledby={`site-${s.id}`}>
          <div className="account-head">
            <h3 id={`site-${s.id}`} className="account-name" title={`${s.user} · ${s.url}`}>
              {s.name}
            </h3>
            <button type="button" className="icon-text-button" aria-label={t('sites.remove_named', { name: s.name })} title={t('sites.remove')} onClick={() => setRemoving(s)}>
              ×
            </button>
          </div>
          <ul className="calendar-list">{calendars.filter((c) => siteOf(c)?.id === s.id || c.id === s.calendar_id).map(row)}</ul>
          <SiteStatus site={s} />
        </section>
      ))}
      {removing && (
        <ConfirmDialog
          title={t('sites.remove_title', { name: removing.name })}
          text={t('sites.remove_text', { name: removing.name })}
          confirmLabel={t('sites.remove')}
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            const site = removing;
            setRemoving(null);
            useSites
              .getState()
              .remove(site.id)
              .then(() => {
                toastInfo(t('sites.removed', { name: site.name }));
                return reloadEvents();
              })
              .catch((err: Error) => toastError(err.message));
          }}
        />
      )}
    </>
  );
}

/** "Connect a website…", where the server has sites to offer. */
export function ConnectSite() {
  const { t } = useTranslation();
  const available = useSites((s) => s.available);
  const [connecting, setConnecting] = useState(false);
  if (!available) return null;
  return (
    <>
      <button type="button" className="nav-item import-button" onClick={() => setConnecting(true)}>
        {t('sites.connect')}
      </button>
      {connecting && (
        <ConnectSiteDialog
          onClose={() => setConnecting(false)}
          onConnected={(site) => {
            setConnecting(false);
            toastInfo(t('sites.connected', { name: site.name }));
            // The first pull may still be going on: its events are drawn once it is over.
            void reloadEvents()
              .then(() => useSites.getState().settle(site.id))
              .then(reloadEvents)
              .catch((err: Error) => toastError(err.message));
          }}
        />
      )}
    </>
  );
}
