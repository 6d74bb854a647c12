import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { attributes, attributeValues } from '../db/schema';
import { badRequest } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';

/**
 * Attribute values with the product list (`GetProducts?attributes=voltage,colour`): the grid's
 * attribute columns get their values with the page instead of one GetProduct per row. The
 * codes are resolved once per request (the company's attributes, unique by code); the values
 * of a page are one set-based read of attribute_values' primary key (element_id, attribute_id),
 * joined to the attribute for the tenant check:
 * at most page size × codes seeks, whatever the size of the catalog.
 */
interface ListedAttribute {
  id: string;
  code: string;
  type: string;
  unit: string | null;
}

interface ListedValue {
  code: string;
  type: string;
  value: string;
  unit: string | null;
}

/** The company's attributes named by `codes`; an unknown code is a 400 naming it. */
export async function resolveListAttributes(db: Database, tenant: Caller, codes: string[]): Promise<ListedAttribute[]> {
  const unique = [...new Set(codes)];
  const rows = await db
    .select({ id: attributes.id, code: attributes.code, type: attributes.type, unit: attributes.unit })
    .from(attributes)
    .where(
      and(
        eq(attributes.companyId, tenant.companyId),
        inArray(attributes.code, sql`(SELECT value FROM json_each(${JSON.stringify(unique)}))`),
      ),
    );
  const known = new Set(rows.map((r) => r.code));
  const unknown = unique.filter((c) => !known.has(c));
  if (unknown.length > 0)
    throw badRequest(`attributes: no attribute with the code ${unknown.map((c) => `"${c}"`).join(', ')}`);
  return rows.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

/** The values of the chosen attributes for one page of products, by product id (each list ordered by code). */
export async function listedValues(
  db: Database,
  tenant: Caller,
  productIds: string[],
  chosen: ListedAttribute[],
): Promise<Map<string, ListedValue[]>> {
  const byProduct = new Map<string, ListedValue[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0 || chosen.length === 0) return byProduct;
  // The tenant is the attribute's (attribute_values has no company_id since migration 0010): the
  // chosen ids are the company's already, and the join checks it again as every read does.
  const rows = await db
    .select({
      elementId: attributeValues.elementId,
      attributeId: attributeValues.attributeId,
      value: attributeValues.value,
    })
    .from(attributeValues)
    .innerJoin(attributes, eq(attributes.id, attributeValues.attributeId))
    .where(
      and(
        inArray(attributeValues.elementId, sql`(SELECT value FROM json_each(${JSON.stringify(productIds)}))`),
        inArray(
          attributeValues.attributeId,
          sql`(SELECT value FROM json_each(${JSON.stringify(chosen.map((a) => a.id))}))`,
        ),
        sql`+${attributes.companyId} = ${tenant.companyId}`,
      ),
    );
  const attributeOf = new Map(chosen.map((a) => [a.id, a]));
  for (const row of rows) {
    const a = attributeOf.get(row.attributeId)!;
    byProduct.get(row.elementId)?.push({ code: a.code, type: a.type, value: row.value, unit: a.unit });
  }
  for (const list of byProduct.values()) list.sort((x, y) => (x.code < y.code ? -1 : x.code > y.code ? 1 : 0));
  return byProduct;
}
