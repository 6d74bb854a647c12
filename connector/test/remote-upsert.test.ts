import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bodyHash } from '../../src/sync/protocol/signing';
import { MAX_BATCH_RECORDS_HEADER } from '../../src/sync/protocol/wire';
import { TargetError } from '../src/adapters/target-adapter';
import { MIRROR_COUNT_SQL, MIRROR_PAGE_SQL } from '../src/mirror/mirror-store';
import { FakeAdapter, useFakeAdapter } from './fake-adapter';
import { call, create, deactivate, makeProduct, ndjson, uniquePrefix, update, variantOf } from './helpers';

const SIGNER = { keyId: 'remote', secret: 'test-connector-secret-4' };
const TARGET = { kind: 'shopify', url: 'https://voltana.myshopify.com', credentials: { accessToken: 'shpat_x' } };

const send = (records: unknown[], batchId = crypto.randomUUID(), dryRun?: boolean) =>
  call('POST', '/upsert', { ...SIGNER, body: { batchId, ...(dryRun === undefined ? {} : { dryRun }), records } });

async function inventory() {
  return ndjson(await call('GET', '/inventory', SIGNER));
}

async function mirrorRow(sku: string) {
  return env.DB.prepare(
    "SELECT fingerprint, active, ids, product FROM target_products WHERE key_id = 'remote' AND sku = ?1",
  )
    .bind(sku)
    .first<{ fingerprint: string; active: number; ids: string | null; product: string | null }>();
}

describe('POST /upsert into a real shop (scripted fake adapter)', () => {
  let fake: FakeAdapter;
  let restore: () => void;
  beforeEach(async () => {
    fake = new FakeAdapter();
    restore = useFakeAdapter(fake);
    await call('DELETE', '/target', SIGNER);
    expect((await call('PUT', '/target', { ...SIGNER, body: TARGET })).status).toBe(200);
  });
  afterEach(() => restore());

  it('creates, updates and deactivates through the adapter and answers the counts; the inventory is the mirror', async () => {
    const p = uniquePrefix();
    const first = await send([create(`${p}1`, 'f1'), create(`${p}2`, 'f2'), create(`${p}3`, 'f3')], `${p}b1`);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({
      batchId: `${p}b1`,
      dryRun: false,
      created: 3,
      updated: 0,
      deactivated: 0,
      unchanged: 0,
      failed: [],
    });
    // batchSize 2: two write calls.
    expect(fake.writes.map((w) => w.map((r) => r.sku))).toEqual([[`${p}1`, `${p}2`], [`${p}3`]]);

    const second = await send([update(`${p}1`, 'f1b', { name: 'Renamed' }), deactivate(`${p}2`)], `${p}b2`);
    expect(await second.json()).toMatchObject({ created: 0, updated: 1, deactivated: 1, failed: [] });
    // The update carried the mirror's ids and the product as last written.
    const sentUpdate = fake.writes[2]!.find((w) => w.sku === `${p}1`)!;
    expect(sentUpdate.known).toEqual(fake.shop.get(`${p}1`)!.ids);
    expect(sentUpdate.previous).toBe('Leitungsschutzschalter B16');

    expect(await inventory()).toEqual([
      { sku: `${p}1`, fingerprint: 'f1b' },
      { sku: `${p}3`, fingerprint: 'f3' },
    ]);
    const status = (await (await call('GET', '/status', SIGNER)).json()) as {
      products: { active: number; deactivated: number };
      lastBatch: { batchId: string };
    };
    expect(status.products).toMatchObject({ active: 2, deactivated: 1 });
    expect(status.lastBatch.batchId).toBe(`${p}b2`);
    // The reference store did not receive them.
    const reference = await env.DB.prepare('SELECT count(*) AS n FROM products WHERE sku >= ?1 AND sku < ?2')
      .bind(p, `${p}\u{10FFFF}`)
      .first<{ n: number }>();
    expect(reference!.n).toBe(0);
  });

  it('skips records the mirror already holds with their fingerprint (unchanged, not sent)', async () => {
    const p = uniquePrefix();
    await send([create(`${p}1`, 'f1'), create(`${p}2`, 'f2')]);
    const calls = fake.writes.length;
    const again = await send([create(`${p}1`, 'f1'), update(`${p}2`, 'f2-new')]);
    expect(await again.json()).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    expect(
      fake.writes
        .slice(calls)
        .flat()
        .map((w) => w.sku),
    ).toEqual([`${p}2`]);
  });

  it('reports records the shop refuses in failed and leaves them out of the inventory', async () => {
    const p = uniquePrefix();
    fake.failures.set(`${p}2`, {
      field: 'product.name',
      error: 'Title is too long (maximum is 255 characters)',
      retryable: false,
      times: Number.POSITIVE_INFINITY,
    });
    const response = await send([create(`${p}1`, 'f1'), create(`${p}2`, 'f2'), create(`${p}3`, 'f3')]);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      created: 2,
      failed: [
        { index: 1, sku: `${p}2`, field: 'product.name', error: 'Title is too long (maximum is 255 characters)' },
      ],
    });
    expect((await inventory()).map((l) => l.sku)).toEqual([`${p}1`, `${p}3`]);
    expect(await mirrorRow(`${p}2`)).toBeNull();
  });

  it('resumes a batch that crashed after its first chunk: nothing sent twice, the answer complete', async () => {
    const p = uniquePrefix();
    const records = [create(`${p}1`), create(`${p}2`), create(`${p}3`), create(`${p}4`)];
    fake.throwOnWrite = 2;
    const crashed = await send(records, `${p}crash`);
    expect(crashed.status).toBe(500);
    // The first chunk's progress is committed: it is in the inventory already.
    expect((await inventory()).map((l) => l.sku)).toEqual([`${p}1`, `${p}2`]);

    fake.throwOnWrite = null;
    const resumed = await send(records, `${p}crash`);
    expect(resumed.status).toBe(200);
    const answer = await resumed.text();
    expect(JSON.parse(answer)).toMatchObject({ created: 4, updated: 0, unchanged: 0, failed: [] });
    // Call 1 wrote 1-2, call 2 crashed with 3-4, call 3 wrote 3-4: 1 and 2 went out once.
    expect(fake.writes.map((w) => w.map((r) => r.sku))).toEqual([
      [`${p}1`, `${p}2`],
      [`${p}3`, `${p}4`],
      [`${p}3`, `${p}4`],
    ]);
    expect(fake.sentSkus.filter((s) => s === `${p}1`)).toHaveLength(1);

    // A committed batch is replayed byte for byte and sends nothing.
    const replay = await send(records, `${p}crash`);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await replay.text()).toBe(answer);
    expect(fake.writes).toHaveLength(3);

    const otherBody = await send([create(`${p}1`, 'other')], `${p}crash`);
    expect(otherBody.status).toBe(409);
  });

  it('writes a batch once when two requests with its batchId come at the same moment; the second is told to retry', async () => {
    const p = uniquePrefix();
    const records = [create(`${p}1`), create(`${p}2`), create(`${p}3`)];
    let release = () => {};
    fake.hold = new Promise((resolve) => {
      release = resolve;
    });
    const first = send(records, `${p}same`);
    await vi.waitFor(() => expect(fake.writes).toHaveLength(1));

    const second = await send(records, `${p}same`);
    expect(second.status).toBe(503);
    expect(Number(second.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    expect(await second.json()).toEqual({ error: 'this batch is being written by another request; retry later' });
    // Another body under the batchId is still a conflict, not a wait.
    expect((await send([create(`${p}1`, 'other')], `${p}same`)).status).toBe(409);

    fake.hold = null;
    release();
    const answer = await (await first).text();
    expect(JSON.parse(answer)).toMatchObject({ created: 3, failed: [] });
    // Each record went to the shop once: the second request wrote nothing.
    expect(fake.sentSkus.sort()).toEqual([`${p}1`, `${p}2`, `${p}3`]);

    // The retry after the first finished gets the recorded answer.
    const retry = await send(records, `${p}same`);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await retry.text()).toBe(answer);
    expect(fake.writes).toHaveLength(2);
  });

  it('lets a retry resume at once a batch whose request failed, and one whose request died once its lease ran out', async () => {
    const p = uniquePrefix();
    const records = [create(`${p}1`), create(`${p}2`), create(`${p}3`)];
    fake.throwOnWrite = 1;
    expect((await send(records, `${p}failed`)).status).toBe(500);
    fake.throwOnWrite = null;
    expect(await (await send(records, `${p}failed`)).json()).toMatchObject({ created: 3 });

    // A request that died holding the lease (no release): a retry waits until the lease ends.
    const died = [create(`${p}4`)];
    const body = JSON.stringify({ batchId: `${p}died`, records: died });
    const until = new Date(Date.now() + 20_000).toISOString();
    await env.DB.prepare(
      `INSERT INTO target_batches (key_id, batch_id, body_sha256, received_at, lease_owner, lease_until)
       VALUES ('remote', ?1, ?2, ?3, 'dead-request', ?4)`,
    )
      .bind(`${p}died`, await bodyHash(body), new Date().toISOString(), until)
      .run();
    const waiting = await call('POST', '/upsert', { ...SIGNER, raw: body });
    expect(waiting.status).toBe(503);
    expect(Number(waiting.headers.get('Retry-After'))).toBeGreaterThan(15);
    await env.DB.prepare("UPDATE target_batches SET lease_until = ?2 WHERE key_id = 'remote' AND batch_id = ?1")
      .bind(`${p}died`, new Date(Date.now() - 1000).toISOString())
      .run();
    const resumed = await call('POST', '/upsert', { ...SIGNER, raw: body });
    expect(resumed.status).toBe(200);
    expect(await resumed.json()).toMatchObject({ created: 1 });
  });

  it('finds a lost mapping by SKU and updates the product the shop already holds', async () => {
    const p = uniquePrefix();
    const ids = { product: 'gid://fake/Product/lost', variants: {} };
    fake.shop.set(`${p}1`, { ids, fingerprint: 'old', active: true });
    const response = await send([create(`${p}1`, 'f1'), create(`${p}2`, 'f2')]);
    expect(await response.json()).toMatchObject({ created: 1, updated: 1 });
    expect(fake.findCalls).toEqual([[`${p}1`, `${p}2`]]);
    expect(fake.writes[0]!.find((w) => w.sku === `${p}1`)!.known).toEqual(ids);
    expect(JSON.parse((await mirrorRow(`${p}1`))!.ids!)).toEqual(ids);
  });

  it('answers a dry run with the counts and the changed fields, writing nothing', async () => {
    const p = uniquePrefix();
    await send([create(`${p}1`, 'f1', { variants: [] }), create(`${p}2`, 'f2')]);
    const calls = fake.writes.length;
    const { categories: _c, variants: _v, ...fields } = makeProduct();
    const variant = { ...fields, sku: `${p}1-V` };
    const response = await send(
      [
        update(`${p}1`, 'f1b', { name: 'Neu', price: '13.00', variants: [variant] }),
        create(`${p}2`, 'f2'),
        create(`${p}3`, 'f3'),
      ],
      `${p}dry`,
      true,
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { changes: { sku: string; op: string; fields: string[] }[] };
    expect(body).toMatchObject({ dryRun: true, created: 1, updated: 1, deactivated: 0, unchanged: 1 });
    expect(body.changes[0]).toEqual({ sku: `${p}1`, op: 'update', fields: ['name', 'price', `variants.${p}1-V`] });
    expect(body.changes[1]!.sku).toBe(`${p}3`);
    expect(body.changes[1]!.fields).toEqual(expect.arrayContaining(['name', 'price', 'categories', 'classification']));
    expect(body.changes[1]!.fields).not.toContain('keywords');
    expect(fake.writes).toHaveLength(calls);
    expect((await mirrorRow(`${p}1`))!.fingerprint).toBe('f1');
    expect(await mirrorRow(`${p}3`)).toBeNull();
  });

  it("shows in a dry run's changes the SKU each reference by manufacturer number resolves to", async () => {
    const p = uniquePrefix();
    // An earlier run wrote the carrier: the number is one of its variants'.
    await send([create(`${p}A`, 'fa', { variants: [variantOf(`${p}A-1`, `${p}VAR`)] })]);
    const byNumber = (sku: string) => ({ type: 'accessories', sku, quantity: null, targetKind: 'mpn' as const });
    const response = await send(
      [
        create(`${p}R`, 'fr', {
          references: [
            byNumber(`${p}VAR`),
            byNumber(`${p}NEW`),
            byNumber(`${p}NONE`),
            { type: 'spare', sku: `${p}A`, quantity: 2 },
          ],
        }),
        create(`${p}B`, 'fb', { manufacturerPid: `${p}NEW` }),
        create(`${p}C`, 'fc'),
      ],
      `${p}dry`,
      true,
    );
    const body = (await response.json()) as { changes: { sku: string; references?: unknown }[] };
    expect(body.changes.find((c) => c.sku === `${p}R`)!.references).toEqual([
      { type: 'accessories', number: `${p}VAR`, sku: `${p}A` },
      { type: 'accessories', number: `${p}NEW`, sku: `${p}B` },
      { type: 'accessories', number: `${p}NONE`, sku: null },
    ]);
    // Records without references by number carry none.
    expect(body.changes.find((c) => c.sku === `${p}C`)).not.toHaveProperty('references');
  });

  it('refuses records with ids the shop does not have (422, nothing sent)', async () => {
    const p = uniquePrefix();
    const response = await send([create(`${p}1`), create(`${p}2`, 'f2', { manufacturerId: 'm-2' })]);
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      failures: [{ index: 1, sku: `${p}2`, field: 'product.manufacturerId', error: 'unknown manufacturer id "m-2"' }],
    });
    expect(fake.writes).toHaveLength(0);
  });

  it('validates against the lookup tables the adapter kept, and asks the shop again when a record names an id they lack', async () => {
    const p = uniquePrefix();
    // Kept before the shop got its manufacturer m-1 (a tag added since).
    fake.keptMappings = { ...fake.mappingsValue, manufacturers: [] };
    const first = await send([create(`${p}1`, 'f1', { manufacturerId: 'm-1' })]);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ created: 1 });
    expect(fake.mappingsCalls).toEqual(['cached', 'fresh']);

    // Every id known to the kept tables: no second look.
    fake.mappingsCalls.length = 0;
    fake.keptMappings = fake.mappingsValue;
    expect((await send([create(`${p}2`, 'f2', { manufacturerId: 'm-1' })])).status).toBe(200);
    expect(fake.mappingsCalls).toEqual(['cached']);

    // An id the shop does not have now either: refused as before, after the one fresh look.
    fake.mappingsCalls.length = 0;
    const refused = await send([create(`${p}3`, 'f3', { manufacturerId: 'm-9' })]);
    expect(refused.status).toBe(422);
    expect(fake.mappingsCalls).toEqual(['cached', 'fresh']);

    // GET /mappings answers what the shop holds now, never the kept tables.
    fake.mappingsCalls.length = 0;
    fake.keptMappings = { ...fake.mappingsValue, manufacturers: [] };
    expect(await (await call('GET', '/mappings', SIGNER)).json()).toEqual(fake.mappingsValue);
    expect(fake.mappingsCalls).toEqual(['fresh']);
  });

  it('GET /mappings asks the adapter, advertises X-Max-Batch-Records, and answers 502 when the shop fails', async () => {
    const ok = await call('GET', '/mappings', SIGNER);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual(fake.mappingsValue);
    expect(ok.headers.get(MAX_BATCH_RECORDS_HEADER)).toBe('8');
    fake.mappingsError = new TargetError('the shop answered HTTP 401', false, 401);
    const failed = await call('GET', '/mappings', SIGNER);
    expect(failed.status).toBe(502);
    expect(await failed.json()).toEqual({ error: 'the shop refused: the shop answered HTTP 401' });
  });

  it('answers 503 with Retry-After when the adapter finds the shop unreachable', async () => {
    const p = uniquePrefix();
    fake.mappingsError = new TargetError('the shop could not be reached', true, null, 12);
    const response = await send([create(`${p}1`)]);
    expect(response.status).toBe(503);
    expect(response.headers.get('Retry-After')).toBe('12');
  });

  it('reads the inventory from the covering mirror index in SKU order', async () => {
    for (const [sql, params] of [
      [MIRROR_COUNT_SQL, ['remote', '']],
      [MIRROR_PAGE_SQL, ['remote', '', 100]],
    ] as const) {
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      const plan = results.map((r) => r.detail).join(' / ');
      expect(plan).toContain('USING COVERING INDEX target_products_inventory_idx');
      expect(plan).not.toContain('TEMP B-TREE');
    }
  });
});
