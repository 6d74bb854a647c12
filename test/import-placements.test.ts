import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { categories, historyVersions, productCategories, products } from '../src/db/schema';
import { db, makeCatalog, makeSession } from './helpers/factories';
import { expectFingerprintsCurrent } from './helpers/fingerprints';
import {
  importDeps,
  importJobRow,
  insertImportJob,
  putImportFile,
  reportRows,
  runImportToEnd,
} from './helpers/import-fixtures';

type Tenant = Awaited<ReturnType<typeof makeSession>>['tenant'];

/** A BMEcat 2005 file: groups (id → name, all under the root), products (a variant names its master), the map. */
function bmecat(spec: {
  groups: Record<string, string>;
  products: { sku: string; name?: string; master?: string }[];
  map: [sku: string, groupId: string][];
}): string {
  const groups = Object.entries(spec.groups)
    .map(
      ([id, name]) =>
        `<CATALOG_STRUCTURE type="leaf"><GROUP_ID>${id}</GROUP_ID><GROUP_NAME>${name}</GROUP_NAME><PARENT_ID>ROOT</PARENT_ID></CATALOG_STRUCTURE>`,
    )
    .join('\n');
  const productXml = spec.products
    .map(
      (p) =>
        `<PRODUCT mode="new"><SUPPLIER_PID>${p.sku}</SUPPLIER_PID><PRODUCT_DETAILS><DESCRIPTION_SHORT>${p.name ?? p.sku}</DESCRIPTION_SHORT></PRODUCT_DETAILS>${
          p.master
            ? `<PRODUCT_REFERENCE type="base_product"><PROD_ID_TO>${p.master}</PROD_ID_TO></PRODUCT_REFERENCE>`
            : ''
        }</PRODUCT>`,
    )
    .join('\n');
  const map = spec.map
    .map(
      ([sku, group]) =>
        `<PRODUCT_TO_CATALOGGROUP_MAP mode="new"><PROD_ID>${sku}</PROD_ID><CATALOG_GROUP_ID>${group}</CATALOG_GROUP_ID></PRODUCT_TO_CATALOGGROUP_MAP>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005fd">
<HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>T</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION></CATALOG></HEADER>
<T_NEW_CATALOG>
<CATALOG_GROUP_SYSTEM><GROUP_SYSTEM_ID>S</GROUP_SYSTEM_ID>
<CATALOG_STRUCTURE type="root"><GROUP_ID>ROOT</GROUP_ID><GROUP_NAME>Katalog</GROUP_NAME><PARENT_ID>0</PARENT_ID></CATALOG_STRUCTURE>
${groups}
</CATALOG_GROUP_SYSTEM>
${productXml}
${map}
</T_NEW_CATALOG>
</BMECAT>
`;
}

async function runImport(
  tenant: Tenant,
  catalogId: string,
  content: string,
  options: { dryRun?: boolean; batchSize?: number; fileName?: string } = {},
) {
  const fileId = await putImportFile(tenant, content, options.fileName);
  const jobId = await insertImportJob(tenant, { catalogId, fileId, dryRun: options.dryRun ?? false });
  await runImportToEnd(jobId, importDeps({ batchSize: options.batchSize }));
  const job = await importJobRow(jobId);
  expect(job.state).toBe('succeeded');
  return { jobId, job, report: await reportRows(jobId) };
}

/** SKU → names of the categories it is placed in, for every master of the catalog. */
async function placementsByName(catalogId: string): Promise<Record<string, string[]>> {
  const rows = await db()
    .select({ sku: products.sku, name: categories.name })
    .from(products)
    .leftJoin(productCategories, eq(productCategories.productId, products.id))
    .leftJoin(categories, eq(categories.id, productCategories.categoryId))
    .where(eq(products.catalogId, catalogId))
    .orderBy(asc(products.sku), asc(categories.name));
  const out: Record<string, string[]> = {};
  for (const r of rows) out[r.sku!] = [...(out[r.sku!] ?? []), ...(r.name ? [r.name] : [])];
  return out;
}

describe('BMEcat group map on import', () => {
  it("makes the file's map a master's placements: a moved product leaves its old group; a file without a map keeps them", async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant);
    const groups = { G1: 'Kabel', G2: 'Leitungen' };
    const first = await runImport(
      session.tenant,
      catalog.catalogId,
      bmecat({
        groups,
        products: [{ sku: 'A' }, { sku: 'B' }, { sku: 'B-1', master: 'B' }],
        map: [
          ['A', 'G1'],
          ['B', 'G1'],
          ['B', 'G2'],
          ['B-1', 'G2'],
        ],
      }),
    );
    expect(first.job.summary).toMatchObject({ created: 3, placements: 3, rejected: 0, categoriesCreated: 2 });
    expect(await placementsByName(catalog.catalogId)).toEqual({ A: ['Kabel'], B: ['Kabel', 'Leitungen'], 'B-1': [] });

    const moved = await runImport(
      session.tenant,
      catalog.catalogId,
      bmecat({ groups, products: [{ sku: 'A' }, { sku: 'B' }, { sku: 'B-1', master: 'B' }], map: [['A', 'G2']] }),
    );
    expect(moved.job.summary).toMatchObject({ created: 0, updated: 2, unchanged: 1, placements: 1, rejected: 0 });
    expect(await placementsByName(catalog.catalogId)).toEqual({ A: ['Leitungen'], B: [], 'B-1': [] });
    // One version per product and job, with the placements as its change.
    const versions = await db().select().from(historyVersions).where(eq(historyVersions.jobId, moved.jobId));
    expect(versions.map((v) => JSON.parse(v.changes).map(([path]: [string]) => path))).toEqual([
      ['categories'],
      ['categories'],
    ]);
    await expectFingerprintsCurrent(session.tenant.companyId, catalog.catalogId);

    const noMap = await runImport(
      session.tenant,
      catalog.catalogId,
      bmecat({ groups, products: [{ sku: 'A', name: 'A neu' }], map: [] }),
    );
    expect(noMap.job.summary).toMatchObject({ updated: 1, placements: 0 });
    expect((await placementsByName(catalog.catalogId)).A).toEqual(['Leitungen']);
  });
});

describe('dry runs', () => {
  const file = bmecat({
    groups: { G1: 'Kabel', G2: 'Leitungen' },
    products: [
      { sku: 'M-1' },
      { sku: 'F-1' },
      { sku: 'F-2' },
      { sku: 'F-3' },
      { sku: 'F-4' },
      // Its master is two batches back and not in the catalog before the job.
      { sku: 'M-1-A', master: 'M-1' },
      { sku: 'X-1', master: 'NOPE' },
    ],
    map: [
      ['M-1', 'G1'],
      ['F-1', 'G2'],
      ['M-1-A', 'G1'],
      ['X-1', 'G1'],
      ['F-2', 'G-NOPE'],
      ['F-3', 'ROOT'],
    ],
  });
  const csv =
    'sku,name,parentSku,categories\r\nM-1,Eins,,Kabel > NYM\r\nF-1,,,Kabel\r\nF-2,,,\r\nF-3,,,Kabel > NYY\r\n' +
    'M-1-A,Variante,M-1,\r\nX-1,,NOPE,\r\n';

  it.each([
    // X-1 (no master), and the map entries of an unknown group and of the rejected X-1.
    ['BMEcat', file, 'catalog.xml', { created: 6, rejected: 3, placements: 2, categoriesCreated: 2 }],
    ['CSV', csv, 'catalog.csv', { created: 5, rejected: 1, placements: 3, categoriesCreated: 3 }],
  ])(
    'report the counts and report rows of the real run (%s, a variant two batches after its master)',
    async (_, content, fileName, counts) => {
      const session = await makeSession();
      const dryCatalog = await makeCatalog(session.tenant);
      const realCatalog = await makeCatalog(session.tenant);
      const dry = await runImport(session.tenant, dryCatalog.catalogId, content, {
        dryRun: true,
        batchSize: 2,
        fileName,
      });
      const real = await runImport(session.tenant, realCatalog.catalogId, content, { batchSize: 2, fileName });
      expect(real.job.summary).toMatchObject(counts);
      expect(dry.job.summary).toEqual(real.job.summary);
      expect(dry.report.map((r) => r.slice(1))).toEqual(real.report.map((r) => r.slice(1)));
      expect(await db().select().from(products).where(eq(products.catalogId, dryCatalog.catalogId))).toEqual([]);
      expect(await db().select().from(categories).where(eq(categories.catalogId, dryCatalog.catalogId))).toEqual([]);

      // Again into the filled catalog: nothing would change, and the dry run says so too.
      const dryAgain = await runImport(session.tenant, realCatalog.catalogId, content, { dryRun: true, fileName });
      expect(dryAgain.job.summary).toMatchObject({
        created: 0,
        updated: 0,
        unchanged: counts.created,
        categoriesCreated: 0,
      });
    },
  );
});

describe('variants of imported products', () => {
  it('are stored under their master with their own SKUs, fingerprints current, and unchanged when imported again', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant);
    const content = bmecat({
      groups: {},
      products: [
        { sku: 'M' },
        { sku: 'M-b', master: 'M' },
        { sku: 'M-A', master: 'M' },
        { sku: 'N' },
        { sku: 'M-\u00e4', master: 'M' },
        { sku: 'N-1', master: 'N' },
      ],
      map: [],
    });
    const first = await runImport(session.tenant, catalog.catalogId, content, { batchSize: 2 });
    expect(first.job.summary).toMatchObject({ created: 6, rejected: 0 });
    const rows = await db().select().from(products).where(eq(products.catalogId, catalog.catalogId));
    const idOf = (sku: string) => rows.find((r) => r.sku === sku)!.id;
    expect(
      rows
        .map((r) => [r.sku, r.parentId && rows.find((m) => m.id === r.parentId)!.sku, r.name])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual([
      ['M', null, 'M'],
      ['M-A', 'M', 'M-A'],
      ['M-\u00e4', 'M', 'M-\u00e4'],
      ['M-b', 'M', 'M-b'],
      ['N', null, 'N'],
      ['N-1', 'N', 'N-1'],
    ]);
    expect(rows.find((r) => r.id === idOf('M'))!.fingerprintRevision).toBe(
      rows.find((r) => r.id === idOf('M'))!.revision,
    );
    await expectFingerprintsCurrent(session.tenant.companyId, catalog.catalogId);
    const again = await runImport(session.tenant, catalog.catalogId, content);
    expect(again.job.summary).toMatchObject({ created: 0, updated: 0, unchanged: 6 });
    const variantOfOther = await db()
      .select()
      .from(products)
      .where(and(eq(products.catalogId, catalog.catalogId), eq(products.sku, 'N-1')));
    expect(variantOfOther[0]!.parentId).toBe(idOf('N'));
  });
});
