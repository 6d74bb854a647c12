import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getPrices, setPrices } from '../src/catalog/prices/prices';
import { products } from '../src/db/schema';
import { runExportSlice } from '../src/exports/run-export';
import { file, product } from './fixtures/bmecat-variants';
import { insertExportJob, jobRow, testDeps } from './helpers/export-fixtures';
import { asActor, db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { importDeps, insertImportJob, putImportFile, reportRows, runImportToEnd } from './helpers/import-fixtures';

/**
 * PRICE_BASE ("12.50 per 100 m") through files: BMEcat 2005 puts it in each PRODUCT_PRICE, the
 * ETIM guideline once per PRODUCT_PRICE_DETAILS after its prices; 1.2 has none. CSV carries it
 * in the prices cell. Fixtures are written here, one per position.
 */

type Session = Awaited<ReturnType<typeof makeSession>>;

const ORDER = '<PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT></PRODUCT_ORDER_DETAILS>';
const base = (unit: string, factor?: string, value?: string) =>
  `<PRICE_BASE>${value ? `<PRICE_UNIT_VALUE>${value}</PRICE_UNIT_VALUE>` : ''}<PRICE_UNIT>${unit}</PRICE_UNIT>${factor ? `<PRICE_UNIT_FACTOR>${factor}</PRICE_UNIT_FACTOR>` : ''}</PRICE_BASE>`;
const price = (type: string, amount: string, more = '') =>
  `<PRODUCT_PRICE price_type="${type}"><PRICE_AMOUNT>${amount}</PRICE_AMOUNT><PRICE_CURRENCY>EUR</PRICE_CURRENCY>${more}</PRODUCT_PRICE>`;
const START = '<DATETIME type="valid_start_date"><DATE>2026-01-01</DATE></DATETIME>';

async function runImport(session: Session, xml: string, name: string, fileName?: string, strict = false) {
  const catalog = await makeCatalog(session.tenant, { name: `${name} ${crypto.randomUUID().slice(0, 6)}` });
  const fileId = await putImportFile(session.tenant, xml, fileName);
  const jobId = await insertImportJob(session.tenant, { catalogId: catalog.catalogId, fileId, strict });
  await runImportToEnd(jobId, importDeps());
  return { catalog, jobId };
}

async function importText(session: Session, xml: string, name = 'Preisbasis', fileName?: string) {
  const { catalog, jobId } = await runImport(session, xml, name, fileName);
  const row = await db().query.products.findFirst({
    where: and(eq(products.catalogId, catalog.catalogId), eq(products.sku, 'BASE-1')),
  });
  expect(row, JSON.stringify(await reportRows(jobId))).toBeDefined();
  const read = await getPrices(db(), asActor(session.tenant), row!.id);
  return { catalogId: catalog.catalogId, jobId, read, report: await reportRows(jobId) };
}

async function exportText(session: Session, catalogId: string, exportType: string) {
  const jobId = await insertExportJob(session.tenant, { catalogId, exportType });
  for (
    let i = 0;
    i < 50 && (await runExportSlice(testDeps({ sliceMs: 60_000 }), await jobRow(jobId))) === 'continued';
    i++
  );
  const row = await jobRow(jobId);
  expect(row.state).toBe('succeeded');
  const text = await (await env.FILES.get(row.resultKey!))!.text();
  // Elements one per line in the files; the assertions read them without the line breaks.
  return { xml: exportType === 'CSV' ? text : text.replace(/>\s+</g, '><'), warnings: row.warnings ?? [] };
}

const bases = (read: Awaited<ReturnType<typeof getPrices>>) => read.prices.map((p) => [p.type, p.amount, p.base]);

describe('PRICE_BASE read from BMEcat', () => {
  it('keeps the base of each BMEcat 2005 PRODUCT_PRICE (PRICE_UNIT_VALUE too) and warns nothing', async () => {
    const session = await makeSession();
    const xml = file({
      root: 'version="2005"',
      records: [
        product(
          'BASE-1',
          'Kabel',
          `${ORDER}<PRODUCT_PRICE_DETAILS>${START}${price('net_list', '12.50', `<LOWER_BOUND>1</LOWER_BOUND>${base('MTR', '100')}`)}${price('net_list', '11.00', `<LOWER_BOUND>10</LOWER_BOUND>${base('MTR', '50', '100')}`)}${price('nrp', '20.00')}</PRODUCT_PRICE_DETAILS>`,
        ),
      ],
    });
    const { read, report } = await importText(session, xml);
    expect(bases(read)).toEqual([
      ['net_list', '12.50', { value: null, unit: 'MTR', factor: '100' }],
      ['net_list', '11.00', { value: '100', unit: 'MTR', factor: '50' }],
      ['nrp', '20.00', null],
    ]);
    expect(report).toEqual([]);
  });

  it("gives every price of an ETIM guideline block the block's base, and another block none", async () => {
    const session = await makeSession();
    const xml = file({
      root: 'version="2005" xmlns="https://www.etim-international.com/bmecat/50"',
      records: [
        product(
          'BASE-1',
          'Kabel',
          `${ORDER}<PRODUCT_PRICE_DETAILS>${START}${price('net_list', '89.00')}${price('nrp', '120.00')}${base('MTR', '100')}</PRODUCT_PRICE_DETAILS>` +
            `<PRODUCT_PRICE_DETAILS><DATETIME type="valid_start_date"><DATE>2027-01-01</DATE></DATETIME>${price('net_list', '95.00')}</PRODUCT_PRICE_DETAILS>`,
        ),
      ],
    });
    const { read, report } = await importText(session, xml);
    const per100 = { value: null, unit: 'MTR', factor: '100' };
    expect(bases(read)).toEqual([
      ['net_list', '89.00', per100],
      ['nrp', '120.00', per100],
      ['net_list', '95.00', null],
    ]);
    expect(report).toEqual([]);
  });

  it('keeps what is valid of an unreadable base and warns each bad part; the price is always kept', async () => {
    const session = await makeSession();
    const xml = file({
      root: 'version="2005"',
      records: [
        product(
          'BASE-1',
          'Kabel',
          `${ORDER}<PRODUCT_PRICE_DETAILS>${price('net_list', '1.00', `<LOWER_BOUND>1</LOWER_BOUND>${base('Meter', 'viele')}`)}` +
            price('net_list', '0.90', `<LOWER_BOUND>10</LOWER_BOUND>${base('Rolle 50 m', '2')}`) +
            price(
              'net_list',
              '0.80',
              '<LOWER_BOUND>100</LOWER_BOUND><PRICE_BASE><PRICE_UNIT_FACTOR>5</PRICE_UNIT_FACTOR></PRICE_BASE>',
            ) +
            '</PRODUCT_PRICE_DETAILS>',
        ),
      ],
    });
    const { read, report } = await importText(session, xml);
    expect(bases(read)).toEqual([
      ['net_list', '1.00', { value: null, unit: 'MTR', factor: null }],
      ['net_list', '0.90', { value: null, unit: 'Rolle 50 m', factor: '2' }],
      ['net_list', '0.80', null],
    ]);
    expect(report.map((r) => [r[1], r[2], r[4], r[5]])).toEqual([
      ['warning', 'BASE-1', 'prices.0.base.unit: "Meter" is not a UN/ECE Rec. 20 code: stored as MTR', 'price_base'],
      [
        'warning',
        'BASE-1',
        'prices.0.base.factor: "viele" is not a decimal greater than 0 such as 100 or 0,5: left out',
        'price_base',
      ],
      [
        'warning',
        'BASE-1',
        'prices.1.base.unit: "Rolle 50 m" is neither a UN/ECE Rec. 20 code nor a known alias: kept as "Rolle 50 m"',
        'price_base',
      ],
      [
        'warning',
        'BASE-1',
        'prices.2.base.unit: PRICE_BASE without PRICE_UNIT: the base is left out, the amount is stored as written',
        'price_base',
      ],
    ]);
  });
  it('rejects the product for a base unit that is no code with strict: true, naming the field', async () => {
    const session = await makeSession();
    const xml = file({
      root: 'version="2005"',
      records: [
        product(
          'BASE-1',
          'Kabel',
          `${ORDER}<PRODUCT_PRICE_DETAILS>${price('net_list', '1.00', base('Meter'))}</PRODUCT_PRICE_DETAILS>`,
        ),
      ],
    });
    const { catalog, jobId } = await runImport(session, xml, 'Streng', undefined, true);
    const row = await db().query.products.findFirst({
      where: and(eq(products.catalogId, catalog.catalogId), eq(products.sku, 'BASE-1')),
    });
    expect(row).toBeUndefined();
    const report = await reportRows(jobId);
    expect(report.map((r) => [r[1], r[2], r[5]])).toEqual([['rejected', 'BASE-1', 'invalid_prices']]);
    expect(report[0]![4]).toContain('prices.0.base.unit');
  });

  it("keeps a price's own PRICE_BASE over its block's and says so at the price's line", async () => {
    const session = await makeSession();
    const xml = file({
      root: 'version="2005"',
      records: [
        product(
          'BASE-1',
          'Kabel',
          `${ORDER}<PRODUCT_PRICE_DETAILS>${price('net_list', '5.00', base('KGM'))}${price('nrp', '7.00')}${base('MTR', '100')}</PRODUCT_PRICE_DETAILS>`,
        ),
      ],
    });
    const { read, report } = await importText(session, xml);
    expect(bases(read)).toEqual([
      ['net_list', '5.00', { value: null, unit: 'KGM', factor: null }],
      ['nrp', '7.00', { value: null, unit: 'MTR', factor: '100' }],
    ]);
    expect(
      report.map((r) => [r[3]!.replace(/^line \d+: /, ''), r[4]!.replace(/\(line \d+\)/, '(line N)'), r[5]]),
    ).toEqual([
      [
        '/BMECAT/T_NEW_CATALOG/PRODUCT/PRODUCT_PRICE_DETAILS/PRODUCT_PRICE/PRICE_BASE',
        'the price has its own PRICE_BASE: the one of its PRODUCT_PRICE_DETAILS (line N) does not apply to it',
        'price_base',
      ],
    ]);
  });
});

describe('PRICE_BASE written to BMEcat', () => {
  async function catalogWithBase(session: Session) {
    const { catalogId } = await makeCatalog(session.tenant, { name: `Basis ${crypto.randomUUID().slice(0, 6)}` });
    const made = await makeProduct(session.tenant, catalogId, { sku: 'BASE-1', name: 'Kabel', unit: 'C62' });
    const per100 = { unit: 'MTR', factor: '100' };
    const set = await setPrices(db(), asActor(session.tenant), {
      departmentId: session.departmentId,
      productId: made.productId,
      prices: [
        { type: 'net_list', amount: '12.50', currency: 'EUR', lowerBound: '1', territory: ['DE'], base: per100 },
        { type: 'net_list', amount: '11.00', currency: 'EUR', lowerBound: '10', base: per100 },
        { type: 'nrp', amount: '20.00', currency: 'EUR' },
      ],
    });
    return { catalogId, set };
  }
  const PER_100 = '<PRICE_BASE><PRICE_UNIT>MTR</PRICE_UNIT><PRICE_UNIT_FACTOR>100</PRICE_UNIT_FACTOR></PRICE_BASE>';

  it('2005: in each PRODUCT_PRICE after TERRITORY, and an import of the export gives the same list', async () => {
    const session = await makeSession();
    const { catalogId, set } = await catalogWithBase(session);
    const { xml, warnings } = await exportText(session, catalogId, 'BMEcat');
    expect(xml).toContain(`<LOWER_BOUND>1</LOWER_BOUND><TERRITORY>DE</TERRITORY>${PER_100}</PRODUCT_PRICE>`);
    expect(xml).toContain(`<LOWER_BOUND>10</LOWER_BOUND>${PER_100}</PRODUCT_PRICE>`);
    expect(xml.split('<PRICE_BASE>')).toHaveLength(3);
    expect(warnings).toEqual([]);
    const again = await importText(session, xml, 'Wieder');
    expect(again.read.prices).toEqual(set.prices);
  });

  it('ETIM guideline: once per block after its prices, a block per base', async () => {
    const session = await makeSession();
    const { catalogId, set } = await catalogWithBase(session);
    const { xml } = await exportText(session, catalogId, 'BMEcat-ETIM');
    const blocks = [...xml.matchAll(/<PRODUCT_PRICE_DETAILS>(.*?)<\/PRODUCT_PRICE_DETAILS>/gs)].map((m) => m[1]!);
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toMatch(new RegExp(`<PRICE_AMOUNT>11.00</PRICE_AMOUNT>.*</PRODUCT_PRICE>${PER_100}$`));
    expect(blocks[0]!.split('<PRODUCT_PRICE ')).toHaveLength(3);
    expect(blocks[1]).not.toContain('PRICE_BASE');
    const again = await importText(session, xml, 'Wieder ETIM');
    expect(bases(again.read)).toEqual(bases(set));
  });

  it('2005: a base value (PRICE_UNIT_VALUE, in no XSD) is reported as left out unless PRICE_QUANTITY says it', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: `Wert ${crypto.randomUUID().slice(0, 6)}` });
    const per100 = { value: '100', unit: 'MTR' };
    for (const [sku, priceQuantity] of [
      ['VALUE-SAID', 100],
      ['VALUE-LOST', 1],
    ] as const) {
      const made = await makeProduct(session.tenant, catalogId, { sku, name: 'Kabel', unit: 'C62', priceQuantity });
      await setPrices(db(), asActor(session.tenant), {
        departmentId: session.departmentId,
        productId: made.productId,
        prices: [{ type: 'net_list', amount: '12.50', currency: 'EUR', base: per100 }],
      });
    }
    const { xml, warnings } = await exportText(session, catalogId, 'BMEcat');
    expect(xml.split('<PRICE_BASE><PRICE_UNIT>MTR</PRICE_UNIT></PRICE_BASE>')).toHaveLength(3);
    expect(xml).not.toContain('PRICE_UNIT_VALUE');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/price base value 100 of the net_list price left out .*VALUE-LOST/);
    expect(warnings[0]).not.toContain('VALUE-SAID');
  });

  it('1.2 has no PRICE_BASE: the prices are written without it and the export says so', async () => {
    const session = await makeSession();
    const { catalogId } = await catalogWithBase(session);
    const { xml, warnings } = await exportText(session, catalogId, 'BMEcat12');
    expect(xml).toContain('<PRICE_AMOUNT>12.50</PRICE_AMOUNT>');
    expect(xml).not.toContain('PRICE_BASE');
    expect(warnings.join('\n')).toMatch(
      /BMEcat 1\.2 has no PRICE_BASE: the base of the net_list price \(per 1 MTR\) left out/,
    );
  });
});

describe('PRICE_BASE through CSV', () => {
  it('writes baseValue, baseUnit and baseFactor in the prices cell and reads them back equal', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { name: `CSV Basis ${crypto.randomUUID().slice(0, 6)}` });
    const made = await makeProduct(session.tenant, catalog.catalogId, { sku: 'BASE-1', name: 'Kabel' });
    const set = await setPrices(db(), asActor(session.tenant), {
      departmentId: session.departmentId,
      productId: made.productId,
      prices: [
        { type: 'net_list', amount: '12.50', currency: 'EUR', base: { value: '100', unit: 'MTR', factor: '0.5' } },
        { type: 'nrp', amount: '20.00', currency: 'EUR' },
      ],
    });
    const { xml: csv } = await exportText(session, catalog.catalogId, 'CSV');
    expect(csv).toContain('type=net_list;amount=12.50;currency=EUR;baseValue=100;baseUnit=MTR;baseFactor=0.5|');
    const again = await importText(session, csv, 'CSV wieder', 'catalog.csv');
    expect(again.read.prices).toEqual(set.prices);
    expect(again.report).toEqual([]);
  });
});
