import { and, asc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import { type BatchStatement, chunkForInsert, type Database } from '../db/client';
import { catalogFormulas, catalogs } from '../db/schema';

/**
 * One element of a FORMULA as stored: its name, its attributes (`lang` of a multilingual text,
 * `type` of a TERM or PARAMETER_ORIGIN), its text, or its children in the file's order. The
 * whole FORMULA is one such tree, so every part BMEcat 2005 defines (FORMULA_VERSION,
 * FORMULA_SOURCE, MIME_INFO, FORMULA_FUNCTION with its TERMs, PARAMETER_DEFINITIONS ...) is kept
 * without a column of its own; the import checks it against the XSD's content model
 * (src/imports/records/bmecat-formulas.ts), the 2005 export writes it back element by element.
 */
export interface FormulaNode {
  name: string;
  attrs?: Record<string, string>;
  text?: string;
  children?: FormulaNode[];
}

/** A catalog's formula: its FORMULA_ID and the FORMULA element. */
export interface CatalogFormula {
  id: string;
  formula: FormulaNode;
}

interface FormulaScope {
  companyId: string;
  catalogId: string;
}

/**
 * Statements that store `formulas` in the catalog (migration 0089), each replacing a stored
 * formula of its id in place or appended after the catalog's last: what a re-import of the same
 * catalog does. Nothing is written unless the catalog is the company's (the SELECT reads the
 * catalog row by both), so a caller cannot reach another company's catalog through them.
 */
export function formulaStatements(db: Database, scope: FormulaScope, formulas: CatalogFormula[]): BatchStatement[] {
  return formulas.map((f) =>
    db
      .insert(catalogFormulas)
      .select(
        sql`SELECT ${catalogs.id}, ${f.id}, ${catalogs.companyId},
          (SELECT coalesce(max(cf.position), 0) + 1 FROM catalog_formulas cf WHERE cf.catalog_id = ${catalogs.id}),
          ${JSON.stringify(f.formula)}
        FROM ${catalogs} WHERE ${catalogs.id} = ${scope.catalogId} AND ${catalogs.companyId} = ${scope.companyId}`,
      )
      .onConflictDoUpdate({
        target: [catalogFormulas.catalogId, catalogFormulas.formulaId],
        set: { formula: sql`excluded.formula` },
        setWhere: sql`${catalogFormulas.companyId} = excluded.company_id`,
      }),
  );
}

/** The rows of the scope's catalog (its company's: every read is tenant-checked). */
const ofCatalog = (scope: FormulaScope) =>
  [eq(catalogFormulas.companyId, scope.companyId), eq(catalogFormulas.catalogId, scope.catalogId)] as const;

/**
 * The last position of the catalog's formulas (0: none): an export pins it when it starts, and
 * writes and names as defined only the formulas up to it, so the file's FORMULAS and its
 * prices' reports agree however long the export runs.
 */
export async function lastFormulaPosition(db: Database, scope: FormulaScope): Promise<number> {
  const [row] = await db
    .select({ last: sql<number | null>`max(${catalogFormulas.position})` })
    .from(catalogFormulas)
    .where(and(...ofCatalog(scope)));
  return row?.last ?? 0;
}

/** Which of `ids` the catalog defines up to position `through` (lastFormulaPosition). */
export async function definedFormulaIds(
  db: Database,
  scope: FormulaScope,
  ids: readonly string[],
  through: number,
): Promise<Set<string>> {
  const found = new Set<string>();
  if (through <= 0) return found;
  // D1 binds at most 100 parameters per statement.
  for (const chunk of chunkForInsert([...ids], 2)) {
    const rows = await db
      .select({ id: catalogFormulas.formulaId })
      .from(catalogFormulas)
      .where(
        and(...ofCatalog(scope), inArray(catalogFormulas.formulaId, chunk), lte(catalogFormulas.position, through)),
      );
    for (const r of rows) found.add(r.id);
  }
  return found;
}

/**
 * A page of the catalog's formulas in the export's order, after `position` (0: from the first)
 * and up to `through`. Each row is one FORMULA, bounded by the import's limits, so a page of
 * `limit` stays small.
 */
export async function readFormulaPage(
  db: Database,
  scope: FormulaScope,
  page: { after: number; through: number; limit: number },
): Promise<{ formulas: (CatalogFormula & { position: number })[]; last: number | null }> {
  const { after, through, limit } = page;
  const rows = await db
    .select({ id: catalogFormulas.formulaId, position: catalogFormulas.position, formula: catalogFormulas.formula })
    .from(catalogFormulas)
    .where(and(...ofCatalog(scope), gt(catalogFormulas.position, after), lte(catalogFormulas.position, through)))
    .orderBy(asc(catalogFormulas.position))
    .limit(limit);
  const formulas = rows.map((r) => ({ id: r.id, position: r.position, formula: JSON.parse(r.formula) as FormulaNode }));
  return { formulas, last: rows.length === limit ? rows.at(-1)!.position : null };
}
