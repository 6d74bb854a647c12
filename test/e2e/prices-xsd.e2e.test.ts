import { describe, expect, it } from 'vitest';
import { api, expectValid, login, runExport } from './export-harness';
import type { Format } from './export-expected';

const FORMATS: Format[] = ['BMEcat', 'BMEcat-ETIM', 'BMEcat12'];

/**
 * Tiers in two price types and two validity blocks, with tax, factor and territories; one price
 * on request. Two tiers are per 100 m (PRICE_BASE), the third of their block per order unit, so
 * the ETIM profile (PRICE_BASE once per block) has to split that block.
 */
const PER_100_M = { value: '100', unit: 'MTR', factor: '1' };
const PRICES = [
  {
    type: 'net_list',
    amount: '10.00',
    currency: 'EUR',
    tax: '0.19',
    factor: '1',
    lowerBound: '1',
    validFrom: '2026-01-01',
    validTo: '2026-12-31',
    base: PER_100_M,
  },
  {
    type: 'net_list',
    amount: '9.50',
    currency: 'EUR',
    tax: '0.19',
    lowerBound: '10',
    validFrom: '2026-01-01',
    validTo: '2026-12-31',
    base: PER_100_M,
  },
  {
    type: 'net_list',
    amount: '9.00',
    currency: 'EUR',
    tax: '0.19',
    lowerBound: '100',
    validFrom: '2026-01-01',
    validTo: '2026-12-31',
  },
  { type: 'nrp', amount: '15.00', currency: 'EUR', lowerBound: '1', territory: ['DE', 'AT'], daily: true },
  {
    type: 'nrp',
    amount: '14.00',
    currency: 'EUR',
    lowerBound: '10',
    territory: ['DE'],
    daily: true,
    base: { unit: 'KGM' },
  },
  { type: 'udp_special', amount: '8.00', currency: 'EUR' },
  { type: 'on_request', amount: '0' },
  // Issue 32: amounts as written (6 decimals), udp_ types XSD's \w refuses as they are (an
  // underscore) or takes (a letter beyond ASCII), a price on request without amount.
  { type: 'net_customer', amount: '0.157015', currency: 'EUR', lowerBound: '1000' },
  { type: 'udp_net_list_2', amount: '21.15701', currency: 'EUR' },
  { type: 'udp_Stückpreis', amount: '0.123456', currency: 'EUR' },
  { type: 'on_request', currency: 'EUR', lowerBound: '5000' },
  // Issue 32, remainder: a credit (negative amount), a supplier's type kept as its udp_ form,
  // PRICE_FLAGs and a PRICE_FORMULA (2005 writes both on the price; 1.2 and the ETIM profile report them).
  { type: 'net_customer', amount: '-2.50', currency: 'EUR' },
  { type: 'udp_Listenpreis', amount: '12.00', currency: 'EUR' },
  { type: 'net_list', amount: '11.00', currency: 'EUR', flags: { incl_freight: true, incl_packing: false } },
  { type: 'net_customer', currency: 'EUR', formula: { id: 'F-Kupfer', parameters: [{ symbol: 'cu', value: '8,75' }] } },
];

/** A new EUR catalog of the demo editor's first department with one product (unit C62). */
async function catalogWithProduct(name: string, sku: string, productName: string) {
  const cookie = await login('editor@demo.test');
  const [department] = (await api(cookie, 'Catalog/GetCatalogs?limit=1')).items;
  const catalog = await api(cookie, 'Catalog/AddCatalog', {
    departmentId: department.departmentId,
    name: `${name} ${Date.now()}`,
    currency: 'EUR',
    language: 'deu',
  });
  const product = await api(cookie, 'Catalog/AddProduct', {
    departmentId: department.departmentId,
    catalogId: catalog.catalogId,
    sku,
    name: productName,
    unit: 'C62',
  });
  return { cookie, department, catalog, product };
}

describe('price lists in BMEcat exports', () => {
  it('every dialect writes a product with a price list that validates against its XSD', async () => {
    const { cookie, department, catalog, product } = await catalogWithProduct('Preise', 'PRICE-TIERS', 'Tiered');
    await api(cookie, 'Catalog/SetPrices', {
      departmentId: department.departmentId,
      productId: product.productId,
      prices: PRICES,
    });
    for (const format of FORMATS) {
      const { job, xml } = await runExport(cookie, {
        departmentId: department.departmentId,
        catalogId: catalog.catalogId,
        exportType: format,
      });
      expect(job.state, format).toBe('succeeded');
      expectValid(xml, format);
      expect(xml, format).toContain('<LOWER_BOUND>100</LOWER_BOUND>');
      expect(xml.match(/<(PRODUCT|ARTICLE)_PRICE_DETAILS>/g)?.length, format).toBeGreaterThanOrEqual(2);
      const bases = xml.replace(/>\s+</g, '><').match(/<PRICE_BASE>.*?<\/PRICE_BASE>/g) ?? [];
      const per100 = '<PRICE_BASE><PRICE_UNIT>MTR</PRICE_UNIT><PRICE_UNIT_FACTOR>1</PRICE_UNIT_FACTOR></PRICE_BASE>';
      const perKg = '<PRICE_BASE><PRICE_UNIT>KGM</PRICE_UNIT></PRICE_BASE>';
      // 2005: one per price that has one; ETIM: one per block (the two MTR tiers share one); 1.2: none.
      const expected = { BMEcat: [per100, per100, perKg], 'BMEcat-ETIM': [per100, perKg], BMEcat12: [] };
      expect(bases, format).toEqual(expected[format as keyof typeof expected]);
      expect(xml, format).toContain('<PRICE_AMOUNT>0.157015</PRICE_AMOUNT>');
      if (format !== 'BMEcat-ETIM') {
        expect(xml, format).toContain('price_type="udp_netlist2"');
        expect(xml, format).toContain('<PRICE_AMOUNT>21.15701</PRICE_AMOUNT>');
        expect(xml, format).toContain('price_type="udp_Stückpreis"');
      }
      expect(xml, format).toContain('<PRICE_AMOUNT>-2.50</PRICE_AMOUNT>');
      if (format !== 'BMEcat-ETIM') expect(xml, format).toContain('price_type="udp_Listenpreis"');
      if (format === 'BMEcat') {
        expect(xml).toContain('<PRICE_FLAG type="incl_freight">true</PRICE_FLAG>');
        expect(xml).toContain('<FORMULA_IDREF>F-Kupfer</FORMULA_IDREF>');
      } else expect(xml, format).not.toMatch(/PRICE_FLAG|PRICE_FORMULA/);
    }
  });

  it('BMEcat 1.2 writes the PRICE_FLAGs every price shares once in the HEADER, valid against its XSD', async () => {
    const { cookie, department, catalog, product } = await catalogWithProduct('Fracht', 'FREIGHT', 'Freight included');
    const flags = { incl_freight: true, incl_packing: false };
    await api(cookie, 'Catalog/SetPrices', {
      departmentId: department.departmentId,
      productId: product.productId,
      prices: [
        { type: 'net_list', amount: '10.00', currency: 'EUR', flags },
        { type: 'nrp', amount: '15.00', currency: 'EUR', flags },
      ],
    });
    const { job, xml } = await runExport(cookie, {
      departmentId: department.departmentId,
      catalogId: catalog.catalogId,
      exportType: 'BMEcat12',
    });
    expect(job.state).toBe('succeeded');
    expectValid(xml, 'BMEcat12');
    expect(xml.replace(/>\s+</g, '><')).toContain(
      '<PRICE_FLAG type="incl_freight">true</PRICE_FLAG><PRICE_FLAG type="incl_packing">false</PRICE_FLAG></CATALOG>',
    );
    expect(xml.match(/<PRICE_FLAG /g)).toHaveLength(2);
  });
});
