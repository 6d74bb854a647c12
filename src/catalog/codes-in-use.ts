import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { catalogCodesInUse } from '../db/schema';
import { findCatalog } from '../db/scope';
import type { Caller } from '../kernel/caller';
import { codeContaining, codePrefixIgnoringCase } from './code-search';
import { type KeysetQuery, keysetPage, Page } from '../kernel/pagination';

/** The lists GetCodesInUse answers: each a code column of a table of the catalog's products. */
export const CODE_LISTS = ['priceTypes', 'featureSystems'] as const;

export const CodesInUseQuery = z.strictObject({
  catalogId: z.uuid(),
  list: z.enum(CODE_LISTS).describe('priceTypes: the types of the prices; featureSystems: the feature-block systems'),
  q: z
    .string()
    .trim()
    .max(100)
    .optional()
    .describe("only codes containing this text, ASCII case ignored (the pick lists' filter box); empty: all"),
  prefix: z
    .string()
    .max(100)
    .optional()
    .describe(
      'only codes beginning with this text, ASCII case ignored ("etim" finds "ETIM-9.0"): an index range, whatever the number of codes',
    ),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const CodesInUseOut = Page(z.object({ code: z.string() }));

/**
 * `Catalog/GetCodesInUse`: the price types or feature-block systems the catalog's products and
 * variants use, in code order, one keyset page at a time. The connection form offers them as
 * choices (docs/web.md "Shops"). A page is a range of `catalog_codes_in_use`'s primary key
 * (catalog, list, code), which the triggers of migration 0065 keep in step with every write of
 * a price or feature block: a catalog of 1,000,000 products costs as little as one of ten.
 * With `q` only the codes containing it (LIKE, so ASCII letters match either case; `%`, `_`
 * and `\` match themselves): still the same key range, now read until a page of matches is
 * found, so a search costs the catalog's distinct codes of that list at most, never its products.
 * With `prefix` only the codes beginning with it, ASCII case ignored: a range of the NOCASE index
 * of migration 0085 (code-search.ts), so a page costs the prefix's matches however many codes
 * the catalog has; they are sorted by the code for the answer, whose order stays the key's.
 */
export async function listCodesInUse(db: Database, tenant: Caller, input: z.infer<typeof CodesInUseQuery>) {
  await findCatalog(db, tenant, input.catalogId);
  return keysetPage(
    input,
    { column: catalogCodesInUse.code, order: 'asc' },
    (page) => codesInUsePage(db, input, page),
    (row) => row.code,
  );
}

/** One page's query of `listCodesInUse` (its plan is checked by test/codes-in-use.test.ts). */
export function codesInUsePage(
  db: Database,
  input: Pick<z.infer<typeof CodesInUseQuery>, 'catalogId' | 'list' | 'q' | 'prefix'>,
  page: KeysetQuery,
) {
  return (
    db
      .select({ code: catalogCodesInUse.code })
      .from(catalogCodesInUse)
      .where(
        and(
          eq(catalogCodesInUse.catalogId, input.catalogId),
          eq(catalogCodesInUse.list, input.list),
          input.prefix ? codePrefixIgnoringCase(catalogCodesInUse.code, input.prefix) : undefined,
          input.q ? codeContaining(catalogCodesInUse.code, input.q) : undefined,
          page.after,
        ),
      )
      // `+code`: the same order, but not offered by the primary key, whose walk of the whole list
      // SQLite would otherwise prefer to sorting the prefix's range of the NOCASE index.
      .orderBy(input.prefix ? sql`+${catalogCodesInUse.code}` : page.orderBy)
      .limit(page.limit)
  );
}
