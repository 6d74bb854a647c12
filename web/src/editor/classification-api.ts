import { apiGet } from '../api/client';
import type { ClassEntry, ElementClassification, FeatureDef } from '../api/models';

/** Reference data and the element's classification for the web editor (the Classification operations of /api/openapi.json). */
export type { ClassEntry, FeatureDef };
export type Group = ClassEntry['group'];
/** A class in the editor: of a loaded release (`release`, e.g. ETIM-9.0), or of the built-in reference data. */
export type ClassChoice = { group: Group; code: string; name: string; release?: string | null };
export const GROUPS = ['ETIM', 'ECLASS', 'PROFICLASS'] as const satisfies readonly Group[];
export const GROUP_LABELS: Record<Group, string> = { ETIM: 'ETIM', ECLASS: 'eCl@ss', PROFICLASS: 'proficl@ss' };

export async function searchClasses(group: Group, q: string, signal?: AbortSignal): Promise<ClassEntry[]> {
  return (await apiGet('Classification/SearchClasses', { group, q }, { signal })).items;
}

export async function getClassFeatures(group: Group, classCode: string): Promise<FeatureDef[]> {
  return (await apiGet('Classification/GetClassFeatures', { group, classCode })).features;
}

/** The element's classes and feature values; none of either when it is not classified. */
export async function getElementClassification(
  elementId: string,
): Promise<Pick<ElementClassification, 'classes' | 'features'>> {
  const { classification } = await apiGet('Classification/GetElementClassification', { elementId });
  return { classes: classification?.classes ?? [], features: classification?.features ?? [] };
}

/** The loaded releases whose classes can classify in `group` (ETIM releases for ETIM, ...). */
export async function getGroupReleases(group: Group): Promise<string[]> {
  const { items } = await apiGet('Classification/GetReleases', {});
  return items.filter((r) => r.status === 'loaded' && r.system === group).map((r) => r.release);
}

/** Orders release names by version as numbers compare (ETIM-9.0 before ETIM-10.0). */
export const byVersion = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

/** The newest of one system's loaded releases by version, undefined when none is loaded. */
export function newestRelease(loaded: readonly string[]): string | undefined {
  return [...loaded].sort(byVersion).at(-1);
}

/**
 * The newer release loaded of `release`'s system when `release` is older than the newest loaded
 * one (the editor shows "on an old release"), else null. `loaded`: the system's loaded releases.
 */
export function newerRelease(release: string, loaded: readonly string[]): string | null {
  const newest = newestRelease(loaded);
  return newest !== undefined && byVersion(release, newest) < 0 ? newest : null;
}

export async function searchReleaseClasses(release: string, q: string, signal?: AbortSignal) {
  const { items } = await apiGet('Classification/SearchReleaseClasses', { release, q }, { signal });
  return items.map((c) => ({ code: c.code, name: c.name ?? c.code }));
}

/**
 * A release class's features in the editor's form shape: the unit shown and accepted is the
 * release's symbol (mm), the server stores the value in the release's unit code.
 */
export async function getReleaseFeatures(release: string, classCode: string): Promise<FeatureDef[]> {
  const { features } = await apiGet('Classification/GetReleaseClassFeatures', { release, classCode });
  return features.map((f) => ({
    code: f.code,
    name: f.name ?? f.code,
    type: f.type,
    unit: f.unit ? (f.unit.symbol ?? f.unit.unece ?? f.unit.code) : null,
    values: f.values.map((v) => ({ code: v.code, name: v.name ?? v.code })),
  }));
}
