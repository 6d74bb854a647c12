import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { products } from '../src/db/schema';
import { file, product } from './fixtures/bmecat-variants';
import { exportedText } from './helpers/export-fixtures';
import { db, makeCatalog, makeSession } from './helpers/factories';
import { importTextToEnd, reportRows } from './helpers/import-fixtures';

const order = (parts: string) => `<PRODUCT_ORDER_DETAILS>${parts}</PRODUCT_ORDER_DETAILS>`;

/**
 * Issue 32 (audit of the supplier samples): a supplier's content unit, units per order unit,
 * minimum order quantity and interval are a product's fields since migration 0091
 * (test/order-details.test.ts); what BMEcat 2005's ORDER_DETAILS still carries beyond them
 * (QUANTITY_MAX, PACKING_UNITS) has no place and is named in the report.
 */
describe('ORDER_DETAILS a product has no place for', () => {
  it('are reported with the product and its order details kept, and a file without them is not', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: 'Bestelldaten' });
    const packing =
      '<PACKING_UNITS><PACKING_UNIT><QUANTITY_MIN>1</QUANTITY_MIN><QUANTITY_MAX>1</QUANTITY_MAX>' +
      '<PACKING_UNIT_CODE>BX</PACKING_UNIT_CODE></PACKING_UNIT></PACKING_UNITS>';
    const text = file({
      root: 'version="2005"',
      records: [
        product(
          'BOX-6',
          'Karton',
          order(
            '<ORDER_UNIT>BX</ORDER_UNIT><CONTENT_UNIT>C62</CONTENT_UNIT><NO_CU_PER_OU>6</NO_CU_PER_OU>' +
              `<QUANTITY_MIN>10</QUANTITY_MIN><QUANTITY_INTERVAL>5</QUANTITY_INTERVAL><QUANTITY_MAX>600</QUANTITY_MAX>${packing}`,
          ),
        ),
        // BMEcat's defaults (the same unit in the supplier's spelling, 1s) say nothing and store nothing.
        product(
          'PCE-1',
          'Stück',
          order(
            '<ORDER_UNIT>C62</ORDER_UNIT><CONTENT_UNIT>PCE</CONTENT_UNIT><NO_CU_PER_OU>1.0</NO_CU_PER_OU>' +
              '<QUANTITY_MIN>1</QUANTITY_MIN><QUANTITY_INTERVAL>1,0</QUANTITY_INTERVAL>',
          ),
        ),
      ],
    });
    const { jobId, job } = await importTextToEnd(session.tenant, catalogId, text, { fileName: 'order.xml' });
    expect(job.summary).toMatchObject({ created: 2, rejected: 0, warnings: 1, 'warnings.order_details_not_kept': 1 });
    expect((await reportRows(jobId)).filter((r) => r[5] === 'order_details_not_kept')).toEqual([
      [
        '1',
        'warning',
        'BOX-6',
        expect.stringMatching(/^line \d+: \/BMECAT\/T_NEW_CATALOG\/PRODUCT\/PRODUCT_ORDER_DETAILS$/),
        'QUANTITY_MAX, PACKING_UNITS not kept: a product has an order unit, content unit and count, price quantity, minimum and interval',
        'order_details_not_kept',
      ],
    ]);
    const stored = await db().query.products.findMany({ where: eq(products.catalogId, catalogId) });
    expect(
      stored
        .map((p) => [p.sku, p.unit, p.contentUnit, p.contentPerUnit, p.quantityMin, p.quantityInterval])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual([
      ['BOX-6', 'BX', 'C62', '6', '10', '5'],
      ['PCE-1', 'C62', null, null, null, null],
    ]);

    // Our own export says only what the products hold: it reads back without the warning.
    const exported = await exportedText(session.tenant, catalogId, 'BMEcat');
    const { catalogId: again } = await makeCatalog(session.tenant, { name: 'Bestelldaten 2' });
    const second = await importTextToEnd(session.tenant, again, exported, { fileName: 'again.xml' });
    expect(second.job.summary).toMatchObject({ created: 2, rejected: 0 });
    expect(await reportRows(second.jobId)).toEqual([]);
  });
});

/**
 * Issue 32 (audit of the supplier samples): PRODUCT_DETAILS a product has no field for were
 * dropped without a word (the ETIM guideline's sample: REMARKS in eng and dut,
 * MANUFACTURER_TYPE_DESCR, SPECIAL_TREATMENT_CLASS, PRODUCT_TYPE). The import names them.
 */
describe('PRODUCT_DETAILS a product has no field for', () => {
  it('are named in one warning per product, an empty element and the fields it stores are not', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: 'Details' });
    const text = file({
      root: 'version="2005"',
      records: [
        '<PRODUCT><SUPPLIER_PID>REM-1</SUPPLIER_PID><PRODUCT_DETAILS>' +
          '<DESCRIPTION_SHORT>Leuchte</DESCRIPTION_SHORT><MANUFACTURER_NAME>Hersteller</MANUFACTURER_NAME>' +
          '<BUYER_PID type="buyer_specific"/><MANUFACTURER_TYPE_DESCR>Typ A</MANUFACTURER_TYPE_DESCR>' +
          '<DELIVERY_TIME>5</DELIVERY_TIME><SPECIAL_TREATMENT_CLASS type="MSDS">true</SPECIAL_TREATMENT_CLASS>' +
          '<KEYWORD>Licht</KEYWORD><REMARKS>Hinweis</REMARKS><REMARKS lang="eng">Remark</REMARKS>' +
          '<PRODUCT_STATUS type="new">new_assortment</PRODUCT_STATUS><PRODUCT_TYPE>physical</PRODUCT_TYPE>' +
          '</PRODUCT_DETAILS></PRODUCT>',
        '<PRODUCT><SUPPLIER_PID>PLAIN-1</SUPPLIER_PID><PRODUCT_DETAILS><DESCRIPTION_SHORT>Schlicht</DESCRIPTION_SHORT>' +
          '<BUYER_PID type="buyer_specific"></BUYER_PID></PRODUCT_DETAILS></PRODUCT>',
      ],
    });
    const { jobId, job } = await importTextToEnd(session.tenant, catalogId, text, { fileName: 'details.xml' });
    expect(job.summary).toMatchObject({ created: 2, rejected: 0, warnings: 1, 'warnings.details_not_kept': 1 });
    expect(await reportRows(jobId)).toEqual([
      [
        '1',
        'warning',
        'REM-1',
        expect.stringMatching(/^line \d+: \/BMECAT\/T_NEW_CATALOG\/PRODUCT\/PRODUCT_DETAILS$/),
        'MANUFACTURER_TYPE_DESCR, SPECIAL_TREATMENT_CLASS, REMARKS (2), PRODUCT_TYPE not kept: a product has no field for them',
        'details_not_kept',
      ],
    ]);
    // What it stores comes back, and our own file reads without the warning.
    const exported = await exportedText(session.tenant, catalogId, 'BMEcat');
    expect(exported.replace(/>\s+</g, '><')).toContain(
      '<MANUFACTURER_NAME>Hersteller</MANUFACTURER_NAME><DELIVERY_TIME>5</DELIVERY_TIME><KEYWORD>Licht</KEYWORD>',
    );
    const { catalogId: again } = await makeCatalog(session.tenant, { name: 'Details 2' });
    const second = await importTextToEnd(session.tenant, again, exported, { fileName: 'again.xml' });
    expect(await reportRows(second.jobId)).toEqual([]);
  });
});

/**
 * Issue 32 (audit of the supplier samples): the ETIM xChange V2.0 sample's Legislation,
 * LcaEnvironmental, brand, packaging, discount group and further description texts have no
 * field on a product and were dropped unreported. One warning per record names them.
 */
describe('xChange parts a product has no field for', () => {
  it('are named in one warning, a false flag and quantities of 1 are not, and our own file reads back without it', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: 'xChange Teile' });
    const text = JSON.stringify({
      SchemaVersion: '2.0',
      CatalogueId: 'UK-1',
      CatalogueType: 'FULL',
      CatalogueValidityStart: '2026-01-01',
      Language: ['de-DE'],
      CurrencyCode: 'EUR',
      Supplier: [
        {
          SupplierName: 'Teile GmbH',
          Product: [
            {
              ProductIdentification: {
                ManufacturerName: 'Maker',
                ManufacturerProductNumber: 'M-UK-1',
                BrandDetails: [{ BrandSeries: [{ Language: 'de-DE', BrandSeries: 'Serie A' }] }],
              },
              ProductDetails: {
                ProductStatus: 'ACTIVE',
                CustomisableProduct: false,
                ProductDescriptions: [
                  {
                    DescriptionLanguage: 'de-DE',
                    MinimalProductDescription: 'Schalter',
                    ProductMarketingText: 'Ein guter Schalter',
                    ProductPageUrl: 'https://example.com/schalter',
                  },
                ],
              },
              Legislation: { RohsIndicator: 'YES' },
              TradeItem: [
                {
                  ItemIdentification: { SupplierItemNumber: 'UK-1', DiscountGroupId: 'R1' },
                  Ordering: { OrderUnit: 'C62', MinimumOrderQuantity: '10', OrderStepSize: '1' },
                  PackagingUnit: [{ PackagingIdentification: { PackagingTypeCode: 'BOX', PackagingQuantity: '6' } }],
                },
              ],
            },
          ],
        },
      ],
    });
    const { jobId, job } = await importTextToEnd(session.tenant, catalogId, text);
    expect(job.summary).toMatchObject({ created: 1, rejected: 0, warnings: 1, 'warnings.details_not_kept': 1 });
    expect(await reportRows(jobId)).toEqual([
      [
        '1000',
        'warning',
        'UK-1',
        '$.Supplier[0].Product[0]',
        'Legislation, BrandDetails, ProductMarketingText, ProductPageUrl, PackagingUnit, DiscountGroupId not kept: a product has no field for them',
        'details_not_kept',
      ],
    ]);
    // MinimumOrderQuantity is the product's minimum since migration 0091 (OrderStepSize 1 is xChange's default).
    const [stored] = await db().query.products.findMany({ where: eq(products.catalogId, catalogId) });
    expect([stored!.quantityMin, stored!.quantityInterval]).toEqual(['10', null]);
    const exported = await exportedText(session.tenant, catalogId, 'ETIMxChange');
    const { catalogId: again } = await makeCatalog(session.tenant, { name: 'xChange Teile 2' });
    const second = await importTextToEnd(session.tenant, again, exported);
    expect(second.job.summary).toMatchObject({ created: 1, rejected: 0 });
    expect(await reportRows(second.jobId)).toEqual([]);
  });
});
