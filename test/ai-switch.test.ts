import { describe, expect, it } from 'vitest';
import { upsertProducts } from '../src/catalog/upsert/upsert-api';
import { AI_SWITCH_OFF } from '../src/classification/ai-switch';
import { createClassification, listClassifications } from '../src/classification/links';
import { asActor, db, makeCatalog, makeCompany, makeProduct } from './helpers/factories';
import type { Caller } from '../src/kernel/caller';

const MCB = { name: 'MCB B16', classificationGroups: 1, classes: [{ group: 'ETIM' as const, code: 'EC000042' }] };

async function fixture() {
  const company = await makeCompany();
  const product = await makeProduct(company, (await makeCatalog(company)).catalogId);
  return { company, product };
}

/** The rule lives in the domain functions, so every surface (REST, MCP, bulk upsert) gets it from there. */
describe('the switch "AI may edit classifications" in the classification domain functions', () => {
  it.each(['agent', 'mcp'] as const)(
    'refuses an %s caller whose switch is off, and writes nothing',
    async (surface) => {
      const { company, product } = await fixture();
      const agent: Caller = { ...asActor(company), surface, aiMayEditClassifications: false };
      await expect(createClassification(db(), agent, { ...MCB, elementId: product.productId })).rejects.toMatchObject({
        code: 'forbidden',
        message: AI_SWITCH_OFF,
      });
      expect((await listClassifications(db(), asActor(company), { limit: 10 })).items).toEqual([]);
    },
  );

  it('lets an agent with the switch on and a web user (no switch) classify', async () => {
    const { company, product } = await fixture();
    const agent: Caller = { ...asActor(company), surface: 'agent', aiMayEditClassifications: true };
    await createClassification(db(), agent, { ...MCB, elementId: product.productId });
    const other = await makeProduct(company, (await makeCatalog(company)).catalogId);
    await createClassification(db(), asActor(company), { ...MCB, elementId: other.productId });
    expect((await listClassifications(db(), asActor(company), { limit: 10 })).items).toHaveLength(2);
  });

  it('refuses a bulk upsert with a classification from an agent whose switch is off, not one without', async () => {
    const { company } = await fixture();
    const catalog = await makeCatalog(company);
    const agent: Caller = { ...asActor(company), surface: 'mcp', aiMayEditClassifications: false };
    const input = { departmentId: company.departmentId, catalogId: catalog.catalogId };
    const classified = { sku: 'C-1', name: 'classified', classification: { classes: MCB.classes } };
    await expect(
      upsertProducts({ db: db(), files: null }, agent, { ...input, items: [classified] } as never),
    ).rejects.toMatchObject({ code: 'forbidden', message: AI_SWITCH_OFF });
    const plain = await upsertProducts({ db: db(), files: null }, agent, {
      ...input,
      items: [{ sku: 'P-1', name: 'plain' }],
    } as never);
    expect(plain.items.map((i) => [i.sku, i.status])).toEqual([['P-1', 'created']]);
  });
});
