import { DurableObject } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { openCellSession, placementOf } from '../db/cells';
import type { Database } from '../db/client';
import { webhookEndpoints } from '../db/schema';
import type { Bindings, WebhookMessage } from '../env';
import { dispatchRound, sweepDeliveries } from './dispatch';
import { PRUNE_EVERY_MS, pruneDeliveries } from './retention';

/** Pause between rounds while events flow, and between looks while the feed is quiet. */
export const BUSY_PAUSE_MS = 250;
export const IDLE_PAUSE_MS = 2_000;
/** Rounds one alarm runs at most before it hands over to the next alarm (bounded work per invocation). */
const ROUNDS_PER_ALARM = 20;

/**
 * The webhook dispatcher of one company (one Durable Object per company, named by its id): an
 * alarm loop that runs dispatch rounds (src/webhooks/dispatch.ts) while the company has an
 * enabled endpoint, sweeps overdue deliveries and, once an hour, prunes the delivery log
 * (src/webhooks/retention.ts). An alarm rather than a Cron Trigger, so it
 * reacts within a second and runs in `wrangler dev` too. Started by `pokeDispatcher` (adding or
 * enabling an endpoint) and kept alive by the every-minute cron (`pokeActiveDispatchers`), which
 * also brings it back after a deploy. It stops by itself when no endpoint is enabled.
 */
export class WebhookDispatcher extends DurableObject<Bindings> {
  override async fetch(request: Request): Promise<Response> {
    const companyId = new URL(request.url).searchParams.get('companyId');
    if (!companyId) return new Response('companyId missing', { status: 400 });
    await this.ctx.storage.put('companyId', companyId);
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now());
    return new Response('ok');
  }

  override async alarm(): Promise<void> {
    const companyId = await this.ctx.storage.get<string>('companyId');
    if (!companyId) return;
    const placement = await placementOf(this.env, companyId);
    if (placement.state === 'moving') {
      await this.ctx.storage.setAlarm(Date.now() + 30_000);
      return;
    }
    const db = openCellSession(this.env, placement.cell).primary();
    const deps = { db, queue: this.env.JOB_QUEUE as Queue<WebhookMessage>, cell: placement.cell };
    let active = false;
    let busy = false;
    for (let round = 0; round < ROUNDS_PER_ALARM; round++) {
      const result = await dispatchRound(deps, companyId);
      active = result.active;
      busy = result.more;
      if (!result.more) break;
    }
    if (!active) return; // no enabled endpoint: stop until poked again
    await sweepDeliveries(deps, companyId);
    // the delivery log's retention, once an hour (an alarm, unlike the cron, runs under wrangler dev)
    const prunedAt = (await this.ctx.storage.get<number>('deliveriesPrunedAt')) ?? 0;
    if (Date.now() - prunedAt >= PRUNE_EVERY_MS && (await pruneDeliveries(db, companyId)).done)
      await this.ctx.storage.put('deliveriesPrunedAt', Date.now());
    await this.ctx.storage.setAlarm(Date.now() + (busy ? BUSY_PAUSE_MS : IDLE_PAUSE_MS));
  }
}

/** Starts (or keeps running) the dispatcher of a company; no-op without the binding. */
export async function pokeDispatcher(
  namespace: DurableObjectNamespace<WebhookDispatcher> | undefined,
  companyId: string,
): Promise<void> {
  if (!namespace) return;
  const stub = namespace.get(namespace.idFromName(companyId));
  await stub.fetch(`https://webhook-dispatcher/poke?companyId=${encodeURIComponent(companyId)}`, { method: 'POST' });
}

/** Cron: pokes the dispatcher of every company of a cell with an enabled endpoint (bounded). */
export async function pokeActiveDispatchers(
  namespace: DurableObjectNamespace<WebhookDispatcher> | undefined,
  db: Database,
): Promise<void> {
  if (!namespace) return;
  const rows = await db
    .selectDistinct({ companyId: webhookEndpoints.companyId })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.enabled, true))
    .limit(1000);
  for (const { companyId } of rows) await pokeDispatcher(namespace, companyId);
}
