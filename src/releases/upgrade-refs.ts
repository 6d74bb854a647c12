import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { readReleaseRefs, type ReleaseRefs } from '../classification/release-refs';

/**
 * What an upgrade from one release to another reads for a set of codes (docs/
 * classification-releases.md, "Upgrading"): where each class goes, which features and values
 * the target release replaces by successors, and both releases' rows of the classes involved.
 */
export interface UpgradeRefs {
  from: string;
  to: string;
  refs: ReleaseRefs;
  /** Class code in `from` → its class in `to` and how it got there; null: not in `to`, no successor. */
  classTarget: Map<string, { code: string; how: 'same' | 'successor' | 'deprecated' } | null>;
  /** Feature and value codes the target release (or the old one) marks deprecated with a successor. */
  featureSuccessor: Map<string, string>;
  valueSuccessor: Map<string, string>;
}

const json = (list: Iterable<string>) => sql`(SELECT value FROM json_each(${JSON.stringify([...new Set(list)])}))`;
const releaseId = (name: string) =>
  sql`(SELECT id FROM classification_releases WHERE status = 'loaded' AND system || '-' || version = ${name})`;

/** Deprecated codes with a successor in either release, the target release's word first. */
function successorsOf(
  db: Database,
  table: 'release_features' | 'release_values',
  from: string,
  to: string,
  codes: string[],
) {
  return db.all<{ code: string; successor: string; fromTarget: number }>(sql`SELECT code, successor,
      release_id = ${releaseId(to)} AS fromTarget FROM ${sql.raw(table)}
    WHERE release_id IN (${releaseId(from)}, ${releaseId(to)}) AND code IN ${json(codes)} AND deprecated = 1 AND successor IS NOT NULL`);
}

function successorMap(rows: { code: string; successor: string; fromTarget: number }[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const r of [...rows].sort((a, b) => a.fromTarget - b.fromTarget)) map.set(r.code, r.successor);
  return map;
}

/** Reads the upgrade's view of `classCodes`, `featureCodes` and `valueCodes` (three round trips). */
export async function readUpgradeRefs(
  db: Database,
  from: string,
  to: string,
  codes: { classCodes: string[]; featureCodes: string[]; valueCodes: string[] },
): Promise<UpgradeRefs> {
  const classes = await db.all<{
    isTarget: number;
    code: string;
    deprecated: number;
    successor: string | null;
  }>(sql`SELECT
      release_id = ${releaseId(to)} AS isTarget, code, deprecated, successor FROM release_classes
    WHERE release_id IN (${releaseId(from)}, ${releaseId(to)}) AND code IN ${json(codes.classCodes)}`);
  const [features, values] = await Promise.all([
    successorsOf(db, 'release_features', from, to, codes.featureCodes),
    successorsOf(db, 'release_values', from, to, codes.valueCodes),
  ]);
  const successorTargets = classes.flatMap((c) => (c.successor ? [c.successor] : []));
  const refs = await readReleaseRefs(db, [from, to], [...codes.classCodes, ...successorTargets]);
  const inTo = (code: string) => refs.classes.some((c) => c.release === to && c.code === code);
  const classTarget: UpgradeRefs['classTarget'] = new Map();
  for (const code of codes.classCodes) {
    const target = classes.find((c) => c.isTarget && c.code === code);
    const old = classes.find((c) => !c.isTarget && c.code === code);
    const successor = [target?.successor, old?.successor].find((s) => s && s !== code && inTo(s));
    if (successor && (target?.deprecated || !target)) classTarget.set(code, { code: successor, how: 'successor' });
    else if (target) classTarget.set(code, { code, how: target.deprecated ? 'deprecated' : 'same' });
    else classTarget.set(code, null);
  }
  return {
    from,
    to,
    refs,
    classTarget,
    featureSuccessor: successorMap(features),
    valueSuccessor: successorMap(values),
  };
}
