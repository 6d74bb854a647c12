import { useState } from 'react';
import { Link } from 'react-router';
import { useIncompleteVariants } from '../../api/hooks';
import { QueryState } from '../../components/QueryState';
import { useI18n } from '../../i18n/i18n';

/**
 * The incomplete variants of the grid's channel and language (docs/completeness.md "Variants"),
 * shown below the completeness filters when "incomplete variants" is ticked: the grid lists
 * masters, and a variant's score is its own (what it inherits counted as its master's). Worst
 * first, 50 a page, each with its master and what is missing; the "missing X" filter applies.
 */
export function IncompleteVariants({
  channel,
  language,
  requirement,
}: {
  channel: string;
  language: string;
  requirement: string | undefined;
}) {
  const { t, num } = useI18n();
  const [cursors, setCursors] = useState<string[]>(['']);
  const cursor = cursors.at(-1) ?? '';
  const page = useIncompleteVariants(channel, language, requirement, cursor);
  return (
    <section className="incomplete-variants" aria-label={t('completeness.variantsList')}>
      <QueryState isPending={page.isPending} error={page.error}>
        {page.data && page.data.items.length === 0 ? (
          <p>{t('completeness.variantsNone')}</p>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t('completeness.variantSku')}</th>
                <th scope="col">{t('completeness.masterSku')}</th>
                <th scope="col">{t('completeness.column')}</th>
                <th scope="col">{t('completeness.missingRequirement')}</th>
              </tr>
            </thead>
            <tbody>
              {page.data?.items.map((v) => (
                <tr key={v.productId}>
                  <th scope="row">
                    <Link to={`/products/${v.productId}?tab=completeness`}>{v.sku ?? v.productId}</Link>
                  </th>
                  <td>{v.masterId ? <Link to={`/products/${v.masterId}`}>{v.masterSku ?? v.masterId}</Link> : null}</td>
                  <td>{num(v.score)} %</td>
                  <td>{v.missing.map((m) => m.requirement).join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
      <div className="pager">
        {cursors.length > 1 && (
          <button type="button" onClick={() => setCursors(cursors.slice(0, -1))}>
            {t('completeness.variantsPrevious')}
          </button>
        )}
        {page.data?.nextCursor && (
          <button type="button" onClick={() => setCursors([...cursors, page.data!.nextCursor!])}>
            {t('completeness.variantsNext')}
          </button>
        )}
      </div>
    </section>
  );
}
