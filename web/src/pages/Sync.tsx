import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiGet } from '../api/client';
import { keys } from '../api/keys';
import { useDeleteConnection, useStartSync, useTestConnection } from '../api/mutations';
import { describeError } from '../api/errors';
import { useCatalogs } from '../api/hooks';
import { useAnnounce } from '../components/Announcer';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorText } from '../components/ErrorText';
import { JobStateBadge } from '../components/JobStateBadge';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { useMay, useSession } from '../session/session';
import { ConnectionDialog } from './sync/ConnectionDialog';
import { RunReport } from './sync/RunReport';
import type { Connection, TestConnectionResult } from '../api/models';
import { testMessage } from '../lib/sync-words';
import { RunProgress } from './sync/RunProgress';
import { TestResult } from './sync/TestResult';

/** Shop and ERP connections: test, dry run, run, and each run's report. */
export default function Sync() {
  const { t } = useI18n();
  const { isAdmin } = useSession();
  const connections = useQuery({
    queryKey: keys.syncConnections,
    queryFn: () => apiGet('Sync/GetConnections'),
  });
  const [editing, setEditing] = useState<Connection | 'new' | null>(null);
  return (
    <>
      <div className="page-head">
        <h1>{t('sync.title')}</h1>
        {isAdmin && !connections.error && (
          <button type="button" className="primary" onClick={() => setEditing('new')}>
            {t('sync.add')}
          </button>
        )}
      </div>
      <QueryState isPending={connections.isPending} error={connections.error} unsupportedText={t('sync.unsupported')}>
        {connections.data?.items.length ? (
          connections.data.items.map((c) => (
            <ConnectionCard key={c.connectionId} connection={c} onEdit={() => setEditing(c)} />
          ))
        ) : (
          <p className="empty">{t('sync.none')}</p>
        )}
      </QueryState>
      {editing && <ConnectionDialog connection={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}

function ConnectionCard({ connection, onEdit }: { connection: Connection; onEdit: () => void }) {
  const { t, date } = useI18n();
  const { departmentId, isAdmin } = useSession();
  // runs and connection tests are publishing (`publish`); other roles read the runs only
  const mayPublish = useMay('publish');
  const catalogs = useCatalogs();
  const testConnection = useTestConnection();
  const startSync = useStartSync();
  const deleteConnection = useDeleteConnection();
  const announce = useAnnounce();
  const [message, setMessage] = useState<string | null>(null);
  const [tested, setTested] = useState<TestConnectionResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [openRun, setOpenRun] = useState<string | null>(null);
  const runs = useQuery({
    queryKey: keys.syncRuns(connection.connectionId),
    queryFn: () => apiGet('Sync/GetRuns', { connectionId: connection.connectionId, limit: 10 }),
    refetchInterval: (q) =>
      q.state.data?.items.some((r) => r.state === 'queued' || r.state === 'running') ? 2000 : false,
  });
  const catalogName = catalogs.data?.items.find((c) => c.catalogId === connection.catalogId)?.name ?? '';

  const act = async (action: () => Promise<void>) => {
    setError(null);
    setMessage(null);
    setTested(null);
    try {
      await action();
    } catch (err) {
      setError(describeError(err, t));
    }
  };
  const test = () =>
    act(async () => {
      const r = await testConnection.mutateAsync({ departmentId, connectionId: connection.connectionId });
      setMessage(testMessage(r, t));
      setTested(r);
    });
  const start = (dryRun: boolean, confirmDeactivations = false) =>
    act(async () => {
      await startSync.mutateAsync({
        departmentId,
        connectionId: connection.connectionId,
        dryRun,
        confirmDeactivations,
      });
      announce(dryRun ? t('sync.dryRunStarted') : t('sync.started'));
    });

  return (
    <section className="panel stack" aria-labelledby={`conn-${connection.connectionId}`}>
      <div className="page-head">
        <h2 id={`conn-${connection.connectionId}`} className="h3">
          {connection.name}
        </h2>
        <div className="toolbar">
          {mayPublish && (
            <>
              <button type="button" onClick={() => void test()}>
                {t('sync.test')}
              </button>
              <button type="button" onClick={() => void start(true)}>
                {t('sync.dryRunStart')}
              </button>
              <button type="button" className="primary" onClick={() => void start(false)}>
                {t('sync.start')}
              </button>
            </>
          )}
          {isAdmin && (
            <button type="button" onClick={onEdit}>
              {t('common.edit')}
            </button>
          )}
          {isAdmin && (
            <button type="button" className="danger-quiet" onClick={() => setDeleting(true)}>
              {t('common.delete')}
            </button>
          )}
        </div>
      </div>
      <p className="muted">
        {t('sync.summary', {
          catalog: catalogName,
          url: connection.connectorUrl,
          schedule: connection.options.schedule
            ? t(`sync.schedule.${connection.options.schedule}`)
            : t('sync.schedule.none'),
        })}
      </p>
      {connection.shop && (
        <p className="muted">
          {t('sync.shopSummary', {
            kind: t(`sync.shop.kind.${connection.shop.kind}`),
            url: connection.shop.url ? ` · ${connection.shop.url}` : '',
          })}
        </p>
      )}
      {message && (
        <p role="status" className={tested && !tested.ok ? 'error-text' : 'notice'}>
          {message}
        </p>
      )}
      {tested?.shop && <TestResult shop={tested.shop} warnings={tested.warnings ?? []} />}
      {mayPublish && connection.lastRun?.report?.deactivationsRefused ? (
        <p className="notice">
          {t('sync.refused', { count: connection.lastRun.report.deactivationsRefused })}{' '}
          <button type="button" onClick={() => void start(false, true)}>
            {t('sync.confirmDeactivations')}
          </button>
        </p>
      ) : null}
      <ErrorText message={error} />
      <h3 className="h4">{t('sync.runs')}</h3>
      <QueryState isPending={runs.isPending} error={runs.error}>
        {runs.data?.items.length ? (
          <ul className="job-list">
            {runs.data.items.map((r) => (
              <li key={r.jobId} className="job-card">
                <div className="job-head">
                  <JobStateBadge state={r.state} /> {r.dryRun && <span className="badge">{t('sync.dryRun')}</span>}
                  <span className="muted">{date(r.createdAt)}</span>
                  {r.report && (
                    <button
                      type="button"
                      aria-expanded={openRun === r.jobId}
                      onClick={() => setOpenRun(openRun === r.jobId ? null : r.jobId)}
                    >
                      {t('sync.report')}
                    </button>
                  )}
                </div>
                {(r.state === 'queued' || r.state === 'running') && <RunProgress jobId={r.jobId} />}
                {r.error && <p className="error-text">{t('sync.runFailed', { error: r.error })}</p>}
                {openRun === r.jobId && r.report && <RunReport report={r.report} />}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{t('sync.noRuns')}</p>
        )}
      </QueryState>
      <ConfirmDialog
        open={deleting}
        title={t('sync.deleteTitle')}
        message={t('sync.deleteText', { name: connection.name })}
        confirmLabel={t('common.delete')}
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await deleteConnection.mutateAsync({ departmentId, connectionId: connection.connectionId });
        }}
      />
    </section>
  );
}
