import { and, eq } from 'drizzle-orm';
import type { BatchStatement, Database } from '../db/client';
import {
  classificationClasses,
  classificationLinkClasses,
  classificationLinkFeatures,
  classificationLinks,
} from '../db/schema';
import { newId } from '../kernel/ids';
import { AppError } from '../kernel/app-error';
import type { ClassificationGroup } from '../kernel/classification-groups';
import { linkKey } from '../classification/link-key';
import { parseFeatureValue } from '../classification/feature-values';
import { parseReleaseValue, releaseFeature } from '../classification/release-check';
import { readReleaseRefs } from '../classification/release-refs';
import { classOfSnapshot, featureUnitOfSnapshot, featureUnitPath } from '../model/class-version';
import type { Snapshot } from '../records/snapshot';

/**
 * Replaces the element's classification with the one in `target` (or removes it), each class as
 * it was: a class of a loaded release (`classification.release.GROUP`) comes back under that
 * release, its system the release's name and its feature values in the release's units, like a
 * write that names the release (docs/classification-releases.md); a class a tolerant import kept
 * verbatim (`classification.keptSystem.GROUP`) comes back under the system the file wrote, still
 * unverified, its values as text; any other class is looked up in the sample reference data. A
 * class or value the reference data does not confirm (any more) is kept as it was, verbatim and
 * unverified, as a tolerant import keeps it, rather than failing the restore. A value kept as
 * text comes back with the unit its snapshot recorded (`classification.featureUnit.GROUP.code`,
 * issue 32; none in a snapshot written before that path existed, as before). `target` is the
 * restore's applied state: a unit path this cannot write back (its value is gone, or the
 * reference data now verifies it and gives the unit) is dropped from it, so the restore's version
 * records what the rows hold.
 */
export async function classificationStatements(
  db: Database,
  companyId: string,
  elementId: string,
  target: Snapshot,
): Promise<BatchStatement[]> {
  const units = Object.keys(target).filter((path) => path.startsWith('classification.featureUnit.'));
  const existing = await db.query.classificationLinks.findFirst({
    where: and(eq(classificationLinks.elementId, elementId), eq(classificationLinks.companyId, companyId)),
  });
  const name = target['classification.name'];
  if (name === undefined || name === null) {
    for (const path of units) delete target[path];
    return existing ? [db.delete(classificationLinks).where(eq(classificationLinks.linkId, existing.linkId))] : [];
  }
  const linkId = existing?.linkId ?? newId();
  const groups = Number(target['classification.groups'] ?? 0);
  const statements: BatchStatement[] = existing
    ? [
        db
          .update(classificationLinks)
          .set({ name: String(name), classificationGroups: groups })
          .where(eq(classificationLinks.linkId, linkId)),
      ]
    : [
        db
          .insert(classificationLinks)
          .values({ linkId, companyId, elementId, name: String(name), classificationGroups: groups }),
      ];
  const key = linkKey(linkId);
  statements.push(
    db.delete(classificationLinkClasses).where(eq(classificationLinkClasses.linkId, key)),
    db.delete(classificationLinkFeatures).where(eq(classificationLinkFeatures.linkId, key)),
  );
  const classes = Object.entries(target)
    .filter(([path]) => path.startsWith('classification.class.'))
    .map(([path, code]) => {
      const group = path.slice('classification.class.'.length) as ClassificationGroup;
      return { group, code: String(code), ...classOfSnapshot(target, group) };
    });
  const releaseClasses = classes.filter((c) => c.release !== null);
  const refs = await readReleaseRefs(
    db,
    releaseClasses.map((c) => c.release!),
    releaseClasses.map((c) => c.code),
  );
  const confirmed = (c: (typeof classes)[number]) =>
    refs.classes.some((r) => r.release === c.release && r.code === c.code);
  for (const c of classes) {
    const { group, code, release, keptSystem, classVersion, dynamicReleaseDate } = c;
    const version = { classVersion, dynamicReleaseDate };
    if (keptSystem !== null && release === null) {
      statements.push(
        db
          .insert(classificationLinkClasses)
          .values({ linkId: key, group, system: keptSystem, code, unverified: true, ...version }),
      );
      continue;
    }
    if (release !== null) {
      const known = confirmed(c);
      statements.push(
        db.insert(classificationLinkClasses).values({
          linkId: key,
          group,
          system: release,
          code,
          release: known ? release : null,
          unverified: !known,
          ...version,
        }),
      );
      continue;
    }
    const ref = await db.query.classificationClasses.findFirst({
      where: and(eq(classificationClasses.group, group), eq(classificationClasses.code, code)),
    });
    statements.push(
      db
        .insert(classificationLinkClasses)
        .values({ linkId: key, group, system: ref?.system ?? group, code, ...version }),
    );
  }
  for (const [path, value] of Object.entries(target)) {
    if (!path.startsWith('classification.feature.')) continue;
    const [group, ...rest] = path.slice('classification.feature.'.length).split('.');
    const code = rest.join('.');
    const owner = classes.find((c) => c.group === group);
    const row = { linkId: key, group: group as ClassificationGroup, code };
    let parsed: { value: string; unit: string | null } | null;
    if (owner?.release) {
      const def = confirmed(owner) ? releaseFeature(refs, owner.release, owner.code, code) : undefined;
      parsed = def ? releaseValue(refs, code, String(value), def) : null;
    } else parsed = owner?.keptSystem ? null : await sampleValue(db, group as ClassificationGroup, code, String(value));
    const keptUnit = parsed ? null : featureUnitOfSnapshot(target, group!, code);
    if (keptUnit !== null) units.splice(units.indexOf(featureUnitPath(group!, code)), 1);
    statements.push(
      db
        .insert(classificationLinkFeatures)
        .values(
          parsed
            ? { ...row, value: parsed.value, unit: parsed.unit }
            : { ...row, value: String(value), unit: keptUnit, unverified: true },
        ),
    );
  }
  for (const path of units) delete target[path];
  return statements;
}

/** A sample feature's value parsed as a write would, or null where the sample does not know the feature or refuses the value. */
async function sampleValue(...args: Parameters<typeof parseFeatureValue>) {
  try {
    return await parseFeatureValue(...args);
  } catch (err) {
    if (err instanceof AppError) return null;
    throw err;
  }
}

/** A release feature's value parsed as a write would, or null where the release refuses it now. */
function releaseValue(...args: Parameters<typeof parseReleaseValue>) {
  try {
    return parseReleaseValue(...args);
  } catch (err) {
    if (err instanceof AppError) return null;
    throw err;
  }
}
