import type { Mappings, MediaLink, MediaRef, UpsertFailure, UpsertRecord } from '../../../src/sync/protocol/wire';
import { mpnResolutions } from '../adapters/common/references';
import type { TargetAdapter, TargetMapping, TargetRecord, WriteContext } from '../adapters/target-adapter';
import { ConnectorError } from '../http/connector-error';
import type { BatchLease, StoredOutcome } from '../mirror/batch-lease';
import { type MirrorRow, MirrorStore } from '../mirror/mirror-store';
import type { MappingIds } from '../store/shop-store';
import { changeOf } from './changed-fields';
import { checkBatchSize, refuseBatch, replayOrConflict, type UpsertInput, type UpsertOutcome } from './upsert-batch';
import { validateBatch } from './validate-batch';
import { RECORD_RETRY, type RetryPolicy, writeChunk } from './write-chunk';

/** What a batch against a real shop runs with (built per request from the key's target). */
export interface RemoteDeps {
  mirror: MirrorStore;
  adapter: TargetAdapter;
  mapping: TargetMapping;
  /** The target's lookup tables, fetched once per request (or kept by the adapter: `TargetAdapter.mappings`). */
  mappings: () => Promise<Mappings>;
  /**
   * The lookup tables read from the shop now, for when a record names an id `mappings` lacks
   * (a tag or tax rate added in the shop since the adapter kept them). Absent: no second look.
   */
  freshMappings?: () => Promise<Mappings>;
  mediaBytes: (ref: MediaRef) => Promise<Blob>;
  /** `WriteContext.refusedUrl`: the SSRF rule with the deployment's ALLOW_PRIVATE_TARGETS. */
  refusedUrl: (url: string) => string | null;
  /** `WriteContext.linkBytes`. */
  linkBytes: (link: MediaLink) => Promise<Blob>;
  /**
   * `WriteContext.categoryPictureChanged` / `categoryPictureSent`, one per request
   * (media/picture-revalidation.ts `createPictureCheck`, typed here by shape: that module's
   * imports lead back to the bindings).
   */
  pictureCheck?: {
    changed(url: string): Promise<boolean>;
    current(url: string): ReturnType<NonNullable<WriteContext['categoryPicture']>>;
    sent(url: string): Promise<void>;
  };
  sleep: (ms: number) => Promise<void>;
  retry?: RetryPolicy;
}

/** A validation failure about a lookup id (`product.manufacturerId`, `product.variants.2.taxId`). */
const MAPPING_FIELD = /(?:^|\.)(?:manufacturerId|unitId|taxId)$/;

function idsOfMappings(mappings: Mappings): MappingIds {
  const ids = (rows: { id: string }[]) => new Set(rows.map((r) => r.id));
  return { manufacturers: ids(mappings.manufacturers), units: ids(mappings.units), taxes: ids(mappings.taxes) };
}

/** The target already holds the record as sent: same fingerprint and the same active state. */
function isUnchanged(record: UpsertRecord, row: MirrorRow | undefined): boolean {
  if (!row) return false;
  if (record.op === 'deactivate') return !row.active;
  return row.active && row.fingerprint === record.fingerprint && row.ids !== null;
}

interface Counts {
  created: number;
  updated: number;
  deactivated: number;
  unchanged: number;
}

function answerOf(batchId: string, records: UpsertRecord[], outcomes: Map<number, StoredOutcome>) {
  const counts: Counts = { created: 0, updated: 0, deactivated: 0, unchanged: 0 };
  const failed: UpsertFailure[] = [];
  records.forEach((record, index) => {
    const outcome = outcomes.get(index)!;
    if (outcome.ok) counts[outcome.action]++;
    else failed.push({ index, sku: record.sku, field: outcome.field, error: outcome.error });
  });
  return { answer: JSON.stringify({ batchId, dryRun: false, ...counts, failed }), counts, failed };
}

/**
 * The dry run's answer: counts and what each record would change. Where the shop writes
 * references, a record's references by manufacturer number show the SKU each resolves to,
 * among the batch's records that would be sent and the mirror (a real write resolves per
 * chunk: a carrier in a later chunk than its referrer is found there only by the next run).
 */
async function dryRunAnswer(
  deps: RemoteDeps,
  batchId: string,
  records: UpsertRecord[],
  rows: Map<string, MirrorRow>,
): Promise<string> {
  const counts: Counts = { created: 0, updated: 0, deactivated: 0, unchanged: 0 };
  const sent: TargetRecord[] = [];
  records.forEach((record, index) => {
    const row = rows.get(record.sku);
    if (isUnchanged(record, row)) counts.unchanged++;
    else sent.push({ index, record, known: row?.ids ?? null, previous: row?.product ?? null });
  });
  const resolutions = deps.mapping.references
    ? await mpnResolutions(sent, { mastersByMpn: (numbers) => deps.mirror.mastersByMpn(numbers) })
    : new Map();
  const changes = sent.map(({ index, record, previous }) => {
    counts[record.op === 'create' ? 'created' : record.op === 'update' ? 'updated' : 'deactivated']++;
    return changeOf(record, previous, resolutions.get(index));
  });
  return JSON.stringify({ batchId, dryRun: true, ...counts, changes });
}

/**
 * One POST /upsert against a real shop (docs/shops.md, "A batch against a real shop"): the
 * checks of the reference store, then only the records the mirror does not already hold go to
 * the adapter, chunk by chunk; every chunk's outcomes are committed with their mirror rows, so
 * a retry of the same batch after a crash sends nothing twice and still answers the whole
 * batch. Records the shop refuses are reported in `failed`, not in the inventory.
 */
export async function upsertRemote(deps: RemoteDeps, input: UpsertInput, now = new Date()): Promise<UpsertOutcome> {
  checkBatchSize(input);
  const { mirror } = deps;
  if (!input.dryRun) {
    const stored = await mirror.findBatch(input.batchId);
    if (stored?.answer != null)
      return replayOrConflict({ bodySha256: stored.bodySha256, answer: stored.answer }, input.bodySha256);
    if (stored && stored.bodySha256 !== input.bodySha256) replayOrConflict({ ...stored, answer: '' }, input.bodySha256);
  }
  let rows = new Map<string, MirrorRow>();
  const validate = (mappings: () => Promise<Mappings>) =>
    validateBatch(
      {
        mappingIds: async () => idsOfMappings(await mappings()),
        productStates: async (skus) => MirrorStore.statesOf((rows = await mirror.rows(skus))),
      },
      input.records,
    );
  let { records, failures } = await validate(deps.mappings);
  // An id the kept lookup tables lack may be new in the shop: looked up once more before it is refused.
  if (deps.freshMappings && failures.some((f) => MAPPING_FIELD.test(f.field))) {
    ({ records, failures } = await validate(deps.freshMappings));
  }
  if (failures.length > 0) refuseBatch(failures);
  if (input.dryRun)
    return { answer: await dryRunAnswer(deps, input.batchId, records, rows), replayed: false, imagesToFetch: [] };

  const stamp = now.toISOString();
  const { batch, outcomes, lease, leaseEndsInMs } = await mirror.openBatch(
    input.batchId,
    input.bodySha256,
    stamp,
    crypto.randomUUID(),
  );
  if (batch.answer !== null || batch.bodySha256 !== input.bodySha256)
    return replayOrConflict({ bodySha256: batch.bodySha256, answer: batch.answer ?? '' }, input.bodySha256);
  if (!lease) throw batchUnderWay(leaseEndsInMs);
  lease.start();
  try {
    const answer = await writeBatch(deps, input, records, rows, outcomes, lease);
    await lease.stop({ release: false });
    return { answer, replayed: false, imagesToFetch: [] };
  } catch (err) {
    await lease.stop({ release: true }).catch(() => undefined);
    throw err;
  }
}

/** Another request holds the batch's lease: retryable, after that lease would run out at the latest. */
function batchUnderWay(leaseEndsInMs: number): ConnectorError {
  return new ConnectorError(
    'unavailable',
    'this batch is being written by another request; retry later',
    {},
    { 'Retry-After': String(Math.max(1, Math.ceil(leaseEndsInMs / 1000))) },
  );
}

/** Sends the records the mirror does not hold yet, chunk by chunk, and stores the batch's answer. */
async function writeBatch(
  deps: RemoteDeps,
  input: UpsertInput,
  records: UpsertRecord[],
  rows: Map<string, MirrorRow>,
  outcomes: Map<number, StoredOutcome>,
  lease: BatchLease,
): Promise<string> {
  const { mirror, adapter } = deps;

  const toSend: TargetRecord[] = [];
  records.forEach((record, index) => {
    if (outcomes.has(index)) return;
    const row = rows.get(record.sku);
    if (isUnchanged(record, row)) outcomes.set(index, { ok: true, action: 'unchanged' });
    else toSend.push({ index, record, known: row?.ids ?? null, previous: row?.product ?? null });
  });

  const ctx: WriteContext = {
    mapping: deps.mapping,
    mediaBytes: deps.mediaBytes,
    refusedUrl: deps.refusedUrl,
    linkBytes: deps.linkBytes,
    ...(deps.pictureCheck
      ? {
          categoryPictureChanged: (url: string) => deps.pictureCheck!.changed(url),
          categoryPictureSent: (url: string) => deps.pictureCheck!.sent(url),
          categoryPicture: (url: string) => deps.pictureCheck!.current(url),
        }
      : {}),
    idsOf: (skus) => mirror.idsOf(skus),
    referencing: (skus) => mirror.referencing(skus),
    mastersByMpn: (numbers) => mirror.mastersByMpn(numbers),
    mediaShownElsewhere: (hashes, skus) => mirror.mediaShownElsewhere(hashes, skus),
  };
  for (let i = 0; i < toSend.length; i += adapter.batchSize) {
    // A request stalled past its lease may have been overtaken by a retry: it stops writing.
    if (!lease.held) throw batchUnderWay(0);
    const chunk = toSend.slice(i, i + adapter.batchSize);
    const lost = chunk.filter((t) => t.known === null && t.record.op !== 'deactivate').map((t) => t.record.sku);
    const found = lost.length > 0 ? await adapter.findBySku(lost) : new Map();
    await writeChunk(
      chunk.map((t) => (t.known === null ? { ...t, known: found.get(t.record.sku) ?? null } : t)),
      {
        adapter,
        ctx,
        policy: deps.retry ?? RECORD_RETRY,
        sleep: deps.sleep,
        commit: async (finals) => {
          await mirror.commit(
            input.batchId,
            finals.map(({ target, outcome }) => ({ index: target.index, record: target.record, outcome })),
            new Date().toISOString(),
          );
          for (const { target, outcome } of finals) {
            outcomes.set(
              target.index,
              outcome.ok
                ? { ok: true, action: outcome.action }
                : { ok: false, field: outcome.field, error: outcome.error },
            );
          }
        },
      },
    );
  }

  const { answer, counts, failed } = answerOf(input.batchId, records, outcomes);
  await mirror.finishBatch(input.batchId, answer, { ...counts, failed: failed.length });
  return answer;
}
