/**
 * Settings (issue 15 item 8): one form drawn from the settings' declarations
 * (shared/schema/settings.ts). Each value is checked in the form with the same checks the server
 * runs, and a field in error blocks Save; only what the user changed is sent, so opening and
 * saving never pins a value (the system's time zone) the user did not choose.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { settingsFields, workHoursInOrder, type CalendarSettings } from '@shared/schema/settings';
import type { FieldDef } from '@shared/schema/resources';
import { message, isMessageKey } from '@shared/i18n/messages';
import type { Reminder } from '@shared/reminders';
import { ApiError } from '../api/client';
import { Dialog } from '../components/Dialog';
import { TimeField } from '../components/DateTimeFields';
import { Field, invalidProps, useFieldIds } from '../editor/fieldParts';
import { TimeZoneControl } from '../editor/TimeZoneControl';
import { exactZone } from '../lib/zoneSearch';
import { useCalendarSettings } from '../state/calendarSettings';
import { useSettings } from '../state/settings';
import { toastInfo } from '../state/toasts';
import { useUi } from '../state/ui';
import { fromRow, newRow, toRow, UNITS, type ReminderRow, type Unit } from './reminderRows';
// The reminder rows are laid out as the editor's Notifications section lays out its own.
import '../reminders/reminders.css';
import './settings.css';

type Values = Record<string, unknown>;
type Errors = Record<string, string>;

/** Form values: the reminders as editable rows, the rest as the API gives them. */
function toForm(s: CalendarSettings): Values {
  return { ...s, reminders_timed: s.reminders_timed.map(toRow), reminders_all_day: s.reminders_all_day.map(toRow) };
}

/** A form value as the API takes it. */
function toBody(name: string, value: unknown): unknown {
  if (name === 'reminders_timed' || name === 'reminders_all_day') return (value as ReminderRow[]).map(fromRow);
  // `GMT+1` typed is the fixed offset `UTC+1` the API knows.
  if (name === 'timezone' && typeof value === 'string') return exactZone(value) ?? value;
  return value;
}

/** Each value through its kind's own check (what the server will run), then the cross-field rule. */
function check(values: Values, say: (key: string, vars?: Record<string, string | number>) => string): { errors: Errors; parsed: Values } {
  const errors: Errors = {};
  const parsed: Values = {};
  for (const [name, def] of Object.entries(settingsFields)) {
    let first: [string, Record<string, string | number> | undefined] | undefined;
    const value = def.kind.parse(toBody(name, values[name]), { addIssue: (k, vars) => void (first ??= [k, vars]) });
    if (first) errors[name] = say(...first);
    else parsed[name] = value;
  }
  // Typed but not picked from the list: said as the picker says it (the editor's words too).
  if (typeof values.timezone === 'string' && values.timezone.trim() !== '' && exactZone(values.timezone) === null) errors.timezone = say('zone');
  if (!errors.work_start && !errors.work_end && !workHoursInOrder(String(parsed.work_start), String(parsed.work_end))) errors.work_end = say('invalid_work_hours');
  return { errors, parsed };
}
const def = (name: string): FieldDef => settingsFields[name];

const ORDER: Array<{ legend: string; fields: string[] }> = [
  { legend: 'settings.group.calendar', fields: ['week_starts_on', 'time_format', 'timezone', 'theme'] },
  { legend: 'settings.group.day', fields: ['work_start', 'work_end', 'default_event_minutes'] },
  { legend: 'settings.group.reminders', fields: ['reminders_timed', 'reminders_all_day', 'reminder_sound'] },
  { legend: 'settings.group.repeat', fields: ['recurrence_horizon_months'] },
  { legend: 'settings.group.desktop', fields: ['keep_running_in_tray'] },
];

export function SettingsDialog() {
  const { t } = useTranslation();
  const close = useUi((s) => s.closeSettings);
  const current = useCalendarSettings((s) => s.settings);
  const lang = useSettings((s) => s.uiLanguage);
  // The settings as the dialog opened; a reload behind it does not overwrite what is being typed.
  const [values, setValues] = useState<Values>(() => toForm(current));
  const [changed, setChanged] = useState<Set<string>>(() => new Set());
  const [shown, setShown] = useState<Set<string>>(() => new Set());
  const [serverErrors, setServerErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const [banner, setBanner] = useState<string | null>(null);

  const say = (key: string, vars?: Record<string, string | number>) => (key === 'zone' ? t('errors.zone') : isMessageKey(key) ? message(lang, key, vars) : t('errors.fix_fields'));
  const { errors, parsed } = check(values, say);
  const visible: Errors = { ...Object.fromEntries(Object.entries(errors).filter(([n]) => shown.has(n))), ...serverErrors };

  const set = (name: string, value: unknown) => {
    setValues((v) => ({ ...v, [name]: value }));
    setChanged((c) => new Set(c).add(name));
    setShown((s) => new Set(s).add(name));
    setServerErrors(({ [name]: _gone, ...rest }) => rest);
    setBanner(null);
  };

  async function save(e: FormEvent) {
    e.preventDefault();
    if (saving) return;
    const bad = Object.keys(errors);
    if (bad.length) {
      setShown(new Set([...shown, ...bad]));
      setBanner(t('settings.fix_first'));
      document.getElementById(`setting-${bad[0]}`)?.focus();
      return;
    }
    const body = Object.fromEntries([...changed].map((n) => [n, parsed[n]]));
    if (Object.keys(body).length === 0) return close();
    setSaving(true);
    try {
      await useCalendarSettings.getState().save(body as Partial<CalendarSettings>);
      toastInfo(t('settings.saved'));
      close();
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fieldErrors).length) setServerErrors(err.fieldErrors);
      setBanner((err as Error).message);
    } finally {
      setSaving(false);
    }
  }

  const control = (name: string) => {
    const props = { name, def: def(name), value: values[name], error: visible[name], onChange: (v: unknown) => set(name, v) };
    return <SettingControl key={name} {...props} />;
  };

  return (
    <Dialog title={t('settings.title')} onRequestClose={close} closeLabel={t('action.close')} className="settings-dialog">
      <form onSubmit={save} noValidate className="settings-form">
        <div className="settings-body">
          {ORDER.map((g) => (
            <fieldset key={g.legend} className="settings-group">
              <legend>{t(g.legend)}</legend>
              {g.fields.map(control)}
            </fieldset>
          ))}
        </div>
        {banner && (
          <p className="banner banner-error settings-banner" role="alert">
            {banner}
          </p>
        )}
        <footer className="dialog-footer">
          <span className="spacer" />
          <button type="button" className="button" onClick={close}>
            {t('action.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={saving}>
            {t('action.save')}
          </button>
        </footer>
      </form>
    </Dialog>
  );
}

interface SettingProps {
  name: string;
  def: FieldDef;
  value: unknown;
  error?: string;
  onChange(v: unknown): void;
}

function SettingControl(p: SettingProps) {
  const { t, i18n } = useTranslation();
  const ids = useFieldIds();
  ids.input = `setting-${p.name}`;
  const label = t(p.def.label);
  const hint = i18n.exists(`${p.def.label}_hint`) ? t(`${p.def.label}_hint`) : undefined;
  const described = [p.error ? ids.error : null, hint && !p.error ? ids.hint : null].filter(Boolean).join(' ') || undefined;
  const common = { id: ids.input, name: p.name, ...invalidProps(p.error, ids.error), 'aria-describedby': described };
  const str = p.value == null ? '' : String(p.value);
  switch (p.def.kind.input) {
    case 'select':
      return (
        <Field label={label} htmlFor={ids.input} error={p.error} errorId={ids.error} hint={hint} hintId={ids.hint}>
          <select {...common} value={str} onChange={(e) => p.onChange(e.target.value)}>
            {(p.def.kind.openapi.enum ?? []).map((o) => (
              <option key={o} value={o}>
                {t(`settings.option.${p.name}.${o}`)}
              </option>
            ))}
          </select>
        </Field>
      );
    case 'clock':
      return (
        <Field label={label} htmlFor={ids.input} error={p.error} errorId={ids.error} hint={hint} hintId={ids.hint}>
          <TimeField {...common} className="time-field" value={str} onChange={p.onChange} />
        </Field>
      );
    case 'number': {
      const openapi = p.def.kind.openapi;
      return (
        <Field label={label} htmlFor={ids.input} error={p.error} errorId={ids.error} hint={hint} hintId={ids.hint}>
          <input {...common} type="number" inputMode="numeric" step={1} min={openapi.minimum} max={openapi.maximum} value={str} onChange={(e) => p.onChange(e.target.value)} />
        </Field>
      );
    }
    case 'checkbox':
      return (
        <Field label={label} htmlFor={ids.input} error={p.error} errorId={ids.error} hint={hint} hintId={ids.hint}>
          <input {...common} type="checkbox" checked={p.value === true} onChange={(e) => p.onChange(e.target.checked)} />
        </Field>
      );
    case 'timezone':
      return <TimeZoneControl name={p.name} def={p.def} value={p.value} error={p.error} onChange={p.onChange} label={label} ids={ids} hint={hint} />;
    case 'reminders':
      return <RemindersControl {...p} label={label} hint={hint} />;
    default:
      return null;
  }
}

function RemindersControl(p: SettingProps & { label: string; hint?: string }) {
  const { t } = useTranslation();
  const rows = (p.value as ReminderRow[]) ?? [];
  const errorId = `setting-${p.name}-error`;
  const put = (i: number, row: ReminderRow) => p.onChange(rows.map((r, j) => (j === i ? row : r)));
  return (
    <fieldset className={`field settings-reminders ${p.error ? 'field-invalid' : ''}`} id={`setting-${p.name}`} tabIndex={-1} aria-describedby={p.error ? errorId : undefined}>
      <legend className="field-label">{p.label}</legend>
      {rows.length === 0 && <p className="field-hint">{t('settings.no_reminders')}</p>}
      <ul className="notify-list">
        {rows.map((row, i) => {
          const n = i + 1;
          return (
            <li key={i} className="settings-reminder">
              {row.kind === 'before' ? (
                <>
                  <input
                    type="number"
                    min={0}
                    step={1}
                    inputMode="numeric"
                    aria-label={t('settings.reminder_amount', { n })}
                    value={row.amount}
                    {...(p.error ? { 'aria-invalid': true } : {})}
                    onChange={(e) => put(i, { ...row, amount: e.target.value })}
                  />
                  <select aria-label={t('settings.reminder_unit', { n })} value={row.unit} onChange={(e) => put(i, { ...row, unit: e.target.value as Unit })}>
                    {UNITS.map((u) => (
                      <option key={u} value={u}>
                        {t(`settings.unit.${u}`)}
                      </option>
                    ))}
                  </select>
                  <span>{t('settings.before')}</span>
                </>
              ) : (
                <span className="settings-reminder-other">{describeOther(row.base)}</span>
              )}
              <button type="button" className="button button-small" aria-label={t('settings.reminder_remove', { n })} onClick={() => p.onChange(rows.filter((_, j) => j !== i))}>
                {t('settings.remove')}
              </button>
            </li>
          );
        })}
      </ul>
      <button type="button" className="button button-small" onClick={() => p.onChange([...rows, newRow()])}>
        {t('settings.reminder_add')}
      </button>
      {p.hint && !p.error && <p className="field-hint">{p.hint}</p>}
      {p.error && (
        <p className="field-error" id={errorId}>
          {p.error}
        </p>
      )}
    </fieldset>
  );
}

/** A reminder set through the API that the rows cannot edit, in its own terms. */
function describeOther(r: Reminder): string {
  return [r.action, r.trigger ?? r.at, r.related === 'end' ? '(end)' : ''].filter(Boolean).join(' ');
}
