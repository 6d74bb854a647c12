import { Hono } from 'hono';
import { IDEMPOTENT_REPLAY_HEADER, upsertRequestSchema } from '../../../src/sync/protocol/wire';
import type { ConnectorEnv } from '../env';
import { ConnectorError } from '../http/connector-error';
import { enqueueImages } from '../media/image-queue';
import { asUnavailable, upsertGate } from '../upsert/overload';
import { asTargetFailure } from '../targets/target-errors';
import { upsertBatch } from '../upsert/upsert-batch';
import { upsertRemote } from '../upsert/upsert-remote';

function parseEnvelope(body: Uint8Array) {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body));
  } catch {
    throw new ConnectorError('bad_request', 'the body must be JSON');
  }
  const result = upsertRequestSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ConnectorError('bad_request', `${issue.path.join('.') || 'body'}: ${issue.message}`);
  }
  return result.data;
}

/**
 * POST /upsert: one batch of creates, updates and deactivations. Into the reference store it
 * is one transaction whose new images are queued once committed (a failed send leaves them
 * pending for the sweep); into a real shop it is written chunk by chunk through the adapter.
 */
export const upsertRoutes = new Hono<ConnectorEnv>().post('/upsert', async (c) => {
  const body = c.get('body');
  const envelope = parseEnvelope(body);
  const input = {
    batchId: envelope.batchId,
    dryRun: envelope.dryRun ?? false,
    records: envelope.records,
    bodySha256: c.get('bodySha256'),
  };
  const remote = await c.get('remote')();
  const outcome = await upsertGate.run(async () => {
    try {
      return remote ? await upsertRemote(remote.deps, input) : await upsertBatch(c.get('store'), input);
    } catch (err) {
      throw asUnavailable(asTargetFailure(err, { retryable: true }));
    }
  });
  if (outcome.imagesToFetch.length > 0) await enqueueImages(c.env.IMAGE_QUEUE, outcome.imagesToFetch);
  const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=UTF-8' };
  if (outcome.replayed) headers[IDEMPOTENT_REPLAY_HEADER] = 'true';
  return c.body(outcome.answer, 200, headers);
});
