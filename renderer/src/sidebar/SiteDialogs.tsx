/**
 * "Connect a website…" (issue 26 item 1): the site's address as a person types it, the user name,
 * an application password (pasted from the site's profile page; for another Almanac, its API
 * token) and an optional name. The server finds the API, proves the login and answers; a refusal
 * lands on the field it names (`data.params` of the error). The password field starts empty every
 * time and nothing ever fills it from the server.
 */
import { useEffect, useState } from 'react';
import type { SiteAuthorizeResult } from '@shared/desktop-bridge';
import { useTranslation } from 'react-i18next';
import { siteFields } from '@shared/schema/sites';
import { Dialog } from '../components/Dialog';
import { FieldFormFields, FieldFormFooter, useFieldForm } from '../components/FieldForm';
import { formFields } from '../editor/form';
import { useSites, type SiteJson } from '../state/sites';

/**
 * The fields `POST /sites` takes, from their one declaration (shared/schema/sites.ts). The colour
 * is chosen afterwards on the site's calendar; the API root is found by the server, and only
 * scripts for a site that hides its index name it.
 */
const SITE_FORM = formFields(siteFields).filter(([name]) => name !== 'color' && name !== 'api_root');

export function ConnectSiteDialog({ onClose, onConnected }: { onClose(): void; onConnected(site: SiteJson): void }) {
  const { t } = useTranslation();
  const form = useFieldForm(SITE_FORM, { url: '', user: '', password: '', name: '' });
  const { values, setErrors, fill } = form;
  const [notice, setNotice] = useState<string | null>(null);
  const bridge = typeof window !== 'undefined' ? window.almanac : undefined;

  // The site's approval came back (desktop app): its fields go in, and the user connects.
  const authorized = useSites((s) => s.authorized);
  useEffect(() => {
    if (!authorized) return;
    const a = useSites.getState().takeAuthorized();
    if (!a) return;
    fill({ url: a.url, user: a.user, password: a.password });
    setNotice(t('sites.approved'));
    // `fill` is a new function each render: the approval alone is what this waits for.
  }, [authorized, t]);

  /** WordPress's "authorize application": the site's own page, in the browser. */
  async function approveInBrowser() {
    if (!bridge?.authorizeSite) return;
    if (!values.url.trim()) return setErrors({ url: t('errors.required') });
    setErrors({});
    setNotice(null);
    let result: SiteAuthorizeResult;
    try {
      result = await bridge.authorizeSite(values.url.trim());
    } catch (err) {
      return form.setFormError(String((err as Error)?.message ?? err));
    }
    if (result.status === 'opened') setNotice(t('sites.approve_opened'));
    else setErrors({ url: t(`sites.approve_failed.${result.reason}`) });
  }

  const submit = form.onSubmit(async (values) => {
    const site = await useSites.getState().connect({
      url: values.url.trim(),
      user: values.user.trim(),
      // A pasted password often brings a line break or spaces at its ends; WordPress drops its
      // inner spaces itself ("abcd efgh …" is how it shows one).
      password: values.password.trim(),
      ...(values.name.trim() ? { name: values.name.trim() } : {}),
    });
    onConnected(site);
  });

  return (
    <Dialog title={t('sites.connect_title')} onRequestClose={onClose} closeLabel={t('action.close')} className="account-dialog">
      <form onSubmit={submit} noValidate>
        <p className="field-hint">{t('sites.connect_hint')}</p>
        <FieldFormFields form={form} />
        <p className="field-hint">{t('sites.password_hint')}</p>
        {bridge?.authorizeSite && (
          <p className="field-hint">
            <button type="button" className="button button-small" onClick={() => void approveInBrowser()}>
              {t('sites.approve_in_browser')}
            </button>
          </p>
        )}
        {notice && (
          <p className="field-hint" role="status">
            {notice}
          </p>
        )}
        <FieldFormFooter form={form} onCancel={onClose} submitLabel={t('sites.connect_button')} busyLabel={t('sites.connecting')} />
      </form>
    </Dialog>
  );
}
