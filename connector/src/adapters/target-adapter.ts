import type { Mappings, MediaLink, MediaRef, Product, UpsertRecord } from '../../../src/sync/protocol/wire';
import type { TargetHttp } from './target-http';

// The target's kind, mapping and config are part of the wire (PUT /target): src/sync/protocol/target.ts.
export type { TargetConfig, TargetKind, TargetMapping } from '../../../src/sync/protocol/target';
export { TARGET_KINDS } from '../../../src/sync/protocol/target';
import type { TargetConfig, TargetKind, TargetMapping } from '../../../src/sync/protocol/target';

// Adapters import the error with the interface; it lives apart so the HTTP client can throw it.
export { TargetError } from './target-error';

/**
 * The adapter between the connector and one shop engine (docs/shops.md). The connector keeps
 * the sync protocol (signatures, batches and their replay, the inventory of fingerprints, the
 * image fetches) and a mirror of what it wrote: per SKU the fingerprint, the target's ids and
 * the product as last written. An adapter only turns the PIM's records into the target's own
 * API calls and says, per record, what happened.
 *
 * Rules every adapter keeps:
 * - Idempotent by SKU. Neither engine upserts by an external key, so an adapter looks up first
 *   (`known` ids, else `findBySku`) and updates; a second run never creates a second product,
 *   variant, slug, image or property value.
 * - It never touches what it did not create: products found by SKU that carry no PIM marker
 *   (custom field, metafield, external id, ...) are reported as a failure ("owned by the shop"),
 *   not overwritten.
 * - One record's failure is an outcome, not an exception: `write` throws only when the target
 *   cannot be reached at all (the connector then answers 503 and the PIM retries the batch).
 * - Removals are real: variants, images, properties, categories and translations the record no
 *   longer carries are removed from the target (or, per mapping, a deactivated product disabled).
 * - Images are deduplicated by content hash (`MediaRef.sha256`): an image already in the target
 *   (by `TargetIds.media`) is linked, never uploaded again.
 */
export interface TargetAdapter {
  readonly kind: TargetKind;
  /**
   * Checks the credentials and reads what the target offers (languages, currencies, tax
   * classes, channels). The web app's "test connection" shows it; a wrong credential or an
   * unreachable target throws a `TargetError` with a plain reason.
   */
  probe(): Promise<TargetProbe>;
  /**
   * The lookup tables the PIM maps manufacturers, units and tax codes onto (GET /mappings).
   * With `cached`, an adapter may answer what it read earlier in this Worker isolate (Medusa
   * does: two requests per POST /upsert otherwise); the connector asks so only to validate a
   * batch, and asks again without it when a record names an id the cached answer lacks.
   */
  mappings(options?: { cached?: boolean }): Promise<Mappings>;
  /** Finds what the target already holds for SKUs the mirror has no ids for (a lost mapping). */
  findBySku(skus: string[]): Promise<Map<string, TargetIds>>;
  /**
   * Writes the records (creates, updates, deactivations) and answers one outcome per record,
   * in any order. The connector passes at most `batchSize` records at a time.
   */
  write(records: TargetRecord[], ctx: WriteContext): Promise<RecordOutcome[]>;
  /** How many records the adapter wants per `write` call (the target's own batch limits). */
  readonly batchSize: number;
  /**
   * Records per POST /upsert the PIM should send this target (GET /mappings advertises it as
   * X-Max-Batch-Records); absent: four chunks of `batchSize`, at most MAX_BATCH_RECORDS.
   */
  readonly maxBatchRecords?: number;
}

/** The target's ids for one PIM master, kept in the connector's mirror. */
export interface TargetIds {
  /** The target's product id. */
  product: string;
  /** Variant SKU -> the target's variant id (the master's own SKU too where the target needs a variant for it). */
  variants: Record<string, string>;
  /** Image content hash -> the target's media / asset id. */
  media?: Record<string, string>;
  /** Anything else the adapter needs to find again (option group ids, price ids, ...). */
  extra?: Record<string, string>;
}

export interface TargetRecord {
  /** The record's index in the batch (outcomes name it). */
  index: number;
  record: UpsertRecord;
  /** The ids from the mirror, or from `findBySku` after a lost mapping; null for a product the target does not hold. */
  known: TargetIds | null;
  /** The product as the connector last wrote it to this target (null when unknown): what to remove. */
  previous: Product | null;
}

export type RecordOutcome =
  | {
      index: number;
      ok: true;
      /** The ids after the write; null when the product was deleted from the target. */
      ids: TargetIds | null;
      /** What the write did, for the answer's counts. */
      action: 'created' | 'updated' | 'deactivated' | 'unchanged';
    }
  | {
      index: number;
      ok: false;
      /** The record's field the target refused (`product.name`, `product.variants.2.sku`), or `record`. */
      field: string;
      /** The target's own reason in plain words, without credentials or internals. */
      error: string;
      /** True for 429, 5xx, timeouts: the connector retries the record with backoff. */
      retryable: boolean;
    };

export interface WriteContext {
  mapping: TargetMapping;
  /**
   * The bytes of an image, verified against its sha256 (from the connector's R2, else fetched
   * with the SSRF check and kept in R2). Rejects with an Error whose message is plain and safe
   * (refused URL, HTTP status, size, hash mismatch): fail that record (`product.media.N`).
   */
  mediaBytes(ref: MediaRef): Promise<Blob>;
  /**
   * The connector's SSRF rule (url-guard.ts) for a URL the adapter hands to the shop without
   * fetching it itself (a category's picture link): the plain reason it is refused, or null.
   */
  refusedUrl(url: string): string | null;
  /**
   * The bytes of a media link (a category picture an engine stores as an upload), fetched under
   * the SSRF rule and size limit (no hash to check). Rejects like `mediaBytes`: fail the record
   * on the link's field.
   */
  linkBytes(link: MediaLink): Promise<Blob>;
  /**
   * Whether the bytes behind a category picture URL changed since the shop was last sent them
   * (a conditional request; media/picture-revalidation.ts): the adapter sends the picture again
   * although its URL is the same, then calls `categoryPictureSent`. Absent: never (tests, older
   * callers).
   */
  categoryPictureChanged?(url: string): Promise<boolean>;
  /** The shop took the category picture at `url` again after `categoryPictureChanged` said so. */
  categoryPictureSent?(url: string): Promise<void>;
  /**
   * The sha256 of the bytes behind a category picture URL now (the same one look per request as
   * `categoryPictureChanged`), with the bytes when that look fetched them: an adapter that stores
   * a picture by its content hash (Shopware) shares it with a product image of the same bytes.
   * Null when the URL was never read and cannot be now. Absent: the adapter hashes `linkBytes`.
   */
  categoryPicture?(url: string): Promise<{ sha256: string; bytes: ArrayBuffer | null } | null>;
  /** Ids of other products in the mirror by SKU (references / cross-selling to products already written). */
  idsOf(skus: string[]): Promise<Map<string, TargetIds>>;
  /**
   * The active products in the mirror whose ids name one of `skus` among their references still
   * waiting for a product (`extra.pendingReferences`, a JSON array of SKUs; Shopify's reference
   * metafields), with the product as last written: what to complete once those SKUs exist.
   */
  referencing(skus: string[]): Promise<{ sku: string; ids: TargetIds; product: Product }[]>;
  /**
   * The masters in the mirror whose product as last written carries one of these manufacturer
   * numbers (`manufacturerPid`): number -> their SKUs. A reference by manufacturer number
   * (`targetKind: 'mpn'`) is resolved with it (common/references.ts). Absent: only the products
   * of the write itself are asked (tests).
   */
  mastersByMpn?(numbers: string[]): Promise<Map<string, string[]>>;
  /**
   * The image hashes among `hashes` that a product of the mirror other than `skus` shows (its
   * `TargetIds.media`): an adapter whose shop shares one asset between products with the same
   * bytes deletes an image's asset only when none does. Absent: never delete (tests, older callers).
   */
  mediaShownElsewhere?(hashes: string[], skus: string[]): Promise<Set<string>>;
}

export interface TargetProbe {
  /** Shop name / version as the target reports it. */
  name: string;
  /** Locales or language codes the target offers (`de`, `de-DE`, a Shopware language id's locale code). */
  languages: string[];
  currencies: string[];
  /** Anything worth showing on "test connection" (channels, tax classes, plan features). */
  details: Record<string, string>;
}

/** What an adapter is built with: the HTTP client (retries, timeouts, SSRF check) and a clock for tests. */
export interface AdapterDeps {
  http: TargetHttp;
}
