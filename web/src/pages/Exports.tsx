import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useCancelJob, useStartExport } from '../api/mutations';
import { describeError } from '../api/errors';
import { useJob, useJobs, useTemplates } from '../api/hooks';
import { keys } from '../api/keys';
import { EXPORT_TYPES, isTerminal, type Job } from '../api/models';
import { useCatalogChoice } from '../components/CatalogPicker';
import { ErrorText } from '../components/ErrorText';
import { JobStateBadge, useJobKind } from '../components/JobStateBadge';
import { ProgressBar } from '../components/ProgressBar';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { useSession } from '../session/session';

/** Start an export (format or template), follow it live, download it, cancel it; all jobs below. */
export default function Exports() {
  const { t } = useI18n();
  const { departmentId, account } = useSession();
  // A role without `publish` sees the jobs but no start form (the server refuses the start anyway).
  const mayPublish = account.permissions.includes('publish');
  const { catalog, picker, isPending, error: catalogError } = useCatalogChoice();
  const templates = useTemplates();
  const jobs = useJobs(30);
  const startExport = useStartExport();
  const [exportType, setExportType] = useState<string>('BMEcat');
  const [templateId, setTemplateId] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function start(e: FormEvent) {
    e.preventDefault();
    if (!catalog) return;
    setError(null);
    try {
      await startExport.mutateAsync(
        templateId
          ? { departmentId, catalogId: catalog.catalogId, templateId }
          : { departmentId, catalogId: catalog.catalogId, exportType },
      );
    } catch (err) {
      setError(describeError(err, t));
    }
  }

  return (
    <>
      <div className="page-head">
        <h1>{t('exports.title')}</h1>
        <Link to="/exports/templates">{t('exports.templates')}</Link>
      </div>
      <QueryState isPending={isPending} error={catalogError}>
        {mayPublish ? (
          <form className="panel row wrap" onSubmit={start} aria-labelledby="start-h">
            <h2 id="start-h" className="visually-hidden">
              {t('exports.start')}
            </h2>
            {picker}
            <label className="inline-field">
              <span>{t('exports.template')}</span>
              <select value={templateId} onChange={(e) => setTemplateId(e.target.value)}>
                <option value="">{t('exports.noTemplate')}</option>
                {templates.data?.items.map((tp) => (
                  <option key={tp.templateId} value={tp.templateId}>
                    {tp.name} ({tp.exportType})
                  </option>
                ))}
              </select>
            </label>
            <label className="inline-field">
              <span>{t('exports.format')}</span>
              <select
                value={templateId ? '' : exportType}
                disabled={Boolean(templateId)}
                onChange={(e) => setExportType(e.target.value)}
              >
                {templateId && <option value="">{t('exports.fromTemplate')}</option>}
                {EXPORT_TYPES.map((f) => (
                  <option key={f} value={f}>
                    {t(`exports.type.${f}`)}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="primary" disabled={!catalog}>
              {t('exports.start')}
            </button>
            <ErrorText message={error} />
          </form>
        ) : (
          <p className="empty">{t('exports.notPermitted')}</p>
        )}
      </QueryState>
      <section aria-labelledby="jobs-h">
        <h2 id="jobs-h">{t('exports.jobs')}</h2>
        <QueryState isPending={jobs.isPending} error={jobs.error}>
          {jobs.data?.items.length ? (
            <ul className="job-list">
              {jobs.data.items.map((job) => (
                <JobCard key={job.jobId} job={job} />
              ))}
            </ul>
          ) : (
            <p className="empty">{t('exports.noJobs')}</p>
          )}
        </QueryState>
      </section>
    </>
  );
}

function JobCard({ job: listed }: { job: Job }) {
  const { t, date, num } = useI18n();
  const client = useQueryClient();
  const cancelJob = useCancelJob();
  // A running job is followed through GetJob (about once a second) until it ends.
  const live = useJob(isTerminal(listed.state) ? null : listed.jobId);
  const job = live.data ?? listed;
  const liveState = live.data?.state;
  useEffect(() => {
    if (liveState && isTerminal(liveState)) void client.invalidateQueries({ queryKey: keys.jobs });
  }, [liveState, client]);
  const kind = useJobKind();
  const [error, setError] = useState<string | null>(null);
  const cancel = async () => {
    setError(null);
    try {
      await cancelJob.mutateAsync({ jobId: job.jobId });
    } catch (err) {
      setError(describeError(err, t));
    }
  };
  const file = job.result && 'fileName' in job.result ? job.result : null;
  const fileName = file?.fileName ?? null;
  return (
    <li className="job-card">
      <div className="job-head">
        <strong>{kind(job.kind)}</strong> <JobStateBadge state={job.state} />
        <span className="muted">{date(job.createdAt)}</span>
      </div>
      {!isTerminal(job.state) && (
        <ProgressBar
          label={t('exports.progressOf', { kind: kind(job.kind) })}
          done={job.progress.done}
          total={job.progress.total}
        />
      )}
      {job.state === 'failed' && job.error && (
        <p className="error-text">{t('exports.failed', { reason: job.error })}</p>
      )}
      {job.warnings.length > 0 && (
        <details>
          <summary>{t('exports.warnings', { count: job.warnings.length })}</summary>
          <ul>
            {keyedByText(job.warnings.slice(0, 100)).map((w) => (
              <li key={w.key}>{w.text}</li>
            ))}
          </ul>
        </details>
      )}
      <div className="job-actions">
        {job.state === 'succeeded' && job.kind === 'export' && fileName && (
          <a className="button primary" href={`/api/Export/Download?jobId=${job.jobId}`} download={fileName}>
            {t('exports.download', { name: fileName })}
            {file ? ` (${num(Math.ceil(file.size / 1024))} KB)` : ''}
          </a>
        )}
        {!isTerminal(job.state) && (
          <button type="button" onClick={() => void cancel()}>
            {t('exports.cancel')}
          </button>
        )}
      </div>
      <ErrorText message={error} />
    </li>
  );
}

/** React keys for a list of messages that may repeat: the text plus how often it came before. */
function keyedByText(texts: string[]): { key: string; text: string }[] {
  const seen = new Map<string, number>();
  return texts.map((text) => {
    const n = seen.get(text) ?? 0;
    seen.set(text, n + 1);
    return { key: `${n}:${text}`, text };
  });
}
