import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { apiGet } from '../../api/client';
import { describeError } from '../../api/errors';
import { keys } from '../../api/keys';
import { useRedeliverWebhook } from '../../api/mutations';
import { useAnnounce } from '../../components/Announcer';
import { ErrorText } from '../../components/ErrorText';
import { QueryState } from '../../components/QueryState';
import { useI18n } from '../../i18n/i18n';
import { flattenPages, nextCursorOf } from '../../lib/cursor';
import { deliverySubject, lastResponse, type WebhookDelivery } from '../../lib/webhook-events';
import { ActionsTable } from '../../components/ActionsTable';

const PAGE_SIZE = 20;
const STATUSES = ['pending', 'delivered', 'failed'] as const satisfies readonly WebhookDelivery['status'][];
/**
 * The log is read again while it is open: new events' deliveries appear by themselves, and while
 * one is pending its attempts show as they happen (the faster interval).
 */
const POLL_MS = 5000;
const POLL_PENDING_MS = 2000;

/**
 * One endpoint's delivery log, newest first (GetDeliveries): event, subject, status, attempts,
 * the last answer (HTTP code or error) and when, with *Redeliver* per delivery (Redeliver).
 */
export function DeliveryLog({ endpointId, label }: { endpointId: string; label: string }) {
  const { t, date } = useI18n();
  const announce = useAnnounce();
  const redeliver = useRedeliverWebhook();
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<'' | WebhookDelivery['status']>('');
  const log = useInfiniteQuery({
    queryKey: keys.webhookDeliveryList(endpointId, status),
    queryFn: ({ pageParam, signal }) =>
      apiGet(
        'Webhooks/GetDeliveries',
        { endpointId, status: status || undefined, cursor: pageParam, limit: PAGE_SIZE },
        { signal },
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursorOf,
    refetchInterval: (q) =>
      q.state.data?.pages.some((p) => p.items.some((d) => d.status === 'pending')) ? POLL_PENDING_MS : POLL_MS,
  });
  const items = useMemo(() => flattenPages(log.data?.pages, (d) => d.deliveryId), [log.data]);

  const again = async (delivery: WebhookDelivery) => {
    setError(null);
    try {
      await redeliver.mutateAsync({ deliveryId: delivery.deliveryId });
      announce(t('webhooks.redelivering', { event: delivery.eventType }));
    } catch (err) {
      setError(describeError(err, t));
    }
  };

  return (
    <section aria-label={label}>
      <h2>{label}</h2>
      <div className="toolbar">
        <label className="field">
          <span>{t('webhooks.status')}</span>
          <select name="status" value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
            <option value="">{t('webhooks.allStatuses')}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`webhooks.status.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => void log.refetch()} disabled={log.isFetching}>
          {t('webhooks.refresh')}
        </button>
      </div>
      <ErrorText message={error} />
      <QueryState isPending={log.isPending} error={log.error}>
        {items.length === 0 ? (
          <p className="empty">{t(status ? 'webhooks.noneWithStatus' : 'webhooks.noDeliveries')}</p>
        ) : (
          <ActionsTable
            columns={[
              t('webhooks.event'),
              t('webhooks.subject'),
              t('webhooks.status'),
              t('webhooks.attempts'),
              t('webhooks.lastResponse'),
              t('webhooks.time'),
            ]}
            label={label}
          >
            {items.map((d) => (
              <tr key={d.deliveryId} data-delivery-id={d.deliveryId}>
                <th scope="row">
                  <code>{d.eventType}</code>
                </th>
                <td>
                  <Subject delivery={d} />
                </td>
                <td>
                  {t(`webhooks.status.${d.status}`)}
                  {d.nextAttemptAt && (
                    <span className="muted"> · {t('webhooks.nextAttempt', { at: date(d.nextAttemptAt) })}</span>
                  )}
                </td>
                <td>{d.attempts}</td>
                <td title={d.lastError ?? undefined}>{lastResponse(d) || '–'}</td>
                <td>{date(d.lastAttemptAt ?? d.createdAt)}</td>
                <td className="actions">
                  <button
                    type="button"
                    onClick={() => void again(d)}
                    aria-label={t('webhooks.redeliverOne', { event: d.eventType, at: date(d.createdAt) })}
                  >
                    {t('webhooks.redeliver')}
                  </button>
                </td>
              </tr>
            ))}
          </ActionsTable>
        )}
        {log.hasNextPage && (
          <div className="toolbar">
            <button type="button" onClick={() => log.fetchNextPage()} disabled={log.isFetchingNextPage}>
              {log.isFetchingNextPage ? t('common.loading') : t('webhooks.more')}
            </button>
          </div>
        )}
      </QueryState>
    </section>
  );
}

function Subject({ delivery }: { delivery: WebhookDelivery }) {
  const { t } = useI18n();
  const subject = deliverySubject(delivery);
  if (subject.kind === 'element') {
    const isProduct = subject.elementKind === 'product' || subject.elementKind === 'variant';
    const name = `${subject.elementKind} ${subject.elementId}`;
    return (
      <>
        {isProduct ? <Link to={`/products/${subject.elementId}`}>{name}</Link> : name}
        {subject.changes > 1 && <span className="muted"> · {t('webhooks.changes', { count: subject.changes })}</span>}
      </>
    );
  }
  if (subject.kind === 'job') return <>{`${subject.jobKind} ${subject.jobId}`}</>;
  return <>–</>;
}
