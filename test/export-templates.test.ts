import { describe, expect, it } from 'vitest';
import { exportTemplates, jobs } from '../src/db/schema';
import { eq } from 'drizzle-orm';
import { db, makeCatalog, makeCategory, makeCompany, makeSession } from './helpers/factories';
import { call } from './helpers/http';

type Session = Awaited<ReturnType<typeof makeSession>>;

const add = (session: Session | null, body: unknown) =>
  call('POST', '/api/Export/AddTemplate', { cookie: session?.cookie, body });

describe('export template CRUD', () => {
  it('adds, reads, lists, replaces and deletes a template', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const category = await makeCategory(session, catalog.catalogId, { name: 'Kabel' });
    const options = {
      namespace: '2005',
      classificationSystems: ['ETIM'],
      priceType: 'net_customer',
      categoryId: category.categoryId,
      statuses: ['active'],
      mimeRoot: 'https://media.example.com/',
      buyerName: 'Großhandel Süd',
    };
    const created = await add(session, { name: 'Großhandel', exportType: 'BMEcat', language: 'eng', options });
    expect(created.status).toBe(200);
    expect(created.json).toEqual({
      templateId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Großhandel',
      exportType: 'BMEcat',
      language: 'eng',
      options,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const { templateId } = created.json;
    const read = await call('GET', `/api/Export/GetTemplate?templateId=${templateId}`, { cookie: session.cookie });
    expect(read.json).toEqual(created.json);

    const second = await add(session, { name: 'ETIM', exportType: 'BMEcat-ETIM' });
    expect(second.json).toMatchObject({ language: 'deu', options: {} });
    const page1 = await call('GET', '/api/Export/GetTemplates?limit=1', { cookie: session.cookie });
    expect(page1.json.items.map((t: { name: string }) => t.name)).toEqual(['Großhandel']);
    const page2 = await call('GET', `/api/Export/GetTemplates?limit=1&cursor=${page1.json.nextCursor}`, {
      cookie: session.cookie,
    });
    expect(page2.json).toEqual({ items: [second.json], nextCursor: null });

    const updated = await call('POST', '/api/Export/UpdateTemplate', {
      cookie: session.cookie,
      body: { templateId, name: 'Großhandel 1.2', exportType: 'BMEcat12', options: { priceType: 'nrp' } },
    });
    expect(updated.json).toMatchObject({
      templateId,
      name: 'Großhandel 1.2',
      exportType: 'BMEcat12',
      language: 'deu',
      options: { priceType: 'nrp' },
    });
    expect(updated.json.updatedAt >= created.json.updatedAt).toBe(true);

    const deleted = await call('POST', '/api/Export/DeleteTemplate', { cookie: session.cookie, body: { templateId } });
    expect(deleted.json).toEqual({ templateId, deleted: true });
    const gone = await call('GET', `/api/Export/GetTemplate?templateId=${templateId}`, { cookie: session.cookie });
    expect(gone.status).toBe(404);
    expect(gone.json.error).toBe('export template not found');
  });

  it('refuses invalid templates with the field named, and stores nothing', async () => {
    const session = await makeSession();
    const theirs = await makeCompany();
    const theirCategory = await makeCategory(theirs, (await makeCatalog(theirs)).catalogId);
    await add(session, { name: 'Taken', exportType: 'CSV' });
    const cases: [unknown, number, string | RegExp][] = [
      [
        { name: 'x', exportType: 'PDF' },
        400,
        /^exportType: "PDF" is not supported; use one of BMEcat, BMEcat-ETIM, BMEcat12, BMEcat-2005onto, CSV/,
      ],
      [
        { name: 'x', exportType: 'BMEcat-ETIM', options: { priceType: 'gros_list' } },
        400,
        'options.priceType: "gros_list" is not a BMEcat-ETIM price type (net_customer|net_list|nrp)',
      ],
      [
        { name: 'x', exportType: 'BMEcat', options: { priceType: 'udp_my_price' } },
        400,
        /^options.priceType: "udp_my_price" is not a BMEcat price type/,
      ],
      [
        { name: 'x', exportType: 'BMEcat12', options: { namespace: '2005' } },
        400,
        'options.namespace: only for exportType BMEcat',
      ],
      [
        { name: 'x', exportType: 'BMEcat-ETIM', options: { udxVerbatim: true } },
        400,
        /^options.udxVerbatim: only for exportType BMEcat and BMEcat12/,
      ],
      [
        { name: 'x', exportType: 'BMEcat', options: { udxVerbatim: true, dropUdx: true } },
        400,
        'options.udxVerbatim: cannot be combined with options.dropUdx',
      ],
      [
        { name: 'x', exportType: 'CSV', options: { priceType: 'net_list' } },
        400,
        'options: exportType CSV takes only channelId and categoryId, not priceType',
      ],
      [{ name: 'x', exportType: 'BMEcat', options: { colour: 'red' } }, 400, 'options: unknown field(s) colour'],
      [{ name: 'x', exportType: 'BMEcat', options: { mimeRoot: 'javascript:alert(1)' } }, 400, /^options.mimeRoot: /],
      [
        { name: 'x', exportType: 'BMEcat', language: 'german' },
        400,
        'language: language must be an ISO 639-2 code such as deu or eng',
      ],
      [
        { name: 'x', exportType: 'BMEcat', language: 'qqq' },
        400,
        'language: "qqq" is not an ISO 639-2 code the BMEcat schema accepts',
      ],
      [
        { name: 'x', exportType: 'BMEcat', options: { categoryId: theirCategory.categoryId } },
        404,
        'category not found',
      ],
      [{ name: '  ', exportType: 'BMEcat' }, 400, 'name: name must not be empty'],
      [{ exportType: 'BMEcat' }, 400, 'name is required'],
      [{ name: 'Taken', exportType: 'BMEcat' }, 409, 'a template named "Taken" already exists'],
    ];
    for (const [body, status, error] of cases) {
      const res = await add(session, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (typeof error === 'string') expect(res.json.error).toBe(error);
      else expect(res.json.error).toMatch(error);
    }
    expect(await db().$count(exportTemplates, eq(exportTemplates.companyId, session.companyId))).toBe(1);
    const unauthenticated = await add(null, { name: 'x', exportType: 'BMEcat' });
    expect(unauthenticated.status).toBe(401);
    const noId = await call('POST', '/api/Export/UpdateTemplate', {
      cookie: session.cookie,
      body: { name: 'x', exportType: 'BMEcat' },
    });
    expect(noId.status).toBe(400);
    expect(noId.json.error).toBe('templateId is required');
  });

  it("keeps companies apart: another company's template is 404 everywhere and unchanged", async () => {
    const owner = await makeSession();
    const other = await makeSession();
    const created = await add(owner, { name: 'Mine', exportType: 'BMEcat' });
    const { templateId } = created.json;
    const attempts = [
      await call('GET', `/api/Export/GetTemplate?templateId=${templateId}`, { cookie: other.cookie }),
      await call('POST', '/api/Export/UpdateTemplate', {
        cookie: other.cookie,
        body: { templateId, name: 'Theirs', exportType: 'CSV' },
      }),
      await call('POST', '/api/Export/DeleteTemplate', { cookie: other.cookie, body: { templateId } }),
      await call('POST', '/api/Export/StartExport', {
        cookie: other.cookie,
        body: { departmentId: other.departmentId, catalogId: (await makeCatalog(other)).catalogId, templateId },
      }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(404);
      expect(res.json.error).toBe('export template not found');
    }
    expect((await call('GET', '/api/Export/GetTemplates', { cookie: other.cookie })).json).toEqual({
      items: [],
      nextCursor: null,
    });
    expect(
      (await call('GET', `/api/Export/GetTemplate?templateId=${templateId}`, { cookie: owner.cookie })).json,
    ).toEqual(created.json);
  });
});

describe('StartExport with a template', () => {
  it("takes the template's export type, and refuses a different one", async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const template = await add(session, { name: 'ETIM', exportType: 'BMEcat-ETIM' });
    const body = {
      departmentId: session.departmentId,
      catalogId: catalog.catalogId,
      templateId: template.json.templateId,
    };
    const started = await call('POST', '/api/Export/StartExport', { cookie: session.cookie, body });
    expect(started.status).toBe(200);
    const row = await db().query.jobs.findFirst({ where: eq(jobs.id, started.json.jobId) });
    expect(row!.params).toEqual({
      catalogId: catalog.catalogId,
      exportType: 'BMEcat-ETIM',
      templateId: template.json.templateId,
      // The origin StartExport was called on: signed media URLs in the file point there (start-export.ts).
      mediaBaseUrl: 'http://pim.test',
    });

    const clash = await call('POST', '/api/Export/StartExport', {
      cookie: session.cookie,
      body: { ...body, exportType: 'BMEcat12' },
    });
    expect(clash.status).toBe(400);
    expect(clash.json.error).toBe(
      'exportType: the template is for BMEcat-ETIM; leave exportType out or pick a template for BMEcat12',
    );
    const same = await call('POST', '/api/Export/StartExport', {
      cookie: session.cookie,
      body: { ...body, exportType: 'BMEcat-ETIM' },
    });
    expect(same.status).toBe(200);
  });
});
