import { dbNow } from '../kernel/clock';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { BatchStatement as Statement, Database } from '../db/client';
import {
  attributeValues,
  catalogs,
  categories,
  classificationFeatures,
  classificationFeatureValues,
  classificationLinkFeatures,
  products,
} from '../db/schema';
import { badRequest } from '../kernel/app-error';
import { assertSkuFree } from '../model/sku';
import { parseFeatureWith } from '../classification/feature-values';
import { parseReleaseValue } from '../classification/release-check';
import { readReleaseOwner } from '../classification/release-feature-owner';
import type { Json } from '../records/snapshot';
import { featureUnitPath } from '../model/class-version';
import { findAttributeByCode } from './attributes';
import { builtInField } from '../model/fields';
import type { ProductNode } from '../model/product-aggregate';
import type { ElementRef } from '../db/scope';
import { featureOwnerStatement, type FieldTarget } from './value-context';
import { parseValue } from '../kernel/value-types';
import type { Caller } from '../kernel/caller';
import { resolveStatements } from './references/reference-statements';

/**
 * SetValue's rules: how a field name of an element is written, parsed for its type (built-in
 * field, attribute, classification feature). SetValue (values.ts) plans from the lookups it
 * read in its one read batch; mass edit plans each product through planValueWrite.
 */

export function elementTable(element: ElementRef) {
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
export interface PlannedWrite {
  statement: Statement;
  value: string;
  path: string;
  stored: Json;
  /** The value stored at `path` now, as SQL: what a catalog or category write is guarded on. */
  currentSql: SQL;
  /** Makes the write on a loaded product or variant, for the fingerprint after it. */
  applyTo(node: ProductNode): void;
  /** A feature value's unit as written (`unverified` is cleared too): the same value with another unit is a change. */
  featureUnit?: string | null;
  /** A feature's kept unit now, as SQL (null: none), for a version whose before is read in SQL (featureSnapshot's unit path). */
  keptUnit?: { path: string; currentSql: SQL };
  /** Statements that go right after `statement` in its batch (a SKU change re-resolves references to it). */
  follow?: Statement[];
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
  /** The value stored now: a manufacturer number change re-resolves references by the old number too. */
  current: Json | undefined = undefined,
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
      follow:
        builtIn.column === 'sku' && (element.kind === 'product' || element.kind === 'variant')
          ? resolveStatements(db, element.catalogId, [stored as string | null], [element.id])
          : builtIn.column === 'manufacturerPid' && (element.kind === 'product' || element.kind === 'variant')
            ? resolveStatements(
                db,
                element.catalogId,
                [],
                [element.id],
                [stored as string | null, typeof current === 'string' ? current : null],
              )
            : undefined,
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
    // A value kept as text has its unit in the snapshot; the write leaves a verified value or none.
    const keptUnit = {
      path: featureUnitPath(group, field),
      currentSql: sql`(SELECT NULLIF(${classificationLinkFeatures.unit}, '') FROM ${classificationLinkFeatures} WHERE ${key} AND ${classificationLinkFeatures.unverified} = 1)`,
    };
    const others = (node: ProductNode) =>
      node.classification?.features.filter((f) => f.group !== group || f.code !== field) ?? [];
    if (raw === '')
      return {
        statement: db.delete(classificationLinkFeatures).where(key),
        value: '',
        path,
        stored: null,
        currentSql,
        keptUnit,
        applyTo: (node) => {
          if (node.classification) node.classification.features = others(node);
        },
      };
    const parsed = target.release
      ? parseReleaseValue(target.release.refs, field, raw, target.release.def)
      : parseFeatureWith(group, field, raw, target.feature, target.enumValues);
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
          set: { value: parsed.value, unit: parsed.unit, unverified: false },
        }),
      value: parsed.value,
      path,
      stored: parsed.value,
      featureUnit: parsed.unit,
      currentSql,
      keptUnit,
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
async function resolveField(db: Database, tenant: Caller, element: ElementRef, field: string): Promise<FieldTarget> {
  if (builtInField(element.kind, field)) return { kind: 'builtIn' };
  const attribute = await findAttributeByCode(db, tenant, field);
  if (attribute) return { kind: 'attribute', attribute };
  const [owner] = await featureOwnerStatement(db, tenant.companyId, element.id, field);
  if (!owner) {
    const fromRelease = await readReleaseOwner(db, tenant.companyId, element.id, field);
    if (!fromRelease) return { kind: 'none' };
    const { linkId, group, refs, def } = fromRelease;
    return { kind: 'feature', linkId, group, feature: undefined, enumValues: [], release: { refs, def } };
  }
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
  tenant: Caller,
  element: ElementRef,
  field: string,
  raw: string,
): Promise<PlannedWrite> {
  const builtIn = builtInField(element.kind, field);
  // A manufacturer number change re-resolves the references by the old number (one more read, this field only).
  const old =
    builtIn?.column === 'manufacturerPid' && element.kind !== 'catalog' && element.kind !== 'category'
      ? (await db.select({ v: products.manufacturerPid }).from(products).where(eq(products.id, element.id)))[0]?.v
      : undefined;
  const plan = planTargetWrite(db, element, field, await resolveField(db, tenant, element, field), raw, old);
  if (field === 'sku' && builtInField(element.kind, field))
    await assertSkuFree(db, element.catalogId, plan.value, element.id);
  return plan;
}
