import type { ClassificationContext } from '../classification/classification-context';
import type { NextClassification, ResolvedClass, ResolvedFeature } from '../classification/classification-write';
import { parseReleaseValue, releaseFeature } from '../classification/release-check';
import { asRange } from '../catalog/upsert/resolve/resolve-classification';
import { AppError } from '../kernel/app-error';
import type { ClassificationGroup } from '../kernel/classification-groups';
import { releaseOfSystem } from '../kernel/release-name';

/** What verifying one classification against a release does. */
export interface VerifyPlan {
  /** The classification to write; null when nothing changes. */
  next: NextClassification | null;
  classVerified: boolean;
  featuresVerified: number;
  featuresUnverified: number;
  /** Why a code stayed unverified, one line per code (grouped with counts in the job's report). */
  reasons: string[];
  /** The class names another release (ETIM-8.0 while ETIM-9.0 is verified): not this job's. */
  otherRelease: boolean;
  /** The class was already of the release: only its values kept as text were re-checked. */
  valuesOnly: boolean;
}

/** The stored rows of a link as the write's resolved shape (flags and release kept). */
const asClass = (c: ClassificationContext['current']['classes'][number]): ResolvedClass => ({
  ...c,
  group: c.group as ClassificationGroup,
});
const asFeature = (f: ClassificationContext['current']['features'][number]): ResolvedFeature => ({
  ...f,
  group: f.group as ClassificationGroup,
});

/**
 * Verifies the unverified class of `group` against `release` (docs/classification-releases.md,
 * "Verifying kept codes"): a class the release knows becomes a class of that release, and each
 * of its feature values kept as text is parsed by the release's rules (type, value list, unit)
 * into its normalised form. A class already of the release has only its kept values re-checked.
 * What the release does not know stays verbatim, with its reason.
 */
export function planVerify(ctx: ClassificationContext, release: string, group: ClassificationGroup): VerifyPlan {
  const plan: VerifyPlan = {
    next: null,
    classVerified: false,
    featuresVerified: 0,
    featuresUnverified: 0,
    reasons: [],
    otherRelease: false,
    valuesOnly: false,
  };
  const link = ctx.link;
  const kept = ctx.current.classes.find((c) => c.group === group && c.unverified);
  const cls = kept ?? ctx.current.classes.find((c) => c.group === group && c.release === release);
  if (!link || !cls) return plan;
  plan.valuesOnly = !kept;
  if (kept && releaseOfSystem(kept.system) !== release) {
    plan.otherRelease = true;
    return plan;
  }
  const refs = ctx.refs.release;
  const known = refs.classes.find((c) => c.release === release && c.code === cls.code);
  if (!known) {
    plan.reasons.push(`class ${cls.code} is not in ${release}: kept unverified`);
    plan.featuresUnverified = ctx.current.features.filter((f) => f.group === group && f.unverified).length;
    return plan;
  }
  plan.classVerified = Boolean(kept);
  // The version the file gave is what the supplier classified against: kept, and a difference reported.
  if (cls.classVersion != null && known.version !== null && cls.classVersion !== known.version)
    plan.reasons.push(
      `class ${cls.code} is version ${cls.classVersion} in the file, version ${known.version} in ${release}`,
    );
  const classes = ctx.current.classes.map((c) =>
    c === kept ? { ...asClass(c), system: release, release, unverified: false } : asClass(c),
  );
  const features = ctx.current.features.map((f): ResolvedFeature => {
    if (f.group !== group || !f.unverified) return asFeature(f);
    const def = releaseFeature(refs, release, cls.code, f.code);
    if (!def) {
      plan.featuresUnverified++;
      plan.reasons.push(`feature ${f.code} is not a feature of class ${cls.code} in ${release}: kept unverified`);
      return asFeature(f);
    }
    try {
      // A number the file gave with a unit (FUNIT) is read in it: another unit than the release's is refused, not taken as the release's.
      const numeric = def.type === 'N' || def.type === 'R';
      const raw = asRange(def.type === 'R', f.value);
      const parsed = parseReleaseValue(refs, f.code, numeric && f.unit ? `${raw} ${f.unit}` : raw, def);
      plan.featuresVerified++;
      return { group, code: f.code, value: parsed.value, unit: parsed.unit, unverified: false };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      plan.featuresUnverified++;
      plan.reasons.push(`class ${cls.code} feature ${err.message}: kept unverified`);
      // Still the file's text: the unit the file gave it stays (issue 32), else the release's.
      return { ...asFeature(f), unit: f.unit ?? def.unit };
    }
  });
  plan.next = { name: link.name, groups: link.classificationGroups, classes, features };
  return plan;
}
