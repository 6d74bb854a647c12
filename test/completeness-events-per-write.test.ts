import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { updateClassification } from '../src/classification/links';
import { completenessEventsHold, domainEvents } from '../src/db/schema';
import { get, post, shopSetup, waitForJob } from './helpers/completeness';
import { asActor, classifyAsMcb, db, makeCategory, makeProduct } from './helpers/factories';

/**
 * The writes of several statements on one product beyond AddProduct / UpdateProduct / SetValue /
 * RestoreVersion (prices, classification, media, a category's deletion) compare the product's
 * completeness once, at the end of the write (src/db/completeness-flush.ts): a price list
 * replaced by another (its rows deleted, then inserted) sends no lost-then-reached pair.
 */
type Admin = Awaited<ReturnType<typeof shopSetup>>['admin'];

async function channel(admin: Admin, requirements: unknown[]) {
  const res = await post(admin.cookie, '/api/Catalog/AddChannel', { name: 'Shop', languages: ['deu'], requirements });
  expect(res.status, res.text).toBe(200);
  expect((await waitForJob(admin.cookie, res.json.jobId)).state).toBe('succeeded');
  return res.json.channelId as string;
}

/** The company's completeness events written since the last call, oldest first, then forgotten. */
async function drain(companyId: string) {
  const where = and(eq(domainEvents.companyId, companyId), like(domainEvents.eventType, 'completeness.%'));
  const rows = await db().select().from(domainEvents).where(where).orderBy(domainEvents.at);
  await db().delete(domainEvents).where(where);
  return rows.map((r) => [r.eventType, (JSON.parse(r.data) as { productId: string }).productId]);
}

describe('Completeness events: one comparison per write of several statements', () => {
  it('SetPrices replacing a complete price list sends nothing; setting and clearing it send one event each', async () => {
    const { admin, catalog } = await shopSetup();
    const product = await makeProduct(admin.tenant, catalog.catalogId);
    await channel(admin, [{ kind: 'price', priceType: 'nrp' }]);
    await drain(admin.companyId);
    const setPrices = async (prices: unknown[], clear?: boolean) => {
      const res = await post(admin.cookie, '/api/Catalog/SetPrices', {
        departmentId: admin.departmentId,
        productId: product.productId,
        prices,
        ...(clear ? { clear } : {}),
      });
      expect(res.status, res.text).toBe(200);
    };
    await setPrices([{ type: 'nrp', amount: '9.90' }]);
    expect(await drain(admin.companyId)).toEqual([['completeness.reached', product.productId]]);
    // the rows are deleted, then the new ones inserted: complete before and after
    await setPrices([
      { type: 'nrp', amount: '12.50' },
      { type: 'nrp', amount: '11.00', lowerBound: '10' },
    ]);
    expect(await drain(admin.companyId)).toEqual([]);
    await setPrices([], true);
    expect(await drain(admin.companyId)).toEqual([['completeness.lost', product.productId]]);
  });

  it('a classification rewritten (its classes deleted, then inserted) sends nothing; a failed write nothing either', async () => {
    const { admin, catalog } = await shopSetup();
    const product = await makeProduct(admin.tenant, catalog.catalogId);
    await channel(admin, [{ kind: 'classification', system: 'ETIM' }]);
    await drain(admin.companyId);
    const { linkId } = (await classifyAsMcb(admin.tenant, product.productId)) as { linkId: string };
    expect(await drain(admin.companyId)).toEqual([['completeness.reached', product.productId]]);
    await updateClassification(db(), asActor(admin.tenant), { linkId, name: 'Breaker' });
    expect(await drain(admin.companyId)).toEqual([]);
    // an unknown class is refused before anything is written: no event, the score stays
    await expect(
      updateClassification(db(), asActor(admin.tenant), { linkId, classes: [{ group: 'ETIM', code: 'EC999999' }] }),
    ).rejects.toThrow();
    expect(await drain(admin.companyId)).toEqual([]);
    const scores = await get(admin.cookie, `/api/Catalog/GetCompleteness?productId=${product.productId}`);
    expect(scores.json.channels[0].languages[0].score).toBe(100);
  });

  // Placements only ever go here, and fewer placements never make a product less complete, so
  // this write cannot flip twice: the test holds the wrapped path's one event and the hold cleared.
  it('deleting a category that held a product twice sends one reached and leaves no hold behind', async () => {
    const { admin, catalog } = await shopSetup();
    const tools = await makeCategory(admin.tenant, catalog.catalogId, { name: 'Tools' });
    const drills = await makeCategory(admin.tenant, catalog.catalogId, { name: 'Drills', parentId: tools.categoryId });
    const saws = await makeCategory(admin.tenant, catalog.catalogId, { name: 'Saws', parentId: tools.categoryId });
    const product = await makeProduct(admin.tenant, catalog.catalogId, {
      categoryIds: [drills.categoryId, saws.categoryId],
    });
    // incomplete while placed below Tools (no description); out of it, no rule applies
    await channel(admin, [{ kind: 'field', field: 'description', categoryId: tools.categoryId }]);
    await drain(admin.companyId);
    const res = await post(admin.cookie, '/api/Catalog/DeleteCategory', {
      departmentId: admin.departmentId,
      categoryId: tools.categoryId,
    });
    expect(res.status, res.text).toBe(200);
    expect(await drain(admin.companyId)).toEqual([['completeness.reached', product.productId]]);
    expect(await db().select().from(completenessEventsHold)).toEqual([]);
  });
});
