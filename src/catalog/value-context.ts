import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import {
  attributes,
  attributeValues,
  classificationClassFeatures,
  classificationFeatures,
  classificationFeatureValues,
  classificationLinkClasses,
  classificationLinkFeatures,
  classificationLinks,
} from '../db/schema';
import type { ClassificationGroup } from '../kernel/classification-groups';
import type { CategoryPaths } from '../records/category-paths';
import { builtInField } from '../model/fields';
import type { ProductAggregate } from '../model/product-aggregate';
import {
  checkDepartment,
  departmentStatement,
  elementFrom,
  elementStatements,
  type LoadedElement,
  masterFrom,
  masterSetOf,
  masterStatements,
} from '../records/write-context';
import type { Caller } from '../kernel/caller';
import { elementLanguageStatement } from '../model/translation-store';
import {
  type ReleaseFeatureOwner,
  releaseOwnerFrom,
  releaseOwnerStatements,
} from '../classification/release-feature-owner';

type AttributeRow = typeof attributes.$inferSelect;
type FeatureRow = typeof classificationFeatures.$inferSelect;

/** What a SetValue field name of an element is: a built-in field, an attribute or a feature of its classes. */
export type FieldTarget =
  | { kind: 'builtIn' }
  | { kind: 'attribute'; attribute: AttributeRow }
  | {
      kind: 'feature';
      /** `classification_links.id` of the element's link. */
      linkId: number;
      group: ClassificationGroup;
      feature: FeatureRow | undefined;
      enumValues: string[];
      /** Set when the feature is one of a release class's: its value is checked against that release. */
      release?: Pick<ReleaseFeatureOwner, 'refs' | 'def'>;
    }
  | { kind: 'none' };

/** Everything SetValue plans from, read in one round trip. */
export interface ValueContext {
  element: LoadedElement;
  target: FieldTarget;
  /** The stored value at the target's path now (null: none); with a `language`, its translation's. */
  current: string | number | null;
  /** For a feature with a stored value: its unit and whether it is unverified (a write of the same value settles both). */
  currentFeature: { unit: string | null; unverified: boolean } | null;
  /** With a `language`: the element's texts in it now, field -> text. */
  translated: Record<string, string>;
  /** The master's aggregate, for a product or variant. */
  aggregate: ProductAggregate | undefined;
  paths: CategoryPaths;
}

/**
 * Reads, in ONE `db.batch`, the department, the element, what `field` names (attribute, or the
 * feature of one of the element's classes with its reference row and EV codes), the value
 * stored at that path now, and the master's aggregate with its category paths. The batch is
 * one transaction, so all of it is one consistent state: the state the guarded write checks.
 */
export async function loadValueContext(
  db: Database,
  tenant: Caller,
  input: { departmentId: string; elementId: string; field: string; language?: string },
): Promise<ValueContext> {
  const { elementId, field } = input;
  const results = await db.batch([
    departmentStatement(db, tenant, input.departmentId),
    ...elementStatements(db, tenant, elementId),
    db
      .select()
      .from(attributes)
      .where(and(eq(attributes.companyId, tenant.companyId), eq(attributes.code, field)))
      .limit(1),
    featureOwnerStatement(db, tenant.companyId, elementId, field),
    db.select().from(classificationFeatures).where(eq(classificationFeatures.code, field)),
    db
      .select({ group: classificationFeatureValues.group, code: classificationFeatureValues.code })
      .from(classificationFeatureValues)
      .where(eq(classificationFeatureValues.featureCode, field)),
    db
      .select({ value: attributeValues.value })
      .from(attributeValues)
      .innerJoin(attributes, eq(attributes.id, attributeValues.attributeId))
      .where(
        and(
          eq(attributeValues.elementId, elementId),
          eq(attributes.companyId, tenant.companyId),
          eq(attributes.code, field),
        ),
      ),
    db
      .select({
        group: classificationLinkFeatures.group,
        value: classificationLinkFeatures.value,
        unit: classificationLinkFeatures.unit,
        unverified: classificationLinkFeatures.unverified,
      })
      .from(classificationLinkFeatures)
      .innerJoin(classificationLinks, eq(classificationLinks.id, classificationLinkFeatures.linkId))
      .where(
        and(
          eq(classificationLinks.elementId, elementId),
          eq(classificationLinks.companyId, tenant.companyId),
          eq(classificationLinkFeatures.code, field),
        ),
      ),
    elementLanguageStatement(db, elementId, input.language ?? ''),
    ...releaseOwnerStatements(db, tenant.companyId, elementId),
    ...masterStatements(db, tenant.companyId, masterSetOf(tenant.companyId, elementId)),
  ]);
  const [
    department,
    product,
    category,
    catalog,
    attribute,
    owner,
    featureRefs,
    featureValues,
    value,
    feature,
    translatedRows,
  ] = results;
  checkDepartment(department);
  const element = elementFrom([product, category, catalog]);
  const releaseOwner = releaseOwnerFrom(results.slice(11, 16), field);
  const { aggregate, paths } = masterFrom(db, tenant.companyId, results.slice(16) as never);

  let target: FieldTarget = { kind: 'none' };
  let current: string | number | null = null;
  let currentFeature: ValueContext['currentFeature'] = null;
  if (builtInField(element.kind, field)) {
    target = { kind: 'builtIn' };
    current = (element.row[builtInField(element.kind, field)!.column] ?? null) as string | number | null;
  } else if (attribute[0]) {
    target = { kind: 'attribute', attribute: attribute[0] };
    current = value[0]?.value ?? null;
  } else if (owner[0]) {
    const group = owner[0].group;
    target = {
      kind: 'feature',
      linkId: owner[0].linkId,
      group,
      feature: featureRefs.find((f) => f.group === group),
      enumValues: featureValues.filter((v) => v.group === group).map((v) => v.code),
    };
    current = feature.find((f) => f.group === group)?.value ?? null;
  } else if (releaseOwner) {
    const { linkId, group, refs, def } = releaseOwner;
    target = { kind: 'feature', linkId, group, feature: undefined, enumValues: [], release: { refs, def } };
    current = feature.find((f) => f.group === group)?.value ?? null;
  }
  if (target.kind === 'feature') {
    const group = target.group;
    const stored = feature.find((f) => f.group === group);
    if (stored) currentFeature = { unit: stored.unit, unverified: stored.unverified };
  }
  const translated = Object.fromEntries(translatedRows.map((t) => [t.field, t.value]));
  return { element, target, current, currentFeature, translated, aggregate, paths };
}

/**
 * The element's classification group whose class of the built-in sample (no release) has
 * `field` as a feature (one row or none): SetValue reads it in its batch, mass edit query by
 * query (value-plan.ts). A class of a release is resolved by releaseOwnerStatements.
 */
export function featureOwnerStatement(db: Database, companyId: string, elementId: string, field: string) {
  return db
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
        eq(classificationLinks.elementId, elementId),
        eq(classificationLinks.companyId, companyId),
        isNull(classificationLinkClasses.release),
        eq(classificationClassFeatures.featureCode, field),
      ),
    )
    .limit(1);
}
