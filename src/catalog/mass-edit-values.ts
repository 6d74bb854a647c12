import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { attributeValues, classificationLinkFeatures, classificationLinks, type products } from '../db/schema';
import { findAttributeByCode } from './attributes';
import { builtInField } from '../model/fields';
import type { Caller } from '../kernel/caller';

type ProductRow = typeof products.$inferSelect;

/**
 * The current stored value of `field` for each product of a page, as SetValue's planning
 * normalises values ("" when unset), read in one query per page. Mass edit compares it with
 * the planned value to count a product as unchanged and leave its revision alone.
 */
export async function currentValues(
  db: Database,
  tenant: Caller,
  field: string,
  rows: ProductRow[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (rows.length === 0) return out;
  const ids = rows.map((r) => r.id);
  const builtIn = builtInField('product', field);
  if (builtIn) {
    for (const row of rows) {
      const stored = (row as Record<string, unknown>)[builtIn.column];
      out.set(row.id, stored === null || stored === undefined ? '' : String(stored));
    }
    return out;
  }
  const attribute = await findAttributeByCode(db, tenant, field);
  if (attribute) {
    const values = await db
      .select({ elementId: attributeValues.elementId, value: attributeValues.value })
      .from(attributeValues)
      .where(and(eq(attributeValues.attributeId, attribute.id), inArray(attributeValues.elementId, ids)));
    for (const v of values) out.set(v.elementId, v.value);
  } else {
    const values = await db
      .select({ elementId: classificationLinks.elementId, value: classificationLinkFeatures.value })
      .from(classificationLinks)
      .innerJoin(classificationLinkFeatures, eq(classificationLinkFeatures.linkId, classificationLinks.id))
      .where(
        and(
          eq(classificationLinks.companyId, tenant.companyId),
          inArray(classificationLinks.elementId, ids),
          eq(classificationLinkFeatures.code, field),
        ),
      );
    for (const v of values) out.set(v.elementId, v.value);
  }
  for (const id of ids) if (!out.has(id)) out.set(id, '');
  return out;
}
