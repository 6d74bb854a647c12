import { env } from 'cloudflare:workers';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { categories, media } from '../src/db/schema';
import { runExportSlice } from '../src/exports/run-export';
import { insertExportJob, jobRow, testDeps } from './helpers/export-fixtures';
import { db, makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import { importDeps, importJobRow, insertImportJob, putImportFile, runImportToEnd } from './helpers/import-fixtures';
import { parseCsv } from './helpers/csv';

type Session = Awaited<ReturnType<typeof makeSession>>;

async function exportCsv(session: Session, catalogId: string): Promise<string> {
  const jobId = await insertExportJob(session.tenant, { catalogId, exportType: 'CSV' });
  for (
    let i = 0;
    i < 20 && (await runExportSlice(testDeps({ sliceMs: 60_000 }), await jobRow(jobId))) === 'continued';
    i++
  );
  const row = await jobRow(jobId);
  expect(row.state).toBe('succeeded');
  return (await env.FILES.get(row.resultKey!))!.text();
}

async function importCsv(session: Session, catalogId: string, text: string) {
  const fileId = await putImportFile(session.tenant, text, 'catalog.csv');
  const jobId = await insertImportJob(session.tenant, { catalogId, fileId });
  await runImportToEnd(jobId, importDeps());
  expect((await importJobRow(jobId)).error).toBeNull();
}

/** Every category link of a catalog as `name=url`, in each category's media order. */
async function linksOf(catalogId: string): Promise<string[]> {
  const rows = await db()
    .select({ name: categories.name, url: media.url })
    .from(media)
    .innerJoin(categories, eq(categories.id, media.elementId))
    .where(and(eq(categories.catalogId, catalogId), isNotNull(media.url)))
    .orderBy(asc(categories.name), asc(media.sortOrder));
  return rows.map((r) => `${r.name}=${r.url}`);
}

const LOGO = 'https://cdn.example.com/groups/werkzeug.png';
const PLIERS = 'https://cdn.example.com/groups/zangen.jpg?size=large&v=2';
const PLIERS_PDF = 'https://cdn.example.com/groups/zangen.pdf';
const EMPTY = 'https://cdn.example.com/groups/leer.png';

describe('category media links through CSV', () => {
  it('writes every category link in the categoryMedia cell and an import of the export gives the same links', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: 'Kategorien' });
    const tools = await makeCategory(session.tenant, catalogId, { name: 'Werkzeug' });
    const pliers = await makeCategory(session.tenant, catalogId, { name: 'Zangen', parentId: tools.categoryId });
    const empty = await makeCategory(session.tenant, catalogId, { name: 'Leer' });
    for (const [elementId, url] of [
      [tools.categoryId, LOGO],
      [pliers.categoryId, PLIERS],
      [pliers.categoryId, PLIERS_PDF],
      [empty.categoryId, EMPTY],
    ] as const) {
      const res = await call('POST', '/api/Media/AddLink', {
        cookie: session.cookie,
        body: { departmentId: session.tenant.departmentId, elementId, url, purpose: 'normal' },
      });
      expect(res.status, res.text).toBe(200);
    }
    await makeProduct(session.tenant, catalogId, { sku: 'ZANGE-1', categoryIds: [pliers.categoryId] });
    await makeProduct(session.tenant, catalogId, { sku: 'ZANGE-2', categoryIds: [pliers.categoryId] });
    const expected = [`Leer=${EMPTY}`, `Werkzeug=${LOGO}`, `Zangen=${PLIERS}`, `Zangen=${PLIERS_PDF}`];
    expect(await linksOf(catalogId)).toEqual(expected);

    const text = await exportCsv(session, catalogId);
    const rows = parseCsv(text.replace(/^\uFEFF/, ''));
    const header = rows[0]!;
    const column = header.indexOf('categoryMedia');
    expect(column).toBeGreaterThan(header.indexOf('featureBlocks'));
    // All links on the first row (the category without products too), none on the others.
    expect(rows[1]![column]!.split('|').sort()).toEqual(
      [`Leer=${EMPTY}`, `Werkzeug=${LOGO}`, `Werkzeug > Zangen=${PLIERS}`, `Werkzeug > Zangen=${PLIERS_PDF}`].sort(),
    );
    expect(rows.slice(2).filter((r) => r.length > 1 && r[column] !== '')).toEqual([]);

    const again = await makeCatalog(session.tenant, { name: 'Kategorien 2' });
    await importCsv(session, again.catalogId, text);
    expect(await linksOf(again.catalogId)).toEqual(expected);
    const [child] = await db()
      .select({ parentId: categories.parentId })
      .from(categories)
      .where(and(eq(categories.catalogId, again.catalogId), eq(categories.name, 'Zangen')));
    expect(child!.parentId).not.toBeNull();
    // The same file again adds no link twice.
    await importCsv(session, again.catalogId, text);
    expect(await linksOf(again.catalogId)).toEqual(expected);
  });

  it('keeps links of a hand-written file and ignores entries that are not a path and an http(s) URL', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant, { name: 'Hand' });
    await importCsv(
      session,
      catalogId,
      [
        'sku,name,categories,categoryMedia',
        `A-1,Alpha,Kabel > Strom,Kabel > Strom=${PLIERS}|ohne-url|=${LOGO}|Kabel=ftp://example.com/x.png`,
        `A-2,Beta,,Kabel=${LOGO}`,
        '',
      ].join('\n'),
    );
    expect(await linksOf(catalogId)).toEqual([`Kabel=${LOGO}`, `Strom=${PLIERS}`]);
  });
});
