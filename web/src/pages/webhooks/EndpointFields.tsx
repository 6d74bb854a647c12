import { useI18n } from '../../i18n/i18n';
import { WEBHOOK_EVENT_GROUPS, type WebhookEventType } from '../../lib/webhook-events';

export interface EndpointDraft {
  url: string;
  description: string;
  eventTypes: WebhookEventType[];
}
export const EMPTY_ENDPOINT: EndpointDraft = { url: '', description: '', eventTypes: [] };

interface Props {
  draft: EndpointDraft;
  onChange: (draft: EndpointDraft) => void;
  /** Tells the inputs of the create form from those of the edit dialog (ids must be unique on the page). */
  idPrefix: string;
}

/** URL, description and the event checkboxes of an endpoint: the create form and the edit dialog. */
export function EndpointFields({ draft, onChange, idPrefix }: Props) {
  const { t } = useI18n();
  const toggle = (type: WebhookEventType, on: boolean) =>
    onChange({
      ...draft,
      eventTypes: on ? [...draft.eventTypes, type] : draft.eventTypes.filter((x) => x !== type),
    });
  return (
    <>
      <label className="field">
        <span>{t('webhooks.url')}</span>
        <input
          name="url"
          type="url"
          required
          placeholder="https://"
          value={draft.url}
          onChange={(e) => onChange({ ...draft, url: e.target.value })}
        />
      </label>
      <label className="field">
        <span>{t('webhooks.description')}</span>
        <input
          name="description"
          maxLength={500}
          value={draft.description}
          onChange={(e) => onChange({ ...draft, description: e.target.value })}
        />
      </label>
      <fieldset>
        <legend>{t('webhooks.events')}</legend>
        <p className="muted">{t('webhooks.eventsHint')}</p>
        {WEBHOOK_EVENT_GROUPS.map((group) => (
          <div className="row" key={group[0]}>
            {group.map((type) => (
              <label key={type} htmlFor={`${idPrefix}-${type}`}>
                <input
                  id={`${idPrefix}-${type}`}
                  type="checkbox"
                  checked={draft.eventTypes.includes(type)}
                  onChange={(e) => toggle(type, e.target.checked)}
                />{' '}
                <code>{type}</code>
              </label>
            ))}
          </div>
        ))}
      </fieldset>
    </>
  );
}
