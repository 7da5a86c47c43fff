/**
 * "Add account…" and a calendar's name and colour. Their fields are the declarations of
 * shared/schema/accounts.ts; the server's refusals land on the field they are about (`data.field`
 * of the error: the address, the password, the name). The password field starts empty every time
 * and nothing ever fills it from the server.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { accountFields, calendarFields, LOCAL_CALENDAR_ID, newCalendarFields, type AccountJson, type CalendarJson } from '@shared/schema/accounts';
import { Dialog } from '../components/Dialog';
import { FieldFormFields, placeRefusal, useFieldForm } from '../components/FieldForm';
import { FieldControl } from '../editor/FieldControl';
import { formFields, type FieldErrors } from '../editor/form';
import { calendarLabel, useCalendars } from '../state/calendars';
import { reloadEvents } from '../state/events';

const ACCOUNT_FORM = formFields(accountFields);

export function AddAccountDialog({ onClose, onAdded }: { onClose(): void; onAdded(account: AccountJson): void }) {
  const { t } = useTranslation();
  const form = useFieldForm(ACCOUNT_FORM, { url: '', username: '', password: '', name: '' });

  const submit = form.onSubmit(async (values) => {
    const added = await useCalendars.getState().addAccount({
      url: values.url.trim(),
      username: values.username.trim(),
      // As typed: spaces can be part of a password.
      password: values.password,
      ...(values.name.trim() ? { name: values.name.trim() } : {}),
    });
    onAdded(added);
  });

  return (
    <Dialog title={t('calendars.add_title')} onRequestClose={onClose} closeLabel={t('action.close')} className="account-dialog">
      <form onSubmit={submit} noValidate>
        <p className="field-hint">{t('calendars.add_hint')}</p>
        <FieldFormFields form={form} />
        <footer className="dialog-footer">
          <span className="spacer" />
          <button type="button" className="button" onClick={onClose}>
            {t('action.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={form.busy} aria-busy={form.busy}>
            {form.busy ? t('calendars.looking') : t('calendars.add')}
          </button>
        </footer>
      </form>
    </Dialog>
  );
}

export function CalendarDialog({ calendar, onClose }: { calendar: CalendarJson; onClose(): void }) {
  const { t } = useTranslation();
  const shownName = calendarLabel(calendar, t);
  const [values, setValues] = useState({ name: shownName, color: calendar.color ?? '', synced: calendar.synced });
  // "On this computer" has no server to sync with.
  const shown = calendar.account_id === null ? (['name', 'color'] as const) : (['name', 'color', 'synced'] as const);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Another calendar of this computer's own can go, its events moved to another one or deleted.
  const calendars = useCalendars((s) => s.calendars);
  const removable = calendar.id !== LOCAL_CALENDAR_ID && calendar.account_id === null && calendar.subscription === null;
  const others = calendars.filter((c) => c.id !== calendar.id && c.account_id === null && c.subscription === null);
  const [removing, setRemoving] = useState(false);
  const [moveTo, setMoveTo] = useState<number | 'delete'>(LOCAL_CALENDAR_ID);

  async function remove() {
    if (busy) return;
    setBusy(true);
    try {
      await useCalendars.getState().removeCalendar(calendar.id, moveTo === 'delete' ? null : moveTo);
      await reloadEvents();
      onClose();
    } catch (err) {
      setFormError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    if (!values.name.trim()) {
      setErrors({ name: t('errors.required') });
      return;
    }
    const changes: { name?: string; color?: string; synced?: boolean } = {};
    if (values.name.trim() !== shownName) changes.name = values.name.trim();
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
    <Dialog title={t('calendars.edit_title', { name: shownName })} onRequestClose={onClose} closeLabel={t('action.close')} className="account-dialog">
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
        {removing && (
          <fieldset className="calendar-remove">
            <legend>{t('calendars.delete_title', { name: shownName })}</legend>
            <label className="field-label" htmlFor="calendar-remove-events">
              {t('calendars.delete_events')}
            </label>
            <select id="calendar-remove-events" value={String(moveTo)} onChange={(e) => setMoveTo(e.target.value === 'delete' ? 'delete' : Number(e.target.value))}>
              {others.map((c) => (
                <option key={c.id} value={String(c.id)}>
                  {t('calendars.delete_move_to', { name: calendarLabel(c, t) })}
                </option>
              ))}
              <option value="delete">{t('calendars.delete_with_events')}</option>
            </select>
          </fieldset>
        )}
        <footer className="dialog-footer">
          {removable && !removing && (
            <button type="button" className="button button-danger-quiet" onClick={() => setRemoving(true)}>
              {t('calendars.delete')}
            </button>
          )}
          {removing && (
            <button type="button" className="button button-danger" disabled={busy} onClick={() => void remove()}>
              {t('calendars.delete_confirm')}
            </button>
          )}
          <span className="spacer" />
          <button type="button" className="button" onClick={removing ? () => setRemoving(false) : onClose}>
            {t('action.cancel')}
          </button>
          {!removing && (
            <button type="submit" className="button button-primary" disabled={busy} aria-busy={busy}>
              {t('action.save')}
            </button>
          )}
        </footer>
      </form>
    </Dialog>
  );
}

/** Another calendar of this computer's own: a name and a colour. */
const NEW_CALENDAR_FORM = formFields(newCalendarFields);

export function NewCalendarDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const form = useFieldForm(NEW_CALENDAR_FORM, { name: '', color: '' });

  const submit = form.onSubmit(async (values) => {
    await useCalendars.getState().createCalendar({ name: values.name.trim(), ...(values.color ? { color: values.color } : {}) });
    onClose();
  });

  return (
    <Dialog title={t('calendars.new_title')} onRequestClose={onClose} closeLabel={t('action.close')} className="account-dialog">
      <form onSubmit={submit} noValidate>
        <FieldFormFields form={form} />
        <footer className="dialog-footer">
          <span className="spacer" />
          <button type="button" className="button" onClick={onClose}>
            {t('action.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={form.busy} aria-busy={form.busy}>
            {t('calendars.new_create')}
          </button>
        </footer>
      </form>
    </Dialog>
  );
}
