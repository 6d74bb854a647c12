import { useI18n } from '../i18n/i18n';
import { scoreTone } from '../lib/completeness';

/** A score as a badge (`66 %`), its tone by score; what is missing is read out after it (and its tooltip). */
export function CompletenessBadge({ score, missing }: { score: number; missing: readonly string[] }) {
  const { t, num } = useI18n();
  const detail = missing.length
    ? t('completeness.missingList', { missing: missing.join(', ') })
    : t('completeness.complete');
  return (
    <span className={`badge badge-score badge-${scoreTone(score)}`} title={detail}>
      {num(score)} %<span className="visually-hidden"> {detail}</span>
    </span>
  );
}
