import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { categories, media, products } from '../src/db/schema';
import { newId } from '../src/kernel/ids';
import { loadProductAggregates } from '../src/model/product-aggregate';
import { fingerprintsOf } from '../src/records/sync-record';
import { file, price2005, product } from './fixtures/bmecat-variants';
import { exportedFile } from './helpers/export-fixtures';
import { expectFingerprintsCurrent } from './helpers/fingerprints';
import { db, makeCatalog, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import { importDeps, importJobRow, insertImportJob, putImportFile, runImportToEnd } from './helpers/import-fixtures';

/**
 * Issue 19: a CATALOG_STRUCTURE's MIME_INFO links become links of the category the group
 * becomes (issue 32: file names without a URL become file references, as a product's), once
 * per URL or name however often the file is imported; a PRODUCT_REFERENCE's REFERENCE_DESCR, CATALOG_ID and
 * CATALOG_VERSION are kept, answered by GetReferences and written back by the exports (1.2
 * has no REFERENCE_DESCR: left out with a warning).
 */
type Session = Awaited<ReturnType<typeof makeSession>>;

const SHEET = 'https://cdn.example.com/groups/zangen.pdf';
const LOGO = 'https://cdn.example.com/groups/zangen.png';
const GROUPS =
  '<CATALOG_GROUP_SYSTEM><GROUP_SYSTEM_ID>S</GROUP_SYSTEM_ID>' +
  '<CATALOG_STRUCTURE type="root"><GROUP_ID>R</GROUP_ID><GROUP_NAME>Alles</GROUP_NAME><PARENT_ID>0</PARENT_ID></CATALOG_STRUCTURE>' +
  '<CATALOG_STRUCTURE type="leaf"><GROUP_ID>Z</GROUP_ID><GROUP_NAME>Zangen</GROUP_NAME><PARENT_ID>R</PARENT_ID><MIME_INFO>' +
  `<MIME><MIME_TYPE>application/pdf</MIME_TYPE><MIME_SOURCE>${SHEET}</MIME_SOURCE><MIME_DESCR>Übersicht</MIME_DESCR><MIME_PURPOSE>data_sheet</MIME_PURPOSE><MIME_ORDER>2</MIME_ORDER></MIME>` +
  '<MIME><MIME_TYPE>image/jpeg</MIME_TYPE><MIME_SOURCE>gruppen/zangen.jpg</MIME_SOURCE><MIME_PURPOSE>normal</MIME_PURPOSE></MIME>' +
  `<MIME><MIME_TYPE>image/png</MIME_TYPE><MIME_SOURCE>${LOGO}</MIME_SOURCE><MIME_ALT>Zangen</MIME_ALT><MIME_PURPOSE>logo</MIME_PURPOSE><MIME_ORDER>1</MIME_ORDER></MIME>` +
  '</MIME_INFO></CATALOG_STRUCTURE></CATALOG_GROUP_SYSTEM>';
const MAP =
  '<PRODUCT_TO_CATALOGGROUP_MAP><PROD_ID>Z-1</PROD_ID><CATALOG_GROUP_ID>Z</CATALOG_GROUP_ID></PRODUCT_TO_CATALOGGROUP_MAP>';
const REFS =
  '<PRODUCT_REFERENCE type="accessories" quantity="2"><PROD_ID_TO>ETUI-1</PROD_ID_TO><CATALOG_ID>ZUBEHOER</CATALOG_ID><CATALOG_VERSION>2.1</CATALOG_VERSION><REFERENCE_DESCR>Etui für die Zange</REFERENCE_DESCR></PRODUCT_REFERENCE>' +
  '<PRODUCT_REFERENCE type="similar"><PROD_ID_TO>Z-2</PROD_ID_TO></PRODUCT_REFERENCE>';
const ROOT = 'version="2005" xmlns="http://www.bmecat.org/bmecat/2005fd"';
const source = file({ root: ROOT, before: GROUPS, records: [product('Z-1', 'Zange', price2005('9.90') + REFS), MAP] });

async function importInto(session: Session, catalogId: string, xml: string) {
  const fileId = await putImportFile(session.tenant, xml);
  const jobId = await insertImportJob(session.tenant, { catalogId, fileId, dryRun: false });
  await runImportToEnd(jobId, importDeps({ sliceMs: 60_000 }));
  const job = await importJobRow(jobId);
  expect(job.state).toBe('succeeded');
  return job;
}

async function categoryLinks(catalogId: string) {
  const [category] = await db()
    .select()
    .from(categories)
    .where(and(eq(categories.catalogId, catalogId), eq(categories.name, 'Zangen')));
  const rows = await db().select().from(media).where(eq(media.elementId, category!.id)).orderBy(asc(media.sortOrder));
  return rows.map((m) => ({
    url: m.url,
    fileName: m.url ? undefined : m.fileName,
    purpose: m.purpose,
    description: m.description,
    alt: m.alt,
    size: m.size,
  }));
}

async function exportText(session: Session, catalogId: string, exportType: string) {
  const { text, warnings } = await exportedFile(session.tenant, catalogId, exportType);
  // `compact`: the elements without the line breaks between them, to match a sequence.
  return { text, compact: text.replace(/>\s+</g, '><'), warnings: JSON.stringify(warnings) };
}

async function referencesOf(session: Session, catalogId: string, sku: string) {
  const p = await db().query.products.findFirst({
    where: and(eq(products.catalogId, catalogId), eq(products.sku, sku)),
  });
  const res = await call('GET', `/api/Catalog/GetReferences?productId=${p!.id}`, { cookie: session.cookie });
  expect(res.status).toBe(200);
  return res.json.outgoing.map((r: Record<string, unknown>) => ({
    type: r.type,
    targetSku: r.targetSku,
    quantity: r.quantity,
    descr: r.descr,
    targetCatalog: r.targetCatalog,
    targetCatalogVersion: r.targetCatalogVersion,
  }));
}

const EXPECTED_REFS = [
  {
    type: 'accessories',
    targetSku: 'ETUI-1',
    quantity: 2,
    descr: 'Etui für die Zange',
    targetCatalog: 'ZUBEHOER',
    targetCatalogVersion: '2.1',
  },
  { type: 'similar', targetSku: 'Z-2', quantity: null, descr: null, targetCatalog: null, targetCatalogVersion: null },
];

describe('category media links from CATALOG_STRUCTURE', () => {
  it('keeps the URL sources as links and file names as references of the category in MIME_ORDER, once however often the file comes', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: `Groups ${newId().slice(0, 6)}` });
    await importInto(session, catalogId, source);
    const expected = [
      { url: null, fileName: 'zangen.jpg', purpose: 'normal', description: null, alt: null, size: 0 },
      { url: LOGO, purpose: 'logo', description: null, alt: 'Zangen', size: 0 },
      { url: SHEET, purpose: 'data_sheet', description: 'Übersicht', alt: null, size: 0 },
    ];
    expect(await categoryLinks(catalogId)).toEqual(expected);
    // The product placed in the category carries its links in its sync record (docs/shops.md
    // "Category images"): the fingerprint the import stored is the one computed from the rows.
    await expectFingerprintsCurrent(session.companyId, catalogId);
    await importInto(session, catalogId, source);
    expect(await categoryLinks(catalogId)).toEqual(expected);
    await expectFingerprintsCurrent(session.companyId, catalogId);
  });

  it('marks the products already placed in a category stale when an import gives the category a link', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: `Stale ${newId().slice(0, 6)}` });
    const plain = file({
      root: ROOT,
      before: GROUPS.replace(/<MIME_INFO>.*<\/MIME_INFO>/, ''),
      records: [product('Z-1', 'Zange', price2005('9.90') + REFS), MAP],
    });
    await importInto(session, catalogId, plain);
    await expectFingerprintsCurrent(session.companyId, catalogId);
    const master = () =>
      db().query.products.findFirst({ where: and(eq(products.catalogId, catalogId), eq(products.sku, 'Z-1')) });
    const before = (await master())!;
    // The same product again, its category now with links: the product's own rows do not change.
    await importInto(session, catalogId, source);
    const after = (await master())!;
    const [aggregate] = await loadProductAggregates(db(), session.companyId, [after.id]);
    const computed = (await fingerprintsOf(db(), session.companyId, [aggregate!])).get(after.id);
    expect(computed).not.toBe(before.fingerprint);
    // Either stale (the next sync run recomputes it) or already recomputed: never the old one as current.
    expect(after.fingerprintRevision < after.revision || after.fingerprint === computed).toBe(true);
  });

  it.each(['BMEcat', 'BMEcat12'])(
    'are written back as MIME_INFO of the CATALOG_STRUCTURE in %s and read again',
    async (format) => {
      const session = await makeSession();
      const { catalogId } = await makeCatalog(session.tenant, { name: `Out ${newId().slice(0, 6)}` });
      await importInto(session, catalogId, source);
      const out = await exportText(session, catalogId, format);
      expect(out.compact).toMatch(
        /<GROUP_NAME>Zangen<\/GROUP_NAME>.*?<MIME_INFO><MIME>(<MIME_TYPE>[^<]*<\/MIME_TYPE>)?<MIME_SOURCE>zangen\.jpg<\/MIME_SOURCE>.*?<MIME_SOURCE>https:\/\/cdn\.example\.com\/groups\/zangen\.png<\/MIME_SOURCE>.*?<MIME_SOURCE>https:\/\/cdn\.example\.com\/groups\/zangen\.pdf<\/MIME_SOURCE>.*?<\/MIME_INFO><\/CATALOG_STRUCTURE>/,
      );
      const again = await makeCatalog(session.tenant, { name: `Back ${newId().slice(0, 6)}` });
      await importInto(session, again.catalogId, out.text);
      expect((await categoryLinks(again.catalogId)).map((l) => l.url ?? l.fileName)).toEqual([
        'zangen.jpg',
        LOGO,
        SHEET,
      ]);
    },
  );

  it('a dry run creates no links', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: `Dry ${newId().slice(0, 6)}` });
    const fileId = await putImportFile(session.tenant, source);
    const jobId = await insertImportJob(session.tenant, { catalogId, fileId, dryRun: true });
    await runImportToEnd(jobId, importDeps({ sliceMs: 60_000 }));
    expect((await importJobRow(jobId)).state).toBe('succeeded');
    const links = await db().select().from(media).where(eq(media.url, SHEET));
    const own = await db().select().from(categories).where(eq(categories.catalogId, catalogId));
    expect(own).toEqual([]);
    expect(links.filter((l) => own.some((c) => c.id === l.elementId))).toEqual([]);
  });
});

describe('REFERENCE_DESCR, CATALOG_ID and CATALOG_VERSION of references', () => {
  it('are kept, answered by GetReferences, and survive a BMEcat 2005 round trip', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: `Refs ${newId().slice(0, 6)}` });
    await importInto(session, catalogId, source);
    expect(await referencesOf(session, catalogId, 'Z-1')).toEqual(EXPECTED_REFS);

    const out = await exportText(session, catalogId, 'BMEcat');
    expect(out.compact).toContain(
      '<PROD_ID_TO>ETUI-1</PROD_ID_TO><CATALOG_ID>ZUBEHOER</CATALOG_ID><CATALOG_VERSION>2.1</CATALOG_VERSION><REFERENCE_DESCR>Etui für die Zange</REFERENCE_DESCR>',
    );
    const again = await makeCatalog(session.tenant, { name: `Again ${newId().slice(0, 6)}` });
    await importInto(session, again.catalogId, out.text);
    expect(await referencesOf(session, again.catalogId, 'Z-1')).toEqual(EXPECTED_REFS);
  });

  it('BMEcat 1.2 writes CATALOG_ID and CATALOG_VERSION, and leaves REFERENCE_DESCR out with a warning', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: `Refs12 ${newId().slice(0, 6)}` });
    await importInto(session, catalogId, source);
    const out = await exportText(session, catalogId, 'BMEcat12');
    expect(out.compact).toContain(
      '<ART_ID_TO>ETUI-1</ART_ID_TO><CATALOG_ID>ZUBEHOER</CATALOG_ID><CATALOG_VERSION>2.1</CATALOG_VERSION>',
    );
    expect(out.text).not.toContain('REFERENCE_DESCR');
    expect(out.warnings).toContain('REFERENCE_DESCR is not in BMEcat 1.2');
  });

  it('SetReferences takes the details, and a version not of the form 1.0 is left out of the export with a warning', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: `Set ${newId().slice(0, 6)}` });
    await importInto(session, catalogId, source);
    const p = await db().query.products.findFirst({
      where: and(eq(products.catalogId, catalogId), eq(products.sku, 'Z-1')),
    });
    const res = await call('POST', '/api/Catalog/SetReferences', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        productId: p!.id,
        references: [{ type: 'followup', targetSku: 'Z-3', descr: 'Nachfolger', targetCatalogVersion: 'V2' }],
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.outgoing[0]).toMatchObject({
      descr: 'Nachfolger',
      targetCatalog: null,
      targetCatalogVersion: 'V2',
    });
    const out = await exportText(session, catalogId, 'BMEcat');
    expect(out.compact).toContain('<PROD_ID_TO>Z-3</PROD_ID_TO><REFERENCE_DESCR>Nachfolger</REFERENCE_DESCR>');
    expect(out.warnings).toContain('CATALOG_VERSION is not of the form 1.0');
  });
});

describe('an order unit kept as written', () => {
  it.each(['BMEcat', 'BMEcat-ETIM', 'BMEcat12'])(
    'is exported to %s as ORDER_UNIT C62 with a warning naming it',
    async (format) => {
      const session = await makeSession();
      const { catalogId } = await makeCatalog(session.tenant, { name: `Unit ${newId().slice(0, 6)}` });
      const xml = file({
        root: ROOT,
        records: [
          product(
            'R-1',
            'Kabel',
            `<PRODUCT_ORDER_DETAILS><ORDER_UNIT>Rolle à 50 m</ORDER_UNIT><CONTENT_UNIT>Rolle à 50 m</CONTENT_UNIT></PRODUCT_ORDER_DETAILS>${price2005('19.90')}`,
          ),
        ],
      });
      await importInto(session, catalogId, xml);
      const row = await db().query.products.findFirst({
        where: and(eq(products.catalogId, catalogId), eq(products.sku, 'R-1')),
      });
      expect(row!.unit).toBe('Rolle à 50 m');
      const out = await exportText(session, catalogId, format);
      expect(out.compact).toContain('<ORDER_UNIT>C62</ORDER_UNIT>');
      expect(out.compact).not.toContain('Rolle');
      expect(out.warnings).toContain("unit Rolle à 50 m is not in the schema's unit list: written as C62");
    },
  );
});
