import { describe, expect, it } from 'vitest';
import { api, expectValid, login, runExport } from './export-harness';
import type { Format } from './export-expected';

/**
 * Issue 19's data in every BMEcat export, checked with xmllint against the official XSDs
 * (schemas/bmecat/): a product with a price list (3 tiers in 2 types), references with
 * REFERENCE_DESCR and the target's CATALOG_ID / CATALOG_VERSION, media links with MIME codes,
 * feature blocks of other systems (UNSPSC, a udf_ block, an eCl@ss Advanced tree), a variant,
 * and a category with a link. 0 schema errors in BMEcat 2005, 1.2 and the ETIM profile.
 */
const FORMATS: Format[] = ['BMEcat', 'BMEcat-ETIM', 'BMEcat12'];

const PRICES = ['1', '10', '100'].flatMap((lowerBound, i) => [
  { type: 'net_list', amount: (10 - i * 0.5).toFixed(2), currency: 'EUR', tax: '0.19', lowerBound },
  { type: 'nrp', amount: (14 - i * 0.5).toFixed(2), currency: 'EUR', tax: '0.19', lowerBound },
]);

const BLOCKS = [
  { system: 'UNSPSC', groupId: '27112100', features: [{ name: 'Farbe', values: ['rot'], order: 1 }] },
  {
    system: 'udf_NMTECHNICALDATA-1.0',
    features: [
      { name: 'Länge', names: { eng: 'Length', fra: 'Longueur' }, values: ['180'], unit: 'mm', order: 1 },
      { name: 'Material', values: ['Chrom-Vanadium', 'Kunststoff'], order: 2 },
    ],
  },
  {
    system: 'ECLASS-11.1-ADVANCED',
    groupId: '21040301',
    features: [
      { ftId: '0173-1#02-AAO677#002', fid: 'F1', values: ['180'], unit: 'mm' },
      { ftId: '0173-1#02-AAA999#001', fid: 'F2', parentId: 'F1', values: ['2'] },
    ],
  },
];

describe('supplier data in BMEcat exports (issue 19)', () => {
  it('prices, references, media links and feature blocks validate in 2005, 1.2 and the ETIM profile', async () => {
    const cookie = await login('editor@demo.test');
    const [department] = (await api(cookie, 'Catalog/GetCatalogs?limit=1')).items;
    const departmentId = department.departmentId;
    const catalog = await api(cookie, 'Catalog/AddCatalog', {
      departmentId,
      name: `Lieferantendaten ${Date.now()}`,
      currency: 'EUR',
      language: 'deu',
    });
    const category = await api(cookie, 'Catalog/AddCategory', {
      departmentId,
      catalogId: catalog.catalogId,
      name: 'Zangen',
    });
    await api(cookie, 'Media/AddLink', {
      departmentId,
      elementId: category.categoryId,
      url: 'https://cdn.example.com/groups/zangen.png',
      purpose: 'logo',
    });
    const target = await api(cookie, 'Catalog/AddProduct', {
      departmentId,
      catalogId: catalog.catalogId,
      sku: 'ETUI-1',
      name: 'Etui',
      unit: 'C62',
      price: '3.00',
    });
    const product = await api(cookie, 'Catalog/AddProduct', {
      departmentId,
      catalogId: catalog.catalogId,
      sku: 'ZANGE-180',
      name: 'Kombizange 180 mm',
      unit: 'C62',
      categoryIds: [category.categoryId],
    });
    await api(cookie, 'Catalog/AddProduct', {
      departmentId,
      catalogId: catalog.catalogId,
      parentId: product.productId,
      sku: 'ZANGE-180-R',
      name: 'Kombizange 180 mm rot',
    });
    await api(cookie, 'Catalog/SetPrices', { departmentId, productId: product.productId, prices: PRICES });
    await api(cookie, 'Catalog/SetReferences', {
      departmentId,
      productId: product.productId,
      references: [
        {
          type: 'accessories',
          targetSku: 'ETUI-1',
          quantity: 1,
          descr: 'Passendes Etui',
          targetCatalog: 'ZUBEHOER',
          targetCatalogVersion: '2.1',
        },
        { type: 'similar', targetSku: 'ZANGE-200', descr: 'Größere Ausführung' },
        { type: 'sparepart', targetSku: 'GRIFF-1', quantity: 2 },
        { type: 'diff_orderunit', targetSku: 'ZANGE-180-VE10' },
        { type: 'followup', targetSku: 'ZANGE-180-NEU', targetCatalogVersion: 'V2' },
      ],
    });
    for (const [url, purpose, mimeCode] of [
      ['https://cdn.example.com/img/zange-180.jpg', 'normal', 'MD01'],
      ['https://cdn.example.com/docs/zange-180.pdf', 'data_sheet', 'MD02'],
      ['https://cdn.example.com/docs/zange-180-sdb.pdf', 'safety_data_sheet', 'MD06'],
    ] as const)
      await api(cookie, 'Media/AddLink', {
        departmentId,
        elementId: product.productId,
        url,
        purpose,
        mimeCode,
        description: `Zange ${purpose}`,
        alt: 'Kombizange',
      });
    await api(cookie, 'Catalog/SetFeatureBlocks', {
      departmentId,
      productId: product.productId,
      featureBlocks: BLOCKS,
    });
    expect((await api(cookie, `Catalog/GetReferences?productId=${target.productId}`)).incoming).toHaveLength(1);

    for (const format of FORMATS) {
      const { job, xml } = await runExport(cookie, {
        departmentId,
        catalogId: catalog.catalogId,
        exportType: format,
      });
      expect(job.state, format).toBe('succeeded');
      expectValid(xml, format);
      const compact = xml.replace(/>\s+</g, '><');
      // What each file carries (so "valid" cannot mean "left out").
      expect(compact, format).toContain('<LOWER_BOUND>100</LOWER_BOUND>');
      expect(compact, format).toContain('https://cdn.example.com/docs/zange-180.pdf');
      expect(compact, format).toMatch(/_ID_TO>ETUI-1<\/(PROD|ART)_ID_TO><CATALOG_ID>ZUBEHOER<\/CATALOG_ID>/);
      expect(compact, format).toContain('UNSPSC');
      if (format !== 'BMEcat12') expect(compact, format).toContain('<REFERENCE_DESCR>Passendes Etui</REFERENCE_DESCR>');
      // The category's link (the ETIM profile has no category tree).
      if (format !== 'BMEcat-ETIM')
        expect(compact, format).toMatch(
          /<GROUP_NAME>Zangen<\/GROUP_NAME>.*?<MIME_SOURCE>https:\/\/cdn\.example\.com\/groups\/zangen\.png</,
        );
      if (format === 'BMEcat-ETIM') expect(compact, format).toContain('<UDX.EDXF.MIME_CODE>MD02</UDX.EDXF.MIME_CODE>');
      if (format === 'BMEcat') expect(compact, format).toContain('0173-1#02-AAO677#002');
      // Feature names in further languages: FNAME repeated with lang (2005, ETIM); 1.2 has one FNAME.
      if (format === 'BMEcat12') expect(compact, format).not.toContain('Longueur');
      else
        expect(compact, format).toContain(
          '<FNAME>Länge</FNAME><FNAME lang="eng">Length</FNAME><FNAME lang="fra">Longueur</FNAME>',
        );
    }
  });
});
