/** Create or edit a venue, organizer, category or tag; the form is the kind's field declarations. */
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { Dialog } from '../components/Dialog';
import { FieldControl } from '../editor/FieldControl';
import { changedFields, emptyForm, formFields, formToBody, isHtmlSource, localErrors, recordToForm, type FieldErrors, type FormValues } from '../editor/form';
import { api } from '../state/api';
import type { ManageConfig, ManagedRecord } from './configs';
import { DiscardBar } from '../components/DiscardBar';

export function RecordDialog({
  cfg,
  record,
  onClose,
  onSaved,
}: {
  cfg: ManageConfig;
  record: ManagedRecord | null;
  onClose(): void;
  onSaved(r: ManagedRecord): void;
}) {
  const { t } = useTranslation();
  const initial = useMemo<FormValues>(() => (record ? recordToForm(record, cfg.fields) : { ...emptyForm(cfg.fields), ...(cfg.trashable ? { status: 'publish' } : {}) }), [record, cfg]);
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const all = formFields(cfg.fields);
  const rank = (n: string) => {
    const i = cfg.order?.indexOf(n) ?? -1;
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  const main = all.filter(([n]) => !cfg.advanced.includes(n)).sort(([a], [b]) => rank(a) - rank(b));
  const advanced = all.filter(([n]) => cfg.advanced.includes(n));
  const dirty = changedFields(initial, values).length > 0;

  async function save(e: FormEvent) {
    e.preventDefault();
    // Enter pressed twice, or Save clicked twice, must not create the record twice.
    if (saving) return;
    const local = localErrors(cfg.fields, values, { required: t('errors.required'), endBeforeStart: '' });
    if (Object.keys(local).length) {
      setErrors(local);
      setFormError(t('errors.fix_fields'));
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    const body = formToBody(cfg.fields, values, record ? initial : undefined);
    if (record && Object.keys(body).length === 0) return onClose();
    setSaving(true);
    setFormError(null);
    try {
      const saved = await api().save<ManagedRecord>(cfg.kind, record?.id, body);
      onSaved(saved);
    } catch (err) {
      setFormError(err instanceof ApiError ? err.message : String(err));
      if (err instanceof ApiError) {
        setErrors(err.fieldErrors);
        requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      }
    } finally {
      setSaving(false);
    }
  }

  const control = ([name, def]: (typeof all)[number], i: number) => (
    <FieldControl
      key={name}
      name={name}
      def={def}
      value={values[name]}
      error={errors[name]}
      selfId={record?.id}
      htmlSource={isHtmlSource(values, name)}
      autoFocus={i === 0}
      onChange={(v) => {
        setValues((cur) => ({ ...cur, [name]: v }));
        if (errors[name]) setErrors(({ [name]: _gone, ...rest }) => rest);
      }}
    />
  );

  return (
    <Dialog
      title={t(record ? `manage.${cfg.kind}.edit` : `manage.${cfg.kind}.new`)}
      onRequestClose={() => (dirty ? setConfirmDiscard(true) : onClose())}
      closeLabel={t('action.close')}
      className="record-dialog"
    >
      <form ref={formRef} onSubmit={save} noValidate className="record-form">
        {formError && (
          <div className="form-error" role="alert">
            {formError}
          </div>
        )}
        <div className="record-grid">{main.map(control)}</div>
        {advanced.length > 0 && (
          <details className="group advanced">
            <summary>{t('editor.group.advanced')}</summary>
            <div className="record-grid">{advanced.map((f) => control(f, 1))}</div>
          </details>
        )}
        {confirmDiscard ? (
          <DiscardBar onKeep={() => setConfirmDiscard(false)} onDiscard={onClose} />
        ) : (
          <footer className="dialog-footer">
            <span className="spacer" />
            <button type="button" className="button" onClick={() => (dirty ? setConfirmDiscard(true) : onClose())}>
              {t('action.cancel')}
            </button>
            <button type="submit" className="button button-primary" disabled={saving}>
              {saving ? t('action.saving') : t('action.save')}
            </button>
          </footer>
        )}
      </form>
    </Dialog>
  );
}
