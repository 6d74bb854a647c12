import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '../src/db/schema';
import { detectFormat } from '../src/imports/read/detect-format';
import { article, DIALECTS, file, price12, price2005, product, singleByte, utf16 } from './fixtures/bmecat-variants';
import { db, makeCatalog, makeSession } from './helpers/factories';
import { importDeps, importJobRow, insertImportJob, putImportFile, runImportToEnd } from './helpers/import-fixtures';

type Session = Awaited<ReturnType<typeof makeSession>>;

async function importInto(
  content: string | Uint8Array,
  options: {
    into?: { session: Session; catalogId: string };
    batchSize?: number;
    sliceMs?: number;
    dryRun?: boolean;
  } = {},
) {
  const session = options.into?.session ?? (await makeSession());
  const catalogId = options.into?.catalogId ?? (await makeCatalog(session.tenant, { name: 'Varianten' })).catalogId;
  const fileId = await putImportFile(session.tenant, content);
  const jobId = await insertImportJob(session.tenant, { catalogId, fileId, dryRun: options.dryRun ?? false });
  const outcomes = await runImportToEnd(
    jobId,
    importDeps({ batchSize: options.batchSize, sliceMs: options.sliceMs ?? 60_000 }),
  );
  return { session, catalogId, job: await importJobRow(jobId), outcomes };
}

const row = (catalogId: string, sku: string) =>
  db().query.products.findFirst({ where: and(eq(products.catalogId, catalogId), eq(products.sku, sku)) });

describe('every BMEcat dialect', () => {
  it.each(DIALECTS)('reads $name as $format', async ({ root, format, articles }) => {
    const xml = file({
      root,
      records: articles
        ? [article('A-1', 'Prüfgerät', price12('12,50')), article('A-2', 'Zange')]
        : [product('A-1', 'Prüfgerät', price2005('12.50')), product('A-2', 'Zange')],
    });
    expect(detectFormat(new TextEncoder().encode(xml))).toEqual({ format, encoding: 'utf-8' });
    const { catalogId, job } = await importInto(xml);
    expect(job.summary).toMatchObject({ created: 2, rejected: 0, total: 2 });
    expect(await row(catalogId, 'A-1')).toMatchObject({ name: 'Prüfgerät', price: '12.50' });
  });

  it('reads a file whose elements carry a namespace prefix', async () => {
    const xml = file({
      rootName: 'bme:BMECAT',
      root: 'xmlns:bme="http://www.bmecat.org/bmecat/2005" version="2005"',
      records: [product('P-1', 'Mit Präfix', '', '', 'bme:')],
    });
    const { catalogId, job } = await importInto(xml);
    expect(job.summary).toMatchObject({ created: 1, total: 1 });
    expect(await row(catalogId, 'P-1')).toMatchObject({ name: 'Mit Präfix' });
  });

  it('fails a BMECAT root of a version it does not know, naming the versions it reads', async () => {
    const { job } = await importInto(file({ root: 'version="3.0"', records: [product('X', 'x')] }));
    expect(job).toMatchObject({ state: 'failed' });
    expect(job.error).toMatch(/^line 1: BMECAT root without a version this service reads \(1\.01, 1\.2, 2005/);
  });

  it('imports an empty catalog (no products) as a job with nothing to do', async () => {
    const { job } = await importInto(file({ root: 'version="2005"', records: [] }));
    expect(job).toMatchObject({ state: 'succeeded', summary: { created: 0, rejected: 0, total: 0 } });
  });

  it('reads CDATA values and a CLASSIFICATION_SYSTEM beside the CATALOG_GROUP_SYSTEM', async () => {
    const xml = file({
      root: 'version="2005.1" xmlns="http://www.bmecat.org/bmecat/2005.1"',
      before:
        '<CLASSIFICATION_SYSTEM><CLASSIFICATION_SYSTEM_NAME>own</CLASSIFICATION_SYSTEM_NAME><CLASSIFICATION_GROUPS><CLASSIFICATION_GROUP><CLASSIFICATION_GROUP_ID>K1</CLASSIFICATION_GROUP_ID><CLASSIFICATION_GROUP_NAME>Klasse</CLASSIFICATION_GROUP_NAME></CLASSIFICATION_GROUP></CLASSIFICATION_GROUPS></CLASSIFICATION_SYSTEM>' +
        '<CATALOG_GROUP_SYSTEM><CATALOG_STRUCTURE type="root"><GROUP_ID>R</GROUP_ID><GROUP_NAME>R</GROUP_NAME><PARENT_ID>0</PARENT_ID></CATALOG_STRUCTURE><CATALOG_STRUCTURE type="leaf"><GROUP_ID>G</GROUP_ID><GROUP_NAME><![CDATA[Zangen & Scheren]]></GROUP_NAME><PARENT_ID>R</PARENT_ID></CATALOG_STRUCTURE></CATALOG_GROUP_SYSTEM>',
      records: [
        product('C-1', '<![CDATA[Zange <b>180</b> & mehr]]>', price2005('<![CDATA[7,20]]>')),
        '<PRODUCT_TO_CATALOGGROUP_MAP><PROD_ID><![CDATA[C-1]]></PROD_ID><CATALOG_GROUP_ID>G</CATALOG_GROUP_ID></PRODUCT_TO_CATALOGGROUP_MAP>',
      ],
    });
    const { catalogId, job } = await importInto(xml);
    expect(job.summary).toMatchObject({ created: 1, placements: 1, categoriesCreated: 1, rejected: 0 });
    expect(await row(catalogId, 'C-1')).toMatchObject({ name: 'Zange <b>180</b> & mehr', price: '7.20' });
  });

  it('keeps inline HTML written as markup in DESCRIPTION_LONG and GROUP_DESCRIPTION as text, also across a resume', async () => {
    const html = 'Zeile 1<br/>Zeile <b class="x">2</b> &amp; <i><u>mehr</u></i> &lt;3';
    const xml = file({
      root: 'version="2005"',
      before: `<CATALOG_GROUP_SYSTEM><CATALOG_STRUCTURE type="root"><GROUP_ID>R</GROUP_ID><GROUP_NAME>R</GROUP_NAME><PARENT_ID>0</PARENT_ID></CATALOG_STRUCTURE><CATALOG_STRUCTURE type="leaf"><GROUP_ID>G</GROUP_ID><GROUP_NAME>Gruppe</GROUP_NAME><GROUP_DESCRIPTION>${html}</GROUP_DESCRIPTION><PARENT_ID>R</PARENT_ID></CATALOG_STRUCTURE></CATALOG_GROUP_SYSTEM>`,
      records: [
        product('H-1', 'Erster', '').replace(
          '</PRODUCT_DETAILS>',
          `<DESCRIPTION_LONG>${html}</DESCRIPTION_LONG></PRODUCT_DETAILS>`,
        ),
        product('H-2', 'Zweiter', ''),
      ],
    });
    const { catalogId, job } = await importInto(xml, { batchSize: 1, sliceMs: 0 });
    expect(job.summary).toMatchObject({ created: 2, rejected: 0 });
    const text = 'Zeile 1<br/>Zeile <b class="x">2</b> & <i><u>mehr</u></i> <3';
    expect(await row(catalogId, 'H-1')).toMatchObject({ description: text, name: 'Erster' });
    expect(await row(catalogId, 'H-2')).toMatchObject({ description: null, name: 'Zweiter' });
    const { categories } = await import('../src/db/schema');
    const [group] = await db()
      .select()
      .from(categories)
      .where(and(eq(categories.catalogId, catalogId), eq(categories.name, 'Gruppe')));
    expect(group?.description).toBe(text);
  });
});

describe('every encoding', () => {
  const names = ['Prüfgerät Ø 5 mm', 'Schraubendreher für Öl', 'Maßband 5 m'];
  const xmlIn = (encoding: string | undefined, extra = '') =>
    file({
      root: 'version="1.2"',
      encoding,
      records: names.map((name, i) => article(`E-${i + 1}`, `${name}${extra}`)),
    });

  it.each([
    ['UTF-8 with a byte-order mark', new TextEncoder().encode(`\uFEFF${xmlIn('UTF-8')}`), ''],
    ['UTF-8 without a declaration', new TextEncoder().encode(xmlIn(undefined)), ''],
    ['ISO-8859-1', singleByte(xmlIn('ISO-8859-1')), ''],
    ['iso-8859-1 in lower case', singleByte(xmlIn('iso-8859-1')), ''],
    ['windows-1252 (euro sign, dash)', singleByte(xmlIn('Windows-1252', ' – 5 €')), ' – 5 €'],
    ['UTF-16 LE with a byte-order mark', utf16(xmlIn('UTF-16'), true), ''],
    ['UTF-16 BE with a byte-order mark', utf16(xmlIn('UTF-16'), false), ''],
  ])('reads %s, also resumed after every product', async (_name, bytes, extra) => {
    // One product per batch and slice: every resume point is a byte offset in that encoding.
    const { catalogId, job, outcomes } = await importInto(bytes, { batchSize: 1, sliceMs: 0 });
    expect(outcomes.length).toBeGreaterThan(3);
    expect(job.summary).toMatchObject({ created: 3, rejected: 0, total: 3 });
    for (const [i, name] of names.entries()) expect((await row(catalogId, `E-${i + 1}`))?.name).toBe(`${name}${extra}`);
  });

  it('reads UTF-16 without a byte-order mark, recognised by its XML declaration', async () => {
    const { catalogId, job } = await importInto(utf16(xmlIn('UTF-16'), true).slice(2));
    expect(job.summary).toMatchObject({ created: 3, total: 3 });
    expect((await row(catalogId, 'E-1'))?.name).toBe(names[0]);
  });

  it('refuses an encoding it does not read, naming those it does', async () => {
    const { job } = await importInto(new TextEncoder().encode(xmlIn('Shift_JIS')));
    expect(job.error).toMatch(/^line 1: encoding Shift_JIS is not supported \(UTF-8, UTF-16/);
  });
});

describe('a DOCTYPE with an internal subset', () => {
  const prolog = `<!DOCTYPE BMECAT SYSTEM "bmecat_new_catalog_1_2.dtd" [
  <!ENTITY % USERDEFINES "(UDX.KST.INFOTEXT?)">
  <!ELEMENT UDX.KST.INFOTEXT (#PCDATA)>
  <!-- <!ENTITY hersteller "im Kommentar"> -->
  <!ENTITY hersteller "Müller &amp; Söhne">
  <!ENTITY marke 'Marke &hersteller; &#169;'>
]>`;
  it('expands its entities in values and in the UDX it declares, also in a resumed slice', async () => {
    const udx = '<USER_DEFINED_EXTENSIONS><UDX.KST.INFOTEXT>&marke;</UDX.KST.INFOTEXT></USER_DEFINED_EXTENSIONS>';
    const xml = file({
      root: 'version="1.2" xmlns="http://www.bmecat.org/bmecat/1.2/bmecat_new_catalog"',
      encoding: 'UTF-8',
      prolog,
      records: [article('D-1', 'Erster', udx), article('D-2', '&marke;', udx)],
    });
    const { catalogId, job } = await importInto(xml, { batchSize: 1, sliceMs: 0 });
    expect(job.summary).toMatchObject({ created: 2, rejected: 0 });
    expect((await row(catalogId, 'D-2'))?.name).toBe('Marke Müller & Söhne ©');
  });
});

describe('every transaction', () => {
  async function catalogWith(...records: string[]) {
    const first = await importInto(file({ root: 'version="2005"', records }));
    expect(first.job.summary).toMatchObject({ created: records.length });
    return { session: first.session, catalogId: first.catalogId };
  }

  it('T_UPDATE_PRODUCTS: mode new creates, update replaces, delete deletes (an unknown SKU is reported)', async () => {
    const into = await catalogWith(product('U-1', 'Alt', price2005('1.00')), product('U-2', 'Weg', price2005('2.00')));
    const { job } = await importInto(
      file({
        root: 'version="2005"',
        transaction: 'T_UPDATE_PRODUCTS',
        transactionAttrs: 'prev_version="1"',
        records: [
          product('U-1', 'Neu', price2005('1.50'), 'mode="update"'),
          product('U-2', 'Weg', '', 'mode="delete"'),
          product('U-3', 'Dazu', '', 'mode="new"'),
          '<PRODUCT mode="delete"><SUPPLIER_PID>U-9</SUPPLIER_PID></PRODUCT>',
        ],
      }),
      { into },
    );
    expect(job.summary).toMatchObject({
      created: 1,
      updated: 1,
      deleted: 1,
      rejected: 1,
      'rejected.not_in_catalog': 1,
    });
    expect(await row(into.catalogId, 'U-1')).toMatchObject({ name: 'Neu', price: '1.50' });
    expect(await row(into.catalogId, 'U-2')).toBeUndefined();
    expect(await row(into.catalogId, 'U-3')).toMatchObject({ name: 'Dazu' });
    const { historyVersions } = await import('../src/db/schema');
    const deletes = await db().select().from(historyVersions).where(eq(historyVersions.jobId, job.id));
    expect(deletes.map((v) => v.action).sort()).toEqual(['create', 'delete', 'update']);
  });

  it('counts what a T_UPDATE_PRODUCTS file would delete in a dry run and deletes nothing', async () => {
    const into = await catalogWith(product('R-1', 'Bleibt'));
    const { job } = await importInto(
      file({
        root: 'version="2005"',
        transaction: 'T_UPDATE_PRODUCTS',
        records: ['<PRODUCT mode="delete"><SUPPLIER_PID>R-1</SUPPLIER_PID></PRODUCT>'],
      }),
      { into, dryRun: true },
    );
    expect(job.summary).toMatchObject({ deleted: 1, rejected: 0 });
    expect(await row(into.catalogId, 'R-1')).toMatchObject({ name: 'Bleibt' });
  });

  it('T_UPDATE_PRICES: updates the price of existing products only, nothing else', async () => {
    const into = await catalogWith(product('P-1', 'Bleibt', `${price2005('3.00')}`));
    const { job } = await importInto(
      file({
        root: 'version="1.2"',
        transaction: 'T_UPDATE_PRICES',
        records: [
          `<ARTICLE><SUPPLIER_AID>P-1</SUPPLIER_AID>${price12('4,25')}</ARTICLE>`,
          `<ARTICLE><SUPPLIER_AID>P-404</SUPPLIER_AID>${price12('1')}</ARTICLE>`,
        ],
      }),
      { into },
    );
    expect(job.summary).toMatchObject({ updated: 1, created: 0, rejected: 1, 'rejected.not_in_catalog': 1 });
    expect(await row(into.catalogId, 'P-1')).toMatchObject({ name: 'Bleibt', price: '4.25' });
    expect(await row(into.catalogId, 'P-404')).toBeUndefined();
  });
});
