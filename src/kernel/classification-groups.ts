/**
 * The classification groups of docs/spec.md: one home for the value set that the database
 * schema, the input validators, the bitmask, the exporters and the importers use. This module
 * imports nothing, so `db/schema.ts` can use it too.
 */
export const CLASSIFICATION_GROUPS = ['ETIM', 'ECLASS', 'PROFICLASS'] as const;

export type ClassificationGroup = (typeof CLASSIFICATION_GROUPS)[number];

/** The `classificationGroups` bitmask: each group's bit and its display label. */
export const GROUPS = [
  { value: 1, code: 'ETIM', label: 'ETIM' },
  { value: 2, code: 'ECLASS', label: 'eCl@ss' },
  { value: 4, code: 'PROFICLASS', label: 'proficl@ss' },
] as const satisfies readonly { value: number; code: ClassificationGroup; label: string }[];

/** The bit of one group in the `classificationGroups` bitmask. */
export function groupBit(group: ClassificationGroup): number {
  return GROUPS.find((g) => g.code === group)!.value;
}
