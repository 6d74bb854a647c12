import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { runExportSlice } from '../src/exports/run-export';
import { EXPORT_CATEGORY_OUTSIDE } from '../src/db/product-scope';
import { NOT_PERMITTED } from '../src/kernel/permissions';
import { makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';
import { getApi as get, postApi as post } from './helpers/http';
import { scopedMember } from './helpers/members';
import { waitForJob } from './helpers/completeness';
import { parseCsv } from './helpers/csv';
import { insertExportJob, jobRow, testDeps } from './helpers/export-fixtures';
import { countingDb } from './helpers/round-trips';
import { callTool, openSession, toolError } from './mcp-helpers';
import { tokensFor } from './oauth-helpers';

/**
 * Exports of a member limited to category subtrees (docs/teams.md "Exports and syncs"): without
 * a template, or through one without a category subset, every format writes exactly the products
 * placed in any of their subtrees (one placed in both once), with their variants, and of the
 * category tree only the subtrees and the path above each root; on REST and over MCP. A template
 * of a category outside stays 403; an unscoped export is unchanged.
 *
 * Catalog A:  Brand › Lines (root 1) › Lines sub;  Brand › Other lines;  Tools › Drills (root 2);  Elsewhere.
 */
type Admin = Awaited<ReturnType<typeof makeSession>>;
let admin: Admin;
let company: { companyId: string; departmentId: string };
let catA: string;
let catB: string;
const cat: Record<string, string> = {};
/** Product ids by SKU. */
const ids: Record<string, string> = {};
let publisher: { cookie: string };

/** The member's products (and L-1's variant); every other product is named "Geheim ...". */
const INSIDE = ['D-1', 'L-1', 'L-1-V', 'L-2'];
const OUTSIDE_SKUS = ['O-1', 'O-2', 'O-3', 'B-0'];
const OUTSIDE_WORDS = ['Geheim', 'Other lines', 'Elsewhere', 'Fremdkatalog'];

beforeAll(async () => {
  admin = await makeSession({ role: 'admin' });
  company = { companyId: admin.companyId, departmentId: admin.departmentId };
  const t = admin.tenant;
  catA = (await makeCatalog(t, { name: 'A' })).catalogId;
  catB = (await makeCatalog(t, { name: 'B' })).catalogId;
  const category = async (name: string, parent?: string, catalogId = catA) =>
    (cat[name] = (await makeCategory(t, catalogId, { name, ...(parent ? { parentId: cat[parent] } : {}) })).categoryId);
  await category('Brand');
  await category('Lines', 'Brand');
  await category('Lines sub', 'Lines');
  await category('Other lines', 'Brand');
  await category('Tools');
  await category('Drills', 'Tools');
  await category('Elsewhere');
  await category('Fremdkatalog', undefined, catB);
  const product = async (sku: string, name: string, placed: string[], parentId?: string) =>
    (ids[sku] = (
      await makeProduct(t, catA, { sku, name, categoryIds: placed.map((c) => cat[c]!), parentId })
    ).productId);
  const l1 = await product('L-1', 'Produkt L-1', ['Lines sub']);
  await product('L-1-V', 'Produkt L-1-V', [], l1);
  // placed in both subtrees and in a category outside: written once, the category outside never named
  await product('L-2', 'Produkt L-2', ['Lines', 'Drills', 'Elsewhere']);
  await product('D-1', 'Produkt D-1', ['Drills']);
  await product('O-1', 'Geheim O-1', ['Other lines']);
  await product('O-2', 'Geheim O-2', ['Elsewhere']);
  await product('O-3', 'Geheim O-3', []);
  // placed on the path above a root only: not the member's
  await product('B-0', 'Geheim B-0', ['Brand']);
  publisher = await scopedMember(admin.cookie, company, 'publisher', { categoryIds: [cat.Lines!, cat.Drills!] });
}, 60_000);

/** Starts an export as `cookie` and answers its file once the job succeeded, with the job. */
async function exported(cookie: string, body: Record<string, unknown>) {
  const started = await post(cookie, 'Export/StartExport', {
    departmentId: company.departmentId,
    catalogId: catA,
    ...body,
  });
  expect(started.status, started.text).toBe(200);
  return fileOf(cookie, started.json.jobId);
}

async function fileOf(cookie: string, jobId: string) {
  const job = await waitForJob(cookie, jobId);
  expect({ state: job.state, error: job.error }).toEqual({ state: 'succeeded', error: null });
  const file = await get(cookie, `Export/Download?jobId=${jobId}`);
  expect(file.status).toBe(200);
  return { text: file.text, total: job.progress.total as number };
}

/** What a file must not hold: no product, category or id outside the member's reach. */
function expectNothingOutside(text: string) {
  for (const sku of OUTSIDE_SKUS) expect({ sku, found: text.includes(sku) }).toEqual({ sku, found: false });
  for (const word of OUTSIDE_WORDS) expect({ word, found: text.includes(word) }).toEqual({ word, found: false });
  for (const name of ['Other lines', 'Elsewhere', 'Fremdkatalog'])
    expect({ name, id: text.includes(cat[name]!) }).toEqual({ name, id: false });
}

const bmecatSkus = (text: string) =>
  [...text.matchAll(/<PRODUCT\b[^>]*>\s*<SUPPLIER_PID[^>]*>([^<]+)</g)].map((m) => m[1]!).sort();
/** A category's name by its id (the catalog, the group system's root: `root`). */
const nameOf = (id: string) => Object.entries(cat).find(([, c]) => c === id)?.[0] ?? (id === catA ? 'root' : id);
/** CATALOG_STRUCTUREs below the root, as `name < parent's name`. */
const groups = (text: string) =>
  [...text.matchAll(/<CATALOG_STRUCTURE\b[\s\S]*?<GROUP_ID>([^<]+)<\/GROUP_ID>[\s\S]*?<PARENT_ID>([^<]+)</g)]
    .filter((m) => m[1] !== catA)
    .map((m) => `${nameOf(m[1]!)} < ${nameOf(m[2]!)}`)
    .sort();
/** PRODUCT_TO_CATALOGGROUP_MAP entries as `SKU > category name`. */
const mapped = (text: string) =>
  [...text.matchAll(/<PROD_ID>([^<]+)<\/PROD_ID>\s*<CATALOG_GROUP_ID>([^<]+)</g)]
    .map((m) => `${m[1]} > ${nameOf(m[2]!)}`)
    .sort();

describe('exports of a member limited to two category subtrees', () => {
  it('write BMEcat 2005 without a template: the products of both subtrees, each once, and their part of the tree', async () => {
    const { text, total } = await exported(publisher.cookie, { exportType: 'BMEcat' });
    expect(bmecatSkus(text)).toEqual(INSIDE);
    expect(total).toBe(4);
    // the subtrees and the path above each root, each under its parent; nothing else of the tree
    expect(groups(text)).toEqual([
      'Brand < root',
      'Drills < Tools',
      'Lines < Brand',
      'Lines sub < Lines',
      'Tools < root',
    ]);
    // placements in the categories the file writes only (L-2's in Elsewhere is left out)
    expect(mapped(text)).toEqual([
      'D-1 > Drills',
      'L-1 > Lines sub',
      'L-1-V > Lines sub',
      'L-2 > Drills',
      'L-2 > Lines',
    ]);
    expectNothingOutside(text);
  });

  it('write CSV without a template: the rows of both subtrees, categories named by their paths in reach only', async () => {
    const { text, total } = await exported(publisher.cookie, { exportType: 'CSV' });
    const [header, ...rows] = parseCsv(text.replace(/^\uFEFF/, ''));
    const column = (name: string) => header!.indexOf(name);
    expect(rows.map((r) => r[column('sku')]).sort()).toEqual(INSIDE);
    expect(total).toBe(4);
    const cell = Object.fromEntries(rows.map((r) => [r[column('sku')], r[column('categories')]]));
    expect(cell).toEqual({
      'L-1': 'Brand > Lines > Lines sub',
      'L-1-V': 'Brand > Lines > Lines sub',
      'L-2': expect.stringMatching(/^(Brand > Lines\|Tools > Drills|Tools > Drills\|Brand > Lines)$/),
      'D-1': 'Tools > Drills',
    });
    expectNothingOutside(text);
  });

  it('write ETIM xChange without a template: the Products of both subtrees', async () => {
    const { text, total } = await exported(publisher.cookie, { exportType: 'ETIMxChange' });
    const document = JSON.parse(text);
    const skus = document.Supplier[0].Product.map(
      (p: { TradeItem: { ItemIdentification: { SupplierItemNumber: string } }[] }) =>
        p.TradeItem[0]!.ItemIdentification.SupplierItemNumber,
    );
    expect(skus.sort()).toEqual(INSIDE);
    expect(total).toBe(4);
    expectNothingOutside(text);
  });

  it('write the other BMEcat dialects the same: 1.2, 2005+onto and the ETIM profile (which has no tree)', async () => {
    for (const exportType of ['BMEcat12', 'BMEcat-2005onto', 'BMEcat-ETIM']) {
      const { text } = await exported(publisher.cookie, { exportType });
      const written = [...text.matchAll(/<(?:PRODUCT|ARTICLE)\b[^>]*>\s*<SUPPLIER_[AP]ID[^>]*>([^<]+)</g)].map(
        (m) => m[1],
      );
      expect({ exportType, written: written.sort() }).toEqual({ exportType, written: INSIDE });
      const groupMap = [
        ...text.matchAll(/<(?:PROD_ID|ART_ID)>([^<]+)<\/(?:PROD_ID|ART_ID)>\s*<CATALOG_GROUP_ID>([^<]+)</g),
      ]
        .map((m) => `${m[1]} > ${nameOf(m[2]!)}`)
        .sort();
      expect({ exportType, groupMap }).toEqual({
        exportType,
        groupMap:
          exportType === 'BMEcat-ETIM'
            ? []
            : ['D-1 > Drills', 'L-1 > Lines sub', 'L-1-V > Lines sub', 'L-2 > Drills', 'L-2 > Lines'],
      });
      expectNothingOutside(text);
    }
  });

  it('write through a template without a category subset as without one, and through one of their category as before', async () => {
    const template = async (exportType: string, options: Record<string, unknown>) => {
      const res = await post(admin.cookie, 'Export/AddTemplate', {
        name: `${exportType} ${crypto.randomUUID().slice(0, 6)}`,
        exportType,
        options,
      });
      expect(res.status, res.text).toBe(200);
      return res.json.templateId as string;
    };
    const plain = await exported(publisher.cookie, { templateId: await template('CSV', {}) });
    const [header, ...rows] = parseCsv(plain.text.replace(/^\uFEFF/, ''));
    expect(rows.map((r) => r[header!.indexOf('sku')]).sort()).toEqual(INSIDE);
    expectNothingOutside(plain.text);
    // a template limited to a category inside a subtree: that category's products, its tree only
    const sub = await exported(publisher.cookie, { templateId: await template('BMEcat', { categoryId: cat.Drills }) });
    expect(bmecatSkus(sub.text)).toEqual(['D-1', 'L-2']);
    expect(groups(sub.text)).toEqual(['Drills < root']);
    expect(mapped(sub.text)).toEqual(['D-1 > Drills', 'L-2 > Drills']);
    expectNothingOutside(sub.text);
  });

  it('is refused a template of a category outside their subtrees, and a catalog their scope holds nothing of', async () => {
    const jobCount = async () => (await get(publisher.cookie, 'Job/GetJobs?limit=100')).json.items.length as number;
    const before = await jobCount();
    for (const categoryId of [cat['Other lines'], cat.Brand, cat.Fremdkatalog]) {
      const template = await post(admin.cookie, 'Export/AddTemplate', {
        name: `Outside ${crypto.randomUUID().slice(0, 6)}`,
        exportType: 'CSV',
        options: { categoryId },
      });
      expect(template.status, template.text).toBe(200);
      const res = await post(publisher.cookie, 'Export/StartExport', {
        departmentId: company.departmentId,
        catalogId: catA,
        templateId: template.json.templateId,
      });
      expect([res.status, res.json]).toEqual([403, { error: EXPORT_CATEGORY_OUTSIDE, code: 'forbidden' }]);
    }
    const other = await post(publisher.cookie, 'Export/StartExport', {
      departmentId: company.departmentId,
      catalogId: catB,
    });
    expect([other.status, other.json]).toEqual([403, { error: NOT_PERMITTED, code: 'forbidden' }]);
    // nothing queued by a refusal
    expect(await jobCount()).toBe(before);
  });

  it('is the same over MCP start_export', async () => {
    const token = (await tokensFor({ session: publisher.cookie }, { scope: 'mcp' })).access_token;
    const { sessionId } = await openSession(token);
    const started = await callTool(token, sessionId, 'start_export', { catalogId: catA, exportType: 'BMEcat' });
    expect(started.isError ?? false, started.content[0]?.text).toBe(false);
    const { text } = await fileOf(publisher.cookie, started.structuredContent.jobId);
    expect(bmecatSkus(text)).toEqual(INSIDE);
    expectNothingOutside(text);
    const refused = await callTool(token, sessionId, 'start_export', { catalogId: catB });
    expect(toolError(refused)).toMatchObject({ error: NOT_PERMITTED });
  }, 60_000);

  it("leaves an unscoped member's export of the whole catalog unchanged", async () => {
    const { text, total } = await exported(admin.cookie, { exportType: 'BMEcat' });
    expect(bmecatSkus(text)).toEqual([...INSIDE, ...OUTSIDE_SKUS].sort());
    expect(total).toBe(8);
    for (const word of ['Other lines', 'Elsewhere']) expect(text).toContain(word);
    expect(mapped(text)).toContain('L-2 > Elsewhere');
  });
});

describe("the file-wide choices of a scoped member's export", () => {
  it("judge the member's products only: xChange's CurrencyCode and BMEcat 1.2's header PRICE_FLAGs", async () => {
    const setPrice = async (sku: string, price: Record<string, unknown>) => {
      const res = await post(admin.cookie, 'Catalog/SetPrices', {
        departmentId: company.departmentId,
        productId: ids[sku],
        prices: [{ type: 'net_list', amount: '10', ...price }],
      });
      expect(res.status, res.text).toBe(200);
    };
    // every product of the member has a price in GBP with the same flags; one outside a price in
    // the catalog's EUR without flags, and the others none
    for (const sku of INSIDE) await setPrice(sku, { currency: 'GBP', flags: { incl_freight: true } });
    await setPrice('O-2', { currency: 'EUR' });
    const currency = async (cookie: string) =>
      JSON.parse((await exported(cookie, { exportType: 'ETIMxChange' })).text).CurrencyCode as string;
    expect(await currency(publisher.cookie)).toBe('GBP');
    expect(await currency(admin.cookie)).toBe('EUR');
    const headerFlags = async (cookie: string) => {
      const { text } = await exported(cookie, { exportType: 'BMEcat12' });
      return [...text.slice(0, text.indexOf('<T_NEW_CATALOG>')).matchAll(/<PRICE_FLAG type="([^"]+)">([^<]+)</g)].map(
        (m) => `${m[1]}=${m[2]}`,
      );
    };
    expect(await headerFlags(publisher.cookie)).toEqual(['incl_freight=true']);
    expect(await headerFlags(admin.cookie)).toEqual([]);
  });
});

describe('the statements of a scoped export', () => {
  it('are planned as searches of indexes and primary keys, never a scan of a table', async () => {
    const { db: counted, statements } = countingDb();
    for (const exportType of ['BMEcat', 'BMEcat12', 'CSV', 'ETIMxChange']) {
      const jobId = await insertExportJob(admin.tenant, {
        catalogId: catA,
        exportType,
        scopeCategoryIds: [cat.Lines!, cat.Drills!],
      });
      expect(await runExportSlice(testDeps({ db: counted, sliceMs: 60_000 }), await jobRow(jobId))).toBe('finished');
    }
    const scans: string[] = [];
    const keysets: string[][] = [];
    for (const statement of statements) {
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
        .bind(...statement.params)
        .all<{ detail: string }>();
      const details = plan.results.map((r) => r.detail);
      // a scan of a table; the subtree walks (scope_sub, down, up), a CTE's or subquery's rows and a bound JSON list are no tables
      scans.push(
        ...details.filter((d) =>
          /^SCAN (?!(scope_sub|down|up|sub|m|CONSTANT ROW|json_each)\b|\(subquery-\d+\))/.test(d),
        ),
      );
      if (/order by "products"\."id"/i.test(statement.sql)) keysets.push(details);
    }
    expect(scans).toEqual([]);
    // the masters' keyset pages: along the catalog's masters in id order, each judged by the subtree condition
    expect(keysets.length).toBeGreaterThanOrEqual(3);
    for (const details of keysets) {
      expect(details.join('\n')).toMatch(/products_catalog_master_id_idx/);
      expect(details.join('\n')).not.toMatch(/TEMP B-TREE/);
    }
  });
});
