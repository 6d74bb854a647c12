import { useJob } from '../../api/hooks';
import { ProgressBar } from '../../components/ProgressBar';
import { useI18n } from '../../i18n/i18n';

/** A queued or running sync's progress (Job/GetJob, polled until it ends): masters handled of the catalog's. */
export function RunProgress({ jobId }: { jobId: string }) {
  const { t } = useI18n();
  const job = useJob(jobId);
  const progress = job.data?.progress ?? { done: 0, total: 0 };
  return <ProgressBar done={progress.done} total={progress.total} label={t('sync.progress')} />;
}
