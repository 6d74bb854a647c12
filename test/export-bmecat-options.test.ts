import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { catalogs } from '../src/db/schema';
import { createClassification } from '../src/classification/links';
import { setValue } from '../src/catalog/values';
import { addTemplate } from '../src/exports/templates';
import { attachMedia } from '../src/media/media';
import { db, makeAttribute, makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';
import { deliver, insertExportJob, jobRow, supplierPids } from './helpers/export-fixtures';

type Session = Awaited<ReturnType<typeof makeSession>>;

/** A master (ETIM + eCl@ss, an attribute, media, price), its bare variant, a draft and a discontinued product. */
async function catalogWithStatuses(session: Session) {
  const catalog = await makeCatalog(session, { name: 'Optionen' });
  const category = await makeCategory(session, catalog.catalogId);
  const weight = await makeAttribute(session, { code: 'weight_kg', type: 'number', unit: 'KGM' });
  const master = await makeProduct(session, catalog.catalogId, {
    sku: 'A',
    name: 'Automat',
    price: '10.00',
    unit: 'C62',
    categoryIds: [category.categoryId],
  });
  const variant = await makeProduct(session, catalog.catalogId, {
    sku: 'A-V',
    parentId: master.productId,
    name: 'Automat V',
  });
  await makeProduct(session, catalog.catalogId, { sku: 'B', name: 'Entwurf', status: 'draft' });
  await makeProduct(session, catalog.catalogId, { sku: 'C', name: 'Alt', status: 'discontinued', price: '1.00' });
  await createClassification(db(), session, {
    elementId: master.productId,
    name: 'MCB',
    classificationGroups: 3,
    classes: [
      { group: 'ETIM', code: 'EC000042' },
      { group: 'ECLASS', code: '27141190' },
    ],
    features: [
      { group: 'ETIM', code: 'EF000001', value: '-25..55' },
      { group: 'ECLASS', code: 'AAA001', value: '230' },
    ],
  });
  await setValue(db(), session, {
    departmentId: session.departmentId,
    elementId: master.productId,
    field: weight.code,
    value: '0.25',
  });
  await attachMedia({ db: db(), files: env.FILES }, session, {
    departmentId: session.departmentId,
    elementId: master.productId,
    fileName: 'a.jpg',
    purpose: 'normal',
    contentType: 'image/jpeg',
    bytes: new Uint8Array([255, 216, 255]),
  });
  return { catalog, master, variant };
}

async function exportXml(session: Session, catalogId: string, exportType: string, templateId: string | null = null) {
  const jobId = await insertExportJob(session.tenant, { catalogId, exportType, templateId });
  await deliver(jobId, 1);
  const row = await jobRow(jobId);
  expect(row.state).toBe('succeeded');
  return { row, xml: await (await env.FILES.get(row.resultKey!))!.text() };
}

/** The text of one PRODUCT element by its SUPPLIER_PID. */
function productXml(xml: string, pid: string): string {
  const match = new RegExp(`<PRODUCT mode="new">\\n<SUPPLIER_PID>${pid}</SUPPLIER_PID>[\\s\\S]*?</PRODUCT>`).exec(xml);
  return match?.[0] ?? '';
}

describe('BMEcat defaults', () => {
  it('exports every status, and a variant inherits classification, attributes, media and price from its master', async () => {
    const session = await makeSession();
    const { catalog } = await catalogWithStatuses(session);
    const { row, xml } = await exportXml(session, catalog.catalogId, 'BMEcat');
    expect(supplierPids(xml).sort()).toEqual(['A', 'A-V', 'B', 'C']);
    expect(row.progressTotal).toBe(4);
    const variant = productXml(xml, 'A-V');
    expect(variant).toContain(
      '<REFERENCE_FEATURE_SYSTEM_NAME>ETIM-9.0</REFERENCE_FEATURE_SYSTEM_NAME>\n<REFERENCE_FEATURE_GROUP_ID>EC000042</REFERENCE_FEATURE_GROUP_ID>',
    );
    expect(variant).toContain(
      '<FEATURE>\n<FNAME>EF000001</FNAME>\n<FVALUE>-25</FVALUE>\n<FVALUE>55</FVALUE>\n<FUNIT>CEL</FUNIT>\n</FEATURE>',
    );
    expect(variant).toContain('<FEATURE>\n<FNAME>AAA001</FNAME>\n<FVALUE>230</FVALUE>\n<FUNIT>VLT</FUNIT>\n</FEATURE>');
    expect(variant).toContain(
      '<FEATURE>\n<FNAME>weight_kg</FNAME>\n<FVALUE>0.25</FVALUE>\n<FUNIT>KGM</FUNIT>\n</FEATURE>',
    );
    expect(variant).toContain(
      '<PRODUCT_PRICE price_type="net_list">\n<PRICE_AMOUNT>10.00</PRICE_AMOUNT>\n<PRICE_CURRENCY>EUR</PRICE_CURRENCY>\n</PRODUCT_PRICE>',
    );
    expect(variant).toContain('<MIME_TYPE>image/jpeg</MIME_TYPE>\n<MIME_SOURCE>a.jpg</MIME_SOURCE>');
    expect(variant).toContain(
      '<PRODUCT_REFERENCE type="base_product">\n<PROD_ID_TO>A</PROD_ID_TO>\n</PRODUCT_REFERENCE>',
    );
    expect(productXml(xml, 'B')).toContain('<PRODUCT_STATUS type="others">draft</PRODUCT_STATUS>');
    expect(productXml(xml, 'B')).toContain('<PRODUCT_PRICE price_type="on_request">\n</PRODUCT_PRICE>');
    expect(productXml(xml, 'C')).toContain('<PRODUCT_STATUS type="old_product">discontinued</PRODUCT_STATUS>');
  });
});

describe('template options', () => {
  it('select statuses, classification systems and price type, and can switch off attributes and inheritance', async () => {
    const session = await makeSession();
    const { catalog } = await catalogWithStatuses(session);
    const template = await addTemplate(db(), session, {
      name: 'Streng',
      exportType: 'BMEcat',
      language: 'eng',
      options: {
        statuses: ['active', 'discontinued'],
        classificationSystems: ['ECLASS'],
        includeAttributes: false,
        inheritFromMaster: false,
        priceType: 'nrp',
        buyerName: 'Kunde <1>',
      },
    });
    const { row, xml } = await exportXml(session, catalog.catalogId, 'BMEcat', template.templateId);
    expect(supplierPids(xml)).toEqual(expect.arrayContaining(['A', 'A-V', 'C']));
    expect(supplierPids(xml)).not.toContain('B');
    expect(row.progressTotal).toBe(3);
    expect(xml).toContain('<LANGUAGE default="true">eng</LANGUAGE>');
    expect(xml).toContain('<BUYER>\n<BUYER_NAME>Kunde &lt;1&gt;</BUYER_NAME>\n</BUYER>');
    const master = productXml(xml, 'A');
    expect(master).toContain('<REFERENCE_FEATURE_SYSTEM_NAME>ECLASS-13.0</REFERENCE_FEATURE_SYSTEM_NAME>');
    expect(master).not.toContain('ETIM-9.0');
    expect(master).not.toContain('PIM-ATTRIBUTES');
    expect(master).toContain('<PRODUCT_PRICE price_type="nrp">');
    const variant = productXml(xml, 'A-V');
    expect(variant).not.toContain('<PRODUCT_FEATURES>');
    expect(variant).not.toContain('<MIME_INFO>');
    expect(variant).toContain('<PRODUCT_PRICE price_type="on_request">');
    expect(variant).toContain('<PRODUCT_REFERENCE type="base_product">');
  });

  it('leaving out a master leaves out its variants too, so no reference dangles', async () => {
    const session = await makeSession();
    const { catalog, master } = await catalogWithStatuses(session);
    await setValue(db(), session, {
      departmentId: session.departmentId,
      elementId: master.productId,
      field: 'status',
      value: 'draft',
    });
    const template = await addTemplate(db(), session, {
      name: 'Aktiv',
      exportType: 'BMEcat12',
      options: { statuses: ['active', 'discontinued'] },
    });
    const { row, xml } = await exportXml(session, catalog.catalogId, 'BMEcat12', template.templateId);
    expect(supplierPids(xml)).toEqual(['C']);
    expect(row.progressDone).toBe(1);
    expect(xml).not.toContain('<ARTICLE_TO_CATALOGGROUP_MAP>');
  });
});

describe('catalog codes the schemas do not list', () => {
  it('leaves out a currency the schema does not know and says so; refuses a language it does not know', async () => {
    const session = await makeSession();
    const odd = await makeCatalog(session, { name: 'Odd currency', currency: 'ZZZ' });
    await makeProduct(session, odd.catalogId, { sku: 'Z-1', price: '5.00' });
    const { row, xml } = await exportXml(session, odd.catalogId, 'BMEcat12');
    expect(xml).toContain('<ARTICLE_PRICE price_type="net_list">\n<PRICE_AMOUNT>5.00</PRICE_AMOUNT>\n</ARTICLE_PRICE>');
    expect(xml).not.toContain('<CURRENCY>');
    expect(row.warnings).toEqual([
      expect.stringMatching(
        /^currency ZZZ is not in the BMEcat 1\.2 currency list: CURRENCY and PRICE_CURRENCY left out: /,
      ),
    ]);

    // A catalog from before languages were checked (migration 0019 keeps its code as it was).
    const klingon = await makeCatalog(session, { name: 'Odd language' });
    await db()
      .update(catalogs)
      .set({ language: 'qqq', languages: ['qqq'] })
      .where(eq(catalogs.id, klingon.catalogId));
    const jobId = await insertExportJob(session.tenant, { catalogId: klingon.catalogId, exportType: 'BMEcat' });
    await deliver(jobId, 1);
    expect(await jobRow(jobId)).toMatchObject({
      state: 'failed',
      error: 'language: "qqq" is not an ISO 639-2 code the BMEcat schema accepts',
      resultKey: null,
    });
  });
});
