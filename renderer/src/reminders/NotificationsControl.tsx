/**
 * The editor's and quick create's "Notifications" section (issue 16): add, change, remove an
 * event's reminders with the presets calendars offer ("At start of event", "10 minutes before",
 * "1 day before", for all-day events "1 day before at 09:00") or N minutes/hours/days/weeks
 * before or after the start. A reminder the section cannot edit is shown in words and kept.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon';
import { useLocale, useViewerZone } from '../state/calendarSettings';
import { formatClock, formatInstant } from '../lib/format';
import {
  customOf,
  describeReminder,
  nextNew,
  PRESET_TRIGGER,
  presetReminder,
  presetsFor,
  rowOf,
  UNITS,
  type Preset,
  type Reminder,
  type Row,
  type RowErrors,
  type Translate,
  type Unit,
} from './choices';
import './reminders.css';

/** Describes reminders in the interface's language and clock, on the calendar's clock. */
export function useDescribe(): (r: Reminder, allDay: boolean) => string {
  const { t } = useTranslation();
  const locale = useLocale();
  useViewerZone();
  return (r, allDay) => describeReminder(r, allDay, t as Translate, (iso) => formatInstant(iso, locale, 'dateTime'), (minutes) => formatClock(minutes, locale));
}

export function NotificationsControl({ rows, onChange, allDay, errors, serverError }: { rows: Row[]; onChange(rows: Row[]): void; allDay: boolean; errors: RowErrors; serverError?: string }) {
  const { t } = useTranslation();
  const describe = useDescribe();
  const base = useId();
  const list = rows.map((r) => r.reminder);

  const replace = (id: number, patch: Partial<Row>) => onChange(rows.map((r) => (r.id === id ? { ...r, ...patch } : r)));

  const pick = (row: Row, value: string) => {
    if (value === 'kept') return;
    if (value === 'custom') {
      // Starts from what the row said, so switching to Custom changes nothing until edited.
      const custom = customOf(row.choice.kind === 'preset' ? PRESET_TRIGGER[row.choice.preset] : (row.reminder.trigger ?? '-PT10M')) ?? { amount: 10, unit: 'minutes' as Unit, when: 'before' as const };
      replace(row.id, { choice: { kind: 'custom', custom }, amount: String(custom.amount) });
      return;
    }
    const preset = value as Preset;
    replace(row.id, { reminder: presetReminder(preset), choice: { kind: 'preset', preset } });
  };

  return (
    <section className="group notify" role="group" aria-labelledby={`${base}-title`}>
      <h3 className="group-title" id={`${base}-title`}>
        {t('notify.label')}
      </h3>
      {rows.length === 0 && <p className="field-hint">{t('notify.none')}</p>}
      <ul className="notify-list">
        {rows.map((row, i) => {
          const selectId = `${base}-${row.id}`;
          const error = errors[row.id];
          const presets = presetsFor(allDay);
          if (row.choice.kind === 'preset' && !presets.includes(row.choice.preset)) presets.push(row.choice.preset);
          const selected = row.choice.kind === 'preset' ? row.choice.preset : row.choice.kind;
          const label = t('notify.row', { n: i + 1 });
          return (
            <li key={row.id} className={`notify-row ${error ? 'field-invalid' : ''}`}>
              <div className="notify-inline">
                <Icon name="bell" size={16} className="notify-icon" />
                <select
                  id={selectId}
                  aria-label={label}
                  value={selected}
                  onChange={(e) => pick(row, e.target.value)}
                  {...(error ? { 'aria-invalid': true as const, 'aria-describedby': `${selectId}-error` } : row.choice.kind === 'kept' ? { 'aria-describedby': `${selectId}-kept` } : {})}
                >
                  {row.choice.kind === 'kept' && <option value="kept">{describe(row.reminder, allDay)}</option>}
                  {presets.map((p) => (
                    <option key={p} value={p}>
                      {p === 'start' ? t('notify.at_start_event') : describe(presetReminder(p), allDay)}
                    </option>
                  ))}
                  <option value="custom">{t('notify.custom')}</option>
                </select>
                <button type="button" className="icon-button" aria-label={t('notify.remove', { n: i + 1 })} title={t('notify.remove', { n: i + 1 })} onClick={() => onChange(rows.filter((r) => r.id !== row.id))}>
                  <Icon name="close" size={16} />
                </button>
              </div>
              {row.choice.kind === 'custom' && (
                <div className="notify-inline notify-custom">
                  <input
                    type="number"
                    inputMode="numeric"
                    min={0}
                    aria-label={t('notify.amount', { n: i + 1 })}
                    value={row.amount}
                    onChange={(e) => replace(row.id, { amount: e.target.value })}
                    {...(error ? { 'aria-invalid': true as const, 'aria-describedby': `${selectId}-error` } : {})}
                  />
                  <select
                    aria-label={t('notify.unit_label', { n: i + 1 })}
                    value={row.choice.custom.unit}
                    onChange={(e) => row.choice.kind === 'custom' && replace(row.id, { choice: { kind: 'custom', custom: { ...row.choice.custom, unit: e.target.value as Unit } } })}
                  >
                    {UNITS.map((u) => (
                      <option key={u} value={u}>
                        {t(`notify.unit_name.${u}`)}
                      </option>
                    ))}
                  </select>
                  <select
                    aria-label={t('notify.when_label', { n: i + 1 })}
                    value={row.choice.custom.when}
                    onChange={(e) =>
                      row.choice.kind === 'custom' && replace(row.id, { choice: { kind: 'custom', custom: { ...row.choice.custom, when: e.target.value as 'before' | 'after' } } })
                    }
                  >
                    <option value="before">{t('notify.before_start')}</option>
                    <option value="after">{t('notify.after_start')}</option>
                  </select>
                </div>
              )}
              {row.choice.kind === 'kept' && (
                <p className="field-hint" id={`${selectId}-kept`}>
                  {t('notify.kept_hint')}
                </p>
              )}
              {error && (
                <p className="field-error" id={`${selectId}-error`}>
                  {t(error)}
                </p>
              )}
            </li>
          );
        })}
      </ul>
      <button type="button" className="button button-small" onClick={() => onChange([...rows, rowOf(nextNew(list, allDay), allDay)])} disabled={rows.length >= 20}>
        <Icon name="plus" size={14} /> {t('notify.add')}
      </button>
      {serverError && <p className="field-error">{serverError}</p>}
    </section>
  );
}
