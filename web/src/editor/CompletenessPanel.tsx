import { Link } from 'react-router';
import { useCompleteness, useContentLanguages } from '../api/hooks';
import type { ProductDetail } from '../api/models';
import { CompletenessBadge } from '../components/CompletenessBadge';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { fieldHref, fieldTarget } from '../lib/completeness';
import { languageName } from '../lib/content-language';

/**
 * What the product still lacks, per channel and language (GetCompleteness): each missing
 * requirement links to the field or tab that fixes it (lib/completeness.ts `fieldTarget`). The
 * query is under the product's key, so a save anywhere in the editor shows the new score.
 */
export function CompletenessPanel({ product }: { product: ProductDetail }) {
  const { t } = useI18n();
  const result = useCompleteness(product.productId);
  const known = useContentLanguages().data?.available ?? [];
  const channels = result.data?.channels ?? [];
  return (
    <QueryState isPending={result.isPending} error={result.error}>
      {channels.length === 0 ? (
        <p className="empty">{product.parentId ? t('completeness.variant') : t('completeness.noChannels')}</p>
      ) : (
        channels.map((c) => (
          <section key={c.channelId} className="panel completeness-channel" aria-labelledby={`ch-${c.channelId}`}>
            <h2 id={`ch-${c.channelId}`}>{c.name}</h2>
            <ul className="plain-list">
              {c.languages.map((l) => (
                <li key={l.language}>
                  <h3 className="completeness-language">
                    {languageName(l.language, known)}{' '}
                    <CompletenessBadge score={l.score} missing={l.missing.map((m) => m.requirement)} />
                  </h3>
                  {l.missing.length === 0 ? (
                    <p className="muted">{t('completeness.complete')}</p>
                  ) : (
                    <ul aria-label={t('completeness.missingIn', { channel: c.name, language: l.language })}>
                      {l.missing.map((m) => (
                        <li key={m.requirement}>
                          <Link to={fieldHref(product.productId, fieldTarget(m.field))}>
                            {t('completeness.fix', { requirement: m.requirement })}
                          </Link>
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
    </QueryState>
  );
}
