import { env } from 'cloudflare:workers';
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { historyVersions, media, products } from '../src/db/schema';
import { readTranslations } from '../src/model/translation-store';
import { db, makeCatalog, makeSession } from './helpers/factories';
import { deliver, insertExportJob, jobRow } from './helpers/export-fixtures';
import { importJobRow, insertImportJob, putImportFile, runImportToEnd } from './helpers/import-fixtures';
import { DETAILS_2005 } from './fixtures/bmecat-details-languages';

type Session = Awaited<ReturnType<typeof makeSession>>;

async function importInto(session: Session, catalogId: string, xml: string) {
  const fileId = await putImportFile(session.tenant, xml);
  const jobId = await insertImportJob(session.tenant, { catalogId, fileId });
  await runImportToEnd(jobId);
  return importJobRow(jobId);
}

/** The catalog's one product: its media (description column and translations) and its own translations. */
async function stored(catalogId: string) {
  const [product] = await db().select().from(products).where(eq(products.catalogId, catalogId));
  const files = await db().select().from(media).where(eq(media.elementId, product!.id)).orderBy(asc(media.sortOrder));
  const texts = await readTranslations(db(), [product!.id, ...files.map((m) => m.id)]);
  return {
    product: product!,
    media: files.map((m) => ({ fileName: m.fileName, description: m.description, other: texts.get(m.id) ?? {} })),
    translations: texts.get(product!.id) ?? {},
  };
}

async function exportXml(session: Session, catalogId: string, exportType: string) {
  const jobId = await insertExportJob(session.tenant, { catalogId, exportType, templateId: null });
  await deliver(jobId, 1);
  const row = await jobRow(jobId);
  expect(row.state).toBe('succeeded');
  return (await (await env.FILES.get(row.resultKey!))!.text()) as string;
}

const EXPECTED_MEDIA = [
  { fileName: 'ls-b16.jpg', description: 'Vorderansicht', other: { eng: { description: 'Front view' } } },
  { fileName: 'ls-b16.pdf', description: 'Datenblatt', other: {} },
];
const EXPECTED_DETAILS = {
  deu: { 'details.ETIM.EF000008': 'Wechselspannung' },
  eng: { name: 'Circuit breaker B16', 'details.ETIM.EF000008': 'alternating voltage' },
};

describe('BMEcat MIME_DESCR and FVALUE_DETAILS in several languages', () => {
  it('keeps the default language in the media column, others as translations, FVALUE_DETAILS per language; the export writes each language back once', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { name: 'Details', language: 'deu', languages: ['eng'] });
    const job = await importInto(session, catalog.catalogId, DETAILS_2005);
    expect(job.state, job.error ?? '').toBe('succeeded');
    const first = await stored(catalog.catalogId);
    expect(first.media).toEqual(EXPECTED_MEDIA);
    expect(first.translations).toEqual(EXPECTED_DETAILS);
    // History names each language: the media entry's English description and the details per language.
    const [version] = await db().select().from(historyVersions).where(eq(historyVersions.elementId, first.product.id));
    const paths = (JSON.parse(version!.changes) as [string][]).map(([path]) => path);
    expect(paths).toEqual(
      expect.arrayContaining([
        `media.${
          (
            await db()
              .select()
              .from(media)
              .where(and(eq(media.elementId, first.product.id), eq(media.fileName, 'ls-b16.jpg')))
          )[0]!.id
        }.description@eng`,
        'details.ETIM.EF000008@deu',
        'details.ETIM.EF000008@eng',
      ]),
    );

    // The same file again changes nothing.
    const again = await importInto(session, catalog.catalogId, DETAILS_2005);
    expect(again.summary).toMatchObject({ created: 0, updated: 0, unchanged: 1 });

    const xml = await exportXml(session, catalog.catalogId, 'BMEcat');
    expect(xml).toContain(
      '<MIME_DESCR lang="deu">Vorderansicht</MIME_DESCR>\n<MIME_DESCR lang="eng">Front view</MIME_DESCR>',
    );
    expect(xml.match(/<MIME_DESCR[^>]*>Vorderansicht</g)).toHaveLength(1);
    expect(xml).toContain(
      '<FVALUE_DETAILS lang="deu">Wechselspannung</FVALUE_DETAILS>\n<FVALUE_DETAILS lang="eng">alternating voltage</FVALUE_DETAILS>',
    );
    expect(xml.match(/<FVALUE_DETAILS/g)).toHaveLength(2);
    // BMEcat 1.2 has one language: the default's FVALUE_DETAILS, without lang.
    const old = await exportXml(session, catalog.catalogId, 'BMEcat12');
    expect(old).toContain('<FVALUE_DETAILS>Wechselspannung</FVALUE_DETAILS>');
    expect(old).not.toContain('alternating voltage');

    // Round trip: the export imported into an empty catalog of the same languages keeps every text.
    const target = await makeCatalog(session.tenant, { name: 'Ziel', language: 'deu', languages: ['eng'] });
    const back = await importInto(session, target.catalogId, xml);
    expect(back.state, back.error ?? '').toBe('succeeded');
    const copy = await stored(target.catalogId);
    expect(copy.media).toEqual(EXPECTED_MEDIA);
    expect(copy.translations).toEqual(EXPECTED_DETAILS);
  });
});
