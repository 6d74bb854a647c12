import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { fileFacts } from '../src/imports/read/file-facts';
import { firstRowsByReason } from '../src/imports/report/report-rows';
import { makeCatalog, makeSession } from './helpers/factories';
import { call, ORIGIN } from './helpers/http';
import { deliver } from './helpers/export-fixtures';
import { SUPPLIER_2005 } from './fixtures/supplier-2005';

const bytes = (text: string) => new TextEncoder().encode(text);

async function upload(cookie: string, body: string, fileName = 'lieferant.xml') {
  const res = await exports.default.fetch(
    new Request(`${ORIGIN}/api/Import/Upload?fileName=${fileName}`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: ORIGIN, 'Content-Type': 'application/xml' },
      body,
    }),
  );
  return ((await res.json()) as { fileId: string }).fileId;
}

async function importFile(
  session: Awaited<ReturnType<typeof makeSession>>,
  catalogId: string,
  body: string,
  dryRun: boolean,
) {
  const fileId = await upload(session.cookie, body);
  const start = await call('POST', '/api/Import/StartImport', {
    cookie: session.cookie,
    headers: { Origin: ORIGIN },
    body: { departmentId: session.departmentId, catalogId, fileId, dryRun },
  });
  expect(start.status).toBe(200);
  await deliver(start.json.jobId, 1);
  return start.json.jobId as string;
}

describe('Import/GetImport and Import/GetImports (the web import screen)', () => {
  it("answers an import with its file's facts and the report's groups with their first rows", async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant);
    const jobId = await importFile(session, catalog.catalogId, SUPPLIER_2005, true);
    const res = await call('GET', `/api/Import/GetImport?jobId=${jobId}`, { cookie: session.cookie });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      jobId,
      state: 'succeeded',
      catalogId: catalog.catalogId,
      fileName: 'lieferant.xml',
      mode: 'upsert',
      dryRun: true,
      strict: false,
      file: { format: 'BMEcat', encoding: 'utf-8', version: '2005', transaction: 'T_NEW_CATALOG', languages: ['deu'] },
      // The file's udf feature block is kept (docs/import.md, "Feature systems"): one warning, the GTIN.
      summary: { created: 3, rejected: 2, warnings: 1 },
      job: { kind: 'import', state: 'succeeded' },
    });
    // Rejections first, then warnings; each group with its rows from the report file.
    expect(
      res.json.groups.map((g: { kind: string; code: string; count: number }) => [g.kind, g.code, g.count]),
    ).toEqual([
      ['rejected', 'map_group_unknown', 1],
      ['rejected', 'sku_missing', 1],
      ['warning', 'field_invalid', 1],
    ]);
    const gtin = res.json.groups.find((g: { code: string }) => g.code === 'field_invalid');
    expect(gtin.label).toBe('field value that does not check: not stored');
    expect(gtin.rows).toEqual([
      {
        position: expect.any(Number),
        sku: 'BAD-GTIN',
        location: 'line 65: /BMECAT/T_NEW_CATALOG/PRODUCT/PRODUCT_DETAILS/INTERNATIONAL_PID',
        reason: 'gtin: GTIN check digit is wrong: "4006381333932" is not stored',
      },
    ]);
  });

  it("lists the company's imports newest first, of one catalog, with who started them, and hides them from other companies", async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant);
    const other = await makeCatalog(session.tenant, { name: 'Anderer' });
    const first = await importFile(session, catalog.catalogId, SUPPLIER_2005, true);
    const second = await importFile(session, catalog.catalogId, SUPPLIER_2005, false);
    await importFile(session, other.catalogId, SUPPLIER_2005, true);
    const page1 = await call('GET', `/api/Import/GetImports?catalogId=${catalog.catalogId}&limit=1`, {
      cookie: session.cookie,
    });
    expect(page1.json.items.map((i: { jobId: string }) => i.jobId)).toEqual([second]);
    expect(page1.json.items[0]).toMatchObject({ dryRun: false, state: 'succeeded', fileName: 'lieferant.xml' });
    expect(page1.json.items[0].startedBy).toBeTruthy();
    expect(page1.json.items[0].summary).toMatchObject({ created: 3 });
    const page2 = await call(
      'GET',
      `/api/Import/GetImports?catalogId=${catalog.catalogId}&limit=1&cursor=${page1.json.nextCursor}`,
      { cookie: session.cookie },
    );
    expect(page2.json).toMatchObject({ items: [{ jobId: first, dryRun: true }], nextCursor: null });
    const all = await call('GET', '/api/Import/GetImports', { cookie: session.cookie });
    expect(all.json.items).toHaveLength(3);

    const stranger = await makeSession();
    expect((await call('GET', '/api/Import/GetImports', { cookie: stranger.cookie })).json.items).toEqual([]);
    const foreign = await call('GET', `/api/Import/GetImport?jobId=${first}`, { cookie: stranger.cookie });
    expect(foreign).toMatchObject({ status: 404, json: { error: 'import not found' } });
  });
});

describe('fileFacts', () => {
  it('reads version, transaction with its mode and languages of a BMEcat 1.2 file in windows-1252', () => {
    const head = bytes(
      '<?xml version="1.0" encoding="Windows-1252"?><BMECAT version="1.2"><HEADER><CATALOG><LANGUAGE>deu</LANGUAGE></CATALOG></HEADER><T_UPDATE_PRODUCTS prev_version="1"><ARTICLE mode="update"/></T_UPDATE_PRODUCTS></BMECAT>',
    );
    expect(fileFacts(head)).toEqual({
      format: 'BMEcat12',
      encoding: 'windows-1252',
      version: '1.2',
      transaction: 'T_UPDATE_PRODUCTS',
      languages: ['deu'],
      problem: null,
    });
  });

  it('names the problem of a file that is neither BMEcat nor CSV instead of failing', () => {
    expect(fileFacts(bytes('%PDF-1.4'))).toMatchObject({
      format: null,
      problem: 'line 1: the file is neither BMEcat XML nor a CSV with a sku column (nor ETIM xChange JSON)',
    });
  });

  it('reads the schema version and the BCP 47 languages of an ETIM xChange file', () => {
    const head = bytes(
      '{"CatalogueId":"C1","SchemaVersion":"2.0","CatalogueDetails":[{"Language":"en-GB"}],"Supplier":[{"Product":[{"ProductDetails":[{"DescriptionLanguage":"nl-NL"}]}]}]}',
    );
    expect(fileFacts(head)).toMatchObject({
      format: 'ETIMxChange',
      version: '2.0',
      transaction: null,
      languages: ['en-GB', 'nl-NL'],
      problem: null,
    });
    expect(fileFacts(bytes('{"CatalogueId":"C1","Supplier":[]}'))).toMatchObject({
      format: 'ETIMxChange-1.1',
      version: '1.1',
    });
  });
});

describe('firstRowsByReason', () => {
  it('keeps the first rows of each group and leaves out a row cut off at the end of the head', () => {
    const report = [
      '\uFEFF# created=1 rejected=3',
      '# rejected sku_missing: 3 (…)',
      'position,kind,sku,location,reason,code',
      '1,rejected,,line 3,"no SKU, ""really""",sku_missing',
      '2,rejected,,line 4,no SKU,sku_missing',
      '3,rejected,,line 5,no SKU,sku_missing',
      '4,warning,X,line 9,"cut off',
    ].join('\r\n');
    const groups = firstRowsByReason(report, false, 2);
    expect([...groups.keys()]).toEqual(['rejected.sku_missing']);
    expect(groups.get('rejected.sku_missing')).toEqual([
      { position: 1, kind: 'rejected', sku: null, location: 'line 3', reason: 'no SKU, "really"', code: 'sku_missing' },
      { position: 2, kind: 'rejected', sku: null, location: 'line 4', reason: 'no SKU', code: 'sku_missing' },
    ]);
  });
});
