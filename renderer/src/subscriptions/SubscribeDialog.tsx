/**
 * "Subscribe to calendar": a feed's address (and a name, else the feed's own). The server fetches
 * and reads the feed before it answers, so what is wrong with the address (unreachable, a web
 * page, too large) comes back as that field's error and nothing is stored.
 */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { Dialog } from '../components/Dialog';
import { Icon } from '../components/Icon';
import { api } from '../state/api';
import { reloadEvents } from '../state/events';
import { toastInfo } from '../state/toasts';
import { MAX_FEED_URL } from '@shared/schema/subscriptions';
import type { CalendarJson } from '@shared/schema/accounts';
import { useCalendars } from '../state/calendars';

export function SubscribeDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<{ url?: string; name?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const id = useId();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!url.trim()) return setErrors({ url: t('subscribe.url_missing') });
    setBusy(true);
    setErrors({});
    try {
      const body: Record<string, string> = { url: url.trim() };
      if (name.trim()) body.name = name.trim();
      const made = await api().post<CalendarJson & { events: number }>('subscriptions', body);
      await useCalendars.getState().load().catch(() => {});
      void reloadEvents();
      toastInfo(t('subscribe.done', { name: made.name, count: made.events }));
      onClose();
    } catch (err) {
      const fields = err instanceof ApiError ? err.fieldErrors : {};
      if (fields.url || fields.name) setErrors({ url: fields.url, name: fields.name });
      else setErrors({ form: (err as Error).message });
    } finally {
      setBusy(false);
    }
  };

  const invalid = (field: 'url' | 'name') => (errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-${field}-error` } : {});
  return (
    <Dialog title={t('subscribe.title')} onRequestClose={() => !busy && onClose()} closeLabel={t('action.close')} className="subscribe-dialog">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <div className="import-body">
          {errors.form && (
            <div className="form-error" role="alert">
              {errors.form}
            </div>
          )}
          <div className="field">
            <label className="field-label" htmlFor={`${id}-url`}>
              {t('subscribe.url')}
            </label>
            <input
              id={`${id}-url`}
              type="url"
              inputMode="url"
              data-autofocus
              maxLength={MAX_FEED_URL}
              placeholder="webcal://…"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              {...invalid('url')}
            />
            {errors.url ? (
              <p className="field-error" id={`${id}-url-error`} role="alert">
                {errors.url}
              </p>
            ) : (
              <p className="field-hint">{t('subscribe.url_hint')}</p>
            )}
          </div>
          <div className="field">
            <label className="field-label" htmlFor={`${id}-name`}>
              {t('subscribe.name')}
            </label>
            <input id={`${id}-name`} type="text" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} {...invalid('name')} />
            {errors.name && (
              <p className="field-error" id={`${id}-name-error`}>
                {errors.name}
              </p>
            )}
          </div>
          {busy && <p aria-live="polite">{t('subscribe.working')}</p>}
        </div>
        <footer className="dialog-footer">
          <span className="spacer" />
          <button type="button" className="button" onClick={onClose} disabled={busy}>
            {t('action.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={busy}>
            {t('subscribe.submit')}
          </button>
        </footer>
      </form>
    </Dialog>
  );
}

/** The sidebar's button and the dialog it opens. */
export function SubscribeButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="nav-item import-button" onClick={() => setOpen(true)}>
        <Icon name="calendar" className="nav-icon" />
        {t('subscribe.open')}
      </button>
      {open && <SubscribeDialog onClose={() => setOpen(false)} />}
    </>
  );
}
