import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { classificationLinkClasses, classificationLinks } from '../db/schema';
import type { ClassificationGroup } from '../kernel/classification-groups';
import { releaseFeature } from './release-check';
import { type ReleaseFeatureDef, type ReleaseRefs, releaseRefsFrom, releaseRefStatements } from './release-refs';

/** The element's class of a loaded release that has the feature SetValue names, with what its value is checked against. */
export interface ReleaseFeatureOwner {
  linkId: number;
  group: ClassificationGroup;
  refs: ReleaseRefs;
  def: ReleaseFeatureDef;
}

/**
 * Five statements for a batch: the element's classes that name a release, and the release rows
 * (releaseRefStatements) of those classes. SetValue adds them to its one read batch, so a feature
 * of a release class is resolved and typed without a round trip of its own.
 */
export function releaseOwnerStatements(db: Database, companyId: string, elementId: string) {
  const ofElement = (column: 'release' | 'code') =>
    sql`(SELECT lc.${sql.raw(column)} FROM classification_link_classes lc
      JOIN classification_links l ON l.id = lc.link_id
      WHERE l.element_id = ${elementId} AND l.company_id = ${companyId} AND lc.release IS NOT NULL)`;
  return [
    db
      .select({
        linkId: classificationLinks.id,
        group: classificationLinkClasses.group,
        code: classificationLinkClasses.code,
        release: classificationLinkClasses.release,
      })
      .from(classificationLinks)
      .innerJoin(classificationLinkClasses, eq(classificationLinkClasses.linkId, classificationLinks.id))
      .where(
        and(
          eq(classificationLinks.elementId, elementId),
          eq(classificationLinks.companyId, companyId),
          isNotNull(classificationLinkClasses.release),
        ),
      ),
    ...releaseRefStatements(db, ofElement('release'), ofElement('code')),
  ] as const;
}

/**
 * The owner of `field` among the batch results of releaseOwnerStatements: the first class (by
 * group) whose release, loaded, gives that class the feature. Undefined: no release class has it
 * (a class whose release is no longer loaded has no features to set).
 */
export function releaseOwnerFrom(rows: readonly unknown[], field: string): ReleaseFeatureOwner | undefined {
  const [classes, ...refRows] = rows as [
    { linkId: number; group: ClassificationGroup; code: string; release: string }[],
  ];
  const refs = releaseRefsFrom(refRows);
  for (const c of [...classes].sort((a, b) => a.group.localeCompare(b.group))) {
    const def = releaseFeature(refs, c.release, c.code, field);
    if (def) return { linkId: c.linkId, group: c.group, refs, def };
  }
  return undefined;
}

/** releaseOwnerStatements and releaseOwnerFrom in one round trip of their own (mass edit plans query by query). */
export async function readReleaseOwner(
  db: Database,
  companyId: string,
  elementId: string,
  field: string,
): Promise<ReleaseFeatureOwner | undefined> {
  const [a, b, c, d, e] = releaseOwnerStatements(db, companyId, elementId);
  return releaseOwnerFrom(await db.batch([a, b, c, d, e]), field);
}
