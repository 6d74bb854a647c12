import { useState } from 'react';
import type { GetResult } from '../../api/operations';
import { describeError } from '../../api/errors';
import { useUpdateWebhookEndpoint } from '../../api/mutations';
import { useAnnounce } from '../../components/Announcer';
import { Dialog } from '../../components/Dialog';
import { ErrorText } from '../../components/ErrorText';
import { useI18n } from '../../i18n/i18n';
import type { WebhookEventType } from '../../lib/webhook-events';
import { type EndpointDraft, EndpointFields } from './EndpointFields';

export type WebhookEndpoint = GetResult<'Webhooks/GetEndpoints'>['items'][number];

/** Edits an endpoint's URL, description and events (UpdateEndpoint); the API's refusal shows in the dialog. */
export function EditEndpointDialog({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const { t } = useI18n();
  const announce = useAnnounce();
  const update = useUpdateWebhookEndpoint();
  const [draft, setDraft] = useState<EndpointDraft>({
    url: endpoint.url,
    description: endpoint.description,
    eventTypes: endpoint.eventTypes as WebhookEventType[],
  });
  const [error, setError] = useState<string | null>(null);

  const save = async () => {
    setError(null);
    try {
      await update.mutateAsync({ endpointId: endpoint.endpointId, ...draft });
      announce(t('webhooks.saved', { url: draft.url }));
      onClose();
    } catch (err) {
      setError(describeError(err, t));
    }
  };

  return (
    <Dialog
      open
      wide
      title={t('webhooks.editTitle')}
      onClose={onClose}
      actions={
        <>
          <button type="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="button" className="primary" onClick={() => void save()} disabled={update.isPending}>
            {update.isPending ? t('common.working') : t('common.save')}
          </button>
        </>
      }
    >
      <div className="stack">
        <EndpointFields draft={draft} onChange={setDraft} idPrefix="edit-endpoint" />
        <ErrorText message={error} />
      </div>
    </Dialog>
  );
}
