import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getPrices, setPrices } from '../src/catalog/prices/prices';
import { products } from '../src/db/schema';
import { article, file, product } from './fixtures/bmecat-variants';
import { exportedText } from './helpers/export-fixtures';
import { asActor, db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { importDeps, insertImportJob, putImportFile, reportRows, runImportToEnd } from './helpers/import-fixtures';

type Session = Awaited<ReturnType<typeof makeSession>>;

/** Three tiers of net_list in one block (valid in 2026), and three tiers of nrp with territories in a second block. */
function priceXml(prefix: 'PRODUCT' | 'ARTICLE'): string {
  const tier = (type: string, amount: string, bound: string, extra = '') =>
    `<${prefix}_PRICE price_type="${type}"><PRICE_AMOUNT>${amount}</PRICE_AMOUNT><PRICE_CURRENCY>EUR</PRICE_CURRENCY><TAX>0.19</TAX><PRICE_FACTOR>1</PRICE_FACTOR><LOWER_BOUND>${bound}</LOWER_BOUND>${extra}</${prefix}_PRICE>`;
  const dates =
    '<DATETIME type="valid_start_date"><DATE>2026-01-01</DATE></DATETIME><DATETIME type="valid_end_date"><DATE>2026-12-31</DATE></DATETIME>';
  return [
    `<${prefix}_PRICE_DETAILS>${dates}${tier('net_list', '10.00', '1')}${tier('net_list', '9.50', '10')}${tier('net_list', '9.00', '100')}</${prefix}_PRICE_DETAILS>`,
    `<${prefix}_PRICE_DETAILS><DAILY_PRICE>true</DAILY_PRICE>${tier('nrp', '15.00', '1', '<TERRITORY>DE</TERRITORY><TERRITORY>AT</TERRITORY>')}${tier('nrp', '14.00', '10', '<TERRITORY>DE</TERRITORY>')}${tier('nrp', '13.00', '100')}</${prefix}_PRICE_DETAILS>`,
  ].join('');
}

const order = (prefix: 'PRODUCT' | 'ARTICLE') =>
  `<${prefix}_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT><CONTENT_UNIT>C62</CONTENT_UNIT></${prefix}_ORDER_DETAILS>`;

async function importText(session: Session, xml: string) {
  const catalog = await makeCatalog(session.tenant, { name: `Preise ${crypto.randomUUID().slice(0, 6)}` });
  const fileId = await putImportFile(session.tenant, xml);
  const jobId = await insertImportJob(session.tenant, { catalogId: catalog.catalogId, fileId });
  await runImportToEnd(jobId, importDeps());
  const row = await db().query.products.findFirst({
    where: and(eq(products.catalogId, catalog.catalogId), eq(products.sku, 'TIER-1')),
  });
  expect(row, JSON.stringify(await reportRows(jobId))).toBeDefined();
  return { catalogId: catalog.catalogId, prices: await getPrices(db(), asActor(session.tenant), row!.id) };
}

const exportText = (session: Session, catalogId: string, exportType: string) =>
  exportedText(session.tenant, catalogId, exportType);

const EXPECTED = [
  ['net_list', '10.00', '1', [], '2026-01-01', '2026-12-31', false],
  ['net_list', '9.50', '10', [], '2026-01-01', '2026-12-31', false],
  ['net_list', '9.00', '100', [], '2026-01-01', '2026-12-31', false],
  ['nrp', '15.00', '1', ['DE', 'AT'], null, null, true],
  ['nrp', '14.00', '10', ['DE'], null, null, true],
  ['nrp', '13.00', '100', [], null, null, true],
];

describe('price lists through BMEcat', () => {
  it.each([
    [
      '2005',
      'BMEcat',
      () =>
        file({ root: 'version="2005"', records: [product('TIER-1', 'Tiers', order('PRODUCT') + priceXml('PRODUCT'))] }),
    ],
    [
      '1.2',
      'BMEcat12',
      () =>
        file({ root: 'version="1.2"', records: [article('TIER-1', 'Tiers', order('ARTICLE') + priceXml('ARTICLE'))] }),
    ],
  ])(
    'keeps 3 tiers in 2 price types of a %s file, writes them back and reads the export equal',
    async (_v, format, xml) => {
      const session = await makeSession();
      const first = await importText(session, xml());
      expect(first.prices.price).toBe('10.00');
      expect(
        first.prices.prices.map((p) => [p.type, p.amount, p.lowerBound, p.territory, p.validFrom, p.validTo, p.daily]),
      ).toEqual(EXPECTED);
      expect(first.prices.prices.every((p) => p.currency === 'EUR' && p.tax === '0.19' && p.factor === '1')).toBe(true);

      const exported = await exportText(session, first.catalogId, format);
      const details = format === 'BMEcat' ? 'PRODUCT_PRICE_DETAILS' : 'ARTICLE_PRICE_DETAILS';
      expect(exported.split(`<${details}>`)).toHaveLength(3);
      expect(exported).toContain('<LOWER_BOUND>100</LOWER_BOUND>');
      const second = await importText(session, exported);
      expect(second.prices.prices).toEqual(first.prices.prices);
      expect(second.prices.price).toBe(first.prices.price);
    },
  );

  it('leaves out a price that does not check with a warning, and keeps the others', async () => {
    const session = await makeSession();
    const bad =
      '<PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>5.00</PRICE_AMOUNT><PRICE_CURRENCY>EUR</PRICE_CURRENCY></PRODUCT_PRICE><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>4.00</PRICE_AMOUNT><PRICE_CURRENCY>Euro</PRICE_CURRENCY><LOWER_BOUND>10</LOWER_BOUND></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS>';
    const catalog = await makeCatalog(session.tenant, { name: 'Warnung' });
    const fileId = await putImportFile(
      session.tenant,
      file({ root: 'version="2005"', records: [product('TIER-1', 'T', bad)] }),
    );
    const jobId = await insertImportJob(session.tenant, { catalogId: catalog.catalogId, fileId });
    await runImportToEnd(jobId, importDeps());
    const row = await db().query.products.findFirst({
      where: and(eq(products.catalogId, catalog.catalogId), eq(products.sku, 'TIER-1')),
    });
    const read = await getPrices(db(), asActor(session.tenant), row!.id);
    expect(read.prices.map((p) => p.amount)).toEqual(['5.00']);
    expect(JSON.stringify(await reportRows(jobId))).toMatch(/prices\.1\.currency/);
  });

  it("reads the ETIM guideline's PRICE_BASE of a block into each of its prices, with no warning", async () => {
    const session = await makeSession();
    const perHundred =
      '<PRODUCT_PRICE_DETAILS><DATETIME type="valid_start_date"><DATE>2026-01-01</DATE></DATETIME><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>89.00</PRICE_AMOUNT><PRICE_CURRENCY>EUR</PRICE_CURRENCY></PRODUCT_PRICE>\n<PRICE_BASE><PRICE_UNIT>MTR</PRICE_UNIT><PRICE_UNIT_FACTOR>100</PRICE_UNIT_FACTOR></PRICE_BASE></PRODUCT_PRICE_DETAILS>';
    const catalog = await makeCatalog(session.tenant, { name: 'Preisbasis' });
    const fileId = await putImportFile(
      session.tenant,
      file({
        root: 'version="2005" xmlns="https://www.etim-international.com/bmecat/50"',
        records: [product('TIER-1', 'Kabel', perHundred)],
      }),
    );
    const jobId = await insertImportJob(session.tenant, { catalogId: catalog.catalogId, fileId });
    await runImportToEnd(jobId, importDeps());
    const row = await db().query.products.findFirst({
      where: and(eq(products.catalogId, catalog.catalogId), eq(products.sku, 'TIER-1')),
    });
    expect(row!.price).toBe('89.00');
    const read = await getPrices(db(), asActor(session.tenant), row!.id);
    expect(read.prices.map((p) => [p.type, p.amount, p.base])).toEqual([
      ['net_list', '89.00', { value: null, unit: 'MTR', factor: '100' }],
    ]);
    expect(await reportRows(jobId)).toEqual([]);
  });
});

describe('variant prices in a BMEcat 2005 export', () => {
  /** The PRICE_AMOUNTs of one PRODUCT of the file, in file order. */
  const amountsOf = (xml: string, sku: string) => {
    const start = xml.indexOf(`<SUPPLIER_PID>${sku}</SUPPLIER_PID>`);
    expect(start, sku).toBeGreaterThan(-1);
    const end = xml.indexOf('</PRODUCT>', start);
    return [...xml.slice(start, end).matchAll(/<PRICE_AMOUNT>([^<]*)<\/PRICE_AMOUNT>/g)].map((m) => m[1]);
  };

  it("writes each variant's own price or list, and the master's list only on a variant without a price", async () => {
    const session = await makeSession();
    const actor = asActor(session.tenant);
    const { catalogId } = await makeCatalog(session.tenant, { name: `Varianten ${crypto.randomUUID().slice(0, 6)}` });
    const master = await makeProduct(session.tenant, catalogId, { sku: 'VP-M', price: '100.00' });
    const tiers = (amounts: string[]) =>
      amounts.map((amount, i) => ({ type: 'net_list', amount, currency: 'EUR', lowerBound: String(10 ** i) }));
    const set = (productId: string, prices: ReturnType<typeof tiers>) =>
      setPrices(db(), actor, { departmentId: session.tenant.departmentId, productId, prices });
    await set(master.productId, tiers(['100.00', '90.00', '80.00']));
    const ownPrice = await makeProduct(session.tenant, catalogId, {
      sku: 'VP-A',
      parentId: master.productId,
      price: '42.00',
    });
    const ownList = await makeProduct(session.tenant, catalogId, { sku: 'VP-B', parentId: master.productId });
    await set(ownList.productId, tiers(['55.00', '50.00']));
    await makeProduct(session.tenant, catalogId, { sku: 'VP-C', parentId: master.productId });
    expect(ownPrice.productId).toBeTruthy();

    const exported = await exportText(session, catalogId, 'BMEcat');
    expect(amountsOf(exported, 'VP-M')).toEqual(['100.00', '90.00', '80.00']);
    expect(amountsOf(exported, 'VP-A')).toEqual(['42.00']);
    expect(amountsOf(exported, 'VP-B')).toEqual(['55.00', '50.00']);
    expect(amountsOf(exported, 'VP-C')).toEqual(['100.00', '90.00', '80.00']);

    // Read back: the variant with its own price gets that price, not a copy of the master's list.
    const again = await makeCatalog(session.tenant, { name: `Zurück ${crypto.randomUUID().slice(0, 6)}` });
    const fileId = await putImportFile(session.tenant, exported);
    const jobId = await insertImportJob(session.tenant, { catalogId: again.catalogId, fileId });
    await runImportToEnd(jobId, importDeps());
    const read = async (sku: string) => {
      const row = await db().query.products.findFirst({
        where: and(eq(products.catalogId, again.catalogId), eq(products.sku, sku)),
      });
      expect(row, JSON.stringify(await reportRows(jobId))).toBeDefined();
      return { price: row!.price, list: (await getPrices(db(), actor, row!.id)).prices.map((p) => p.amount) };
    };
    // one plain net_list price is what the export writes for `price`: it comes back as that price, no list
    expect(await read('VP-A')).toEqual({ price: '42.00', list: [] });
    expect((await read('VP-B')).list).toEqual(['55.00', '50.00']);
  });
});

describe('price lists through CSV', () => {
  it('writes the prices column and an import of the export gives the same list', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { name: 'CSV Preise' });
    const made = await makeProduct(session.tenant, catalog.catalogId, { sku: 'TIER-1', name: 'Tiers' });
    const prices = [
      { type: 'net_list', amount: '10.00', currency: 'EUR', tax: '0.19', lowerBound: '1', validFrom: '2026-01-01' },
      { type: 'net_list', amount: '9.50', currency: 'EUR', tax: '0.19', lowerBound: '10', validFrom: '2026-01-01' },
      { type: 'nrp', amount: '15.00', currency: 'CHF', territory: ['CH', 'LI'], daily: true },
    ];
    const set = await setPrices(db(), asActor(session.tenant), {
      departmentId: session.departmentId,
      productId: made.productId,
      prices,
    });
    const csv = await exportText(session, catalog.catalogId, 'CSV');
    expect(csv).toContain('type=nrp;amount=15.00;currency=CHF;territory=CH,LI;daily=1');
    const second = await makeCatalog(session.tenant, { name: 'CSV Preise 2' });
    const fileId = await putImportFile(session.tenant, csv, 'catalog.csv');
    const jobId = await insertImportJob(session.tenant, { catalogId: second.catalogId, fileId });
    await runImportToEnd(jobId, importDeps());
    const row = await db().query.products.findFirst({
      where: and(eq(products.catalogId, second.catalogId), eq(products.sku, 'TIER-1')),
    });
    expect(row, JSON.stringify(await reportRows(jobId))).toBeDefined();
    const read = await getPrices(db(), asActor(session.tenant), row!.id);
    expect(read.prices).toEqual(set.prices);
    expect(read.price).toBe('10.00');
  });
});
