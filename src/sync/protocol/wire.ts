import { z } from 'zod';
import { PRODUCT_STATUSES } from '../../kernel/product-status';
import { STORED_DECIMAL } from '../../kernel/decimal';
import { UNIT_CODE } from '../../kernel/code-rules';

/** The decimal rule and rounding of amounts, for the connector's adapters (which round to their shop's places). */
export { currencyPlaces, decimalPlaces, MAX_DECIMALS, roundDecimal } from '../../kernel/decimal';

/**
 * The connector wire format (docs/sync.md, "Connector protocol"), shared by the PIM (client)
 * and the connector Worker. Field limits follow the PIM's own product fields so that nothing the
 * PIM accepts is refused by the wire schema.
 */

/** Largest batch a connector accepts in one POST /upsert (docs/spec.md part 8). */
export const MAX_BATCH_RECORDS = 1000;
/** Largest /upsert body in bytes; beyond it the connector answers 413. */
export const MAX_UPSERT_BODY_BYTES = 20 * 1024 * 1024;

export const INVENTORY_COUNT_HEADER = 'X-Inventory-Count';
export const IDEMPOTENT_REPLAY_HEADER = 'Idempotent-Replayed';
export const NDJSON_CONTENT_TYPE = 'application/x-ndjson';
/**
 * GET /mappings of a connector that writes into a real shop (docs/shops.md) carries the most
 * records the PIM should send in one POST /upsert, so a slow shop gets smaller batches that
 * finish within the PIM's slice. Absent for the reference store (MAX_BATCH_RECORDS applies).
 */
export const MAX_BATCH_RECORDS_HEADER = 'X-Max-Batch-Records';

// ---- GET /mappings -------------------------------------------------------------------------

export const mappingsSchema = z.object({
  manufacturers: z.array(z.object({ id: z.string(), name: z.string() })),
  units: z.array(z.object({ id: z.string(), code: z.string() })),
  taxes: z.array(z.object({ id: z.string(), code: z.string(), rate: z.number() })),
});
export type Mappings = z.infer<typeof mappingsSchema>;

// ---- GET /inventory ------------------------------------------------------------------------

export const inventoryLineSchema = z.object({ sku: z.string().min(1), fingerprint: z.string().min(1) });
export type InventoryLine = z.infer<typeof inventoryLineSchema>;

// ---- POST /upsert --------------------------------------------------------------------------

const text = (max: number) => z.string().max(max).nullable();
const id = z.string().min(1).max(200).nullable();

export const skuSchema = z
  .string()
  .min(1, 'sku must not be empty')
  .max(64)
  .refine((s) => s.trim() === s, 'sku must not start or end with spaces');
const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lowercase hex digits');
// Amounts travel as the PIM stores them (src/kernel/decimal.ts, up to 20 decimals); an adapter
// rounds to its shop's places.
const priceSchema = z.string().regex(STORED_DECIMAL, 'price must be a decimal string such as "12.50"').nullable();
/** An order-detail quantity as the PIM keeps it: a stored decimal above 0, as written ("6", "2.5"). */
const quantitySchema = z
  .string()
  .regex(STORED_DECIMAL, 'must be a decimal string such as "2.5"')
  .refine((v) => /[1-9]/.test(v), 'must be greater than 0');

const mediaRefSchema = z.object({
  sha256: sha256Schema,
  url: z.url({ protocol: /^https?$/ }).max(4000),
  contentType: z.string().min(1).max(200),
  fileName: z.string().min(1).max(500),
  purpose: z.string().min(1).max(50),
  position: z.int().min(0),
});
export type MediaRef = z.infer<typeof mediaRefSchema>;

/**
 * A media link (a file kept elsewhere, docs/data-model.md "Media"): its own absolute URL, never
 * downloaded as an uploaded file by the connector. `position` is its place in the element's one
 * list of files and links.
 */
const mediaLinkSchema = z.object({
  url: z.url({ protocol: /^https?$/ }).max(4000),
  contentType: z.string().min(1).max(200),
  fileName: z.string().min(1).max(500),
  purpose: z.string().min(1).max(50),
  description: z.string().max(250).nullable(),
  mimeCode: z.string().max(10).nullable(),
  position: z.int().min(0),
});
export type MediaLink = z.infer<typeof mediaLinkSchema>;

/**
 * A feature block of another system (UNSPSC, udf_*, a supplier's own, eCl@ss Advanced trees,
 * ETIM modelling classes;
 * docs/data-model.md "Feature blocks"): the system, its group, and its features with their
 * values as text, in order. The wire's own contract: the connector stores the block as sent.
 */
const wireText = z.string().min(1).max(4000);
const featureBlockSchema = z.object({
  system: z.string().max(250),
  groupId: z.string().max(250).nullable(),
  groupId2: z.string().max(250).nullable(),
  groupId2Type: z.string().max(20).optional(),
  groupName: z.string().max(250).nullable(),
  features: z
    .array(
      z.object({
        name: wireText.optional(),
        names: z.record(z.string().max(8), wireText).optional(),
        ftId: wireText.optional(),
        ftName: wireText.optional(),
        values: z.array(z.string().max(4000)).max(100).optional(),
        valueLangs: z.array(z.string().max(8)).max(100).optional(),
        valueIdrefs: z.array(z.string().max(250)).max(100).optional(),
        variants: z
          .array(z.object({ values: z.array(z.string().max(4000)).max(100), supplement: z.string().max(250) }))
          .max(100)
          .optional(),
        vorder: z.int().optional(),
        unit: wireText.optional(),
        order: z.int().optional(),
        descr: wireText.optional(),
        details: z.array(z.string().max(4000)).max(100).optional(),
        valueType: wireText.optional(),
        fid: wireText.optional(),
        parentId: wireText.optional(),
        featureGroup: z.int().min(0).optional(),
      }),
    )
    .max(1000),
  /** FEATURE_GROUPs of an eCl@ss Advanced tree; a feature's `featureGroup` is an index here. */
  featureGroups: z
    .array(
      z.object({
        id: wireText,
        name: wireText.optional(),
        names: z.record(z.string().max(8), wireText).optional(),
        descr: wireText.optional(),
        type: wireText.optional(),
        /** An ETIM modelling port's connection type and its version (block system ETIM-MC). */
        connectionType: wireText.optional(),
        connectionTypeVersion: z.int().min(1).optional(),
      }),
    )
    .max(1000)
    .optional(),
  /** An ETIM modelling class block's version and BIM status (system ETIM-MC); absent for other blocks. */
  modelling: z.object({ version: z.int().min(0).optional(), bimStatus: z.string().max(20).optional() }).optional(),
});
export type FeatureBlock = z.infer<typeof featureBlockSchema>;

/** `name` of classes and features is optional: the PIM may send only the codes. */
const classificationSchema = z
  .object({
    classes: z.array(z.object({ group: z.string(), system: z.string(), code: z.string(), name: z.string().nullish() })),
    features: z.array(
      z.object({
        group: z.string(),
        code: z.string(),
        name: z.string().nullish(),
        value: z.string(),
        unit: z.string().nullable(),
      }),
    ),
  })
  .nullable();

/** The fields a master product and each of its variants carry. */
const nodeFields = {
  name: text(250),
  description: text(32000),
  gtin: text(14),
  manufacturerId: id,
  manufacturerPid: text(64),
  unitId: id,
  taxId: id,
  price: priceSchema,
  priceQuantity: z.int().min(1).nullable(),
  /**
   * The order details (docs/data-model.md "Order details"): the content unit as its UN/ECE
   * Rec. 20 code (not a shop id: a shop without units still receives it), content units per
   * order unit, the least a customer orders and the step above it, decimals as written. Each is
   * absent when not set (BMEcat's default: content unit = order unit, the rest 1) and from PIMs
   * before them; a variant without one has its master's.
   */
  contentUnit: z.string().regex(UNIT_CODE, 'must be a UN/ECE Recommendation 20 code such as C62').optional(),
  contentPerUnit: quantitySchema.optional(),
  quantityMin: quantitySchema.optional(),
  quantityInterval: quantitySchema.optional(),
  keywords: text(1000),
  deliveryTimeDays: z.int().min(0).nullable(),
  status: z.enum(PRODUCT_STATUSES),
  values: z.record(z.string().min(1).max(100), z.string().max(32000)),
  classification: classificationSchema,
  media: z.array(mediaRefSchema).max(100),
  /** The price list (docs/data-model.md "Prices"); absent when the product has none. */
  prices: z
    .array(
      z.object({
        type: z.string().min(1).max(40),
        /** As stored (up to 20 decimals); null only for a price on request without amount. */
        amount: z.string().regex(STORED_DECIMAL).nullable(),
        currency: z.string().nullable(),
        tax: z.string().nullable(),
        factor: z.string().nullable(),
        lowerBound: z.string().nullable(),
        territory: z.array(z.string()),
        validFrom: z.string().nullable(),
        validTo: z.string().nullable(),
        daily: z.boolean(),
        /** PRICE_BASE ("per 100 MTR"); absent for a price per order unit. */
        base: z
          .object({ value: z.string().nullable(), unit: z.string().min(1).max(20), factor: z.string().nullable() })
          .optional(),
      }),
    )
    .max(500)
    .optional(),
  /** Absent from PIMs before media links; the connector stores them as they are. */
  links: z.array(mediaLinkSchema).max(100).optional(),
  /** Feature blocks of other systems, in order; absent when the product has none (and from older PIMs). */
  featureBlocks: z.array(featureBlockSchema).max(50).optional(),
  /**
   * The texts in the catalog's other languages: ISO 639-2 code -> field (`name`, `description`,
   * `keywords`, `values.<code>`, `details.<GROUP>.<code>`) -> text; the fields above are the
   * catalog's default language. Absent when there are none (and from PIMs before languages).
   */
  translations: z
    .record(z.string().regex(/^[a-z]{3}$/), z.record(z.string().min(1).max(200), z.string().max(32000)))
    .optional(),
};

const variantSchema = z.object({ sku: skuSchema, ...nodeFields });
export type Variant = z.infer<typeof variantSchema>;

/**
 * A category the master is placed in: its id and path of names root..leaf. `links` are the
 * category's own media links (its pictures, banners and sheets kept by URL; docs/shops.md
 * "Category images"), in its media order, absent when it has none (and from older PIMs): an
 * adapter that shows category images takes them from here. They are not part of the product's
 * fingerprint, so products of categories without links send what they sent before.
 */
const categoryRefSchema = z.object({
  id: z.string().min(1).max(200),
  path: z.array(z.string()).min(1).max(20),
  links: z.array(mediaLinkSchema).max(100).optional(),
});
export type CategoryRef = z.infer<typeof categoryRefSchema>;

/**
 * A reference from the master to another product (BMEcat PRODUCT_REFERENCE: accessories,
 * spare parts, similar; the type as the PIM keeps it), which shops show as cross-selling.
 */
const productReferenceSchema = z.object({
  type: z.string().min(1).max(50),
  sku: skuSchema,
  quantity: z.int().min(1).nullable(),
  /**
   * 'mpn': `sku` is the target's manufacturer product number (an ETIM xChange ProductRelation),
   * not its SKU; absent for a reference by SKU (and from older PIMs).
   */
  targetKind: z.literal('mpn').optional(),
});
export type ProductReference = z.infer<typeof productReferenceSchema>;

export const productSchema = z.object({
  ...nodeFields,
  categories: z.array(categoryRefSchema).max(50),
  variants: z.array(variantSchema).max(500),
  /** References to other products; absent when there are none (and from older PIMs). */
  references: z.array(productReferenceSchema).max(500).optional(),
});
export type Product = z.infer<typeof productSchema>;

export const upsertRecordSchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('create'),
    sku: skuSchema,
    fingerprint: z.string().min(1).max(200),
    product: productSchema,
  }),
  z.object({
    op: z.literal('update'),
    sku: skuSchema,
    fingerprint: z.string().min(1).max(200),
    product: productSchema,
  }),
  z.object({
    op: z.literal('deactivate'),
    sku: skuSchema,
    fingerprint: z.string().min(1).max(200),
    product: z.undefined().optional(),
  }),
]);
export type UpsertRecord = z.infer<typeof upsertRecordSchema>;

/**
 * The envelope of POST /upsert. Records are validated one by one (`upsertRecordSchema`) so
 * that a bad record is answered with 422 naming its index, not with a 400 for the whole body.
 */
export const upsertRequestSchema = z.object({
  batchId: z.string().min(1).max(200),
  dryRun: z.boolean().optional(),
  records: z.array(z.unknown()),
});

const upsertFailureSchema = z.object({
  index: z.int(),
  sku: z.string().nullable(),
  field: z.string(),
  error: z.string(),
});
export type UpsertFailure = z.infer<typeof upsertFailureSchema>;

/** What a dry run against a real shop would change for one record (the PIM shows it as a diff). */
const upsertChangeSchema = z.object({
  sku: z.string(),
  op: z.enum(['create', 'update', 'deactivate']),
  /** Changed paths against the product last written: `name`, `prices`, `variants.<sku>`, `variants.<sku>.price`. */
  fields: z.array(z.string()),
  /**
   * The record's references by manufacturer number (`targetKind: 'mpn'`) and the SKU of the
   * master each resolves to; `sku` null when no single product carries the number (the write
   * would fail the record). Only from a shop that writes references, only on records that have them.
   */
  references: z.array(z.object({ type: z.string(), number: z.string(), sku: z.string().nullable() })).optional(),
});
export type UpsertChange = z.infer<typeof upsertChangeSchema>;

/**
 * The answer of POST /upsert. The reference store answers the three counts; a connector that
 * writes into a real shop adds `unchanged` (records the shop already held as sent), `failed`
 * (records the shop refused: not written, left in the inventory as they were, so the next run
 * sends them again) and, for a dry run, `changes`. All optional, so older PIMs parse it.
 */
export const upsertResultSchema = z.object({
  batchId: z.string(),
  dryRun: z.boolean(),
  created: z.int(),
  updated: z.int(),
  deactivated: z.int(),
  unchanged: z.int().optional(),
  failed: z.array(upsertFailureSchema).optional(),
  changes: z.array(upsertChangeSchema).optional(),
});
export type UpsertResult = z.infer<typeof upsertResultSchema>;

/** The 422 answer: the batch was refused as a whole and nothing was written. */
export const upsertRejectionSchema = z.object({ error: z.string(), failures: z.array(upsertFailureSchema) });

// ---- GET /status ---------------------------------------------------------------------------

const statusSchema = z.object({
  products: z.object({ managed: z.int(), active: z.int(), deactivated: z.int() }),
  media: z.object({ stored: z.int(), pending: z.int(), failed: z.int() }),
  lastBatch: z
    .object({ batchId: z.string(), receivedAt: z.string(), created: z.int(), updated: z.int(), deactivated: z.int() })
    .nullable(),
});
export type ConnectorStatus = z.infer<typeof statusSchema>;
