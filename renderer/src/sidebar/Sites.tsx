/**
 * The websites in the sidebar's Calendars section (issue 26 items 1 and 6): each site with its
 * calendar (name, colour, show/hide, as every calendar), when it last synced in words, the changes
 * waiting, its last error, its conflicts, the records the site refused (a count that opens their
 * list, each to try again or discard), "Sync now" and × to remove it (after asking); and
 * "Connect a website…".
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CalendarJson } from '@shared/schema/accounts';
import type { SiteRefusalJson } from '@shared/schema/sites';
import { useSites, siteOf, siteStatus, type SiteJson } from '../state/sites';
import { useSyncStatus } from '../state/syncStatus';
import { reloadEvents } from '../state/events';
import { useSettings } from '../state/settings';
import { toastError, toastInfo } from '../state/toasts';
import { localeTag } from '../i18n';
import { ConnectSiteDialog } from './SiteDialogs';
import { ConfirmRemove } from './ConfirmRemove';
import { SyncStatusLines } from './SyncStatusLines';
import { timeAgo } from '../lib/format';
import { useBusyAction } from './useBusyAction';

/** Is this calendar the site's? Listed under it (its `site`, or the calendar the site was given). */
const ofSite = (c: CalendarJson, site: SiteJson) => siteOf(c)?.id === site.id || c.id === site.calendar_id;

/** Is this calendar a site's? Those are listed under their site, not with this computer's. */
export function isSiteCalendar(c: CalendarJson, sites: SiteJson[]): boolean {
  return siteOf(c) !== null || sites.some((s) => ofSite(c, s));
}

function SiteStatus({ site }: { site: SiteJson }) {
  const { t } = useTranslation();
  const status = siteStatus(site, useSyncStatus((s) => s.status));
  const refused = status.refused ?? [];
  return (
    <SyncStatusLines
      label={t('sites.status_of', { name: site.name })}
      name={site.name}
      syncing={status.state === 'syncing'}
      lastSync={status.last_sync}
      pending={status.pending}
      notes={
        <>
          {status.conflicts > 0 && <p className="account-line">{t('calendars.conflicts', { count: status.conflicts })}</p>}
          {refused.length > 0 && <Refused site={site} refused={refused} />}
        </>
      }
      errors={[status.state === 'password' && t('sites.password_refused'), status.last_error]}
      sync={() => useSites.getState().syncNow(site.name)}
    />
  );
}

/**
 * The records a site refused: a count (the titles on hover) that opens the list, each with the
 * site's reason or ours, when, and what the user can do: try a refused change again or discard it
 * (the site's version comes back), or dismiss the notice of a record that could not be taken here.
 */
/** The records the site refused (as `GET /sync` gives them), with Try again and Discard. */
function Refused({ site, refused }: { site: SiteJson; refused: SiteRefusalJson[] }) {
  const { t } = useTranslation();
  const locale = localeTag(useSettings((s) => s.uiLanguage));
  const [open, setOpen] = useState(false);
  const [busy, act] = useBusyAction();
  const listId = `site-refused-${site.id}`;
  return (
    <div className="site-refused">
      <button
        type="button"
        className="link-button account-line account-error"
        aria-expanded={open}
        aria-controls={listId}
        title={[t('sites.refused_hint'), ...refused.map((r) => `• ${r.title}`)].join('\n')}
        onClick={() => setOpen(!open)}
      >
        {t('sites.refused', { count: refused.length })}
      </button>
      {open && (
        <ul id={listId} className="site-refused-list" aria-label={t('sites.refused_list', { name: site.name })}>
          {refused.map((r) => (
            <li key={r.id} className="site-refused-item">
              <strong>{r.title}</strong>
              <span className="account-line">{t(r.direction === 'push' ? 'sites.refused_push' : 'sites.refused_pull', { reason: r.reason })}</span>
              <span className="account-line">{timeAgo(r.at, locale)}</span>
              <span className="site-refused-actions">
                {r.direction === 'push' && (
                  <button type="button" className="button button-small" disabled={busy} aria-label={t('sites.retry_named', { title: r.title })} onClick={() => void act(() => useSites.getState().retryRefused(site.id, r.id))}>
                    {t('sites.retry')}
                  </button>
                )}
                <button
                  type="button"
                  className="button button-small button-danger-quiet"
                  disabled={busy}
                  aria-label={t(r.direction === 'push' ? 'sites.discard_named' : 'sites.dismiss_named', { title: r.title })}
                  onClick={() => void act(() => useSites.getState().discardRefused(site.id, r.id))}
                >
                  {t(r.direction === 'push' ? 'sites.discard' : 'sites.dismiss')}
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The sites, each with its calendar; `row` draws a calendar as the section draws every calendar. */
export function Sites({ calendars, row }: { calendars: CalendarJson[]; row(c: CalendarJson): ReactNode }) {
  const { t } = useTranslation();
  const { sites, available } = useSites();
  const [removing, setRemoving] = useState<SiteJson | null>(null);

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
          <ul className="calendar-list">{calendars.filter((c) => ofSite(c, s)).map(row)}</ul>
          <SiteStatus site={s} />
        </section>
      ))}
      {removing && (
        <ConfirmRemove
          title={t('sites.remove_title', { name: removing.name })}
          text={t('sites.remove_text', { name: removing.name })}
          confirmLabel={t('sites.remove')}
          removed={t('sites.removed', { name: removing.name })}
          remove={() => useSites.getState().remove(removing.id)}
          onClose={() => setRemoving(null)}
        />
      )}
    </>
  );
}

/** "Connect a website…", where the server has sites to offer. */
export function ConnectSite() {
  const { t } = useTranslation();
  const available = useSites((s) => s.available);
  const authorized = useSites((s) => s.authorized);
  const [connecting, setConnecting] = useState(false);
  // An approval from the site's page (desktop app) opens the dialog with what it sent.
  useEffect(() => {
    if (authorized) setConnecting(true);
  }, [authorized]);
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
