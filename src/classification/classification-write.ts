import { eq, sql } from 'drizzle-orm';
import { runBatch, type BatchStatement, type Database } from '../db/client';
import { withCompletenessEventsAtEnd } from '../db/completeness-flush';
import { newId } from '../kernel/ids';
import { classificationLinkClasses, classificationLinkFeatures, classificationLinks } from '../db/schema';
import { badRequest, conflict } from '../kernel/app-error';
import { historyStatement } from '../records/history-record';
import type { Snapshot } from '../records/snapshot';
import { guardStatement, isWriteConflict } from '../records/write-guard';
import { aggregateAfter, bumpWithFingerprint, fingerprintWith, revisionIs } from '../records/fingerprint-after';
import { type ClassificationContext, type ClassificationRefs, stateSql } from './classification-context';
import { parseFeatureWith } from './feature-values';
import { type ClassificationGroup, groupBit } from '../kernel/classification-groups';
import { linkKey } from './link-key';
import { compareBinary } from '../kernel/compare-binary';
import type { Caller } from '../kernel/caller';
import { checkReleaseClass, parseReleaseValue, releaseFeature } from './release-check';
import { type ClassVersion, keptVersion, versionOut, classSnapshot, featureSnapshot } from '../model/class-version';

export interface ResolvedClass {
  group: ClassificationGroup;
  system: string;
  code: string;
  /** The loaded release the class was checked against; null: the sample reference data. */
  release: string | null;
  /** Kept verbatim: no reference data confirms it (a tolerant import; the verification job). */
  unverified?: boolean;
  /** ETIM's class version and DYNAMIC release date (model/class-version.ts); null or absent: none. */
  classVersion?: number | null;
  dynamicReleaseDate?: string | null;
}

export interface ResolvedFeature {
  group: ClassificationGroup;
  code: string;
  value: string;
  unit: string | null;
  /** The value is kept as text: no reference data confirms it (a tolerant import; the verification job). */
  unverified?: boolean;
}

/**
 * Checks classes against the reference data (the named release's, else the sample's) and the
 * bitmask against the classes. A class of a release is stored with that release as its system
 * too, so exports write it as REFERENCE_FEATURE_SYSTEM_NAME / the xChange release.
 */
export function resolveClasses(
  refs: ClassificationRefs,
  bitmask: number,
  classes: ({
    group: ClassificationGroup;
    code: string;
    system?: string;
    release?: string | null;
  } & Partial<ClassVersion>)[],
  current: ClassificationContext['current']['classes'] = [],
): ResolvedClass[] {
  const groups = classes.map((c) => c.group);
  if (new Set(groups).size !== groups.length) throw badRequest('classes: at most one class per classification group');
  const mask = groups.reduce((m, g) => m | groupBit(g), 0);
  if (mask !== bitmask) {
    throw badRequest(
      `classificationGroups: bitmask ${bitmask} does not match the groups of the classes given (${mask})`,
    );
  }
  const resolved = classes.map((c): ResolvedClass => {
    if (c.release) {
      checkReleaseClass(refs.release, c.group, { code: c.code, release: c.release, system: c.system });
      return { group: c.group, system: c.release, code: c.code, release: c.release };
    }
    const ref = refs.classes.find((r) => r.group === c.group && r.code === c.code);
    if (!ref) throw badRequest(`classes: ${c.code} is not a known ${c.group} class`);
    if (c.system && c.system !== ref.system)
      throw badRequest(`classes: ${c.code} belongs to ${ref.system}, not ${c.system}`);
    return { group: c.group, system: ref.system, code: ref.code, release: null };
  });
  return resolved.map((r, i) => ({ ...r, ...keptVersion(classes[i]!, r, current) }));
}

/** Whether `featureCode` is a feature of class `c` in the class's release or the sample. */
function owns(refs: ClassificationRefs, c: ResolvedClass, featureCode: string): boolean {
  if (c.release) return releaseFeature(refs.release, c.release, c.code, featureCode) !== undefined;
  return refs.classFeatures.some((a) => a.group === c.group && a.classCode === c.code && a.featureCode === featureCode);
}

/** Parses feature values; each code must be a feature of the link's class in its group. */
export function resolveFeatures(
  refs: ClassificationRefs,
  classes: ResolvedClass[],
  features: { group?: ClassificationGroup; code: string; value: string }[],
): ResolvedFeature[] {
  const seen = new Set<string>();
  return features.map((f) => {
    const owners = classes.filter((c) => (!f.group || c.group === f.group) && owns(refs, c, f.code));
    if (owners.length === 0)
      throw badRequest(`features: ${f.code} is not a feature of the classes of this classification`);
    if (owners.length > 1 && !f.group) throw badRequest(`features: ${f.code} is ambiguous; name its group`);
    const owner = owners[0]!;
    const group = owner.group;
    if (seen.has(`${group}:${f.code}`)) throw badRequest(`features: ${f.code} is given twice`);
    seen.add(`${group}:${f.code}`);
    if (owner.release) {
      const def = releaseFeature(refs.release, owner.release, owner.code, f.code)!;
      const parsed = parseReleaseValue(refs.release, f.code, f.value, def);
      return { group, code: f.code, value: parsed.value, unit: parsed.unit };
    }
    const ref = refs.features.find((r) => r.group === group && r.code === f.code);
    const enumValues = refs.enumValues.filter((v) => v.group === group && v.featureCode === f.code).map((v) => v.code);
    const parsed = parseFeatureWith(group, f.code, f.value, ref, enumValues);
    return { group, code: f.code, value: parsed.value, unit: parsed.unit };
  });
}

/** The classification paths of an element's snapshot (docs/history.md). */
function classificationSnapshot(
  name: string,
  groups: number,
  classes: ({ group: string; code: string; release?: string | null } & Partial<ClassVersion>)[],
  features: { group: string; code: string; value: string; unit: string | null; unverified?: boolean }[],
): Snapshot {
  const snapshot: Snapshot = { 'classification.name': name, 'classification.groups': groups };
  for (const c of classes) classSnapshot(snapshot, c);
  for (const f of features) featureSnapshot(snapshot, f);
  return snapshot;
}

/** What an element's classification becomes; null removes it. */
export interface NextClassification {
  name: string;
  groups: number;
  classes: ResolvedClass[];
  features: ResolvedFeature[];
}

/**
 * Writes an element's classification as planned from `ctx` in ONE guarded batch: the link, its
 * classes and feature values, the version (before: the classification the guard holds), and for
 * a product the master's revision and fingerprint. Answers what getClassification would read
 * after it, built from the plan and the reference rows already read (no further round trip).
 */
export async function writeClassification(
  db: Database,
  actor: Caller,
  ctx: ClassificationContext,
  next: NextClassification | null,
) {
  const { statements, linkId } = await classificationWriteStatements(db, actor, ctx, next);
  try {
    await runBatch(db, withCompletenessEventsAtEnd(db, statements));
  } catch (err) {
    if (isWriteConflict(err)) throw err;
    if (`${String(err)} ${String((err as Error).cause)}`.includes('classification_links.element_id'))
      throw conflict('element is already classified');
    throw err;
  }
  return next && classificationOut(ctx.refs, linkId, ctx.element.id, next);
}

/**
 * The guarded statements of writeClassification, for a caller that writes several elements in
 * one batch (the verification and upgrade jobs: all or nothing per batch; a lost guard fails it).
 */
export async function classificationWriteStatements(
  db: Database,
  actor: Caller,
  ctx: ClassificationContext,
  next: NextClassification | null,
): Promise<{ statements: BatchStatement[]; linkId: string }> {
  const { element, link, aggregate } = ctx;
  const linkId = link?.linkId ?? newId();
  // The classification as stored, row for row: nothing to write (docs/history.md, "A write that changes nothing").
  if (sameClassification(ctx, next)) return { statements: [], linkId };
  const statements: BatchStatement[] = [
    guardStatement(
      db,
      element.masterId && aggregate
        ? revisionIs(actor.companyId, element.masterId, aggregate.product.revision)
        : sql`EXISTS (SELECT 1 FROM categories WHERE id = ${element.id} UNION ALL SELECT 1 FROM catalogs WHERE id = ${element.id})
            AND ${stateSql(actor.companyId, element.id)} IS ${ctx.state}`,
    ),
  ];
  if (next === null) {
    statements.push(db.delete(classificationLinks).where(eq(classificationLinks.linkId, linkId)));
  } else {
    statements.push(
      link
        ? db
            .update(classificationLinks)
            .set({ name: next.name, classificationGroups: next.groups })
            .where(eq(classificationLinks.linkId, linkId))
        : db.insert(classificationLinks).values({
            linkId,
            companyId: actor.companyId,
            elementId: element.id,
            name: next.name,
            classificationGroups: next.groups,
          }),
      db.delete(classificationLinkClasses).where(eq(classificationLinkClasses.linkId, linkKey(linkId))),
      db.delete(classificationLinkFeatures).where(eq(classificationLinkFeatures.linkId, linkKey(linkId))),
      ...next.classes.map((c) => db.insert(classificationLinkClasses).values({ linkId: linkKey(linkId), ...c })),
      ...next.features.map((f) => db.insert(classificationLinkFeatures).values({ linkId: linkKey(linkId), ...f })),
    );
  }
  const snapshot = (c: NextClassification | null) =>
    c ? classificationSnapshot(c.name, c.groups, c.classes, c.features) : {};
  statements.push(
    ...historyStatement(db, actor, {
      elementId: element.id,
      kind: element.kind,
      place: element,
      before: link
        ? classificationSnapshot(link.name, link.classificationGroups, ctx.current.classes, ctx.current.features)
        : {},
      after: snapshot(next),
    }),
  );
  if (element.masterId && aggregate) {
    const after = aggregateAfter(aggregate, element.id, (node) => {
      node.classification = next && {
        linkId,
        name: next.name,
        classificationGroups: next.groups,
        classes: next.classes.map((c) => ({ group: c.group, system: c.system, code: c.code, ...versionOut(c) })),
        features: next.features.map(({ group, code, value, unit }) => ({ group, code, value, unit })),
      };
    });
    const fingerprint = await fingerprintWith(after, ctx.paths);
    statements.push(bumpWithFingerprint(db, element.masterId, aggregate.product.revision, fingerprint));
  }
  return { statements, linkId };
}

/** One class or feature value as a comparable text, with everything its row stores. */
const classKey = (
  c: {
    group: string;
    system: string;
    code: string;
    release?: string | null;
    unverified?: boolean;
  } & Partial<ClassVersion>,
) =>
  JSON.stringify([
    c.group,
    c.system,
    c.code,
    c.release ?? null,
    c.unverified ?? false,
    c.classVersion ?? null,
    c.dynamicReleaseDate ?? null,
  ]);
const featureKey = (f: { group: string; code: string; value: string; unit: string | null; unverified?: boolean }) =>
  JSON.stringify([f.group, f.code, f.value, f.unit, f.unverified ?? false]);
const sameSet = (a: string[], b: string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/**
 * Whether writing `next` would store exactly the classification the context read: the same
 * link name and groups, and the same class and feature rows (value, unit, release, verified).
 * The context is one consistent read, the state the write's guard holds.
 */
function sameClassification(ctx: ClassificationContext, next: NextClassification | null): boolean {
  const { link, current } = ctx;
  if (!link || !next) return !link && !next;
  return (
    link.name === next.name &&
    link.classificationGroups === next.groups &&
    sameSet(current.classes.map(classKey), next.classes.map(classKey)) &&
    sameSet(current.features.map(featureKey), next.features.map(featureKey))
  );
}

/** A classification as getClassification answers it, with names from the reference rows. */
function classificationOut(refs: ClassificationRefs, linkId: string, elementId: string, next: NextClassification) {
  const className = (c: ResolvedClass) =>
    c.release
      ? (refs.release.classes.find((r) => r.release === c.release && r.code === c.code)?.name ?? c.code)
      : (refs.classes.find((r) => r.group === c.group && r.code === c.code)?.name ?? c.code);
  const featureName = (f: ResolvedFeature) => {
    const owner = next.classes.find((c) => c.group === f.group)!;
    return owner.release
      ? (releaseFeature(refs.release, owner.release, owner.code, f.code)?.name ?? f.code)
      : (refs.features.find((r) => r.group === f.group && r.code === f.code)?.name ?? f.code);
  };
  return {
    linkId,
    name: next.name,
    elementId,
    classificationGroups: next.groups,
    classes: next.classes
      .map((c) => ({
        group: c.group,
        system: c.system,
        code: c.code,
        release: c.release,
        name: className(c),
        ...versionOut(c),
      }))
      .sort((a, b) => compareBinary(a.group, b.group)),
    features: next.features
      .map((f) => ({ group: f.group, code: f.code, name: featureName(f), value: f.value, unit: f.unit }))
      .sort((a, b) => compareBinary(a.group, b.group) || compareBinary(a.code, b.code)),
  };
}
