import { describe, expect, it } from 'vitest';
import { setPrices } from '../src/catalog/prices/prices';
import { asActor, db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { bases, exportText, importText, type Session } from './helpers/price-base-files';

/**
 * PRICE_BASE written where each XSD puts it (2005: in each PRODUCT_PRICE; the ETIM guideline:
 * once per PRODUCT_PRICE_DETAILS; 1.2: nowhere, reported), read back equal, and through CSV.
 */

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
