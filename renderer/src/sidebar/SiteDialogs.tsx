/**
 * "Connect a website…" (issue 26 item 1): the site's address as a person types it, the user name,
 * an application password (pasted from the site's profile page; for another Almanac, its API
 * token) and an optional name. The server finds the API, proves the login and answers; a refusal
 * lands on the field it names (`data.params` of the error). The password field starts empty every
 * time and nothing ever fills it from the server.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import * as k from '@shared/schema/kinds';
import type { FieldDef } from '@shared/schema/resources';
import { Dialog } from '../components/Dialog';
import { FieldControl } from '../editor/FieldControl';
import type { FieldErrors } from '../editor/form';
import { useSites, type SiteJson } from '../state/sites';
import { placeRefusal } from './AccountDialogs';

/**
 * The fields `POST /sites` takes (SITES-API.md). Their one declaration is shared/schema/sites.ts,
 * on the branch that serves the route; once it is here this list is `formFields(siteFields)`.
 */
export const SITE_FORM: Array<[string, FieldDef]> = [
  ['url', { kind: k.text({ nonEmpty: true, max: 2000 }), description: 'The site\'s address.', label: 'sites.url', required: true }],
  ['user', { kind: k.text({ nonEmpty: true, max: 500 }), description: 'The user name on the site.', label: 'sites.user', required: true }],
  ['password', { kind: k.password(), description: 'An application password.', label: 'sites.password', required: true }],
  ['name', { kind: k.text({ nonEmpty: true, max: 200 }), description: 'What Almanac calls the site.', label: 'sites.name' }],
];

export function ConnectSiteDialog({ onClose, onConnected }: { onClose(): void; onConnected(site: SiteJson): void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Record<string, string>>({ url: '', user: '', password: '', name: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const missing: FieldErrors = {};
    for (const [name, def] of SITE_FORM) if (def.required && !values[name].trim()) missing[name] = t('errors.required');
    setErrors(missing);
    setFormError(null);
    if (Object.keys(missing).length) return;
    setBusy(true);
    try {
      const site = await useSites.getState().connect({
        url: values.url.trim(),
        user: values.user.trim(),
        // A pasted password often brings a line break or spaces at its ends; WordPress drops its
        // inner spaces itself ("abcd efgh …" is how it shows one).
        password: values.password.trim(),
        ...(values.name.trim() ? { name: values.name.trim() } : {}),
      });
      onConnected(site);
    } catch (err) {
      const placed = placeRefusal(err, SITE_FORM.map(([n]) => n));
      setErrors(placed.fields);
      setFormError(placed.form);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog title={t('sites.connect_title')} onRequestClose={onClose} closeLabel={t('action.close')} className="account-dialog">
      <form onSubmit={submit} noValidate>
        <p className="field-hint">{t('sites.connect_hint')}</p>
        {formError && (
          <div className="form-error" role="alert">
            {formError}
          </div>
        )}
        {SITE_FORM.map(([name, def], i) => (
          <FieldControl
            key={name}
            name={name}
            def={def}
            value={values[name]}
            error={errors[name]}
            autoFocus={i === 0}
            onChange={(v) => {
              setValues((cur) => ({ ...cur, [name]: String(v ?? '') }));
              if (errors[name]) setErrors(({ [name]: _gone, ...rest }) => rest);
            }}
          />
        ))}
        <p className="field-hint">{t('sites.password_hint')}</p>
        <footer className="dialog-footer">
          <span className="spacer" />
          <button type="button" className="button" onClick={onClose}>
            {t('action.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={busy} aria-busy={busy}>
            {busy ? t('sites.connecting') : t('sites.connect_button')}
          </button>
        </footer>
      </form>
    </Dialog>
  );
}
