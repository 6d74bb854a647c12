import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '../src/db/schema';
import { readTranslations, writeTranslationStatements } from '../src/model/translation-store';
import { addTemplate } from '../src/exports/templates';
import { db, makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';
import { deliver, insertExportJob, jobRow } from './helpers/export-fixtures';
import { importJobRow, insertImportJob, putImportFile, runImportToEnd } from './helpers/import-fixtures';

type Session = Awaited<ReturnType<typeof makeSession>>;

/** A German catalog publishing English and French: a category and a master with a variant, translated in part. */
async function threeLanguages(session: Session) {
  const catalog = await makeCatalog(session.tenant, {
    name: 'Dreisprachig',
    language: 'deu',
    languages: ['eng', 'fra'],
  });
  const category = await makeCategory(session.tenant, catalog.catalogId, {
    name: 'Schalter',
    description: 'Alle Schalter',
  });
  const master = await makeProduct(session.tenant, catalog.catalogId, {
    sku: 'S-1',
    name: 'Schalter',
    description: 'Ein Schalter',
    keywords: 'Schalter, Taster',
    categoryIds: [category.categoryId],
  });
  const variant = await makeProduct(session.tenant, catalog.catalogId, {
    sku: 'S-1-W',
    parentId: master.productId,
    name: undefined,
  });
  await db().batch([
    ...writeTranslationStatements(db(), master.productId, 'eng', {
      name: 'Switch',
      description: 'A switch',
      keywords: 'switch, button',
    }),
    ...writeTranslationStatements(db(), master.productId, 'fra', { name: 'Interrupteur' }),
    ...writeTranslationStatements(db(), variant.productId, 'eng', { name: 'Switch white' }),
    ...writeTranslationStatements(db(), category.categoryId, 'eng', { name: 'Switches' }),
    ...writeTranslationStatements(db(), category.categoryId, 'fra', { name: 'Interrupteurs', description: 'Tous' }),
  ] as [never, ...never[]]);
  return { catalog, category, master, variant };
}

async function exportXml(session: Session, catalogId: string, exportType: string, templateId: string | null = null) {
  const jobId = await insertExportJob(session.tenant, { catalogId, exportType, templateId });
  await deliver(jobId, 1);
  const row = await jobRow(jobId);
  expect(row.state).toBe('succeeded');
  return { row, xml: await (await env.FILES.get(row.resultKey!))!.text() };
}

const productXml = (xml: string, pid: string) =>
  new RegExp(`<SUPPLIER_[PA]ID>${pid}</SUPPLIER_[PA]ID>[\\s\\S]*?</(PRODUCT|ARTICLE)>`).exec(xml)?.[0] ?? '';

describe('BMEcat exports in several languages', () => {
  it('2005: the HEADER lists every language, each localizable element appears once per language with lang', async () => {
    const session = await makeSession();
    const { catalog } = await threeLanguages(session);
    const { row, xml } = await exportXml(session, catalog.catalogId, 'BMEcat');
    expect(xml).toContain(
      '<LANGUAGE default="true">deu</LANGUAGE>\n<LANGUAGE>eng</LANGUAGE>\n<LANGUAGE>fra</LANGUAGE>\n<CATALOG_ID>',
    );
    const master = productXml(xml, 'S-1');
    expect(master).toContain(
      '<DESCRIPTION_SHORT lang="deu">Schalter</DESCRIPTION_SHORT>\n<DESCRIPTION_SHORT lang="eng">Switch</DESCRIPTION_SHORT>\n<DESCRIPTION_SHORT lang="fra">Interrupteur</DESCRIPTION_SHORT>\n<DESCRIPTION_LONG lang="deu">Ein Schalter</DESCRIPTION_LONG>\n<DESCRIPTION_LONG lang="eng">A switch</DESCRIPTION_LONG>\n',
    );
    expect(master).toContain(
      '<KEYWORD lang="deu">Schalter</KEYWORD>\n<KEYWORD lang="deu">Taster</KEYWORD>\n<KEYWORD lang="eng">switch</KEYWORD>\n<KEYWORD lang="eng">button</KEYWORD>\n',
    );
    // A variant inherits each language from its master's text in the same language, never from another.
    const variant = productXml(xml, 'S-1-W');
    expect(variant).toContain('<DESCRIPTION_SHORT lang="deu">Schalter</DESCRIPTION_SHORT>');
    expect(variant).toContain('<DESCRIPTION_SHORT lang="eng">Switch white</DESCRIPTION_SHORT>');
    expect(variant).toContain('<DESCRIPTION_SHORT lang="fra">Interrupteur</DESCRIPTION_SHORT>');
    expect(xml).toMatch(
      /<GROUP_NAME lang="deu">Schalter<\/GROUP_NAME>\n<GROUP_NAME lang="eng">Switches<\/GROUP_NAME>\n<GROUP_NAME lang="fra">Interrupteurs<\/GROUP_NAME>\n<GROUP_DESCRIPTION lang="deu">Alle Schalter<\/GROUP_DESCRIPTION>\n<GROUP_DESCRIPTION lang="fra">Tous<\/GROUP_DESCRIPTION>/,
    );
    // A missing translation is left out and reported, not filled from another language.
    expect(master).not.toContain('<DESCRIPTION_LONG lang="fra">');
    expect(JSON.stringify(row.warnings)).toContain('DESCRIPTION_LONG has no fra translation');
  });

  it('ETIM profile: every language in the HEADER and on the product texts', async () => {
    const session = await makeSession();
    const { catalog } = await threeLanguages(session);
    const { xml } = await exportXml(session, catalog.catalogId, 'BMEcat-ETIM');
    expect(xml).toContain(
      '<LANGUAGE default="true">deu</LANGUAGE>\n<LANGUAGE>eng</LANGUAGE>\n<LANGUAGE>fra</LANGUAGE>',
    );
    expect(productXml(xml, 'S-1')).toContain('<DESCRIPTION_SHORT lang="eng">Switch</DESCRIPTION_SHORT>');
  });

  it("1.2 writes the default language only; a template's language makes that language the file's default", async () => {
    const session = await makeSession();
    const { catalog } = await threeLanguages(session);
    const plain = await exportXml(session, catalog.catalogId, 'BMEcat12');
    expect(plain.xml).toContain('<LANGUAGE>deu</LANGUAGE>');
    expect(productXml(plain.xml, 'S-1')).toContain('<DESCRIPTION_SHORT>Schalter</DESCRIPTION_SHORT>');
    expect(plain.xml).not.toContain('Switch');

    const english = await addTemplate(db(), session, {
      name: 'English first',
      exportType: 'BMEcat',
      language: 'eng',
    });
    const { xml } = await exportXml(session, catalog.catalogId, 'BMEcat', english.templateId);
    expect(xml).toContain(
      '<LANGUAGE default="true">eng</LANGUAGE>\n<LANGUAGE>deu</LANGUAGE>\n<LANGUAGE>fra</LANGUAGE>',
    );
    expect(productXml(xml, 'S-1')).toContain(
      '<DESCRIPTION_SHORT lang="eng">Switch</DESCRIPTION_SHORT>\n<DESCRIPTION_SHORT lang="deu">Schalter</DESCRIPTION_SHORT>',
    );
  });

  it('round-trips: the 2005 export imported into an empty catalog of the same languages gives the same texts', async () => {
    const session = await makeSession();
    const { catalog } = await threeLanguages(session);
    const { xml } = await exportXml(session, catalog.catalogId, 'BMEcat');
    const target = await makeCatalog(session.tenant, { name: 'Ziel', language: 'deu', languages: ['eng', 'fra'] });
    const fileId = await putImportFile(session.tenant, xml);
    const jobId = await insertImportJob(session.tenant, { catalogId: target.catalogId, fileId });
    await runImportToEnd(jobId);
    expect((await importJobRow(jobId)).state).toBe('succeeded');
    const [master] = await db()
      .select()
      .from(products)
      .where(eq(products.catalogId, target.catalogId))
      .orderBy(products.sku);
    expect([master!.name, master!.keywords]).toEqual(['Schalter', 'Schalter, Taster']);
    expect((await readTranslations(db(), [master!.id])).get(master!.id)).toEqual({
      eng: { name: 'Switch', description: 'A switch', keywords: 'switch, button' },
      fra: { name: 'Interrupteur' },
    });
  });
});
