import { Link } from 'react-router';
import { useCompletenessOverview, useCompletenessTrend, useContentLanguages } from '../../api/hooks';
import { QueryState } from '../../components/QueryState';
import { useI18n } from '../../i18n/i18n';
import { movement, sparkline } from '../../lib/completeness';
import { languageName } from '../../lib/content-language';

const SPARK_W = 120;
const SPARK_H = 24;

/**
 * The overview's completeness per channel and language (GetCompletenessOverview, from the
 * counters) with the last 30 days (GetCompletenessTrend): the mean score as a sparkline, drawn
 * for the eye only, and its movement in words for everyone. Each row opens the grid filtered to
 * the products incomplete there. Nothing while the company has no channel.
 */
export function CompletenessSection() {
  const { t, num } = useI18n();
  const overview = useCompletenessOverview();
  const trend = useCompletenessTrend(30);
  const known = useContentLanguages().data?.available ?? [];
  const items = overview.data?.items ?? [];
  if (overview.isSuccess && items.length === 0) return null;
  const seriesOf = (channelId: string, language: string) =>
    trend.data?.items.find((i) => i.channelId === channelId && i.language === language)?.points ?? [];
  return (
    <section aria-labelledby="completeness-h" className="panel">
      <h2 id="completeness-h">{t('completeness.overview')}</h2>
      <QueryState isPending={overview.isPending} error={overview.error}>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t('completeness.channel')}</th>
              <th scope="col">{t('completeness.channelLanguage')}</th>
              <th scope="col">{t('completeness.completeOf')}</th>
              <th scope="col">{t('completeness.averageScore')}</th>
              <th scope="col">{t('completeness.variantsColumn')}</th>
              <th scope="col">{t('completeness.last30')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((i) => {
              const scores = seriesOf(i.channelId, i.language).map((p) => p.averageScore);
              const moved = movement(scores);
              const params = new URLSearchParams({
                completenessChannel: i.channelId,
                channelLanguage: i.language,
                incompleteFor: i.channelId,
                sort: 'completeness',
              });
              return (
                <tr key={`${i.channelId}-${i.language}`}>
                  <th scope="row">
                    <Link to={`/products?${params.toString()}`}>{i.name}</Link>
                  </th>
                  <td>{languageName(i.language, known)}</td>
                  <td>{t('completeness.completeCount', { complete: num(i.complete), products: num(i.products) })}</td>
                  <td>{num(i.averageScore)} %</td>
                  <td>
                    {t('completeness.variantsCount', {
                      incomplete: num(i.incompleteVariants),
                      variants: num(i.variants),
                    })}
                  </td>
                  <td className="trend-cell">
                    {scores.length > 1 && (
                      <svg width={SPARK_W} height={SPARK_H} aria-hidden="true" className="sparkline">
                        <polyline points={sparkline(scores, SPARK_W, SPARK_H)} fill="none" strokeWidth="2" />
                      </svg>
                    )}{' '}
                    <span>
                      {scores.length < 2
                        ? t('completeness.trendNone')
                        : moved === 0
                          ? t('completeness.trendFlat', { days: num(scores.length) })
                          : t(moved > 0 ? 'completeness.trendUp' : 'completeness.trendDown', {
                              points: num(Math.abs(moved)),
                              days: num(scores.length),
                            })}
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </QueryState>
    </section>
  );
}
