import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { exportTemplates, media, products, productUdx } from '../src/db/schema';
import { newId } from '../src/kernel/ids';
import { file, price2005, product } from './fixtures/bmecat-variants';
import { exportedText } from './helpers/export-fixtures';
import { db, makeCatalog, makeSession } from './helpers/factories';
import { importDeps, importJobRow, insertImportJob, putImportFile, runImportToEnd } from './helpers/import-fixtures';

type Session = Awaited<ReturnType<typeof makeSession>>;

const IMG = 'https://cdn.example.com/img/zange%20180.jpg';
const PDF = 'https://cdn.example.com/docs/zange-datenblatt.pdf';
const SDB = 'http://media.example.org/sdb/4711.pdf';

/** A product with absolute-URL MIMEs, a relative one, an ETIM UDX.EDXF.MIME_INFO and other UDX. */
const MIMES =
  '<MIME_INFO>' +
  `<MIME><MIME_TYPE>image/jpeg</MIME_TYPE><MIME_SOURCE>${IMG}</MIME_SOURCE><MIME_DESCR>Zange</MIME_DESCR><MIME_ALT>Zange 180 mm</MIME_ALT><MIME_PURPOSE>normal</MIME_PURPOSE><MIME_ORDER>1</MIME_ORDER></MIME>` +
  '<MIME><MIME_TYPE>image/png</MIME_TYPE><MIME_SOURCE>bilder/detail.png</MIME_SOURCE><MIME_PURPOSE>detail</MIME_PURPOSE><MIME_ORDER>2</MIME_ORDER></MIME>' +
  `<MIME><MIME_TYPE>application/pdf</MIME_TYPE><MIME_SOURCE>${PDF}</MIME_SOURCE><MIME_DESCR>Datenblatt</MIME_DESCR><MIME_PURPOSE>data_sheet</MIME_PURPOSE><MIME_ORDER>3</MIME_ORDER></MIME>` +
  '</MIME_INFO>';
const UDX =
  '<USER_DEFINED_EXTENSIONS>' +
  `<UDX.EDXF.MIME_INFO><UDX.EDXF.MIME><UDX.EDXF.MIME_SOURCE>${SDB}</UDX.EDXF.MIME_SOURCE><UDX.EDXF.MIME_CODE>MD03</UDX.EDXF.MIME_CODE><UDX.EDXF.MIME_FILENAME>4711.pdf</UDX.EDXF.MIME_FILENAME><UDX.EDXF.MIME_DESIGNATION>Sicherheitsdatenblatt</UDX.EDXF.MIME_DESIGNATION><UDX.EDXF.MIME_ORDER>4</UDX.EDXF.MIME_ORDER></UDX.EDXF.MIME>` +
  `<UDX.EDXF.MIME><UDX.EDXF.MIME_SOURCE>${IMG}</UDX.EDXF.MIME_SOURCE><UDX.EDXF.MIME_CODE>MD01</UDX.EDXF.MIME_CODE><UDX.EDXF.MIME_ORDER>1</UDX.EDXF.MIME_ORDER></UDX.EDXF.MIME></UDX.EDXF.MIME_INFO>\n  ` +
  '<UDX.EDXF.BRAND_NAME>Knips &amp; Co</UDX.EDXF.BRAND_NAME>' +
  '<UDX.EDXF.MANUFACTURER_ACRONYM>KNC</UDX.EDXF.MANUFACTURER_ACRONYM>' +
  '</USER_DEFINED_EXTENSIONS>';

async function importXml(session: Session, xml: string) {
  const { catalogId } = await makeCatalog(session.tenant, { name: `Links ${newId().slice(0, 6)}` });
  const fileId = await putImportFile(session.tenant, xml);
  const jobId = await insertImportJob(session.tenant, { catalogId, fileId, dryRun: false });
  await runImportToEnd(jobId, importDeps({ sliceMs: 60_000 }));
  expect((await importJobRow(jobId)).summary).toMatchObject({ created: 1, rejected: 0 });
  return catalogId;
}

async function mediaOf(catalogId: string, sku: string) {
  const p = await db().query.products.findFirst({
    where: and(eq(products.catalogId, catalogId), eq(products.sku, sku)),
  });
  const rows = await db().select().from(media).where(eq(media.elementId, p!.id)).orderBy(asc(media.sortOrder));
  const udx = await db().query.productUdx.findFirst({ where: eq(productUdx.productId, p!.id) });
  return {
    media: rows.map((m) => ({
      url: m.url,
      fileName: m.fileName,
      purpose: m.purpose,
      mimeCode: m.mimeCode,
      alt: m.alt,
    })),
    udx: udx?.xml ?? null,
  };
}

async function exportText(session: Session, catalogId: string, exportType: string, options?: Record<string, unknown>) {
  let templateId: string | null = null;
  if (options) {
    templateId = newId();
    await db()
      .insert(exportTemplates)
      .values({ id: templateId, companyId: session.tenant.companyId, name: 'udx', exportType, options });
  }
  return exportedText(session.tenant, catalogId, exportType, templateId);
}

const source = file({
  root: 'version="2005" xmlns="http://www.bmecat.org/bmecat/2005fd"',
  records: [product('L-1', 'Zange', price2005('9.90') + MIMES + UDX)],
});

describe('media links and kept UDX from BMEcat', () => {
  it('keeps absolute MIME sources and UDX.EDXF.MIME as links in MIME_ORDER, and the other UDX verbatim', async () => {
    const session = await makeSession();
    const got = await mediaOf(await importXml(session, source), 'L-1');
    expect(got.media).toEqual([
      { url: IMG, fileName: 'zange 180.jpg', purpose: 'normal', mimeCode: 'MD01', alt: 'Zange 180 mm' },
      { url: null, fileName: 'detail.png', purpose: 'detail', mimeCode: null, alt: null },
      { url: PDF, fileName: 'zange-datenblatt.pdf', purpose: 'data_sheet', mimeCode: null, alt: null },
      { url: SDB, fileName: '4711.pdf', purpose: 'safety_data_sheet', mimeCode: 'MD03', alt: null },
    ]);
    expect(got.udx).toBe(
      '<UDX.EDXF.BRAND_NAME>Knips &amp; Co</UDX.EDXF.BRAND_NAME><UDX.EDXF.MANUFACTURER_ACRONYM>KNC</UDX.EDXF.MANUFACTURER_ACRONYM>',
    );
  });

  it('keeps prefixed UDX elements with their prefix', async () => {
    const session = await makeSession();
    const xml = file({
      root: 'version="2005" xmlns="http://www.bmecat.org/bmecat/2005fd" xmlns:x="urn:example:x"',
      records: [
        product('L-2', 'Zange', '<USER_DEFINED_EXTENSIONS><x:LEVEL a="1">3</x:LEVEL></USER_DEFINED_EXTENSIONS>'),
      ],
    });
    expect((await mediaOf(await importXml(session, xml), 'L-2')).udx).toBe('<x:LEVEL a="1">3</x:LEVEL>');
  });

  it.each(['BMEcat-ETIM', 'BMEcat'])(
    'writes every link to %s and reads the export back to the same links',
    async (format) => {
      const session = await makeSession();
      const first = await mediaOf(await importXml(session, source), 'L-1');
      const text = await exportText(session, await importXml(session, source), format);
      for (const url of [IMG, PDF, SDB]) expect(text).toContain(url);
      if (format === 'BMEcat-ETIM') {
        expect(text).toContain('<UDX.EDXF.MIME_CODE>MD03</UDX.EDXF.MIME_CODE>');
        // Kept UDX follows the MIME_INFO in the order the profile's schema lists its elements.
        expect(text).toMatch(
          /<\/UDX\.EDXF\.MIME_INFO>\s*<UDX\.EDXF\.MANUFACTURER_ACRONYM>KNC<\/UDX\.EDXF\.MANUFACTURER_ACRONYM><UDX\.EDXF\.BRAND_NAME>/,
        );
      } else {
        expect(text).toContain('<MIME_ALT>Zange 180 mm</MIME_ALT>');
        expect(text).not.toContain('UDX.EDXF.BRAND_NAME');
      }
      const again = await mediaOf(await importXml(session, text), 'L-1');
      // The ETIM profile has no MIME_PURPOSE (only MIME codes): purposes round-trip through 2005.
      const urls = (m: typeof first.media) =>
        m.map(({ url, purpose }) => (format === 'BMEcat' ? { url, purpose } : { url }));
      expect(urls(again.media)).toEqual(urls(first.media));
      if (format === 'BMEcat-ETIM') {
        expect(again.media.map((m) => m.mimeCode)).toEqual(['MD01', null, 'MD99', 'MD03']);
        expect(again.udx).toBe(
          '<UDX.EDXF.MANUFACTURER_ACRONYM>KNC</UDX.EDXF.MANUFACTURER_ACRONYM><UDX.EDXF.BRAND_NAME>Knips &amp; Co</UDX.EDXF.BRAND_NAME>',
        );
      }
    },
  );

  it('leaves the kept UDX out of an ETIM export whose template says dropUdx', async () => {
    const session = await makeSession();
    const catalogId = await importXml(session, source);
    const text = await exportText(session, catalogId, 'BMEcat-ETIM', { dropUdx: true });
    expect(text).not.toContain('UDX.EDXF.BRAND_NAME');
    expect(text).toContain(SDB);
  });

  it.each(['BMEcat', 'BMEcat12'])(
    'writes the kept UDX to %s as imported when the template says udxVerbatim, and reads it back the same',
    async (format) => {
      const session = await makeSession();
      const catalogId = await importXml(session, source);
      const kept = (await mediaOf(catalogId, 'L-1')).udx;
      expect(kept).toContain('<UDX.EDXF.BRAND_NAME>Knips &amp; Co</UDX.EDXF.BRAND_NAME>');
      expect(await exportText(session, catalogId, format)).not.toContain('USER_DEFINED_EXTENSIONS');
      const text = await exportText(session, catalogId, format, { udxVerbatim: true });
      expect(text.replace(/>\s+</g, '><')).toContain(`<USER_DEFINED_EXTENSIONS>${kept}</USER_DEFINED_EXTENSIONS>`);
      expect((await mediaOf(await importXml(session, text), 'L-1')).udx).toBe(kept);
    },
  );

  it('round-trips links through a CSV export and import (the media cell holds a link as its URL)', async () => {
    const session = await makeSession();
    const first = await mediaOf(await importXml(session, source), 'L-1');
    const csv = await exportText(session, await importXml(session, source), 'CSV');
    expect(csv).toContain(`${IMG}|detail.png|${PDF}|${SDB}`);
    const again = await mediaOf(await importXml(session, csv), 'L-1');
    expect(again.media.map((m) => m.url)).toEqual(first.media.map((m) => m.url));
    expect(again.media[1]).toMatchObject({ url: null, fileName: 'detail.png' });
  });
});
