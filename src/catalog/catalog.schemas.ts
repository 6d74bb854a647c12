import { z } from 'zod';
import { clientId } from '../kernel/ids';
import { PageQuery } from '../kernel/pagination';
import { commaList, ProductFilter } from './product-filter';
import { ATTRIBUTE_CODE } from './attribute-code';
import { PRODUCT_STATUSES } from '../kernel/product-status';
import { PriceOutSchema } from '../model/price-list';
import {
  CURRENCY_CODE,
  DECIMAL,
  DECIMAL_RULE,
  LANGUAGE_CODE,
  normaliseDecimal,
  positiveAmount,
  UNIT_CODE,
} from '../kernel/code-rules';
import { featureBlockOut } from '../model/feature-block-types';
import { LanguageQuery, LocalizedOut } from './translations/read-language';
import { MediaAttachmentDto } from '../media/media';

/**
 * Request and response shapes of the Catalog controller. Field names of CatalogDto, ProductDto
 * and SetValueDto are docs/spec.md part 2; the optional extras after them are this service's additions.
 */
const optionalText = (max: number) => z.string().max(max).nullish();

export const CatalogDto = z.strictObject({
  departmentId: z.uuid(),
  name: z.string().trim().min(1, 'name must not be empty').max(250),
  catalogId: clientId().nullish(),
  catalogType: optionalText(50),
  catalogVersion: optionalText(20),
  description: optionalText(8000),
  language: z.string().regex(LANGUAGE_CODE, 'language must be an ISO 639-2 code such as deu').nullish(),
  currency: z.string().regex(CURRENCY_CODE, 'currency must be an ISO 4217 code such as EUR').nullish(),
  /** The languages the catalog publishes (docs/languages.md); `language` is always one of them. */
  languages: z
    .array(z.string().regex(LANGUAGE_CODE, 'languages must be ISO 639-2 codes such as eng'))
    .max(40)
    .nullish(),
});
export type CatalogInput = z.infer<typeof CatalogDto>;

export const CatalogOut = z.object({
  catalogId: z.string(),
  departmentId: z.string(),
  name: z.string(),
  catalogType: z.string().nullable(),
  catalogVersion: z.string().nullable(),
  description: z.string().nullable(),
  language: z.string(),
  languages: z.array(z.string()),
  currency: z.string(),
  categoryCount: z.number().int(),
  productCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** `translations: { <language>: { <field>: text | null } }` of a write; checked by translations/translation-input.ts. */
export const TranslationsInput = z.record(
  z.string().max(8),
  z.record(z.string().max(120), z.string().max(32000).nullable()),
);

/** A positive amount kept as written (the decimal rule of prices, above 0), as a JSON string. */
const positiveDecimalIn = z
  .string()
  .trim()
  .regex(DECIMAL, `must be ${DECIMAL_RULE}`)
  .transform(normaliseDecimal)
  .refine((v) => positiveAmount(v) === null, 'must be greater than 0')
  .nullish();

export const ProductDto = z.strictObject({
  departmentId: z.uuid(),
  catalogId: z.uuid(),
  productId: clientId().nullish(),
  name: optionalText(250),
  sku: z.string().trim().min(1, 'sku must not be empty').max(64).nullish(),
  /** Makes the product a variant of this master product (AddProduct only). */
  parentId: z.uuid().nullish(),
  description: optionalText(32000),
  gtin: z
    .string()
    .regex(/^(\d{8}|\d{12}|\d{13}|\d{14})$/, 'gtin must have 8, 12, 13 or 14 digits')
    .nullish(),
  manufacturerName: optionalText(250),
  manufacturerPid: optionalText(64),
  unit: z.string().regex(UNIT_CODE, 'unit must be a UN/ECE Recommendation 20 code such as C62').nullish(),
  price: z.string().trim().regex(DECIMAL, `price must be ${DECIMAL_RULE}`).transform(normaliseDecimal).nullish(),
  priceQuantity: z.int().min(1).nullish(),
  /** BMEcat's CONTENT_UNIT, NO_CU_PER_OU, QUANTITY_MIN and QUANTITY_INTERVAL (docs/data-model.md "Order details"). */
  contentUnit: z.string().regex(UNIT_CODE, 'must be a UN/ECE Recommendation 20 code such as C62').nullish(),
  contentPerUnit: positiveDecimalIn,
  quantityMin: positiveDecimalIn,
  quantityInterval: positiveDecimalIn,
  keywords: optionalText(1000),
  deliveryTimeDays: z.int().min(0).nullish(),
  status: z.enum(PRODUCT_STATUSES).nullish(),
  /**
   * Categories of the same catalog the product is placed in (replaces the placement on update;
   * for a member limited to category subtrees, the placements inside them: catalog/placement-reach.ts).
   */
  categoryIds: z.array(z.uuid()).max(50).nullish(),
  /**
   * Texts per language (docs/languages.md): `{ eng: { name: 'Cable', description: null } }`; a
   * text writes that language's translation, null removes it; the catalog's default language
   * writes the columns. Only localizable fields (name, description, keywords).
   */
  translations: TranslationsInput.optional(),
});
export type ProductInput = z.infer<typeof ProductDto>;
/** What an `UpdateProduct` of texts only names besides `translations` (a translator's, docs/teams.md "Language scope"). */
export const PRODUCT_IDENTITY = ['departmentId', 'catalogId', 'productId'] as const;

export const ProductOut = z.object({
  productId: z.string(),
  catalogId: z.string(),
  departmentId: z.string(),
  parentId: z.string().nullable(),
  sku: z.string().nullable(),
  name: z.string().nullable(),
  description: z.string().nullable(),
  gtin: z.string().nullable(),
  manufacturerName: z.string().nullable(),
  manufacturerPid: z.string().nullable(),
  unit: z.string().nullable(),
  price: z.string().nullable(),
  priceQuantity: z.number().int().nullable(),
  contentUnit: z.string().nullable(),
  contentPerUnit: z.string().nullable(),
  quantityMin: z.string().nullable(),
  quantityInterval: z.string().nullable(),
  keywords: z.string().nullable(),
  deliveryTimeDays: z.number().int().nullable(),
  status: z.enum(PRODUCT_STATUSES),
  categoryIds: z.array(z.string()),
  fingerprint: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  ...LocalizedOut,
});

/** `value` is null only for a localizable attribute with no text in the asked language. */
const ValuesOut = z.array(
  z.object({ code: z.string(), type: z.string(), value: z.string().nullable(), unit: z.string().nullable() }),
);

/** A GetProducts row: with `attributes=` also the values of those attributes (only those, by code). */
export const ProductListItemOut = ProductOut.extend({
  values: ValuesOut.optional(),
  /** With `completenessChannel` (or sort=completeness): the score (0-100) and missing labels, null when not scored there. */
  completeness: z
    .object({ score: z.number().int(), missing: z.array(z.string()) })
    .nullable()
    .optional(),
});

export const ProductDetailOut = ProductOut.extend({
  values: ValuesOut,
  classification: z
    .object({
      linkId: z.string(),
      name: z.string(),
      classificationGroups: z.number().int(),
      classes: z.array(
        z.object({
          group: z.string(),
          system: z.string(),
          code: z.string(),
          /** The loaded release the class was checked against (its system names it too), when it was. */
          release: z.string().optional(),
          /** ETIM: the class version the supplier classified against (xChange EtimClassVersion), when a file gave one. */
          classVersion: z.number().int().optional(),
          /** ETIM DYNAMIC: the date of the model the supplier classified against (xChange EtimDynamicReleaseDate). */
          dynamicReleaseDate: z.string().optional(),
        }),
      ),
      features: z.array(
        z.object({ group: z.string(), code: z.string(), value: z.string(), unit: z.string().nullable() }),
      ),
    })
    .nullable(),
  media: z.array(
    z.object({
      mediaId: z.string(),
      purpose: z.string(),
      fileName: z.string(),
      contentType: z.string(),
      size: z.number(),
      /** `link`: a URL kept elsewhere (no stored file); `file`: uploaded or referenced by name. */
      kind: z.enum(['file', 'link']),
      url: z.string().nullable(),
      description: z.string().nullable(),
      mimeCode: z.string().nullable(),
      alt: z.string().nullable(),
      /** An xChange attachment's type, languages and dates beyond the purpose; null when none. */
      attachment: MediaAttachmentDto.nullable(),
      ...LocalizedOut,
    }),
  ),
  variants: z.array(z.lazy(() => ProductOut)),
  /** The price list (GetPrices); the default row's amount is `price`. */
  prices: z.array(PriceOutSchema),
  /** Feature blocks of other systems (GetFeatureBlocks' shape). */
  featureBlocks: z.array(featureBlockOut),
});

export const SetValueDto = z.strictObject({
  departmentId: z.uuid(),
  elementId: z.uuid(),
  field: z.string().min(1).max(100),
  value: z.string().max(32000),
  /**
   * The language of the value (an enabled code; absent = the catalog's default, which writes the
   * column); another language writes the field's translation. Only localizable fields.
   */
  language: z.string().max(8).optional(),
});
export const SetValueOut = z.object({
  elementId: z.string(),
  field: z.string(),
  value: z.string(),
  language: z.string().optional(),
});

export const CatalogStats = z.object({
  catalogs: z.number().int(),
  categories: z.number().int(),
  products: z.number().int(),
});

export const DepartmentQuery = z.strictObject({ departmentId: z.uuid().optional() });

/**
 * GetProducts: the shared product filter (product-filter.ts) plus catalog, order and page.
 * Default order: by relevance when `q` is given, else `sku`; `order` applies to `sort`.
 */
export const ProductListQuery = ProductFilter.extend({
  catalogId: z.uuid(),
  /** `completeness`: by score in `completenessChannel` and `channelLanguage`, ascending = worst first (docs/completeness.md). */
  sort: z.enum(['sku', 'name', 'updatedAt', 'completeness']).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  /**
   * A channel id: each item then carries `completeness` (its score and missing labels in this
   * channel and `channelLanguage`, default the channel's first language), the grid's badge; the
   * channel `sort=completeness` orders by (default: `incompleteFor`).
   */
  completenessChannel: z.uuid().optional(),
  /**
   * Attribute codes, comma-separated (`attributes=voltage,colour`): each item then carries
   * `values` with the product's values of these attributes (the grid's attribute columns).
   */
  attributes: commaList(
    // checked as a whole, so the message names the parameter (the query carries one string)
    z
      .array(z.string())
      .min(1, 'must name at least one attribute code')
      .max(20, 'may name at most 20 attribute codes')
      .refine((codes) => codes.every((c) => ATTRIBUTE_CODE.test(c)), 'must be attribute codes, comma-separated'),
  )
    .optional()
    .describe('Attribute codes, comma-separated (at most 20): each item then carries their values in `values`'),
  ...LanguageQuery,
  ...PageQuery,
});
export type ProductListInput = z.infer<typeof ProductListQuery>;

export const CatalogListQuery = z.strictObject({ departmentId: z.uuid().optional(), ...PageQuery });
