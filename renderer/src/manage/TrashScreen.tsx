/** What was deleted: restore it, or delete it for good. */
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Event, Organizer, Venue } from '@shared/api/records';
import type { PostKind } from '../api/client';
import { decodeEntities } from '../calendar/toEventInput';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useLocale } from '../state/calendarSettings';
import { formatDay, formatInstant } from '../lib/format';
import { useNewestOnly } from '../lib/newestOnly';
import { api } from '../state/api';
import { deleteEventForever, restoreEvent } from '../state/eventActions';
import { useLookups } from '../state/lookups';
import { useSettings } from '../state/settings';
import { toastError, toastInfo } from '../state/toasts';

type Trashed = Event | Venue | Organizer;

function nameOf(kind: PostKind, r: Trashed): string {
  const raw = kind === 'events' ? (r as Event).title : kind === 'venues' ? (r as Venue).venue : (r as Organizer).organizer;
  return decodeEntities(raw ?? `#${r.id}`);
}

export function TrashScreen() {
  const { t } = useTranslation();
  const language = useSettings((s) => s.contentLanguage);
  const uiLanguage = useSettings((s) => s.uiLanguage);
  const locale = useLocale();
  const [kind, setKind] = useState<PostKind>('events');
  const [items, setItems] = useState<Trashed[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Trashed | null>(null);
  const [confirmingAll, setConfirmingAll] = useState(false);

  const begin = useNewestOnly();
  const load = useCallback(async () => {
    const isNewest = begin();
    try {
      const trashed = await api().listTrash<Trashed>(kind);
      if (!isNewest()) return;
      setItems(trashed);
      setError(null);
    } catch (e) {
      if (!isNewest()) return;
      setError((e as Error).message);
      setItems([]);
    }
  }, [kind, language, begin]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    setItems(null);
    void load();
  }, [load]);

  async function restore(r: Trashed) {
    try {
      if (kind === 'events') await restoreEvent(r.id, { quiet: true });
      else {
        await api().restore(kind, r.id);
        void useLookups.getState().reload(kind).catch(() => {});
      }
      toastInfo(t('toast.restored', { title: nameOf(kind, r) }));
      setItems((cur) => cur?.filter((x) => x.id !== r.id) ?? null);
    } catch (e) {
      toastError((e as Error).message);
    }
  }

  async function purge(r: Trashed) {
    try {
      if (kind === 'events') await deleteEventForever(r.id);
      else await api().deleteForever(kind, r.id);
      toastInfo(t('toast.deleted', { title: nameOf(kind, r) }));
      setItems((cur) => cur?.filter((x) => x.id !== r.id) ?? null);
    } catch (e) {
      toastError((e as Error).message);
    }
  }

  async function emptyAll() {
    try {
      const { deleted } = await api().emptyTrash(kind);
      toastInfo(t('trash.emptied', { count: deleted }));
    } catch (e) {
      toastError((e as Error).message);
    }
    await load();
  }

  const when = (r: Trashed) => {
    if (kind !== 'events') return '';
    const e = r as Event;
    return e.all_day ? formatDay(e.start_date, locale, 'medWeekday') : formatInstant(e.utc_start_date, locale, 'dateTimeWeekday');
  };

  return (
    <section className="manage" aria-labelledby="trash-heading">
      <header className="manage-header">
        <h2 id="trash-heading" className="screen-title">
          {t('screen.trash')}
        </h2>
        <div className="segmented" role="group" aria-label={t('trash.kind')}>
          {(['events', 'venues', 'organizers'] as PostKind[]).map((k) => (
            <button key={k} type="button" aria-pressed={kind === k} className={kind === k ? 'active' : ''} onClick={() => setKind(k)}>
              {t(`trash.${k}`)}
            </button>
          ))}
        </div>
        {items !== null && items.length > 0 && (
          <button type="button" className="button button-danger-quiet" onClick={() => setConfirmingAll(true)}>
            {t('trash.empty_action')}
          </button>
        )}
      </header>
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
      {items === null ? (
        <p className="loading" role="status">
          {t('toolbar.loading')}
        </p>
      ) : items.length === 0 ? (
        <div className="empty">
          <p>{t('trash.empty')}</p>
        </div>
      ) : (
        <ul className="trash-list" aria-label={t(`trash.${kind}`)}>
          {items.map((r) => (
            <li key={r.id} className="trash-item">
              <div className="trash-text">
                <span className="trash-name">{nameOf(kind, r)}</span>
                {when(r) && <span className="trash-when">{when(r)}</span>}
              </div>
              <button type="button" className="button button-small" aria-label={t('action.restore_named', { name: nameOf(kind, r) })} onClick={() => void restore(r)}>
                {t('action.restore')}
              </button>
              <button
                type="button"
                className="button button-small button-danger-quiet"
                aria-label={t('action.delete_forever_named', { name: nameOf(kind, r) })}
                onClick={() => setConfirming(r)}
              >
                {t('action.delete_forever')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {confirmingAll && items && (
        <ConfirmDialog
          title={t('trash.empty_title')}
          text={t(`trash.empty_text_${kind}`, { count: items.length })}
          confirmLabel={t('trash.empty_action')}
          onCancel={() => setConfirmingAll(false)}
          onConfirm={() => {
            setConfirmingAll(false);
            void emptyAll();
          }}
        />
      )}
      {confirming && (
        <ConfirmDialog
          title={t('manage.confirm_delete_title')}
          text={t('trash.confirm', { name: nameOf(kind, confirming) })}
          confirmLabel={t('action.delete_forever')}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const r = confirming;
            setConfirming(null);
            void purge(r);
          }}
        />
      )}
    </section>
  );
}
