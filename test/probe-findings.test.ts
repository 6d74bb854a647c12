import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { newId, UNUSABLE_ID } from '../src/kernel/ids';
import { csvField, guardFormula, unguardFormula } from '../src/exports/csv/csv-format';
import { runExportSlice } from '../src/exports/run-export';
import { contentDisposition } from '../src/kernel/content-disposition';
import { decodeCsvFile, csvRecords } from './helpers/csv';
import { insertExportJob, jobRow, testDeps } from './helpers/export-fixtures';
import { makeAttribute, makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';
import { call, ORIGIN } from './helpers/http';
import { env } from 'cloudflare:workers';

type Session = Awaited<ReturnType<typeof makeSession>>;

/** The five operations that take a client-chosen id, with a body that would succeed with a fresh id. */
async function addOperations(session: Session) {
  const catalog = await makeCatalog(session);
  return {
    AddCatalog: (id: string) =>
      ['/api/Catalog/AddCatalog', { departmentId: session.departmentId, catalogId: id, name: 'X' }] as const,
    AddCategory: (id: string) =>
      [
        '/api/Catalog/AddCategory',
        { departmentId: session.departmentId, catalogId: catalog.catalogId, categoryId: id, name: 'X' },
      ] as const,
    AddProduct: (id: string) =>
      [
        '/api/Catalog/AddProduct',
        {
          departmentId: session.departmentId,
          catalogId: catalog.catalogId,
          productId: id,
          sku: `S-${id.slice(-6)}`,
          name: 'X',
        },
      ] as const,
    AddAttribute: (id: string) =>
      ['/api/Catalog/AddAttribute', { attributeId: id, code: `c_${id.slice(-8)}`, name: 'X', type: 'text' }] as const,
    AddTemplate: (id: string) =>
      ['/api/Export/AddTemplate', { templateId: id, name: `T ${id.slice(-6)}`, exportType: 'CSV' }] as const,
  };
}

describe('client-chosen ids (docs/reliability.md)', () => {
  it("answers another company's id exactly like any unusable id: no 409 that reveals it exists", async () => {
    const a = await makeSession();
    const b = await makeSession();
    const aCatalog = await makeCatalog(a);
    const aIds = {
      AddCatalog: aCatalog.catalogId,
      AddCategory: (await makeCategory(a, aCatalog.catalogId)).categoryId,
      AddProduct: (await makeProduct(a, aCatalog.catalogId)).productId,
      AddAttribute: (await makeAttribute(a, { type: 'text' })).attributeId,
      AddTemplate: (
        await call('POST', '/api/Export/AddTemplate', { cookie: a.cookie, body: { name: 'A', exportType: 'CSV' } })
      ).json.templateId as string,
    };
    const ops = await addOperations(b);
    for (const [name, build] of Object.entries(ops)) {
      const field =
        Object.keys(build('x')[1]).find((k) => k.endsWith('Id') && k !== 'departmentId' && k !== 'catalogId') ??
        'catalogId';
      const foreign = await call('POST', ...withCookie(b, build(aIds[name as keyof typeof aIds])));
      const nil = await call('POST', ...withCookie(b, build('00000000-0000-0000-0000-000000000000')));
      expect({ name, status: foreign.status, body: foreign.json }).toEqual({
        name,
        status: 400,
        body: { error: `${field}: ${UNUSABLE_ID}`, code: 'bad_request' },
      });
      expect(nil.json).toEqual(foreign.json);
    }
  });

  it('accepts only UUIDv7 ids and lower-cases them, so an upper-case copy is the same id', async () => {
    const session = await makeSession();
    const ops = await addOperations(session);
    const fresh = newId();
    const upper = fresh.toUpperCase();
    const created = await call('POST', ...withCookie(session, ops.AddCatalog(upper)));
    expect(created.status).toBe(200);
    expect(created.json.catalogId).toBe(fresh);
    const again = await call('POST', ...withCookie(session, ops.AddCatalog(fresh)));
    expect(again.status).toBe(400);
    for (const bad of [
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      crypto.randomUUID(),
      'not-a-uuid',
    ]) {
      for (const build of Object.values(ops)) {
        const res = await call('POST', ...withCookie(session, build(bad)));
        expect(res.status).toBe(400);
        expect(res.json.error).toContain(UNUSABLE_ID);
      }
    }
  });
});

function withCookie(
  session: Session,
  [path, body]: readonly [string, unknown],
): [string, { cookie: string; body: unknown }] {
  return [path, { cookie: session.cookie, body }];
}

describe('CSV formula injection (OWASP)', () => {
  it('neutralises cells starting with = + - @, tab or CR and keeps plain numbers', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('+49 30 1234')).toBe("'+49 30 1234");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tcmd')).toBe("'\tcmd");
    expect(csvField('\rcmd')).toBe(`"'\rcmd"`);
    expect(csvField('-12.5')).toBe('-12.5');
    expect(csvField(-3)).toBe('-3');
    expect(csvField('Kabel = gut')).toBe('Kabel = gut');
  });

  it('reading takes the guard off again: every text comes back exactly, including text that looks guarded', () => {
    const texts = ['=1+1', "'=1+1", "''=1+1", '-12.5', "'-12.5", '-2+3', "'", "'quoted'", '@x', '\tcmd', 'plain', ''];
    for (const text of texts) expect(unguardFormula(guardFormula(text)), JSON.stringify(text)).toBe(text);
    expect(guardFormula("'=1+1")).toBe("''=1+1");
    expect(guardFormula("'quoted'")).toBe("'quoted'");
    expect(unguardFormula('-12.5')).toBe('-12.5');
  });

  it('writes neutralised cells into an export file', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    await makeProduct(session, catalog.catalogId, {
      sku: 'SAFE-1',
      name: '=cmd|"/c calc"!A1',
      keywords: '@risky',
      manufacturerName: '+1+1',
    });
    const jobId = await insertExportJob(session.tenant, { catalogId: catalog.catalogId, exportType: 'CSV' });
    const deps = testDeps({ sliceMs: 60_000 });
    expect(await runExportSlice(deps, await jobRow(jobId))).toBe('finished');
    const file = await env.FILES.get((await jobRow(jobId)).resultKey!);
    const [row] = csvRecords(decodeCsvFile(await file!.arrayBuffer()));
    expect(row).toMatchObject({
      sku: 'SAFE-1',
      name: `'=cmd|"/c calc"!A1`,
      keywords: "'@risky",
      manufacturerName: "'+1+1",
    });
  });
});

describe('smaller probe findings', () => {
  it('answers malformed JSON with a code', async () => {
    const session = await makeSession();
    const res = await call('POST', '/api/Catalog/AddCatalog', {
      cookie: session.cookie,
      rawBody: '{"name": ',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: expect.any(String), code: 'bad_request' });
  });

  it('refuses a NUL or other control character in q with a 400 naming q', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    await makeProduct(session, catalog.catalogId, { sku: 'ABC-1', name: 'Kabel' });
    for (const q of ['A\u0000', '\u0000', 'Ka\u0007bel']) {
      const res = await call(
        'GET',
        `/api/Catalog/GetProducts?catalogId=${catalog.catalogId}&q=${encodeURIComponent(q)}`,
        { cookie: session.cookie },
      );
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: 'q: q must not contain control characters', code: 'bad_request' });
    }
  });

  it('sends non-ASCII media file names as RFC 6266 filename* and an ASCII fallback', async () => {
    expect(contentDisposition('inline', 'Schütz "A"; ß.png')).toBe(
      `inline; filename="Schutz _A__ _.png"; filename*=UTF-8''Sch%C3%BCtz%20%22A%22%3B%20%C3%9F.png`,
    );
    const session = await makeSession();
    const product = await makeProduct(session, (await makeCatalog(session)).catalogId);
    const params = new URLSearchParams({
      departmentId: session.departmentId,
      elementId: product.productId,
      fileName: 'Prüfbericht_Ω.png',
      purpose: 'detail',
    });
    const uploaded = await exports.default.fetch(
      new Request(`${ORIGIN}/api/Media/Upload?${params}`, {
        method: 'POST',
        headers: { Cookie: session.cookie, 'Content-Type': 'image/png' },
        body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
      }),
    );
    const { mediaId } = (await uploaded.json()) as { mediaId: string };
    const res = await call('GET', `/api/Media/Get?mediaId=${mediaId}`, { cookie: session.cookie });
    expect(res.headers.get('Content-Disposition')).toBe(
      `inline; filename="Prufbericht__.png"; filename*=UTF-8''Pr%C3%BCfbericht_%CE%A9.png`,
    );
  });

  it('serves /api/docs with a CSP that allows no script and no framing', async () => {
    const res = await call('GET', '/api/docs');
    expect(res.status).toBe(200);
    const csp = res.headers.get('Content-Security-Policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('script-src');
    expect(res.headers.get('X-Frame-Options')).toBe('DENY');
  });

  it('ends the session on Logout without a JSON content type (a beacon sends text/plain)', async () => {
    for (const [headers, rawBody] of [
      [{}, undefined],
      [{ 'Content-Type': 'text/plain' }, 'bye'],
    ] as [Record<string, string>, string | undefined][]) {
      const session = await makeSession();
      const res = await call('POST', '/api/Account/Logout', { cookie: session.cookie, headers, rawBody });
      expect(res.status).toBe(200);
      expect((await call('GET', '/api/Account/Me', { cookie: session.cookie })).status).toBe(401);
    }
  });
});
