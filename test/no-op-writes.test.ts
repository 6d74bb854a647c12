import { env } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForJob } from './helpers/completeness';
import {
  classifyAsMcb,
  enableLanguages,
  makeAttribute,
  makeCatalog,
  makeCategory,
  makeProduct,
  makeSession,
  makeUser,
} from './helpers/factories';
import { loginAs } from './helpers/http';
import { callTool, openSession } from './mcp-helpers';
import { type Reply, send, tokensFor } from './oauth-helpers';

/**
 * A write that changes nothing writes nothing (docs/history.md, "A write that changes nothing"):
 * every product write is sent once as a real change (updatedAt and the revision move, one
 * version), then again unchanged: the second answers the same body and leaves updatedAt, the
 * revision, the fingerprint, the history, the scores and every row of the product untouched.
 */

/** Tables a product write can touch; a test trigger logs every row written to them. */
const WATCHED = [
  'products',
  'attribute_values',
  'translations',
  'product_prices',
  'product_references',
  'product_feature_blocks',
  'product_categories',
  'media',
  'classification_links',
  'classification_link_classes',
  'classification_link_features',
  'history_versions',
  'completeness',
  'variant_completeness',
  'completeness_dirty',
];

beforeAll(async () => {
  const statements = [env.DB.prepare('CREATE TABLE IF NOT EXISTS noop_test_writes (tbl TEXT NOT NULL)')];
  for (const table of WATCHED)
    for (const event of ['INSERT', 'UPDATE', 'DELETE'])
      statements.push(
        env.DB.prepare(
          `CREATE TRIGGER IF NOT EXISTS noop_test_${table}_${event.toLowerCase()} AFTER ${event} ON ${table}
           BEGIN INSERT INTO noop_test_writes (tbl) VALUES ('${table}'); END`,
        ),
      );
  await env.DB.batch(statements);
});

afterAll(async () => {
  const statements = [];
  for (const table of WATCHED)
    for (const event of ['insert', 'update', 'delete'])
      statements.push(env.DB.prepare(`DROP TRIGGER IF EXISTS noop_test_${table}_${event}`));
  await env.DB.batch([...statements, env.DB.prepare('DROP TABLE IF EXISTS noop_test_writes')]);
});

async function writesSoFar(): Promise<number> {
  const row = await env.DB.prepare('SELECT count(*) AS n FROM noop_test_writes').first<{ n: number }>();
  return row!.n;
}

/** What a no-op must leave as it was: the element's and its master's rows, their versions, the jobs. */
async function stateOf(companyId: string, elementId: string) {
  const rows = await env.DB.prepare(
    `SELECT id, updated_at, revision, fingerprint, fingerprint_revision FROM products
     WHERE id = ?1 OR id = (SELECT parent_id FROM products WHERE id = ?1) ORDER BY id`,
  )
    .bind(elementId)
    .all();
  const versions = await env.DB.prepare('SELECT count(*) AS n FROM history_versions WHERE company_id = ?')
    .bind(companyId)
    .first<{ n: number }>();
  const jobs = await env.DB.prepare('SELECT count(*) AS n FROM jobs WHERE company_id = ?')
    .bind(companyId)
    .first<{ n: number }>();
  return { rows: rows.results, versions: versions!.n, jobs: jobs!.n };
}

/** The editor who writes (an administrator may not authorize agents), in the admin's company. */
interface Session {
  companyId: string;
  departmentId: string;
  userId: string;
  cookie: string;
  tenant: { companyId: string; departmentId: string; userId: string; surface: 'web' };
}

interface Fixture {
  s: Session;
  catalogId: string;
  categoryId: string;
  productId: string;
  sku: string;
  variantId: string;
  post: (path: string, json: Record<string, unknown>) => Promise<Reply>;
}

async function fixture(): Promise<Fixture> {
  const admin = await makeSession({ role: 'admin' });
  const company = { companyId: admin.companyId, departmentId: admin.departmentId };
  const editor = await makeUser(company, { role: 'editor', aiSwitch: true });
  const cookie = await loginAs(editor.email);
  const s: Session = {
    companyId: admin.companyId,
    departmentId: admin.departmentId,
    userId: editor.userId,
    cookie,
    tenant: { companyId: admin.companyId, departmentId: admin.departmentId, userId: editor.userId, surface: 'web' },
  };
  await enableLanguages(s.companyId, ['deu', 'eng']);
  const catalog = await makeCatalog(s.tenant, { language: 'deu', languages: ['deu', 'eng'] });
  // A channel, so that a product write rescores it (the scores are watched too).
  const channel = await send('POST', '/api/Catalog/AddChannel', {
    cookie: admin.cookie,
    json: { name: 'Shop', languages: ['deu', 'eng'], requirements: [{ kind: 'field', field: 'description' }] },
  });
  expect(channel.status, channel.text).toBe(200);
  expect((await waitForJob(admin.cookie, channel.json.jobId)).state).toBe('succeeded');
  const category = await makeCategory(s.tenant, catalog.catalogId);
  const sku = `P-${crypto.randomUUID().slice(0, 8)}`;
  const product = await makeProduct(s.tenant, catalog.catalogId, { sku, name: 'Cable' });
  const variant = await makeProduct(s.tenant, catalog.catalogId, { parentId: product.productId, sku: `${sku}-V` });
  const post = (path: string, json: Record<string, unknown>) =>
    send('POST', path, { cookie: s.cookie, json: { departmentId: s.departmentId, ...json } });
  return {
    s,
    catalogId: catalog.catalogId,
    categoryId: category.categoryId,
    productId: product.productId,
    sku,
    variantId: variant.productId,
    post,
  };
}

interface Case {
  /** The element whose state (and its master's) is watched; default the product. */
  element?: (f: Fixture) => string;
  /** Runs before the first request (what the request needs that is not the change itself). */
  prepare?: (f: Fixture) => Promise<void>;
  /** The request, sent twice: the first is a real change, the second changes nothing. */
  request: (f: Fixture) => Promise<Reply>;
}

const REST: Record<string, Case> = {
  'UpdateProduct (fields and placements)': {
    request: (f) =>
      f.post('/api/Catalog/UpdateProduct', {
        catalogId: f.catalogId,
        productId: f.productId,
        name: 'Cable NYM-J',
        price: '12.5',
        categoryIds: [f.categoryId],
      }),
  },
  'UpdateProduct (a variant)': {
    element: (f) => f.variantId,
    request: (f) =>
      f.post('/api/Catalog/UpdateProduct', {
        catalogId: f.catalogId,
        productId: f.variantId,
        name: 'Cable 3x1.5',
        gtin: '4006209123454',
      }),
  },
  'UpdateProduct (translations)': {
    request: (f) =>
      f.post('/api/Catalog/UpdateProduct', {
        catalogId: f.catalogId,
        productId: f.productId,
        translations: { eng: { name: 'Sheathed cable', description: 'PVC' } },
      }),
  },
  'SetValue (built-in field)': {
    request: (f) => f.post('/api/Catalog/SetValue', { elementId: f.productId, field: 'description', value: 'Grey' }),
  },
  'SetValue (a variant, integer field)': {
    element: (f) => f.variantId,
    request: (f) => f.post('/api/Catalog/SetValue', { elementId: f.variantId, field: 'deliveryTimeDays', value: '3' }),
  },
  'SetValue (attribute)': {
    prepare: async (f) => {
      await makeAttribute(f.s.tenant, { code: 'cross_section', type: 'number', unit: 'mm2' });
    },
    request: (f) => f.post('/api/Catalog/SetValue', { elementId: f.productId, field: 'cross_section', value: '1.5' }),
  },
  'SetValue (classification feature)': {
    prepare: async (f) => {
      await classifyAsMcb(f.s.tenant, f.productId);
    },
    request: (f) => f.post('/api/Catalog/SetValue', { elementId: f.productId, field: 'EF000008', value: '230' }),
  },
  'SetValue (a translation)': {
    request: (f) =>
      f.post('/api/Catalog/SetValue', { elementId: f.productId, field: 'name', value: 'Cable', language: 'eng' }),
  },
  SetPrices: {
    request: (f) =>
      f.post('/api/Catalog/SetPrices', {
        productId: f.productId,
        prices: [
          { type: 'net_customer', amount: '9.90' },
          { type: 'nrp', amount: '14.90' },
        ],
      }),
  },
  SetReferences: {
    prepare: async (f) => {
      await makeProduct(f.s.tenant, f.catalogId, { sku: `${f.sku}-ACC` });
    },
    request: (f) =>
      f.post('/api/Catalog/SetReferences', {
        productId: f.productId,
        references: [
          { type: 'accessories', targetSku: `${f.sku}-ACC`, quantity: 2 },
          { type: 'similar', targetSku: 'ELSEWHERE-1' },
        ],
      }),
  },
  SetFeatureBlocks: {
    request: (f) =>
      f.post('/api/Catalog/SetFeatureBlocks', {
        productId: f.productId,
        featureBlocks: [{ system: 'UNSPSC', groupId: '39121400', features: [{ name: 'Colour', values: ['grey'] }] }],
      }),
  },
  SetElementClassification: {
    request: (f) =>
      f.post('/api/Classification/SetElementClassification', {
        elementId: f.productId,
        classes: [{ group: 'ETIM', code: 'EC000042' }],
        features: [{ code: 'EF000008', value: '230' }],
      }),
  },
  'Media/UpdateLink': {
    prepare: async (f) => {
      const link = await f.post('/api/Media/AddLink', { elementId: f.productId, url: 'https://files.example/a.pdf' });
      expect(link.status, link.text).toBe(200);
      (f as Fixture & { mediaId?: string }).mediaId = link.json.mediaId;
    },
    request: (f) =>
      f.post('/api/Media/UpdateLink', {
        mediaId: (f as Fixture & { mediaId?: string }).mediaId,
        purpose: 'data_sheet',
        description: 'Data sheet',
      }),
  },
  'Media/UpdateMedia (default language and another)': {
    prepare: async (f) => {
      const link = await f.post('/api/Media/AddLink', { elementId: f.productId, url: 'https://files.example/b.pdf' });
      expect(link.status, link.text).toBe(200);
      (f as Fixture & { mediaId?: string }).mediaId = link.json.mediaId;
    },
    request: async (f) => {
      const mediaId = (f as Fixture & { mediaId?: string }).mediaId;
      const own = await f.post('/api/Media/UpdateMedia', { mediaId, description: 'Zeichnung' });
      expect(own.status, own.text).toBe(200);
      return f.post('/api/Media/UpdateMedia', { mediaId, description: 'Drawing', language: 'eng' });
    },
  },
  'Media/Reorder': {
    prepare: async (f) => {
      const ids: string[] = [];
      for (const url of ['https://files.example/1.jpg', 'https://files.example/2.jpg']) {
        const link = await f.post('/api/Media/AddLink', { elementId: f.productId, url });
        expect(link.status, link.text).toBe(200);
        ids.push(link.json.mediaId);
      }
      (f as Fixture & { mediaIds?: string[] }).mediaIds = ids.reverse();
    },
    request: (f) =>
      f.post('/api/Media/Reorder', {
        elementId: f.productId,
        mediaIds: (f as Fixture & { mediaIds?: string[] }).mediaIds,
      }),
  },
};

/** A bearer token of the fixture's editor (who may edit classifications) for `/api/ai` or MCP. */
async function tokenOf(f: Fixture, scope: 'api' | 'mcp') {
  return (await tokensFor({ session: f.s.cookie }, { scope })).access_token;
}

const agentCases = new Map<Fixture, string>();
async function agentPost(f: Fixture, path: string, json: Record<string, unknown>) {
  if (!agentCases.has(f)) agentCases.set(f, await tokenOf(f, 'api'));
  return send('POST', `/api/ai/${path}`, { token: agentCases.get(f), json });
}

const mcpSessions = new Map<Fixture, { token: string; sessionId: string }>();
/** One MCP tool call as a Reply: 200 with the structured result, 400 when the tool answered an error. */
async function tool(f: Fixture, name: string, args: Record<string, unknown>): Promise<Reply> {
  if (!mcpSessions.has(f)) {
    const token = await tokenOf(f, 'mcp');
    mcpSessions.set(f, { token, sessionId: (await openSession(token)).sessionId });
  }
  const { token, sessionId } = mcpSessions.get(f)!;
  const result = await callTool(token, sessionId, name, args);
  return {
    status: result.isError ? 400 : 200,
    headers: new Headers(),
    json: result.structuredContent,
    text: JSON.stringify(result),
  };
}

const AGENTS: Record<string, Case> = {
  'SetValue (/api/ai)': {
    request: (f) => agentPost(f, 'SetValue', { elementId: f.productId, field: 'name', value: 'Cable (agent)' }),
  },
  'UpdateProduct (/api/ai)': {
    request: (f) =>
      agentPost(f, 'UpdateProduct', {
        catalogId: f.catalogId,
        productId: f.productId,
        keywords: 'cable, NYM',
        translations: { eng: { keywords: 'cable' } },
      }),
  },
  'UpdateClassification (/api/ai)': {
    prepare: async (f) => {
      const link = await classifyAsMcb(f.s.tenant, f.productId);
      (f as Fixture & { linkId?: string }).linkId = link.linkId;
    },
    request: (f) =>
      agentPost(f, 'UpdateClassification', {
        linkId: (f as Fixture & { linkId?: string }).linkId,
        name: 'MCB B16',
        classificationGroups: 1,
        classes: [{ group: 'ETIM', code: 'EC000042' }],
        features: [{ code: 'EF000008', value: '400' }],
      }),
  },
  'set_value (MCP)': {
    request: (f) => tool(f, 'set_value', { elementId: f.productId, field: 'description', value: 'Für Innenräume' }),
  },
  'set_prices (MCP)': {
    request: (f) => tool(f, 'set_prices', { productId: f.productId, prices: [{ type: 'nrp', amount: '19.90' }] }),
  },
  'update_product (MCP, translations)': {
    request: (f) => tool(f, 'update_product', { productId: f.productId, translations: { eng: { name: 'Cable' } } }),
  },
};

/** Sends the case's request twice and checks that the second one wrote nothing. */
async function expectSecondChangesNothing(f: Fixture, c: Case) {
  const elementId = c.element?.(f) ?? f.productId;
  await c.prepare?.(f);
  const before = await stateOf(f.s.companyId, elementId);
  const first = await c.request(f);
  expect(first.status, first.text).toBe(200);
  const changed = await stateOf(f.s.companyId, elementId);
  // The first request is a real change: a version, a new revision and updatedAt of the master.
  expect(changed.versions).toBeGreaterThan(before.versions);
  expect(changed.rows).not.toEqual(before.rows);
  const writes = await writesSoFar();
  const second = await c.request(f);
  expect(second.status, second.text).toBe(200);
  expect(second.json).toEqual(first.json);
  expect(await stateOf(f.s.companyId, elementId)).toEqual(changed);
  expect(await writesSoFar()).toBe(writes);
}

describe('A write that changes nothing writes nothing', () => {
  it.each(Object.entries(REST))('%s (REST)', async (_name, c) => {
    await expectSecondChangesNothing(await fixture(), c);
  });

  it.each(Object.entries(AGENTS))('%s', async (_name, c) => {
    await expectSecondChangesNothing(await fixture(), c);
  });
});

describe('Bulk writes leave an unchanged product alone', () => {
  it('UpsertProducts answers an identical product unchanged and writes nothing for it', async () => {
    const f = await fixture();
    const attribute = await makeAttribute(f.s.tenant, { type: 'text' });
    const item = {
      sku: f.sku,
      name: 'Cable NYM-J 3x1.5',
      description: 'Sheathed cable',
      price: '12.50',
      values: { [attribute.code]: 'PVC' },
      categoryIds: [f.categoryId],
      translations: { eng: { name: 'Sheathed cable' } },
      references: [{ type: 'similar', targetSku: 'ELSEWHERE-1' }],
      variants: [{ sku: `${f.sku}-V`, name: 'Ring 100 m' }],
    };
    const upsert = () => f.post('/api/Catalog/UpsertProducts', { catalogId: f.catalogId, items: [item] });
    const first = await upsert();
    expect(first.status, first.text).toBe(200);
    // The master and its variant.
    expect(first.json.counts).toEqual({ created: 0, updated: 2, unchanged: 0, error: 0 });
    const changed = await stateOf(f.s.companyId, f.variantId);
    const writes = await writesSoFar();
    const second = await upsert();
    expect(second.status, second.text).toBe(200);
    expect(second.json.counts).toEqual({ created: 0, updated: 0, unchanged: 2, error: 0 });
    expect(second.json.items[0]).toMatchObject({ sku: f.sku, status: 'unchanged', productId: f.productId });
    expect(await stateOf(f.s.companyId, f.variantId)).toEqual(changed);
    expect(await writesSoFar()).toBe(writes);
  });

  it('a mass edit setting a value to what it is counts it unchanged and writes nothing for it', async () => {
    const f = await fixture();
    const edit = async () => {
      const res = await f.post('/api/Catalog/StartMassEdit', {
        catalogId: f.catalogId,
        productIds: [f.productId],
        field: 'manufacturerName',
        value: 'Acme',
      });
      expect(res.status, res.text).toBe(200);
      const job = await waitForJob(f.s.cookie, res.json.jobId);
      expect(job.state).toBe('succeeded');
      return job.result.report;
    };
    expect(await edit()).toMatchObject({ updated: 1, unchanged: 0 });
    const changed = await stateOf(f.s.companyId, f.productId);
    const writes = await writesSoFar();
    expect(await edit()).toMatchObject({ updated: 0, unchanged: 1 });
    // The job itself is a row of its own; the product, its versions and its scores are not touched.
    expect(await stateOf(f.s.companyId, f.productId)).toEqual({ ...changed, jobs: changed.jobs + 1 });
    expect(await writesSoFar()).toBe(writes);
  });

  it('SetValue of a category leaves it as it is when the value is the same', async () => {
    const f = await fixture();
    const category = () =>
      env.DB.prepare('SELECT updated_at, name FROM categories WHERE id = ?').bind(f.categoryId).first();
    const rename = () => f.post('/api/Catalog/SetValue', { elementId: f.categoryId, field: 'name', value: 'Cables' });
    const first = await rename();
    expect(first.status, first.text).toBe(200);
    const renamed = await category();
    const versions = (await stateOf(f.s.companyId, f.productId)).versions;
    const second = await rename();
    expect(second.json).toEqual(first.json);
    expect(await category()).toEqual(renamed);
    expect((await stateOf(f.s.companyId, f.productId)).versions).toBe(versions);
  });
});
