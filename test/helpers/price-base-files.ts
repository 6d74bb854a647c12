import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { getPrices } from '../../src/catalog/prices/prices';
import { products } from '../../src/db/schema';
import { file, product } from '../fixtures/bmecat-variants';
import { exportedFile } from './export-fixtures';
import { asActor, db, makeCatalog, type makeSession } from './factories';
import { importDeps, insertImportJob, putImportFile, reportRows, runImportToEnd } from './import-fixtures';

/**
 * Fixture pieces and runners of the PRICE_BASE tests (test/price-base-import.test.ts,
 * test/price-base-export.test.ts): XML of a price and its base written here, an import into a
 * fresh catalog read back as GetPrices reads it (the product is always BASE-1), an export run
 * to its end.
 */

export type Session = Awaited<ReturnType<typeof makeSession>>;

export const ORDER = '<PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT></PRODUCT_ORDER_DETAILS>';
export const base = (unit: string, factor?: string, value?: string) =>
  `<PRICE_BASE>${value ? `<PRICE_UNIT_VALUE>${value}</PRICE_UNIT_VALUE>` : ''}<PRICE_UNIT>${unit}</PRICE_UNIT>${factor ? `<PRICE_UNIT_FACTOR>${factor}</PRICE_UNIT_FACTOR>` : ''}</PRICE_BASE>`;
export const price = (type: string, amount: string, more = '') =>
  `<PRODUCT_PRICE price_type="${type}"><PRICE_AMOUNT>${amount}</PRICE_AMOUNT><PRICE_CURRENCY>EUR</PRICE_CURRENCY>${more}</PRODUCT_PRICE>`;
export const START = '<DATETIME type="valid_start_date"><DATE>2026-01-01</DATE></DATETIME>';

/** A BMEcat 2005 file of the one product BASE-1 with one PRODUCT_PRICE_DETAILS holding `content`. */
export const priceFile = (name: string, content: string) =>
  file({
    root: 'version="2005"',
    records: [product('BASE-1', name, `${ORDER}<PRODUCT_PRICE_DETAILS>${content}</PRODUCT_PRICE_DETAILS>`)],
  });

export async function runImport(session: Session, xml: string, name: string, fileName?: string, strict = false) {
  const catalog = await makeCatalog(session.tenant, { name: `${name} ${crypto.randomUUID().slice(0, 6)}` });
  const fileId = await putImportFile(session.tenant, xml, fileName);
  const jobId = await insertImportJob(session.tenant, { catalogId: catalog.catalogId, fileId, strict });
  await runImportToEnd(jobId, importDeps());
  return { catalog, jobId };
}

export async function importText(session: Session, xml: string, name = 'Preisbasis', fileName?: string) {
  const { catalog, jobId } = await runImport(session, xml, name, fileName);
  const row = await db().query.products.findFirst({
    where: and(eq(products.catalogId, catalog.catalogId), eq(products.sku, 'BASE-1')),
  });
  expect(row, JSON.stringify(await reportRows(jobId))).toBeDefined();
  const read = await getPrices(db(), asActor(session.tenant), row!.id);
  return { catalogId: catalog.catalogId, jobId, read, report: await reportRows(jobId) };
}

export async function exportText(session: Session, catalogId: string, exportType: string) {
  const { text, warnings } = await exportedFile(session.tenant, catalogId, exportType);
  // Elements one per line in the files; the assertions read them without the line breaks.
  return { xml: exportType === 'CSV' ? text : text.replace(/>\s+</g, '><'), warnings };
}

export const bases = (read: Awaited<ReturnType<typeof getPrices>>) =>
  read.prices.map((p) => [p.type, p.amount, p.base]);
