import type { ImportDetail } from '../../api/models';
import { useI18n } from '../../i18n/i18n';
import { ignoredParts } from '../../lib/import-mode';
import { reasonText, summaryTotals } from '../../lib/import-report';
import type { MessageKey } from '../../i18n/de';

/** The facts read from the file's head: format, version, transaction, encoding, languages. */
export function FileFacts({ detail }: { detail: ImportDetail }) {
  const { t } = useI18n();
  const f = detail.file;
  const or = (v: string | null | undefined) => v || t('imports.unknown');
  return (
    <dl className="facts file-facts">
      <dt>{t('imports.fileName')}</dt>
      <dd>{detail.fileName}</dd>
      <dt>{t('imports.format')}</dt>
      <dd>{or(f?.format)}</dd>
      <dt>{t('imports.version')}</dt>
      <dd>{or(f?.version)}</dd>
      <dt>{t('imports.transaction')}</dt>
      <dd>{or(f?.transaction)}</dd>
      <dt>{t('imports.encoding')}</dt>
      <dd>{or(f?.encoding?.toUpperCase())}</dd>
      <dt>{t('imports.languages')}</dt>
      <dd>{f?.languages.length ? f.languages.join(', ') : t('imports.unknown')}</dd>
    </dl>
  );
}

/** The totals of a finished import or check (a check's "new" and "changed" are what would happen). */
export function Counts({ summary }: { summary: ImportDetail['summary'] }) {
  const { t, num } = useI18n();
  const totals = summaryTotals(summary);
  if (!totals.length) return null;
  return (
    <dl className="facts inline counts">
      {totals.map(([k, n]) => (
        <div key={k} className="count" data-count={k}>
          <dt>{t(`imports.count.${k}` as MessageKey)}</dt>
          <dd>{num(n)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Rejections, then warnings, grouped by reason with their count and first rows; the CSV has them all. */
export function ReportGroups({ detail }: { detail: ImportDetail }) {
  const { t, num } = useI18n();
  if (!detail.groups.length) return <p className="empty">{t('imports.reportEmpty')}</p>;
  return (
    <ul className="report-groups">
      {detail.groups.map((g) => (
        <li key={`${g.kind}.${g.code}`} className={`report-group ${g.kind}`} data-reason={g.code}>
          <details open={g.kind === 'rejected'}>
            <summary>
              <span className={`badge ${g.kind === 'rejected' ? 'state-failed' : 'state-queued'}`}>
                {t(`imports.kind.${g.kind}`)}
              </span>{' '}
              <strong>{num(g.count)}×</strong> {reasonText(g.code, g.label, t)}
            </summary>
            <ul>
              {g.rows.map((r) => (
                <li key={`${r.position}:${r.location}`}>
                  {r.sku && <code>{r.sku}</code>} <span className="muted">{r.location}</span>: {r.reason}
                </li>
              ))}
            </ul>
            {g.count > g.rows.length && (
              <p className="muted">{t('imports.more', { count: num(g.count - g.rows.length) })}</p>
            )}
          </details>
        </li>
      ))}
    </ul>
  );
}

/**
 * What a texts-only import left out of the file (the job's warnings, docs/teams.md): each part
 * once, with how many products had it and the first of them; nothing of it was written.
 */
export function IgnoredParts({ detail }: { detail: ImportDetail }) {
  const { t, num } = useI18n();
  const { ignored } = ignoredParts(detail.job.warnings);
  if (!ignored.length) return null;
  return (
    <div className="ignored-parts">
      <h3>{t('imports.ignored.title')}</h3>
      <p className="muted">{t('imports.ignored.intro')}</p>
      <ul>
        {ignored.map((part) => (
          <li key={part.field} data-ignored={part.field}>
            {part.language ? t('imports.ignored.texts', { language: part.language }) : <code>{part.field}</code>}
            {': '}
            {t('imports.ignored.count', { count: num(part.count) })}
            {part.examples.length > 0 && (
              <span className="muted"> ({t('imports.ignored.examples', { skus: part.examples.join(', ') })})</span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The report CSV of a finished import or check. */
export function ReportDownload({ detail }: { detail: ImportDetail }) {
  const { t } = useI18n();
  if (detail.state !== 'succeeded') return null;
  return (
    <a className="button" href={`/api/Import/DownloadReport?jobId=${detail.jobId}`} download>
      {t('imports.download')}
    </a>
  );
}
