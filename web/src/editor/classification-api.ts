import { apiGet } from '../api/client';
import type { ClassEntry, ElementClassification, FeatureDef } from '../api/models';

/** Reference data and the element's classification for the web editor (the Classification operations of /api/openapi.json). */
export type { ClassEntry, FeatureDef };
export type Group = ClassEntry['group'];
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
