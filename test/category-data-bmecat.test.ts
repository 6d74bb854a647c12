import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { categories, exportTemplates, historyVersions, media } from '../src/db/schema';
import { newId } from '../src/kernel/ids';
import { file, price2005, product } from './fixtures/bmecat-variants';
import { exportedFile } from './helpers/export-fixtures';
import { db, makeCatalog, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import { importDeps, importJobRow, insertImportJob, putImportFile, runImportToEnd } from './helpers/import-fixtures';

/**
 * Issue 32, point 2: what a CATALOG_STRUCTURE carries besides name, description and order is
 * kept on the category: its MIME_INFO (absolute URLs as links, anything else as file
 * references, as a product's), KEYWORDs, FEATUREs and USER_DEFINED_EXTENSIONS; the BMEcat
 * exports write them back, and GetCategory / UpdateCategory read and write them.
 */
type Session = Awaited<ReturnType<typeof makeSession>>;

const BANNER = 'https://cdn.example.com/groups/werkzeug-banner.jpg';
const CABLE = 'https://cdn.example.com/groups/kabel.png';
const UDX = '<UDX.CS_ATTRIBUT><UDX.NAME>INVISIBLE</UDX.NAME><UDX.WERT>J &amp; K</UDX.WERT></UDX.CS_ATTRIBUT>';
const GROUPS =
  '<CATALOG_GROUP_SYSTEM><GROUP_SYSTEM_ID>S</GROUP_SYSTEM_ID>' +
  '<CATALOG_STRUCTURE type="root"><GROUP_ID>R</GROUP_ID><GROUP_NAME>Alles</GROUP_NAME><PARENT_ID>0</PARENT_ID></CATALOG_STRUCTURE>' +
  '<CATALOG_STRUCTURE type="node"><GROUP_ID>T</GROUP_ID><GROUP_NAME>Werkzeug</GROUP_NAME><GROUP_DESCRIPTION>Handwerkzeug</GROUP_DESCRIPTION><PARENT_ID>R</PARENT_ID><GROUP_ORDER>1</GROUP_ORDER>' +
  '<MIME_INFO>' +
  '<MIME><MIME_TYPE>image/png</MIME_TYPE><MIME_SOURCE>werkzeug.png</MIME_SOURCE><MIME_PURPOSE>normal</MIME_PURPOSE><MIME_ORDER>1</MIME_ORDER></MIME>' +
  `<MIME><MIME_TYPE>image/jpeg</MIME_TYPE><MIME_SOURCE>${BANNER}</MIME_SOURCE><MIME_DESCR>Banner</MIME_DESCR><MIME_ALT>Werkzeug</MIME_ALT><MIME_PURPOSE>detail</MIME_PURPOSE><MIME_ORDER>2</MIME_ORDER></MIME>` +
  '<MIME><MIME_TYPE>application/pdf</MIME_TYPE><MIME_SOURCE>werkzeug-katalog.pdf</MIME_SOURCE><MIME_DESCR>Katalog</MIME_DESCR><MIME_PURPOSE>data_sheet</MIME_PURPOSE><MIME_ORDER>3</MIME_ORDER></MIME>' +
  '</MIME_INFO>' +
  `<USER_DEFINED_EXTENSIONS>${UDX}</USER_DEFINED_EXTENSIONS>` +
  '<KEYWORD>Werkzeug</KEYWORD><KEYWORD>Handwerk</KEYWORD>' +
  '</CATALOG_STRUCTURE>' +
  '<CATALOG_STRUCTURE type="leaf"><GROUP_ID>Z</GROUP_ID><GROUP_NAME>Zangen</GROUP_NAME><PARENT_ID>T</PARENT_ID><GROUP_ORDER>2</GROUP_ORDER>' +
  '<KEYWORD>Zange</KEYWORD>' +
  '<FEATURE><FNAME>Material</FNAME><FVALUE>Stahl</FVALUE></FEATURE>' +
  '<FEATURE><FNAME>Länge</FNAME><FVALUE>180</FVALUE><FUNIT>MMT</FUNIT><FORDER>2</FORDER></FEATURE>' +
  '</CATALOG_STRUCTURE>' +
  '<CATALOG_STRUCTURE type="leaf"><GROUP_ID>K</GROUP_ID><GROUP_NAME>Kabel</GROUP_NAME><PARENT_ID>R</PARENT_ID><GROUP_ORDER>3</GROUP_ORDER>' +
  `<MIME_INFO><MIME><MIME_TYPE>image/png</MIME_TYPE><MIME_SOURCE>${CABLE}</MIME_SOURCE><MIME_PURPOSE>logo</MIME_PURPOSE></MIME></MIME_INFO>` +
  '</CATALOG_STRUCTURE>' +
  '</CATALOG_GROUP_SYSTEM>';
const MAP =
  '<PRODUCT_TO_CATALOGGROUP_MAP><PROD_ID>Z-1</PROD_ID><CATALOG_GROUP_ID>Z</CATALOG_GROUP_ID></PRODUCT_TO_CATALOGGROUP_MAP>';
const ROOT = 'version="2005" xmlns="http://www.bmecat.org/bmecat/2005fd"';
const source = file({ root: ROOT, before: GROUPS, records: [product('Z-1', 'Zange', price2005('9.90')), MAP] });

async function importInto(session: Session, xml: string, catalogId?: string) {
  const id = catalogId ?? (await makeCatalog(session.tenant, { name: `Groups ${newId().slice(0, 6)}` })).catalogId;
  const fileId = await putImportFile(session.tenant, xml);
  const jobId = await insertImportJob(session.tenant, { catalogId: id, fileId, dryRun: false });
  await runImportToEnd(jobId, importDeps({ sliceMs: 60_000 }));
  expect((await importJobRow(jobId)).state).toBe('succeeded');
  return id;
}

/** Every category of the catalog with its data and media, by name (ids differ between catalogs). */
async function canonical(catalogId: string) {
  const rows = await db()
    .select()
    .from(categories)
    .where(eq(categories.catalogId, catalogId))
    .orderBy(asc(categories.name));
  const out = [];
  for (const c of rows) {
    const list = await db().select().from(media).where(eq(media.elementId, c.id)).orderBy(asc(media.sortOrder));
    out.push({
      name: c.name,
      description: c.description,
      sortOrder: c.sortOrder,
      parent: rows.find((p) => p.id === c.parentId)?.name ?? null,
      keywords: c.keywords,
      features: c.features ? JSON.parse(c.features) : null,
      udx: c.udx,
      media: list.map((m) => ({
        kind: m.url ? 'link' : 'file',
        source: m.url ?? m.fileName,
        purpose: m.purpose,
        contentType: m.contentType,
        description: m.description,
        alt: m.alt,
      })),
    });
  }
  return out;
}

async function exportOf(session: Session, catalogId: string, exportType: string, options?: Record<string, unknown>) {
  let templateId: string | null = null;
  if (options) {
    templateId = newId();
    await db()
      .insert(exportTemplates)
      .values({ id: templateId, companyId: session.tenant.companyId, name: 'groups', exportType, options });
  }
  const { text, warnings } = await exportedFile(session.tenant, catalogId, exportType, templateId);
  return { text, compact: text.replace(/>\s+</g, '><'), warnings: JSON.stringify(warnings) };
}

async function categoryNamed(catalogId: string, name: string) {
  const row = await db().query.categories.findFirst({
    where: and(eq(categories.catalogId, catalogId), eq(categories.name, name)),
  });
  return row!;
}

describe('category data from CATALOG_STRUCTURE', () => {
  it('keeps media links and references, KEYWORDs, FEATUREs and UDX on the categories', async () => {
    const session = await makeSession();
    const catalogId = await importInto(session, source);
    const tree = await canonical(catalogId);
    expect(tree.find((c) => c.name === 'Werkzeug')).toEqual({
      name: 'Werkzeug',
      description: 'Handwerkzeug',
      sortOrder: 1,
      parent: null,
      keywords: 'Werkzeug, Handwerk',
      features: null,
      udx: UDX,
      media: [
        {
          kind: 'file',
          source: 'werkzeug.png',
          purpose: 'normal',
          contentType: 'image/png',
          description: null,
          alt: null,
        },
        {
          kind: 'link',
          source: BANNER,
          purpose: 'detail',
          contentType: 'image/jpeg',
          description: 'Banner',
          alt: 'Werkzeug',
        },
        {
          kind: 'file',
          source: 'werkzeug-katalog.pdf',
          purpose: 'data_sheet',
          contentType: 'application/pdf',
          description: 'Katalog',
          alt: null,
        },
      ],
    });
    expect(tree.find((c) => c.name === 'Zangen')).toMatchObject({
      parent: 'Werkzeug',
      keywords: 'Zange',
      features: [
        { name: 'Material', values: ['Stahl'] },
        { name: 'Länge', values: ['180'], unit: 'MMT', order: 2 },
      ],
      udx: null,
      media: [],
    });
    // The same file again adds no media and leaves the data as it is.
    await importInto(session, source, catalogId);
    expect(await canonical(catalogId)).toEqual(tree);
  });

  it.each([
    ['BMEcat', { udxVerbatim: true }],
    ['BMEcat12', { udxVerbatim: true }],
  ])('round-trips through %s (udxVerbatim): import -> export -> import reads the same', async (format, options) => {
    const session = await makeSession();
    const catalogId = await importInto(session, source);
    const out = await exportOf(session, catalogId, format, options);
    expect(out.compact).toContain(`<USER_DEFINED_EXTENSIONS>${UDX}</USER_DEFINED_EXTENSIONS>`);
    expect(out.compact).toMatch(/<\/USER_DEFINED_EXTENSIONS><KEYWORD>Werkzeug<\/KEYWORD><KEYWORD>Handwerk<\/KEYWORD>/);
    const again = await importInto(session, out.text);
    expect(await canonical(again)).toEqual(await canonical(catalogId));
  });

  it('writes MIME_INFO and KEYWORDs by default, and leaves UDX and FEATUREs out with a warning', async () => {
    const session = await makeSession();
    const catalogId = await importInto(session, source);
    const out = await exportOf(session, catalogId, 'BMEcat');
    expect(out.compact).toMatch(
      /<GROUP_NAME>Werkzeug<\/GROUP_NAME>.*?<MIME_INFO><MIME>.*?<MIME_SOURCE>werkzeug\.png<\/MIME_SOURCE>.*?<MIME_SOURCE>https:\/\/cdn\.example\.com\/groups\/werkzeug-banner\.jpg<\/MIME_SOURCE>.*?<MIME_SOURCE>werkzeug-katalog\.pdf<\/MIME_SOURCE>.*?<\/MIME_INFO><KEYWORD>Werkzeug<\/KEYWORD><KEYWORD>Handwerk<\/KEYWORD><\/CATALOG_STRUCTURE>/,
    );
    expect(out.compact).toMatch(/<GROUP_NAME>Zangen<\/GROUP_NAME>.*?<KEYWORD>Zange<\/KEYWORD><\/CATALOG_STRUCTURE>/);
    expect(out.text).not.toContain('USER_DEFINED_EXTENSIONS');
    expect(out.text).not.toContain('<FEATURE>');
    expect(out.warnings).toContain('USER_DEFINED_EXTENSIONS not written');
    expect(out.warnings).toContain('category FEATUREs not written');
    // Without the extras the media and keywords still come back whole.
    const again = await canonical(await importInto(session, out.text));
    const first = await canonical(catalogId);
    expect(again.map((c) => ({ ...c, udx: undefined, features: undefined }))).toEqual(
      first.map((c) => ({ ...c, udx: undefined, features: undefined })),
    );
  });

  it('a dry run writes no category data', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: `Dry ${newId().slice(0, 6)}` });
    const fileId = await putImportFile(session.tenant, source);
    const jobId = await insertImportJob(session.tenant, { catalogId, fileId, dryRun: true });
    await runImportToEnd(jobId, importDeps({ sliceMs: 60_000 }));
    expect((await importJobRow(jobId)).state).toBe('succeeded');
    expect(await db().select().from(categories).where(eq(categories.catalogId, catalogId))).toEqual([]);
  });
});

describe('GetCategory and UpdateCategory with category data', () => {
  it('answers the data and the media list, and UpdateCategory changes keywords and features with history', async () => {
    const session = await makeSession();
    const catalogId = await importInto(session, source);
    const tool = await categoryNamed(catalogId, 'Werkzeug');
    const got = await call('GET', `/api/Catalog/GetCategory?categoryId=${tool.id}`, { cookie: session.cookie });
    expect(got.status, got.text).toBe(200);
    expect(got.json).toMatchObject({ keywords: 'Werkzeug, Handwerk', udx: UDX });
    expect(got.json.features).toBeUndefined();
    expect(
      got.json.media.map((m: { kind: string; url: string | null; fileName: string }) => m.url ?? m.fileName),
    ).toEqual(['werkzeug.png', BANNER, 'werkzeug-katalog.pdf']);

    // What a read returns a write accepts: the read-only udx is ignored.
    const { path: _path, media: _media, productCount: _count, ...read } = got.json;
    const res = await call('POST', '/api/Catalog/UpdateCategory', {
      cookie: session.cookie,
      body: {
        ...read,
        departmentId: session.departmentId,
        keywords: 'Werkzeug, Profi',
        features: [{ name: 'Material', values: ['Chrom-Vanadium'] }],
        udx: '<UDX.OTHER>x</UDX.OTHER>',
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      keywords: 'Werkzeug, Profi',
      features: [{ name: 'Material', values: ['Chrom-Vanadium'] }],
      udx: UDX,
    });
    const stored = await categoryNamed(catalogId, 'Werkzeug');
    expect(stored.keywords).toBe('Werkzeug, Profi');
    expect(stored.udx).toBe(UDX);
    const versions = await db().select().from(historyVersions).where(eq(historyVersions.elementId, tool.id));
    const changes = versions.map((v) => v.changes).join('\n');
    expect(changes).toContain('Werkzeug, Profi');
    expect(changes).toContain('Chrom-Vanadium');

    // Null removes.
    const cleared = await call('POST', '/api/Catalog/UpdateCategory', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, catalogId, categoryId: tool.id, name: 'Werkzeug', features: null },
    });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.json.features).toBeUndefined();
    expect(cleared.json.keywords).toBe('Werkzeug, Profi');
  });

  it('refuses a feature without name with 400 and changes nothing; another company gets 404', async () => {
    const session = await makeSession();
    const catalogId = await importInto(session, source);
    const pliers = await categoryNamed(catalogId, 'Zangen');
    const bad = await call('POST', '/api/Catalog/UpdateCategory', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId,
        categoryId: pliers.id,
        name: 'Zangen',
        features: [{ values: ['x'] }],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toContain('features');
    expect(await categoryNamed(catalogId, 'Zangen')).toEqual(pliers);

    const other = await makeSession();
    const foreign = await call('GET', `/api/Catalog/GetCategory?categoryId=${pliers.id}`, { cookie: other.cookie });
    expect(foreign.status).toBe(404);
  });
});
