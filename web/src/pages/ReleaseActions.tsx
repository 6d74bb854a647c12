import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { describeError } from '../api/errors';
import { useJob } from '../api/hooks';
import { usePlanReleaseUpgrade, useStartReleaseUpgrade, useStartVerifyCodes } from '../api/mutations';
import type { PostResult } from '../api/operations';
import { ErrorText } from '../components/ErrorText';
import { FormField } from '../components/FormField';
import { JobStateBadge } from '../components/JobStateBadge';
import { ProgressBar } from '../components/ProgressBar';
import { useI18n } from '../i18n/i18n';

type Plan = PostResult<'Classification/PlanReleaseUpgrade'>;

/** A job of this screen: its state, progress, counts and warnings (one line per reason, with how many). */
function JobReport({ jobId, label }: { jobId: string | null; label: string }) {
  const { t, num } = useI18n();
  const job = useJob(jobId);
  if (!job.data) return null;
  const summary = job.data.state === 'succeeded' ? (job.data.summary as Record<string, number> | null) : null;
  return (
    <div className="stack" aria-live="polite">
      <p>
        <JobStateBadge state={job.data.state} />
      </p>
      <ProgressBar done={job.data.progress.done} total={job.data.progress.total} label={label} />
      {summary && (
        <dl className="file-facts" aria-label={t('releases.jobCounts')}>
          {Object.entries(summary).map(([k, v]) => (
            <div key={k} data-count={k}>
              <dt>{k}</dt>
              <dd>{num(v)}</dd>
            </div>
          ))}
        </dl>
      )}
      {job.data.warnings.length > 0 && (
        <ul aria-label={t('releases.review')}>
          {job.data.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
      <ErrorText message={job.data.state === 'failed' ? (job.data.error ?? '') : null} />
    </div>
  );
}

/** The dry run's lines, each with how many classifications. */
function PlanLines({ title, lines }: { title: string; lines: Plan['automatic'] }) {
  const { t, num } = useI18n();
  return (
    <section aria-label={title}>
      <h3 className="h4">{title}</h3>
      {lines.length === 0 ? (
        <p className="muted">{t('releases.nothing')}</p>
      ) : (
        <ul>
          {lines.map((l) => (
            <li key={l.line}>
              {l.line} ({num(l.count)})
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Admin, below the load form: verify the company's kept codes against a loaded release, and
 * upgrade classifications from one release to another: the dry run first (what changes by
 * itself, what needs a person), then the job, followed to its counts and review lines.
 */
export function ReleaseActions({ loaded }: { loaded: string[] }) {
  const { t, num } = useI18n();
  const verify = useStartVerifyCodes();
  const planUpgrade = usePlanReleaseUpgrade();
  const startUpgrade = useStartReleaseUpgrade();
  const [verifyRelease, setVerifyRelease] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [plan, setPlan] = useState<Plan | null>(null);
  const [verifyJob, setVerifyJob] = useState<string | null>(null);
  const [upgradeJob, setUpgradeJob] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pick = (value: string) => value || loaded.at(-1) || '';

  async function run(work: () => Promise<void>) {
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(describeError(err, t));
    }
  }
  const onVerify = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => setVerifyJob((await verify.mutateAsync({ release: pick(verifyRelease) })).jobId));
  };
  const onPlan = (e: FormEvent) => {
    e.preventDefault();
    setUpgradeJob(null);
    void run(async () => setPlan(await planUpgrade.mutateAsync({ from: pick(from), to: pick(to) })));
  };
  const onStart = () =>
    void run(async () => {
      if (!plan) return;
      setUpgradeJob((await startUpgrade.mutateAsync({ from: plan.from, to: plan.to })).jobId);
    });
  const releaseSelect = (value: string, set: (v: string) => void) => (p: object) => (
    <select {...p} value={pick(value)} onChange={(e) => set(e.target.value)}>
      {loaded.map((r) => (
        <option key={r}>{r}</option>
      ))}
    </select>
  );

  if (loaded.length === 0) return null;
  return (
    <section aria-labelledby="release-actions-h" className="stack">
      <h2 id="release-actions-h" className="h3">
        {t('releases.actions')}
      </h2>
      <form className="form-grid" onSubmit={onVerify} aria-label={t('releases.verify')}>
        <FormField label={t('releases.verifyRelease')} hint={t('releases.verifyHint')}>
          {releaseSelect(verifyRelease, setVerifyRelease)}
        </FormField>
        <div className="form-actions">
          <button type="submit" disabled={verify.isPending}>
            {t('releases.verify')}
          </button>
        </div>
      </form>
      <JobReport jobId={verifyJob} label={t('releases.verifyProgress')} />
      <form className="form-grid" onSubmit={onPlan} aria-label={t('releases.upgrade')}>
        <FormField label={t('releases.upgradeFrom')}>{releaseSelect(from, setFrom)}</FormField>
        <FormField label={t('releases.upgradeTo')}>{releaseSelect(to, setTo)}</FormField>
        <div className="form-actions">
          <button type="submit" disabled={planUpgrade.isPending}>
            {t('releases.dryRun')}
          </button>
        </div>
      </form>
      {plan && (
        <section className="stack" aria-label={t('releases.plan')}>
          <p>
            {t('releases.planSummary', {
              n: num(plan.classifications),
              moving: num(plan.moving),
              from: plan.from,
              to: plan.to,
            })}
          </p>
          {plan.classifications > 0 && (
            <p>
              <Link to={`/products?${new URLSearchParams({ classificationRelease: plan.from })}`}>
                {t('releases.showProducts', { release: plan.from })}
              </Link>
            </p>
          )}
          <PlanLines title={t('releases.automatic')} lines={plan.automatic} />
          <PlanLines title={t('releases.review')} lines={plan.review} />
          <div className="form-actions">
            <button
              type="button"
              className="primary"
              onClick={onStart}
              disabled={startUpgrade.isPending || upgradeJob !== null}
            >
              {t('releases.startUpgrade')}
            </button>
          </div>
        </section>
      )}
      <JobReport jobId={upgradeJob} label={t('releases.upgradeProgress')} />
      <ErrorText message={error} />
    </section>
  );
}
