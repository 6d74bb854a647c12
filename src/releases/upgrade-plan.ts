import type { ClassificationContext } from '../classification/classification-context';
import type { NextClassification, ResolvedFeature } from '../classification/classification-write';
import { parseReleaseValue, releaseFeature } from '../classification/release-check';
import { AppError } from '../kernel/app-error';
import type { ClassificationGroup } from '../kernel/classification-groups';
import type { UpgradeRefs } from './upgrade-refs';
import type { ReleaseFeatureDef } from '../classification/release-refs';
import { convertValue, describeConversion, unitConversion } from '../kernel/unit-factors';

/** Where one class goes: its target (null: stays on the old release) and the report line. */
export function upgradeClass(u: UpgradeRefs, code: string) {
  const target = u.classTarget.get(code) ?? null;
  if (!target)
    return {
      target,
      automatic: null,
      review: `class ${code} is not in ${u.to} and has no successor: stays on ${u.from}`,
    };
  if (target.how === 'successor')
    return { target, automatic: `class ${code} -> ${target.code} (successor in ${u.to})`, review: null };
  if (target.how === 'deprecated')
    return {
      target,
      automatic: null,
      review: `class ${code} is deprecated in ${u.to} without a successor: moved as is`,
    };
  return { target, automatic: null, review: null };
}

export interface FeatureOutcome {
  feature: ResolvedFeature;
  automatic: string[];
  review: string | null;
}

/**
 * A numeric value of `from`'s unit in `to`'s unit when the unit table (kernel/unit-factors.ts)
 * knows both as one quantity (mm -> cm, °C -> °F with its offset), with its report line; null: left for a person.
 */
function convertUnit(from: ReleaseFeatureDef, to: ReleaseFeatureDef, value: string) {
  if (to.type !== 'N' && to.type !== 'R') return null;
  const conversion = unitConversion([from.unit, ...from.unitAliases], [to.unit, ...to.unitAliases]);
  const converted = conversion === null ? null : convertValue(value, conversion.factor, conversion.offset);
  if (converted === null) return null;
  return { value: converted, line: `value converted ${describeConversion(conversion!)}` };
}

/**
 * Moves one stored feature value of class `fromClass` to class `toClass` of the target release:
 * a feature or value code the release replaces by a successor is replaced; a number whose unit
 * changed within its quantity is converted by the unit table; the value is parsed by the
 * target's rules. A feature the target class lacks, a unit change the table cannot convert or a
 * value the target refuses is kept as text, flagged unverified, and listed for a person.
 */
export function upgradeFeature(
  u: UpgradeRefs,
  fromClass: string,
  toClass: string,
  group: ClassificationGroup,
  f: { code: string; value: string; unit: string | null },
): FeatureOutcome {
  const automatic: string[] = [];
  const successor = u.featureSuccessor.get(f.code);
  const code = successor && releaseFeature(u.refs, u.to, toClass, successor) ? successor : f.code;
  if (code !== f.code) automatic.push(`feature ${f.code} -> ${code} (successor in ${u.to})`);
  const def = releaseFeature(u.refs, u.to, toClass, code);
  const kept = (review: string, unit = f.unit): FeatureOutcome => ({
    feature: { group, code, value: f.value, unit, unverified: true },
    automatic,
    review,
  });
  if (!def) return kept(`feature ${f.code} is not a feature of class ${toClass} in ${u.to}: kept as text`);
  const fromDef = releaseFeature(u.refs, u.from, fromClass, f.code);
  let value = f.value;
  const valueSuccessor = def.type === 'A' ? u.valueSuccessor.get(value) : undefined;
  if (valueSuccessor) {
    automatic.push(`value ${value} -> ${valueSuccessor} of feature ${code} (successor in ${u.to})`);
    value = valueSuccessor;
  }
  if (fromDef?.unit && def.unit && fromDef.unit !== def.unit) {
    const converted = convertUnit(fromDef, def, value);
    if (converted === null)
      return kept(
        `feature ${code} of class ${toClass}: unit ${fromDef.unit} -> ${def.unit}, value kept as text to convert`,
      );
    automatic.push(`feature ${code} of class ${toClass}: unit ${fromDef.unit} -> ${def.unit}, ${converted.line}`);
    value = converted.value;
  }
  try {
    const parsed = parseReleaseValue(u.refs, code, value, def);
    return { feature: { group, code, value: parsed.value, unit: parsed.unit }, automatic, review: null };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return kept(`class ${toClass} feature ${err.message}: kept as text`, def.unit);
  }
}

/** Moves one classification's class of `group` from `u.from` to `u.to` (null next: stays). */
export function planUpgrade(u: UpgradeRefs, ctx: ClassificationContext, group: ClassificationGroup) {
  const out = { next: null as NextClassification | null, automatic: [] as string[], review: [] as string[] };
  const cls = ctx.current.classes.find((c) => c.group === group && c.release === u.from);
  if (!ctx.link || !cls) return out;
  const move = upgradeClass(u, cls.code);
  if (move.automatic) out.automatic.push(move.automatic);
  if (move.review) out.review.push(move.review);
  if (!move.target) return out;
  const features: ResolvedFeature[] = [];
  for (const f of ctx.current.features) {
    if (f.group !== group) {
      features.push({ ...f, group: f.group as ClassificationGroup });
      continue;
    }
    const moved = upgradeFeature(u, cls.code, move.target.code, group, f);
    out.automatic.push(...moved.automatic);
    if (moved.review) out.review.push(moved.review);
    if (features.some((k) => k.group === group && k.code === moved.feature.code))
      out.review.push(`feature ${f.code} -> ${moved.feature.code} is already given: its value is left out`);
    else features.push(moved.feature);
  }
  // Now classified against the target release's class: its version (none where the release gives none).
  const version = u.refs.classes.find((c) => c.release === u.to && c.code === move.target!.code)?.version ?? null;
  const classes = ctx.current.classes.map((c) =>
    c === cls
      ? {
          group,
          system: u.to,
          code: move.target!.code,
          release: u.to,
          unverified: false,
          classVersion: version,
          dynamicReleaseDate: null,
        }
      : { ...c, group: c.group as ClassificationGroup },
  );
  out.next = { name: ctx.link.name, groups: ctx.link.classificationGroups, classes, features };
  return out;
}
