import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { runBatch, type BatchStatement as Statement, type Database } from '../db/client';
import { notFound } from '../http/app-error';
import { rethrowSkuClash } from './sku';
import { categoryPathChanged, staleMastersIn } from '../sync/category-paths';
import { refreshFingerprints } from '../sync/sync-record';
import { aggregateAfter, bumpWithFingerprint, fingerprintWith, revisionIs } from '../sync/fingerprint-after';
import type { Actor } from '../history/actor';
import { historyStatement } from '../history/record';
import type { Json, Snapshot } from '../history/snapshot';
import { guardStatement, isWriteConflict, retryOnConflict } from '../history/write-guard';
import type { SetValueDto } from './catalog.schemas';
import { loadValueContext } from './value-context';
import { elementTable, planTargetWrite } from './value-plan';

/** Mass edit plans each product's write with SetValue's rules (value-plan.ts). */
export { planValueWrite } from './value-plan';

const pathSnapshot = (path: string, value: Json): Snapshot =>
  value === null || value === undefined ? {} : { [path]: value };

/**
 * SetValue: sets one built-in field, attribute value or classification feature value of any
 * catalog element. The string is parsed for the field's type; an empty string clears an
 * optional field. Two round trips (docs/history.md, "Concurrency"): one batch of reads, then one
 * guarded batch with the write, its version (`before` as read in the first batch, which the
 * guard proves still current) and, for a product, the master's new revision and fingerprint.
 * A write that lost a race reads and plans again (write-guard.ts).
 */
export async function setValue(db: Database, tenant: Actor, input: z.infer<typeof SetValueDto>) {
  const { element, value, renamesCategory } = await retryOnConflict(() => setValueOnce(db, tenant, input));
  // A category's name is part of the sync record of every product below it (docs/sync.md): their
  // revisions moved in the batch; their fingerprints are refreshed here, conditional on those revisions.
  if (renamesCategory)
    await refreshFingerprints(db, tenant.companyId, await staleMastersIn(db, tenant.companyId, element.id));
  return { elementId: element.id, field: input.field, value };
}

async function setValueOnce(db: Database, tenant: Actor, input: z.infer<typeof SetValueDto>) {
  const context = await loadValueContext(db, tenant, input);
  const { element, aggregate } = context;
  if (element.departmentId !== input.departmentId) throw notFound('element');
  const plan = planTargetWrite(db, element, input.field, context.target, input.value);
  const before = pathSnapshot(plan.path, context.current);
  const history = historyStatement(db, tenant, {
    elementId: element.id,
    kind: element.kind,
    before,
    after: pathSnapshot(plan.path, plan.stored),
  });
  const statements: Statement[] = [];
  if (element.masterId && aggregate) {
    const revision = aggregate.product.revision;
    const fingerprint = await fingerprintWith(aggregateAfter(aggregate, element.id, plan.applyTo), context.paths);
    statements.push(
      guardStatement(db, revisionIs(tenant.companyId, element.masterId, revision)),
      plan.statement,
      ...history,
      bumpWithFingerprint(db, element.masterId, revision, fingerprint),
    );
  } else {
    // Catalogs and categories have no revision: the guard is the value at the path itself.
    const table = elementTable(element);
    const exists = sql`EXISTS (SELECT 1 FROM ${table} WHERE ${table.id} = ${element.id} AND ${table.companyId} = ${tenant.companyId})`;
    statements.push(
      guardStatement(db, sql`${exists} AND ${plan.currentSql} IS ${context.current}`),
      plan.statement,
      ...history,
    );
  }
  const renamesCategory = element.kind === 'category' && input.field === 'name';
  if (renamesCategory) statements.push(categoryPathChanged(db, tenant.companyId, element.id));
  try {
    await runBatch(db, statements);
  } catch (err) {
    if (isWriteConflict(err)) throw err;
    // Two writers can set the same SKU at once; the unique index decides, and the loser gets 409.
    rethrowSkuClash(err, plan.value);
  }
  return { element, value: plan.value, renamesCategory };
}
