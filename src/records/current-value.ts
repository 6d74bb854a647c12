import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import {
  attributes,
  attributeValues,
  catalogs,
  categories,
  classificationLinkFeatures,
  classificationLinks,
  products,
} from '../db/schema';
import type { ElementRef } from '../db/scope';
import type { Json, Snapshot } from './snapshot';
import { featureUnitPathOf } from '../model/class-version';

/**
 * The partial snapshot `{path: current value}` of one path of an element (a kept feature value
 * with its unit's path, as featureSnapshot records it): one small query
 * instead of a full snapshot, for writes that change a single field (SetValue, mass edit).
 */
export async function loadPath(
  db: Database,
  companyId: string,
  element: Pick<ElementRef, 'id' | 'kind'>,
  path: string,
): Promise<Snapshot> {
  let value: Json | undefined;
  let keptUnit: string | null = null;
  if (path.startsWith('values.')) {
    const [row] = await db
      .select({ value: attributeValues.value })
      .from(attributeValues)
      .innerJoin(attributes, eq(attributes.id, attributeValues.attributeId))
      .where(
        and(
          eq(attributeValues.elementId, element.id),
          eq(attributes.companyId, companyId),
          eq(attributes.code, path.slice(7)),
        ),
      );
    value = row?.value;
  } else if (path.startsWith('classification.feature.')) {
    const [, , group, ...code] = path.split('.');
    const [row] = await db
      .select({
        value: classificationLinkFeatures.value,
        unit: classificationLinkFeatures.unit,
        unverified: classificationLinkFeatures.unverified,
      })
      .from(classificationLinkFeatures)
      .innerJoin(classificationLinks, eq(classificationLinks.id, classificationLinkFeatures.linkId))
      .where(
        and(
          eq(classificationLinks.elementId, element.id),
          eq(classificationLinks.companyId, companyId),
          eq(classificationLinkFeatures.group, group as 'ETIM'),
          eq(classificationLinkFeatures.code, code.join('.')),
        ),
      );
    value = row?.value;
    // A value kept as text keeps its unit in the snapshot too (model/class-version.ts featureSnapshot).
    if (row?.unverified && row.unit) keptUnit = row.unit;
  } else {
    const table = element.kind === 'catalog' ? catalogs : element.kind === 'category' ? categories : products;
    const rows = await db
      .select()
      .from(table)
      .where(and(eq(table.id, element.id), eq(table.companyId, companyId)));
    value = (rows[0] as Record<string, Json> | undefined)?.[path];
  }
  if (value === undefined || value === null) return {};
  return keptUnit ? { [path]: value, [featureUnitPathOf(path)!]: keptUnit } : { [path]: value };
}
