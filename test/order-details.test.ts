import { describe, expect, it } from 'vitest';
import { article, file, price12, product } from './fixtures/bmecat-variants';
import { exportedFile } from './helpers/export-fixtures';
import { makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { importTextToEnd, reportRows } from './helpers/import-fixtures';
import { call } from './helpers/http';

/**
 * Issue 32: a supplier's content unit, content per order unit, minimum order quantity and
 * interval (BMEcat's ORDER_DETAILS beyond ORDER_UNIT and PRICE_QUANTITY) are a product's fields
 * (migration 0091). Each dialect reads them, GetProduct shows them, its export writes them in the
 * XSD's order and a re-import of that export changes nothing.
 */

const ORDER_2005 =
  '<PRODUCT_ORDER_DETAILS><ORDER_UNIT>BX</ORDER_UNIT><CONTENT_UNIT>C62</CONTENT_UNIT><NO_CU_PER_OU>6</NO_CU_PER_OU>' +
  '<PRICE_QUANTITY>1</PRICE_QUANTITY><QUANTITY_MIN>10</QUANTITY_MIN><QUANTITY_INTERVAL>5</QUANTITY_INTERVAL></PRODUCT_ORDER_DETAILS>';
// BMEcat 2005's QUANTITY_MIN and QUANTITY_INTERVAL are dtFLOAT, NO_CU_PER_OU dtNUMBER: fractions as written.
const ORDER_2005_METRE =
  '<PRODUCT_ORDER_DETAILS><ORDER_UNIT>RO</ORDER_UNIT><CONTENT_UNIT>MTR</CONTENT_UNIT><NO_CU_PER_OU>50.0</NO_CU_PER_OU>' +
  '<QUANTITY_MIN>2.5</QUANTITY_MIN><QUANTITY_INTERVAL>0.5</QUANTITY_INTERVAL></PRODUCT_ORDER_DETAILS>';
const ORDER_12 =
  '<ARTICLE_ORDER_DETAILS><ORDER_UNIT>BX</ORDER_UNIT><CONTENT_UNIT>PCE</CONTENT_UNIT><NO_CU_PER_OU>12</NO_CU_PER_OU>' +
  '<PRICE_QUANTITY>1</PRICE_QUANTITY><QUANTITY_MIN>3</QUANTITY_MIN><QUANTITY_INTERVAL>3</QUANTITY_INTERVAL></ARTICLE_ORDER_DETAILS>';

const orderFields = (p: Record<string, unknown>) => ({
  unit: p.unit,
  contentUnit: p.contentUnit,
  contentPerUnit: p.contentPerUnit,
  priceQuantity: p.priceQuantity,
  quantityMin: p.quantityMin,
  quantityInterval: p.quantityInterval,
});

async function productsOf(cookie: string, catalogId: string) {
  const list = await call('GET', `/api/Catalog/GetProducts?catalogId=${catalogId}&limit=10`, { cookie });
  expect(list.status).toBe(200);
  const bySku: Record<string, Record<string, unknown>> = {};
  for (const item of list.json.items) {
    const one = await call('GET', `/api/Catalog/GetProduct?productId=${item.productId}`, { cookie });
    expect(one.status).toBe(200);
    bySku[item.sku] = orderFields(one.json);
  }
  return bySku;
}

describe('BMEcat order details', () => {
  it('BMEcat 2005: imported, shown, exported in XSD order and read back unchanged', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: 'Bestelldaten 2005' });
    const text = file({
      root: 'version="2005" xmlns="http://www.bmecat.org/bmecat/2005"',
      records: [product('BOX-6', 'Klemmen im Karton', ORDER_2005), product('ROLL-50', 'Kabel', ORDER_2005_METRE)],
    });
    const { jobId, job } = await importTextToEnd(session.tenant, catalogId, text, { fileName: 'order.xml' });
    expect(job.summary).toMatchObject({ created: 2, rejected: 0, warnings: 0 });
    expect(await reportRows(jobId)).toEqual([]);
    expect(await productsOf(session.cookie, catalogId)).toEqual({
      'BOX-6': {
        unit: 'BX',
        contentUnit: 'C62',
        contentPerUnit: '6',
        priceQuantity: 1,
        quantityMin: '10',
        quantityInterval: '5',
      },
      'ROLL-50': {
        unit: 'RO',
        contentUnit: 'MTR',
        contentPerUnit: '50.0',
        priceQuantity: null,
        quantityMin: '2.5',
        quantityInterval: '0.5',
      },
    });

    const exported = await exportedFile(session.tenant, catalogId, 'BMEcat');
    expect(exported.warnings).toEqual([]);
    expect(exported.text).toContain(
      '<PRODUCT_ORDER_DETAILS>\n<ORDER_UNIT>BX</ORDER_UNIT>\n<CONTENT_UNIT>C62</CONTENT_UNIT>\n<NO_CU_PER_OU>6</NO_CU_PER_OU>\n' +
        '<PRICE_QUANTITY>1</PRICE_QUANTITY>\n<QUANTITY_MIN>10</QUANTITY_MIN>\n<QUANTITY_INTERVAL>5</QUANTITY_INTERVAL>\n</PRODUCT_ORDER_DETAILS>',
    );
    expect(exported.text).toContain(
      '<PRODUCT_ORDER_DETAILS>\n<ORDER_UNIT>RO</ORDER_UNIT>\n<CONTENT_UNIT>MTR</CONTENT_UNIT>\n<NO_CU_PER_OU>50.0</NO_CU_PER_OU>\n' +
        '<QUANTITY_MIN>2.5</QUANTITY_MIN>\n<QUANTITY_INTERVAL>0.5</QUANTITY_INTERVAL>\n</PRODUCT_ORDER_DETAILS>',
    );

    const again = await importTextToEnd(session.tenant, catalogId, exported.text, { fileName: 'again.xml' });
    expect(again.job.summary).toMatchObject({ created: 0, updated: 0, unchanged: 2, rejected: 0, warnings: 0 });
  });

  it('BMEcat 1.2: imported with the supplier spelling mapped, exported as ARTICLE_ORDER_DETAILS and read back unchanged', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: 'Bestelldaten 1.2' });
    const text = file({ root: 'version="1.2"', records: [article('BOX-12', 'Schrauben', ORDER_12 + price12('4.80'))] });
    const { job } = await importTextToEnd(session.tenant, catalogId, text, { fileName: 'order12.xml' });
    // PCE is a supplier's spelling of C62: stored as the code, with the usual warning.
    expect(job.summary).toMatchObject({ created: 1, rejected: 0, warnings: 1, 'warnings.unit_alias': 1 });
    expect(await productsOf(session.cookie, catalogId)).toEqual({
      'BOX-12': {
        unit: 'BX',
        contentUnit: 'C62',
        contentPerUnit: '12',
        priceQuantity: 1,
        quantityMin: '3',
        quantityInterval: '3',
      },
    });
    const exported = await exportedFile(session.tenant, catalogId, 'BMEcat12');
    expect(exported.warnings).toEqual([]);
    expect(exported.text).toContain(
      '<ARTICLE_ORDER_DETAILS>\n<ORDER_UNIT>BX</ORDER_UNIT>\n<CONTENT_UNIT>C62</CONTENT_UNIT>\n<NO_CU_PER_OU>12</NO_CU_PER_OU>\n' +
        '<PRICE_QUANTITY>1</PRICE_QUANTITY>\n<QUANTITY_MIN>3</QUANTITY_MIN>\n<QUANTITY_INTERVAL>3</QUANTITY_INTERVAL>\n</ARTICLE_ORDER_DETAILS>',
    );
    const again = await importTextToEnd(session.tenant, catalogId, exported.text, { fileName: 'again12.xml' });
    expect(again.job.summary).toMatchObject({ created: 0, updated: 0, unchanged: 1, rejected: 0, warnings: 0 });
  });

  it('BMEcat 1.2 leaves out a minimum or interval with a fraction (xsd:integer there), reported', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: 'Bruchteil' });
    await makeProduct(session.tenant, catalogId, {
      sku: 'ROLL',
      unit: 'RO',
      contentUnit: 'MTR',
      contentPerUnit: '50',
      quantityMin: '2.5',
      quantityInterval: '2.00',
      price: '30.00',
    });
    const exported = await exportedFile(session.tenant, catalogId, 'BMEcat12');
    expect(exported.text).toContain(
      '<ARTICLE_ORDER_DETAILS>\n<ORDER_UNIT>RO</ORDER_UNIT>\n<CONTENT_UNIT>MTR</CONTENT_UNIT>\n<NO_CU_PER_OU>50</NO_CU_PER_OU>\n' +
        '<QUANTITY_INTERVAL>2</QUANTITY_INTERVAL>\n</ARTICLE_ORDER_DETAILS>',
    );
    expect(exported.warnings).toEqual([
      'QUANTITY_MIN 2.5 is not a whole number, as BMEcat 1.2 requires: left out: 1 time (e.g. ROLL)',
    ]);
  });

  it('ETIM xChange: written as MinimumOrderQuantity, OrderStepSize, UseUnit and its factor, and read back', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: 'xChange Quelle' });
    await makeProduct(session.tenant, catalogId, {
      sku: 'BOX-6',
      unit: 'BX',
      contentUnit: 'C62',
      contentPerUnit: '6',
      quantityMin: '10',
      quantityInterval: '5',
      price: '12.00',
    });
    await makeProduct(session.tenant, catalogId, { sku: 'PLAIN', unit: 'C62', price: '1.00' });
    const exported = await exportedFile(session.tenant, catalogId, 'ETIMxChange');
    const items = JSON.parse(exported.text).Supplier[0].Product.map((p: any) => p.TradeItem[0]);
    expect(items.map((i: any) => [i.ItemIdentification.SupplierItemNumber, i.Ordering])).toEqual([
      [
        'BOX-6',
        {
          OrderUnit: 'BX',
          MinimumOrderQuantity: '10',
          OrderStepSize: '5',
          UseUnit: 'C62',
          UseUnitConversionFactor: '6',
        },
      ],
      ['PLAIN', { OrderUnit: 'C62', MinimumOrderQuantity: '1', OrderStepSize: '1' }],
    ]);
    // A product without them writes BMEcat's defaults, as before migration 0091.
    const bmecat = await exportedFile(session.tenant, catalogId, 'BMEcat');
    expect(bmecat.text).toContain(
      '<PRODUCT_ORDER_DETAILS>\n<ORDER_UNIT>C62</ORDER_UNIT>\n<CONTENT_UNIT>C62</CONTENT_UNIT>\n<NO_CU_PER_OU>1</NO_CU_PER_OU>\n</PRODUCT_ORDER_DETAILS>',
    );
    const { catalogId: target } = await makeCatalog(session.tenant, { name: 'xChange Ziel' });
    const { jobId, job } = await importTextToEnd(session.tenant, target, exported.text);
    expect(job.summary).toMatchObject({ created: 2, rejected: 0 });
    expect(await reportRows(jobId)).toEqual([]);
    expect(await productsOf(session.cookie, target)).toEqual({
      'BOX-6': {
        unit: 'BX',
        contentUnit: 'C62',
        contentPerUnit: '6',
        priceQuantity: 1,
        quantityMin: '10',
        quantityInterval: '5',
      },
      PLAIN: {
        unit: 'C62',
        contentUnit: null,
        contentPerUnit: null,
        priceQuantity: 1,
        quantityMin: null,
        quantityInterval: null,
      },
    });
  });
});

describe('writing order details', () => {
  async function setup() {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: 'Schreiben' });
    const made = await makeProduct(session.tenant, catalogId, {
      sku: 'BOX',
      unit: 'BX',
      contentUnit: 'C62',
      contentPerUnit: '6',
      quantityMin: '10',
      quantityInterval: '5',
    });
    const read = async () =>
      (await call('GET', `/api/Catalog/GetProduct?productId=${made.productId}`, { cookie: session.cookie })).json;
    return { session, catalogId, productId: made.productId as string, read };
  }

  it('UpdateProduct keeps an amount as written and clears with null', async () => {
    const { session, catalogId, productId, read } = await setup();
    const body = { departmentId: session.departmentId, catalogId, productId };
    const res = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: session.cookie,
      headers: { Origin: 'http://pim.test' },
      body: { ...body, contentPerUnit: '6,50', quantityMin: '12.000', quantityInterval: null },
    });
    expect(res.status).toBe(200);
    expect(orderFields(res.json)).toEqual({
      unit: 'BX',
      contentUnit: 'C62',
      contentPerUnit: '6.50',
      priceQuantity: null,
      quantityMin: '12.000',
      quantityInterval: null,
    });
    expect(orderFields(await read())).toEqual(orderFields(res.json));
  });

  it('a change is in the history and a restore brings the earlier values back', async () => {
    const { session, catalogId, productId, read } = await setup();
    const post = (path: string, body: Record<string, unknown>) =>
      call('POST', path, { cookie: session.cookie, headers: { Origin: 'http://pim.test' }, body });
    const history = async () =>
      (await call('GET', `/api/Catalog/GetHistory?elementId=${productId}`, { cookie: session.cookie })).json.items;
    const [created] = await history();
    const update = await post('/api/Catalog/UpdateProduct', {
      departmentId: session.departmentId,
      catalogId,
      productId,
      contentUnit: 'MTR',
      quantityMin: '20',
    });
    expect(update.status).toBe(200);
    const [changed] = await history();
    expect(changed.changes).toEqual([
      { path: 'contentUnit', before: 'C62', after: 'MTR' },
      { path: 'quantityMin', before: '10', after: '20' },
    ]);
    const restored = await post('/api/Catalog/RestoreVersion', {
      departmentId: session.departmentId,
      elementId: productId,
      versionId: created.versionId,
    });
    expect(restored.status).toBe(200);
    expect(orderFields(await read())).toEqual({
      unit: 'BX',
      contentUnit: 'C62',
      contentPerUnit: '6',
      priceQuantity: null,
      quantityMin: '10',
      quantityInterval: '5',
    });
  });

  it.each([
    ['contentUnit', 'Stück', 'contentUnit: must be a UN/ECE Recommendation 20 code such as C62'],
    ['contentPerUnit', '0', 'contentPerUnit: must be greater than 0'],
    [
      'quantityMin',
      '-1',
      'quantityMin: must be a non-negative amount with at most 12 digits before and 20 after the separator, such as 12.50 or 12,50',
    ],
    ['quantityInterval', '0.000', 'quantityInterval: must be greater than 0'],
    [
      'quantityMin',
      'zehn',
      'quantityMin: must be a non-negative amount with at most 12 digits before and 20 after the separator, such as 12.50 or 12,50',
    ],
  ])('UpdateProduct with %s %j is a 400 naming it and changes nothing', async (field, value, error) => {
    const { session, catalogId, productId, read } = await setup();
    const before = await read();
    const res = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: session.cookie,
      headers: { Origin: 'http://pim.test' },
      body: { departmentId: session.departmentId, catalogId, productId, name: 'neu', [field]: value },
    });
    expect(res).toMatchObject({ status: 400, json: { error } });
    expect(await read()).toEqual(before);
  });

  it.each([
    ['contentUnit', 'st', 'contentUnit: a UN/ECE Recommendation 20 code such as C62 or MTR'],
    ['contentPerUnit', '0', 'contentPerUnit: must be greater than 0'],
    [
      'quantityMin',
      '-5',
      'quantityMin: "-5" is not a non-negative amount with at most 12 digits before and 20 after the separator, such as 12.50 or 12,50',
    ],
    ['quantityInterval', '0', 'quantityInterval: must be greater than 0'],
  ])(
    'UpsertProducts with %s %j answers the item as an error naming it and changes nothing',
    async (field, value, error) => {
      const { session, catalogId, read } = await setup();
      const before = await read();
      const res = await call('POST', '/api/Catalog/UpsertProducts', {
        cookie: session.cookie,
        headers: { Origin: 'http://pim.test' },
        body: { departmentId: session.departmentId, catalogId, items: [{ sku: 'BOX', name: 'neu', [field]: value }] },
      });
      expect(res.status).toBe(200);
      expect(res.json.counts).toEqual({ created: 0, updated: 0, unchanged: 0, error: 1 });
      expect(res.json.items[0]).toMatchObject({ sku: 'BOX', status: 'error', field, error });
      expect(await read()).toEqual(before);
    },
  );

  it('UpsertProducts writes them and a second call with the same values changes nothing', async () => {
    const { session, catalogId } = await setup();
    const upsert = () =>
      call('POST', '/api/Catalog/UpsertProducts', {
        cookie: session.cookie,
        headers: { Origin: 'http://pim.test' },
        body: {
          departmentId: session.departmentId,
          catalogId,
          items: [{ sku: 'ROLL', unit: 'RO', contentUnit: 'MTR', contentPerUnit: '50', quantityMin: '2,5' }],
        },
      });
    expect((await upsert()).json.counts).toEqual({ created: 1, updated: 0, unchanged: 0, error: 0 });
    expect((await upsert()).json.counts).toEqual({ created: 0, updated: 0, unchanged: 1, error: 0 });
    const list = await call('GET', `/api/Catalog/GetProducts?catalogId=${catalogId}&limit=10`, {
      cookie: session.cookie,
    });
    const roll = list.json.items.find((p: any) => p.sku === 'ROLL');
    expect(orderFields(roll)).toEqual({
      unit: 'RO',
      contentUnit: 'MTR',
      contentPerUnit: '50',
      priceQuantity: null,
      quantityMin: '2.5',
      quantityInterval: null,
    });
  });
});
