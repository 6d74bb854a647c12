import { useI18n } from '../../i18n/i18n';
import type { SyncReport } from '../../api/models';

/** The outcome of one sync run: counts, quarantined SKUs with the reason, the plan of a dry run. */
export function RunReport({ report }: { report: SyncReport }) {
  const { t, num } = useI18n();
  const plan = report.plan;
  return (
    <div className="stack">
      <dl className="facts inline">
        <dt>{t('sync.created')}</dt>
        <dd>{num(report.created)}</dd>
        <dt>{t('sync.updated')}</dt>
        <dd>{num(report.updated)}</dd>
        <dt>{t('sync.skipped')}</dt>
        <dd>{num(report.skipped)}</dd>
        <dt>{t('sync.deactivated')}</dt>
        <dd>{num(report.deactivated)}</dd>
        <dt>{t('sync.batches')}</dt>
        <dd>
          {num(report.batches?.sent ?? 0)} / {num(report.batches?.retried ?? 0)}
        </dd>
        <dt>{t('sync.duration')}</dt>
        <dd>{num(Math.round((report.durationMs ?? 0) / 100) / 10)} s</dd>
      </dl>
      {report.deactivationsRefused ? (
        <p className="notice">{t('sync.refused', { count: num(report.deactivationsRefused) })}</p>
      ) : null}
      {report.quarantined?.length > 0 && (
        <details open>
          <summary>
            {t('sync.quarantined', { count: num(report.quarantinedCount ?? report.quarantined.length) })}
          </summary>
          <table className="table compact">
            <thead>
              <tr>
                <th scope="col">{t('field.sku')}</th>
                <th scope="col">{t('sync.reason')}</th>
              </tr>
            </thead>
            <tbody>
              {report.quarantined.map((q) => (
                <tr key={q.sku}>
                  <td>{q.sku}</td>
                  <td>{q.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
      {plan && (
        <details open>
          <summary>{t('sync.plan')}</summary>
          {(['create', 'update', 'deactivate'] as const).map((k) => (
            <div key={k}>
              <h4>{t(`sync.plan.${k}`, { count: `${num(plan[k].length)}${plan.truncated ? '+' : ''}` })}</h4>
              <p className="sku-list">{plan[k].slice(0, 200).join(', ') || '–'}</p>
            </div>
          ))}
        </details>
      )}
    </div>
  );
}
