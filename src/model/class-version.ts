import { z } from 'zod';

/**
 * What a class says it was classified against (migration 0082, issue 32): ETIM's class version
 * (xChange `EtimClassVersion`)
 * and, for the DYNAMIC release, its release date (`EtimDynamicReleaseDate`). Imports keep them;
 * this module is where every other write keeps them too (the classification APIs,
 * the history snapshots and RestoreVersion) (docs/classification-releases.md).
 */
export interface ClassVersion {
  classVersion: number | null;
  dynamicReleaseDate: string | null;
}

/** The optional input fields of a class entry (ClassRef): absent = keep the stored one for the same class, null = none. */
export const classVersionFields = {
  /** ETIM's class version (EtimClassVersion); left out keeps the stored one while the class stays, null removes it. */
  classVersion: z.int().min(1).max(999).nullable().optional(),
  /** The DYNAMIC release's date (EtimDynamicReleaseDate), YYYY-MM-DD; absent or null as classVersion. */
  dynamicReleaseDate: z.iso.date('dynamicReleaseDate must be a date such as 2026-01-31').nullable().optional(),
};

type Given = { classVersion?: number | null; dynamicReleaseDate?: string | null };
type Stored = { group: string; code: string; system: string } & Partial<ClassVersion>;

/**
 * A class entry's version after a write: what the entry gives (null removes it), else the stored
 * one when the element keeps the same class (group, code and system): an edit of the name or the
 * feature values, or of another group's class, no longer drops it. A changed class gets none
 * unless given: the old class's version says nothing about the new one.
 */
export function keptVersion(
  entry: Given,
  resolved: { group: string; code: string; system: string },
  current: readonly Stored[],
): ClassVersion {
  const same = current.find(
    (c) => c.group === resolved.group && c.code === resolved.code && c.system === resolved.system,
  );
  return {
    classVersion: entry.classVersion !== undefined ? entry.classVersion : (same?.classVersion ?? null),
    dynamicReleaseDate:
      entry.dynamicReleaseDate !== undefined ? entry.dynamicReleaseDate : (same?.dynamicReleaseDate ?? null),
  };
}

/** A history snapshot (records/snapshot.ts `Snapshot`, which this layer below it cannot name). */
type Snapshot = Record<string, unknown>;

/**
 * The paths of one class in an element's history snapshot (docs/history.md): its code, the
 * loaded release it was checked against and its version keys, each only when set. Every writer
 * of snapshots (records/snapshot.ts, the classification writes, the upsert) goes through here, so
 * RestoreVersion finds the same paths whoever wrote the version.
 */
export function classSnapshot(
  snapshot: Snapshot,
  c: {
    group: string;
    code: string;
    system?: string;
    release?: string | null;
    unverified?: boolean;
  } & Partial<ClassVersion>,
): void {
  snapshot[`classification.class.${c.group}`] = c.code;
  if (c.release) snapshot[`classification.release.${c.group}`] = c.release;
  // A class kept verbatim (a tolerant import): the system the file wrote, which no reference data gives back.
  if (c.unverified && c.system) snapshot[`classification.keptSystem.${c.group}`] = c.system;
  if (c.classVersion != null) snapshot[`classification.classVersion.${c.group}`] = c.classVersion;
  if (c.dynamicReleaseDate) snapshot[`classification.dynamicReleaseDate.${c.group}`] = c.dynamicReleaseDate;
}

/**
 * One feature value's paths in a snapshot: `classification.feature.GROUP.code`, and for a value
 * kept as text (unverified) with a unit, that unit as `classification.featureUnit.GROUP.code`
 * (issue 32): a tolerant import keeps the unit a file gave a value no reference data confirms
 * (BMEcat FUNIT, xChange ClassificationFeatureUnit), and nothing but the snapshot can give it
 * back. A verified value's unit follows from its release or the sample, so its snapshot stays as
 * it was (and older entries, which never had the path, compare equal). Every writer of snapshots
 * goes through here, like classSnapshot.
 */
export function featureSnapshot(
  snapshot: Snapshot,
  f: { group: string; code: string; value: string; unit?: string | null; unverified?: boolean },
): void {
  snapshot[`classification.feature.${f.group}.${f.code}`] = f.value;
  if (f.unverified && f.unit) snapshot[featureUnitPath(f.group, f.code)] = f.unit;
}

/** The snapshot path of a kept value's unit (featureSnapshot). */
export const featureUnitPath = (group: string, code: string) => `classification.featureUnit.${group}.${code}`;

/**
 * The unit path beside a feature value's path (`classification.feature.GROUP.code`), else null.
 * SetValue and mass edit write one path; a feature value they write is verified (or removed), so
 * a kept value's unit path goes with it.
 */
export function featureUnitPathOf(path: string): string | null {
  const prefix = 'classification.feature.';
  return path.startsWith(prefix) ? `classification.featureUnit.${path.slice(prefix.length)}` : null;
}

/** The unit a snapshot recorded for a kept value (featureSnapshot), or null: none, or a snapshot written before the path existed. */
export function featureUnitOfSnapshot(snapshot: Snapshot, group: string, code: string): string | null {
  const unit = snapshot[featureUnitPath(group, code)];
  return typeof unit === 'string' && unit !== '' ? unit : null;
}

/** Group `group`'s class in a snapshot as RestoreVersion writes it back: release, kept system and version, null where it had none. */
export function classOfSnapshot(
  snapshot: Snapshot,
  group: string,
): ClassVersion & { release: string | null; keptSystem: string | null } {
  const release = snapshot[`classification.release.${group}`];
  const kept = snapshot[`classification.keptSystem.${group}`];
  const version = snapshot[`classification.classVersion.${group}`];
  const date = snapshot[`classification.dynamicReleaseDate.${group}`];
  return {
    release: typeof release === 'string' ? release : null,
    keptSystem: typeof kept === 'string' ? kept : null,
    classVersion: typeof version === 'number' ? version : null,
    dynamicReleaseDate: typeof date === 'string' ? date : null,
  };
}

/** The version keys a read answers: only those set (GetProduct's classification does the same). */
export const versionOut = (c: Partial<ClassVersion>) => ({
  ...(c.classVersion != null ? { classVersion: c.classVersion } : {}),
  ...(c.dynamicReleaseDate ? { dynamicReleaseDate: c.dynamicReleaseDate } : {}),
});

/** The ETIM BMEcat guideline's element for a DYNAMIC class's model date, and its one child (written and read). */
export const ETIM_DYNAMIC_UDX = 'UDX.EDXF.PRODUCT_ETIM_DYNAMIC';
export const ETIM_DYNAMIC_DATE = 'UDX.EDXF.PRODUCT_ETIM_RELEASE_DATE';

/** A class system that names ETIM's DYNAMIC release (ETIM-DYNAMIC, ETIM DYNAMIC): the only one with a model date. */
export const isEtimDynamic = (system: string | null | undefined) => /^ETIM[-_ ]?DYNAMIC$/i.test(system?.trim() ?? '');
