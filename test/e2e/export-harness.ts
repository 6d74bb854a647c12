import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, inject } from 'vitest';
import { BMECAT_SCHEMAS } from '../../scripts/lib/bmecat-schemas';
import { readGroups, readMap, readProducts, type ReadProduct } from './export-bmecat-reader';
import {
  expectedGroups,
  expectedProduct,
  fit,
  pidOf,
  type ApiCategory,
  type ApiProduct,
  type Format,
} from './export-expected';

/** The official schemas, kept in the repository under schemas/bmecat/. */
export const SCHEMAS = BMECAT_SCHEMAS;

const base = () => inject('baseUrl');

/** Signs in on the suite's server, or on `server` (a test's own wrangler dev); answers the session cookie. */
export async function login(email: string, password = 'demo-password-1', server = base()): Promise<string> {
  const res = await fetch(`${server}/api/Account/Login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status).toBe(200);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

/** One API call (GET without a body, POST with one) on the suite's server or on `server`; throws unless 200. */
export async function api(cookie: string, path: string, body?: unknown, server = base()): Promise<any> {
  const res = await fetch(`${server}/api/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Cookie: cookie, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Polls GetJob on the suite's server (or `server`) until the job ends; answers its last state. */
export async function jobEnded(cookie: string, jobId: string, server = base()): Promise<any> {
  let job: any;
  for (let i = 0; i < 600; i++) {
    job = await api(cookie, `Job/GetJob?jobId=${jobId}`, undefined, server);
    if (['succeeded', 'failed', 'cancelled'].includes(job.state)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return job;
}

/** Upload (raw body: JSON for a `.json` name, else XML), StartImport, wait: what a user does with a supplier file. */
export async function importFile(
  cookie: string,
  target: { departmentId: string; catalogId: string },
  body: string,
  fileName = 'supplier.xml',
): Promise<any> {
  const upload = await fetch(`${base()}/api/Import/Upload?fileName=${fileName}`, {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': fileName.endsWith('.json') ? 'application/json' : 'application/xml' },
    body,
  });
  expect(upload.status).toBe(200);
  const { fileId } = (await upload.json()) as { fileId: string };
  const { jobId } = await api(cookie, 'Import/StartImport', { ...target, fileId });
  return jobEnded(cookie, jobId);
}

/** StartExport, poll GetJob until it ends, Download: what a user does. */
export async function runExport(
  cookie: string,
  body: { departmentId: string; catalogId: string; exportType?: string; templateId?: string },
) {
  const { jobId } = await api(cookie, 'Export/StartExport', body);
  const job = await jobEnded(cookie, jobId);
  if (job.state !== 'succeeded') return { job, xml: '' };
  const download = await fetch(`${base()}/api/Export/Download?jobId=${jobId}`, { headers: { Cookie: cookie } });
  expect(download.headers.get('content-type')).toBe('application/xml; charset=utf-8');
  const bytes = new Uint8Array(await download.arrayBuffer());
  expect(bytes.byteLength).toBe(job.result.size);
  return { job, xml: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes) };
}

/** StartExport as ETIMxChange, wait, Download, parse: the job (succeeded) and the document. */
export async function runXChangeExport(cookie: string, departmentId: string, catalogId: string) {
  const { jobId } = await api(cookie, 'Export/StartExport', { departmentId, catalogId, exportType: 'ETIMxChange' });
  const job = await jobEnded(cookie, jobId);
  expect(job).toMatchObject({ state: 'succeeded', error: null });
  const download = await fetch(`${base()}/api/Export/Download?jobId=${jobId}`, { headers: { Cookie: cookie } });
  expect(download.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return { job, document: (await download.json()) as any };
}

/** xmllint --schema on the file; the exit status and output say whether it validates. */
export function xmllint(xml: string, schema: keyof typeof SCHEMAS): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bmecat-'));
  const file = join(dir, 'export.xml');
  writeFileSync(file, xml);
  const run = spawnSync('xmllint', ['--noout', '--schema', SCHEMAS[schema], file], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  rmSync(dir, { recursive: true, force: true });
  if (run.error) throw new Error(`xmllint could not run (apt-get install libxml2-utils): ${run.error.message}`);
  return { status: run.status, output: `${run.stdout}${run.stderr}`.slice(0, 4000) };
}

export function expectValid(xml: string, schema: keyof typeof SCHEMAS): void {
  const result = xmllint(xml, schema);
  expect(result.output).toMatch(/export\.xml validates/);
  expect(result.status).toBe(0);
}

export interface CatalogData {
  catalog: { catalogId: string; name: string; currency: string };
  families: { master: ApiProduct; variants: ApiProduct[] }[];
  tree: ApiCategory[];
}

/** A product with its outgoing references (GetReferences), which GetProduct does not carry. */
async function withReferences(cookie: string, product: any): Promise<any> {
  const { outgoing } = await api(cookie, `Catalog/GetReferences?productId=${product.productId}`);
  return { ...product, references: outgoing };
}

/** Everything the API says about a catalog: every master (keyset pages), every variant, the tree. */
export async function loadCatalog(cookie: string, catalogId: string): Promise<CatalogData> {
  const catalog = await api(cookie, `Catalog/GetCatalog?catalogId=${catalogId}`);
  const families: CatalogData['families'] = [];
  let cursor: string | null = null;
  do {
    const page: any = await api(
      cookie,
      `Catalog/GetProducts?catalogId=${catalogId}&limit=500${cursor ? `&cursor=${cursor}` : ''}`,
    );
    for (const item of page.items) {
      const master = await withReferences(cookie, await api(cookie, `Catalog/GetProduct?productId=${item.productId}`));
      const variants = [];
      for (const v of master.variants)
        variants.push(await withReferences(cookie, await api(cookie, `Catalog/GetProduct?productId=${v.productId}`)));
      families.push({ master, variants });
    }
    cursor = page.nextCursor;
  } while (cursor);
  // Exports write masters in creation order (UUIDv7 ids); GetProducts lists by SKU by default.
  families.sort((a, b) =>
    a.master.productId < b.master.productId ? -1 : a.master.productId > b.master.productId ? 1 : 0,
  );
  const tree = (await api(cookie, `Catalog/GetCategoryTree?catalogId=${catalogId}`)).items;
  return { catalog, families, tree };
}

/**
 * Reads the file back and compares it with the API's data: every product and variant in
 * order with its texts, GTIN, manufacturer, unit, price, features, attributes, media and
 * master reference; the category tree; the product-to-group map.
 */
export function expectSameAsApi(
  format: Format,
  xml: string,
  data: CatalogData,
  options: { priceType?: string } = {},
): ReadProduct[] {
  const actual = readProducts(xml);
  const expected = data.families.flatMap(({ master, variants }) => [
    expectedProduct(format, master, null, data.catalog.currency, options.priceType),
    ...variants.map((v) => expectedProduct(format, v, master, data.catalog.currency, options.priceType)),
  ]);
  expect(actual.length).toBe(expected.length);
  // SKUs too long for SUPPLIER_PID: a 23-character prefix, "~", 8 hex digits, unique in the file.
  const hashed = new Map<string, string>();
  expected.forEach((e, i) => {
    if (!e.pid.startsWith('~hashed:')) return;
    const sku = e.pid.slice('~hashed:'.length);
    expect(actual[i]!.pid).toMatch(/^[^~]{0,23}~[0-9a-f]{8}$/);
    expect(fit(sku, 64, false)!.startsWith(actual[i]!.pid.split('~')[0]!)).toBe(true);
    hashed.set(e.pid, actual[i]!.pid);
  });
  const fix = (pid: string) => hashed.get(pid) ?? pid;
  const normalised = expected.map((e) => ({
    ...e,
    pid: fix(e.pid),
    descriptionShort: e.descriptionShort === e.pid ? fix(e.pid) : e.descriptionShort,
    references: e.references.map((r) => ({ ...r, to: fix(r.to) })),
  }));
  expect(actual).toEqual(normalised);
  expect(new Set(actual.map((p) => p.pid)).size).toBe(actual.length);

  if (format !== 'BMEcat-ETIM') {
    expect(readGroups(xml).sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(
      expectedGroups(data.catalog, data.tree).sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    const map = data.families.flatMap(({ master, variants }) =>
      master.categoryIds.flatMap((categoryId) => [master, ...variants].map((p) => `${fix(pidOf(p))} ${categoryId}`)),
    );
    expect(
      readMap(xml)
        .map(([pid, group]) => `${pid} ${group}`)
        .sort(),
    ).toEqual(map.sort());
  }
  return actual;
}
