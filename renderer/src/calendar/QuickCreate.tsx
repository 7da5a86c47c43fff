/**
 * The small "what is it?" dialog after a click or drag on empty time: a title is enough to save;
 * "More options" carries what was typed into the full editor.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { Dialog } from '../components/Dialog';
import { Icon } from '../components/Icon';
import { defaultRemindersFor, useLocale } from '../state/calendarSettings';
import { describeSpan } from '../lib/format';
import { LOCAL_CALENDAR_ID } from '@shared/schema/accounts';
import { newEventCalendar, useCalendars } from '../state/calendars';
import { createEvent } from '../state/eventActions';
import { useSettings } from '../state/settings';
import { useUi, type EventDraft } from '../state/ui';
import { RepeatControl } from '../recurrence/RepeatControl';
import { fromRecurrence, toRecurrence, validateRepeat, type RepeatErrors, type RepeatValue } from '../recurrence/rule';
import { NotificationsControl } from '../reminders/NotificationsControl';
import { rowsOf, rowsToReminders, type Row, type RowErrors } from '../reminders/choices';

export function QuickCreate({ draft }: { draft: EventDraft }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const closeQuick = useUi((s) => s.closeQuickCreate);
  const openEditor = useUi((s) => s.openEditor);
  const [title, setTitle] = useState(draft.title ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const start = { start: draft.start_date, allDay: draft.all_day, zone: draft.timezone };
  const [repeat, setRepeat] = useState<RepeatValue>(() => fromRecurrence(draft.recurrence, start));
  const [repeatErrors, setRepeatErrors] = useState<RepeatErrors>({});
  const [notifyRows, setNotifyRows] = useState<Row[]>(() => rowsOf(draft.reminders ?? defaultRemindersFor(!!draft.all_day), draft.all_day));
  const [notifyErrors, setNotifyErrors] = useState<RowErrors>({});

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!title.trim()) {
      setError(t('errors.title_required'));
      return;
    }
    const problems = validateRepeat(repeat, start);
    setRepeatErrors(problems);
    const notify = rowsToReminders(notifyRows);
    setNotifyErrors(notify.errors);
    if (Object.keys(problems).length || Object.keys(notify.errors).length) return;
    const recurrence = toRecurrence(repeat, start, draft.recurrence);
    const calendar = newEventCalendar(useCalendars.getState().calendars);
    setSaving(true);
    setError(null);
    try {
      await createEvent({
        title: title.trim(),
        start_date: draft.start_date,
        end_date: draft.end_date,
        all_day: draft.all_day,
        timezone: draft.timezone,
        status: 'publish',
        // Always said, none included: the server's defaults would add reminders this dialog never showed.
        reminders: notify.reminders,
        ...(recurrence ? { recurrence } : {}),
        // This computer's calendar (the server's default), unless it is hidden: then a shown one,
        // so the event stays on screen.
        ...(calendar !== LOCAL_CALENDAR_ID ? { calendar } : {}),
      });
      closeQuick();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog title={t('quick.title')} onRequestClose={closeQuick} closeLabel={t('action.close')} className="quick-dialog">
      <form onSubmit={save} className="quick-form" noValidate>
        {error && (
          <div className="form-error" role="alert">
            {error}
          </div>
        )}
        <label htmlFor="quick-title" className="field-label">
          {t('field.title')}
        </label>
        <input
          id="quick-title"
          data-autofocus
          autoFocus
          autoComplete="off"
          value={title}
          placeholder={t('quick.placeholder')}
          aria-invalid={error ? true : undefined}
          onChange={(e) => setTitle(e.target.value)}
        />
        <p className="quick-when">
          <Icon name="clock" size={16} />
          {describeSpan(draft, locale, t('field.all_day'))}
        </p>
        <RepeatControl
          value={repeat}
          onChange={(v) => {
            setRepeat(v);
            setRepeatErrors({});
          }}
          start={start}
          errors={repeatErrors}
        />
        <NotificationsControl
          rows={notifyRows}
          onChange={(rows) => {
            setNotifyRows(rows);
            setNotifyErrors({});
          }}
          allDay={draft.all_day}
          errors={notifyErrors}
        />
        <footer className="dialog-footer">
          <button
            type="button"
            className="button button-quiet"
            onClick={() => {
              const recurrence = toRecurrence(repeat, start, draft.recurrence);
              // A half-typed amount is pointed at here rather than lost on the way to the editor.
              const { reminders, errors } = rowsToReminders(notifyRows);
              setNotifyErrors(errors);
              if (Object.keys(errors).length) return;
              openEditor({ kind: 'create', draft: { ...draft, title, reminders, ...(recurrence ? { recurrence } : {}) } });
            }}
          >
            {t('quick.more')}
          </button>
          <span className="spacer" />
          <button type="button" className="button" onClick={closeQuick}>
            {t('action.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={saving}>
            {saving ? t('action.saving') : t('action.save')}
          </button>
        </footer>
      </form>
    </Dialog>
  );
}
