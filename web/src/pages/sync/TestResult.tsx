import type { TestConnectionResult } from '../../api/models';
import { useI18n } from '../../i18n/i18n';
import { warningText } from '../../lib/sync-words';

/** What the shop said of itself on a test (name, languages, currencies, details) and what a run would lose, in plain words. */
export function TestResult({
  shop,
  warnings,
}: {
  shop: NonNullable<TestConnectionResult['shop']>;
  warnings: string[];
}) {
  const { t } = useI18n();
  const details = Object.entries(shop.details);
  return (
    <div className="stack">
      <p className="notice">
        {t('sync.testShop', {
          name: shop.name,
          languages: shop.languages.join(', ') || '–',
          currencies: shop.currencies.join(', ') || '–',
        })}
      </p>
      {details.length > 0 && (
        <details>
          <summary>{t('sync.testShopDetails')}</summary>
          <dl className="facts inline">
            {details.map(([key, value]) => (
              <div key={key}>
                <dt>{key}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </details>
      )}
      {warnings.length > 0 && (
        <section aria-label={t('sync.testWarnings')}>
          <h4>{t('sync.testWarnings')}</h4>
          <ul className="warnings">
            {warnings.map((w) => (
              <li key={w}>{warningText(w, t)}</li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
