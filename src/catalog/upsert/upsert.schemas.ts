import { z } from 'zod';
import { ClassRef, FeatureValueInput } from '../../classification/classification.schemas';
import { MEDIA_PURPOSES, MediaAttachmentDto } from '../../media/media';
import { MAX_REFERENCES, ReferenceIn } from '../references/reference-rules';
import { featureBlockSchema } from '../../model/feature-block-types';
import { PRODUCT_STATUSES } from '../../kernel/product-status';

/**
 * Request shape of `POST /api/Catalog/UpsertProducts` and the `upsert_products` MCP tool.
 * Fields are checked here only for shape; their values are parsed by the domain function with
 * the same rules as SetValue (model/fields.ts), so a bad value becomes a per-item error that
 * names the field instead of failing the whole request.
 */
const text = (max: number) => z.string().max(max).nullish();
const numberOrText = z.union([z.int(), z.string().max(20)]).nullish();

const nodeFields = {
  sku: z.string().min(1).max(64),
  name: text(250),
  description: text(32000),
  gtin: text(14),
  manufacturerName: text(250),
  manufacturerPid: text(64),
  unit: text(3),
  price: text(20),
  priceQuantity: numberOrText,
  contentUnit: text(3),
  contentPerUnit: text(40),
  quantityMin: text(40),
  quantityInterval: text(40),
  keywords: text(1000),
  deliveryTimeDays: numberOrText,
  status: z.enum(PRODUCT_STATUSES).nullish(),
  /** Attribute values by attribute code; given, they replace the element's attribute values. */
  values: z.record(z.string().max(64), z.string().max(4000)).optional(),
  /** Given, replaces the classification; null removes it. */
  classification: z
    .strictObject({
      classes: z.array(ClassRef).min(1).max(3),
      features: z.array(FeatureValueInput).max(500).optional(),
    })
    .nullish(),
  /** References to media files (bytes are not fetched); given, they replace the element's media list. */
  media: z
    .array(
      z.strictObject({
        fileName: z.string().min(1).max(200),
        contentType: z.string().max(100).optional(),
        purpose: z.enum(MEDIA_PURPOSES).optional(),
        description: z.string().max(250).optional(),
        /** An xChange attachment's type, languages and dates (what media reads answer). */
        attachment: MediaAttachmentDto.optional(),
      }),
    )
    .max(50)
    .optional(),
  /** Outgoing references in order (SetReferences' rules); given, they replace the list. A target SKU not in the catalog is kept as pending. */
  references: z.array(ReferenceIn).max(MAX_REFERENCES).optional(),
  /**
   * Feature blocks of other systems in order (SetFeatureBlocks' shape); given, they replace the
   * list. An empty list removes every block: the field is named, so the removal is said.
   */
  featureBlocks: z.array(featureBlockSchema).max(50).optional(),
  /**
   * Texts per language (ISO 639-2 code, enabled for the company): `{ eng: { name, description,
   * keywords, "values.<code>" } }`; a field left out is left alone, null removes the
   * translation. The catalog's default language writes the fields themselves (docs/languages.md).
   */
  translations: z
    .record(
      z.string().max(8),
      z.record(
        z
          .string()
          .regex(
            /^(name|description|keywords|values\.[^@\s]{1,64})$/,
            'only name, description, keywords and values.<attribute> are localizable',
          ),
        z.string().max(32000).nullable(),
      ),
    )
    .optional(),
};

export const UpsertVariantInput = z.strictObject(nodeFields);

export const UpsertProductInput = z.strictObject({
  ...nodeFields,
  /** Categories of the same catalog; given, they replace the placements (a subtree-scoped member's: those inside, catalog/placement-reach.ts). */
  categoryIds: z.array(z.uuid()).max(50).optional(),
  /** Variants of this master, matched by SKU; variants not listed are kept. */
  variants: z.array(UpsertVariantInput).max(100).optional(),
});

const MAX_UPSERT_ITEMS = 1000;

export const UpsertProductsDto = z.strictObject({
  departmentId: z.uuid(),
  catalogId: z.uuid(),
  /** `upsert` (default) creates and updates by SKU; `createOnly` leaves existing SKUs untouched (answered unchanged). */
  mode: z.enum(['upsert', 'createOnly']).default('upsert'),
  items: z.array(UpsertProductInput).min(1).max(MAX_UPSERT_ITEMS),
});
export type UpsertProductsInput = z.infer<typeof UpsertProductsDto>;

const Outcome = {
  sku: z.string(),
  status: z.enum(['created', 'updated', 'unchanged', 'error']),
  productId: z.string().nullable(),
  /** For status error: the field at fault (e.g. `price`, `values.voltage`, `classification.features`). */
  field: z.string().nullable(),
  error: z.string().nullable(),
};

export const UpsertProductsOut = z.object({
  items: z.array(z.object({ ...Outcome, variants: z.array(z.object(Outcome)) })),
  counts: z.object({ created: z.int(), updated: z.int(), unchanged: z.int(), error: z.int() }),
});
