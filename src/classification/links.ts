import { versionOut } from '../model/class-version';
import { assertMayEditClassifications } from './ai-switch';
import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { keysetPage } from '../kernel/pagination';
import {
  classificationClasses,
  classificationFeatures,
  classificationLinkClasses,
  classificationLinkFeatures,
  classificationLinks,
} from '../db/schema';
import { AppError, conflict, notFound } from '../kernel/app-error';
import { retryOnConflict } from '../records/write-guard';
import type { CreateClassificationInput, UpdateClassificationInput } from './classification.schemas';
import type { ClassificationGroup } from '../kernel/classification-groups';
import { type ClassificationContext, loadClassificationContext } from './classification-context';
import { resolveClasses, resolveFeatures, type ResolvedFeature, writeClassification } from './classification-write';
import type { Caller } from '../kernel/caller';

async function findLink(db: Database, tenant: Caller, linkId: string) {
  const link = await db.query.classificationLinks.findFirst({
    where: and(eq(classificationLinks.linkId, linkId), eq(classificationLinks.companyId, tenant.companyId)),
  });
  if (!link) throw notFound('classification');
  return link;
}

/**
 * The name of a class (C) or feature (F) in a loaded release, English first (a read takes no
 * language; GetReleaseClassFeatures gives every language): null when the release is not loaded.
 */
const releaseNameOf = (kind: 'C' | 'F', release: SQL, code: SQL) =>
  sql`(SELECT n.name FROM classification_releases r JOIN release_names n ON n.release_id = r.id AND n.kind = ${kind} AND n.code = ${code}
    WHERE r.status = 'loaded' AND r.system || '-' || r.version = ${release} ORDER BY n.lang = 'en' DESC, n.lang LIMIT 1)`;

/** The release of the link's class in the feature's group (features are of their group's class). */
const classRelease = sql`(SELECT c."release" FROM classification_link_classes c
  WHERE c.link_id = ${classificationLinkFeatures.linkId} AND c."group" = ${classificationLinkFeatures.group})`;

/** A classification with class and feature names from the reference data (docs/design.md section 7). */
export async function getClassification(db: Database, tenant: Caller, linkId: string) {
  const link = await findLink(db, tenant, linkId);
  const classes = await db
    .select({
      group: classificationLinkClasses.group,
      system: classificationLinkClasses.system,
      code: classificationLinkClasses.code,
      release: classificationLinkClasses.release,
      classVersion: classificationLinkClasses.classVersion,
      dynamicReleaseDate: classificationLinkClasses.dynamicReleaseDate,
      // A class kept unverified by an import is not in the reference data: its code stands for its name.
      name: sql<string>`coalesce(${releaseNameOf('C', sql`${classificationLinkClasses.release}`, sql`${classificationLinkClasses.code}`)},
        ${classificationClasses.name}, ${classificationLinkClasses.code})`,
    })
    .from(classificationLinkClasses)
    .leftJoin(
      classificationClasses,
      and(
        isNull(classificationLinkClasses.release),
        eq(classificationClasses.group, classificationLinkClasses.group),
        eq(classificationClasses.code, classificationLinkClasses.code),
      ),
    )
    .where(eq(classificationLinkClasses.linkId, link.id))
    .orderBy(asc(classificationLinkClasses.group));
  const features = await db
    .select({
      group: classificationLinkFeatures.group,
      code: classificationLinkFeatures.code,
      name: sql<string>`coalesce(${releaseNameOf('F', classRelease, sql`${classificationLinkFeatures.code}`)},
        ${classificationFeatures.name}, ${classificationLinkFeatures.code})`,
      value: classificationLinkFeatures.value,
      unit: classificationLinkFeatures.unit,
    })
    .from(classificationLinkFeatures)
    .leftJoin(
      classificationFeatures,
      and(
        eq(classificationFeatures.group, classificationLinkFeatures.group),
        eq(classificationFeatures.code, classificationLinkFeatures.code),
      ),
    )
    .where(eq(classificationLinkFeatures.linkId, link.id))
    .orderBy(asc(classificationLinkFeatures.group), asc(classificationLinkFeatures.code));
  return {
    linkId: link.linkId,
    name: link.name,
    elementId: link.elementId,
    classificationGroups: link.classificationGroups,
    classes: classes.map(({ classVersion, dynamicReleaseDate, ...c }) => ({
      ...c,
      ...versionOut({ classVersion, dynamicReleaseDate }),
    })),
    features,
  };
}

export async function listClassifications(
  db: Database,
  tenant: Caller,
  input: { cursor?: string; limit: number; elementId?: string },
) {
  // In creation order: the row key, which the company index (company_id) holds after the company (migration 0047).
  const page = await keysetPage(
    input,
    { column: classificationLinks.id, order: 'asc', integer: true },
    (q) =>
      db
        .select({ id: classificationLinks.id, linkId: classificationLinks.linkId, name: classificationLinks.name })
        .from(classificationLinks)
        .where(
          and(
            eq(classificationLinks.companyId, tenant.companyId),
            input.elementId ? eq(classificationLinks.elementId, input.elementId) : undefined,
            q.after,
          ),
        )
        .orderBy(q.orderBy)
        .limit(q.limit),
    (r) => String(r.id),
  );
  return { items: page.items.map(({ linkId, name }) => ({ linkId, name })), nextCursor: page.nextCursor };
}

/** The codes a create or update names, for its one read (classification-context.ts). */
export function wantedCodes(input: {
  classes?: { code: string; release?: string | null }[];
  features?: { code: string }[];
}) {
  return {
    classCodes: (input.classes ?? []).map((c) => c.code),
    featureCodes: (input.features ?? []).map((f) => f.code),
    releases: (input.classes ?? []).flatMap((c) => (c.release ? [c.release] : [])),
  };
}

/**
 * Classifies an element. Two round trips, one transaction (docs/history.md, "Concurrency"):
 * one batch of reads, one guarded batch with the link, its version and the master's
 * fingerprint; a write that lost a race reads and plans again.
 */
export async function createClassification(db: Database, tenant: Caller, input: CreateClassificationInput) {
  assertMayEditClassifications(tenant);
  return retryOnConflict(async () => {
    const ctx = await loadClassificationContext(db, tenant, { elementId: input.elementId }, wantedCodes(input));
    if (ctx.link)
      throw conflict(`element is already classified (linkId ${ctx.link.linkId}); update that classification`);
    const classes = resolveClasses(ctx.refs, input.classificationGroups, input.classes);
    const features = resolveFeatures(ctx.refs, classes, input.features ?? []);
    return (await writeClassification(db, tenant, ctx, {
      name: input.name,
      groups: input.classificationGroups,
      classes,
      features,
    }))!;
  });
}

/** Changes a classification (left-out parts stay; features that no longer fit new classes are dropped). */
export async function updateClassification(db: Database, tenant: Caller, input: UpdateClassificationInput) {
  assertMayEditClassifications(tenant);
  return retryOnConflict(async () => {
    const ctx = await loadClassificationContext(db, tenant, { linkId: input.linkId }, wantedCodes(input));
    return (await writeClassification(db, tenant, ctx, planUpdate(ctx, input)))!;
  });
}

/** The classification an update leaves (shared with the web editor's save). */
export function planUpdate(ctx: ClassificationContext, input: Omit<UpdateClassificationInput, 'linkId'>) {
  const link = ctx.link!;
  const bitmask = input.classificationGroups ?? link.classificationGroups;
  const classes = resolveClasses(
    ctx.refs,
    bitmask,
    input.classes ??
      ctx.current.classes.map(({ group, code, release }) => ({ group: group as ClassificationGroup, code, release })),
    ctx.current.classes,
  );
  let features: ResolvedFeature[];
  if (input.features) {
    features = resolveFeatures(ctx.refs, classes, input.features);
  } else {
    // Keep the values that still belong to the (possibly new) classes.
    features = [];
    for (const f of ctx.current.features) {
      try {
        features.push(
          ...resolveFeatures(ctx.refs, classes, [
            { group: f.group as ClassificationGroup, code: f.code, value: f.value },
          ]),
        );
      } catch (err) {
        // The feature no longer belongs to the classes: dropped with the class change. Anything
        // else (a bug) is not a validation outcome and must surface.
        if (!(err instanceof AppError) || err.code !== 'bad_request') throw err;
      }
    }
  }
  return { name: input.name ?? link.name, groups: bitmask, classes, features };
}

/** Removes an element's classification (classes and feature values go with the link). */
export async function deleteClassification(db: Database, tenant: Caller, linkId: string) {
  assertMayEditClassifications(tenant);
  return retryOnConflict(async () => {
    const ctx = await loadClassificationContext(db, tenant, { linkId }, { classCodes: [], featureCodes: [] });
    await writeClassification(db, tenant, ctx, null);
    return { linkId: ctx.link!.linkId, deleted: true as const };
  });
}
