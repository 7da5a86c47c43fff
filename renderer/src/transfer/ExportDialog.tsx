/**
 * Export from the calendar itself: the events as iCalendar (the whole calendar or what the
 * filters show) or the whole calendar as a JSON backup. The desktop app asks where to save in
 * the system's dialog (through the bridge); a browser tab downloads the file.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExportFormat } from '@shared/desktop-bridge';
import { Dialog } from '../components/Dialog';
import { api } from '../state/api';
import { useSettings } from '../state/settings';
import { toastError, toastInfo } from '../state/toasts';
import { useUi } from '../state/ui';
import { currentExportFilters } from './exportQuery';
import './export.css';

/** Starts the browser's download of `url` (same origin: the session cookie goes along). */
function download(url: string) {
  const a = document.createElement('a');
  a.href = url;
  a.download = '';
  document.body.append(a);
  a.click();
  a.remove();
}

export function ExportDialog() {
  const { t } = useTranslation();
  const close = useUi((s) => s.closeExport);
  const language = useSettings((s) => s.contentLanguage);
  const [format, setFormat] = useState<ExportFormat>('ics');
  const filters = currentExportFilters();
  // Every calendar hidden: the filters show nothing, so only the whole calendar can be exported.
  const filtered = filters !== null && Object.keys(filters).length > 0;
  const [scope, setScope] = useState<'all' | 'filtered'>(filtered ? 'filtered' : 'all');
  const [busy, setBusy] = useState(false);

  async function run(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    // A backup is the whole calendar whatever the filters say; the server ignores them for it.
    const query = format === 'ics' && scope === 'filtered' && filters ? filters : {};
    const bridge = window.almanac;
    if (!bridge) {
      download(api().url('export', { format, ...query }));
      close();
      return;
    }
    setBusy(true);
    try {
      const r = await bridge.exportFile(format, { language, filters: query });
      if (r.status === 'failed') toastError(r.message);
      if (r.status === 'saved') toastInfo(t('desktop.exported', { file: r.file }));
      if (r.status !== 'cancelled') close();
    } catch (err) {
      toastError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog title={t('export.title')} onRequestClose={close} closeLabel={t('action.close')} className="export-dialog">
      <form onSubmit={run} className="export-form">
        <fieldset className="export-choice">
          <legend className="field-label">{t('export.format')}</legend>
          <label>
            <input type="radio" name="export-format" checked={format === 'ics'} onChange={() => setFormat('ics')} data-autofocus />
            {t('export.ics')}
          </label>
          <label>
            <input type="radio" name="export-format" checked={format === 'json'} onChange={() => setFormat('json')} />
            {t('export.json')}
          </label>
        </fieldset>
        {format === 'ics' ? (
          <fieldset className="export-choice">
            <legend className="field-label">{t('export.events')}</legend>
            <label>
              <input type="radio" name="export-scope" checked={scope === 'all'} onChange={() => setScope('all')} />
              {t('export.all', { language: t(`language.name.${language}`) })}
            </label>
            <label>
              <input type="radio" name="export-scope" checked={scope === 'filtered'} disabled={!filtered} onChange={() => setScope('filtered')} />
              {filters === null ? t('export.nothing_shown') : filtered ? t('export.filtered') : t('export.no_filters')}
            </label>
          </fieldset>
        ) : (
          <p className="field-hint export-note">{t('export.json_note')}</p>
        )}
        <footer className="dialog-footer">
          <span className="spacer" />
          <button type="button" className="button" onClick={close}>
            {t('action.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={busy}>
            {window.almanac ? t('export.save') : t('export.download')}
          </button>
        </footer>
      </form>
    </Dialog>
  );
}
