import { beforeEach, describe, expect, it } from 'vitest';
import { call, create, deactivate, makeShopProduct, seedMappings, uniquePrefix, upsert } from './helpers';

type Status = {
  products: { managed: number; active: number; deactivated: number };
  lastBatch: Record<string, unknown> | null;
};

async function status(): Promise<Status> {
  const response = await call('GET', '/status');
  expect(response.status).toBe(200);
  return (await response.json()) as Status;
}

describe('GET /status', () => {
  beforeEach(seedMappings);

  it('counts managed products (never the shop-owned ones) and reports the last batch', async () => {
    const p = uniquePrefix();
    const before = await status();
    await makeShopProduct(`${p}shop`);
    await upsert([create(`${p}1`), create(`${p}2`)], `${p}first`);
    await upsert([deactivate(`${p}2`)], `${p}second`);
    const after = await status();
    expect(after.products).toEqual({
      managed: before.products.managed + 2,
      active: before.products.active + 1,
      deactivated: before.products.deactivated + 1,
    });
    expect(after.lastBatch).toEqual({
      batchId: `${p}second`,
      receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      created: 0,
      updated: 0,
      deactivated: 1,
    });
  });
});
