import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs, syncConnections } from '../../src/db/schema';
import { addChannel, updateChannel } from '../../src/completeness/channels';
import { updateProduct } from '../../src/catalog/products';
import { FakeConnector } from '../helpers/fake-connector';
import { db, makeCompany, makeProduct, makeUser } from '../helpers/factories';
import { connect, product, runSync, syncDeps, syncSetup, type Setup } from '../helpers/sync-fixtures';

async function shopChannel(setup: Setup) {
  return addChannel({ db: db(), queue: env.JOB_QUEUE }, setup.caller, {
    name: 'Shop',
    languages: ['deu'],
    requirements: [{ kind: 'field', field: 'gtin' }],
  });
}

describe('sync limited to complete products (onlyComplete)', () => {
  it('sends only complete masters, reports the rest and why, and leaves a shop copy of one that became incomplete', async () => {
    const setup = await syncSetup();
    const channel = await shopChannel(setup);
    await product(setup, 'A-1', { gtin: '4006381333931' });
    const b = await product(setup, 'B-2');
    const connection = await connect(setup, { channelId: channel.channelId, onlyComplete: true });
    expect(connection.options).toMatchObject({ channelId: channel.channelId, onlyComplete: true });
    const fake = new FakeConnector();

    const first = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(first.job.state).toBe('succeeded');
    expect(first.report).toMatchObject({
      created: 1,
      updated: 0,
      deactivated: 0,
      incomplete: { channel: 'Shop', count: 1, missing: [{ requirement: 'gtin (deu)', products: 1 }] },
    });
    expect([...fake.products.keys()]).toEqual(['A-1']);

    // B-2 gets its GTIN: the next run creates it.
    const update = (gtin: string) =>
      updateProduct(db(), setup.caller, {
        departmentId: setup.company.departmentId,
        catalogId: setup.catalogId,
        productId: b.productId,
        gtin,
      } as never);
    await update('4006381333948');
    const second = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(second.report).toMatchObject({ created: 1, skipped: 1, incomplete: { count: 0, missing: [] } });
    expect([...fake.products.keys()].sort()).toEqual(['A-1', 'B-2']);

    // B-2 loses it again: it is not updated, and not deactivated in the shop either.
    await update('');
    const third = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(third.report).toMatchObject({
      created: 0,
      updated: 0,
      skipped: 1,
      deactivated: 0,
      incomplete: { count: 1 },
    });
    expect(fake.products.get('B-2')!.product).toMatchObject({ gtin: '4006381333948' });
  });

  it('leaves incomplete variants out of a complete master, names them, and sends them once the channel stops requiring what they lack', async () => {
    const setup = await syncSetup();
    const channel = await shopChannel(setup);
    const variant = (sku: string, parentId: string, gtin?: string) =>
      makeProduct(setup.company, setup.catalogId, { sku, parentId, name: `Variant ${sku}`, unit: 'C62', gtin });
    const a = await product(setup, 'A-1', { gtin: '4006381333931' });
    await variant('A-1-V1', a.productId);
    await variant('A-1-V2', a.productId, '4006381333948');
    // Complete itself, every variant incomplete: it goes out without variants.
    const b = await product(setup, 'B-2', { gtin: '4006381333955' });
    await variant('B-2-V1', b.productId);
    const connection = await connect(setup, { channelId: channel.channelId, onlyComplete: true });
    const fake = new FakeConnector();
    const skusOf = (sku: string) =>
      (fake.products.get(sku)!.product as { variants: { sku: string }[] }).variants.map((v) => v.sku);

    const first = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(first.job.state).toBe('succeeded');
    expect(first.report).toMatchObject({
      created: 2,
      incomplete: {
        count: 0,
        variants: 2,
        variantSkus: ['A-1-V1', 'B-2-V1'],
        missing: [{ requirement: 'gtin (deu)', products: 2 }],
      },
    });
    expect(skusOf('A-1')).toEqual(['A-1-V2']);
    expect(skusOf('B-2')).toEqual([]);

    // Nothing changed: compared equal, the variants still left out and reported.
    const again = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(again.report).toMatchObject({ created: 0, updated: 0, skipped: 2, incomplete: { variants: 2 } });

    // The channel stops requiring a GTIN: no product changed, yet both masters go out with every variant.
    const updated = await updateChannel({ db: db(), queue: env.JOB_QUEUE }, setup.caller, {
      channelId: channel.channelId,
      name: 'Shop',
      languages: ['deu'],
      requirements: [{ kind: 'field', field: 'name' }],
    });
    for (let i = 0; i < 150; i++) {
      const [job] = await db().select({ state: jobs.state }).from(jobs).where(eq(jobs.id, updated.jobId));
      if (job?.state === 'succeeded') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const third = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(third.report).toMatchObject({ updated: 2, incomplete: { count: 0, variants: 0, variantSkus: [] } });
    expect(skusOf('A-1')).toEqual(['A-1-V1', 'A-1-V2']);
    expect(skusOf('B-2')).toEqual(['B-2-V1']);
  });

  it('without onlyComplete sends incomplete masters too and reports no incomplete count', async () => {
    const setup = await syncSetup();
    const channel = await shopChannel(setup);
    await product(setup, 'A-1');
    const connection = await connect(setup, { channelId: channel.channelId });
    const fake = new FakeConnector();
    const run = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(run.report.created).toBe(1);
    expect(run.report.incomplete).toBeUndefined();
  });

  it('refuses onlyComplete without a channel and a channel of another company, storing nothing', async () => {
    const setup = await syncSetup();
    const otherCompany = await makeCompany();
    const otherAdmin = await makeUser(otherCompany, { role: 'admin' });
    const foreign = await addChannel(
      { db: db(), queue: env.JOB_QUEUE },
      {
        ...setup.caller,
        userId: otherAdmin.userId,
        companyId: otherCompany.companyId,
        departmentId: otherCompany.departmentId,
      },
      { name: 'Theirs', languages: ['deu'], requirements: [] },
    );
    await expect(connect(setup, { onlyComplete: true })).rejects.toThrow('options.onlyComplete');
    await expect(connect(setup, { channelId: foreign.channelId, onlyComplete: true })).rejects.toThrow(
      'options.channelId',
    );
    const stored = await db()
      .select()
      .from(syncConnections)
      .where(eq(syncConnections.companyId, setup.company.companyId));
    expect(stored).toEqual([]);
  });

  it('fails the run with a clear message when the channel was deleted since', async () => {
    const setup = await syncSetup();
    const channel = await shopChannel(setup);
    await product(setup, 'A-1', { gtin: '4006381333931' });
    const connection = await connect(setup, { channelId: channel.channelId, onlyComplete: true });
    const { deleteChannel } = await import('../../src/completeness/channels');
    await deleteChannel({ db: db(), queue: env.JOB_QUEUE }, setup.caller, channel.channelId);
    const run = await runSync(setup, connection.connectionId, syncDeps(new FakeConnector()).deps);
    expect(run.job.state).toBe('failed');
    expect(run.job.error).toContain('channel no longer exists');
  });
});
