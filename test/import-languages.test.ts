import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { categories, products } from '../src/db/schema';
import { readTranslations } from '../src/model/translation-store';
import { db, makeCatalog, makeSession } from './helpers/factories';
import { importJobRow, insertImportJob, putImportFile, runImportToEnd } from './helpers/import-fixtures';
import { DEFAULT_LANGUAGE_12, ITALIAN_2005, TWO_LANGUAGES_2005 } from './fixtures/bmecat-languages';

async function importInto(
  xml: string,
  catalogOptions: { language?: string; languages?: string[] },
  options: { languagesNotEnabled?: 'fail' | 'skip' } = {},
) {
  const session = await makeSession();
  const catalog = await makeCatalog(session.tenant, { name: 'Languages', ...catalogOptions });
  const run = async () => {
    const fileId = await putImportFile(session.tenant, xml);
    const jobId = await insertImportJob(session.tenant, { catalogId: catalog.catalogId, fileId, ...options });
    await runImportToEnd(jobId);
    return importJobRow(jobId);
  };
  return { session, catalog, run };
}

const productsOf = (catalogId: string) =>
  db().select().from(products).where(eq(products.catalogId, catalogId)).orderBy(products.sku);

describe('importing BMEcat in several languages', () => {
  it('keeps every language of a 2005 file with lang attributes: the default in the columns, the others as translations', async () => {
    const { catalog, run } = await importInto(TWO_LANGUAGES_2005, { language: 'deu', languages: ['eng'] });
    const job = await run();
    expect(job.state).toBe('succeeded');
    expect(job.summary).toMatchObject({ created: 1, rejected: 0 });
    const [product] = await productsOf(catalog.catalogId);
    expect([product!.name, product!.description, product!.keywords]).toEqual([
      'Durchgangsklemme 2,5 mm²',
      'Schraubanschluss, beige',
      'Klemme',
    ]);
    expect((await readTranslations(db(), [product!.id])).get(product!.id)).toEqual({
      eng: {
        name: 'Feed-through terminal 2.5 mm²',
        description: 'Screw connection, beige',
        keywords: 'terminal, screw',
      },
    });
    const [group] = await db()
      .select()
      .from(categories)
      .where(and(eq(categories.catalogId, catalog.catalogId), eq(categories.name, 'Reihenklemmen')));
    expect(group!.description).toBe('Klemmen für die Hutschiene');
    expect((await readTranslations(db(), [group!.id])).get(group!.id)).toEqual({
      eng: { name: 'Terminal blocks', description: 'Blocks for the DIN rail' },
    });

    // The same file again changes nothing, translations included.
    const again = await run();
    expect(again.summary).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
  });

  it("reads unlabelled texts of a 1.2 file in the HEADER's LANGUAGE", async () => {
    const german = await importInto(DEFAULT_LANGUAGE_12, { language: 'deu', languages: ['eng'] });
    expect((await german.run()).state).toBe('succeeded');
    const [inGerman] = await productsOf(german.catalog.catalogId);
    // English texts never land in the German columns.
    expect([inGerman!.name, inGerman!.description]).toEqual([null, null]);
    expect((await readTranslations(db(), [inGerman!.id])).get(inGerman!.id)).toEqual({
      eng: { name: 'Circuit breaker B16', description: 'Type B, 16 A, one pole' },
    });

    const english = await importInto(DEFAULT_LANGUAGE_12, { language: 'eng' });
    expect((await english.run()).state).toBe('succeeded');
    const [inEnglish] = await productsOf(english.catalog.catalogId);
    expect(inEnglish!.name).toBe('Circuit breaker B16');
    expect((await readTranslations(db(), [inEnglish!.id])).size).toBe(0);
  });

  it('fails before writing anything for a language the company has not enabled, naming it with its count', async () => {
    const { catalog, run } = await importInto(ITALIAN_2005, { language: 'deu' });
    const job = await run();
    expect(job.state).toBe('failed');
    expect(job.error).toContain('Italian (ita) in 2 record(s)');
    expect(job.error).toContain('languagesNotEnabled: skip');
    expect(await productsOf(catalog.catalogId)).toEqual([]);
  });

  it('skips the texts of a language not enabled with languagesNotEnabled: skip, with one counted warning', async () => {
    const { catalog, run } = await importInto(ITALIAN_2005, { language: 'deu' }, { languagesNotEnabled: 'skip' });
    const job = await run();
    expect(job.state).toBe('succeeded');
    expect(job.warnings).toEqual([expect.stringMatching(/^texts in Italian \(ita\) left out.*\(2×/)]);
    const rows = await productsOf(catalog.catalogId);
    expect(rows.map((p) => [p.sku, p.name, p.description])).toEqual([
      ['IT-1', 'Schalter', null],
      ['IT-2', 'Taster', null],
    ]);
    expect(
      (
        await readTranslations(
          db(),
          rows.map((p) => p.id),
        )
      ).size,
    ).toBe(0);
  });
});
