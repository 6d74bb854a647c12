import { useImports } from '../../api/hooks';
import { JobStateBadge } from '../../components/JobStateBadge';
import { QueryState } from '../../components/QueryState';
import { useI18n } from '../../i18n/i18n';

/** The catalog's past imports (and checks), newest first: file, state, result, who and when. */
export function ImportList({ catalogId }: { catalogId: string | undefined }) {
  const { t, date, num } = useI18n();
  const imports = useImports(catalogId);
  return (
    <section aria-labelledby="imports-past-h">
      <h2 id="imports-past-h">{t('imports.past')}</h2>
      <QueryState isPending={imports.isPending && Boolean(catalogId)} error={imports.error}>
        {imports.data?.items.length ? (
          <table className="table imports-table">
            <thead>
              <tr>
                <th scope="col">{t('imports.col.file')}</th>
                <th scope="col">{t('imports.col.state')}</th>
                <th scope="col">{t('imports.col.counts')}</th>
                <th scope="col">{t('imports.col.who')}</th>
                <th scope="col">{t('imports.col.when')}</th>
              </tr>
            </thead>
            <tbody>
              {imports.data.items.map((i) => (
                <tr key={i.jobId}>
                  <td>
                    {i.fileName ?? '—'} {i.dryRun && <span className="badge">{t('imports.dryRunTag')}</span>}
                  </td>
                  <td>
                    <JobStateBadge state={i.state} />
                  </td>
                  <td>
                    {i.summary
                      ? t('imports.countsLine', {
                          created: num(i.summary.created ?? 0),
                          updated: num(i.summary.updated ?? 0),
                          rejected: num(i.summary.rejected ?? 0),
                          warnings: num(i.summary.warnings ?? 0),
                        })
                      : '—'}
                  </td>
                  <td>{i.startedBy ?? '—'}</td>
                  <td>{date(i.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="empty">{t('imports.none')}</p>
        )}
      </QueryState>
    </section>
  );
}
