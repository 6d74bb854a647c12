import { describe, expect, it } from 'vitest';
import { api, expectValid, login, runExport } from './export-harness';

/**
 * Issue 32: a product's order details (content unit and count, minimum, interval; migration
 * 0091) in every BMEcat dialect's ORDER_DETAILS, in XSD order and valid against its XSD. BMEcat
 * 1.2's QUANTITY_MIN and QUANTITY_INTERVAL are xsd:integer: the fractional interval is left out.
 */
describe('order details in BMEcat exports', () => {
  it('every dialect writes them in XSD order and validates against its XSD', async () => {
    const cookie = await login('editor@demo.test');
    const [department] = (await api(cookie, 'Catalog/GetCatalogs?limit=1')).items;
    const catalog = await api(cookie, 'Catalog/AddCatalog', {
      departmentId: department.departmentId,
      name: `Bestelldaten ${Date.now()}`,
      currency: 'EUR',
      language: 'deu',
    });
    await api(cookie, 'Catalog/AddProduct', {
      departmentId: department.departmentId,
      catalogId: catalog.catalogId,
      sku: 'BOX-6',
      name: 'Klemmen im Karton',
      unit: 'BX',
      contentUnit: 'C62',
      contentPerUnit: '6',
      priceQuantity: 1,
      quantityMin: '10',
      quantityInterval: '2.5',
      price: '12.00',
    });
    const details = (element: string, interval: boolean) =>
      `<${element}><ORDER_UNIT>BX</ORDER_UNIT><CONTENT_UNIT>C62</CONTENT_UNIT><NO_CU_PER_OU>6</NO_CU_PER_OU>` +
      `<PRICE_QUANTITY>1</PRICE_QUANTITY><QUANTITY_MIN>10</QUANTITY_MIN>${interval ? '<QUANTITY_INTERVAL>2.5</QUANTITY_INTERVAL>' : ''}</${element}>`;
    for (const format of ['BMEcat', 'BMEcat-ETIM', 'BMEcat12'] as const) {
      const { job, xml } = await runExport(cookie, {
        departmentId: department.departmentId,
        catalogId: catalog.catalogId,
        exportType: format,
      });
      expect(job.state, format).toBe('succeeded');
      expectValid(xml, format);
      const flat = xml.replace(/>\s+</g, '><');
      expect(flat, format).toContain(
        format === 'BMEcat12' ? details('ARTICLE_ORDER_DETAILS', false) : details('PRODUCT_ORDER_DETAILS', true),
      );
    }
  });
});
