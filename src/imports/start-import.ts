import { z } from 'zod';
import type { Database } from '../db/client';
import type { JobMessage } from '../env';
import { conflict, forbidden } from '../kernel/app-error';
import { assertImportMode, NOT_PERMITTED, textLanguagesOf } from '../kernel/permissions';
import { narrowingScope } from '../db/scope-counts';
import { assertDepartment, findCatalog } from '../db/scope';
import { enqueueJob } from '../jobs/jobs';
import { IMPORT_FORMATS } from './read/detect-format';
import { findImportFile } from './import-files';
import type { ImportParams } from './run-import';
import type { Caller } from '../kernel/caller';
import { LANGUAGES_NOT_ENABLED } from './read/file-languages';

export const StartImportDto = z.strictObject({
  departmentId: z.uuid(),
  catalogId: z.uuid(),
  fileId: z.uuid(),
  /** Detected from the file when left out; given, the file must be of this format. */
  format: z.enum(IMPORT_FORMATS).nullish(),
  /**
   * `upsert` (default) creates and updates by SKU; `createOnly` leaves products whose SKU exists
   * untouched; `texts` writes only the texts of existing products in the caller's languages
   * (docs/teams.md "Language scope": what a translator may import).
   */
  mode: z.enum(['upsert', 'createOnly', 'texts']).default('upsert'),
  /** Reads and checks everything, writes nothing, and reports what would happen. */
  dryRun: z.boolean().default(false),
  /**
   * Rejects a product for any field that does not check (a wrong GTIN check digit, an order
   * unit that is no Rec. 20 code, a class not in the reference data ...). Default false: such
   * a product is kept, the field handled by the rules of docs/import.md and a warning reported.
   */
  strict: z.boolean().default(false),
  /**
   * Texts of the file in a language the company has not enabled (docs/import.md "Languages"):
   * `fail` (default) fails the import before anything is written, naming each language;
   * `skip` leaves those texts out with one warning per language.
   */
  languagesNotEnabled: z.enum(LANGUAGES_NOT_ENABLED).default('fail'),
});

/** Validates the request, then queues the import as a background job (observed with Job/GetJob). */
export async function startImport(
  deps: { db: Database; queue: Queue<JobMessage> },
  caller: Caller,
  input: z.infer<typeof StartImportDto>,
) {
  assertImportMode(caller, input.mode);
  await assertDepartment(deps.db, caller, input.departmentId);
  const catalog = await findCatalog(deps.db, caller, input.catalogId, input.departmentId);
  const file = await findImportFile(deps.db, caller, input.fileId);
  if (file.state !== 'complete') throw conflict('the upload is not complete yet (Import/CompleteUpload)');
  // A member limited to category subtrees imports row by row into them (docs/teams.md); one
  // limited to other catalogs may not import into this one.
  const scope = narrowingScope(caller, catalog.id);
  if (scope && !scope.categoryIds.length) throw forbidden(NOT_PERMITTED);
  const params: ImportParams = {
    catalogId: catalog.id,
    fileId: file.id,
    format: input.format ?? null,
    mode: input.mode,
    ...(input.mode === 'texts' ? { textLanguages: textLanguagesOf(caller) } : {}),
    dryRun: input.dryRun,
    strict: input.strict,
    languagesNotEnabled: input.languagesNotEnabled,
    ...(scope ? { scopeCategoryIds: [...scope.categoryIds] } : {}),
  };
  return enqueueJob(
    deps,
    { companyId: caller.companyId, departmentId: input.departmentId, userId: caller.userId },
    { kind: 'import', params: { ...params } },
  );
}
