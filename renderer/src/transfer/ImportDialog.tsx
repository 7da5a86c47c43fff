/**
 * Import a file into the calendar: iCalendar, CSV (events, venues or organizers) or a JSON backup.
 * The import runs on the server in the background; this shows how far it got, lets the user stop
 * it (nothing is kept then), and at the end tells what happened item by item, problems first.
 */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImportReport, RestoreReport } from '@shared/api/import-report';
import { IMPORT_LIMIT_BYTES, IMPORT_LIMIT_LABEL } from '@shared/api/import-limit';
import { FORMAT_HEAD_CHARS, importFormat, type ImportFormat } from '@shared/import-format';
import type { ImportRequest, PostKind } from '../api/client';
import { Dialog } from '../components/Dialog';
import { useImports } from '../state/imports';
import { useUi } from '../state/ui';

/** The format the server will read the file as (shared/import-format.ts): its first characters, else its name. */
async function formatOfFile(file: File, explicit: ImportFormat | undefined): Promise<ImportFormat> {
  const head = await file
    .slice(0, FORMAT_HEAD_CHARS)
    .text()
    .catch(() => '');
  return importFormat(head, file.name, explicit);
}

/** Problems listed in the dialog; the rest are counted. */
const SHOWN_PROBLEMS = 50;

function Summary({ report }: { report: ImportReport | RestoreReport }) {
  const { t } = useTranslation();
  if ('restored' in report) {
    return <p role="status">{t(report.dry_run ? 'import.restore_dry' : 'desktop.restored', { count: Object.values(report.restored).reduce((a, b) => a + b, 0) })}</p>;
  }
  const problems = [...report.errors, ...report.warnings];
  const headingId = useId();
  return (
    <>
      <p role="status">{t(report.dry_run ? 'desktop.import_dry' : 'desktop.imported', { created: report.created, updated: report.updated, skipped: report.skipped })}</p>
      {problems.length > 0 && (
        <section aria-labelledby={headingId}>
          <h3 id={headingId} className="import-problems-title">
            {t('import.problems', { count: problems.length })}
          </h3>
          <ul className="import-problems">
            {problems.slice(0, SHOWN_PROBLEMS).map((p, i) => (
              <li key={i}>{p.message}</li>
            ))}
            {problems.length > SHOWN_PROBLEMS && <li>{t('import.more_problems', { count: problems.length - SHOWN_PROBLEMS })}</li>}
          </ul>
        </section>
      )}
    </>
  );
}

export function ImportDialog({ preset }: { preset: ImportRequest }) {
  const { t } = useTranslation();
  const { status, job, error, request, start, cancel, reset } = useImports();
  const [file, setFile] = useState<File | null>(null);
  const [kind, setKind] = useState<PostKind>(preset.kind ?? 'events');
  const [skipInvalid, setSkipInvalid] = useState(false);
  // Until the file's first characters are read, its name stands in for them.
  const [read, setRead] = useState<{ file: File; format: ImportFormat } | null>(null);
  const format = file ? (read?.file === file ? read.format : importFormat('', file.name, preset.format)) : preset.format;
  const choose = (picked: File | null) => {
    setFile(picked);
    if (picked) void formatOfFile(picked, preset.format).then((f) => setRead({ file: picked, format: f }));
  };
  const close = () => {
    // A running import goes on; its outcome shows in the calendar. Finished ones are cleared.
    if (status !== 'running' && status !== 'sending') reset();
    useUi.getState().closeImport();
  };

  const tooLarge = !!file && file.size > IMPORT_LIMIT_BYTES;
  const run = async (dryRun: boolean) => {
    if (!file || tooLarge) return;
    // The format sent is the one the content says, so the server reads the file as shown here; a
    // backup the form did not warn about yet is not restored: the warning shows first.
    const sent = await formatOfFile(file, preset.format);
    if (sent !== format) {
      setRead({ file, format: sent });
      if (sent === 'json' && !dryRun) return;
    }
    void start(file, { format: sent, kind: sent === 'csv' ? kind : undefined, dryRun, skipInvalid: sent !== 'json' && skipInvalid });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(false);
  };

  const busy = status === 'sending' || status === 'running';
  const report = job?.state === 'done' ? job.report : null;
  const percent = job && job.total > 0 ? Math.floor((job.done / job.total) * 100) : 0;

  return (
    <Dialog title={t('import.title')} onRequestClose={close} closeLabel={t('action.close')} className="import-dialog">
      {status === 'idle' || (status === 'failed' && !job) ? (
        <form onSubmit={submit} noValidate>
          <div className="import-body">
            {(error || tooLarge) && (
              <div className="form-error" role="alert">
                {tooLarge ? t('import.too_large', { limit: IMPORT_LIMIT_LABEL }) : error}
              </div>
            )}
            <div className="field">
              <label className="field-label" htmlFor="import-file">
                {t('import.file')}
              </label>
              <input
                id="import-file"
                type="file"
                data-autofocus
                accept=".ics,.ical,.csv,.json,text/calendar,text/csv,application/json"
                onChange={(e) => choose(e.target.files?.[0] ?? null)}
              />
              <p className="field-hint">{t('import.formats')}</p>
            </div>
            {format === 'csv' && (
              <div className="field">
                <label className="field-label" htmlFor="import-kind">
                  {t('import.contents')}
                </label>
                <select id="import-kind" value={kind} onChange={(e) => setKind(e.target.value as PostKind)}>
                  {(['events', 'venues', 'organizers'] as const).map((k) => (
                    <option key={k} value={k}>
                      {t(`import.kind.${k}`)}
                    </option>
                  ))}
                </select>
              </div>
            )}
            {format === 'json' ? (
              <p className="import-warning" role="note">
                {t('import.restore_warning')}
              </p>
            ) : (
              <div className="field field-check">
                <input id="import-skip" type="checkbox" checked={skipInvalid} onChange={(e) => setSkipInvalid(e.target.checked)} />
                <label htmlFor="import-skip">{t('import.skip_invalid')}</label>
              </div>
            )}
          </div>
          <footer className="dialog-footer">
            <span className="spacer" />
            <button type="button" className="button" disabled={!file} onClick={() => void run(true)}>
              {t('import.check')}
            </button>
            <button type="submit" className={`button ${format === 'json' ? 'button-danger' : 'button-primary'}`} disabled={!file}>
              {format === 'json' ? t('import.restore') : t('import.start')}
            </button>
          </footer>
        </form>
      ) : (
        <div className="import-body-wrap">
          <div className="import-body">
            {busy && (
              <>
                <progress className="import-progress" aria-label={t('import.progress_label')} max={100} value={status === 'sending' ? undefined : percent} />
                <p aria-live="polite">
                  {status === 'sending' || !job
                    ? t('import.sending')
                    : job.phase === 'reading'
                      ? t('import.reading', { percent })
                      : t('import.writing', { done: job.done.toLocaleString(), total: job.total.toLocaleString() })}
                </p>
              </>
            )}
            {status === 'cancelled' && <p role="status">{t('import.cancelled')}</p>}
            {status === 'failed' && (
              <div className="form-error" role="alert">
                {error}
              </div>
            )}
            {job?.state === 'failed' && job.error?.data?.errors !== undefined && (
              <ul className="import-problems">
                {(job.error.data.errors as Array<{ message: string }>).slice(0, SHOWN_PROBLEMS).map((p, i) => (
                  <li key={i}>{p.message}</li>
                ))}
              </ul>
            )}
            {report && <Summary report={report} />}
          </div>
          <footer className="dialog-footer">
            <span className="spacer" />
            {busy ? (
              <button type="button" className="button" autoFocus onClick={() => void cancel()} disabled={status !== 'running'}>
                {t('import.stop')}
              </button>
            ) : (
              <>
                <button
                  type="button"
                  className="button"
                  onClick={() => {
                    setFile(null);
                    reset();
                  }}
                >
                  {t('import.another')}
                </button>
                {report?.dry_run && file && (
                  <button type="button" className="button button-primary" onClick={() => void start(file, { ...request, dryRun: false })}>
                    {t('import.now')}
                  </button>
                )}
                <button type="button" className={`button ${report?.dry_run ? '' : 'button-primary'}`} autoFocus onClick={close}>
                  {t('action.close')}
                </button>
              </>
            )}
          </footer>
        </div>
      )}
    </Dialog>
  );
}
