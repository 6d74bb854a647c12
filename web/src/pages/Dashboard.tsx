import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { apiGet } from '../api/client';
import { keys } from '../api/keys';
import { useJobs, useStats } from '../api/hooks';
import { JobStateBadge, useJobKind } from '../components/JobStateBadge';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { useSession } from '../session/session';
import { CompletenessSection } from './dashboard/CompletenessSection';

/** GetStats, the newest jobs, and the last sync runs once the Sync API exists. */
export default function Dashboard() {
  const { t, num, date } = useI18n();
  const { account } = useSession();
  const stats = useStats();
  const jobs = useJobs(10);
  const kind = useJobKind();
  // each connection carries its last run (Sync/GetConnections in /api/openapi.json)
  const syncJobs = useQuery({
    queryKey: keys.syncConnections,
    queryFn: () => apiGet('Sync/GetConnections'),
    retry: false,
  });
  const department = account.departments.find((d) => d.departmentId === account.departmentId)?.name ?? '';

  return (
    <>
      <h1>{t('dashboard.title')}</h1>
      <p className="muted">{t('dashboard.intro', { company: account.company.name, department })}</p>
      <section aria-labelledby="stats-h">
        <h2 id="stats-h" className="visually-hidden">
          {t('dashboard.stats')}
        </h2>
        <QueryState isPending={stats.isPending} error={stats.error}>
          <ul className="stat-cards">
            <li>
              <Link to="/catalogs">
                <strong>{num(stats.data?.catalogs ?? 0)}</strong>
                <span>{t('dashboard.catalogs')}</span>
              </Link>
            </li>
            <li>
              <Link to="/categories">
                <strong>{num(stats.data?.categories ?? 0)}</strong>
                <span>{t('dashboard.categories')}</span>
              </Link>
            </li>
            <li>
              <Link to="/products">
                <strong>{num(stats.data?.products ?? 0)}</strong>
                <span>{t('dashboard.products')}</span>
              </Link>
            </li>
          </ul>
        </QueryState>
      </section>
      <CompletenessSection />
      <div className="two-col">
        <section aria-labelledby="jobs-h" className="panel">
          <h2 id="jobs-h">{t('dashboard.jobs')}</h2>
          <QueryState isPending={jobs.isPending} error={jobs.error}>
            {jobs.data?.items.length ? (
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">{t('job.kind')}</th>
                    <th scope="col">{t('job.state')}</th>
                    <th scope="col">{t('job.created')}</th>
                  </tr>
                </thead>
                <tbody>
                  {jobs.data.items.map((job) => (
                    <tr key={job.jobId}>
                      <td>{kind(job.kind)}</td>
                      <td>
                        <JobStateBadge state={job.state} />
                      </td>
                      <td>{date(job.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <p className="muted">{t('dashboard.noJobs')}</p>
            )}
          </QueryState>
          <p>
            <Link to="/exports">{t('dashboard.toExports')}</Link>
          </p>
        </section>
        <section aria-labelledby="sync-h" className="panel">
          <h2 id="sync-h">{t('dashboard.syncRuns')}</h2>
          <QueryState isPending={syncJobs.isPending} error={syncJobs.error} unsupportedText={t('sync.unsupported')}>
            {syncJobs.data?.items.some((c) => c.lastRun) ? (
              <ul className="plain-list">
                {syncJobs.data.items.map((c) =>
                  c.lastRun ? (
                    <li key={c.connectionId}>
                      <JobStateBadge state={c.lastRun.state} /> <Link to="/sync">{c.name}</Link>{' '}
                      {c.lastRun.dryRun ? `(${t('sync.dryRun')})` : ''} · {date(c.lastRun.createdAt)}
                    </li>
                  ) : null,
                )}
              </ul>
            ) : (
              <p className="muted">{t('dashboard.noSyncRuns')}</p>
            )}
          </QueryState>
        </section>
      </div>
    </>
  );
}
