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

/** A class group of a release (ETIM IXF `EG...` groups): a filter of class search, shown with each match. */
export type ClassGroup = { code: string; name: string | null };

/**
 * Classes of a loaded release matching `q`, only of `classGroup` when one is given; names (of the
 * class and its group) in `lang` where the release has it, else in the release's first language.
 */
export async function searchReleaseClasses(
  release: string,
  q: string,
  options: { classGroup?: string; lang?: string } = {},
  signal?: AbortSignal,
) {
  const query = { release, q, lang: options.lang, group: options.classGroup };
  const { items } = await apiGet('Classification/SearchReleaseClasses', query, { signal });
  return items.map((c) => ({ code: c.code, name: c.name ?? c.code, classGroup: c.group }));
}

/** The class groups of a loaded release by code (none for releases without groups), names in `lang`. */
export async function getReleaseGroups(release: string, lang?: string): Promise<ClassGroup[]> {
  const { items } = await apiGet('Classification/GetReleaseGroups', { release, lang });
  return items.map((g) => ({ code: g.code, name: g.name }));
}

/** How a group reads in the picker: `EG000017 Installation material`, the code alone without a name. */
export function classGroupLabel(group: ClassGroup): string {
  return group.name ? `${group.code} ${group.name}` : group.code;
}

/**
 * The group filter in effect: the one chosen for `release`, else '' (all groups). A choice is
 * kept with the release it was made for, so another release (or the built-in data, which has
 * no groups) starts from all groups, and a code the release's list does not hold is dropped.
 */
export function classGroupFilter(
  chosen: { release: string; code: string } | null,
  release: string,
  groups: readonly ClassGroup[],
): string {
  if (!chosen || !release || chosen.release !== release) return '';
  return groups.some((g) => g.code === chosen.code) ? chosen.code : '';
}

/**
 * A release class's features in the editor's form shape: the unit shown and accepted is the
 * release's symbol (mm), the server stores the value in the release's unit code. Names of
 * features and values in `lang` (the interface language) where the release has them, else in
 * its first language, as the class picker asks.
 */
export async function getReleaseFeatures(release: string, classCode: string, lang?: string): Promise<FeatureDef[]> {
  const { features } = await apiGet('Classification/GetReleaseClassFeatures', { release, classCode, lang });
  return features.map((f) => ({
    code: f.code,
    name: f.name ?? f.code,
    type: f.type,
    unit: f.unit ? (f.unit.symbol ?? f.unit.unece ?? f.unit.code) : null,
    values: f.values.map((v) => ({ code: v.code, name: v.name ?? v.code })),
  }));
}
