import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
} from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bodyHash } from '../../src/sync/protocol/signing';
import type { MediaRef } from '../../src/sync/protocol/wire';
import worker from '../src/index';
import { D1ShopStore } from '../src/store/d1-store';
import { call, create, seedMappings, uniquePrefix, upsert } from './helpers';
import type { ImageMessage } from '../src/env';

const PIM = 'https://pim.test/media/signed';

/** Distinct image bytes per test and their hash. */
async function makeImage(label: string) {
  const bytes = new TextEncoder().encode(`PNG-bytes-of-${label}-${crypto.randomUUID()}`);
  return { bytes, sha256: await bodyHash(bytes) };
}

function ref(sha256: string, url = `${PIM}/${sha256}?expires=1&sig=ab`): MediaRef {
  return { sha256, url, contentType: 'image/png', fileName: 'photo.png', purpose: 'normal', position: 0 };
}

async function mediaRow(sha256: string) {
  return env.DB.prepare('SELECT state, attempts, last_error, url, queued_at FROM media WHERE sha256 = ?1')
    .bind(sha256)
    .first<{ state: string; attempts: number; last_error: string | null; url: string; queued_at: string }>();
}

/** Runs the image queue consumer on one message, as the Queues runtime would. */
async function deliver(sha256: string, attempts = 1, queue = 'shop-connector-images') {
  const batch = createMessageBatch<ImageMessage>(queue, [
    { id: `msg-${attempts}`, timestamp: Date.now(), attempts, body: { sha256 } },
  ]);
  // getQueueResult does not report a retry's delay: watch the call (it still runs).
  const retry = vi.spyOn(batch.messages[0]!, 'retry');
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  return {
    ...(await getQueueResult(batch, ctx)),
    retryDelays: retry.mock.calls.map(([options]) => options?.delaySeconds),
  };
}

/** Serves the PIM's signed media URLs from a map (the only stand-in: the PIM is another Worker). */
function servePim(responses: Map<string, () => Response>) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = input instanceof Request ? input.url : String(input);
    const answer = [...responses.entries()].find(([hash]) => url.includes(hash));
    return answer ? answer[1]() : new Response('not found', { status: 404 });
  });
}

describe('image queue', () => {
  beforeEach(seedMappings);
  afterEach(() => vi.restoreAllMocks());

  it('records referenced images as pending when a batch commits', async () => {
    const p = uniquePrefix();
    const a = await makeImage('a');
    const b = await makeImage('b');
    const variant = { ...create('v').product!, sku: `${p}1-v`, media: [ref(b.sha256)] };
    await upsert([
      create(`${p}1`, 'f', { media: [ref(a.sha256)], variants: [variant as never] }),
      create(`${p}2`, 'f', { media: [ref(a.sha256)] }),
    ]);
    expect((await mediaRow(a.sha256))?.state).toBe('pending');
    expect((await mediaRow(b.sha256))?.state).toBe('pending');
    const status = (await (await call('GET', '/status')).json()) as { media: { pending: number } };
    expect(status.media.pending).toBeGreaterThanOrEqual(2);
  });

  it('fetches, verifies and stores an image once; a stored hash is never fetched again', async () => {
    const p = uniquePrefix();
    const image = await makeImage('once');
    await upsert([create(`${p}1`, 'f', { media: [ref(image.sha256)] })]);
    const fetches = servePim(new Map([[image.sha256, () => new Response(image.bytes)]]));

    const result = await deliver(image.sha256);
    expect(result.explicitAcks).toEqual(['msg-1']);
    expect(result.retryMessages).toEqual([]);
    const object = await env.MEDIA.get(`media/${image.sha256}`);
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(image.bytes);
    expect(object!.httpMetadata?.contentType).toBe('image/png');
    expect((await mediaRow(image.sha256))?.state).toBe('stored');

    expect((await deliver(image.sha256, 1)).explicitAcks).toEqual(['msg-1']);
    await upsert([create(`${p}2`, 'f', { media: [ref(image.sha256, `${PIM}/other-url`)] })]);
    expect(await mediaRow(image.sha256)).toMatchObject({
      state: 'stored',
      url: `${PIM}/${image.sha256}?expires=1&sig=ab`,
    });
    expect(fetches).toHaveBeenCalledTimes(1);
  });

  it('retries with exponential backoff on a server error or wrong bytes, keeping the reason', async () => {
    const p = uniquePrefix();
    const image = await makeImage('retry');
    await upsert([create(`${p}1`, 'f', { media: [ref(image.sha256)] })]);
    servePim(new Map([[image.sha256, () => new Response('busy', { status: 503 })]]));
    const first = await deliver(image.sha256, 1);
    expect(first.retryMessages).toEqual([{ msgId: 'msg-1' }]);
    expect(first.retryDelays).toEqual([30]);
    expect(await mediaRow(image.sha256)).toMatchObject({
      state: 'pending',
      attempts: 1,
      last_error: 'the image URL answered HTTP 503',
    });

    vi.restoreAllMocks();
    servePim(new Map([[image.sha256, () => new Response('tampered bytes')]]));
    const second = await deliver(image.sha256, 3);
    expect(second.retryMessages).toEqual([{ msgId: 'msg-3' }]);
    expect(second.retryDelays).toEqual([120]);
    expect(await mediaRow(image.sha256)).toMatchObject({
      state: 'pending',
      attempts: 3,
      last_error: 'the fetched bytes do not match the sha256',
    });
    expect(await env.MEDIA.head(`media/${image.sha256}`)).toBeNull();
  });

  it('fails an image at once when its URL is refused, and re-queues it when a batch references it again', async () => {
    const p = uniquePrefix();
    const image = await makeImage('gone');
    await upsert([create(`${p}1`, 'f', { media: [ref(image.sha256)] })]);
    servePim(new Map([[image.sha256, () => new Response('expired', { status: 403 })]]));
    expect((await deliver(image.sha256)).explicitAcks).toEqual(['msg-1']);
    expect(await mediaRow(image.sha256)).toMatchObject({
      state: 'failed',
      last_error: 'the image URL answered HTTP 403',
    });

    await upsert([create(`${p}2`, 'f', { media: [ref(image.sha256, `${PIM}/${image.sha256}?fresh`)] })]);
    expect(await mediaRow(image.sha256)).toMatchObject({
      state: 'pending',
      attempts: 0,
      last_error: null,
      url: `${PIM}/${image.sha256}?fresh`,
    });
  });

  it('marks an image failed with the last reason when its message is dead-lettered', async () => {
    const p = uniquePrefix();
    const image = await makeImage('dead');
    await upsert([create(`${p}1`, 'f', { media: [ref(image.sha256)] })]);
    servePim(new Map([[image.sha256, () => new Response('down', { status: 502 })]]));
    expect((await deliver(image.sha256, 5)).retryMessages).toHaveLength(1);
    const result = await deliver(image.sha256, 1, 'shop-connector-images-dlq');
    expect(result.explicitAcks).toEqual(['msg-1']);
    expect(await mediaRow(image.sha256)).toMatchObject({
      state: 'failed',
      last_error: 'gave up after 5 tries: the image URL answered HTTP 502',
    });
    const status = (await (await call('GET', '/status')).json()) as { media: { failed: number } };
    expect(status.media.failed).toBeGreaterThanOrEqual(1);
  });

  it('re-queues images left pending past the sweep age from the Cron Trigger', async () => {
    const p = uniquePrefix();
    const stale = await makeImage('stale');
    const fresh = await makeImage('fresh');
    await upsert([create(`${p}1`, 'f', { media: [ref(stale.sha256), ref(fresh.sha256)] })]);
    await env.DB.prepare("UPDATE media SET queued_at = '2026-01-01T00:00:00.000Z' WHERE sha256 = ?1")
      .bind(stale.sha256)
      .run();
    const freshBefore = (await mediaRow(fresh.sha256))!.queued_at;

    await worker.scheduled(createScheduledController({ cron: '*/15 * * * *' }), env, createExecutionContext());
    expect((await mediaRow(stale.sha256))!.queued_at > '2026-01-01T00:00:00.000Z').toBe(true);
    expect((await mediaRow(fresh.sha256))!.queued_at).toBe(freshBefore);
    expect(await new D1ShopStore(env.DB).claimStalePendingMedia('2026-01-02T00:00:00.000Z', 10)).toEqual([]);
  });
});
