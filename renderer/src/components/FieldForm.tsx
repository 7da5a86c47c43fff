/**
 * A dialog's form of declared text fields (shared/schema), as "Add account…", "Connect a
 * website…" and "New calendar…" have one: the values, an error per field (a required one left
 * empty, or the server's refusal on the field it names), the refusal that names no field above
 * the fields, and Save held while one is being sent. A required field left empty stops Save
 * before anything is sent; changing a field takes its error away.
 */
import { useRef, useState, type FormEvent } from 'react';
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

export type Values = Record<string, string>;

export interface FieldForm {
  fields: Array<[string, FieldDef]>;
  values: Values;
  errors: FieldErrors;
  formError: string | null;
  /** Being sent: Save waits. */
  busy: boolean;
  /** One field changed by the user: its error goes. */
  change(name: string, value: string): void;
  /** Fields filled from elsewhere (an approval that came back): every field error goes. */
  fill(values: Partial<Values>): void;
  setErrors(errors: FieldErrors): void;
  setFormError(message: string | null): void;
  /** The form's onSubmit: checks the required fields, then `send`s; a refusal lands on its field. */
  onSubmit(send: (values: Values) => Promise<void>): (e: FormEvent) => Promise<void>;
}

export function useFieldForm(fields: Array<[string, FieldDef]>, initial: Values): FieldForm {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A second Enter before the state above is drawn again must not send twice.
  const sending = useRef(false);

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
      setValues((cur) => ({ ...cur, ...filled }) as Values);
      setErrors({});
    },
    setErrors,
    setFormError,
    onSubmit(send) {
      return async (e) => {
        e.preventDefault();
        if (sending.current) return;
        const missing: FieldErrors = {};
        for (const [name, def] of fields) if (def.required && !values[name]?.trim()) missing[name] = t('errors.required');
        setErrors(missing);
        setFormError(null);
        if (Object.keys(missing).length) return;
        sending.current = true;
        setBusy(true);
        try {
          await send(values);
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
    },
  };
}

/** The refusal that names no field, then one control per field, the first one focused. */
export function FieldFormFields({ form }: { form: FieldForm }) {
  return (
    <>
      {form.formError && (
        <div className="form-error" role="alert">
          {form.formError}
        </div>
      )}
      {form.fields.map(([name, def], i) => (
        <FieldControl key={name} name={name} def={def} value={form.values[name]} error={form.errors[name]} autoFocus={i === 0} onChange={(v) => form.change(name, String(v ?? ''))} />
      ))}
    </>
  );
}
