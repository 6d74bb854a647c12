import { env } from 'cloudflare:workers';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '../src/db/schema';
import { db, makeAttribute, makeCatalog, makeSession } from './helpers/factories';
import {
  importDeps,
  importJobRow,
  insertImportJob,
  putImportFile,
  reportRows,
  runImportToEnd,
} from './helpers/import-fixtures';
import { SUPPLIER_2005 } from './fixtures/supplier-2005';
import { readXmlRecords, XML_START } from '../src/imports/read/bmecat-reader';
import { languagesBelow, LOCALIZED_ELEMENTS } from '../src/imports/read/file-languages';
import { DETAILS_2005 } from './fixtures/bmecat-details-languages';

/** The real bucket, except that object bodies arrive in pieces of 1 to 7 bytes (cutting UTF-8 characters, CRLFs and quotes). */
function tinyChunks(): R2Bucket {
  return new Proxy(env.FILES, {
    get(target, prop) {
      if (prop === 'get') {
        return async (key: string, options?: R2GetOptions) => {
          const object = await target.get(key, options);
          if (!object || !('body' in object)) return object;
          const bytes = new Uint8Array(await object.arrayBuffer());
          let i = 0;
          let n = 0;
          const body = new ReadableStream<Uint8Array>({
            pull(controller) {
              if (i >= bytes.length) return controller.close();
              const size = (n++ % 7) + 1;
              controller.enqueue(bytes.slice(i, i + size));
              i += size;
            },
          });
          return {
            ...object,
            body,
            arrayBuffer: async () => bytes.buffer,
            text: async () => new TextDecoder().decode(bytes),
          };
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function importText(
  text: string,
  options: { fileName?: string; batchSize?: number; sliceMs?: number; files?: R2Bucket } = {},
) {
  const session = await makeSession();
  const catalog = await makeCatalog(session.tenant);
  const fileId = await putImportFile(session.tenant, text, options.fileName ?? 'data.csv');
  const jobId = await insertImportJob(session.tenant, { catalogId: catalog.catalogId, fileId });
  const outcomes = await runImportToEnd(
    jobId,
    importDeps({ files: options.files ?? env.FILES, batchSize: options.batchSize, sliceMs: options.sliceMs ?? 60_000 }),
  );
  const rows = await db()
    .select()
    .from(products)
    .where(eq(products.catalogId, catalog.catalogId))
    .orderBy(asc(products.id));
  return { session, catalog, job: await importJobRow(jobId), outcomes, rows };
}

const ERP_CSV =
  '\uFEFFsku,name,description,price,parentSku,status\r\n' +
  'K-1,Kabel ä,"Zeile 1\r\nZeile 2 mit ""Zitat"", Komma",1.50,,active\r\n' +
  'K-1-R,Ring 50 m,,"62,00",K-1,\r\n' +
  'K-2,Grüße 👋,,,,draft\n' +
  'K-3,"Ende ohne Zeilenumbruch",,9.99,,active';

describe('the streaming readers across chunk and slice boundaries', () => {
  it('reads an ERP CSV (quotes, line breaks in fields, CRLF and LF, emoji) cut into tiny chunks, one record per slice', async () => {
    const { job, rows, outcomes } = await importText(ERP_CSV, { files: tinyChunks(), batchSize: 1, sliceMs: -1 });
    expect(job.error).toBeNull();
    expect(await reportRows(job.id)).toEqual([]);
    expect(job.summary).toMatchObject({ created: 4, rejected: 0 });
    expect(outcomes.filter((o) => o === 'continued').length).toBeGreaterThanOrEqual(3);
    expect(rows.map((r) => [r.sku, r.name, r.description, r.price, r.status, r.parentId !== null])).toEqual([
      ['K-1', 'Kabel ä', 'Zeile 1\r\nZeile 2 mit "Zitat", Komma', '1.50', 'active', false],
      ['K-1-R', 'Ring 50 m', null, '62.00', 'active', true],
      ['K-2', 'Grüße 👋', null, null, 'draft', false],
      ['K-3', 'Ende ohne Zeilenumbruch', null, '9.99', 'active', false],
    ]);
  });

  it('reads BMEcat cut into tiny chunks, one product per slice, to the same result as in one piece', async () => {
    const whole = await importText(SUPPLIER_2005, { fileName: 'a.xml' });
    const pieces = await importText(SUPPLIER_2005, {
      fileName: 'a.xml',
      files: tinyChunks(),
      batchSize: 1,
      sliceMs: -1,
    });
    const view = (rows: typeof whole.rows) =>
      rows.map((r) => [r.sku, r.name, r.description, r.price, r.gtin, r.status]);
    expect(view(pieces.rows)).toEqual(view(whole.rows));
    expect(pieces.job.summary).toEqual(whole.job.summary);
  });

  it.each([
    ['an unclosed quote', 'sku,name\r\nA,"offen\r\nB,zu\r\n', 'line 2: the file ends inside a quoted field'],
    ['a row with too many fields', 'sku,name\r\nA,eins\r\nB,zwei,drei\r\n', 'line 3: 3 fields, the header has 2'],
    ['text after a closing quote', 'sku,name\r\nA,"eins"x\r\n', 'line 2: text after a closing quote'],
  ])('fails a CSV with %s, naming the line, and writes nothing', async (_name, text, error) => {
    const { job, rows } = await importText(text, { batchSize: 1 });
    expect(job).toMatchObject({ state: 'failed', error });
    expect(rows).toEqual([]);
  });

  it('creates CSV category paths once, sharing their common parents, and places masters only', async () => {
    const text =
      'sku,parentSku,categories\r\nM-1,,Kabel > NYM|Kabel > NYY\r\nM-1-V,M-1,Kabel > NYM\r\nM-2,,Kabel > NYY\r\n';
    const { job, catalog } = await importText(text);
    expect(job.summary).toMatchObject({ created: 3, rejected: 0, categoriesCreated: 3 });
    const { categories, productCategories } = await import('../src/db/schema');
    const tree = await db().select().from(categories).where(eq(categories.catalogId, catalog.catalogId));
    expect(tree.map((c) => c.name).sort()).toEqual(['Kabel', 'NYM', 'NYY']);
    const placed = await db()
      .select()
      .from(productCategories)
      .innerJoin(products, eq(products.id, productCategories.productId))
      .where(eq(products.catalogId, catalog.catalogId));
    expect(placed.map((p) => p.products.sku).sort()).toEqual(['M-1', 'M-1', 'M-2']);
  });

  it('maps CSV attribute columns to attribute values and clears them with an empty cell', async () => {
    const session = await makeSession();
    const weight = await makeAttribute(session.tenant, { type: 'number', unit: 'kg' });
    const catalog = await makeCatalog(session.tenant);
    for (const [text, expected] of [
      [`sku,${weight.code}\r\nW-1,"0,5"\r\n`, '0.5'],
      [`sku,${weight.code}\r\nW-1,\r\n`, null],
    ] as const) {
      const fileId = await putImportFile(session.tenant, text, 'w.csv');
      const jobId = await insertImportJob(session.tenant, { catalogId: catalog.catalogId, fileId });
      await runImportToEnd(jobId);
      const product = await db().query.products.findFirst({
        where: and(eq(products.catalogId, catalog.catalogId), isNull(products.parentId)),
      });
      const { getProduct } = await import('../src/catalog/product-queries');
      expect((await getProduct(db(), session.tenant, product!.id)).values[0]?.value ?? null).toBe(expected);
    }
  });
});

describe('the validation pass reads products without their trees', () => {
  const SHALLOW = new Set(['PRODUCT', 'ARTICLE']);
  const read = async (text: string, options: { shallow?: ReadonlySet<string> }, files: R2Bucket = env.FILES) => {
    const key = `test/shallow/${crypto.randomUUID()}`;
    await env.FILES.put(key, text);
    const out = [];
    for await (const piece of readXmlRecords(files, key, XML_START, 'utf-8', options))
      for (const r of piece)
        out.push({
          name: r.node.name,
          line: r.node.line,
          path: r.path,
          ordinal: r.ordinal,
          after: r.after,
          children: r.node.children.length,
        });
    return out;
  };

  it("gives every record the same position, path and resume point as a full read, without the products' children", async () => {
    const full = await read(SUPPLIER_2005, {});
    const shallow = await read(SUPPLIER_2005, { shallow: SHALLOW }, tinyChunks());
    expect(shallow.map(({ children, ...r }) => r)).toEqual(full.map(({ children, ...r }) => r));
    const products = shallow.filter((r) => r.name === 'PRODUCT');
    expect(products.length).toBeGreaterThan(1);
    expect(products.every((r) => r.children === 0)).toBe(true);
    expect(full.filter((r) => r.name === 'PRODUCT').every((r) => r.children > 0)).toBe(true);
    // Groups and map entries keep their trees (the validation pass stages them).
    expect(shallow.filter((r) => r.name !== 'PRODUCT').every((r) => r.children > 0)).toBe(true);
  });

  it("learns each product's languages as written, as a full read finds them below the product", async () => {
    // Unlabelled texts, `lang` in several forms, nested localizable elements and an empty product.
    const text = DETAILS_2005.replace('<MIME_DESCR lang="deu">Datenblatt', '<MIME_DESCR>Datenblatt').replace(
      '</T_NEW_CATALOG>',
      '<PRODUCT mode="new"/><PRODUCT><SUPPLIER_PID>X</SUPPLIER_PID><PRODUCT_DETAILS><KEYWORD lang=" fra ">a</KEYWORD></PRODUCT_DETAILS></PRODUCT></T_NEW_CATALOG>',
    );
    const key = `test/shallow/${crypto.randomUUID()}`;
    await env.FILES.put(key, text);
    const languages = async (options: { shallow?: ReadonlySet<string>; languagesOf?: ReadonlySet<string> }) => {
      const out: string[][] = [];
      for await (const piece of readXmlRecords(tinyChunks(), key, XML_START, 'utf-8', options))
        for (const r of piece) out.push(options.shallow ? (r.node.languages ?? []) : [...languagesBelow(r.node)]);
      return out.map((l) => [...l].sort());
    };
    const shallow = await languages({ shallow: SHALLOW, languagesOf: LOCALIZED_ELEMENTS });
    expect(shallow).toEqual(await languages({}));
    expect(shallow).toEqual([['', 'deu', 'en', 'eng'], [], ['fra']]);
  });

  it('still rejects a product that is not well-formed, naming the line', async () => {
    const broken = SUPPLIER_2005.replace('</MANUFACTURER_NAME>', '</MANUFACTURER>');
    await expect(read(broken, { shallow: SHALLOW })).rejects.toThrow(/^line \d+: unexpected close tag/);
    await expect(read(broken, {})).rejects.toThrow(/^line \d+: unexpected close tag/);
  });
});
