/**
 * "Add account…" and a calendar's name and colour. Their fields are the declarations of
 * shared/schema/accounts.ts; the server's refusals land on the field they are about (`data.field`
 * of the error: the address, the password, the name). The password field starts empty every time
 * and nothing ever fills it from the server.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { accountFields, calendarFields, LOCAL_CALENDAR_ID, newCalendarFields, type AccountJson, type CalendarJson } from '@shared/schema/accounts';
import type { FieldDef } from '@shared/schema/resources';
import { Dialog } from '../components/Dialog';
import { FieldFormFields, FieldFormFooter, useFieldForm } from '../components/FieldForm';
import { formFields } from '../editor/form';
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
        <FieldFormFooter form={form} onCancel={onClose} submitLabel={t('calendars.add')} busyLabel={t('calendars.looking')} />
      </form>
    </Dialog>
  );
}

/**
 * A calendar's settings: its name (which cannot be left empty, as a new one's), its colour and, for
 * a server's calendar, whether it is synced ("On this computer" has no server to sync with).
 */
const CALENDAR_FORM: Array<[string, FieldDef]> = [
  ['name', newCalendarFields.name],
  ['color', calendarFields.color],
];
const SERVER_CALENDAR_FORM: Array<[string, FieldDef]> = [...CALENDAR_FORM, ['synced', calendarFields.synced]];

export function CalendarDialog({ calendar, onClose }: { calendar: CalendarJson; onClose(): void }) {
  const { t } = useTranslation();
  const shownName = calendarLabel(calendar, t);
  const form = useFieldForm(calendar.account_id === null ? CALENDAR_FORM : SERVER_CALENDAR_FORM, { name: shownName, color: calendar.color ?? '', synced: calendar.synced });
  // Another calendar of this computer's own can go, its events moved to another one or deleted.
  const calendars = useCalendars((s) => s.calendars);
  const removable = calendar.id !== LOCAL_CALENDAR_ID && calendar.account_id === null && calendar.subscription === null;
  const others = calendars.filter((c) => c.id !== calendar.id && c.account_id === null && c.subscription === null);
  const [removing, setRemoving] = useState(false);
  const [moveTo, setMoveTo] = useState<number | 'delete'>(LOCAL_CALENDAR_ID);

  const remove = () =>
    form.run(async () => {
      await useCalendars.getState().removeCalendar(calendar.id, moveTo === 'delete' ? null : moveTo);
      await reloadEvents();
      onClose();
    });

  const submit = form.onSubmit(async (values) => {
    const changes: { name?: string; color?: string; synced?: boolean } = {};
    if (values.name.trim() !== shownName) changes.name = values.name.trim();
    if (values.color !== (calendar.color ?? '')) changes.color = values.color;
    if (values.synced !== calendar.synced) changes.synced = values.synced;
    // Nothing changed: nothing is saved.
    if (Object.keys(changes).length === 0) return onClose();
    await useCalendars.getState().updateCalendar(calendar.id, changes);
    // Every view, the search results and a day's list draw colours from the calendars store.
    onClose();
  });

  return (
    <Dialog title={t('calendars.edit_title', { name: shownName })} onRequestClose={onClose} closeLabel={t('action.close')} className="account-dialog">
      <form onSubmit={submit} noValidate>
        <FieldFormFields form={form} selfId={calendar.id} />
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
        <FieldFormFooter form={form} onCancel={removing ? () => setRemoving(false) : onClose} submitLabel={removing ? null : t('action.save')}>
          {removable && !removing && (
            <button type="button" className="button button-danger-quiet" onClick={() => setRemoving(true)}>
              {t('calendars.delete')}
            </button>
          )}
          {removing && (
            <button type="button" className="button button-danger" disabled={form.busy} onClick={() => void remove()}>
              {t('calendars.delete_confirm')}
            </button>
          )}
        </FieldFormFooter>
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
        <FieldFormFooter form={form} onCancel={onClose} submitLabel={t('calendars.new_create')} />
      </form>
    </Dialog>
  );
}
