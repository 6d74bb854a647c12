import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getPrices, setPrices } from '../src/catalog/prices/prices';
import { products } from '../src/db/schema';
import { file, price2005, product } from './fixtures/bmecat-variants';
import { exportedText } from './helpers/export-fixtures';
import { asActor, db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { importDeps, insertImportJob, putImportFile, reportRows, runImportToEnd } from './helpers/import-fixtures';

type Session = Awaited<ReturnType<typeof makeSession>>;

const exportText = (session: Session, catalogId: string, exportType: string) =>
  exportedText(session.tenant, catalogId, exportType);

/** Imports `text` into a new catalog; nothing may be rejected or warned about. */
async function importInto(session: Session, text: string, fileName = 'catalog.xml') {
  const { catalogId } = await makeCatalog(session.tenant, { name: `Zurück ${crypto.randomUUID().slice(0, 6)}` });
  const fileId = await putImportFile(session.tenant, text, fileName);
  const jobId = await insertImportJob(session.tenant, { catalogId, fileId });
  await runImportToEnd(jobId, importDeps({ batchSize: 2 }));
  expect(await reportRows(jobId)).toEqual([]);
  return catalogId;
}

/** Every product's own price and price list (type, amount, lower bound, dates), by SKU. */
async function pricesOf(session: Session, catalogId: string) {
  const rows = await db().select().from(products).where(eq(products.catalogId, catalogId)).orderBy(products.sku);
  const out: Record<string, { price: string | null; list: string[] }> = {};
  for (const row of rows) {
    const read = await getPrices(db(), asActor(session.tenant), row.id);
    out[row.sku!] = {
      price: row.price,
      list: read.prices.map(
        (p) => `${p.type} ${p.amount} ${p.lowerBound ?? '-'} ${p.validFrom ?? '-'}..${p.validTo ?? '-'}`,
      ),
    };
  }
  return out;
}

/**
 * Masters with a list and with only `price`, and variants with their own price, their own
 * list, and neither (the exports write the master's price or list for those: docs/exports.md).
 */
async function variantCatalog(session: Session) {
  const actor = asActor(session.tenant);
  const { catalogId } = await makeCatalog(session.tenant, { name: `Varianten ${crypto.randomUUID().slice(0, 6)}` });
  const tiers = (amounts: string[]) =>
    amounts.map((amount, i) => ({ type: 'net_list', amount, currency: 'EUR', lowerBound: String(10 ** i) }));
  const set = (productId: string, prices: ReturnType<typeof tiers>) =>
    setPrices(db(), actor, { departmentId: session.tenant.departmentId, productId, prices });
  const listed = await makeProduct(session.tenant, catalogId, { sku: 'VP-M' });
  await set(listed.productId, tiers(['100.00', '90.00', '80.00']));
  await makeProduct(session.tenant, catalogId, { sku: 'VP-A', parentId: listed.productId, price: '42.00' });
  const ownList = await makeProduct(session.tenant, catalogId, { sku: 'VP-B', parentId: listed.productId });
  await set(ownList.productId, tiers(['55.00', '50.00']));
  await makeProduct(session.tenant, catalogId, { sku: 'VP-C', parentId: listed.productId });
  // A variant priced like its master's first tier but without the master's tiers: its own price.
  await makeProduct(session.tenant, catalogId, { sku: 'VP-D', parentId: listed.productId, price: '100.00' });
  const plain = await makeProduct(session.tenant, catalogId, { sku: 'PM-1', price: '7.50' });
  await makeProduct(session.tenant, catalogId, { sku: 'PV-1', parentId: plain.productId });
  await makeProduct(session.tenant, catalogId, { sku: 'PV-2', parentId: plain.productId, price: '8.00' });
  return catalogId;
}

describe('prices through export and import of the same catalog', () => {
  it.each([
    ['BMEcat', 'catalog.xml'],
    ['BMEcat12', 'catalog.xml'],
    ['BMEcat-ETIM', 'catalog.xml'],
    ['CSV', 'catalog.csv'],
  ])(
    '%s: every price and list comes back as it was; a variant without its own price stays without',
    async (format, name) => {
      const session = await makeSession();
      const source = await variantCatalog(session);
      const before = await pricesOf(session, source);
      expect(before['VP-C']).toEqual({ price: null, list: [] });
      expect(before['PV-1']).toEqual({ price: null, list: [] });
      expect(before['PM-1']).toEqual({ price: '7.50', list: [] });
      expect(before['VP-M']!.list).toHaveLength(3);

      const exported = await exportText(session, source, format);
      if (format !== 'CSV') {
        // The file still gives the buyer a price for every variant: its master's where it has none of its own.
        const amounts = (sku: string) => {
          const start = exported.indexOf(`${sku}</SUPPLIER_`);
          expect(start, sku).toBeGreaterThan(-1);
          const end = exported.indexOf(format === 'BMEcat12' ? '</ARTICLE>' : '</PRODUCT>', start);
          return [...exported.slice(start, end).matchAll(/<PRICE_AMOUNT>([^<]*)</g)].map((m) => m[1]);
        };
        expect(amounts('PV-1')).toEqual(['7.50']);
        expect(amounts('VP-C')).toEqual(['100.00', '90.00', '80.00']);
      }
      const after = await pricesOf(session, await importInto(session, exported, name));
      expect(after).toEqual(before);
    },
  );
});

describe('files this service did not write', () => {
  const generator = (xml: string) =>
    xml.replace('<HEADER>', '<HEADER><GENERATOR_INFO>PIM Service BMEcat export</GENERATOR_INFO>');
  const generated = (xml: string, date: string) =>
    xml.replace(
      '</CATALOG_VERSION>',
      `</CATALOG_VERSION><DATETIME type="generation_date"><DATE>${date}</DATE></DATETIME>`,
    );
  const dated = (amount: string, date: string) =>
    `<PRODUCT_PRICE_DETAILS><DATETIME type="valid_start_date"><DATE>${date}</DATE></DATETIME><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>${amount}</PRICE_AMOUNT><PRICE_CURRENCY>EUR</PRICE_CURRENCY></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS>`;
  const base = (master: string) =>
    `<PRODUCT_REFERENCE type="base_product"><PROD_ID_TO>${master}</PROD_ID_TO></PRODUCT_REFERENCE>`;
  const etimFile = (records: string[]) =>
    file({ root: 'version="2005" xmlns="https://www.etim-international.com/bmecat/50"', records });

  it("keep a supplier's variant price equal to its master's, and its dated one-price block", async () => {
    const session = await makeSession();
    const supplier = generated(
      etimFile([
        product('SM-1', 'Master', dated('5.00', '2026-11-20')),
        product('SV-1', 'Variante', dated('5.00', '2026-11-20') + base('SM-1')),
      ]),
      '2026-11-20',
    );
    const prices = await pricesOf(session, await importInto(session, supplier));
    const list = ['net_list 5.00 - 2026-11-20..-'];
    expect(prices).toEqual({ 'SM-1': { price: '5.00', list }, 'SV-1': { price: '5.00', list } });
  });

  it.each([
    ['CHF', ['net_list 3.20 CHF']],
    ['EUR', []],
  ])('read a price without PRICE_CURRENCY in the HEADER currency %s', async (currency, list) => {
    const session = await makeSession();
    const withoutCurrency = price2005('3.20').replace('<PRICE_CURRENCY>EUR</PRICE_CURRENCY>', '');
    const xml = file({ root: 'version="2005"', records: [product('CUR-1', 'Franken', withoutCurrency)] }).replace(
      '</CATALOG_VERSION>',
      `</CATALOG_VERSION><CURRENCY>${currency}</CURRENCY>`,
    );
    const catalogId = await importInto(session, xml);
    const row = await db().query.products.findFirst({
      where: and(eq(products.catalogId, catalogId), eq(products.sku, 'CUR-1')),
    });
    const read = await getPrices(db(), asActor(session.tenant), row!.id);
    expect(row!.price).toBe('3.20');
    expect(read.prices.map((p) => `${p.type} ${p.amount} ${p.currency}`)).toEqual(list);
  });

  it('read our own file by its conventions: the export date is no date, an equal variant price is inherited', async () => {
    const session = await makeSession();
    const own = generator(
      generated(
        etimFile([
          product('OM-1', 'Master', dated('5.00', '2026-11-20')),
          product('OV-1', 'Variante', dated('5.00', '2026-11-20') + base('OM-1')),
          // Another date than the file's is a real validity, kept.
          product('OM-2', 'Datiert', dated('6.00', '2026-12-01')),
        ]),
        '2026-11-20',
      ),
    );
    const prices = await pricesOf(session, await importInto(session, own));
    expect(prices).toEqual({
      'OM-1': { price: '5.00', list: [] },
      'OM-2': { price: '6.00', list: ['net_list 6.00 - 2026-12-01..-'] },
      'OV-1': { price: null, list: [] },
    });
  });
});
