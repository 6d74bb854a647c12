import { describe, expect, it } from 'vitest';
import { addCategory } from '../src/catalog/categories';
import { AI_SWITCH_OFF } from '../src/classification/ai-switch';
import { createClassification } from '../src/classification/links';
import { asActor, db, makeCatalog, makeCompany, makeProduct, makeUser } from './helpers/factories';
import { etimFiles, loadRelease } from './helpers/release-fixtures';
import { etimIxfFile } from './helpers/release-ixf-fixture';
import { callTool, openSession, sessionCall, toolError } from './mcp-helpers';
import { makeAgentUser, tokensFor } from './oauth-helpers';

/** A user (own company) with an open MCP session. */
async function agent(options: { aiSwitch?: boolean } = {}) {
  const user = await makeAgentUser({ aiSwitch: options.aiSwitch ?? true });
  const { access_token: token } = await tokensFor(user, { scope: 'mcp' });
  const { sessionId } = await openSession(token);
  return {
    ...user,
    token,
    sessionId,
    call: (name: string, args: Record<string, unknown> = {}) => callTool(token, sessionId, name, args),
  };
}

const MCB = {
  name: 'MCB B16',
  classificationGroups: 1,
  classes: [{ group: 'ETIM' as const, code: 'EC000042' }],
  features: [{ code: 'EF000008', value: '230' }],
};

describe('MCP tools', () => {
  it('lists every tool with title, schemas and read-only / destructive hints', async () => {
    const a = await agent();
    const { response } = await sessionCall(a.token, a.sessionId, 'tools/list');
    const tools = response.result.tools as any[];
    expect(tools.map((t) => t.name)).toEqual([
      'get_statistics',
      'list_catalogs',
      'get_catalog',
      'list_categories',
      'search_products',
      'get_product',
      'upsert_products',
      'get_classification_groups',
      'list_classifications',
      'get_classification',
      'create_classification',
      'update_classification',
      'delete_classification',
      'list_classification_releases',
      'search_classes',
      'list_class_groups',
      'get_class_features',
      'preview_release_upgrade',
      'start_export',
      'get_job',
      'get_history',
      'get_changes',
      'list_sync_connections',
      'list_sync_runs',
      'set_prices',
      'set_references',
      'set_value',
      'update_product',
      'list_channels',
      'list_incomplete_products',
      'get_product_completeness',
      'submit_for_review',
      'get_review_inbox',
      'get_review_state',
    ]);
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema.type, tool.name).toBe('object');
      expect(typeof tool.annotations.readOnlyHint, tool.name).toBe('boolean');
      expect(typeof tool.annotations.destructiveHint, tool.name).toBe('boolean');
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.get_product.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.get_history.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.update_classification.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.delete_classification.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.set_prices.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(Object.keys(byName.update_classification.inputSchema.properties)).toContain('features');
    expect(byName.search_products.inputSchema.required).toEqual(['catalogId']);
  });

  it("get_statistics counts the department; another company's department is refused", async () => {
    const a = await agent();
    const catalog = await makeCatalog(a);
    await makeProduct(a, catalog.catalogId);
    expect((await a.call('get_statistics')).structuredContent).toEqual({ catalogs: 1, categories: 0, products: 1 });
    const other = await makeCompany();
    const refused = await a.call('get_statistics', { departmentId: other.departmentId });
    expect(toolError(refused)).toEqual({
      error: 'departmentId does not name a department of your company',
      code: 'forbidden',
    });
  });

  it('list_catalogs pages with nextCursor; get_catalog reads one and hides other companies', async () => {
    const a = await agent();
    const first = await makeCatalog(a, { name: 'Elektro 2026' });
    const second = await makeCatalog(a, { name: 'Licht 2026' });
    const page1 = (await a.call('list_catalogs', { limit: 1 })).structuredContent;
    expect(page1.items).toHaveLength(1);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const page2 = (await a.call('list_catalogs', { limit: 1, cursor: page1.nextCursor })).structuredContent;
    expect([page1.items[0].name, page2.items[0].name].sort()).toEqual(['Elektro 2026', 'Licht 2026']);
    expect(page2.nextCursor).toBeNull();
    expect((await a.call('get_catalog', { catalogId: second.catalogId })).structuredContent).toMatchObject({
      catalogId: second.catalogId,
      name: 'Licht 2026',
    });
    const foreign = await makeCatalog(await makeCompany());
    expect(toolError(await a.call('get_catalog', { catalogId: foreign.catalogId }))).toEqual({
      error: 'catalog not found',
      code: 'not_found',
    });
    expect(toolError(await a.call('list_catalogs', { cursor: '%%%' }))).toEqual({
      error: 'cursor is not valid',
      code: 'bad_request',
    });
    expect(first.catalogId).not.toBe(second.catalogId);
  });

  it('list_categories walks the tree; an unknown catalog is not found', async () => {
    const a = await agent();
    const catalog = await makeCatalog(a);
    const top = await addCategory(db(), asActor(a), {
      departmentId: a.departmentId,
      catalogId: catalog.catalogId,
      name: 'Schutzgeräte',
    });
    await addCategory(db(), asActor(a), {
      departmentId: a.departmentId,
      catalogId: catalog.catalogId,
      parentId: top.categoryId,
      name: 'Leitungsschutzschalter',
    });
    const roots = (await a.call('list_categories', { catalogId: catalog.catalogId })).structuredContent;
    expect(roots.items.map((c: any) => c.name)).toEqual(['Schutzgeräte']);
    const children = (await a.call('list_categories', { catalogId: catalog.catalogId, parentId: top.categoryId }))
      .structuredContent;
    expect(children.items.map((c: any) => c.name)).toEqual(['Leitungsschutzschalter']);
    expect(toolError(await a.call('list_categories', { catalogId: crypto.randomUUID() }))).toEqual({
      error: 'catalog not found',
      code: 'not_found',
    });
  });

  it('search_products finds words by prefix in SKU and name, accents ignored; malformed input is a tool error', async () => {
    const a = await agent();
    const catalog = await makeCatalog(a);
    await makeProduct(a, catalog.catalogId, { sku: 'NYM-J-3x1.5', name: 'Mantelleitung NYM-J 3x1,5' });
    await makeProduct(a, catalog.catalogId, { sku: 'LS-B16', name: 'Leitungsschutzschalter B16' });
    const bySku = (await a.call('search_products', { catalogId: catalog.catalogId, query: 'NYM' })).structuredContent;
    expect(bySku.items.map((p: any) => p.sku)).toEqual(['NYM-J-3x1.5']);
    const byName = (await a.call('search_products', { catalogId: catalog.catalogId, query: 'LEITUNGSSCHÜTZ' }))
      .structuredContent;
    expect(byName.items.map((p: any) => p.sku)).toEqual(['LS-B16']);
    const malformed = await a.call('search_products', { catalogId: 'not-a-uuid' });
    expect(malformed.isError).toBe(true);
    expect(malformed.content[0]!.text).toMatch(/catalogId/);
    const foreign = await makeCatalog(await makeCompany());
    expect(toolError(await a.call('search_products', { catalogId: foreign.catalogId }))).toEqual({
      error: 'catalog not found',
      code: 'not_found',
    });
  });

  it('get_product returns values, variants and classification; an unknown id is not found', async () => {
    const a = await agent();
    const catalog = await makeCatalog(a);
    const master = await makeProduct(a, catalog.catalogId, { sku: 'LS-B', name: 'LS-Schalter' });
    await makeProduct(a, catalog.catalogId, { sku: 'LS-B16', parentId: master.productId });
    const link = await createClassification(db(), asActor(a), { ...MCB, elementId: master.productId });
    const product = (await a.call('get_product', { productId: master.productId })).structuredContent;
    expect(product).toMatchObject({
      productId: master.productId,
      sku: 'LS-B',
      variants: [{ sku: 'LS-B16', parentId: master.productId }],
    });
    expect(product.classification).toMatchObject({
      linkId: link.linkId,
      classes: [{ group: 'ETIM', code: 'EC000042' }],
      features: [{ code: 'EF000008', value: '230' }],
    });
    expect(toolError(await a.call('get_product', { productId: crypto.randomUUID() }))).toEqual({
      error: 'product not found',
      code: 'not_found',
    });
  });

  it('get_classification_groups lists the bitmask; unknown arguments are refused', async () => {
    const a = await agent();
    expect((await a.call('get_classification_groups')).structuredContent).toEqual({
      items: [
        { value: 1, code: 'ETIM', label: 'ETIM' },
        { value: 2, code: 'ECLASS', label: 'eCl@ss' },
        { value: 4, code: 'PROFICLASS', label: 'proficl@ss' },
      ],
    });
    const extra = await a.call('get_classification_groups', { group: 'ETIM' });
    expect(extra.isError).toBe(true);
    expect(extra.content[0]!.text).toMatch(/group/);
  });

  it("list_classifications and get_classification read links; another company's link is not found", async () => {
    const a = await agent();
    const catalog = await makeCatalog(a);
    const product = await makeProduct(a, catalog.catalogId);
    const link = await createClassification(db(), asActor(a), { ...MCB, elementId: product.productId });
    const list = (await a.call('list_classifications', { elementId: product.productId })).structuredContent;
    expect(list).toEqual({ items: [{ linkId: link.linkId, name: 'MCB B16' }], nextCursor: null });
    const got = (await a.call('get_classification', { linkId: link.linkId })).structuredContent;
    expect(got).toMatchObject({
      elementId: product.productId,
      classes: [{ code: 'EC000042', name: 'Miniature circuit breaker (MCB)' }],
      features: [{ code: 'EF000008', name: 'Rated voltage', value: '230', unit: 'VLT' }],
    });
    const them = await makeCompany();
    const theirLink = await createClassification(db(), asActor(them), {
      ...MCB,
      elementId: (await makeProduct(them, (await makeCatalog(them)).catalogId)).productId,
    });
    expect(toolError(await a.call('get_classification', { linkId: theirLink.linkId }))).toEqual({
      error: 'classification not found',
      code: 'not_found',
    });
    expect(toolError(await a.call('list_classifications', { cursor: '%%%' }))).toEqual({
      error: 'cursor is not valid',
      code: 'bad_request',
    });
  });

  it('create_classification writes when the switch is on and explains unknown codes', async () => {
    const a = await agent({ aiSwitch: true });
    const product = await makeProduct(a, (await makeCatalog(a)).catalogId);
    const created = (await a.call('create_classification', { ...MCB, elementId: product.productId })).structuredContent;
    expect(created).toMatchObject({
      elementId: product.productId,
      classificationGroups: 1,
      features: [{ code: 'EF000008', value: '230' }],
    });
    const other = await makeProduct(a, (await makeCatalog(a)).catalogId);
    const unknown = await a.call('create_classification', {
      ...MCB,
      elementId: other.productId,
      classes: [{ group: 'ETIM', code: 'EC999999' }],
    });
    expect(toolError(unknown)).toEqual({ error: 'classes: EC999999 is not a known ETIM class', code: 'bad_request' });
  });

  it('refuses both classification writes when the switch is off, and changes nothing', async () => {
    const a = await agent({ aiSwitch: false });
    const product = await makeProduct(a, (await makeCatalog(a)).catalogId);
    const refused = toolError(await a.call('create_classification', { ...MCB, elementId: product.productId }));
    expect(refused).toEqual({ error: AI_SWITCH_OFF, code: 'forbidden' });
    const link = await createClassification(db(), asActor(a), { ...MCB, elementId: product.productId });
    expect(toolError(await a.call('update_classification', { linkId: link.linkId, name: 'renamed' })).code).toBe(
      'forbidden',
    );
    expect((await a.call('get_classification', { linkId: link.linkId })).structuredContent.name).toBe('MCB B16');
  });

  it('refuses a caller without the switch before looking at the input: forbidden, not a validation error', async () => {
    const a = await agent({ aiSwitch: false });
    const product = await makeProduct(a, (await makeCatalog(a)).catalogId);
    const link = await createClassification(db(), asActor(a), { ...MCB, elementId: product.productId });
    const read = (await a.call('get_classification', { linkId: link.linkId })).structuredContent;
    for (const [tool, input] of [
      ['update_classification', read],
      ['update_classification', { linkId: 'not-a-uuid', classes: 'garbage' }],
      ['create_classification', { nonsense: true }],
      ['delete_classification', {}],
    ] as const) {
      expect(toolError(await a.call(tool, input)), tool).toEqual({ error: AI_SWITCH_OFF, code: 'forbidden' });
    }
    expect((await a.call('get_classification', { linkId: link.linkId })).structuredContent).toEqual(read);
  });

  it('update_classification takes back what get_classification returned, with one value changed', async () => {
    const a = await agent();
    const product = await makeProduct(a, (await makeCatalog(a)).catalogId);
    const link = await createClassification(db(), asActor(a), { ...MCB, elementId: product.productId });
    const read = (await a.call('get_classification', { linkId: link.linkId })).structuredContent;
    expect(read.classes[0].name).toEqual(expect.any(String));
    const features = read.features.map((f: any) => (f.code === 'EF000008' ? { ...f, value: '400' } : f));
    const written = await a.call('update_classification', { ...read, features });
    expect(written.isError, written.content[0]!.text).toBeFalsy();
    expect(written.structuredContent).toEqual({ ...read, features });
    const invalid = toolError(await a.call('update_classification', { ...read, classes: [] }));
    expect(invalid).toEqual({ error: expect.stringContaining('classes'), code: 'bad_request' });
  });

  it('delete_classification removes a classification; the element reads as unclassified', async () => {
    const a = await agent();
    const product = await makeProduct(a, (await makeCatalog(a)).catalogId);
    const link = await createClassification(db(), asActor(a), { ...MCB, elementId: product.productId });
    expect((await a.call('delete_classification', { linkId: link.linkId })).structuredContent).toEqual({
      linkId: link.linkId,
      deleted: true,
    });
    expect((await a.call('list_classifications', { elementId: product.productId })).structuredContent.items).toEqual(
      [],
    );
    expect(toolError(await a.call('delete_classification', { linkId: link.linkId })).code).toBe('not_found');
  });

  it('update_classification replaces feature values; an unknown link is not found', async () => {
    const a = await agent();
    const product = await makeProduct(a, (await makeCatalog(a)).catalogId);
    const link = await createClassification(db(), asActor(a), { ...MCB, elementId: product.productId });
    const updated = (
      await a.call('update_classification', {
        linkId: link.linkId,
        name: 'MCB C16',
        features: [{ code: 'EF000133', value: '16' }],
      })
    ).structuredContent;
    expect(updated).toMatchObject({
      linkId: link.linkId,
      name: 'MCB C16',
      features: [{ code: 'EF000133', value: '16', unit: 'AMP' }],
    });
    expect(updated.features).toHaveLength(1);
    expect(toolError(await a.call('update_classification', { linkId: crypto.randomUUID(), name: 'x' }))).toEqual({
      error: 'classification not found',
      code: 'not_found',
    });
  });

  it('start_export queues a job that get_job follows; unknown formats and jobs are errors', async () => {
    const a = await agent();
    const catalog = await makeCatalog(a);
    await makeProduct(a, catalog.catalogId);
    const started = (await a.call('start_export', { catalogId: catalog.catalogId, exportType: 'CSV' }))
      .structuredContent;
    expect(started).toEqual({ jobId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const job = (await a.call('get_job', { jobId: started.jobId })).structuredContent;
    expect(job).toMatchObject({
      jobId: started.jobId,
      kind: 'export',
      state: expect.stringMatching(/queued|running|succeeded/),
    });
    const unknown = toolError(await a.call('start_export', { catalogId: catalog.catalogId, exportType: 'PDF' }));
    expect(unknown.code).toBe('bad_request');
    expect(unknown.error).toMatch(/"PDF" is not supported/);
    expect(toolError(await a.call('get_job', { jobId: crypto.randomUUID() }))).toEqual({
      error: 'job not found',
      code: 'not_found',
    });
  });
});

describe('MCP release tools', () => {
  it("list_class_groups answers a release's groups, each a group search_classes narrows to", async () => {
    const a = await agent();
    const admin = await makeUser(await makeCompany(), { role: 'admin' });
    const version = `g${crypto.randomUUID().slice(0, 8)}`;
    await loadRelease(admin, { system: 'ETIM', version, format: 'ETIM_XML', files: etimIxfFile() });
    const groups = await a.call('list_class_groups', { release: `ETIM-${version}`, lang: 'de' });
    expect(groups.structuredContent.items).toEqual([
      { code: 'EG000017', name: 'Installationsmaterial', lang: 'de-DE' },
      { code: 'EG000020', name: 'Cable management', lang: 'en' },
    ]);
    const inGroup = await a.call('search_classes', { release: `ETIM-${version}`, q: 'EC', group: 'EG000020' });
    expect(inGroup.structuredContent.items.map((c: any) => c.code)).toEqual(['EC000042']);
    expect(toolError(await a.call('list_class_groups', { release: 'ETIM-0.0' }))).toEqual({
      error: 'release ETIM-0.0 is not loaded',
      code: 'not_found',
    });
  });

  it('search_classes and get_class_features read a loaded release; a release not loaded is a tool error', async () => {
    const a = await agent();
    const admin = await makeUser(await makeCompany(), { role: 'admin' });
    const version = `m${crypto.randomUUID().slice(0, 8)}`;
    await loadRelease(admin, { system: 'ETIM', version, files: etimFiles() });
    const found = await a.call('search_classes', { release: `ETIM-${version}`, q: 'cable tie' });
    expect(found.structuredContent.items.map((c: any) => [c.code, c.name])).toEqual([['EC000905', 'Cable tie']]);
    const features = await a.call('get_class_features', { release: `ETIM-${version}`, classCode: 'EC000905' });
    expect(features.structuredContent.features.map((f: any) => f.code)).toEqual([
      'EF000008',
      'EF000007',
      'EF000139',
      'EF000001',
    ]);
    const releases = await a.call('list_classification_releases');
    expect(
      releases.structuredContent.items.some((r: any) => r.release === `ETIM-${version}` && r.status === 'loaded'),
    ).toBe(true);
    expect(toolError(await a.call('search_classes', { release: 'ETIM-0.0', q: 'x' }))).toEqual({
      error: 'release ETIM-0.0 is not loaded',
      code: 'not_found',
    });
  });
});
