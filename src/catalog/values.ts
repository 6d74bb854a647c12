import { dbNow } from '../kernel/clock';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { runBatch, type BatchStatement as Statement, type Database } from '../db/client';
import {
  attributeValues,
  catalogs,
  categories,
  classificationClassFeatures,
  classificationLinkClasses,
  classificationLinkFeatures,
  classificationLinks,
  products,
} from '../db/schema';
import { badRequest, notFound } from '../kernel/app-error';
import { assertSkuFree, rethrowSkuClash } from './sku';
import { parseFeatureValue } from '../classification/feature-values';
import { categoryPathChanged, staleMastersIn } from '../sync/category-paths';
import { bumpRevision, refreshFingerprints } from '../sync/sync-record';
import { historyStatement } from '../history/record';
import { loadPath } from '../history/current-value';
import { withChanges, type Json } from '../history/snapshot';
import type { SetValueDto } from './catalog.schemas';
import { findAttributeByCode } from './attributes';
import { builtInField } from './fields';
import { assertDepartment, findElement, type ElementRef } from '../db/scope';
import { parseValue } from '../kernel/value-types';
import type { Caller } from '../kernel/caller';

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
}

/**
 * The statement that writes `field` of `element`, and the value as stored: every rule of
 * SetValue lives here, and mass edit plans each product's write through it too.
 */
export async function planValueWrite(
  db: Database,
  tenant: Caller,
  element: ElementRef,
  field: string,
  raw: string,
): Promise<PlannedWrite> {
  const builtIn = builtInField(element.kind, field);
  if (builtIn) {
    if (raw === '') {
      if (builtIn.required) throw badRequest(`${field}: must not be empty`);
      return {
        statement: builtInUpdate(db, element, builtIn.column, null),
        value: '',
        path: builtIn.column,
        stored: null,
      };
    }
    const parsed = parseValue(field, raw, builtIn.rule);
    if (field === 'sku') {
      await assertSkuFree(db, element.catalogId, parsed.value, element.id);
    }
    const stored = builtIn.rule.type === 'integer' ? parsed.number : parsed.value;
    return {
      statement: builtInUpdate(db, element, builtIn.column, stored),
      value: parsed.value,
      path: builtIn.column,
      stored,
    };
  }

  const attribute = await findAttributeByCode(db, tenant, field);
  if (attribute) {
    if (raw === '') {
      return {
        statement: db
          .delete(attributeValues)
          .where(and(eq(attributeValues.elementId, element.id), eq(attributeValues.attributeId, attribute.id))),
        value: '',
        path: `values.${attribute.code}`,
        stored: null,
      };
    }
    const parsed = parseValue(field, raw, {
      type: attribute.type,
      unit: attribute.unit,
      enumValues: attribute.enumValues,
    });
    const row = {
      value: parsed.value,
      numberValue: parsed.number,
      numberValueTo: parsed.numberTo,
    };
    return {
      statement: db
        .insert(attributeValues)
        .values({ elementId: element.id, attributeId: attribute.id, ...row })
        .onConflictDoUpdate({ target: [attributeValues.elementId, attributeValues.attributeId], set: row }),
      value: parsed.value,
      path: `values.${attribute.code}`,
      stored: parsed.value,
    };
  }

  // A classification feature of one of the element's classes (e.g. ETIM EF000008).
  const link = await db.query.classificationLinks.findFirst({
    where: and(eq(classificationLinks.elementId, element.id), eq(classificationLinks.companyId, tenant.companyId)),
  });
  if (link) {
    const [owner] = await db
      .select({ group: classificationLinkClasses.group })
      .from(classificationLinkClasses)
      .innerJoin(
        classificationClassFeatures,
        and(
          eq(classificationClassFeatures.group, classificationLinkClasses.group),
          eq(classificationClassFeatures.classCode, classificationLinkClasses.code),
        ),
      )
      .where(and(eq(classificationLinkClasses.linkId, link.id), eq(classificationClassFeatures.featureCode, field)))
      .limit(1);
    if (owner) {
      const key = and(
        eq(classificationLinkFeatures.linkId, link.id),
        eq(classificationLinkFeatures.group, owner.group),
        eq(classificationLinkFeatures.code, field),
      );
      const path = `classification.feature.${owner.group}.${field}`;
      if (raw === '')
        return { statement: db.delete(classificationLinkFeatures).where(key), value: '', path, stored: null };
      const parsed = await parseFeatureValue(db, owner.group, field, raw);
      return {
        statement: db
          .insert(classificationLinkFeatures)
          .values({ linkId: link.id, group: owner.group, code: field, value: parsed.value, unit: parsed.unit })
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
      };
    }
  }
  throw badRequest(
    `field: "${field}" is not a field of this ${element.kind}, an attribute, or a feature of its classification`,
  );
}

/**
 * SetValue: sets one built-in field, attribute value or classification feature value of any
 * catalog element. The string is parsed for the field's type; an empty string clears an
 * optional field. The write and the master product's revision bump are one transaction.
 */
export async function setValue(db: Database, tenant: Caller, input: z.infer<typeof SetValueDto>) {
  await assertDepartment(db, tenant, input.departmentId);
  const element = await findElement(db, tenant, input.elementId);
  if (element.departmentId !== input.departmentId) throw notFound('element');
  const { statement, value, path, stored } = await planValueWrite(db, tenant, element, input.field, input.value);
  const before = await loadPath(db, tenant.companyId, element, path);
  const statements: Statement[] = [
    statement,
    ...historyStatement(db, tenant, {
      elementId: element.id,
      kind: element.kind,
      before,
      after: withChanges(before, { [path]: stored }),
    }),
  ];
  if (element.masterId) statements.push(bumpRevision(db, element.masterId));
  // A category's name is part of the sync record of every product below it (docs/sync.md).
  const renamesCategory = element.kind === 'category' && input.field === 'name';
  if (renamesCategory) statements.push(categoryPathChanged(db, tenant.companyId, element.id));
  try {
    await runBatch(db, statements);
  } catch (err) {
    // Two writers can pass the SKU check at once; the unique index decides, and the loser gets 409.
    rethrowSkuClash(err, value);
  }
  if (element.masterId) await refreshFingerprints(db, tenant.companyId, [element.masterId]);
  if (renamesCategory)
    await refreshFingerprints(db, tenant.companyId, await staleMastersIn(db, tenant.companyId, element.id));
  return { elementId: element.id, field: input.field, value };
}
