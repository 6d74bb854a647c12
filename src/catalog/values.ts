import { dbNow } from '../db/clock';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { runBatch, type BatchStatement as Statement, type Database } from '../db/client';
import {
  attributeValues,
  catalogs,
  categories,
  classificationClassFeatures,
  classificationFeatures,
  classificationFeatureValues,
  classificationLinkClasses,
  classificationLinkFeatures,
  classificationLinks,
  products,
} from '../db/schema';
import { badRequest, notFound } from '../http/app-error';
import { assertSkuFree, rethrowSkuClash } from './sku';
import { parseFeatureWith } from '../classification/feature-values';
import { categoryPathChanged, staleMastersIn } from '../sync/category-paths';
import { refreshFingerprints } from '../sync/sync-record';
import { aggregateAfter, bumpWithFingerprint, fingerprintWith, revisionIs } from '../sync/fingerprint-after';
import type { Actor } from '../history/actor';
import { historyStatement } from '../history/record';
import type { Json, Snapshot } from '../history/snapshot';
import { guardStatement, isWriteConflict, retryOnConflict } from '../history/write-guard';
import type { SetValueDto } from './catalog.schemas';
import { findAttributeByCode } from './attributes';
import { builtInField } from './fields';
import type { ProductNode } from './product-aggregate';
import type { ElementRef, Tenant } from './scope';
import { type FieldTarget, loadValueContext } from './value-context';
import { parseValue } from './value-types';

function elementTable(element: ElementRef) {
  return element.kind === 'catalog' ? catalogs : element.kind === 'category' ? categories : products;
}

function builtInUpdate(db: Database, element: ElementRef, column: string, value: unknown): Statement {
  switch (element.kind) {
    case 'catalog':
      return db
        .update(catalogs)
        .set({ [column]: value, updatedAt: dbNow })
        .where(eq(catalogs.id, element.id));
    case 'category':
      return db
        .update(categories)
        .set({ [column]: value, updatedAt: dbNow })
        .where(eq(categories.id, element.id));
    case 'product':
    case 'variant':
      return db
        .update(products)
        .set({ [column]: value, updatedAt: dbNow })
        .where(eq(products.id, element.id));
  }
}

/** What one SetValue writes: the statement, the value as echoed, and its history path with the stored value. */
interface PlannedWrite {
  statement: Statement;
  value: string;
  path: string;
  stored: Json;
  /** The value stored at `path` now, as SQL: what a catalog or category write is guarded on. */
  currentSql: SQL;
  /** Makes the write on a loaded product or variant, for the fingerprint after it. */
  applyTo(node: ProductNode): void;
}

/**
 * The statement that writes `field` (resolved to `target`) of `element`, and the value as
 * stored: every rule of SetValue lives here; mass edit plans each product's write through it
 * too (planValueWrite). No reads: SetValue has read everything in its one read round trip.
 */
export function planTargetWrite(
  db: Database,
  element: ElementRef,
  field: string,
  target: FieldTarget,
  raw: string,
): PlannedWrite {
  const builtIn = builtInField(element.kind, field);
  if (builtIn) {
    const table = elementTable(element);
    const column = (table as unknown as Record<string, SQL>)[builtIn.column]!;
    const currentSql = sql`(SELECT ${column} FROM ${table} WHERE ${table.id} = ${element.id})`;
    let stored: string | number | null = null;
    let value = '';
    if (raw === '') {
      if (builtIn.required) throw badRequest(`${field}: must not be empty`);
    } else {
      const parsed = parseValue(field, raw, builtIn.rule);
      stored = builtIn.rule.type === 'integer' ? parsed.number : parsed.value;
      value = parsed.value;
    }
    return {
      statement: builtInUpdate(db, element, builtIn.column, stored),
      value,
      path: builtIn.column,
      stored,
      currentSql,
      applyTo: (node) => {
        (node.product as Record<string, unknown>)[builtIn.column] = stored;
      },
    };
  }

  if (target.kind === 'attribute') {
    const { attribute } = target;
    const key = and(eq(attributeValues.elementId, element.id), eq(attributeValues.attributeId, attribute.id));
    const currentSql = sql`(SELECT ${attributeValues.value} FROM ${attributeValues} WHERE ${key})`;
    const path = `values.${attribute.code}`;
    const others = (node: ProductNode) => node.values.filter((v) => v.code !== attribute.code);
    if (raw === '') {
      return {
        statement: db.delete(attributeValues).where(key),
        value: '',
        path,
        stored: null,
        currentSql,
        applyTo: (node) => {
          node.values = others(node);
        },
      };
    }
    const parsed = parseValue(field, raw, {
      type: attribute.type,
      unit: attribute.unit,
      enumValues: attribute.enumValues,
    });
    const row = { value: parsed.value, numberValue: parsed.number, numberValueTo: parsed.numberTo };
    return {
      statement: db
        .insert(attributeValues)
        .values({ elementId: element.id, attributeId: attribute.id, ...row })
        .onConflictDoUpdate({ target: [attributeValues.elementId, attributeValues.attributeId], set: row }),
      value: parsed.value,
      path,
      stored: parsed.value,
      currentSql,
      applyTo: (node) => {
        node.values = [
          ...others(node),
          { code: attribute.code, type: attribute.type, value: parsed.value, unit: attribute.unit },
        ];
      },
    };
  }

  // A classification feature of one of the element's classes (e.g. ETIM EF000008).
  if (target.kind === 'feature') {
    const { linkId, group } = target;
    const key = and(
      eq(classificationLinkFeatures.linkId, linkId),
      eq(classificationLinkFeatures.group, group),
      eq(classificationLinkFeatures.code, field),
    );
    const currentSql = sql`(SELECT ${classificationLinkFeatures.value} FROM ${classificationLinkFeatures} WHERE ${key})`;
    const path = `classification.feature.${group}.${field}`;
    const others = (node: ProductNode) =>
      node.classification?.features.filter((f) => f.group !== group || f.code !== field) ?? [];
    if (raw === '')
      return {
        statement: db.delete(classificationLinkFeatures).where(key),
        value: '',
        path,
        stored: null,
        currentSql,
        applyTo: (node) => {
          if (node.classification) node.classification.features = others(node);
        },
      };
    const parsed = parseFeatureWith(group, field, raw, target.feature, target.enumValues);
    return {
      statement: db
        .insert(classificationLinkFeatures)
        .values({ linkId, group, code: field, value: parsed.value, unit: parsed.unit })
        .onConflictDoUpdate({
          target: [
            classificationLinkFeatures.linkId,
            classificationLinkFeatures.group,
            classificationLinkFeatures.code,
          ],
          set: { value: parsed.value, unit: parsed.unit },
        }),
      value: parsed.value,
      path,
      stored: parsed.value,
      currentSql,
      applyTo: (node) => {
        if (node.classification)
          node.classification.features = [
            ...others(node),
            { group, code: field, value: parsed.value, unit: parsed.unit },
          ];
      },
    };
  }
  throw badRequest(
    `field: "${field}" is not a field of this ${element.kind}, an attribute, or a feature of its classification`,
  );
}

/** What `field` names for `element`, read query by query (mass edit; SetValue reads it in its batch). */
async function resolveField(db: Database, tenant: Tenant, element: ElementRef, field: string): Promise<FieldTarget> {
  if (builtInField(element.kind, field)) return { kind: 'builtIn' };
  const attribute = await findAttributeByCode(db, tenant, field);
  if (attribute) return { kind: 'attribute', attribute };
  const [owner] = await db
    .select({ linkId: classificationLinks.id, group: classificationLinkClasses.group })
    .from(classificationLinks)
    .innerJoin(classificationLinkClasses, eq(classificationLinkClasses.linkId, classificationLinks.id))
    .innerJoin(
      classificationClassFeatures,
      and(
        eq(classificationClassFeatures.group, classificationLinkClasses.group),
        eq(classificationClassFeatures.classCode, classificationLinkClasses.code),
      ),
    )
    .where(
      and(
        eq(classificationLinks.elementId, element.id),
        eq(classificationLinks.companyId, tenant.companyId),
        eq(classificationClassFeatures.featureCode, field),
      ),
    )
    .limit(1);
  if (!owner) return { kind: 'none' };
  const feature = await db.query.classificationFeatures.findFirst({
    where: and(eq(classificationFeatures.group, owner.group), eq(classificationFeatures.code, field)),
  });
  const values = await db
    .select({ code: classificationFeatureValues.code })
    .from(classificationFeatureValues)
    .where(and(eq(classificationFeatureValues.group, owner.group), eq(classificationFeatureValues.featureCode, field)));
  return { kind: 'feature', ...owner, feature, enumValues: values.map((v) => v.code) };
}

/**
 * SetValue's plan for one element, with its own reads: mass edit plans each product's write
 * through it (so every rule and message is SetValue's). A SKU is checked before the write here;
 * the unique index decides a race either way.
 */
export async function planValueWrite(
  db: Database,
  tenant: Tenant,
  element: ElementRef,
  field: string,
  raw: string,
): Promise<PlannedWrite> {
  const plan = planTargetWrite(db, element, field, await resolveField(db, tenant, element, field), raw);
  if (field === 'sku' && builtInField(element.kind, field))
    await assertSkuFree(db, element.catalogId, plan.value, element.id);
  return plan;
}

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
