import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { apiGet } from '../api/client';
import { describeError } from '../api/errors';
import { keys } from '../api/keys';
import {
  useAddWebhookEndpoint,
  useDeleteWebhookEndpoint,
  useRotateWebhookSecret,
  useSendWebhookTest,
  useUpdateWebhookEndpoint,
} from '../api/mutations';
import { useAnnounce } from '../components/Announcer';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorText } from '../components/ErrorText';
import { QueryState } from '../components/QueryState';
import { useI18n } from '../i18n/i18n';
import { useSession } from '../session/session';
import { DeliveryLog } from './webhooks/DeliveryLog';
import { EditEndpointDialog, type WebhookEndpoint } from './webhooks/EditEndpointDialog';
import { EMPTY_ENDPOINT, type EndpointDraft, EndpointFields } from './webhooks/EndpointFields';
import { ActionsTable } from '../components/ActionsTable';

const ENDPOINTS_POLL_MS = 30_000;

/**
 * Admin: the company's webhook endpoints (docs/webhooks.md). List with state and the notice of
 * an endpoint the service disabled, create (the signing secret shown once, as the API answers
 * it), edit, enable/disable, rotate the secret, delete with confirmation, send a test event, and
 * one endpoint's delivery log with *Redeliver*.
 */
export default function AdminWebhooks() {
  const { t, date } = useI18n();
  const { isAdmin } = useSession();
  const announce = useAnnounce();
  const endpoints = useQuery({
    queryKey: keys.webhooks,
    queryFn: () => apiGet('Webhooks/GetEndpoints'),
    enabled: isAdmin,
    // the service disables an endpoint whose retries ran out: its notice appears without a reload
    refetchInterval: ENDPOINTS_POLL_MS,
  });
  const add = useAddWebhookEndpoint();
  const update = useUpdateWebhookEndpoint();
  const remove = useDeleteWebhookEndpoint();
  const rotate = useRotateWebhookSecret();
  const sendTest = useSendWebhookTest();
  const [draft, setDraft] = useState<EndpointDraft>(EMPTY_ENDPOINT);
  const [createError, setCreateError] = useState<string | null>(null);
  const [rowError, setRowError] = useState<{ endpointId: string; message: string } | null>(null);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [editing, setEditing] = useState<WebhookEndpoint | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const [shownLog, setShownLog] = useState<string | null>(null);

  if (!isAdmin)
    return (
      <>
        <h1>{t('webhooks.title')}</h1>
        <p className="notice">{t('admin.onlyAdmins')}</p>
      </>
    );

  async function create(event: FormEvent) {
    event.preventDefault();
    setCreateError(null);
    try {
      const created = await add.mutateAsync({
        url: draft.url,
        ...(draft.description ? { description: draft.description } : {}),
        eventTypes: draft.eventTypes,
      });
      setSecret({ url: created.url, secret: created.secret });
      setDraft(EMPTY_ENDPOINT);
      announce(t('webhooks.created', { url: created.url }));
    } catch (err) {
      setCreateError(describeError(err, t));
    }
  }

  /** One row action: its failure shows under that row. */
  const act = async (endpoint: WebhookEndpoint, run: () => Promise<unknown>) => {
    setRowError(null);
    try {
      await run();
    } catch (err) {
      setRowError({ endpointId: endpoint.endpointId, message: describeError(err, t) });
    }
  };
  const setEnabled = (e: WebhookEndpoint, enabled: boolean) =>
    act(e, async () => {
      await update.mutateAsync({ endpointId: e.endpointId, enabled });
      announce(t(enabled ? 'webhooks.enabledNow' : 'webhooks.disabledNow', { url: e.url }));
    });
  const rotateSecret = (e: WebhookEndpoint) =>
    act(e, async () => {
      const rotated = await rotate.mutateAsync({ endpointId: e.endpointId });
      setSecret({ url: rotated.url, secret: rotated.secret });
      announce(t('webhooks.rotated', { url: e.url }));
    });
  const test = (e: WebhookEndpoint) =>
    act(e, async () => {
      await sendTest.mutateAsync({ endpointId: e.endpointId });
      setShownLog(e.endpointId);
      announce(t('webhooks.testSent', { url: e.url }));
    });

  const logOf = endpoints.data?.items.find((e) => e.endpointId === shownLog);
  return (
    <>
      <p>
        <Link to="/admin">{t('nav.admin')}</Link>
      </p>
      <h1>{t('webhooks.title')}</h1>
      <p className="muted">{t('webhooks.intro')}</p>
      <QueryState isPending={endpoints.isPending} error={endpoints.error}>
        {endpoints.data?.items.length === 0 ? (
          <p className="empty">{t('webhooks.none')}</p>
        ) : (
          <ActionsTable
            columns={[t('webhooks.url'), t('webhooks.events'), t('webhooks.state')]}
            label={t('webhooks.list')}
          >
            {endpoints.data?.items.map((e) => (
              <tr key={e.endpointId}>
                <th scope="row">
                  <code>{e.url}</code>
                  {e.description && <div className="muted">{e.description}</div>}
                </th>
                <td>{e.eventTypes.length === 0 ? t('webhooks.allEvents') : e.eventTypes.join(', ')}</td>
                <td>
                  {e.enabled ? t('webhooks.enabled') : t('webhooks.disabled')}
                  {e.disabledReason && (
                    <p className="notice" role="note">
                      {t('webhooks.disabledBecause', { at: date(e.disabledAt) })} {e.disabledReason}
                    </p>
                  )}
                  {rowError?.endpointId === e.endpointId && <ErrorText message={rowError.message} />}
                </td>
                <td className="actions wrap">
                  <button
                    type="button"
                    aria-pressed={shownLog === e.endpointId}
                    aria-label={t('webhooks.showLog', { url: e.url })}
                    onClick={() => setShownLog(shownLog === e.endpointId ? null : e.endpointId)}
                  >
                    {t('webhooks.deliveries')}
                  </button>
                  <button
                    type="button"
                    aria-label={t('webhooks.sendTestTo', { url: e.url })}
                    disabled={!e.enabled}
                    onClick={() => void test(e)}
                  >
                    {t('webhooks.sendTest')}
                  </button>
                  <button
                    type="button"
                    aria-label={t('webhooks.editEndpoint', { url: e.url })}
                    onClick={() => setEditing(e)}
                  >
                    {t('common.edit')}
                  </button>
                  <button
                    type="button"
                    aria-label={t(e.enabled ? 'webhooks.disableEndpoint' : 'webhooks.enableEndpoint', { url: e.url })}
                    onClick={() => void setEnabled(e, !e.enabled)}
                  >
                    {e.enabled ? t('webhooks.disable') : t('webhooks.enable')}
                  </button>
                  <button
                    type="button"
                    aria-label={t('webhooks.rotateFor', { url: e.url })}
                    onClick={() => void rotateSecret(e)}
                  >
                    {t('webhooks.rotate')}
                  </button>
                  <button
                    type="button"
                    className="danger-quiet"
                    aria-label={t('webhooks.deleteEndpoint', { url: e.url })}
                    onClick={() => setDeleting(e)}
                  >
                    {t('common.delete')}
                  </button>
                </td>
              </tr>
            ))}
          </ActionsTable>
        )}
      </QueryState>

      {secret && (
        <div className="notice" role="status">
          <p>{t('webhooks.secretOnce', { url: secret.url })}</p>
          <code data-testid="webhook-secret">{secret.secret}</code>{' '}
          <button type="button" onClick={() => setSecret(null)}>
            {t('webhooks.secretStored')}
          </button>
        </div>
      )}

      {logOf && <DeliveryLog endpointId={logOf.endpointId} label={t('webhooks.logOf', { url: logOf.url })} />}

      <h2>{t('webhooks.add')}</h2>
      <form className="stack" onSubmit={create} aria-label={t('webhooks.add')}>
        <EndpointFields draft={draft} onChange={setDraft} idPrefix="new-endpoint" />
        <ErrorText message={createError} />
        <button type="submit" className="primary" disabled={add.isPending}>
          {add.isPending ? t('common.working') : t('webhooks.addButton')}
        </button>
      </form>

      {editing && <EditEndpointDialog endpoint={editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        title={t('webhooks.deleteTitle')}
        message={t('webhooks.deleteText', { url: deleting?.url ?? '' })}
        confirmLabel={t('common.delete')}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          const gone = deleting!;
          await remove.mutateAsync({ endpointId: gone.endpointId });
          if (shownLog === gone.endpointId) setShownLog(null);
          announce(t('webhooks.deleted', { url: gone.url }));
        }}
      />
    </>
  );
}
