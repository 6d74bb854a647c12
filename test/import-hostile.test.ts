import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { categories, importGroups, products } from '../src/db/schema';
import { declaredEntities } from '../src/imports/read/xml-entities';
import { article, file } from './fixtures/bmecat-variants';
import { db, makeCatalog, makeSession } from './helpers/factories';
import { importDeps, importJobRow, insertImportJob, putImportFile, runImportToEnd } from './helpers/import-fixtures';

async function importInto(content: string | Uint8Array) {
  const session = await makeSession();
  const catalog = await makeCatalog(session.tenant, { name: 'Feindlich' });
  const fileId = await putImportFile(session.tenant, content);
  const jobId = await insertImportJob(session.tenant, { catalogId: catalog.catalogId, fileId });
  // One product per batch: a file that failed late would otherwise be half-written by now.
  await runImportToEnd(jobId, importDeps({ batchSize: 1 }));
  const written = await db().select().from(products).where(eq(products.catalogId, catalog.catalogId));
  const groups = await db().select().from(categories).where(eq(categories.catalogId, catalog.catalogId));
  return { job: await importJobRow(jobId), written, groups };
}

const withDoctype = (subset: string, ...records: string[]) =>
  file({
    root: 'version="1.2"',
    encoding: 'UTF-8',
    prolog: `<!DOCTYPE BMECAT SYSTEM "bmecat_new_catalog_1_2.dtd" [\n${subset}\n]>`,
    before:
      '<CATALOG_GROUP_SYSTEM><CATALOG_STRUCTURE type="root"><GROUP_ID>R</GROUP_ID><GROUP_NAME>R</GROUP_NAME><PARENT_ID>0</PARENT_ID></CATALOG_STRUCTURE><CATALOG_STRUCTURE type="leaf"><GROUP_ID>G</GROUP_ID><GROUP_NAME>G</GROUP_NAME><PARENT_ID>R</PARENT_ID></CATALOG_STRUCTURE></CATALOG_GROUP_SYSTEM>',
    records: [article('H-1', 'Harmlos'), ...records],
  });

const LAUGHS = [
  '<!ENTITY lol "lol">',
  ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`),
].join('\n');

describe('hostile XML', () => {
  it('fails a "billion laughs" file with a reason before anything is written', async () => {
    const { job, written, groups } = await importInto(withDoctype(LAUGHS, article('H-2', '&lol9;')));
    expect(job.state).toBe('failed');
    expect(job.error).toMatch(
      /^line \d+: entity lol\d expands to more than 65,536 characters \(entity expansion limit/,
    );
    expect(written).toEqual([]);
    expect(groups).toEqual([]);
    expect(await db().select().from(importGroups).where(eq(importGroups.jobId, job.id))).toEqual([]);
  });

  it('fails a file whose many references to one large entity add more than the budget', async () => {
    const big = `<!ENTITY big "${'x'.repeat(60_000)}">`;
    const { job, written } = await importInto(
      withDoctype(big, ...Array.from({ length: 150 }, (_, i) => article(`Q-${i}`, '&big;'))),
    );
    expect(job.state).toBe('failed');
    expect(job.error).toMatch(/entity references expand to more than 8,388,608 characters \(entity expansion limit/);
    expect(written).toEqual([]);
  });

  it('never reads an external entity: a file using one fails, naming it, and nothing is written', async () => {
    const { job, written } = await importInto(
      withDoctype('<!ENTITY x SYSTEM "file:///etc/passwd">', article('H-2', 'Geheim &x;')),
    );
    expect(job.state).toBe('failed');
    expect(job.error).toMatch(
      /^line \d+: entity x refers to an external resource \(SYSTEM "file:\/\/\/etc\/passwd"\); external entities are never read/,
    );
    expect(written).toEqual([]);
  });

  it('refuses an internal entity that refers to an external one', async () => {
    const { job } = await importInto(
      withDoctype(
        '<!ENTITY x PUBLIC "-//X" "http://example.com/x">\n<!ENTITY y "vor &x; nach">',
        article('H-2', '&y;'),
      ),
    );
    expect(job.error).toMatch(/entity x refers to an external resource \(PUBLIC "-\/\/X" "http:\/\/example.com\/x"\)/);
  });

  it('imports a file that declares an external entity or DTD without using it, fetching nothing', async () => {
    const { job, written } = await importInto(
      withDoctype(
        '<!ENTITY x SYSTEM "http://example.com/x.xml">\n<!ENTITY % dtd SYSTEM "http://example.com/x.dtd">\n%dtd;',
      ),
    );
    expect(job.state).toBe('succeeded');
    expect(written.map((p) => p.sku)).toEqual(['H-1']);
  });

  it.each([
    [
      'not XML at all',
      new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0xff, 0x10]),
      /^line 1: the file is neither BMEcat XML nor a CSV/,
    ],
    ['XML that is not BMEcat', '<?xml version="1.0"?><ORDER/>', /^line 1: an XML file without a BMECAT root/],
    [
      'a truncated file',
      withDoctype('', article('H-2', 'x')).slice(0, -40),
      /^line \d+: .*\(is the file complete\?\)$/,
    ],
    [
      'bytes that are not UTF-8',
      new Uint8Array([...new TextEncoder().encode(withDoctype('').replace('Harmlos', 'Harml')), 0xc3]),
      /UTF-8/,
    ],
  ])('fails %s with a line and reason before anything is written', async (_name, content, message) => {
    const { job, written, groups } = await importInto(content);
    expect(job.state).toBe('failed');
    expect(job.error).toMatch(message);
    expect(written).toEqual([]);
    expect(groups).toEqual([]);
  });
});

describe('declaredEntities', () => {
  it('reads internal entities (first declaration binds), expands their references, skips comments and parameter entities', () => {
    expect(
      declaredEntities(` BMECAT [
        <!-- <!ENTITY a "commented"> -->
        <!ENTITY a "A &amp; &#x42;">
        <!ENTITY a "second">
        <!ENTITY b 'b: &a;'>
        <!ENTITY % p "(x)">
        <!ENTITY e SYSTEM "e.xml">
      ]`),
    ).toEqual({ internal: { a: 'A & B', b: 'b: A & B' }, external: { e: 'SYSTEM "e.xml"' } });
  });

  it('fails an entity that refers to itself', () => {
    expect(() => declaredEntities('[<!ENTITY a "&b;"><!ENTITY b "&a;">]')).toThrow(/refers to itself/);
  });
});
