import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deleteCatalog } from '../src/catalog/catalogs';
import { getPrices } from '../src/catalog/prices/prices';
import { catalogFormulas, products } from '../src/db/schema';
import {
  definedFormulaIds,
  formulaStatements,
  type FormulaNode,
  lastFormulaPosition,
  readFormulaPage,
} from '../src/model/catalog-formulas';
import { env } from 'cloudflare:workers';
import { FORMULA_PRICES, formulaCatalog, KUPFER, RABATT } from './fixtures/formulas-2005';
import { file } from './fixtures/bmecat-variants';
import { asActor, db, makeCatalog, makeCategory, makeSession } from './helpers/factories';
import {
  importDeps,
  importJobRow,
  importTextToEnd,
  insertImportJob,
  putImportFile,
  reportRows,
  runImportToEnd,
} from './helpers/import-fixtures';
import { exportText, runImport, type Session } from './helpers/price-base-files';

/**
 * Issue 32, the last of the supplier's data: a BMEcat 2005 file's FORMULAS are kept per catalog
 * (migration 0089) and written back by the 2005 export, so a price by formula names a formula its
 * file defines. Fixture: test/fixtures/formulas-2005.ts (hand-written, valid against the XSD).
 */

/** Elements as the assertions compare them: without the whitespace between tags. */
const compact = (xml: string) => xml.replace(/>\s+</g, '><').trim();

const stored = async (catalogId: string) =>
  db()
    .select({ id: catalogFormulas.formulaId, position: catalogFormulas.position, formula: catalogFormulas.formula })
    .from(catalogFormulas)
    .where(eq(catalogFormulas.catalogId, catalogId))
    .orderBy(asc(catalogFormulas.position));

const trees = async (catalogId: string) =>
  (await stored(catalogId)).map((r) => [r.id, JSON.parse(r.formula) as FormulaNode]);

const child = (node: FormulaNode, name: string) => node.children!.filter((c) => c.name === name);

async function importCatalog(session: Session, xml: string, strict = false) {
  const { catalog, jobId } = await runImport(session, xml, 'Kabel', undefined, strict);
  const job = await importJobRow(jobId);
  expect(job.error).toBeNull();
  return { catalogId: catalog.catalogId, jobId, job };
}

/** An import of `xml` into an existing catalog, run to its end. */
async function importInto(session: Session, catalogId: string, xml: string, params: { dryRun?: boolean } = {}) {
  const fileId = await putImportFile(session.tenant, xml);
  const jobId = await insertImportJob(session.tenant, { catalogId, fileId, ...params });
  await runImportToEnd(jobId, importDeps());
  const job = await importJobRow(jobId);
  expect(job.error).toBeNull();
  return job;
}

async function formulaPrices(session: Session, catalogId: string) {
  const out: Record<string, unknown[]> = {};
  for (const sku of Object.keys(FORMULA_PRICES)) {
    const row = await db().query.products.findFirst({
      where: and(eq(products.catalogId, catalogId), eq(products.sku, sku)),
    });
    const read = await getPrices(db(), asActor(session.tenant), row!.id);
    out[sku] = read.prices.flatMap((p) => (p.formula ? [p.formula] : []));
  }
  return out;
}

describe('FORMULAS of a BMEcat 2005 file', () => {
  it('keeps each FORMULA whole, in file order, with its texts in their languages', async () => {
    const session = await makeSession();
    const { catalogId, jobId } = await importCatalog(session, formulaCatalog());
    const rows = await stored(catalogId);
    expect(rows.map((r) => [r.id, r.position])).toEqual([
      ['F-KUPFER', 1],
      ['F-RABATT', 2],
    ]);
    const kupfer = JSON.parse(rows[0]!.formula) as FormulaNode;
    expect(kupfer.children!.map((c) => c.name)).toEqual([
      'FORMULA_ID',
      'FORMULA_VERSION',
      'FORMULA_NAME',
      'FORMULA_NAME',
      'FORMULA_DESCR',
      'FORMULA_DESCR',
      'FORMULA_SOURCE',
      'MIME_INFO',
      'FORMULA_FUNCTION',
      'PARAMETER_DEFINITIONS',
    ]);
    expect(child(kupfer, 'FORMULA_NAME')).toEqual([
      { name: 'FORMULA_NAME', attrs: { lang: 'deu' }, text: 'Kupferzuschlag' },
      { name: 'FORMULA_NAME', attrs: { lang: 'eng' }, text: 'Copper surcharge' },
    ]);
    // Entities are read as text (written back escaped).
    expect(child(kupfer, 'FORMULA_DESCR')[1]!.text).toBe('Surcharge by copper price <DEL> and copper weight per 100 m');
    const origin = child(
      child(child(kupfer, 'PARAMETER_DEFINITIONS')[0]!, 'PARAMETER_DEFINITION')[0]!,
      'PARAMETER_ORIGIN',
    );
    expect(origin).toEqual([{ name: 'PARAMETER_ORIGIN', attrs: { type: 'uri' }, text: 'https://example.com/del' }]);
    expect(await formulaPrices(session, catalogId)).toEqual(FORMULA_PRICES);
    expect(await reportRows(jobId)).toEqual([]);
  });

  it('writes them back in the 2005 export at their place, equal in content and order, and reads the export back equal', async () => {
    const session = await makeSession();
    const first = await importCatalog(session, formulaCatalog());
    const { xml, warnings } = await exportText(session, first.catalogId, 'BMEcat');
    expect(xml).toContain(`<FORMULAS>${compact(KUPFER)}${compact(RABATT)}</FORMULAS>`);
    // T_NEW_CATALOG's order: CATALOG_GROUP_SYSTEM, FORMULAS, then the products.
    expect(xml.indexOf('</CATALOG_GROUP_SYSTEM><FORMULAS>')).toBeGreaterThan(0);
    expect(xml.indexOf('</FORMULAS>')).toBeLessThan(xml.indexOf('<PRODUCT '));
    expect(warnings.filter((w) => /formula/i.test(w))).toEqual([]);

    const again = await importCatalog(session, xml);
    expect(await trees(again.catalogId)).toEqual(await trees(first.catalogId));
    expect(await formulaPrices(session, again.catalogId)).toEqual(FORMULA_PRICES);
    expect(await reportRows(again.jobId)).toEqual([]);
  });

  it('still reports a price whose formula the catalog does not keep, and only that one', async () => {
    const session = await makeSession();
    const { catalogId } = await importCatalog(session, formulaCatalog([KUPFER]));
    const { xml, warnings } = await exportText(session, catalogId, 'BMEcat');
    expect(xml).toContain(`<FORMULAS>${compact(KUPFER)}</FORMULAS>`);
    expect(xml).toContain('<FORMULA_IDREF>F-RABATT</FORMULA_IDREF>');
    const reported = warnings.filter((w) => w.includes('written by reference'));
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatch(/^price formula F-RABATT written by reference: the catalog keeps no definition of it/);
  });

  it('writes no FORMULAS in a catalog without formulas nor in BMEcat 1.2', async () => {
    const session = await makeSession();
    const none = await importCatalog(session, formulaCatalog([]));
    expect((await exportText(session, none.catalogId, 'BMEcat')).xml).not.toContain('FORMULAS');
    const some = await importCatalog(session, formulaCatalog());
    const v12 = await exportText(session, some.catalogId, 'BMEcat12');
    expect(v12.xml).not.toMatch(/FORMULA/);
    expect(v12.warnings.join('\n')).toContain('BMEcat 1.2 has no PRICE_FORMULA');
  });

  it('replaces a formula by its id on a re-import of the catalog, in its place; a new one goes last', async () => {
    const session = await makeSession();
    const { catalogId } = await importCatalog(session, formulaCatalog());
    const changed = KUPFER.replace('<VERSION>2.1</VERSION>', '<VERSION>2.2</VERSION>');
    const extra = RABATT.replace('F-RABATT', 'F-NEU');
    await importInto(session, catalogId, formulaCatalog([extra, changed]));
    const rows = await stored(catalogId);
    expect(rows.map((r) => [r.id, r.position])).toEqual([
      ['F-KUPFER', 1],
      ['F-RABATT', 2],
      ['F-NEU', 3],
    ]);
    expect(rows[0]!.formula).toContain('"text":"2.2"');
  });

  it('reads the FORMULAS of a T_UPDATE_PRICES file too, with the prices naming them', async () => {
    const session = await makeSession();
    const { catalogId } = await importCatalog(session, formulaCatalog([KUPFER]));
    const update = file({
      root: 'version="2005"',
      transaction: 'T_UPDATE_PRICES',
      before: `<FORMULAS>${RABATT}</FORMULAS>`,
      records: [
        `<PRODUCT><SUPPLIER_PID>NYM-5x2,5</SUPPLIER_PID><PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_customer"><PRICE_FORMULA><FORMULA_IDREF>F-RABATT</FORMULA_IDREF></PRICE_FORMULA></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS></PRODUCT>`,
      ],
    });
    const job = await importInto(session, catalogId, update);
    expect(job.summary).toMatchObject({ updated: 1, rejected: 0 });
    expect((await stored(catalogId)).map((r) => r.id)).toEqual(['F-KUPFER', 'F-RABATT']);
    expect((await formulaPrices(session, catalogId))['NYM-5x2,5']).toEqual([{ id: 'F-RABATT' }]);
  });

  it('reports a FORMULA that does not check and keeps the others and every product; strict rejects it', async () => {
    const session = await makeSession();
    // No PARAMETER_DEFINITIONS (the XSD requires it) and a FORMULA_NAME after FORMULA_DESCR.
    const broken = RABATT.replace(/<PARAMETER_DEFINITIONS>[\s\S]*<\/PARAMETER_DEFINITIONS>/, '');
    const misordered = KUPFER.replace('<FORMULA_NAME lang="deu">Kupferzuschlag</FORMULA_NAME>', '').replace(
      '</FORMULA_DESCR>\n  <FORMULA_SOURCE>',
      '</FORMULA_DESCR><FORMULA_NAME lang="deu">Kupferzuschlag</FORMULA_NAME>\n  <FORMULA_SOURCE>',
    );
    const tolerant = await importCatalog(
      session,
      formulaCatalog([misordered, broken, KUPFER.replace(/F-KUPFER/g, 'F-OK')]),
    );
    expect((await stored(tolerant.catalogId)).map((r) => r.id)).toEqual(['F-OK']);
    const rows = await reportRows(tolerant.jobId);
    expect(rows.map((r) => [r[1], r[5]])).toEqual([
      ['warning', 'formula_invalid'],
      ['warning', 'formula_invalid'],
    ]);
    expect(rows[0]![3]).toMatch(/^line \d+: \/BMECAT\/T_NEW_CATALOG\/FORMULAS\/FORMULA$/);
    expect(rows[0]![4]).toMatch(/FORMULA\/FORMULA_NAME: not in its place/);
    expect(rows[1]![4]).toMatch(/FORMULA: PARAMETER_DEFINITIONS is missing/);
    expect(tolerant.job.summary).toMatchObject({ created: 2, rejected: 0, 'warnings.formula_invalid': 2 });
    expect(tolerant.job.warnings!.join('\n')).toMatch(
      /price formula \(FORMULA\) that does not check.*formula F-RABATT/,
    );

    const strict = await importCatalog(session, formulaCatalog([broken, KUPFER]), true);
    expect((await stored(strict.catalogId)).map((r) => r.id)).toEqual(['F-KUPFER']);
    expect((await reportRows(strict.jobId)).map((r) => [r[1], r[2], r[5]])).toEqual([
      ['rejected', '', 'formula_invalid'],
    ]);
    expect(strict.job.summary).toMatchObject({ created: 2, rejected: 1, 'rejected.formula_invalid': 1 });
  });

  it('refuses a language, an enumerated value or a length the XSD does not take', async () => {
    const session = await makeSession();
    const cases = [
      KUPFER.replace('lang="eng"', 'lang="xx"').replace(/F-KUPFER/g, 'F-1'),
      KUPFER.replace('allow_or_charge', 'rebate').replace(/F-KUPFER/g, 'F-2'),
      KUPFER.replace('<TERM_ID>t1</TERM_ID>', `<TERM_ID>${'t'.repeat(21)}</TERM_ID>`).replace(/F-KUPFER/g, 'F-3'),
      KUPFER.replace('<PARAMETER_ORIGIN type="uri">', '<PARAMETER_ORIGIN>').replace(/F-KUPFER/g, 'F-4'),
      KUPFER.replace('<FORMULA_ID>F-KUPFER</FORMULA_ID>', '<FORMULA_ID>F-6</FORMULA_ID><FORMULA_NOTE>x</FORMULA_NOTE>'),
      KUPFER.replace(/<FORMULA_ID>F-KUPFER<\/FORMULA_ID>/, ''),
      // `de` is read as ISO 639-2 `deu`: kept.
      KUPFER.replace('lang="eng"', 'lang="de"').replace(/F-KUPFER/g, 'F-5'),
    ];
    const { catalogId, jobId } = await importCatalog(session, formulaCatalog(cases));
    expect((await stored(catalogId)).map((r) => r.id)).toEqual(['F-5']);
    expect((await reportRows(jobId)).map((r) => r[4]!.replace(/^line \d+: /, ''))).toEqual([
      'FORMULA/FORMULA_NAME: lang="xx" is not a BMEcat 2005 value',
      'FORMULA/PARAMETER_DEFINITIONS/PARAMETER_DEFINITION/PARAMETER_MEANING: "rebate" is not a BMEcat 2005 value',
      'FORMULA/FORMULA_FUNCTION/TERM/TERM_ID: longer than 20 characters',
      'FORMULA/PARAMETER_DEFINITIONS/PARAMETER_DEFINITION/PARAMETER_ORIGIN: the attribute type is missing',
      'FORMULA/FORMULA_NOTE: not in its place (BMEcat 2005 does not allow it there)',
      'FORMULA: FORMULA_ID is missing',
    ]);
    const names = child(JSON.parse((await stored(catalogId))[0]!.formula) as FormulaNode, 'FORMULA_NAME');
    expect(names.map((n) => n.attrs?.lang)).toEqual(['deu', 'deu']);
  });

  it('keeps every formula once when the import runs in many slices, and exports them in pages', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { name: 'Scheiben' });
    const many = Array.from({ length: 60 }, (_, i) => RABATT.replace('F-RABATT', `F-${String(i).padStart(2, '0')}`));
    await importTextToEnd(session.tenant, catalog.catalogId, formulaCatalog([...many, KUPFER, RABATT]), {
      fileName: 'catalog.xml',
      sliceMs: -1,
      batchSize: 1,
    });
    const rows = await stored(catalog.catalogId);
    expect(rows.map((r) => r.id)).toEqual([
      ...many.map((_, i) => `F-${String(i).padStart(2, '0')}`),
      'F-KUPFER',
      'F-RABATT',
    ]);
    expect(rows.map((r) => r.position)).toEqual(rows.map((_, i) => i + 1));
    // The export writes them in pages of 20: one FORMULAS, every formula once, in order.
    const { xml } = await exportText(session, catalog.catalogId, 'BMEcat');
    expect(xml.match(/<\/?FORMULAS>/g)).toEqual(['<FORMULAS>', '</FORMULAS>']);
    expect([...xml.matchAll(/<FORMULA_ID>([^<]+)<\/FORMULA_ID>/g)].map((m) => m[1])).toEqual(rows.map((r) => r.id));
  });

  it("writes no formulas for a member limited to category subtrees (they are the catalog's), with a warning", async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { name: 'Teilbaum' });
    const category = await makeCategory(session.tenant, catalog.catalogId, { name: 'Kabel' });
    const fileId = await putImportFile(session.tenant, formulaCatalog());
    const jobId = await insertImportJob(session.tenant, {
      catalogId: catalog.catalogId,
      fileId,
      scopeCategoryIds: [category.categoryId],
    });
    await runImportToEnd(jobId, importDeps());
    const job = await importJobRow(jobId);
    expect(job.state).toBe('succeeded');
    expect(await stored(catalog.catalogId)).toEqual([]);
    expect(job.warnings!.join('\n')).toContain(
      "price formulas (FORMULAS) are the catalog's: not written by a member limited to category subtrees",
    );
  });

  it('writes nothing in a dry run', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { name: 'Probelauf' });
    const job = await importInto(session, catalog.catalogId, formulaCatalog(), { dryRun: true });
    expect(job.state).toBe('succeeded');
    expect(await stored(catalog.catalogId)).toEqual([]);
  });

  it("another company neither reads nor writes a catalog's formulas; deleting the catalog deletes them", async () => {
    const owner = await makeSession();
    const other = await makeSession();
    const { catalogId } = await importCatalog(owner, formulaCatalog());
    const theirs = { companyId: other.tenant.companyId, catalogId };
    expect(await lastFormulaPosition(db(), theirs)).toBe(0);
    expect(await readFormulaPage(db(), theirs, { after: 0, through: 100, limit: 10 })).toEqual({
      formulas: [],
      last: null,
    });
    expect(await definedFormulaIds(db(), theirs, ['F-KUPFER'], 100)).toEqual(new Set());
    // A write naming the catalog with another company's id changes nothing (not even by its id).
    const before = await trees(catalogId);
    await db().batch(
      formulaStatements(db(), theirs, [
        { id: 'F-KUPFER', formula: { name: 'FORMULA', children: [] } },
        { id: 'F-FREMD', formula: { name: 'FORMULA', children: [] } },
      ]) as [never],
    );
    expect(await trees(catalogId)).toEqual(before);
    const mine = { companyId: owner.tenant.companyId, catalogId };
    expect(
      (await readFormulaPage(db(), mine, { after: 0, through: 100, limit: 10 })).formulas.map((f) => f.id),
    ).toEqual(['F-KUPFER', 'F-RABATT']);

    await deleteCatalog({ db: db(), files: env.FILES }, asActor(owner.tenant), {
      departmentId: owner.tenant.departmentId,
      catalogId,
    });
    expect(await stored(catalogId)).toEqual([]);
  });
});
