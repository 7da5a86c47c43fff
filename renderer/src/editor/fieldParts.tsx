/**
 * What every form control shares: its ids, the labelled field around it with its hint and error,
 * and the ARIA marks of an invalid input.
 */
import { useId, type ReactNode } from 'react';
import type { FieldDef } from '@shared/schema/resources';

export interface ControlProps {
  name: string;
  def: FieldDef;
  value: unknown;
  onChange(value: unknown): void;
  error?: string;
  /** The errors of a record created with this one (a new venue's name), by its own field names. */
  subErrors?: Record<string, string>;
  /** Events: hides the time half of the start and end. */
  allDay?: boolean;
  /** Terms: which taxonomy a `terms` field picks from; categories: the record being edited. */
  taxonomy?: 'categories' | 'tags';
  selfId?: number;
  autoFocus?: boolean;
  /** Textareas: the value is HTML source, not text (editor/form.ts, HTML_SOURCE). */
  htmlSource?: boolean;
}

export function useFieldIds() {
  const id = useId();
  return { input: `${id}-input`, error: `${id}-error`, hint: `${id}-hint` };
}

export function Field({
  label,
  htmlFor,
  error,
  errorId,
  required,
  children,
  className,
  hint,
  hintId,
}: {
  label: ReactNode;
  htmlFor?: string;
  error?: string;
  errorId: string;
  required?: boolean;
  children: ReactNode;
  className?: string;
  hint?: ReactNode;
  hintId?: string;
}) {
  return (
    <div className={`field ${error ? 'field-invalid' : ''} ${className ?? ''}`}>
      <div className="field-label-row">
        {htmlFor ? (
          <label htmlFor={htmlFor} className="field-label">
            {label}
          </label>
        ) : (
          <span className="field-label">{label}</span>
        )}
        {/* Outside the label so the field's name stays exactly its label; inputs carry `required`. */}
        {required && (
          <span className="required" aria-hidden="true">
            *
          </span>
        )}
      </div>
      {children}
      {hint && !error && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

export const invalidProps = (error: string | undefined, errorId: string) =>
  error ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {};

export type Ids = ReturnType<typeof useFieldIds>;
export type Inner = ControlProps & { label: string; ids: Ids };
