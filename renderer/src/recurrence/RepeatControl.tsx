/**
 * The Repeat control of the event editor and quick create: a select named "Repeat" (a stable
 * name: tests outside the project use it), and under it only the parts that apply to the chosen
 * frequency, with the whole repetition in words at the bottom.
 *
 * A rule the control cannot show ("custom") stays as it came until another choice replaces it.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { localeTag } from '../i18n';
import { DateField } from '../components/DateTimeFields';
import { useSettings } from '../state/settings';
import {
  defaultChoice,
  FREQS,
  nthOf,
  startDay,
  WEEKDAYS,
  NO_REPEAT,
  type Ends,
  type Freq,
  type MonthlyMode,
  type RepeatChoice,
  type RepeatErrors,
  type RepeatStart,
  type RepeatValue,
} from './rule';
import { nthWeekday, summarise, weekdayName } from './summary';
import './recurrence.css';

export interface RepeatControlProps {
  value: RepeatValue;
  onChange(v: RepeatValue): void;
  start: RepeatStart;
  /** i18n keys from validateRepeat, shown next to the part they belong to. */
  errors?: RepeatErrors;
  /** The server's word on `recurrence`, when it refused it. */
  serverError?: string;
}

/** A number field's text → number; NaN when it is not one (validation names the problem). */
const toNumber = (text: string) => (text.trim() === '' ? NaN : Number(text));
const numberText = (n: number) => (Number.isNaN(n) ? '' : String(n));

export function RepeatControl({ value, onChange, start, errors = {}, serverError }: RepeatControlProps) {
  const { t } = useTranslation();
  const locale = localeTag(useSettings((s) => s.uiLanguage));
  const id = useId();
  const ids = {
    select: `${id}-freq`,
    interval: `${id}-interval`,
    unit: `${id}-unit`,
    monthly: `${id}-monthly`,
    ends: `${id}-ends`,
    until: `${id}-until`,
    count: `${id}-count`,
    summary: `${id}-summary`,
    error: (k: string) => `${id}-error-${k}`,
  };
  const choice = value.kind === 'choice' ? value.choice : null;
  const setChoice = (patch: Partial<RepeatChoice>) => choice && onChange({ kind: 'choice', choice: { ...choice, ...patch } });
  const invalid = (k: keyof RepeatErrors) => (errors[k] ? { 'aria-invalid': true as const, 'aria-describedby': ids.error(k) } : {});
  const errorText = (k: keyof RepeatErrors) =>
    errors[k] ? (
      <p className="field-error" id={ids.error(k)}>
        {t(errors[k]!)}
      </p>
    ) : null;

  const selected = value.kind === 'none' ? 'none' : value.kind === 'custom' ? 'custom' : value.choice.freq;
  const pick = (v: string) => {
    if (v === 'none') onChange(NO_REPEAT);
    else if (v !== 'custom') onChange({ kind: 'choice', choice: defaultChoice(v as Freq, start, choice ?? undefined) });
  };
  const hasErrors = Object.keys(errors).length > 0;
  const summary = summarise(value, start, t, locale);
  const at = nthOf(start);
  const monthly = choice && choice.monthly === 'last' && !at.last ? 'nth' : choice?.monthly;

  return (
    <div className={`repeat ${serverError ? 'field-invalid' : ''}`}>
      <div className="field repeat-freq">
        <label htmlFor={ids.select} className="field-label">
          {t('repeat.label')}
        </label>
        <select
          id={ids.select}
          value={selected}
          onChange={(e) => pick(e.target.value)}
          aria-describedby={summary && !hasErrors ? ids.summary : undefined}
          {...(serverError ? { 'aria-invalid': true as const } : {})}
        >
          <option value="none">{t('repeat.none')}</option>
          {FREQS.map((f) => (
            <option key={f} value={f}>
              {t(`repeat.${f}`)}
            </option>
          ))}
          {value.kind === 'custom' && <option value="custom">{t('repeat.custom')}</option>}
        </select>
      </div>

      {choice && (
        <div className="repeat-details">
          <div className={`field repeat-interval ${errors.interval ? 'field-invalid' : ''}`}>
            <label htmlFor={ids.interval} className="field-label">
              {t('repeat.every')}
            </label>
            <div className="repeat-inline">
              <input
                id={ids.interval}
                type="number"
                inputMode="numeric"
                min={1}
                max={999}
                value={numberText(choice.interval)}
                onChange={(e) => setChoice({ interval: toNumber(e.target.value) })}
                {...invalid('interval')}
              />
              <span id={ids.unit} className="repeat-unit">
                {t(`repeat.unit.${choice.freq}`, { count: Number.isFinite(choice.interval) ? choice.interval : 2 })}
              </span>
            </div>
            {errorText('interval')}
          </div>

          {choice.freq === 'weekly' && (
            <fieldset className={`field repeat-days ${errors.weekdays ? 'field-invalid' : ''}`}>
              <legend className="field-label">{t('repeat.on_days')}</legend>
              <div className="repeat-day-list">
                {WEEKDAYS.map((d) => {
                  const on = choice.weekdays.includes(d);
                  return (
                    <label key={d} className={`repeat-day ${on ? 'is-on' : ''}`}>
                      <input
                        type="checkbox"
                        aria-label={weekdayName(d, locale)}
                        {...invalid('weekdays')}
                        checked={on}
                        onChange={() => setChoice({ weekdays: on ? choice.weekdays.filter((x) => x !== d) : WEEKDAYS.filter((x) => x === d || choice.weekdays.includes(x)) })}
                      />
                      <span aria-hidden="true">{weekdayName(d, locale, 'short')}</span>
                    </label>
                  );
                })}
              </div>
              {errorText('weekdays')}
            </fieldset>
          )}

          {choice.freq === 'monthly' && (
            <div className="field repeat-monthly">
              <label htmlFor={ids.monthly} className="field-label">
                {t('repeat.monthly_on')}
              </label>
              <select id={ids.monthly} value={monthly} onChange={(e) => setChoice({ monthly: e.target.value as MonthlyMode })}>
                <option value="date">{t('repeat.monthly_date', { day: startDay(start).day })}</option>
                <option value="nth">{t('repeat.monthly_weekday', nthWeekday(start, 'nth', t, locale))}</option>
                {at.last && <option value="last">{t('repeat.monthly_weekday', nthWeekday(start, 'last', t, locale))}</option>}
              </select>
            </div>
          )}

          <div className="field repeat-ends">
            <label htmlFor={ids.ends} className="field-label">
              {t('repeat.ends')}
            </label>
            <div className="repeat-inline">
              <select id={ids.ends} value={choice.ends} onChange={(e) => setChoice({ ends: e.target.value as Ends })}>
                <option value="never">{t('repeat.ends_never')}</option>
                <option value="until">{t('repeat.ends_until')}</option>
                <option value="count">{t('repeat.ends_count')}</option>
              </select>
              {choice.ends === 'until' && (
                <DateField
                  id={ids.until}
                  aria-label={t('repeat.until')}
                  min={start.start.slice(0, 10)}
                  value={choice.until}
                  onChange={(until) => setChoice({ until })}
                  {...invalid('until')}
                />
              )}
              {choice.ends === 'count' && (
                <>
                  <input
                    id={ids.count}
                    type="number"
                    inputMode="numeric"
                    min={1}
                    aria-label={t('repeat.count')}
                    value={numberText(choice.count)}
                    onChange={(e) => setChoice({ count: toNumber(e.target.value) })}
                    {...invalid('count')}
                  />
                  <span className="repeat-unit" aria-hidden="true">
                    {t('repeat.times')}
                  </span>
                </>
              )}
            </div>
            {errorText('until')}
            {errorText('count')}
          </div>
        </div>
      )}

      {summary && !hasErrors && (
        <p className="field-hint repeat-summary" id={ids.summary}>
          {summary}
        </p>
      )}
      {value.kind === 'custom' && <p className="field-hint">{t('repeat.custom_hint')}</p>}
      {serverError && <p className="field-error">{serverError}</p>}
    </div>
  );
}
