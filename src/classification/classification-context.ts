import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import {
  classificationClasses,
  classificationClassFeatures,
  classificationFeatures,
  classificationFeatureValues,
  classificationLinkClasses,
  classificationLinkFeatures,
  classificationLinks,
} from '../db/schema';
import { notFound } from '../kernel/app-error';
import type { ClassVersion } from '../model/class-version';
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
import type { CategoryPaths } from '../records/category-paths';
import type { Caller } from '../kernel/caller';
import { type ReleaseRefs, releaseRefsFrom, releaseRefStatements } from './release-refs';

/** The reference rows a classification write checks its classes and feature values against. */
export interface ClassificationRefs {
  classes: (typeof classificationClasses.$inferSelect)[];
  classFeatures: { group: string; classCode: string; featureCode: string }[];
  features: (typeof classificationFeatures.$inferSelect)[];
  enumValues: { group: string; featureCode: string; code: string }[];
  /** The loaded releases named by the input or the stored classes, with their rows for the classes. */
  release: ReleaseRefs;
}

/** Everything a classification write plans from, read in one round trip. */
export interface ClassificationContext {
  element: LoadedElement;
  link: typeof classificationLinks.$inferSelect | undefined;
  current: {
    classes: (ClassVersion & {
      group: string;
      system: string;
      code: string;
      release: string | null;
      unverified: boolean;
    })[];
    features: { group: string; code: string; value: string; unit: string | null; unverified: boolean }[];
  };
  refs: ClassificationRefs;
  /** The element's classification as one text (stateSql): the guard of a catalog or category. */
  state: string;
  aggregate: ProductAggregate | undefined;
  paths: CategoryPaths;
}

/** The element's whole classification (link, classes, feature values) as one comparable text. */
export function stateSql(companyId: string, elementId: string | SQL): SQL {
  return sql`(SELECT coalesce((SELECT json_array(l.link_id, l.name, l.classification_groups,
      (SELECT json_group_array(c."group" || ' ' || c.code) FROM classification_link_classes c WHERE c.link_id = l.id),
      (SELECT json_group_array(json_array(f."group", f.code, f.value, f.unit)) FROM classification_link_features f WHERE f.link_id = l.id))
    FROM classification_links l WHERE l.element_id = ${elementId} AND l.company_id = ${companyId}), 'none'))`;
}

/**
 * Reads, in ONE `db.batch`: the department (when given), the element (by id, or as the element
 * of link `linkId`), its link with classes and feature values, the reference data of the classes
 * and features named in the input or present now, the state text, and the master's aggregate.
 */
export async function loadClassificationContext(
  db: Database,
  tenant: Caller,
  target: { elementId: string } | { linkId: string },
  wanted: { classCodes: string[]; featureCodes: string[]; releases?: string[]; departmentId?: string },
): Promise<ClassificationContext> {
  const { companyId } = tenant;
  const elementId =
    'elementId' in target
      ? sql`${target.elementId}`
      : sql`(SELECT ${classificationLinks.elementId} FROM ${classificationLinks} WHERE ${classificationLinks.linkId} = ${target.linkId} AND ${classificationLinks.companyId} = ${companyId})`;
  const linkOf = and(eq(classificationLinks.elementId, elementId), eq(classificationLinks.companyId, companyId));
  const linkId = sql`(SELECT ${classificationLinks.id} FROM ${classificationLinks} WHERE ${linkOf})`;
  const classCodes = sql`(SELECT value FROM json_each(${JSON.stringify(wanted.classCodes)}) UNION SELECT code FROM classification_link_classes WHERE link_id = ${linkId})`;
  const releaseNames = sql`(SELECT value FROM json_each(${JSON.stringify(wanted.releases ?? [])}) UNION SELECT "release" FROM classification_link_classes WHERE link_id = ${linkId} AND "release" IS NOT NULL)`;
  const featureCodes = sql`(SELECT value FROM json_each(${JSON.stringify(wanted.featureCodes)}) UNION SELECT code FROM classification_link_features WHERE link_id = ${linkId})`;
  const results = await db.batch([
    departmentStatement(db, tenant, wanted.departmentId ?? ''),
    ...elementStatements(db, tenant, elementId),
    db.select().from(classificationLinks).where(linkOf),
    db
      .select({
        group: classificationLinkClasses.group,
        system: classificationLinkClasses.system,
        code: classificationLinkClasses.code,
        release: classificationLinkClasses.release,
        unverified: classificationLinkClasses.unverified,
        classVersion: classificationLinkClasses.classVersion,
        dynamicReleaseDate: classificationLinkClasses.dynamicReleaseDate,
      })
      .from(classificationLinkClasses)
      .where(eq(classificationLinkClasses.linkId, linkId)),
    db
      .select({
        group: classificationLinkFeatures.group,
        code: classificationLinkFeatures.code,
        value: classificationLinkFeatures.value,
        unit: classificationLinkFeatures.unit,
        unverified: classificationLinkFeatures.unverified,
      })
      .from(classificationLinkFeatures)
      .where(eq(classificationLinkFeatures.linkId, linkId)),
    db.select().from(classificationClasses).where(sql`${classificationClasses.code} IN ${classCodes}`),
    db
      .select({
        group: classificationClassFeatures.group,
        classCode: classificationClassFeatures.classCode,
        featureCode: classificationClassFeatures.featureCode,
      })
      .from(classificationClassFeatures)
      .where(sql`${classificationClassFeatures.classCode} IN ${classCodes}`),
    db.select().from(classificationFeatures).where(sql`${classificationFeatures.code} IN ${featureCodes}`),
    db
      .select({
        group: classificationFeatureValues.group,
        featureCode: classificationFeatureValues.featureCode,
        code: classificationFeatureValues.code,
      })
      .from(classificationFeatureValues)
      .where(sql`${classificationFeatureValues.featureCode} IN ${featureCodes}`),
    db.select({ state: stateSql(companyId, elementId) }).from(sql`(SELECT 1)`),
    ...releaseRefStatements(db, releaseNames, classCodes),
    ...masterStatements(db, companyId, masterSetOf(companyId, elementId)),
  ]);
  const [department, product, category, catalog, [link], classes, features] = results;
  if (wanted.departmentId !== undefined) checkDepartment(department);
  if ('linkId' in target && !link) throw notFound('classification');
  const element = elementFrom([product, category, catalog]);
  const [, , , , , , , refClasses, classFeatures, refFeatures, enumValues, [state]] = results;
  const release = releaseRefsFrom(results.slice(12, 16));
  const { aggregate, paths } = masterFrom(db, companyId, results.slice(16) as never);
  return {
    element,
    link,
    current: { classes, features },
    refs: { classes: refClasses, classFeatures, features: refFeatures, enumValues, release },
    state: state!.state as string,
    aggregate,
    paths,
  };
}
