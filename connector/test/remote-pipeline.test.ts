import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { bodyHash } from '../../src/sync/protocol/signing';
import type { MediaLink, MediaRef } from '../../src/sync/protocol/wire';
import { defaultMapping } from '../../src/sync/protocol/target';
import { ReferenceAdapter } from '../src/adapters/reference-adapter';
import { MAX_IMAGE_BYTES } from '../src/media/image-queue';
import { createLinkBytes, createMediaBytes, MediaError } from '../src/media/media-bytes';
import { resolveMpnReferences } from '../src/adapters/common/references';
import type { TargetIds, WriteContext } from '../src/adapters/target-adapter';
import { type CommittedOutcome, MIRROR_MPN_SQL, MirrorStore } from '../src/mirror/mirror-store';
import { refusedUrlReason } from '../src/targets/url-guard';
import { type RemoteDeps, upsertRemote } from '../src/upsert/upsert-remote';
import { FakeAdapter } from './fake-adapter';
import { create, deactivate, makeShopProduct, productRows, seedMappings, uniquePrefix, variantOf } from './helpers';

/** The pipeline with a recording sleep (no real waits) over a key of its own. */
function pipeline(fake: FakeAdapter, keyId: string) {
  const waits: number[] = [];
  const mirror = new MirrorStore(env.DB, keyId);
  const deps: RemoteDeps = {
    mirror,
    adapter: fake,
    mapping: defaultMapping('shopify'),
    mappings: () => fake.mappings(),
    mediaBytes: async () => new Blob([]),
    refusedUrl: (url) => refusedUrlReason(url, false),
    linkBytes: async () => {
      throw new Error('the adapters of these tests fetch no links');
    },
    sleep: async (ms) => {
      waits.push(ms);
    },
  };
  const run = (records: unknown[], batchId = crypto.randomUUID()) =>
    upsertRemote(deps, { batchId, dryRun: false, records, bodySha256: batchId });
  return { run, waits, mirror };
}

describe('the remote pipeline', () => {
  it('retries a record the shop refused for now with backoff, then it goes through', async () => {
    const p = uniquePrefix();
    const fake = new FakeAdapter();
    fake.failures.set(`${p}2`, {
      field: 'record',
      error: 'the shop is rate limiting requests',
      retryable: true,
      times: 2,
    });
    const { run, waits, mirror } = pipeline(fake, `pipe-${p}`);
    const outcome = await run([create(`${p}1`), create(`${p}2`)]);
    expect(JSON.parse(outcome.answer)).toMatchObject({ created: 2, failed: [] });
    expect(waits).toEqual([1000, 2000]);
    // The first record was final after round one and not sent again.
    expect(fake.writes.map((w) => w.map((r) => r.sku))).toEqual([[`${p}1`, `${p}2`], [`${p}2`], [`${p}2`]]);
    expect([...(await mirror.rows([`${p}1`, `${p}2`])).keys()].sort()).toEqual([`${p}1`, `${p}2`]);
  });

  it('gives up after the bounded rounds and reports the record in failed, its mirror row untouched', async () => {
    const p = uniquePrefix();
    const fake = new FakeAdapter();
    fake.failures.set(`${p}1`, {
      field: 'record',
      error: 'the shop answered HTTP 503',
      retryable: true,
      times: Number.POSITIVE_INFINITY,
    });
    const { run, waits, mirror } = pipeline(fake, `pipe-${p}`);
    const outcome = await run([create(`${p}1`)]);
    expect(JSON.parse(outcome.answer)).toMatchObject({
      created: 0,
      failed: [{ index: 0, sku: `${p}1`, field: 'record', error: 'the shop answered HTTP 503' }],
    });
    expect(fake.writes).toHaveLength(4);
    expect(waits).toEqual([1000, 2000, 4000]);
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThan(20_000);
    expect((await mirror.rows([`${p}1`])).size).toBe(0);
    // A failed record is not "unchanged" next time: it is sent again.
    fake.failures.clear();
    expect(JSON.parse((await run([create(`${p}1`)])).answer)).toMatchObject({ created: 1, unchanged: 0 });
  });

  it('looks a retried record up again by SKU when it had no ids (a first try may have created it)', async () => {
    const p = uniquePrefix();
    const fake = new FakeAdapter();
    fake.failures.set(`${p}1`, { field: 'record', error: 'timeout', retryable: true, times: 1 });
    const { run } = pipeline(fake, `pipe-${p}`);
    await run([create(`${p}1`)]);
    expect(fake.findCalls).toEqual([[`${p}1`], [`${p}1`]]);
  });

  it('gives the adapter the mirror ids of other products through idsOf', async () => {
    const p = uniquePrefix();
    const fake = new FakeAdapter();
    const { run } = pipeline(fake, `pipe-${p}`);
    await run([create(`${p}1`)]);
    await run([create(`${p}2`)]);
    const ids = await fake.lastContext!.idsOf([`${p}1`, `${p}missing`]);
    expect([...ids.keys()]).toEqual([`${p}1`]);
    expect(ids.get(`${p}1`)).toEqual(fake.shop.get(`${p}1`)!.ids);
  });
});

describe('the mirror of pending references', () => {
  it('answers the active rows whose pending references name one of the SKUs, with their products', async () => {
    const p = uniquePrefix();
    const mirror = new MirrorStore(env.DB, `pend-${p}`);
    const ids = (pending?: string[]): TargetIds => ({
      product: `gid-${p}`,
      variants: {},
      extra: pending ? { handle: 'h', pendingReferences: JSON.stringify(pending) } : { handle: 'h' },
    });
    const row = (sku: string, pending?: string[]): CommittedOutcome => ({
      index: 0,
      record: create(sku, `fp-${sku}`, { name: `Named ${sku}` }),
      outcome: { index: 0, ok: true, ids: ids(pending), action: 'created' },
    });
    await mirror.commit('b1', [row(`${p}A`, [`${p}X`, `${p}Y`]), row(`${p}B`, [`${p}Y`]), row(`${p}C`)], 'now');
    await mirror.commit('b1', [row(`${p}D`, [`${p}X`])], 'now');
    await mirror.commit(
      'b1',
      [
        {
          index: 0,
          record: deactivate(`${p}D`),
          outcome: { index: 0, ok: true, ids: ids([`${p}X`]), action: 'deactivated' },
        },
      ],
      'now',
    );
    const found = await mirror.referencing([`${p}X`, `${p}Z`]);
    expect(found.map((r) => r.sku)).toEqual([`${p}A`]);
    expect(found[0]!.product.name).toBe(`Named ${p}A`);
    expect(found[0]!.ids.extra?.pendingReferences).toBe(JSON.stringify([`${p}X`, `${p}Y`]));
    expect((await mirror.referencing([`${p}Y`])).map((r) => r.sku).sort()).toEqual([`${p}A`, `${p}B`]);
    // Another key's rows are not its.
    expect(await new MirrorStore(env.DB, `other-${p}`).referencing([`${p}X`])).toEqual([]);
  });
});

describe('the mirror by manufacturer number', () => {
  const carrier = (sku: string, manufacturerPid: string, variantNumbers: string[] = []): CommittedOutcome => ({
    index: 0,
    record: create(sku, `fp-${sku}`, {
      manufacturerPid,
      variants: variantNumbers.map((number, i) => variantOf(`${sku}-V${i}`, number)),
    }),
    outcome: { index: 0, ok: true, ids: { product: `id-${sku}`, variants: {} }, action: 'created' },
  });
  const referrer = (sku: string, number: string, fingerprint = `fp-${sku}`): CommittedOutcome => ({
    index: 0,
    record: create(sku, fingerprint, {
      manufacturerPid: `own-${sku}`,
      references: [{ type: 'accessories', sku: number, quantity: null, targetKind: 'mpn' }],
    }),
    outcome: { index: 0, ok: true, ids: { product: `id-${sku}`, variants: {} }, action: 'created' },
  });

  it("answers the active masters carrying the number on the master or a variant, by a seek of the key's index", async () => {
    const p = uniquePrefix();
    const mirror = new MirrorStore(env.DB, `mpn-${p}`);
    await mirror.commit(
      'b1',
      [carrier(`${p}A`, `${p}N1`), carrier(`${p}B`, `${p}N1`), carrier(`${p}C`, `${p}N2`, [`${p}V1`, `${p}N2`])],
      'now',
    );
    await mirror.commit(
      'b1',
      [{ index: 0, record: deactivate(`${p}B`), outcome: { index: 0, ok: true, ids: null, action: 'deactivated' } }],
      'now',
    );
    const found = await mirror.mastersByMpn([`${p}N1`, `${p}N2`, `${p}N3`, `${p}V1`]);
    expect(Object.fromEntries(found)).toEqual({
      [`${p}N1`]: [`${p}A`],
      [`${p}N2`]: [`${p}C`],
      [`${p}V1`]: [`${p}C`],
    });
    // Another key's rows are not its.
    expect(await new MirrorStore(env.DB, `other-${p}`).mastersByMpn([`${p}N1`])).toEqual(new Map());
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${MIRROR_MPN_SQL}`)
      .bind(`mpn-${p}`, JSON.stringify([`${p}N1`]))
      .all<{ detail: string }>();
    expect(results.map((r) => r.detail).join(' / ')).toMatch(
      /SEARCH target_mpns USING PRIMARY KEY \(key_id=\? AND mpn=\?\)/,
    );
  });

  it("resolves a reference to a variant's number that an earlier run wrote", async () => {
    const p = uniquePrefix();
    const mirror = new MirrorStore(env.DB, `mpnv-${p}`);
    await mirror.commit('b1', [carrier(`${p}A`, `${p}MASTER`, [`${p}VAR`])], 'now');
    const target = { index: 0, record: referrer(`${p}R`, `${p}VAR`).record, known: null, previous: null };
    const ctx = { mastersByMpn: (numbers: string[]) => mirror.mastersByMpn(numbers) } as unknown as WriteContext;
    const { targets, failed } = await resolveMpnReferences([target], ctx);
    expect(failed).toEqual([]);
    const record = targets[0]!.record as { product: { references: unknown[] } };
    expect(record.product.references).toEqual([{ type: 'accessories', sku: `${p}A`, quantity: null }]);
  });

  it('marks the products referring to a number for the next run when the number moves, and only then', async () => {
    const p = uniquePrefix();
    const keyId = `mpnm-${p}`;
    const mirror = new MirrorStore(env.DB, keyId);
    const fingerprintOf = async (sku: string) => (await mirror.rows([sku])).get(sku)?.fingerprint;
    await mirror.commit('b1', [carrier(`${p}A`, `${p}M`, [`${p}N`]), referrer(`${p}R`, `${p}N`)], 'now');
    // The carrier written again with the same numbers moves nothing.
    await mirror.commit('b2', [carrier(`${p}A`, `${p}M`, [`${p}N`])], 'now');
    expect(await fingerprintOf(`${p}R`)).toBe(`fp-${p}R`);

    // The variant's number moves to B: R goes out again with the next run (its fingerprint is no PIM's).
    await mirror.commit('b3', [carrier(`${p}A`, `${p}M`), carrier(`${p}B`, `${p}B-own`, [`${p}N`])], 'now');
    expect(await fingerprintOf(`${p}R`)).toBe(`mpn-moved:fp-${p}R`);
    expect(await mirror.inventoryPage(null, 100)).toContainEqual({ sku: `${p}R`, fingerprint: `mpn-moved:fp-${p}R` });
    expect(await mirror.mastersByMpn([`${p}N`])).toEqual(new Map([[`${p}N`, [`${p}B`]]]));

    // R written again in the same commit as a move keeps the fingerprint it was written with.
    await mirror.commit('b4', [referrer(`${p}R`, `${p}N`, 'fp-R2'), carrier(`${p}B`, `${p}B-own`)], 'now');
    expect(await fingerprintOf(`${p}R`)).toBe('fp-R2');

    // The number's carrier deactivated: R again.
    await mirror.commit('b5', [carrier(`${p}C`, `${p}N`)], 'now');
    await mirror.commit('b6', [referrer(`${p}R`, `${p}N`, 'fp-R3')], 'now');
    await mirror.commit(
      'b7',
      [{ index: 0, record: deactivate(`${p}C`), outcome: { index: 0, ok: true, ids: null, action: 'deactivated' } }],
      'now',
    );
    expect(await fingerprintOf(`${p}R`)).toBe('mpn-moved:fp-R3');
  });
});

describe('the mirror of images shown', () => {
  it('answers which hashes a product other than the given SKUs shows, kept in step with every mirror write', async () => {
    const p = uniquePrefix();
    const keyId = `media-${p}`;
    const mirror = new MirrorStore(env.DB, keyId);
    const row = (sku: string, media: Record<string, string> | null, op: 'create' | 'deactivate' = 'create') =>
      ({
        index: 0,
        record: op === 'create' ? create(sku, `fp-${sku}`) : deactivate(sku),
        outcome: {
          index: 0,
          ok: true,
          ids: media ? { product: `id-${sku}`, variants: {}, media } : null,
          action: op === 'create' ? 'created' : 'deactivated',
        },
      }) as CommittedOutcome;
    await mirror.commit('b1', [row(`${p}A`, { h1: 'a1', h2: 'a2' }), row(`${p}B`, { h2: 'a2', h3: 'a3' })], 'now');
    expect([...(await mirror.mediaShownElsewhere(['h1', 'h2', 'h3', 'h4'], [`${p}A`]))].sort()).toEqual(['h2', 'h3']);
    expect([...(await mirror.mediaShownElsewhere(['h1', 'h2'], [`${p}A`, `${p}B`]))]).toEqual([]);
    // B written again without h2: only A shows it.
    await mirror.commit('b2', [row(`${p}B`, { h3: 'a3' })], 'now');
    expect([...(await mirror.mediaShownElsewhere(['h2'], [`${p}X`]))]).toEqual(['h2']);
    expect([...(await mirror.mediaShownElsewhere(['h2'], [`${p}A`]))]).toEqual([]);
    // A disabled product (ids kept) still shows its images; a deleted one (ids null) none.
    await mirror.commit('b3', [row(`${p}B`, { h3: 'a3' }, 'deactivate')], 'now');
    expect([...(await mirror.mediaShownElsewhere(['h3'], [`${p}A`]))]).toEqual(['h3']);
    await mirror.commit('b4', [row(`${p}B`, null, 'deactivate')], 'now');
    expect([...(await mirror.mediaShownElsewhere(['h3'], [`${p}A`]))]).toEqual([]);
    // Another key's rows are not its, and clearing a key's mirror clears its images.
    expect([...(await new MirrorStore(env.DB, `other-${p}`).mediaShownElsewhere(['h1'], []))]).toEqual([]);
    await env.DB.prepare('DELETE FROM target_products WHERE key_id = ?1').bind(keyId).run();
    expect(
      await env.DB.prepare('SELECT count(*) AS n FROM target_media WHERE key_id = ?1').bind(keyId).first('n'),
    ).toBe(0);
  });
});

describe('the reference store as an adapter', () => {
  it('runs through the remote pipeline into the reference tables and fails a SKU the shop owns', async () => {
    await seedMappings();
    const p = uniquePrefix();
    await makeShopProduct(`${p}own`);
    const adapter = new ReferenceAdapter(env.DB);
    const mirror = new MirrorStore(env.DB, `ref-${p}`);
    const deps: RemoteDeps = {
      mirror,
      adapter,
      mapping: defaultMapping('reference'),
      mappings: () => adapter.mappings(),
      mediaBytes: async () => new Blob([]),
      refusedUrl: (url) => refusedUrlReason(url, false),
      linkBytes: async () => {
        throw new Error('the adapters of these tests fetch no links');
      },
      sleep: async () => undefined,
    };
    const outcome = await upsertRemote(deps, {
      batchId: `${p}b`,
      dryRun: false,
      records: [create(`${p}1`, 'f1'), create(`${p}own`, 'f2')],
      bodySha256: 'x',
    });
    expect(JSON.parse(outcome.answer)).toMatchObject({
      created: 1,
      failed: [{ index: 1, sku: `${p}own`, field: 'sku', error: 'the SKU belongs to a product the shop owns' }],
    });
    expect((await productRows(p)).map((r) => [r.sku, r.managed, r.fingerprint])).toEqual([
      [`${p}1`, 1, 'f1'],
      [`${p}own`, 0, null],
    ]);
    expect((await mirror.rows([`${p}1`])).get(`${p}1`)?.ids).toEqual({ product: `${p}1`, variants: {} });
  });
});

describe('WriteContext.mediaBytes', () => {
  const bytes = new TextEncoder().encode('a PNG, more or less');
  async function ref(url: string): Promise<MediaRef> {
    return {
      sha256: await bodyHash(bytes),
      url,
      contentType: 'image/png',
      fileName: 'ls.png',
      purpose: 'normal',
      position: 0,
    };
  }

  it('refuses a loopback or private image URL without ALLOW_PRIVATE_TARGETS and never fetches it', async () => {
    const fetched: string[] = [];
    const mediaBytes = createMediaBytes({
      bucket: env.MEDIA,
      fetcher: async (input) => {
        fetched.push(String(input));
        return new Response(bytes);
      },
      allowPrivate: false,
    });
    for (const url of ['http://127.0.0.1/ls.png', 'http://[::1]/ls.png', 'http://169.254.169.254/ls.png']) {
      await expect(mediaBytes(await ref(url))).rejects.toThrow(/refused: the URL points to a private/);
    }
    expect(fetched).toEqual([]);
  });

  it('refuses a redirect to a private address', async () => {
    const mediaBytes = createMediaBytes({
      bucket: env.MEDIA,
      fetcher: async () => new Response(null, { status: 302, headers: { Location: 'http://10.0.0.5/x.png' } }),
      allowPrivate: false,
    });
    await expect(mediaBytes(await ref('https://cdn.example/ls-redirect.png'))).rejects.toThrow(MediaError);
  });

  it('verifies the sha256, stores the bytes in R2 and never fetches them again', async () => {
    const other = new TextEncoder().encode(`other bytes ${crypto.randomUUID()}`);
    const fetched: string[] = [];
    let body: Uint8Array = other;
    const mediaBytes = createMediaBytes({
      bucket: env.MEDIA,
      fetcher: async (input) => {
        fetched.push(String(input));
        return new Response(body);
      },
      allowPrivate: true,
    });
    const wanted = { ...(await ref('http://127.0.0.1:9999/ls.png')), sha256: await bodyHash(other) };
    const wrong = { ...wanted, sha256: await bodyHash(bytes) };
    await expect(mediaBytes(wrong)).rejects.toThrow('the image bytes do not match its sha256');
    expect(await env.MEDIA.head(`media/${wrong.sha256}`)).toBeNull();

    body = other;
    const blob = await mediaBytes(wanted);
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(other);
    expect((await env.MEDIA.head(`media/${wanted.sha256}`))?.size).toBe(other.byteLength);
    await mediaBytes(wanted);
    expect(fetched).toHaveLength(2);
  });
});

describe('WriteContext.linkBytes', () => {
  const link = (url: string): MediaLink => ({
    url,
    contentType: 'image/jpeg',
    fileName: 'cat.jpg',
    purpose: 'normal',
    description: null,
    mimeCode: null,
    position: 0,
  });

  it('refuses a private URL or a redirect to one without fetching it, and an error status or an oversized answer', async () => {
    const fetched: string[] = [];
    const linkBytes = createLinkBytes({
      fetcher: async (input) => {
        fetched.push(String(input));
        return new Response(null, { status: 302, headers: { Location: 'http://10.0.0.5/cat.jpg' } });
      },
      allowPrivate: false,
    });
    await expect(linkBytes(link('http://192.168.1.4/cat.jpg'))).rejects.toThrow(
      'the image URL is refused: the URL points to a private, loopback or link-local address',
    );
    expect(fetched).toEqual([]);
    await expect(linkBytes(link('https://cdn.example/cat.jpg'))).rejects.toThrow(MediaError);
    expect(fetched).toEqual(['https://cdn.example/cat.jpg']);

    const answering = (response: Response) =>
      createLinkBytes({ fetcher: async () => response, allowPrivate: false })(link('https://cdn.example/cat.jpg'));
    await expect(answering(new Response('gone', { status: 404 }))).rejects.toThrow('the image URL answered HTTP 404');
    await expect(
      answering(new Response('x', { headers: { 'Content-Length': String(MAX_IMAGE_BYTES + 1) } })),
    ).rejects.toThrow(`the image is larger than ${MAX_IMAGE_BYTES} bytes`);
  });

  it('answers the bytes typed as the link says, fetched each time (a link has no hash to keep them by)', async () => {
    const body = new TextEncoder().encode('a category picture');
    let fetches = 0;
    const linkBytes = createLinkBytes({
      fetcher: async () => {
        fetches++;
        return new Response(body);
      },
      allowPrivate: false,
    });
    const blob = await linkBytes(link('https://cdn.example/cat.jpg'));
    expect(blob.type).toBe('image/jpeg');
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(body);
    await linkBytes(link('https://cdn.example/cat.jpg'));
    expect(fetches).toBe(2);
  });
});
