import type { JobState } from '../api/models';
import { useI18n } from '../i18n/i18n';

export function JobStateBadge({ state }: { state: JobState }) {
  const { t } = useI18n();
  return <span className={`badge state-${state}`}>{t(`job.state.${state}`)}</span>;
}

/** "export", "massEdit", "sync" in the user's words. */
export function useJobKind() {
  const { t } = useI18n();
  return (kind: string) => {
    if (kind === 'export') return t('job.kind.export');
    if (kind === 'massEdit') return t('job.kind.massEdit');
    if (kind === 'sync') return t('job.kind.sync');
    return kind;
  };
}
