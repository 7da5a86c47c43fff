/**
 * The sidebar's Calendars section (issue 17): every calendar with its colour and a show/hide
 * checkbox (remembered on the server), each CalDAV account's last sync in words, changes waiting,
 * its last error and "Sync now"; conflict copies with "Keep mine" / "Keep server's"; "Add account…".
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountJson, CalendarJson } from '@shared/schema/accounts';
import { calendarLabel, useCalendars, type AccountSyncState } from '../state/calendars';
import { reloadEvents } from '../state/events';
import { useSyncPolling, useSyncStatus } from '../state/syncStatus';
import { useSettings } from '../state/settings';
import { toastError, toastInfo } from '../state/toasts';
import { localeTag } from '../i18n';
import { AddAccountDialog, CalendarDialog, NewCalendarDialog } from './AccountDialogs';
import { ConnectSite, Sites, isSiteCalendar } from './Sites';
import { siteOf, useSites } from '../state/sites';
import { ConfirmRemove } from './ConfirmRemove';
import { SyncStatusLines } from './SyncStatusLines';
import { timeAgo } from '../lib/format';
import { useBusyAction } from './useBusyAction';
import './calendars.css';

const swatchOf = (c: CalendarJson) => c.color ?? 'var(--accent)';

function CalendarRow({ calendar, onEdit }: { calendar: CalendarJson; onEdit(): void }) {
  const { t } = useTranslation();
  const setVisible = useCalendars((s) => s.setVisible);
  return (
    <li className="calendar-row">
      <label className="check">
        <input type="checkbox" checked={calendar.visible} onChange={(e) => setVisible(calendar.id, e.target.checked).catch((err: Error) => toastError(err.message))} />
        <span className="swatch" style={{ background: swatchOf(calendar) }} aria-hidden="true" />
        <span className="check-text">{calendarLabel(calendar, t)}</span>
      </label>
      {calendar.read_only && <span className="calendar-note">{t('calendars.read_only')}</span>}
      {calendar.account !== null && !calendar.synced && <span className="calendar-note">{t('calendars.not_synced')}</span>}
      <button type="button" className="icon-text-button" aria-label={t('calendars.edit_named', { name: calendarLabel(calendar, t) })} title={t('calendars.edit')} onClick={onEdit}>
        …
      </button>
    </li>
  );
}

function AccountStatus({ account, state }: { account: AccountJson; state: AccountSyncState | undefined }) {
  const { t } = useTranslation();
  const syncNow = useCalendars((s) => s.syncNow);
  return (
    <SyncStatusLines
      label={t('calendars.status_of', { name: account.name })}
      name={account.name}
      syncing={!!state?.syncing}
      lastSync={state?.last_sync ?? account.last_sync}
      pending={state?.pending ?? 0}
      errors={[state ? state.last_error : account.last_error]}
      sync={() => syncNow(account.name)}
    >
      {state?.calendars.filter((c) => c.held_deletes).map((c) => <HeldDeletes key={c.id} account={account.name} calendar={c} />)}
    </SyncStatusLines>
  );
}

/**
 * Deletions a sync held (the server stopped listing most of a calendar at once): nothing goes
 * until the user says which story is true.
 */
function HeldDeletes({ account, calendar }: { account: string; calendar: AccountSyncState['calendars'][number] }) {
  const { t } = useTranslation();
  const [busy, run] = useBusyAction();
  const held = calendar.held_deletes!;
  const decide = (allow: boolean) => () => run(() => useCalendars.getState().decideDeletions(calendar.id, account, allow));
  return (
    <div className="held-deletes" role="group" aria-label={t('calendars.held_of', { name: calendar.name })}>
      <p className="account-line account-error">{t('calendars.held', { name: calendar.name, count: held.count, total: held.total })}</p>
      <span className="conflict-actions">
        <button type="button" className="button button-small" disabled={busy} aria-label={t('calendars.held_allow_named', { name: calendar.name, count: held.count })} onClick={decide(true)}>
          {t('calendars.held_allow')}
        </button>
        <button type="button" className="button button-small" disabled={busy} aria-label={t('calendars.held_refuse_named', { name: calendar.name, count: held.count })} onClick={decide(false)}>
          {t('calendars.held_refuse')}
        </button>
      </span>
    </div>
  );
}

function Conflicts() {
  const { t } = useTranslation();
  const conflicts = useSyncStatus((s) => s.status.conflicts);
  const calendars = useCalendars((s) => s.calendars);
  const { restoreConflict, dismissConflict } = useCalendars.getState();
  const locale = localeTag(useSettings((s) => s.uiLanguage));
  if (conflicts.length === 0) return null;
  const act = (fn: () => Promise<void>) => () =>
    fn()
      .then(reloadEvents)
      .catch((err: Error) => toastError(err.message));
  return (
    <section className="sync-conflicts" aria-labelledby="conflicts-heading">
      <h3 id="conflicts-heading" className="account-name">
        {t('calendars.conflicts', { count: conflicts.length })}
      </h3>
      <p className="account-line">{t('calendars.conflicts_hint')}</p>
      <ul>
        {conflicts.map((c) => {
          // A website's copy is the site's, not a server's.
          const fromSite = siteOf(calendars.find((x) => x.id === c.calendar)) !== null;
          return (
            <li key={c.id} className="conflict-row">
              <span className="conflict-title">{c.title}</span>
              <span className="account-line">
                {calendars.find((x) => x.id === c.calendar)?.name ?? ''} · {timeAgo(c.kept, locale)}
              </span>
              <span className="conflict-actions">
                <button type="button" className="button button-small" aria-label={t('calendars.keep_mine_named', { title: c.title })} onClick={act(() => restoreConflict(c.id))}>
                  {t('calendars.keep_mine')}
                </button>
                <button type="button" className="button button-small" aria-label={t(fromSite ? 'sites.keep_site_named' : 'calendars.keep_server_named', { title: c.title })} onClick={act(() => dismissConflict(c.id))}>
                  {t(fromSite ? 'sites.keep_site' : 'calendars.keep_server')}
                </button>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function Calendars() {
  const { t } = useTranslation();
  const { calendars, accounts, loaded } = useCalendars();
  const sync = useSyncStatus((s) => s.status);
  const sites = useSites((s) => s.sites);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<CalendarJson | null>(null);
  const [creating, setCreating] = useState(false);
  const [removing, setRemoving] = useState<AccountJson | null>(null);

  // The accounts' and the sites' sync state, one poll for both, while there is something to sync.
  useSyncPolling(accounts.length > 0 || sites.length > 0);

  if (!loaded) return null;
  // A site's calendar belongs to no account, but is listed under its site.
  const local = calendars.filter((c) => c.account_id === null && !isSiteCalendar(c, sites));
  return (
    <section className="calendars" aria-labelledby="calendars-heading">
      <h2 id="calendars-heading" className="sidebar-heading">
        {t('calendars.title')}
      </h2>
      <ul className="calendar-list">
        {local.map((c) => (
          <CalendarRow key={c.id} calendar={c} onEdit={() => setEditing(c)} />
        ))}
      </ul>
      {accounts.map((a) => (
        <section key={a.id} className="account" aria-labelledby={`account-${a.id}`}>
          <div className="account-head">
            <h3 id={`account-${a.id}`} className="account-name" title={`${a.username} · ${a.server_url}`}>
              {a.name}
            </h3>
            <button type="button" className="icon-text-button" aria-label={t('calendars.remove_named', { name: a.name })} title={t('calendars.remove')} onClick={() => setRemoving(a)}>
              ×
            </button>
          </div>
          <ul className="calendar-list">
            {calendars
              .filter((c) => c.account_id === a.id)
              .map((c) => (
                <CalendarRow key={c.id} calendar={c} onEdit={() => setEditing(c)} />
              ))}
          </ul>
          <AccountStatus account={a} state={sync.accounts.find((s) => s.id === a.id)} />
        </section>
      ))}
      <Sites calendars={calendars} row={(c) => <CalendarRow key={c.id} calendar={c} onEdit={() => setEditing(c)} />} />
      <Conflicts />
      <button type="button" className="nav-item import-button" onClick={() => setCreating(true)}>
        {t('calendars.new')}
      </button>
      <button type="button" className="nav-item import-button" onClick={() => setAdding(true)}>
        {t('calendars.add_account')}
      </button>
      <ConnectSite />
      {creating && <NewCalendarDialog onClose={() => setCreating(false)} />}
      {adding && (
        <AddAccountDialog
          onClose={() => setAdding(false)}
          onAdded={(account) => {
            setAdding(false);
            toastInfo(t('calendars.added', { name: account.name, count: account.calendars.length }));
            // Its events come with the first round: start it now rather than in 15 minutes.
            void useCalendars
              .getState()
              .syncNow(account.name)
              .then(reloadEvents)
              .catch((err: Error) => toastError(err.message));
          }}
        />
      )}
      {editing && <CalendarDialog calendar={editing} onClose={() => setEditing(null)} />}
      {removing && (
        <ConfirmRemove
          title={t('calendars.remove_title', { name: removing.name })}
          text={t('calendars.remove_text', { name: removing.name })}
          confirmLabel={t('calendars.remove')}
          removed={t('calendars.removed', { name: removing.name })}
          remove={() => useCalendars.getState().removeAccount(removing.id)}
          onClose={() => setRemoving(null)}
        />
      )}
    </section>
  );
}
