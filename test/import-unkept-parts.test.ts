import { describe, expect, it } from 'vitest';
import { article, file } from './fixtures/bmecat-variants';
import { exportedText } from './helpers/export-fixtures';
import { makeCatalog, makeSession } from './helpers/factories';
import { importTextToEnd, reportRows } from './helpers/import-fixtures';

const order = (parts: string) => `<ARTICLE_ORDER_DETAILS>${parts}</ARTICLE_ORDER_DETAILS>`;

/**
 * Issue 32 (audit of the supplier samples): a supplier's content unit, units per order unit,
 * minimum order quantity and interval have no place on a product; they were dropped without a
 * word (olivere's 1.2 file: a BOX of 6 PCE; SAP PSX's: at least 10 in steps of 5), and every
 * export said one order unit per content unit. The import now names them in its report.
 */
describe('ORDER_DETAILS a product has no place for', () => {
  it('are reported with the product kept, and a file that says only what the product holds is not', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: 'Bestelldaten' });
    const text = file({
      root: 'version="1.2"',
      records: [
        article(
          'BOX-6',
          'Karton',
          order(
            '<ORDER_UNIT>BOX</ORDER_UNIT><CONTENT_UNIT>PCE</CONTENT_UNIT><NO_CU_PER_OU>6</NO_CU_PER_OU>' +
              '<PRICE_QUANTITY>1</PRICE_QUANTITY><QUANTITY_MIN>10</QUANTITY_MIN><QUANTITY_INTERVAL>5</QUANTITY_INTERVAL>',
          ),
        ),
        // PCE is the supplier's spelling of C62: the same unit, one per order unit, minimum 1.
        article(
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
    expect(job.summary).toMatchObject({
      created: 2,
      rejected: 0,
      'warnings.order_details_not_kept': 1,
      'warnings.unit_alias': 1,
    });
    expect((await reportRows(jobId)).filter((r) => r[5] === 'order_details_not_kept')).toEqual([
      [
        '1',
        'warning',
        'BOX-6',
        expect.stringMatching(/^line \d+: \/BMECAT\/T_NEW_CATALOG\/ARTICLE\/ARTICLE_ORDER_DETAILS$/),
        'CONTENT_UNIT PCE, NO_CU_PER_OU 6, QUANTITY_MIN 10, QUANTITY_INTERVAL 5 not kept: a product has one order unit and price quantity (the exports write CONTENT_UNIT = ORDER_UNIT, NO_CU_PER_OU 1)',
        'order_details_not_kept',
      ],
    ]);

    // Our own export says only what the product holds: it reads back without the warning.
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
        'Legislation, BrandDetails, ProductMarketingText, ProductPageUrl, PackagingUnit, DiscountGroupId, MinimumOrderQuantity 10 not kept: a product has no field for them',
        'details_not_kept',
      ],
    ]);
    const exported = await exportedText(session.tenant, catalogId, 'ETIMxChange');
    const { catalogId: again } = await makeCatalog(session.tenant, { name: 'xChange Teile 2' });
    const second = await importTextToEnd(session.tenant, again, exported);
    expect(second.job.summary).toMatchObject({ created: 1, rejected: 0 });
    expect(await reportRows(second.jobId)).toEqual([]);
  });
});
