import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '../src/db/schema';
import { readTranslations } from '../src/model/translation-store';
import { db, makeAttribute, makeCatalog, makeSession } from './helpers/factories';
import { deliver, insertExportJob, jobRow } from './helpers/export-fixtures';
import { importJobRow, insertImportJob, putImportFile, runImportToEnd } from './helpers/import-fixtures';
import { parseCsv } from './helpers/csv';
import { call } from './helpers/http';

type Session = Awaited<ReturnType<typeof makeSession>>;

/** Every product of a catalog by SKU: its default-language columns and its translations. */
async function textsBySku(catalogId: string) {
  const rows = await db().select().from(products).where(eq(products.catalogId, catalogId)).orderBy(products.sku);
  const stored = await readTranslations(
    db(),
    rows.map((p) => p.id),
  );
  return Object.fromEntries(rows.map((p) => [p.sku, { name: p.name, translations: stored.get(p.id) ?? {} }]));
}

async function importCsv(session: Session, catalogId: string, csv: string, languagesNotEnabled?: 'fail' | 'skip') {
  const fileId = await putImportFile(session.tenant, csv, 'catalog.csv');
  const jobId = await insertImportJob(session.tenant, {
    catalogId,
    fileId,
    ...(languagesNotEnabled ? { languagesNotEnabled } : {}),
  });
  await runImportToEnd(jobId);
  return importJobRow(jobId);
}

async function exportCsv(session: Session, catalogId: string) {
  const jobId = await insertExportJob(session.tenant, { catalogId, exportType: 'CSV', templateId: null });
  await deliver(jobId, 1);
  const row = await jobRow(jobId);
  expect(row.state).toBe('succeeded');
  return (await (await env.FILES.get(row.resultKey!))!.text()).replace(/^\uFEFF/, '');
}

describe('CSV in several languages', () => {
  it('exports a column per further language and field, and imports it back into an empty catalog with equal translations', async () => {
    const session = await makeSession();
    const options = { language: 'deu', languages: ['eng', 'fra'] };
    const source = await makeCatalog(session.tenant, { name: 'Quelle', ...options });
    const colour = await makeAttribute(session.tenant, { type: 'text', localizable: true });
    const upsert = await call('POST', '/api/Catalog/UpsertProducts', {
      cookie: session.cookie,
      headers: { Origin: 'http://pim.test' },
      body: {
        departmentId: session.departmentId,
        catalogId: source.catalogId,
        items: [
          {
            sku: 'CSV-1',
            name: 'Schalter, weiß',
            description: 'Ein "Schalter"',
            values: { [colour.code]: 'weiß' },
            translations: {
              eng: { name: 'Switch, white', keywords: 'switch', [`values.${colour.code}`]: 'white' },
              fra: { name: 'Interrupteur', description: '=formule' },
            },
            variants: [{ sku: 'CSV-1-V', name: 'Variante', translations: { fra: { name: 'Variante FR' } } }],
          },
          { sku: 'CSV-2', name: 'Nur Deutsch' },
        ],
      },
    });
    expect(upsert.json.counts).toMatchObject({ created: 3, error: 0 });

    const csv = await exportCsv(session, source.catalogId);
    const [header, ...rows] = parseCsv(csv);
    const localized = header!.filter((h) => h.includes('@'));
    expect(localized).toEqual([
      'name@eng',
      'description@eng',
      'keywords@eng',
      `${colour.code}@eng`,
      'name@fra',
      'description@fra',
      'keywords@fra',
      `${colour.code}@fra`,
    ]);
    const cell = (sku: string, column: string) => rows.find((r) => r[3] === sku)![header!.indexOf(column)];
    expect(cell('CSV-1', 'name@eng')).toBe('Switch, white');
    expect(cell('CSV-1', `${colour.code}@eng`)).toBe('white');
    // A missing translation is an empty cell, never the German text; formulas stay guarded.
    expect(cell('CSV-1', 'description@eng')).toBe('');
    expect(cell('CSV-1', 'description@fra')).toBe("'=formule");
    expect(cell('CSV-2', 'name@eng')).toBe('');

    const target = await makeCatalog(session.tenant, { name: 'Ziel', ...options });
    const job = await importCsv(session, target.catalogId, csv);
    expect(job.state).toBe('succeeded');
    expect(job.summary).toMatchObject({ created: 3, rejected: 0 });
    const before = await textsBySku(source.catalogId);
    const after = await textsBySku(target.catalogId);
    expect(after).toEqual(before);
    expect(after['CSV-1']!.translations).toEqual({
      eng: { name: 'Switch, white', keywords: 'switch', [`values.${colour.code}`]: 'white' },
      fra: { name: 'Interrupteur', description: '=formule' },
    });
    expect(after['CSV-1-V']!.translations).toEqual({ fra: { name: 'Variante FR' } });

    // The same file again changes nothing.
    const again = await importCsv(session, target.catalogId, csv);
    expect(again.summary).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
  });

  it('reads any language form in the header, the default language as the plain column, and an empty cell removes', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu', languages: ['eng', 'fra'] });
    const first = await importCsv(
      session,
      catalog.catalogId,
      'sku,name,name@en,description@FR,name@de-DE\r\nL-1,Alt,Terminal,Borne,Klemme\r\n',
    );
    expect(first.state).toBe('succeeded');
    expect((await textsBySku(catalog.catalogId))['L-1']).toEqual({
      name: 'Klemme',
      translations: { eng: { name: 'Terminal' }, fra: { description: 'Borne' } },
    });

    // An empty cell clears that language's text, as an empty cell clears a field; a column left out keeps it.
    const second = await importCsv(session, catalog.catalogId, 'sku,name@eng\r\nL-1,\r\n');
    expect(second.summary).toMatchObject({ updated: 1 });
    expect((await textsBySku(catalog.catalogId))['L-1']).toEqual({
      name: 'Klemme',
      translations: { fra: { description: 'Borne' } },
    });
  });

  it('fails before writing for a language column the company has not enabled, or skips it with a counted warning', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu', languages: ['eng'] });
    const csv = 'sku,name,name@eng,name@ita\r\nI-1,Schalter,Switch,Interruttore\r\nI-2,Taster,Button,\r\n';
    const failed = await importCsv(session, catalog.catalogId, csv);
    expect(failed.state).toBe('failed');
    expect(failed.error).toContain('Italian (ita) in 2 record(s), first at line 2');
    expect(failed.error).toContain('languagesNotEnabled: skip');
    expect(await textsBySku(catalog.catalogId)).toEqual({});

    const skipped = await importCsv(session, catalog.catalogId, csv, 'skip');
    expect(skipped.state).toBe('succeeded');
    expect(skipped.warnings).toEqual([expect.stringMatching(/^texts in Italian \(ita\) left out.*\(2×/)]);
    expect(await textsBySku(catalog.catalogId)).toEqual({
      'I-1': { name: 'Schalter', translations: { eng: { name: 'Switch' } } },
      'I-2': { name: 'Taster', translations: { eng: { name: 'Button' } } },
    });
  });
});
