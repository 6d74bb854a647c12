import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { syncRunItems } from '../db/schema';
import type { UpsertRecord } from './protocol/wire';
import { deliverBatch } from './sync-deliver';
import { PLAN_LIST_CAP, recordsPerBatch, type RunContext } from './sync-state';

/** The guardrail refused this run's deactivations; the run fails with this message and its report. */
export class GuardrailRefusal extends Error {}

/** The deactivations the join remembered for this run (its `deactivate` rows). */
export async function countDeactivations(ctx: RunContext): Promise<number> {
  const [row] = await ctx.deps.db
    .select({ n: sql<number>`count(*)` })
    .from(syncRunItems)
    .where(and(eq(syncRunItems.jobId, ctx.jobId), eq(syncRunItems.kind, 'deactivate')));
  return row?.n ?? 0;
}

/**
 * Checks the guardrail before the first deactivation: more than `maxDeactivationPercent` of
 * the shop's inventory is refused unless the run was started with `confirmDeactivations`.
 * A dry run reports the refusal in its plan; a real run fails (creates and updates already
 * sent stay, nothing is deactivated).
 */
export async function checkGuardrail(ctx: RunContext): Promise<boolean> {
  if (ctx.params.confirmDeactivations) return true;
  const count = await countDeactivations(ctx);
  const total = ctx.cp.invTotal ?? 0;
  const percent = ctx.connection.options.maxDeactivationPercent;
  if (count === 0 || count * 100 <= total * percent) return true;
  ctx.cp = { ...ctx.cp, deactivationsRefused: count };
  const message =
    `the run would deactivate ${count} of ${total} products in the shop (more than ${percent} %); ` +
    'nothing was deactivated: check the catalog, then start the run again with confirmDeactivations';
  if (ctx.params.dryRun) return false;
  throw new GuardrailRefusal(message);
}

/**
 * Sends the deactivations remembered during the join, in SKU order, in batches. Only reached
 * once the whole inventory was read and verified. Returns false when the slice's time ran out.
 */
export async function runDeactivations(ctx: RunContext, deadline: number): Promise<boolean> {
  const size = recordsPerBatch(ctx);
  for (;;) {
    const rows = await ctx.deps.db
      .select({ sku: syncRunItems.sku, fingerprint: syncRunItems.reason })
      .from(syncRunItems)
      .where(
        and(
          eq(syncRunItems.jobId, ctx.jobId),
          eq(syncRunItems.kind, 'deactivate'),
          ctx.cp.deactivateAfter === null ? undefined : gt(syncRunItems.sku, ctx.cp.deactivateAfter),
        ),
      )
      .orderBy(asc(syncRunItems.sku))
      .limit(size);
    if (rows.length === 0) return true;
    const records: UpsertRecord[] = rows.map((r) => ({
      op: 'deactivate',
      sku: r.sku,
      fingerprint: r.fingerprint ?? '-',
    }));
    if (ctx.cp.plan) {
      const plan = ctx.cp.plan;
      const room = Math.max(0, PLAN_LIST_CAP - plan.deactivate.length);
      ctx.cp = {
        ...ctx.cp,
        plan: {
          ...plan,
          deactivate: [...plan.deactivate, ...rows.slice(0, room).map((r) => r.sku)],
          truncated: plan.truncated || rows.length > room,
        },
      };
    }
    const { pimAfter, invAfter, inventoryDone, done } = ctx.cp;
    await deliverBatch(
      ctx,
      records,
      { pimAfter, invAfter, inventoryDone, done, deactivateAfter: rows[rows.length - 1]!.sku },
      [],
    );
    if (Date.now() > deadline) return false;
  }
}
