/**
 * The sync state under a CalDAV account or a website: its last sync in words (or "Syncing…"), the
 * changes waiting, its errors (not while a round goes, which may mend them) and "Sync now", held
 * while its round goes.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../state/settings';
import { localeTag } from '../i18n';
import { timeAgo } from '../lib/format';
import { useBusyAction } from './useBusyAction';

interface SyncStatusLinesProps {
  /** The group's name for a screen reader. */
  label: string;
  /** The account's or site's name, in the button's name. */
  name: string;
  /** A round the server is running. */
  syncing: boolean;
  lastSync: string | null | undefined;
  pending: number;
  /** Lines between the changes waiting and the errors (a site's conflicts and refused records). */
  notes?: ReactNode;
  errors: Array<string | null | undefined | false>;
  /** Between the errors and "Sync now" (an account's held deletions). */
  children?: ReactNode;
  /** "Sync now": resolves once the round is over. */
  sync(): Promise<void>;
}

export function SyncStatusLines({ label, name, syncing: running, lastSync, pending, notes, errors, children, sync }: SyncStatusLinesProps) {
  const { t } = useTranslation();
  const locale = localeTag(useSettings((s) => s.uiLanguage));
  const [busy, run] = useBusyAction();
  const syncing = busy || running;
  return (
    <div className="account-status" role="group" aria-label={label}>
      <p className="account-line">{syncing ? t('calendars.syncing') : lastSync ? t('calendars.last_sync', { when: timeAgo(lastSync, locale) }) : t('calendars.never_synced')}</p>
      {pending > 0 && <p className="account-line">{t('calendars.pending', { count: pending })}</p>}
      {notes}
      {!syncing &&
        errors.map(
          (error, i) =>
            error && (
              <p key={i} className="account-line account-error">
                {error}
              </p>
            ),
        )}
      {children}
      <button type="button" className="button button-small" disabled={syncing} aria-label={t('calendars.sync_now_named', { name })} onClick={() => void run(sync)}>
        {syncing ? t('calendars.syncing') : t('calendars.sync_now')}
      </button>
    </div>
  );
}
