import type { BatchStatement } from '../../db/client';
import { type CatalogFormula, formulaStatements } from '../../model/catalog-formulas';
import type { BatchScope } from '../records/batch-types';
import type { FormulaReading } from '../records/bmecat-formulas';
import { type ImportWarning, type Rejection, rejectionStatements, warningStatements } from '../report/import-report';

/** A FORMULA read from the file, with where it was. */
export interface PendingFormula {
  seq: number;
  location: string;
  reading: FormulaReading;
}

/** The report code of a FORMULA that does not check (docs/import.md). */
export const FORMULA_INVALID = 'formula_invalid';

/** Why a scoped member's import leaves the file's formulas out: they are the catalog's, not a subtree's. */
export const FORMULAS_OUTSIDE_SCOPE =
  "price formulas (FORMULAS) are the catalog's: not written by a member limited to category subtrees";

/**
 * What one batch of a file's FORMULAs writes (docs/import.md "Price formulas"): the formulas that
 * check, each replacing the catalog's formula of its id, and a report row for each that does not,
 * a warning (it is left out, the import goes on) or, with `strict`, a rejection. A dry run, a
 * texts-only import and a member limited to category subtrees keep none (only the report rows).
 * The caller commits the statements with the checkpoint after the batch: all or nothing.
 */
export function formulaBatch(
  scope: BatchScope,
  formulas: PendingFormula[],
): { statements: BatchStatement[]; kept: number; problems: { code: string; subject: string; rejected: boolean }[] } {
  const kept: CatalogFormula[] = [];
  const rejections: Rejection[] = [];
  const warnings: ImportWarning[] = [];
  const problems: { code: string; subject: string; rejected: boolean }[] = [];
  for (const f of formulas) {
    if (f.reading.formula) {
      kept.push(f.reading.formula);
      continue;
    }
    const subject = `formula ${f.reading.id ?? '(no FORMULA_ID)'}`;
    const row = { seq: f.seq, sku: null, location: f.location, code: FORMULA_INVALID, reason: f.reading.problem };
    if (scope.strict) rejections.push(row);
    else warnings.push(row);
    problems.push({ code: FORMULA_INVALID, subject, rejected: scope.strict });
  }
  const writes = !scope.dryRun && !scope.texts && !scope.scopeCategoryIds;
  return {
    statements: [
      ...(writes ? formulaStatements(scope.db, scope, kept) : []),
      ...rejectionStatements(scope.db, scope.jobId, rejections),
      ...warningStatements(scope.db, scope.jobId, warnings),
    ],
    kept: kept.length,
    problems,
  };
}
