import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getPrices } from '../src/catalog/prices/prices';
import { products } from '../src/db/schema';
import { article, file, product } from './fixtures/bmecat-variants';
import { exportedText } from './helpers/export-fixtures';
import { asActor, db, makeCatalog, makeSession } from './helpers/factories';
import { importDeps, insertImportJob, putImportFile, reportRows, runImportToEnd } from './helpers/import-fixtures';

/**
 * Issue 32 point 3: amounts as written (more than 4 decimals), BMEcat 1.01's TAX in percent,
 * prices on request and `udp_` types, through import -> export -> import. Hand-written files.
 */

type Session = Awaited<ReturnType<typeof makeSession>>;

async function importText(session: Session, xml: string, sku = 'P-1') {
  const catalog = await makeCatalog(session.tenant, { name: `Genau ${crypto.randomUUID().slice(0, 6)}` });
  const fileId = await putImportFile(session.tenant, xml);
  const jobId = await insertImportJob(session.tenant, { catalogId: catalog.catalogId, fileId });
  await runImportToEnd(jobId, importDeps());
  const report = await reportRows(jobId);
  const row = await db().query.products.findFirst({
    where: and(eq(products.catalogId, catalog.catalogId), eq(products.sku, sku)),
  });
  expect(row, JSON.stringify(report)).toBeDefined();
  const read = await getPrices(db(), asActor(session.tenant), row!.id);
  return { catalogId: catalog.catalogId, price: read.price, prices: read.prices, report: JSON.stringify(report) };
}

const shape = (prices: { type: string; amount: string | null; tax: string | null; lowerBound: string | null }[]) =>
  prices.map((p) => [p.type, p.amount, p.tax, p.lowerBound]);

const articlePrice = (type: string, amount: string | null, more = '') =>
  `<ARTICLE_PRICE price_type="${type}">${amount === null ? '' : `<PRICE_AMOUNT>${amount}</PRICE_AMOUNT>`}<PRICE_CURRENCY>EUR</PRICE_CURRENCY>${more}</ARTICLE_PRICE>`;
const productPrice = (type: string, amount: string | null, more = '') =>
  `<PRODUCT_PRICE price_type="${type}">${amount === null ? '' : `<PRICE_AMOUNT>${amount}</PRICE_AMOUNT>`}<PRICE_CURRENCY>EUR</PRICE_CURRENCY>${more}</PRODUCT_PRICE>`;

describe('amounts as written through BMEcat', () => {
  it('reads a 1.01 TAX of 16 as 0.16 and keeps 0.16, with a 5-decimal amount, and writes both back', async () => {
    const session = await makeSession();
    const xml = file({
      root: 'version="1.01"',
      records: [
        article(
          'P-1',
          'Widerstand',
          `<ARTICLE_PRICE_DETAILS>${articlePrice('net_list', '21.15701', '<TAX>16</TAX><LOWER_BOUND>1</LOWER_BOUND>')}${articlePrice('net_list', '0,01234', '<TAX>0.16</TAX><LOWER_BOUND>1000</LOWER_BOUND>')}${articlePrice('nrp', '30', '<TAX>7</TAX>')}</ARTICLE_PRICE_DETAILS>`,
        ),
      ],
    });
    const first = await importText(session, xml);
    expect(first.price).toBe('21.15701');
    expect(shape(first.prices)).toEqual([
      ['net_list', '21.15701', '0.16', '1'],
      ['net_list', '0.01234', '0.16', '1000'],
      ['nrp', '30', '0.07', null],
    ]);
    // 1.01's percentage is its version's rule: no warning.
    expect(first.report).not.toMatch(/price_tax|price_invalid/);

    const exported = await exportedText(session.tenant, first.catalogId, 'BMEcat12');
    expect(exported).toContain('<PRICE_AMOUNT>21.15701</PRICE_AMOUNT>');
    expect(exported).toContain('<TAX>0.16</TAX>');
    const second = await importText(session, exported);
    expect(second.prices).toEqual(first.prices);
    expect(second.price).toBe(first.price);
  });

  it('reads a percentage TAX in a 1.2 file as a fraction with a price_tax warning instead of losing the price', async () => {
    const session = await makeSession();
    const xml = file({
      root: 'version="1.2"',
      records: [
        article(
          'P-1',
          'Klemme',
          `<ARTICLE_PRICE_DETAILS>${articlePrice('net_list', '4.5', '<TAX>19</TAX>')}${articlePrice('nrp', '6', '<TAX>0.19</TAX>')}</ARTICLE_PRICE_DETAILS>`,
        ),
      ],
    });
    const read = await importText(session, xml);
    expect(shape(read.prices)).toEqual([
      ['net_list', '4.5', '0.19', null],
      ['nrp', '6', '0.19', null],
    ]);
    expect(read.report).toMatch(/price_tax/);
    expect(read.report).toMatch(/TAX 19 is a percentage/);
  });

  it("keeps a 1.2 file's price on request and udp_ types, writes them as 2005 and reads the export back", async () => {
    const session = await makeSession();
    const xml = file({
      root: 'version="1.2"',
      records: [
        article(
          'P-1',
          'Schütz',
          `<ARTICLE_PRICE_DETAILS>${articlePrice('net_list', '12.345678', '<LOWER_BOUND>1</LOWER_BOUND>')}${articlePrice('udp_onrequest', '0', '<LOWER_BOUND>500</LOWER_BOUND>')}${articlePrice('udp_Stückpreis', '0.123456')}${articlePrice('udp_net_list_2', '11.5')}</ARTICLE_PRICE_DETAILS>`,
        ),
      ],
    });
    const first = await importText(session, xml);
    expect(first.price).toBe('12.345678');
    expect(shape(first.prices)).toEqual([
      ['net_list', '12.345678', null, '1'],
      ['on_request', null, null, '500'],
      ['udp_Stückpreis', '0.123456', null, null],
      ['udp_net_list_2', '11.5', null, null],
    ]);
    expect(first.report).not.toMatch(/price_invalid/);

    const as2005 = await exportedText(session.tenant, first.catalogId, 'BMEcat');
    expect(as2005).toMatch(/<PRODUCT_PRICE price_type="on_request">\s*<PRICE_CURRENCY>EUR<\/PRICE_CURRENCY>/);
    expect(as2005).toContain('price_type="udp_netlist2"');
    const second = await importText(session, as2005);
    // Every amount comes back; only the underscore the XSD refuses is gone from the type.
    expect(shape(second.prices)).toEqual([
      ['net_list', '12.345678', null, '1'],
      ['on_request', null, null, '500'],
      ['udp_Stückpreis', '0.123456', null, null],
      ['udp_netlist2', '11.5', null, null],
    ]);

    const as12 = await exportedText(session.tenant, first.catalogId, 'BMEcat12');
    expect(as12).toMatch(/<ARTICLE_PRICE price_type="udp_onrequest">\s*<PRICE_AMOUNT>0<\/PRICE_AMOUNT>/);
    const third = await importText(session, as12);
    expect(shape(third.prices)).toEqual(shape(second.prices));
  });

  it('keeps 6 decimals of a 2005 file through BMEcat 2005 and CSV, and rounds to 4 only for xChange, reported', async () => {
    const session = await makeSession();
    const xml = file({
      root: 'version="2005"',
      records: [
        product(
          'P-1',
          'Kabel',
          `<PRODUCT_PRICE_DETAILS>${productPrice('net_list', '0.157015', '<TAX>0.19</TAX><LOWER_BOUND>1</LOWER_BOUND>')}${productPrice('net_list', '0.150001', '<TAX>0.19</TAX><LOWER_BOUND>100</LOWER_BOUND>')}${productPrice('on_request', null, '<LOWER_BOUND>10000</LOWER_BOUND>')}</PRODUCT_PRICE_DETAILS>`,
        ),
      ],
    });
    const first = await importText(session, xml);
    expect(first.price).toBe('0.157015');
    expect(shape(first.prices)).toEqual([
      ['net_list', '0.157015', '0.19', '1'],
      ['net_list', '0.150001', '0.19', '100'],
      ['on_request', null, null, '10000'],
    ]);

    for (const format of ['BMEcat', 'CSV']) {
      const exported = await exportedText(session.tenant, first.catalogId, format);
      const again = await importText(session, exported);
      expect(again.prices, format).toEqual(first.prices);
      expect(again.price, format).toBe('0.157015');
    }

    const xchange = await exportedText(session.tenant, first.catalogId, 'ETIMxChange');
    expect(xchange).toContain('"0.1570"');
    expect(xchange).not.toContain('0.157015');
  });

  it('reads a file whose only price is on request as a product without price, as before', async () => {
    const session = await makeSession();
    const xml = file({
      root: 'version="2005"',
      records: [
        product('P-1', 'Sonder', `<PRODUCT_PRICE_DETAILS>${productPrice('on_request', null)}</PRODUCT_PRICE_DETAILS>`),
      ],
    });
    const read = await importText(session, xml);
    expect(read.price).toBeNull();
    expect(read.prices).toEqual([]);
  });
});
