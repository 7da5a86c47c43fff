/**
 * Date and time fields that write and read as the interface does (language order of day and
 * month, the Settings' 12/24-hour clock) instead of as the computer's browser does. Values stay
 * `YYYY-MM-DD` / `HH:MM`. A value is passed up as soon as the text is a whole date or time, and
 * on leaving the field (or Enter) what was typed is read more freely (`3/12`, `7pm`) and shown
 * back in the field's own format, so the field always shows what will be saved. A date before
 * `min` is passed up too: the form says what is wrong with it rather than the field dropping it.
 */
import { useEffect, useRef, useState, type InputHTMLAttributes, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../state/calendarSettings';
import { formatDateText, formatTimeText, parseDateText, parseTimeText, uses12Hour } from '../lib/dateText';
import { Icon } from './Icon';

type Passed = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type' | 'min' | 'max'>;

function useText(value: string, format: (v: string) => string) {
  const shown = format(value);
  const [text, setText] = useState(shown);
  const editing = useRef(false);
  // A value changed from outside (another field, navigation) shows unless the user is mid-typing it.
  useEffect(() => {
    if (!editing.current) setText(shown);
  }, [shown]);
  return { text, setText, shown, editing };
}

export function DateField({
  value,
  onChange,
  min,
  className,
  ...rest
}: Passed & { value: string; onChange(iso: string): void; min?: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { text, setText, shown, editing } = useText(value, (v) => formatDateText(v, locale));
  const picker = useRef<HTMLInputElement>(null);
  const commit = (s: string) => {
    const iso = parseDateText(s, locale);
    if (iso) {
      if (iso !== value) onChange(iso);
      setText(formatDateText(iso, locale));
    } else setText(shown);
  };
  return (
    <span className={`date-field ${className ?? ''}`}>
      <input
        {...rest}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder={t('date_field.placeholder')}
        value={text}
        onFocus={(e) => {
          editing.current = true;
          rest.onFocus?.(e);
        }}
        onChange={(e) => {
          setText(e.target.value);
          const iso = parseDateText(e.target.value, locale, { complete: true });
          if (iso && iso !== value) onChange(iso);
        }}
        onBlur={(e) => {
          editing.current = false;
          commit(e.target.value);
          rest.onBlur?.(e);
        }}
        onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
          if (e.key === 'Enter') commit(e.currentTarget.value);
          rest.onKeyDown?.(e);
        }}
      />
      <button
        type="button"
        className="date-field-button"
        tabIndex={-1}
        aria-hidden="true"
        title={t('date_field.pick')}
        onClick={() => {
          try {
            picker.current?.showPicker();
          } catch {
            picker.current?.focus();
          }
        }}
      >
        <Icon name="calendar" size={16} />
      </button>
      {/* The system's month picker, for the mouse; its own text is never shown. */}
      <input
        ref={picker}
        className="date-field-picker"
        type="date"
        tabIndex={-1}
        aria-hidden="true"
        min={min}
        value={value.slice(0, 10)}
        onChange={(e) => e.target.value && e.target.value !== value && onChange(e.target.value)}
      />
    </span>
  );
}

export function TimeField({ value, onChange, ...rest }: Passed & { value: string; onChange(hhmm: string): void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const twelveHour = uses12Hour(locale);
  const { text, setText, shown, editing } = useText(value, (v) => formatTimeText(v, locale));
  const commit = (s: string) => {
    const hhmm = parseTimeText(s);
    if (hhmm) {
      if (hhmm !== value) onChange(hhmm);
      setText(formatTimeText(hhmm, locale));
    } else setText(shown);
  };
  return (
    <input
      {...rest}
      type="text"
      autoComplete="off"
      placeholder={twelveHour ? t('time_field.placeholder_12') : t('time_field.placeholder_24')}
      value={text}
      onFocus={(e) => {
        editing.current = true;
        rest.onFocus?.(e);
      }}
      onChange={(e) => {
        setText(e.target.value);
        const hhmm = parseTimeText(e.target.value, { complete: true });
        if (hhmm && hhmm !== value) onChange(hhmm);
      }}
      onBlur={(e) => {
        editing.current = false;
        commit(e.target.value);
        rest.onBlur?.(e);
      }}
      onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
        if (e.key === 'Enter') commit(e.currentTarget.value);
        rest.onKeyDown?.(e);
      }}
    />
  );
}
