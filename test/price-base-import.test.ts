import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '../src/db/schema';
import { file, product } from './fixtures/bmecat-variants';
import { db, makeSession } from './helpers/factories';
import { reportRows } from './helpers/import-fixtures';
import { base, bases, importText, ORDER, price, runImport, START } from './helpers/price-base-files';

/**
 * PRICE_BASE ("12.50 per 100 m") read from BMEcat: 2005 puts it in each PRODUCT_PRICE, the ETIM
 * guideline once per PRODUCT_PRICE_DETAILS after its prices. Fixtures are written here, one per
 * position and per tolerance rule.
 */

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
