import { describe, expect, it } from 'vitest';
import { getProduct } from '../src/catalog/product-queries';
import { AI_SWITCH_OFF } from '../src/classification/ai-switch';
import { asActor, db, makeCatalog, makeCompany } from './helpers/factories';
import { callTool, openSession, toolError } from './mcp-helpers';
import { makeAgentUser, tokensFor } from './oauth-helpers';

async function agent(aiSwitch: boolean) {
  const user = await makeAgentUser({ aiSwitch });
  const { access_token: token } = await tokensFor(user, { scope: 'mcp' });
  const { sessionId } = await openSession(token);
  return { ...user, call: (name: string, args: Record<string, unknown>) => callTool(token, sessionId, name, args) };
}

const classified = {
  sku: 'LS-B16',
  name: 'LS B16',
  classification: { classes: [{ group: 'ETIM', code: 'EC000042' }], features: [{ code: 'EF000008', value: '230' }] },
};

describe('MCP tool upsert_products', () => {
  it('writes products through the same upsert as the REST operation and answers per item', async () => {
    const a = await agent(true);
    const catalog = await makeCatalog(a);
    const result = await a.call('upsert_products', {
      departmentId: a.departmentId,
      catalogId: catalog.catalogId,
      items: [classified, { sku: 'X', price: 'teuer' }],
    });
    expect(result.structuredContent.items.map((i: any) => [i.sku, i.status, i.field])).toEqual([
      ['LS-B16', 'created', null],
      ['X', 'error', 'price'],
    ]);
    const product = await getProduct(db(), asActor(a), result.structuredContent.items[0].productId);
    expect(product.classification!.features).toEqual([{ group: 'ETIM', code: 'EF000008', value: '230', unit: 'VLT' }]);
  });

  it('needs the switch "AI may edit classifications" for items with a classification, as the classification tools do', async () => {
    const a = await agent(false);
    const catalog = await makeCatalog(a);
    const refused = await a.call('upsert_products', {
      departmentId: a.departmentId,
      catalogId: catalog.catalogId,
      items: [classified],
    });
    expect(toolError(refused)).toEqual({ code: 'forbidden', error: AI_SWITCH_OFF });
    const plain = await a.call('upsert_products', {
      departmentId: a.departmentId,
      catalogId: catalog.catalogId,
      items: [{ sku: 'PLAIN', name: 'no classification' }],
    });
    expect(plain.structuredContent.counts).toEqual({ created: 1, updated: 0, unchanged: 0, error: 0 });
  });

  it("answers 404 for another company's catalog", async () => {
    const a = await agent(true);
    const other = await makeCompany();
    const foreign = await makeCatalog(other);
    const refused = await a.call('upsert_products', {
      departmentId: a.departmentId,
      catalogId: foreign.catalogId,
      items: [{ sku: 'A' }],
    });
    expect(toolError(refused)).toEqual({ error: 'catalog not found', code: 'not_found' });
  });
});
