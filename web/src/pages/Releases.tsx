import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { apiGet } from '../api/client';
import { describeError } from '../api/errors';
import { useJob } from '../api/hooks';
import { keys } from '../api/keys';
import { useStartReleaseLoad, useUploadImport } from '../api/mutations';
import { useAnnounce } from '../components/Announcer';
import { ErrorText } from '../components/ErrorText';
import { FormField } from '../components/FormField';
import { JobStateBadge } from '../components/JobStateBadge';
import { ProgressBar } from '../components/ProgressBar';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { useSession } from '../session/session';
import { ReleaseActions } from './ReleaseActions';

const SYSTEMS = ['ETIM', 'ECLASS', 'PROFICLASS'] as const;
const FORMATS = ['PROFICLASS_CSV', 'ETIM_CSV', 'ECLASS_CSV', 'BMECAT_FEATURE_SYSTEM', 'ETIM_XML'] as const;
/** The counts a finished load reports, in the order shown. */
const COUNTS = ['classes', 'features', 'values', 'units', 'synonyms', 'classFeatures', 'classFeatureValues'] as const;

/**
 * The service operator loads an official classification release (docs/classification-releases.md):
 * the files are uploaded as an import's are, then StartReleaseLoad runs the load as a job; the
 * screen follows it and ends in its counts, or in the failing file, line and reason. A company
 * admin who is not the operator sees a note instead of the form (releases are shared by every
 * company), and the company's own actions (ReleaseActions: verify, upgrade). Below: the
 * releases loaded, loading or failed.
 */
export default function Releases() {
  const { t, num } = useI18n();
  const { isAdmin, isOperator } = useSession();
  const announce = useAnnounce();
  const upload = useUploadImport();
  const start = useStartReleaseLoad();
  const releases = useQuery({
    queryKey: keys.releases,
    queryFn: () => apiGet('Classification/GetReleases', {}),
    enabled: isAdmin || isOperator,
    refetchInterval: (q) => (q.state.data?.items.some((r) => r.status === 'loading') ? 2000 : false),
  });
  const [system, setSystem] = useState<string>('PROFICLASS');
  const [version, setVersion] = useState('');
  const [format, setFormat] = useState('');
  const [language, setLanguage] = useState('');
  const [replace, setReplace] = useState(false);
  const [files, setFiles] = useState<File[]>([]);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);
  const job = useJob(jobId);

  if (!isAdmin && !isOperator)
    return (
      <>
        <h1>{t('releases.title')}</h1>
        <p className="notice">{t('releases.notAllowed')}</p>
      </>
    );

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const next: Record<string, string> = {};
    if (!/^[0-9A-Za-z][0-9A-Za-z._-]{0,31}$/.test(version.trim())) next.version = t('releases.versionProblem');
    if (files.length === 0) next.files = t('releases.filesProblem');
    setProblems(next);
    if (Object.keys(next).length) return;
    setBusy(true);
    setJobId(null);
    try {
      const uploaded = [];
      for (const file of files) uploaded.push(await upload.mutateAsync({ file }));
      const started = await start.mutateAsync({
        system,
        version: version.trim(),
        format: (format || null) as (typeof FORMATS)[number] | null,
        files: uploaded.map((f) => ({ fileId: f.fileId, language: language.trim() || null })),
        replace,
      });
      if (started.jobId) setJobId(started.jobId);
      else announce(t('releases.alreadyLoaded', { release: `${system}-${version.trim()}` }));
    } catch (err) {
      setError(describeError(err, t));
    } finally {
      setBusy(false);
    }
  }

  const summary = job.data?.state === 'succeeded' ? job.data.summary : null;
  return (
    <>
      <h1>{t('releases.title')}</h1>
      <p className="muted">{t('releases.intro')}</p>
      {!isOperator && <p className="notice">{t('releases.operatorOnly')}</p>}
      {isOperator && (
        <section aria-labelledby="release-load-h" className="stack">
          <h2 id="release-load-h" className="h3">
            {t('releases.load')}
          </h2>
          <form className="form-grid" onSubmit={(e) => void submit(e)} noValidate>
            <FormField label={t('releases.system')}>
              {(p) => (
                <select {...p} value={system} onChange={(e) => setSystem(e.target.value)}>
                  {SYSTEMS.map((s) => (
                    <option key={s}>{s}</option>
                  ))}
                </select>
              )}
            </FormField>
            <FormField label={t('releases.version')} hint={t('releases.versionHint')} problem={problems.version}>
              {(p) => <input {...p} value={version} onChange={(e) => setVersion(e.target.value)} />}
            </FormField>
            <FormField label={t('releases.format')}>
              {(p) => (
                <select {...p} value={format} onChange={(e) => setFormat(e.target.value)}>
                  <option value="">{t('releases.formatAuto')}</option>
                  {FORMATS.map((f) => (
                    <option key={f}>{f}</option>
                  ))}
                </select>
              )}
            </FormField>
            <FormField label={t('releases.language')} hint={t('releases.languageHint')}>
              {(p) => <input {...p} value={language} onChange={(e) => setLanguage(e.target.value)} />}
            </FormField>
            <FormField label={t('releases.files')} hint={t('releases.filesHint')} problem={problems.files}>
              {(p) => <input {...p} type="file" multiple onChange={(e) => setFiles([...(e.target.files ?? [])])} />}
            </FormField>
            <label className="check">
              <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} />{' '}
              {t('releases.replace')}
            </label>
            <div className="form-actions">
              <button type="submit" className="primary" disabled={busy}>
                {busy ? t('common.working') : t('releases.start')}
              </button>
            </div>
          </form>
          <ErrorText message={error} />
          {job.data && (
            <div className="stack" aria-live="polite">
              <p>
                <JobStateBadge state={job.data.state} />
              </p>
              <ProgressBar
                done={job.data.progress.done}
                total={job.data.progress.total}
                label={t('releases.progress')}
              />
              {summary && (
                <dl className="file-facts" aria-label={t('releases.counts')}>
                  {COUNTS.map((k) => (
                    <div key={k} data-count={k}>
                      <dt>{t(`releases.count.${k}`)}</dt>
                      <dd>{num(summary[k] ?? 0)}</dd>
                    </div>
                  ))}
                </dl>
              )}
              {job.data.warnings.length > 0 && (
                <ul aria-label={t('releases.warnings')}>
                  {job.data.warnings.map((w) => (
                    <li key={w}>{w}</li>
                  ))}
                </ul>
              )}
              <ErrorText
                message={job.data.state === 'failed' ? t('releases.failed', { reason: job.data.error ?? '' }) : null}
              />
            </div>
          )}
        </section>
      )}
      {isAdmin && (
        <ReleaseActions
          loaded={(releases.data?.items ?? []).filter((r) => r.status === 'loaded').map((r) => r.release)}
        />
      )}
      <section aria-labelledby="release-list-h">
        <h2 id="release-list-h" className="h3">
          {t('releases.list')}
        </h2>
        <QueryState isPending={releases.isPending} error={releases.error}>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t('releases.release')}</th>
                <th scope="col">{t('releases.status')}</th>
                <th scope="col">{t('releases.format')}</th>
                <th scope="col">{t('releases.languages')}</th>
                <th scope="col">{t('releases.count.classes')}</th>
                <th scope="col">{t('releases.count.features')}</th>
                <th scope="col">{t('releases.products')}</th>
              </tr>
            </thead>
            <tbody>
              {(releases.data?.items ?? []).map((r) => (
                <tr key={r.releaseId}>
                  <td>{r.release}</td>
                  <td title={r.error ?? undefined}>{t(`releases.state.${r.status}`)}</td>
                  <td>{r.format}</td>
                  <td>{r.languages.join(', ')}</td>
                  <td>{num(r.counts.classes ?? 0)}</td>
                  <td>{num(r.counts.features ?? 0)}</td>
                  <td>
                    {r.products > 0 ? (
                      <Link to={`/products?${new URLSearchParams({ classificationRelease: r.release })}`}>
                        {num(r.products)}
                      </Link>
                    ) : (
                      num(0)
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </QueryState>
      </section>
    </>
  );
}
