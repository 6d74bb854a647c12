import { apiGet } from '../api/client';

/** Reference data and the element's classification for the web editor (API-CONTRACTS "Web-app operations"). */
export type Group = 'ETIM' | 'ECLASS' | 'PROFICLASS';
export const GROUPS: Group[] = ['ETIM', 'ECLASS', 'PROFICLASS'];
export const GROUP_LABELS: Record<Group, string> = { ETIM: 'ETIM', ECLASS: 'eCl@ss', PROFICLASS: 'proficl@ss' };

export interface ClassEntry {
  group: Group;
  code: string;
  name: string;
  system?: string;
}

export interface FeatureDef {
  group?: Group;
  code: string;
  name: string;
  type: 'A' | 'N' | 'R' | 'L';
  unit: string | null;
  values: { code: string; name: string }[];
}

interface ElementClassification {
  classes: ClassEntry[];
  features: { group?: Group; code: string; value: string; unit?: string | null }[];
}

const listOf = <T>(body: unknown, ...names: string[]): T[] => {
  if (Array.isArray(body)) return body as T[];
  for (const name of names) {
    const v = (body as Record<string, unknown> | null)?.[name];
    if (Array.isArray(v)) return v as T[];
  }
  return [];
};

export async function searchClasses(group: Group, q: string, signal?: AbortSignal): Promise<ClassEntry[]> {
  const body = await apiGet<unknown>('Classification/SearchClasses', { group, q }, { signal });
  return listOf<ClassEntry>(body, 'items', 'classes').map((c) => ({ ...c, group: c.group ?? group }));
}

export async function getClassFeatures(group: Group, classCode: string): Promise<FeatureDef[]> {
  const body = await apiGet<unknown>('Classification/GetClassFeatures', { group, classCode });
  return listOf<FeatureDef & { allowedValues?: FeatureDef['values'] }>(body, 'items', 'features').map((f) => ({
    ...f,
    unit: f.unit ?? null,
    values: f.values ?? f.allowedValues ?? [],
  }));
}

/** `{elementId, classification: {classes, features, ...} | null}`; null means not classified. */
export async function getElementClassification(elementId: string): Promise<ElementClassification> {
  const body = await apiGet<{ classification?: Partial<ElementClassification> | null }>(
    'Classification/GetElementClassification',
    { elementId },
  );
  const c = body?.classification;
  return { classes: c?.classes ?? [], features: c?.features ?? [] };
}
