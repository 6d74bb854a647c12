import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { describeError } from '../api/errors';
import { useContentLanguages, useImport } from '../api/hooks';
import { describeImportFailure } from '../api/import-errors';
import { keys } from '../api/keys';
import { type ImportDetail, type ImportMode, isTerminal } from '../api/models';
import { useStartImport, useUploadImport } from '../api/mutations';
import type { UploadedFile } from '../api/upload';
import { useCatalogChoice } from '../components/CatalogPicker';
import { ErrorText } from '../components/ErrorText';
import { ProgressBar } from '../components/ProgressBar';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { languageName } from '../lib/content-language';
import { importChoice } from '../lib/import-mode';
import { useMay, useSession } from '../session/session';
import { DropZone } from './imports/DropZone';
import { ImportList } from './imports/ImportList';
import { Counts, FileFacts, IgnoredParts, ReportDownload, ReportGroups } from './imports/ImportResult';

/**
 * A supplier file from upload to report (docs/web.md, "Imports"): drop or choose the file, it
 * uploads with progress, a dry run checks it at once and shows the file's format, languages and
 * what would happen; the user picks the options and starts; the import runs live and ends in
 * the report grouped by reason. The catalog's past imports are listed below.
 */
export default function Imports() {
  const { t } = useI18n();
  const { departmentId, account } = useSession();
  // a role writing the catalog (`product.write`) chooses the mode; one writing texts only (a
  // translator) imports texts only; other roles see the past imports only
  const choice = importChoice({ productWrite: useMay('product.write'), textWrite: useMay('text.write') });
  const mayImport = choice.modes.length > 0;
  const known = useContentLanguages().data?.available;
  const client = useQueryClient();
  const { catalog, picker, isPending, error: catalogError } = useCatalogChoice();
  const uploadImport = useUploadImport();
  const startImport = useStartImport();
  const [sending, setSending] = useState<{ name: string; sent: number; total: number } | null>(null);
  const [file, setFile] = useState<UploadedFile | null>(null);
  const [checkId, setCheckId] = useState<string | null>(null);
  const [runId, setRunId] = useState<string | null>(null);
  const [mode, setMode] = useState<ImportMode>(choice.modes[0] ?? 'upsert');
  const [strict, setStrict] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const check = useImport(checkId);
  const run = useImport(runId);

  const finished = [check.data?.state, run.data?.state].filter((s) => s && isTerminal(s)).length;
  useEffect(() => {
    if (finished) void client.invalidateQueries({ queryKey: keys.imports });
  }, [finished, client]);

  function reset() {
    setFile(null);
    setCheckId(null);
    setRunId(null);
    setSending(null);
    setError(null);
  }

  async function begin(dryRun: boolean, fileId: string, options = { mode, strict }) {
    if (!catalog) return;
    setError(null);
    try {
      const { jobId } = await startImport.mutateAsync({
        departmentId,
        catalogId: catalog.catalogId,
        fileId,
        dryRun,
        ...options,
      });
      if (dryRun) setCheckId(jobId);
      else setRunId(jobId);
    } catch (err) {
      setError(describeError(err, t));
    }
  }

  async function onFile(chosen: File) {
    reset();
    setSending({ name: chosen.name, sent: 0, total: chosen.size });
    try {
      const uploaded = await uploadImport.mutateAsync({
        file: chosen,
        onProgress: (sent, total) => setSending({ name: chosen.name, sent, total }),
      });
      setFile(uploaded);
      await begin(true, uploaded.fileId);
    } catch (err) {
      setError(describeError(err, t));
    } finally {
      setSending(null);
    }
  }

  const busy = Boolean(sending) || startImport.isPending;
  return (
    <>
      <div className="page-head">
        <h1>{t('imports.title')}</h1>
      </div>
      <QueryState isPending={isPending} error={catalogError}>
        <div className="panel row wrap">{picker}</div>
        {!mayImport && <p className="muted">{t('imports.notPermitted')}</p>}
        {choice.imposed && (
          <p className="muted" data-testid="texts-only">
            {t('imports.textsOnlyImposed', {
              languages: account.languages.length
                ? account.languages.map((code) => languageName(code, known ?? [])).join(', ')
                : t('imports.everyLanguage'),
            })}
          </p>
        )}
        {mayImport && !file && !sending && <DropZone onFile={(f) => void onFile(f)} disabled={!catalog} />}
        {sending && (
          <section className="panel" aria-live="polite">
            <p>{t('imports.uploading', { name: sending.name })}</p>
            <ProgressBar
              label={t('imports.uploading', { name: sending.name })}
              done={sending.sent}
              total={sending.total}
            />
          </section>
        )}
        <ErrorText message={error} />
        {check.data && !runId && (
          <CheckPanel detail={check.data} onAgain={reset}>
            {check.data.state === 'succeeded' && file && (
              <form
                className="row wrap options"
                onSubmit={(e) => {
                  e.preventDefault();
                  void begin(false, file.fileId);
                }}
              >
                {!choice.imposed && (
                  <label className="inline-field">
                    <span>{t('imports.mode')}</span>
                    <select value={mode} onChange={(e) => setMode(e.target.value as ImportMode)}>
                      {choice.modes.map((m) => (
                        <option key={m} value={m}>
                          {t(`imports.mode.${m}`)}
                        </option>
                      ))}
                    </select>
                  </label>
                )}
                <label className="checkbox">
                  <input type="checkbox" checked={strict} onChange={(e) => setStrict(e.target.checked)} />
                  <span>{t('imports.strict')}</span>
                </label>
                <button type="button" disabled={busy} onClick={() => void begin(true, file.fileId)}>
                  {t('imports.recheck')}
                </button>
                <button type="submit" className="primary" disabled={busy}>
                  {t('imports.start')}
                </button>
                <button type="button" onClick={reset}>
                  {t('imports.another')}
                </button>
              </form>
            )}
          </CheckPanel>
        )}
        {run.data && <RunPanel detail={run.data} catalogName={catalog?.name ?? ''} onAgain={reset} />}
      </QueryState>
      <ImportList catalogId={catalog?.catalogId} />
    </>
  );
}

/** The dry run: live while it reads, then the file's facts, what would happen, and the groups. */
function CheckPanel({
  detail,
  onAgain,
  children,
}: {
  detail: ImportDetail;
  onAgain: () => void;
  children?: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <section className="panel stack" aria-labelledby="check-h">
      <h2 id="check-h">{t('imports.checkTitle')}</h2>
      {!isTerminal(detail.state) && (
        <>
          <p role="status">{t('imports.checking')}</p>
          <ProgressBar
            label={t('imports.checkProgress')}
            done={detail.job.progress.done}
            total={detail.job.progress.total}
          />
        </>
      )}
      <FileFacts detail={detail} />
      {detail.state === 'failed' && <Failure title={t('imports.checkFailed')} error={detail.error} onAgain={onAgain} />}
      {detail.state === 'succeeded' && (
        <>
          <Counts summary={detail.summary} />
          <ReportGroups detail={detail} />
          <IgnoredParts detail={detail} />
          {children}
        </>
      )}
    </section>
  );
}

/** The import itself: progress while it writes, then the counts, the report and its download. */
function RunPanel({
  detail,
  catalogName,
  onAgain,
}: {
  detail: ImportDetail;
  catalogName: string;
  onAgain: () => void;
}) {
  const { t } = useI18n();
  const done = detail.state === 'succeeded';
  return (
    <section className="panel stack" aria-labelledby="run-h">
      <h2 id="run-h">{done ? t('imports.doneTitle') : t('imports.running', { catalog: catalogName })}</h2>
      {!isTerminal(detail.state) && (
        <ProgressBar label={t('imports.progress')} done={detail.job.progress.done} total={detail.job.progress.total} />
      )}
      {detail.state === 'failed' && <Failure title={t('imports.failed')} error={detail.error} onAgain={onAgain} />}
      {detail.state === 'cancelled' && <p>{t('imports.cancelled')}</p>}
      {done && (
        <>
          <Counts summary={detail.summary} />
          <h3>{t('imports.report')}</h3>
          <ReportGroups detail={detail} />
          <IgnoredParts detail={detail} />
          <div className="row">
            <ReportDownload detail={detail} />
            <button type="button" onClick={onAgain}>
              {t('imports.another')}
            </button>
          </div>
        </>
      )}
    </section>
  );
}

/** A failed job in plain words (the import's own reasons), with a way to try another file. */
function Failure({ title, error, onAgain }: { title: string; error: string | null; onAgain: () => void }) {
  const { t } = useI18n();
  const words = error ? (describeImportFailure(error, t) ?? error) : null;
  return (
    <div className="failure" role="alert">
      <p>
        <strong>{title}</strong> {words}
      </p>
      <button type="button" onClick={onAgain}>
        {t('imports.another')}
      </button>
    </div>
  );
}
