/**
 * The tree of an eCl@ss Advanced feature block as the editor shows it (docs/web.md "Feature
 * blocks"): each feature indented under its parent (FPARENT_ID -> FID), a heading where a
 * FEATURE_GROUP begins. Rows keep the stored order, which is the file's: the table is edited
 * by position, and a reordered view would move what the user points at.
 */

/** The parts of a feature the tree reads (the API's feature, without depending on its type). */
export interface TreeFeature {
  fid?: string;
  parentId?: string;
  featureGroup?: number;
}

export interface TreeGroup {
  id?: string;
  name?: string;
}

/** A feature group as the API gives it: a modelling port (block system ETIM-MC) carries its connection type. */
interface BlockGroup extends TreeGroup {
  connectionType?: string;
  connectionTypeVersion?: number;
}

/**
 * The groups as the headings name them. In an ETIM modelling class (system ETIM-MC) each group
 * is a port: headed by `portLabel` of its port code, then its connection type and version.
 */
export function headingGroups(
  system: string,
  groups: readonly BlockGroup[],
  portLabel: (port: string) => string,
): TreeGroup[] {
  if (system !== 'ETIM-MC') return [...groups];
  return groups.map((g) => ({
    name: portLabel(g.id ?? ''),
    id: g.connectionType
      ? `${g.connectionType}${g.connectionTypeVersion ? ` v${g.connectionTypeVersion}` : ''}`
      : undefined,
  }));
}

export interface TreeRow {
  /** How many ancestors the feature has in its block (0: a root, or a parent the block lacks). */
  depth: number;
  /** The heading of the FEATURE_GROUP that begins at this row, if one does. */
  groupHeading: string | null;
}

/** FIDs are unique within a FEATURE_GROUP (suppliers number each group from its own root), so a parent is looked up there first. */
const scopeKey = (group: number | undefined, fid: string) => `${group ?? ''}\u0000${fid}`;

/** The depth and group heading of each feature, in the features' order. */
export function featureTree(features: readonly TreeFeature[], groups: readonly TreeGroup[] = []): TreeRow[] {
  const inScope = new Map<string, number>();
  const anywhere = new Map<string, number>();
  features.forEach((f, i) => {
    if (!f.fid) return;
    if (!inScope.has(scopeKey(f.featureGroup, f.fid))) inScope.set(scopeKey(f.featureGroup, f.fid), i);
    if (!anywhere.has(f.fid)) anywhere.set(f.fid, i);
  });
  const depths = new Map<number, number>();
  const depthOf = (i: number, seen: Set<number>): number => {
    const known = depths.get(i);
    if (known !== undefined) return known;
    const f = features[i]!;
    const parent = f.parentId
      ? (inScope.get(scopeKey(f.featureGroup, f.parentId)) ?? anywhere.get(f.parentId))
      : undefined;
    // A cycle (a file whose FPARENT_IDs loop) ends at the feature met twice.
    const depth = parent === undefined || parent === i || seen.has(parent) ? 0 : depthOf(parent, seen.add(i)) + 1;
    depths.set(i, depth);
    return depth;
  };
  return features.map((f, i) => {
    const group = f.featureGroup;
    const starts = group !== undefined && (i === 0 || features[i - 1]!.featureGroup !== group);
    const g = group === undefined ? undefined : groups[group];
    const heading = starts ? [g?.name, g?.id].filter(Boolean).join(' · ') || `#${group + 1}` : null;
    return { depth: depthOf(i, new Set()), groupHeading: heading };
  });
}

/**
 * What saving keeps of a feature's stored parts beside the edited values: the value languages
 * only while there is still one per value (the server refuses a mismatch), so editing the
 * values of a multilingual feature does not make the block unsavable.
 */
export function keptParts<T extends { values?: string[]; valueLangs?: string[] }>(rest: T, values: string[]): T {
  const { valueLangs, ...kept } = rest;
  return (valueLangs && valueLangs.length === values.length ? { ...kept, valueLangs } : kept) as T;
}
