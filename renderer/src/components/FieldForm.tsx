/**
 * A dialog's form of declared fields (shared/schema), as "Add account…", "Connect a website…",
 * "New calendar…" and a calendar's settings have one: the values (text, or a checkbox's
 * true/false), an error per field (a required one left empty, or the server's refusal on the field
 * it names), the refusal that names no field above the fields, and Save held while one is being
 * sent. A required field left empty stops Save before anything is sent; changing a field takes its
 * error away.
 */
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldDef } from '@shared/schema/resources';
import { ApiError } from '../api/client';
import { FieldControl } from '../editor/FieldControl';
import type { FieldErrors } from '../editor/form';

/** The server's refusal, on the field it names, else on the form. */
export function placeRefusal(err: unknown, known: string[]): { fields: FieldErrors; form: string | null } {
  if (!(err instanceof ApiError)) return { fields: {}, form: String((err as Error)?.message ?? err) };
  const field = typeof err.data?.field === 'string' ? err.data.field : undefined;
  if (field && known.includes(field)) return { fields: { [field]: err.message }, form: null };
  const fields = err.fieldErrors;
  if (Object.keys(fields).some((f) => known.includes(f))) return { fields, form: null };
  return { fields: {}, form: err.message };
}

/** A text field's text, or a checkbox's state. */
export type Value = string | boolean;
export type Values = Record<string, Value>;

export interface FieldForm<V extends Values = Values> {
  fields: Array<[string, FieldDef]>;
  values: V;
  errors: FieldErrors;
  formError: string | null;
  /** Being sent: Save waits. */
  busy: boolean;
  /** One field changed by the user: its error goes. */
  change(name: string, value: Value): void;
  /** Fields filled from elsewhere (an approval that came back): every field error goes. */
  fill(values: Partial<V>): void;
  setErrors(errors: FieldErrors): void;
  setFormError(message: string | null): void;
  /** The form's onSubmit: checks the required fields, then `send`s; a refusal lands on its field. */
  onSubmit(send: (values: V) => Promise<void>): (e: FormEvent) => Promise<void>;
  /**
   * Another request of the dialog's (a calendar's Delete): sent as Save is, held while Save or
   * another is on its way, its refusal told as Save's is.
   */
  run(send: () => Promise<void>): Promise<void>;
}

const isEmpty = (v: Value | undefined) => (typeof v === 'string' ? !v.trim() : v === undefined);

export function useFieldForm<V extends Values>(fields: Array<[string, FieldDef]>, initial: V): FieldForm<V> {
  const { t } = useTranslation();
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A second Enter before the state above is drawn again must not send twice.
  const sending = useRef(false);

  const run = async (send: () => Promise<void>) => {
    if (sending.current) return;
    sending.current = true;
    setBusy(true);
    try {
      await send();
    } catch (err) {
      const placed = placeRefusal(
        err,
        fields.map(([n]) => n),
      );
      setErrors(placed.fields);
      setFormError(placed.form);
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  return {
    fields,
    values,
    errors,
    formError,
    busy,
    change(name, value) {
      setValues((cur) => ({ ...cur, [name]: value }));
      setErrors((cur) => {
        if (!(name in cur)) return cur;
        const { [name]: _gone, ...rest } = cur;
        return rest;
      });
    },
    fill(filled) {
      setValues((cur) => ({ ...cur, ...filled }));
      setErrors({});
    },
    setErrors,
    setFormError,
    onSubmit(send) {
      return async (e) => {
        e.preventDefault();
        if (sending.current) return;
        const missing: FieldErrors = {};
        for (const [name, def] of fields) if (def.required && isEmpty(values[name])) missing[name] = t('errors.required');
        setErrors(missing);
        setFormError(null);
        if (Object.keys(missing).length) return;
        await run(() => send(values));
      };
    },
    run,
  };
}

/**
 * The refusal that names no field, then one control per field, the first one focused. `selfId`:
 * the record's id, for what a field shows from it (a colour left to the default).
 */
export function FieldFormFields({ form, selfId }: { form: FieldForm; selfId?: number }) {
  return (
    <>
      {form.formError && (
        <div className="form-error" role="alert">
          {form.formError}
        </div>
      )}
      {form.fields.map(([name, def], i) => (
        <FieldControl
          key={name}
          name={name}
          def={def}
          value={form.values[name]}
          error={form.errors[name]}
          selfId={selfId}
          autoFocus={i === 0}
          onChange={(v) => form.change(name, typeof form.values[name] === 'boolean' ? !!v : String(v ?? ''))}
        />
      ))}
    </>
  );
}

/**
 * Cancel and the form's submit button, held (with its `busyLabel`, if it has one) while the form is
 * sent. `children` go on the left (a dialog's Delete); without `submitLabel` there is no submit (the
 * dialog is asking something else for now).
 */
export function FieldFormFooter({ form, onCancel, submitLabel, busyLabel, children }: { form: FieldForm; onCancel(): void; submitLabel: string | null; busyLabel?: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <footer className="dialog-footer">
      {children}
      <span className="spacer" />
      <button type="button" className="button" onClick={onCancel}>
        {t('action.cancel')}
      </button>
      {submitLabel !== null && (
        <button type="submit" className="button button-primary" disabled={form.busy} aria-busy={form.busy}>
          {form.busy && busyLabel ? busyLabel : submitLabel}
        </button>
      )}
    </footer>
  );
}
