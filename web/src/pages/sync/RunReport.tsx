import type { SyncReport } from '../../api/models';
import { useI18n } from '../../i18n/i18n';
import { useCategoryPaths } from '../../api/hooks';
import { changeRows, fieldLabel, reasonText, referenceText, subtreeRunText } from '../../lib/sync-words';
import { categoryScopeNames } from '../../lib/team';

/**
 * The outcome of one sync run: counts, quarantined SKUs with the reason in plain words, the plan
 * of a dry run and, against a real shop, its changes per product (docs/web.md "Shops").
 */
export function RunReport({ report }: { report: SyncReport }) {
  const { t, num } = useI18n();
  const plan = report.plan;
  const subtreePaths = useCategoryPaths(report.subtree?.categoryIds ?? []);
  const subtreeNames = categoryScopeNames(subtreePaths.map((q) => q.data));
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
        {report.unchanged !== undefined && (
          <>
            <dt>{t('sync.unchangedInShop')}</dt>
            <dd>{num(report.unchanged)}</dd>
          </>
        )}
        <dt>{t('sync.batches')}</dt>
        <dd>
          {num(report.batches?.sent ?? 0)} / {num(report.batches?.retried ?? 0)}
        </dd>
        <dt>{t('sync.duration')}</dt>
        <dd>{num(Math.round((report.durationMs ?? 0) / 100) / 10)} s</dd>
      </dl>
      {report.subtree ? (
        // a run of a member limited to category subtrees (docs/teams.md "Syncs"): nothing was taken out of the shop
        <p className="notice">{subtreeRunText(report.subtree, subtreeNames, t, num)}</p>
      ) : null}
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
                  <td>{reasonText(q.reason, t)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
      {report.changes && <Changes report={report} />}
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

/** A dry run's diff against the shop: per product its SKU, what happens and the fields that change. */
function Changes({ report }: { report: SyncReport }) {
  const { t, num } = useI18n();
  const rows = changeRows(report);
  const count = report.changesCount ?? rows.length;
  return (
    <details open>
      <summary>{t('sync.changes', { count: num(count) })}</summary>
      {rows.length === 0 ? (
        <p className="muted">{t('sync.changesNone')}</p>
      ) : (
        <table className="table compact changes">
          <thead>
            <tr>
              <th scope="col">{t('field.sku')}</th>
              <th scope="col">{t('sync.change')}</th>
              <th scope="col">{t('sync.changedFields')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.sku}>
                <th scope="row">{row.sku}</th>
                <td>
                  <span className={`badge op-${row.op}`}>{t(`sync.op.${row.op}`)}</span>
                </td>
                <td>
                  {row.fields.map((f) => fieldLabel(f, t)).join(', ')}
                  {row.variants.map((v) => (
                    <div key={v.sku}>
                      {t('sync.variant', { sku: v.sku })}:{' '}
                      {v.fields.length
                        ? v.fields.map((f) => fieldLabel(f, t)).join(', ')
                        : t('sync.variantAddedRemoved')}
                    </div>
                  ))}
                  {row.more > 0 && <div className="muted">{t('sync.changeMore', { count: num(row.more) })}</div>}
                  {row.references.map((reference) => (
                    <div key={`${reference.type}:${reference.number}`}>{referenceText(reference, t)}</div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {count > rows.length && (
        <p className="muted">{t('sync.changesListed', { shown: num(rows.length), count: num(count) })}</p>
      )}
    </details>
  );
}
