import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { runExportSlice } from '../src/exports/run-export';
import { SUPPLIER_DIALECTS, supplierFile, type SupplierDialect } from './fixtures/supplier-dialects';
import { catalogData } from './helpers/catalog-canonical';
import { insertExportJob, jobRow, testDeps } from './helpers/export-fixtures';
import { makeCatalog, makeSession } from './helpers/factories';
import { importDeps, importJobRow, insertImportJob, putImportFile, runImportToEnd } from './helpers/import-fixtures';

type Session = Awaited<ReturnType<typeof makeSession>>;

async function exportText(session: Session, catalogId: string, exportType: string): Promise<string> {
  const jobId = await insertExportJob(session.tenant, { catalogId, exportType });
  for (
    let i = 0;
    i < 50 && (await runExportSlice(testDeps({ sliceMs: 60_000 }), await jobRow(jobId))) === 'continued';
    i++
  );
  const row = await jobRow(jobId);
  expect(row.state).toBe('succeeded');
  return (await env.FILES.get(row.resultKey!))!.text();
}

/** The catalog settings a dialect's file is imported into: its languages. */
const catalogOf = (d: SupplierDialect) =>
  d.englishDefault ? { language: 'eng' } : d.twoLanguages ? { language: 'deu', languages: ['eng'] } : {};

/** Imports `text` into a new, empty catalog; nothing may be rejected. */
async function importInto(session: Session, d: SupplierDialect, text: string) {
  const { catalogId } = await makeCatalog(session.tenant, { name: 'Rundreise', ...catalogOf(d) });
  const fileId = await putImportFile(session.tenant, text);
  const jobId = await insertImportJob(session.tenant, { catalogId, fileId });
  await runImportToEnd(jobId, importDeps({ batchSize: 2 }));
  const job = await importJobRow(jobId);
  expect(job.error).toBeNull();
  expect(job.summary).toMatchObject({ rejected: 0 });
  return catalogId;
}

describe('a supplier file of each dialect: import, export BMEcat 2005, import that export', () => {
  it.each(SUPPLIER_DIALECTS)('$name gives the same data', async (d) => {
    const session = await makeSession();
    const source = await importInto(session, d, supplierFile(d));
    const first = await catalogData(session.tenant.companyId, source);

    const exported = await exportText(session, source, 'BMEcat');
    const target = await importInto(session, d, exported);
    const second = await catalogData(session.tenant.companyId, target);
    expect(second).toEqual(first);
  });
});
