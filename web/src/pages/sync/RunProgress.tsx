import { useJob } from '../../api/hooks';
import { ProgressBar } from '../../components/ProgressBar';
import { useI18n } from '../../i18n/i18n';
import { runBarOf, shopProgressText } from '../../lib/sync-words';

/**
 * A queued or running sync's progress (Job/GetJob, polled until it ends): the records the shop
 * has done of the run's total once it is known (`recordsTotal`), else masters handled of the
 * catalog's; under the bar where the run stands against the shop (batches it took, records
 * done), which is what a slow shop holds back.
 */
export function RunProgress({ jobId }: { jobId: string }) {
  const { t, num } = useI18n();
  const job = useJob(jobId);
  const progress = job.data?.progress ?? { done: 0, total: 0 };
  const shop = shopProgressText(progress, t, num);
  const bar = runBarOf(progress);
  return (
    <div className="stack">
      <ProgressBar
        done={bar.done}
        total={bar.total}
        label={bar.counts === 'records' ? t('sync.progressRecords') : t('sync.progress')}
      />
      {shop && <small className="muted">{shop}</small>}
    </div>
  );
}
