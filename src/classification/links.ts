import { dbNow } from '../db/clock';
import { linkKey } from './link-key';
import { assertMayEditClassifications } from './ai-switch';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { runBatch, type BatchStatement } from '../db/client';
import { newId } from '../db/ids';
import { keysetPage } from '../db/pagination';
import {
  classificationClasses,
  classificationClassFeatures,
  classificationFeatures,
  classificationLinkClasses,
  classificationLinkFeatures,
  classificationLinks,
} from '../db/schema';
import { AppError, badRequest, conflict, notFound } from '../http/app-error';
import { findElement, type Tenant } from '../catalog/scope';
import { bumpRevision, refreshFingerprints } from '../sync/sync-record';
import type { Actor } from '../history/actor';
import { historyStatement } from '../history/record';
import type { Snapshot } from '../history/snapshot';
import type { CreateClassificationInput, UpdateClassificationInput } from './classification.schemas';
import { groupBit, type ClassificationGroup } from './groups';
import { parseFeatureValue } from './feature-values';

interface ResolvedClass {
  group: ClassificationGroup;
  system: string;
  code: string;
}

/** Checks classes against the reference data and the bitmask against the classes. */
async function resolveClasses(
  db: Database,
  bitmask: number,
  classes: { group: ClassificationGroup; code: string; system?: string }[],
) {
  const groups = classes.map((c) => c.group);
  if (new Set(groups).size !== groups.length) throw badRequest('classes: at most one class per classification group');
  const mask = groups.reduce((m, g) => m | groupBit(g), 0);
  if (mask !== bitmask) {
    throw badRequest(
      `classificationGroups: bitmask ${bitmask} does not match the groups of the classes given (${mask})`,
    );
  }
  const resolved: ResolvedClass[] = [];
  for (const c of classes) {
    const ref = await db.query.classificationClasses.findFirst({
      where: and(eq(classificationClasses.group, c.group), eq(classificationClasses.code, c.code)),
    });
    if (!ref) throw badRequest(`classes: ${c.code} is not a known ${c.group} class`);
    if (c.system && c.system !== ref.system)
      throw badRequest(`classes: ${c.code} belongs to ${ref.system}, not ${c.system}`);
    resolved.push({ group: c.group, system: ref.system, code: ref.code });
  }
  return resolved;
}

/** Parses feature values; each code must be a feature of the link's class in its group. */
async function resolveFeatures(
  db: Database,
  classes: ResolvedClass[],
  features: { group?: ClassificationGroup; code: string; value: string }[],
) {
  const allowed = await db
    .select({
      group: classificationClassFeatures.group,
      featureCode: classificationClassFeatures.featureCode,
      classCode: classificationClassFeatures.classCode,
    })
    .from(classificationClassFeatures)
    .where(
      inArray(
        classificationClassFeatures.classCode,
        classes.map((c) => c.code),
      ),
    );
  const valid = allowed.filter((a) => classes.some((c) => c.group === a.group && c.code === a.classCode));
  const seen = new Set<string>();
  const out: { group: ClassificationGroup; code: string; value: string; unit: string | null }[] = [];
  for (const f of features) {
    const owners = valid.filter((a) => a.featureCode === f.code && (!f.group || a.group === f.group));
    if (owners.length === 0)
      throw badRequest(`features: ${f.code} is not a feature of the classes of this classification`);
    if (owners.length > 1 && !f.group) throw badRequest(`features: ${f.code} is ambiguous; name its group`);
    const group = owners[0]!.group;
    if (seen.has(`${group}:${f.code}`)) throw badRequest(`features: ${f.code} is given twice`);
    seen.add(`${group}:${f.code}`);
    const parsed = await parseFeatureValue(db, group, f.code, f.value);
    out.push({ group, code: f.code, value: parsed.value, unit: parsed.unit });
  }
  return out;
}

/** The classification paths of an element's snapshot (docs/history.md). */
function classificationSnapshot(
  name: string,
  groups: number,
  classes: { group: string; code: string }[],
  features: { group: string; code: string; value: string }[],
): Snapshot {
  const snapshot: Snapshot = { 'classification.name': name, 'classification.groups': groups };
  for (const c of classes) snapshot[`classification.class.${c.group}`] = c.code;
  for (const f of features) snapshot[`classification.feature.${f.group}.${f.code}`] = f.value;
  return snapshot;
}

function writeLinkParts(
  db: Database,
  linkId: string,
  classes: ResolvedClass[],
  features: Awaited<ReturnType<typeof resolveFeatures>>,
): BatchStatement[] {
  return [
    db.delete(classificationLinkClasses).where(eq(classificationLinkClasses.linkId, linkKey(linkId))),
    db.delete(classificationLinkFeatures).where(eq(classificationLinkFeatures.linkId, linkKey(linkId))),
    ...classes.map((c) => db.insert(classificationLinkClasses).values({ linkId: linkKey(linkId), ...c })),
    ...features.map((f) => db.insert(classificationLinkFeatures).values({ linkId: linkKey(linkId), ...f })),
  ];
}

async function findLink(db: Database, tenant: Tenant, linkId: string) {
  const link = await db.query.classificationLinks.findFirst({
    where: and(eq(classificationLinks.linkId, linkId), eq(classificationLinks.companyId, tenant.companyId)),
  });
  if (!link) throw notFound('classification');
  return link;
}

/** A classification with class and feature names from the reference data (docs/design.md section 7). */
export async function getClassification(db: Database, tenant: Tenant, linkId: string) {
  const link = await findLink(db, tenant, linkId);
  const classes = await db
    .select({
      group: classificationLinkClasses.group,
      system: classificationLinkClasses.system,
      code: classificationLinkClasses.code,
      // A class kept unverified by an import is not in the reference data: its code stands for its name.
      name: sql<string>`coalesce(${classificationClasses.name}, ${classificationLinkClasses.code})`,
    })
    .from(classificationLinkClasses)
    .leftJoin(
      classificationClasses,
      and(
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
      name: sql<string>`coalesce(${classificationFeatures.name}, ${classificationLinkFeatures.code})`,
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
    classes,
    features,
  };
}

export async function listClassifications(
  db: Database,
  tenant: Tenant,
  input: { cursor?: string; limit: number; elementId?: string },
) {
  return keysetPage(
    input,
    { column: classificationLinks.linkId, order: 'asc' },
    (q) =>
      db
        .select({ linkId: classificationLinks.linkId, name: classificationLinks.name })
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
    (r) => r.linkId,
  );
}

export async function createClassification(db: Database, tenant: Actor, input: CreateClassificationInput) {
  assertMayEditClassifications(tenant);
  const element = await findElement(db, tenant, input.elementId);
  const existing = await db.query.classificationLinks.findFirst({
    where: eq(classificationLinks.elementId, element.id),
  });
  if (existing) throw conflict(`element is already classified (linkId ${existing.linkId}); update that classification`);
  const classes = await resolveClasses(db, input.classificationGroups, input.classes);
  const features = await resolveFeatures(db, classes, input.features ?? []);
  const linkId = newId();
  const statements: BatchStatement[] = [
    db.insert(classificationLinks).values({
      linkId,
      companyId: tenant.companyId,
      elementId: element.id,
      name: input.name,
      classificationGroups: input.classificationGroups,
    }),
    ...writeLinkParts(db, linkId, classes, features),
    ...historyStatement(db, tenant, {
      elementId: element.id,
      kind: element.kind,
      before: {},
      after: classificationSnapshot(input.name, input.classificationGroups, classes, features),
    }),
  ];
  if (element.masterId) statements.push(bumpRevision(db, element.masterId));
  try {
    await runBatch(db, statements);
  } catch (err) {
    if (
      String(err).includes('classification_links.element_id') ||
      String((err as Error).cause).includes('classification_links.element_id')
    ) {
      throw conflict('element is already classified');
    }
    throw err;
  }
  if (element.masterId) await refreshFingerprints(db, tenant.companyId, [element.masterId]);
  return getClassification(db, tenant, linkId);
}

export async function updateClassification(db: Database, tenant: Actor, input: UpdateClassificationInput) {
  assertMayEditClassifications(tenant);
  const link = await findLink(db, tenant, input.linkId);
  const element = await findElement(db, tenant, link.elementId);
  const current = await getClassification(db, tenant, link.linkId);
  const bitmask = input.classificationGroups ?? link.classificationGroups;
  const classes = await resolveClasses(
    db,
    bitmask,
    input.classes ?? current.classes.map(({ group, code }) => ({ group: group as ClassificationGroup, code })),
  );
  let features: Awaited<ReturnType<typeof resolveFeatures>>;
  if (input.features) {
    features = await resolveFeatures(db, classes, input.features);
  } else {
    // Keep the values that still belong to the (possibly new) classes.
    const kept = [];
    for (const f of current.features) {
      try {
        kept.push(
          ...(await resolveFeatures(db, classes, [
            { group: f.group as ClassificationGroup, code: f.code, value: f.value },
          ])),
        );
      } catch (err) {
        // The feature no longer belongs to the classes: dropped with the class change. Anything
        // else (D1 failing, a bug) is not a validation outcome and must surface.
        if (!(err instanceof AppError) || err.code !== 'bad_request') throw err;
      }
    }
    features = kept;
  }
  const statements: BatchStatement[] = [
    db
      .update(classificationLinks)
      .set({ name: input.name ?? link.name, classificationGroups: bitmask, updatedAt: dbNow })
      .where(eq(classificationLinks.linkId, link.linkId)),
    ...writeLinkParts(db, link.linkId, classes, features),
    ...historyStatement(db, tenant, {
      elementId: element.id,
      kind: element.kind,
      before: classificationSnapshot(link.name, link.classificationGroups, current.classes, current.features),
      after: classificationSnapshot(input.name ?? link.name, bitmask, classes, features),
    }),
  ];
  if (element.masterId) statements.push(bumpRevision(db, element.masterId));
  await runBatch(db, statements);
  if (element.masterId) await refreshFingerprints(db, tenant.companyId, [element.masterId]);
  return getClassification(db, tenant, link.linkId);
}

/** Removes an element's classification (classes and feature values go with the link). */
export async function deleteClassification(db: Database, tenant: Actor, linkId: string) {
  assertMayEditClassifications(tenant);
  const link = await findLink(db, tenant, linkId);
  const element = await findElement(db, tenant, link.elementId);
  const current = await getClassification(db, tenant, link.linkId);
  const statements: BatchStatement[] = [
    db.delete(classificationLinks).where(eq(classificationLinks.linkId, link.linkId)),
    ...historyStatement(db, tenant, {
      elementId: element.id,
      kind: element.kind,
      before: classificationSnapshot(link.name, link.classificationGroups, current.classes, current.features),
      after: {},
    }),
  ];
  if (element.masterId) statements.push(bumpRevision(db, element.masterId));
  await runBatch(db, statements);
  if (element.masterId) await refreshFingerprints(db, tenant.companyId, [element.masterId]);
  return { linkId: link.linkId, deleted: true as const };
}
