import { describe, expect, it } from 'vitest';
import { article, file, product } from './fixtures/bmecat-variants';
import { exportedFile } from './helpers/export-fixtures';
import { makeCatalog, makeSession } from './helpers/factories';
import { importTextToEnd } from './helpers/import-fixtures';

/**
 * Issue 32 (audit of the supplier samples): the unit a supplier writes beside a feature of a
 * class the reference data does not hold (eCl@ss 5.1 in a BMEcat 1.2 T_UPDATE_PRODUCTS file,
 * eCl@ss 13 in ETIM International's xChange sample: no release of either loaded, as for a new
 * company) was dropped on import, so every export wrote `110` / `220` where the file said volts.
 * The value is kept as text (unverified) and its FUNIT / ClassificationFeatureUnit with it.
 */
const eclass12 = (unit: string) =>
  file({
    root: 'version="1.2"',
    records: [
      article(
        'NETZ-1',
        'Netzteil',
        '<ARTICLE_FEATURES><REFERENCE_FEATURE_SYSTEM_NAME>ECLASS-5.1</REFERENCE_FEATURE_SYSTEM_NAME>' +
          '<REFERENCE_FEATURE_GROUP_ID>19010203</REFERENCE_FEATURE_GROUP_ID>' +
          `<FEATURE><FNAME>Netzspannung</FNAME><FVALUE>110</FVALUE><FVALUE>220</FVALUE><FUNIT>${unit}</FUNIT></FEATURE>` +
          '<FEATURE><FNAME>Farbe</FNAME><FVALUE>grau</FVALUE></FEATURE>' +
          '</ARTICLE_FEATURES>',
      ),
    ],
  });

const xchangeFile = JSON.stringify({
  SchemaVersion: '2.0',
  CatalogueId: 'FU-1',
  CatalogueType: 'FULL',
  CatalogueValidityStart: '2026-01-01',
  Language: ['de-DE'],
  CurrencyCode: 'EUR',
  Supplier: [
    {
      SupplierName: 'Einheiten GmbH',
      Product: [
        {
          ProductIdentification: { ManufacturerName: 'Maker', ManufacturerProductNumber: 'M-FI-1' },
          ProductDetails: {
            ProductStatus: 'ACTIVE',
            ProductDescriptions: [{ DescriptionLanguage: 'de-DE', MinimalProductDescription: 'FI-Schalter' }],
          },
          OtherClassifications: [
            {
              ClassificationName: 'ECLASS',
              ClassificationClassCode: '27-14-22-01',
              ClassificationVersion: '13.0',
              ClassificationFeatures: [
                {
                  ClassificationFeatureName: 'Rated error current',
                  ClassificationFeatureValue1: '0.03',
                  ClassificationFeatureUnit: 'ampere (A)',
                },
              ],
            },
          ],
          TradeItem: [{ ItemIdentification: { SupplierItemNumber: 'FI-1' }, Ordering: { OrderUnit: 'C62' } }],
        },
      ],
    },
  ],
});

const compact = (xml: string) => xml.replace(/>\s+</g, '><');

describe('the unit of a feature of an unverified class', () => {
  it('comes back in BMEcat 1.2, 2005 and xChange from a BMEcat 1.2 file', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: 'Einheiten 1.2' });
    const { job } = await importTextToEnd(session.tenant, catalogId, eclass12('VLT'), { fileName: 'eclass.xml' });
    expect(job.summary).toMatchObject({ created: 1, rejected: 0, 'warnings.class_unverified': 1 });

    const feature =
      '<FEATURE><FNAME>Netzspannung</FNAME><FVALUE>110</FVALUE><FVALUE>220</FVALUE><FUNIT>VLT</FUNIT></FEATURE>';
    for (const format of ['BMEcat12', 'BMEcat']) {
      const { text } = await exportedFile(session.tenant, catalogId, format);
      expect(compact(text), format).toContain(feature);
      // A feature the file gave no unit gets none.
      expect(compact(text), format).toContain('<FEATURE><FNAME>Farbe</FNAME><FVALUE>grau</FVALUE></FEATURE>');
    }
    const { text } = await exportedFile(session.tenant, catalogId, 'ETIMxChange');
    const other = JSON.parse(text).Supplier[0].Product[0].OtherClassifications;
    expect(other).toEqual([
      {
        ClassificationName: 'ECLASS',
        ClassificationVersion: '5.1',
        ClassificationClassCode: '19010203',
        ClassificationFeatures: [
          // Classification features are stored and written by code.
          { ClassificationFeatureName: 'Farbe', ClassificationFeatureValue1: 'grau' },
          {
            ClassificationFeatureName: 'Netzspannung',
            ClassificationFeatureValue1: '110',
            ClassificationFeatureValue2: '220',
            ClassificationFeatureUnit: 'VLT',
          },
        ],
      },
    ]);
  });

  it('comes back in xChange and BMEcat 2005 from an xChange file', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: 'Einheiten xChange' });
    const { job } = await importTextToEnd(session.tenant, catalogId, xchangeFile);
    expect(job.summary).toMatchObject({ created: 1, rejected: 0, 'warnings.class_unverified': 1 });

    const { text } = await exportedFile(session.tenant, catalogId, 'ETIMxChange');
    expect(JSON.parse(text).Supplier[0].Product[0].OtherClassifications[0].ClassificationFeatures).toEqual([
      {
        ClassificationFeatureName: 'Rated error current',
        ClassificationFeatureValue1: '0.03',
        ClassificationFeatureUnit: 'ampere (A)',
      },
    ]);
    const bmecat = await exportedFile(session.tenant, catalogId, 'BMEcat');
    expect(compact(bmecat.text)).toContain(
      '<FEATURE><FNAME>Rated error current</FNAME><FVALUE>0.03</FVALUE><FUNIT>ampere (A)</FUNIT></FEATURE>',
    );
    expect(bmecat.warnings.filter((w) => w.includes('FUNIT'))).toEqual([]);
  });

  it('comes back in BMEcat 2005 for an ETIM feature, and the ETIM profile and xChange report leaving it out', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: 'Einheiten ETIM' });
    const etim2005 = file({
      root: 'version="2005"',
      records: [
        product(
          'KAB-1',
          'Kabel',
          '<PRODUCT_FEATURES><REFERENCE_FEATURE_SYSTEM_NAME>ETIM-9.0</REFERENCE_FEATURE_SYSTEM_NAME>' +
            '<REFERENCE_FEATURE_GROUP_ID>EC999999</REFERENCE_FEATURE_GROUP_ID>' +
            '<FEATURE><FNAME>EF999999</FNAME><FVALUE>12</FVALUE><FUNIT>MMT</FUNIT></FEATURE></PRODUCT_FEATURES>',
        ),
      ],
    });
    const { job } = await importTextToEnd(session.tenant, catalogId, etim2005, { fileName: 'etim.xml' });
    expect(job.summary).toMatchObject({ created: 1, rejected: 0, 'warnings.class_unverified': 1 });

    const bmecat = await exportedFile(session.tenant, catalogId, 'BMEcat');
    expect(compact(bmecat.text)).toContain('<FEATURE><FNAME>EF999999</FNAME><FVALUE>12</FVALUE><FUNIT>MMT</FUNIT>');
    expect(bmecat.warnings.filter((w) => w.includes('FUNIT'))).toEqual([]);

    const profile = await exportedFile(session.tenant, catalogId, 'BMEcat-ETIM');
    expect(compact(profile.text)).toContain('<FEATURE><FNAME>EF999999</FNAME><FVALUE>12</FVALUE></FEATURE>');
    expect(profile.warnings).toContain(
      "feature block ETIM-9.0: the file's FUNIT of a feature of an unverified ETIM class left out (the ETIM guideline takes units from the ETIM model): 1 time (e.g. KAB-1)",
    );
    const xchange = await exportedFile(session.tenant, catalogId, 'ETIMxChange');
    expect(JSON.parse(xchange.text).Supplier[0].Product[0].EtimClassification[0].EtimFeatures).toEqual([
      { EtimFeatureCode: 'EF999999', EtimValueNumeric: '12' },
    ]);
    expect(xchange.warnings).toContain(
      "feature block ETIM-9.0: the file's FUNIT of a feature of an unverified ETIM class left out (ETIM xChange takes units from the ETIM model): 1 time (e.g. KAB-1)",
    );
  });

  it('is cut to the 20 characters FUNIT holds, reported', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: 'Lange Einheit' });
    await importTextToEnd(session.tenant, catalogId, eclass12('Volt Wechselspannung 50 Hz'), { fileName: 'long.xml' });
    const { text, warnings } = await exportedFile(session.tenant, catalogId, 'BMEcat');
    expect(compact(text)).toContain('<FVALUE>220</FVALUE><FUNIT>Volt Wechselspannung</FUNIT></FEATURE>');
    expect(warnings).toContain('feature unit cut to 20 characters (FUNIT): 1 time (e.g. NETZ-1)');
  });
});
