import type { historyVersions, webhookOutbox } from '../db/schema';
import { changeItem, fieldsAndLanguages } from '../history/changes-feed';
import type { EventType } from './webhook.schemas';

/** One event before fan-out: what every subscribed endpoint receives, and what orders it. */
export interface WebhookEvent {
  type: EventType;
  /** Deliveries with the same key reach one endpoint in order (the product); null: none. */
  orderKey: string | null;
  /** The Standard Webhooks payload `{type, timestamp, data}` as sent. */
  payload: string;
}

const KIND_EVENT: Record<string, string> = {
  product: 'product',
  variant: 'product',
  category: 'category',
  catalog: 'catalog',
  template: 'template',
};

type FeedRow = { seq: number; version: typeof historyVersions.$inferSelect };

/**
 * The feed rows of one dispatch round as events, one per element (batched per product): every
 * change of that element in the round becomes one event listing each change in commit order,
 * with the union of the changed fields and languages. The type follows the element's fate in
 * the round: deleted when its last change deletes it, created when its first creates it, else
 * updated. So an import that changes 1,000 products sends at most 1,000 events per endpoint,
 * however many changes each product had.
 */
export function feedEvents(companyId: string, rows: readonly FeedRow[]): WebhookEvent[] {
  const groups = new Map<string, FeedRow[]>();
  for (const row of rows) {
    const list = groups.get(row.version.elementId);
    if (list) list.push(row);
    else groups.set(row.version.elementId, [row]);
  }
  const events: WebhookEvent[] = [];
  for (const [elementId, list] of groups) {
    const items = list.map((row) => changeItem(companyId, row.seq, row.version));
    const first = items[0]!;
    const last = items.at(-1)!;
    const fate = last.action === 'delete' ? 'deleted' : first.action === 'create' ? 'created' : 'updated';
    const type = `${KIND_EVENT[first.elementKind] ?? 'product'}.${fate}` as EventType;
    const { fields, languages } = fieldsAndLanguages(items.flatMap((item) => item.changes.map((c) => c.path)));
    const data = {
      elementId,
      elementKind: last.elementKind,
      fields,
      languages,
      changes: items.map(({ changeId, at, action, userId, surface, clientName, jobId, fields, languages }) => ({
        changeId,
        at,
        action,
        userId,
        surface,
        ...(clientName ? { clientName } : {}),
        ...(jobId ? { jobId } : {}),
        fields,
        languages,
      })),
      /** GetChanges resumes after this event's last change. */
      cursor: last.cursor,
    };
    events.push({ type, orderKey: elementId, payload: JSON.stringify({ type, timestamp: last.at, data }) });
  }
  return events;
}

/** Outbox rows (jobs ended, release upgraded) as events, one each. */
export function outboxEvents(rows: readonly (typeof webhookOutbox.$inferSelect)[]): WebhookEvent[] {
  return rows.map((row) => ({
    type: row.eventType as EventType,
    orderKey: row.orderKey,
    payload: JSON.stringify({ type: row.eventType, timestamp: row.at, data: JSON.parse(row.data) as unknown }),
  }));
}

/** Whether an endpoint subscribed to an event type (an empty list: every event). */
export const subscribes = (eventTypes: readonly string[], type: string) =>
  eventTypes.length === 0 || eventTypes.includes(type);
