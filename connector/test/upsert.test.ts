import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  create,
  deactivate,
  makeShopProduct,
  productRows,
  seedMappings,
  uniquePrefix,
  update,
  upsert,
} from './helpers';

async function batchCount() {
  return (await env.DB.prepare('SELECT count(*) AS n FROM batches').first<{ n: number }>())!.n;
}

describe('POST /upsert', () => {
  beforeEach(seedMappings);

  it('creates, updates and deactivates managed products and answers the counts', async () => {
    const p = uniquePrefix();
    const first = await upsert([create(`${p}1`, 'f1'), create(`${p}2`, 'f2'), create(`${p}3`, 'f3')], `${p}b1`);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ batchId: `${p}b1`, dryRun: false, created: 3, updated: 0, deactivated: 0 });

    const second = await upsert([update(`${p}1`, 'f1b', { name: 'Renamed' }), deactivate(`${p}2`)], `${p}b2`);
    expect(await second.json()).toEqual({ batchId: `${p}b2`, dryRun: false, created: 0, updated: 1, deactivated: 1 });
    const rows = await productRows(p);
    expect(rows.map((r) => [r.sku, r.managed, r.active, r.fingerprint, r.name])).toEqual([
      [`${p}1`, 1, 1, 'f1b', 'Renamed'],
      [`${p}2`, 1, 0, 'f2', 'Leitungsschutzschalter B16'],
      [`${p}3`, 1, 1, 'f3', 'Leitungsschutzschalter B16'],
    ]);
    const data = await env.DB.prepare('SELECT data FROM products WHERE sku = ?1')
      .bind(`${p}1`)
      .first<{ data: string }>();
    expect(JSON.parse(data!.data)).toMatchObject({
      name: 'Renamed',
      values: { poles: '1' },
      categories: [{ id: 'cat-1' }],
    });
  });

  it('stores a product of over a million characters next to small ones, its data as sent', async () => {
    const p = uniquePrefix();
    // 40 values of 30,000 characters (with quotes and backslashes to escape).
    const values = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`long_${i}`, `"x\\${i}`.padEnd(30_000, 'a')]),
    );
    const response = await upsert([create(`${p}1`), create(`${p}2`, 'big', { values }), create(`${p}3`)]);
    expect(response.status).toBe(200);
    expect((await productRows(p)).map((r) => [r.sku, r.active, r.fingerprint])).toEqual([
      [`${p}1`, 1, `fp-${p}1`],
      [`${p}2`, 1, 'big'],
      [`${p}3`, 1, `fp-${p}3`],
    ]);
    const data = await env.DB.prepare('SELECT data FROM products WHERE sku = ?1')
      .bind(`${p}2`)
      .first<{ data: string }>();
    expect(JSON.parse(data!.data).values).toEqual(values);
  });

  it('stores feature blocks of other systems as sent, and refuses a block without its features list', async () => {
    const p = uniquePrefix();
    const featureBlocks = [
      {
        system: 'UNSPSC',
        groupId: '39121601',
        groupId2: null,
        groupName: null,
        features: [
          { name: 'Farbe', values: ['grau'] },
          { ftId: 'AAA123', fid: '1', parentId: '0', values: ['5'] },
        ],
      },
    ];
    expect((await upsert([create(`${p}1`, 'f1', { featureBlocks })])).status).toBe(200);
    const data = await env.DB.prepare('SELECT data FROM products WHERE sku = ?1')
      .bind(`${p}1`)
      .first<{ data: string }>();
    expect(JSON.parse(data!.data).featureBlocks).toEqual(featureBlocks);
    const bad = await upsert([create(`${p}2`, 'f2', { featureBlocks: [{ system: 'UNSPSC' }] as never })]);
    expect(bad.status).toBe(422);
    expect(await productRows(`${p}2`)).toEqual([]);
  });

  it('stores the order details of a product and its variants as sent, and refuses a quantity that is not a positive decimal', async () => {
    const p = uniquePrefix();
    const order = { contentUnit: 'MTR', contentPerUnit: '50.0', quantityMin: '2.5', quantityInterval: '0.5' };
    const variants = [{ ...create('x').product!, sku: `${p}1-R`, quantityMin: '4' }];
    expect((await upsert([create(`${p}1`, 'f1', { ...order, variants })])).status).toBe(200);
    const data = await env.DB.prepare('SELECT data FROM products WHERE sku = ?1')
      .bind(`${p}1`)
      .first<{ data: string }>();
    const stored = JSON.parse(data!.data);
    expect(stored).toMatchObject(order);
    expect(stored.variants[0].quantityMin).toBe('4');
    const bad = await upsert([
      create(`${p}2`, 'f2', { quantityMin: '0' }),
      create(`${p}3`, 'f3', { contentUnit: 'meter' }),
    ]);
    expect(bad.status).toBe(422);
    const { failures } = (await bad.json()) as { failures: { index: number; field: string }[] };
    expect(failures.map((f) => [f.index, f.field])).toEqual([
      [0, 'product.quantityMin'],
      [1, 'product.contentUnit'],
    ]);
    expect(await productRows(`${p}2`)).toEqual([]);
  });

  it('reactivates a deactivated managed product on create', async () => {
    const p = uniquePrefix();
    await upsert([create(`${p}1`)]);
    await upsert([deactivate(`${p}1`)]);
    expect((await upsert([create(`${p}1`, 'again')])).status).toBe(200);
    expect((await productRows(p)).map((r) => [r.active, r.fingerprint])).toEqual([[1, 'again']]);
  });

  it('refuses a batch of 1000 with one bad record as a whole: 422 naming it, nothing written', async () => {
    const p = uniquePrefix();
    const records = Array.from({ length: 1000 }, (_, i) => create(`${p}${String(i).padStart(4, '0')}`));
    records[617] = create(`${p}0617`, 'f', { price: '12,50' });
    const batches = await batchCount();
    const response = await upsert(records, `${p}big`);
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: string; failures: unknown[] };
    expect(body.failures).toEqual([
      { index: 617, sku: `${p}0617`, field: 'product.price', error: 'price must be a decimal string such as "12.50"' },
    ]);
    expect(body.error).toBe('1 record(s) cannot be stored; nothing was written');
    expect(await productRows(p)).toEqual([]);
    expect(await batchCount()).toBe(batches);

    records[617] = create(`${p}0617`);
    const ok = await upsert(records, `${p}big`);
    expect(ok.status).toBe(200);
    expect((await productRows(p)).length).toBe(1000);
  });

  it('names every kind of bad record and writes none of them', async () => {
    const p = uniquePrefix();
    await makeShopProduct(`${p}shop`);
    await makeShopProduct(`${p}shop2`);
    await upsert([create(`${p}gone`)]);
    await upsert([deactivate(`${p}gone`)]);
    const response = await upsert([
      create(`${p}ok`),
      create(`${p}shop`),
      update(`${p}unknown`, 'f'),
      deactivate(`${p}nobody`),
      create(`${p}ok`),
      create(`${p}m`, 'f', { manufacturerId: 'm-404' }),
      create(`${p}v`, 'f', { variants: [{ ...create('x').product!, sku: `${p}v-1`, unitId: 'u-404' } as never] }),
      update(`${p}gone`, 'f'),
      { op: 'create', sku: `${p}np`, fingerprint: 'f' },
      deactivate(`${p}shop2`),
    ]);
    expect(response.status).toBe(422);
    const { failures } = (await response.json()) as { failures: { index: number; field: string; error: string }[] };
    expect(failures.map((f) => [f.index, f.field, f.error])).toEqual([
      [1, 'sku', 'the SKU belongs to a product the shop owns'],
      [2, 'sku', 'cannot update an unknown SKU'],
      [3, 'sku', 'cannot deactivate an unknown SKU'],
      [4, 'sku', 'duplicate SKU in the batch'],
      [5, 'product.manufacturerId', 'unknown manufacturer id "m-404"'],
      [6, 'product.variants.0.unitId', 'unknown unit id "u-404"'],
      [7, 'op', 'the product is deactivated: send create to reactivate it'],
      [8, 'product', 'product is required'],
      [9, 'sku', 'the SKU belongs to a product the shop owns'],
    ]);
    expect((await productRows(p)).map((r) => [r.sku, r.active])).toEqual([
      [`${p}gone`, 0],
      [`${p}shop`, 1],
      [`${p}shop2`, 1],
    ]);
  });

  it('never touches a shop-owned product', async () => {
    const p = uniquePrefix();
    await makeShopProduct(`${p}shop`);
    const before = await productRows(p);
    for (const record of [create(`${p}shop`), update(`${p}shop`, 'f'), deactivate(`${p}shop`)]) {
      expect((await upsert([record])).status).toBe(422);
    }
    expect(await productRows(p)).toEqual(before);
  });

  it('replays a stored batchId byte for byte and writes nothing twice; another body under it is 409', async () => {
    const p = uniquePrefix();
    const body = { batchId: `${p}r`, records: [create(`${p}1`, 'f1')] };
    const first = await call('POST', '/upsert', { body });
    const firstText = await first.text();
    const before = await productRows(p);
    const batches = await batchCount();

    const replay = await call('POST', '/upsert', { body });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await replay.text()).toBe(firstText);
    expect(await productRows(p)).toEqual(before);
    expect(await batchCount()).toBe(batches);

    const other = await call('POST', '/upsert', { body: { ...body, records: [create(`${p}1`, 'f2')] } });
    expect(other.status).toBe(409);
    expect(await other.json()).toEqual({ error: 'this batchId was already used for a different batch' });
    expect(await productRows(p)).toEqual(before);
  });

  it('validates a dry run fully and writes nothing, not even the batch', async () => {
    const p = uniquePrefix();
    const batches = await batchCount();
    const ok = await upsert([create(`${p}1`), create(`${p}2`)], `${p}dry`, true);
    expect(await ok.json()).toEqual({ batchId: `${p}dry`, dryRun: true, created: 2, updated: 0, deactivated: 0 });
    const bad = await upsert([update(`${p}1`, 'f')], `${p}dry2`, true);
    expect(bad.status).toBe(422);
    expect(await productRows(p)).toEqual([]);
    expect(await batchCount()).toBe(batches);
    const real = await upsert([create(`${p}1`)], `${p}dry`);
    expect(await real.json()).toMatchObject({ dryRun: false, created: 1 });
  });

  it('refuses 1001 records with 413 and writes nothing', async () => {
    const p = uniquePrefix();
    const response = await upsert(Array.from({ length: 1001 }, (_, i) => create(`${p}${i}`)));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'a batch carries at most 1000 records, this one 1001' });
    expect(await productRows(p)).toEqual([]);
  });

  it('refuses a body over 20 MiB with 413', async () => {
    const raw = JSON.stringify({ batchId: 'huge', records: [], pad: 'x'.repeat(20 * 1024 * 1024) });
    const response = await call('POST', '/upsert', { raw });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'request body larger than 20971520 bytes' });
  });

  it('refuses a batch of valid records over 20 MiB with 413, writes nothing and keeps its batchId free', async () => {
    const p = uniquePrefix();
    const batchId = `${p}big`;
    // 400 records of 64 KB (two UTF-8 bytes per character): about 25 MiB, under 1000 records.
    const description = 'é'.repeat(32_000);
    const records = Array.from({ length: 400 }, (_, i) => create(`${p}${i}`, `fp-${i}`, { description }));
    const refused = await upsert(records, batchId);
    expect(refused.status).toBe(413);
    expect(await refused.json()).toEqual({ error: 'request body larger than 20971520 bytes' });
    expect(await productRows(p)).toEqual([]);
    const taken = await upsert(records.slice(0, 20), batchId);
    expect(taken.status).toBe(200);
    expect(await taken.json()).toMatchObject({ batchId, created: 20 });
  });

  it('answers 400 for a body that is not JSON or not a batch', async () => {
    const notJson = await call('POST', '/upsert', { raw: '{"batchId":' });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ error: 'the body must be JSON' });
    const noId = await call('POST', '/upsert', { body: { records: [] } });
    expect(noId.status).toBe(400);
    expect(((await noId.json()) as { error: string }).error).toMatch(/^batchId: /);
    const notArray = await call('POST', '/upsert', { body: { batchId: 'x', records: {} } });
    expect(notArray.status).toBe(400);
  });
});
