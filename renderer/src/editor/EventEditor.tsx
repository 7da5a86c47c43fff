/**
 * The full event editor. Its fields are the event field declarations of shared/schema, arranged
 * into groups here; a field added to the schema and not placed in a group shows up under
 * "Advanced", so nothing the API accepts is out of reach.
 *
 * When the server refuses a save the dialog stays open with everything typed, the server's
 * message on top and the offending fields marked.
 */
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTime } from 'luxon';
import { eventFields } from '@shared/schema/resources';
import { ApiError } from '../api/client';
import { Dialog } from '../components/Dialog';
import { fromApi, normaliseZone, viewerZone } from '../lib/dates';
import { formatInstant } from '../lib/format';
import { createEvent, trashEvent, updateEvent } from '../state/eventActions';
import { useUi, type EditorTarget } from '../state/ui';
import { FieldControl } from './FieldControl';
import { applyChange, changedFields, draftToForm, eventToForm, formFields, formToBody, isHtmlSource, localErrors, refusalText, subErrors, type FieldErrors, type FormValues, type OrganizersValue } from './form';
import { message, isMessageKey } from '@shared/i18n/messages';
import { ConflictWarning } from '../booking/ConflictWarning';
import type { Placement } from '../booking/conflicts';
import { defaultRemindersFor, useLocale } from '../state/calendarSettings';
import { useSettings } from '../state/settings';
import { DiscardBar } from '../components/DiscardBar';
import { RepeatControl } from '../recurrence/RepeatControl';
import { fromRecurrence, sameRepeat, toRecurrence, validateRepeat, type RepeatErrors, type RepeatStart, type RepeatValue } from '../recurrence/rule';
import { scopeFor } from '../state/eventActions';
import { NotificationsControl } from '../reminders/NotificationsControl';
import { rowsOf, rowsToReminders, sameReminders, type Row, type RowErrors } from '../reminders/choices';
import { LOCAL_CALENDAR_ID } from '@shared/schema/accounts';
import { calendarLabel, newEventCalendar, takesNewEvents, useCalendars } from '../state/calendars';
import { siteOf, takesRepeats, useSites } from '../state/sites';
import { readOnlyWords } from '../subscriptions/readOnlyCalendars';

/**
 * Where each field goes; the order inside a group is the order on screen. A calendar's order
 * first (what, when, where, who, categories, description); the website-publishing fields of the
 * original under one "Publishing" section, collapsed unless the user keeps it open.
 */
const MAIN_GROUPS: Array<{ key: string; fields: string[]; className?: string }> = [
  { key: 'title', fields: ['title'] },
  { key: 'when', fields: ['start_date', 'end_date', 'all_day', 'timezone'], className: 'group-when' },
  { key: 'where', fields: ['venue', 'organizer'] },
  { key: 'classify', fields: ['categories', 'tags'] },
  { key: 'details', fields: ['description'] },
];
const SIDE_GROUPS: Array<{ key: string; fields: string[]; className?: string }> = [{ key: 'extra', fields: ['cost', 'website', 'image'] }];
const PUBLISHING = ['status', 'featured', 'sticky', 'hide_from_listings', 'show_map', 'show_map_link', 'excerpt', 'slug', 'author', 'date', 'translation_of'];
/** Fields the Repeat control stands for (under "When"), never drawn as plain fields. */
const REPEAT_FIELDS = ['recurrence', 'recurrence_scope'];
/** Reminders get their own Notifications section (issue 16), never drawn as a plain field. */
const OWN_SECTION_FIELDS = ['reminders'];
const PLACED = new Set([...MAIN_GROUPS, ...SIDE_GROUPS].flatMap((g) => g.fields).concat(REPEAT_FIELDS, OWN_SECTION_FIELDS));

const repeatStartOf = (v: FormValues): RepeatStart => ({ start: String(v.start_date ?? ''), allDay: !!v.all_day, zone: String(v.timezone ?? '') });
const PUBLISHING_KEY = 'almanac.editor.publishing';
const publishingWasOpen = () => {
  try {
    return localStorage.getItem(PUBLISHING_KEY) === 'open';
  } catch {
    return false;
  }
};

export function EventEditor({ target }: { target: EditorTarget }) {
  const { t } = useTranslation();
  const close = useUi((s) => s.closeEditor);
  const uiLanguage = useSettings((s) => s.uiLanguage);
  const locale = useLocale();
  const initial = useMemo<FormValues>(
    () =>
      target.kind === 'edit'
        ? eventToForm(target.event, eventFields)
        : target.from
          ? { ...eventToForm(target.from, eventFields), slug: '', date: '' }
          : draftToForm(target.draft, eventFields),
    [target],
  );
  const [values, setValues] = useState<FormValues>(initial);
  const original = target.kind === 'edit' ? target.event.recurrence : target.draft.recurrence;
  const initialRepeat = useMemo<RepeatValue>(() => fromRecurrence(original, repeatStartOf(initial)), [original, initial]);
  const [repeat, setRepeat] = useState<RepeatValue>(initialRepeat);
  const [repeatErrors, setRepeatErrors] = useState<RepeatErrors>({});
  // What the API holds (or what quick create or the duplicated event had), kept exactly until changed.
  const initialReminders = useMemo(
    () => (target.kind === 'edit' ? target.event.reminders : target.from ? target.from.reminders : (target.draft.reminders ?? defaultRemindersFor(!!target.draft.all_day))) ?? [],
    [target],
  );
  const [notifyRows, setNotifyRows] = useState<Row[]>(() => rowsOf(initialReminders, !!initial.all_day));
  const [notifyErrors, setNotifyErrors] = useState<RowErrors>({});
  // The calendar has its own picker (the schema's `calendar` is an id, never a plain field).
  const calendars = useCalendars((s) => s.calendars);
  // A copy of a read-only calendar's event (Duplicate of a subscribed holiday) goes where new events go.
  const initialCalendar = target.kind === 'edit' ? (target.event.calendar ?? LOCAL_CALENDAR_ID) : newEventCalendar(calendars, target.from?.calendar);
  const [calendar, setCalendar] = useState(initialCalendar);
  const home = calendars.find((c) => c.id === initialCalendar);
  // A website's calendar whose site does not take repeating events: said where Repeat is.
  const chosenSite = siteOf(calendars.find((c) => c.id === calendar));
  const siteRecord = useSites((s) => (chosenSite ? s.sites.find((x) => x.id === chosenSite.id) : undefined));
  const noRepeatsAt = chosenSite && !takesRepeats(chosenSite, siteRecord) ? (siteRecord?.name ?? chosenSite.url) : null;
  // A read-only calendar's event (a shared calendar, a subscription), or a website's occurrence its
  // site generates from a repeating event, is shown, never saved or deleted.
  const occurrence = target.kind === 'edit' ? target.event.read_only : undefined;
  const readOnly = target.kind === 'edit' && (!!home?.read_only || !!occurrence);
  // Where an event can go: calendars that take writes and are sent to their server (or stay here).
  const writable = calendars.filter((c) => (target.kind === 'edit' && c.id === initialCalendar) || takesNewEvents(c));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const errorId = 'event-editor-error';

  const remindersNow = rowsToReminders(notifyRows);
  const remindersChanged = Object.keys(remindersNow.errors).length > 0 || !sameReminders(initialReminders, remindersNow.reminders);
  const dirty = target.kind === 'create' ? true : changedFields(initial, values).length > 0 || !sameRepeat(initialRepeat, repeat) || remindersChanged || calendar !== initialCalendar;
  // Publishing fields, then anything the schema gained that no group names yet (never out of reach).
  const publishing = formFields(eventFields)
    .filter(([name]) => !PLACED.has(name))
    .sort(([a], [b]) => (PUBLISHING.indexOf(a) + 1 || 99) - (PUBLISHING.indexOf(b) + 1 || 99));
  const [publishingOpen, setPublishingOpen] = useState(publishingWasOpen);
  const showPublishing = publishingOpen || publishing.some(([name]) => errors[name]);

  const set = (name: string, v: unknown) => {
    setValues((cur) => applyChange(cur, name, v));
    if (Object.keys(errors).some((k) => k === name || k.startsWith(`${name}.`))) {
      setErrors((cur) => Object.fromEntries(Object.entries(cur).filter(([k]) => k !== name && !k.startsWith(`${name}.`))));
    }
  };

  const focusFirstInvalid = () =>
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());

  async function save(e?: FormEvent) {
    e?.preventDefault();
    if (saving || readOnly) return;
    const local = localErrors(eventFields, values, {
      required: t('errors.required'),
      endBeforeStart: t('errors.end_before_start'),
      yearRange: t('errors.year_range'),
      zone: t('errors.zone'),
      issue: (key, vars) => (isMessageKey(key) ? message(uiLanguage, key, vars) : t('errors.fix_fields')),
    });
    const start = repeatStartOf(values);
    const repeatProblems = validateRepeat(repeat, start);
    setRepeatErrors(repeatProblems);
    const notify = rowsToReminders(notifyRows);
    setNotifyErrors(notify.errors);
    if (Object.keys(local).length || Object.keys(repeatProblems).length || Object.keys(notify.errors).length) {
      setErrors(local);
      setFormError(t('errors.fix_fields'));
      focusFirstInvalid();
      return;
    }
    const body = formToBody(eventFields, values, target.kind === 'edit' ? initial : undefined);
    if (target.kind === 'create' ? repeat.kind !== 'none' : repeatChanged(values)) body.recurrence = toRecurrence(repeat, start, original);
    // A new event always says its reminders, none included: the server's defaults would otherwise
    // add ones the section never showed.
    if (target.kind === 'create' || !sameReminders(initialReminders, notify.reminders)) body.reminders = notify.reminders;
    if (calendar !== initialCalendar || (target.kind === 'create' && calendar !== LOCAL_CALENDAR_ID)) body.calendar = calendar;
    // An occurrence of a series: which ones? A new rule cannot apply to one occurrence alone.
    const scope =
      target.kind === 'edit' && Object.keys(body).length ? await scopeFor(target.event, 'edit', 'recurrence' in body ? ['following', 'all'] : undefined) : undefined;
    if (scope === null) return;
    setSaving(true);
    setFormError(null);
    try {
      if (target.kind === 'edit') await updateEvent(target.event, body, scope);
      else await createEvent(body);
      close();
    } catch (err) {
      const message = err instanceof ApiError ? refusalText(err, eventFields, t, t('errors.required')) : String((err as Error).message ?? err);
      setFormError(message);
      if (err instanceof ApiError) {
        setErrors(err.fieldErrors);
        focusFirstInvalid();
      }
    } finally {
      setSaving(false);
    }
  }

  /**
   * Whether to send `recurrence` on update: the choices changed, or an end date must be typed
   * again because the event became all-day (a date) or timed (a UTC time) or changed zone.
   */
  function repeatChanged(v: FormValues): boolean {
    if (!sameRepeat(initialRepeat, repeat)) return true;
    const retyped = v.all_day !== initial.all_day || v.timezone !== initial.timezone;
    return retyped && repeat.kind === 'choice' && repeat.choice.ends === 'until';
  }

  const requestClose = () => {
    if (dirty && (target.kind === 'edit' || String(values.title ?? '').trim())) setConfirmDiscard(true);
    else close();
  };

  const control = (name: string, autoFocus = false) => {
    const def = eventFields[name];
    if (!def) return null;
    return (
      <FieldControl
        key={name}
        name={name}
        def={def}
        value={values[name]}
        error={errors[name]}
        subErrors={subErrors(errors, name)}
        allDay={!!values.all_day}
        htmlSource={isHtmlSource(values, name)}
        autoFocus={autoFocus}
        onChange={(v) => set(name, v)}
      />
    );
  };

  // Who else holds the venue or an organizer at this time (issue 27): asked as they change.
  const placement = useMemo<Placement | null>(() => {
    const venue = typeof values.venue === 'number' ? values.venue : null;
    const organizers = ((values.organizer as OrganizersValue | undefined) ?? []).filter((o): o is number => typeof o === 'number');
    if (venue === null && !organizers.length) return null;
    return {
      start_date: String(values.start_date ?? ''),
      end_date: String(values.end_date ?? ''),
      timezone: String(values.timezone || viewerZone()),
      all_day: !!values.all_day,
      venue,
      organizers,
      exclude: target.kind === 'edit' ? target.event.id : undefined,
    };
  }, [values.venue, values.organizer, values.start_date, values.end_date, values.timezone, values.all_day, target]);

  const zoneHint = useMemo(() => {
    const zone = String(values.timezone || '');
    if (values.all_day || !zone || normaliseZone(zone) === viewerZone()) return null;
    const s = fromApi(String(values.start_date), zone);
    const en = fromApi(String(values.end_date), zone);
    if (!s.isValid || !en.isValid) return null;
    const fmt = (d: DateTime) => formatInstant(d.toJSDate(), locale, 'dateTimeWeekday');
    return t('editor.your_time', { start: fmt(s), end: fmt(en) });
  }, [values.timezone, values.start_date, values.end_date, values.all_day, locale, t]);

  return (
    <Dialog
      title={target.kind === 'edit' ? t('editor.edit_title') : t('editor.new_title')}
      onRequestClose={requestClose}
      closeLabel={t('action.close')}
      className="editor-dialog"
      describedBy={formError ? errorId : undefined}
    >
      <form
        ref={formRef}
        className="editor"
        noValidate
        onSubmit={save}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void save();
          }
        }}
      >
        {formError && (
          <div className="form-error" role="alert" id={errorId}>
            {formError}
          </div>
        )}
        {readOnly && (
          <p className="field-hint read-only-note" role="status">
            {target.kind === 'edit' ? readOnlyWords(target.event, home?.name ?? '', t) : null}
          </p>
        )}
        <fieldset className="editor-fieldset" disabled={readOnly}>
        <div className="editor-body">
          <div className="editor-main">
            {MAIN_GROUPS.map((g) => [
              <section
                key={g.key}
                className={`group ${g.className ?? ''}`}
                role={g.key === 'title' ? undefined : 'group'}
                aria-labelledby={g.key === 'title' ? undefined : `group-${g.key}`}
              >
                {g.key !== 'title' && (
                  <h3 className="group-title" id={`group-${g.key}`}>
                    {t(`editor.group.${g.key}`)}
                  </h3>
                )}
                {g.fields.map((f) => control(f, f === 'title'))}
                {g.key === 'when' && zoneHint && <p className="field-hint zone-hint">{zoneHint}</p>}
                {g.key === 'when' && (
                  <RepeatControl
                    value={repeat}
                    onChange={(v) => {
                      setRepeat(v);
                      setRepeatErrors({});
                    }}
                    start={repeatStartOf(values)}
                    errors={repeatErrors}
                    serverError={errors.recurrence}
                  />
                )}
                {g.key === 'when' && noRepeatsAt && (
                  <p className="field-hint repeat-site-note" role="note">
                    {t('sites.no_repeats', { name: noRepeatsAt })}
                  </p>
                )}
              </section>,
              // Right under "When", as calendars place it: a reminder is about the time.
              g.key === 'when' && (
                <NotificationsControl
                  key="notify"
                  rows={notifyRows}
                  onChange={(rows) => {
                    setNotifyRows(rows);
                    setNotifyErrors({});
                  }}
                  allDay={!!values.all_day}
                  errors={notifyErrors}
                  serverError={errors.reminders}
                />
              ),
            ])}
          </div>
          <div className="editor-side">
            {calendars.length > 0 && (
              <section className="group" role="group" aria-labelledby="group-calendar">
                <h3 className="group-title" id="group-calendar">
                  {t('editor.calendar')}
                </h3>
                <div className="field calendar-field">
                  <span className="swatch" style={{ background: calendars.find((c) => c.id === calendar)?.color ?? 'var(--accent)' }} aria-hidden="true" />
                  <select aria-labelledby="group-calendar" value={calendar} onChange={(e) => setCalendar(Number(e.target.value))}>
                    {writable.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.account ? `${c.name} (${c.account})` : calendarLabel(c, t)}
                      </option>
                    ))}
                  </select>
                </div>
              </section>
            )}
            {SIDE_GROUPS.map((g) => (
              <section key={g.key} className={`group ${g.className ?? ''}`} role="group" aria-labelledby={`group-${g.key}`}>
                <h3 className="group-title" id={`group-${g.key}`}>
                  {t(`editor.group.${g.key}`)}
                </h3>
                {g.fields.map((f) => control(f))}
              </section>
            ))}
            <details
              className="group advanced publishing"
              open={showPublishing}
              onToggle={(e) => {
                const open = e.currentTarget.open;
                if (open === showPublishing) return;
                setPublishingOpen(open);
                try {
                  localStorage.setItem(PUBLISHING_KEY, open ? 'open' : 'closed');
                } catch {
                  // Private windows may refuse storage; the section still opens and closes.
                }
              }}
            >
              <summary>{t('editor.group.publish')}</summary>
              {publishing.map(([name]) => control(name))}
            </details>
          </div>
        </div>
        </fieldset>
        {!readOnly && <ConflictWarning placement={placement} />}
        {confirmDiscard ? (
          <DiscardBar onKeep={() => setConfirmDiscard(false)} onDiscard={close} />
        ) : (
          <footer className="dialog-footer">
            {target.kind === 'edit' && !readOnly && (
              <button
                type="button"
                className="button button-danger-quiet"
                onClick={async () => {
                  // Asked while the editor is still open, so Cancel comes back to it.
                  const scope = await scopeFor(target.event, 'delete');
                  if (scope === null) return;
                  close();
                  void trashEvent(target.event, scope);
                }}
              >
                {t('action.delete')}
              </button>
            )}
            <span className="spacer" />
            <span className="kbd-hint" aria-hidden="true">
              Ctrl+Enter
            </span>
            <button type="button" className="button" onClick={requestClose}>
              {t('action.cancel')}
            </button>
            {!readOnly && (
              <button type="submit" className="button button-primary" disabled={saving} aria-busy={saving}>
                {saving ? t('action.saving') : t('action.save')}
              </button>
            )}
          </footer>
        )}
      </form>
    </Dialog>
  );
}
