import type { StoredFeature, StoredFeatureBlock, StoredFeatureGroup } from '../../model/feature-block-types';
import type { ExportWarnings } from '../export-warnings';
import { systemName } from './feature-blocks';
import type { BlockForm } from './block-form';
import { featureOut, fitter, type Fit } from './feature-out';
import { el, textEl } from './xml-text';

/** FEATURE_GROUP as 2005+onto (and 2005.1) write it: names, description, id, then its features. */
function groupElement(group: StoredFeatureGroup, features: string[], fit: Fit): string {
  return el(
    'FEATURE_GROUP',
    [
      textEl('FEATURE_GROUP_NAME', fit(group.name, 250, 'FEATURE_GROUP_NAME')),
      ...Object.entries(group.names ?? {}).map(([lang, text]) =>
        textEl('FEATURE_GROUP_NAME', fit(text, 250, 'FEATURE_GROUP_NAME'), { lang }),
      ),
      textEl('FEATURE_GROUP_DESCRIPTION', fit(group.descr, 4000, 'FEATURE_GROUP_DESCRIPTION')),
      textEl('REFERENCE_FEATURE_GROUP_ID', fit(group.id, 60, 'REFERENCE_FEATURE_GROUP_ID')),
      ...features,
    ],
    group.type ? { featureGroupType: group.type } : undefined,
  );
}

/**
 * What a block lost by being written flat, as counted report lines: one per feature of the
 * tree (so the count says how many were flattened) and one per FEATURE_GROUP, whose examples
 * name the product and the group.
 */
function reportFlattened(block: StoredFeatureBlock, form: BlockForm, subject: string, warnings: ExportWarnings) {
  if (form.tree) return;
  const name = block.system || '(unnamed)';
  const where = form.templates ? 'its name as FT_GROUP_NAME of its features' : 'left out';
  // One kind for every group (the tally keeps few kinds); the examples name product and group.
  for (const group of block.featureGroups ?? [])
    warnings.add(`feature block ${name}: FEATURE_GROUP written flat (${where})`, `${subject} (${group.id})`);
  for (const f of block.features)
    if (f.fid || f.parentId || f.featureGroup !== undefined)
      warnings.add(`feature block ${name}: feature of an eCl@ss Advanced tree written flat`, subject);
}

/**
 * A category's FEATUREs (CATALOG_STRUCTURE has no place for them in any dialect's schema, so
 * they are written only with udxVerbatim, catalog-structure.ts) in `form`'s rules, in order.
 */
export function featureElements(
  features: readonly StoredFeature[],
  form: BlockForm,
  subject: string,
  warnings: ExportWarnings,
): string {
  const fit = fitter(subject, warnings);
  const lost = new Set<string>();
  const out = features.flatMap((f) => featureOut(f, form, fit, lost)?.xml ?? []).join('');
  for (const reason of lost) warnings.add(`group features: ${reason}`, subject);
  return out;
}

/**
 * The feature blocks of other systems (UNSPSC, udf_*, eCl@ss Advanced …) as `form` can write
 * them, in their stored order, after the classification blocks. What the schema cannot
 * express is written in the nearest valid form or left out, with an export warning; the file
 * stays valid. An eCl@ss Advanced tree is written whole where the form has the tree (the
 * block's own features, then each FEATURE_GROUP with its features); elsewhere every feature is
 * written flat, in stored order, and the report names what was flattened.
 */
export function otherFeatureBlocks(
  blocks: readonly StoredFeatureBlock[] | undefined,
  form: BlockForm,
  subject: string,
  warnings: ExportWarnings,
): string[] {
  const fit = fitter(subject, warnings);
  return (blocks ?? []).map((block) => {
    const lost = new Set<string>();
    const groups = block.featureGroups ?? [];
    const top: string[] = [];
    const inGroup = groups.map((): string[] => []);
    const names = new Set<string>();
    for (const f of block.features) {
      const group = f.featureGroup === undefined ? undefined : groups[f.featureGroup];
      const out = featureOut(f, form, fit, lost, form.tree ? undefined : group);
      if (!out) continue;
      if (form.uniqueNames && names.has(out.name)) {
        // Named: in a flattened modelling class, the same feature of another port is what goes.
        lost.add(`repeated FNAME ${out.name} left out (the schema requires unique names)`);
        continue;
      }
      names.add(out.name);
      (form.tree && group ? inGroup[f.featureGroup!]! : top).push(out.xml);
    }
    reportFlattened(block, form, subject, warnings);
    let groupId = fit(block.groupId, 60, 'REFERENCE_FEATURE_GROUP_ID');
    let groupName = groupId ? null : fit(block.groupName, 60, 'REFERENCE_FEATURE_GROUP_NAME');
    if (groupId && block.groupName)
      lost.add('REFERENCE_FEATURE_GROUP_NAME left out (the schema allows the id or the name)');
    if (form.groupIdRequired && !groupId) {
      groupId = groupName ?? '-';
      groupName = null;
    }
    if (block.groupId2 && !form.groupId2) lost.add('REFERENCE_FEATURE_GROUP_ID2 left out');
    // An ETIM modelling class (ETIM-MC) here is a plain block: its header and ports' connections have no element.
    if (block.modelling || groups.some((g) => g.connectionType || g.connectionTypeVersion))
      lost.add('ETIM modelling class version, BIM status and port connection types left out');
    const system =
      block.system === ''
        ? form.groupIdRequired
          ? 'UNKNOWN'
          : null
        : form.systemPattern
          ? systemName(block.system, subject, warnings)
          : fit(block.system, 50, 'REFERENCE_FEATURE_SYSTEM_NAME');
    for (const reason of lost) warnings.add(`feature block ${block.system || '(unnamed)'}: ${reason}`, subject);
    // The 2005 schemas enumerate the type of a group id: flat or hierarchy.
    const id2Type = block.groupId2Type === 'flat' || block.groupId2Type === 'hierarchy' ? block.groupId2Type : null;
    return el(form.element, [
      textEl('REFERENCE_FEATURE_SYSTEM_NAME', system),
      textEl('REFERENCE_FEATURE_GROUP_ID', groupId),
      textEl('REFERENCE_FEATURE_GROUP_NAME', groupName),
      form.groupId2
        ? textEl(
            'REFERENCE_FEATURE_GROUP_ID2',
            fit(block.groupId2, 60, 'REFERENCE_FEATURE_GROUP_ID2'),
            id2Type ? { type: id2Type } : undefined,
          )
        : '',
      ...top,
      ...(form.tree ? groups.map((g, i) => groupElement(g, inGroup[i]!, fit)) : []),
    ]);
  });
}
