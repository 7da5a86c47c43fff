/**
 * "Add account…" and a calendar's name and colour. Their fields are the declarations of
 * shared/schema/accounts.ts; the server's refusals land on the field they are about (`data.field`
 * of the error: the address, the password, the name). The password field starts empty every time
 * and nothing ever fills it from the server.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { accountFields, calendarFields, type AccountJson, type CalendarJson } from '@shared/schema/accounts';
import { ApiError } from '../api/client';
import { Dialog } from '../components/Dialog';
import { FieldControl } from '../editor/FieldControl';
import { formFields, type FieldErrors } from '../editor/form';
import { useCalendars } from '../state/calendars';

/** The server's refusal, on the field it names, else on the form. */
export function placeRefusal(err: unknown, known: string[]): { fields: FieldErrors; form: string | null } {
  if (!(err instanceof ApiError)) return { fields: {}, form: String((err as Error)?.message ?? err) };
  const field = typeof err.data?.field === 'string' ? err.data.field : undefined;
  if (field && known.includes(field)) return { fields: { [field]: err.message }, form: null };
  const fields = err.fieldErrors;
  if (Object.keys(fields).some((f) => known.includes(f))) return { fields, form: null };
  return { fields: {}, form: err.message };
}

const ACCOUNT_FORM = formFields(accountFields);

export function AddAccountDialog({ onClose, onAdded }: { onClose(): void; onAdded(account: AccountJson): void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Record<string, string>>({ url: '', username: '', password: '', name: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const missing: FieldErrors = {};
    for (const [name, def] of ACCOUNT_FORM) if (def.required && !values[name].trim()) missing[name] = t('errors.required');
    setErrors(missing);
    setFormError(null);
    if (Object.keys(missing).length) return;
    setBusy(true);
    try {
      const added = await useCalendars.getState().addAccount({
        url: values.url.trim(),
        username: values.username.trim(),
        // As typed: spaces can be part of a password.
        password: values.password,
        ...(values.name.trim() ? { name: values.name.trim() } : {}),
      });
      onAdded(added);
    } catch (err) {
      const placed = placeRefusal(err, ACCOUNT_FORM.map(([n]) => n));
      setErrors(placed.fields);
      setFormError(placed.form);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog title={t('calendars.add_title')} onRequestClose={onClose} closeLabel={t('action.close')} className="account-dialog">
      <form onSubmit={submit} noValidate>
        <p className="field-hint">{t('calendars.add_hint')}</p>
        {formError && (
          <div className="form-error" role="alert">
            {formError}
          </div>
        )}
        {ACCOUNT_FORM.map(([name, def], i) => (
          <FieldControl
            key={name}
            name={name}
            def={def}
            value={values[name]}
            error={errors[name]}
            autoFocus={i === 0}
            onChange={(v) => {
              setValues((cur) => ({ ...cur, [name]: String(v ?? '') }));
              if (errors[name]) setErrors(({ [name]: _gone, ...rest }) => rest);
            }}
          />
        ))}
        <footer className="dialog-footer">
          <span className="spacer" />
          <button type="button" className="button" onClick={onClose}>
            {t('action.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={busy} aria-busy={busy}>
            {busy ? t('calendars.looking') : t('calendars.add')}
          </button>
        </footer>
      </form>
    </Dialog>
  );
}

export function CalendarDialog({ calendar, onClose }: { calendar: CalendarJson; onClose(): void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState({ name: calendar.name, color: calendar.color ?? '', synced: calendar.synced });
  // "On this computer" has no server to sync with.
  const shown = calendar.account_id === null ? (['name', 'color'] as const) : (['name', 'color', 'synced'] as const);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    if (!values.name.trim()) {
      setErrors({ name: t('errors.required') });
      return;
    }
    const changes: { name?: string; color?: string; synced?: boolean } = {};
    if (values.name.trim() !== calendar.name) changes.name = values.name.trim();
    if (values.color !== (calendar.color ?? '')) changes.color = values.color;
    if (values.synced !== calendar.synced) changes.synced = values.synced;
    // Nothing changed: nothing is saved.
    if (Object.keys(changes).length === 0) return onClose();
    setBusy(true);
    try {
      await useCalendars.getState().updateCalendar(calendar.id, changes);
      // Every view, the search results and a day's list draw colours from the calendars store.
      onClose();
    } catch (err) {
      const placed = placeRefusal(err, [...shown]);
      setErrors(placed.fields);
      setFormError(placed.form);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog title={t('calendars.edit_title', { name: calendar.name })} onRequestClose={onClose} closeLabel={t('action.close')} className="account-dialog">
      <form onSubmit={submit} noValidate>
        {formError && (
          <div className="form-error" role="alert">
            {formError}
          </div>
        )}
        {shown.map((name, i) => (
          <FieldControl
            key={name}
            name={name}
            def={calendarFields[name]}
            value={values[name]}
            error={errors[name]}
            selfId={calendar.id}
            autoFocus={i === 0}
            onChange={(v) => setValues((cur) => ({ ...cur, [name]: name === 'synced' ? !!v : String(v ?? '') }))}
          />
        ))}
        <footer className="dialog-footer">
          <span className="spacer" />
          <button type="button" className="button" onClick={onClose}>
            {t('action.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={busy} aria-busy={busy}>
            {t('action.save')}
          </button>
        </footer>
      </form>
    </Dialog>
  );
}
