import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products, syncRunItems } from '../../src/db/schema';
import { deleteProduct } from '../../src/catalog/products';
import { setValue } from '../../src/catalog/values';
import { setFeatureBlocks } from '../../src/catalog/feature-blocks/feature-blocks';
import { addAttribute } from '../../src/catalog/attributes';
import { FakeConnector } from '../helpers/fake-connector';
import { db, makeCategory } from '../helpers/factories';
import { addImage, connect, jobRow, product, runSync, runToEnd, syncDeps, syncSetup } from '../helpers/sync-fixtures';

const fingerprintOf = async (productId: string) =>
  (await db().query.products.findFirst({ where: eq(products.id, productId) }))!.fingerprint!;

describe('sync run: merge-join', () => {
  it('creates every master on the first run, with mapped ids, variants, categories and signed media', async () => {
    const setup = await syncSetup();
    const category = await makeCategory(setup.company, setup.catalogId, { name: 'Schutzschalter' });
    const a = await product(setup, 'A-1', { categoryIds: [category.categoryId] }, true);
    const b = await product(setup, 'B-2', { manufacturerName: ' abb ', unit: 'MTR' });
    await addImage(setup, a.productId);
    const connection = await connect(setup);
    const fake = new FakeConnector();
    const { report, job } = await runSync(setup, connection.connectionId, syncDeps(fake).deps);

    expect(job.state).toBe('succeeded');
    expect(report).toMatchObject({
      created: 2,
      updated: 0,
      skipped: 0,
      deactivated: 0,
      quarantined: [],
      batches: { sent: 1, retried: 0 },
    });
    expect(fake.inventory()).toEqual([
      { sku: 'A-1', fingerprint: await fingerprintOf(a.productId) },
      { sku: 'B-2', fingerprint: await fingerprintOf(b.productId) },
    ]);
    const sent = fake.products.get('A-1')!.product as any;
    expect(sent).toMatchObject({
      manufacturerId: 'm-1',
      unitId: 'u-1',
      taxId: 't-1',
      price: '12.50',
      categories: [{ id: category.categoryId, path: ['Schutzschalter'] }],
    });
    expect(sent.variants).toHaveLength(1);
    expect(sent.variants[0]).toMatchObject({ sku: 'A-1-V1', unitId: 'u-1', taxId: 't-1' });
    expect(sent.media).toHaveLength(1);
    expect(sent.media[0].sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(sent.media[0].url).toMatch(
      /^http:\/\/pim\.test\/media\/signed\/[0-9a-f-]{36}\?expires=\d+&sig=[0-9a-f]{64}$/,
    );
    expect(fake.products.get('B-2')!.product as any).toMatchObject({ manufacturerId: 'm-2', unitId: 'u-2' });
    expect(fake.upserts[0]!.batchId).toBe(`${job.jobId}:0`);
  });

  it('skips unchanged masters, sends exactly one update for one changed product, and revalidates nothing within the hour', async () => {
    const setup = await syncSetup();
    const a = await product(setup, 'A-1');
    await product(setup, 'B-2');
    await product(setup, 'C-3');
    const connection = await connect(setup);
    const fake = new FakeConnector();
    await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    const noop = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(noop.report).toMatchObject({ created: 0, updated: 0, skipped: 3, batches: { sent: 0 } });
    expect(fake.upserts).toHaveLength(1);

    await setValue(db(), setup.caller, {
      departmentId: setup.company.departmentId,
      elementId: a.productId,
      field: 'name',
      value: 'Renamed',
    });
    const changed = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(changed.report).toMatchObject({ created: 0, updated: 1, skipped: 2 });
    expect(fake.upserts.at(-1)!.records.map((r) => [r.op, r.sku])).toEqual([['update', 'A-1']]);
    expect(fake.products.get('A-1')!.fingerprint).toBe(await fingerprintOf(a.productId));
    expect(fake.mappingsRequests).toBe(1);
  });

  it('a change of feature blocks changes the fingerprint and sends one update carrying the blocks', async () => {
    const setup = await syncSetup();
    const a = await product(setup, 'FB-1');
    await product(setup, 'FB-2');
    const connection = await connect(setup);
    const fake = new FakeConnector();
    await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect((fake.products.get('FB-1')!.product as any).featureBlocks).toBeUndefined();
    const before = await fingerprintOf(a.productId);

    const block = { system: 'UNSPSC', groupId: '39121601', features: [{ name: 'Farbe', values: ['grau'] }] };
    await setFeatureBlocks(db(), setup.caller, {
      departmentId: setup.company.departmentId,
      productId: a.productId,
      featureBlocks: [block],
    });
    expect(await fingerprintOf(a.productId)).not.toBe(before);
    const changed = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(changed.report).toMatchObject({ created: 0, updated: 1, skipped: 1 });
    expect(fake.upserts.at(-1)!.records.map((r) => [r.op, r.sku])).toEqual([['update', 'FB-1']]);
    expect((fake.products.get('FB-1')!.product as any).featureBlocks).toEqual([
      { ...block, groupId2: null, groupName: null },
    ]);
    expect(fake.products.get('FB-1')!.fingerprint).toBe(await fingerprintOf(a.productId));
    const again = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(again.report).toMatchObject({ updated: 0, skipped: 2 });
  });

  it('deactivates a product deleted in the PIM, and leaves it with the ignore option', async () => {
    const setup = await syncSetup();
    const skus = Array.from({ length: 12 }, (_, i) => `P-${String(i).padStart(2, '0')}`);
    const made = [];
    for (const sku of skus) made.push(await product(setup, sku));
    const keep = await connect(setup, { missing: 'ignore' });
    const fakeIgnore = new FakeConnector();
    await runSync(setup, keep.connectionId, syncDeps(fakeIgnore).deps);
    const connection = await connect(setup);
    const fake = new FakeConnector();
    await runSync(setup, connection.connectionId, syncDeps(fake).deps);

    await deleteProduct({ db: db(), files: env.FILES }, setup.caller, {
      departmentId: setup.company.departmentId,
      productId: made[3]!.productId,
    });
    const run = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(run.report).toMatchObject({ deactivated: 1, skipped: 11 });
    expect(fake.products.get('P-03')!.active).toBe(false);
    expect(fake.upserts.at(-1)!.records).toEqual([{ op: 'deactivate', sku: 'P-03', fingerprint: expect.any(String) }]);

    const ignored = await runSync(setup, keep.connectionId, syncDeps(fakeIgnore).deps);
    expect(ignored.report).toMatchObject({ deactivated: 0, skipped: 11 });
    expect(fakeIgnore.products.get('P-03')!.active).toBe(true);
    expect(await db().select().from(syncRunItems).where(eq(syncRunItems.jobId, run.jobId))).toEqual([]);
  });

  it('refuses to deactivate more than 10 % of the inventory unless confirmed', async () => {
    const setup = await syncSetup();
    await product(setup, 'KEEP-1');
    const connection = await connect(setup);
    const fake = new FakeConnector();
    fake.seed('KEEP-1', 'old');
    for (let i = 0; i < 4; i++) fake.seed(`GONE-${i}`, 'old');

    const refused = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(refused.job.state).toBe('failed');
    expect(refused.job.error).toContain('would deactivate 4 of 5');
    expect(refused.report).toMatchObject({ updated: 1, deactivated: 0, deactivationsRefused: 4 });
    expect(fake.upserts.flatMap((u) => u.records).filter((r) => r.op === 'deactivate')).toEqual([]);

    const confirmed = await runSync(setup, connection.connectionId, syncDeps(fake).deps, {
      confirmDeactivations: true,
    });
    expect(confirmed.job.state).toBe('succeeded');
    expect(confirmed.report).toMatchObject({ deactivated: 4, skipped: 1 });
    expect(fake.inventory().map((l) => l.sku)).toEqual(['KEEP-1']);
  });

  for (const [fault, message] of [
    [{ truncateAt: 2 }, 'ended after 2 of 4 lines'],
    [{ unsorted: true }, 'out of SKU byte order'],
    [{ brokenAt: 1 }, 'line 2 is not JSON'],
  ] as const) {
    it(`aborts before any deactivation when the inventory is unusable (${message})`, async () => {
      const setup = await syncSetup();
      await product(setup, 'Z-9');
      const connection = await connect(setup, { maxDeactivationPercent: 100 });
      const fake = new FakeConnector();
      for (const sku of ['A-0', 'B-0', 'C-0', 'D-0']) fake.seed(sku, 'x');
      fake.faults = { ...fault };
      const run = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
      expect(run.job.state).toBe('failed');
      expect(run.job.error).toContain(message);
      expect(run.job.error).toContain('nothing was deactivated');
      expect(fake.upserts.flatMap((u) => u.records).filter((r) => r.op === 'deactivate')).toEqual([]);
      expect(fake.inventory()).toHaveLength(4);
    });
  }
});
