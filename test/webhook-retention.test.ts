import { env } from 'cloudflare:workers';
import { runDurableObjectAlarm } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { webhookDeliveries } from '../src/db/schema';
import { DELIVERED_RETENTION_DAYS, FAILED_RETENTION_DAYS, idAt, pruneDeliveries } from '../src/webhooks/retention';
import { db, makeCompany, makeUser } from './helpers/factories';
import { makeEndpoint } from './helpers/webhooks';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A delivery row created `daysAgo` days ago (its UUIDv7 id carries the time) in `status`. */
function deliveryRow(
  tenant: { companyId: string },
  endpointId: string,
  daysAgo: number,
  status: 'pending' | 'delivered' | 'failed',
) {
  const at = idAt(new Date(Date.now() - daysAgo * DAY_MS));
  const random = crypto.randomUUID();
  const id = `${at.slice(0, 14)}7${random.slice(15)}`;
  return {
    id,
    companyId: tenant.companyId,
    endpointId,
    messageId: `msg_${random.replace(/-/g, '')}`,
    eventType: 'webhook.test',
    orderKey: null,
    payload: '{}',
    status,
    nextAttemptAt: new Date().toISOString(),
  };
}

async function endpointWithLog() {
  const company = await makeCompany();
  const admin = await makeUser(company, { role: 'admin' });
  const tenant = { ...company, userId: admin.userId };
  const endpoint = await makeEndpoint(tenant);
  const rows = {
    oldDelivered: [1, 2, 3].map(() =>
      deliveryRow(company, endpoint.endpointId, DELIVERED_RETENTION_DAYS + 1, 'delivered'),
    ),
    recentDelivered: deliveryRow(company, endpoint.endpointId, DELIVERED_RETENTION_DAYS - 1, 'delivered'),
    failedWithinItsRetention: deliveryRow(company, endpoint.endpointId, DELIVERED_RETENTION_DAYS + 1, 'failed'),
    oldFailed: deliveryRow(company, endpoint.endpointId, FAILED_RETENTION_DAYS + 1, 'failed'),
    oldPending: deliveryRow(company, endpoint.endpointId, FAILED_RETENTION_DAYS + 1, 'pending'),
  };
  await db()
    .insert(webhookDeliveries)
    .values([
      ...rows.oldDelivered,
      rows.recentDelivered,
      rows.failedWithinItsRetention,
      rows.oldFailed,
      rows.oldPending,
    ]);
  const remaining = async () =>
    (
      await db()
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.companyId, company.companyId))
    )
      .map((r) => r.id)
      .sort();
  const kept = [rows.recentDelivered, rows.failedWithinItsRetention, rows.oldPending].map((r) => r.id).sort();
  return { company, tenant, endpoint, rows, remaining, kept };
}

describe('Webhooks: delivery log retention', () => {
  it('deletes delivered rows after 30 days and failed ones after 90, never pending ones, in bounded chunks', async () => {
    const log = await endpointWithLog();
    const other = await endpointWithLog();
    // two rows per statement, three per call: a backlog is worked off over several calls
    expect(await pruneDeliveries(db(), log.company.companyId, { chunk: 2, maxRows: 3 })).toEqual({
      deleted: 3,
      done: false,
    });
    expect(await pruneDeliveries(db(), log.company.companyId, { chunk: 2, maxRows: 3 })).toEqual({
      deleted: 1,
      done: true,
    });
    expect(await log.remaining()).toEqual(log.kept);
    expect(await pruneDeliveries(db(), log.company.companyId)).toEqual({ deleted: 0, done: true });
    // another company's log is untouched
    expect((await other.remaining()).length).toBe(7);
  });

  it("is run by the company's dispatcher alarm, which also runs under wrangler dev", async () => {
    const log = await endpointWithLog();
    const stub = env.WEBHOOK_DISPATCHER.get(env.WEBHOOK_DISPATCHER.idFromName(log.company.companyId));
    await stub.fetch(`https://webhook-dispatcher/poke?companyId=${log.company.companyId}`, { method: 'POST' });
    // the poke sets the alarm for now: it fires by itself (or runs here if it has not yet)
    await runDurableObjectAlarm(stub);
    for (let i = 0; i < 50 && (await log.remaining()).length !== log.kept.length; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await log.remaining()).toEqual(log.kept);
  });
});
