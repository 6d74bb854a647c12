import type { MediaAttachment } from '../../kernel/media-attachment';
import type { ClassificationGroup } from '../../kernel/classification-groups';
import { PRODUCT_DATA_FIELDS } from '../../model/fields';
import type { StoredPrice, UpsertPrice } from '../../model/price-list';

export type { UpsertPrice };
import type { FeatureBlockInput, StoredFeatureBlock } from '../../model/feature-block-types';

/**
 * The internal form of one product to upsert, shared by UpsertProducts and the import job:
 * one record per product or variant (a variant names its master by SKU), values as strings
 * still to be parsed. `undefined` leaves a field or collection as it is; `null` clears it.
 */
export const UPSERT_FIELDS = [...PRODUCT_DATA_FIELDS, 'status'] as const;
type ProductField = (typeof UPSERT_FIELDS)[number];

/**
 * Texts in the catalog's other languages: `language -> field -> text | null` (docs/languages.md;
 * fields `name`, `description`, `keywords`, `values.<code>`, `details.<GROUP>.<code>`). A field
 * left out is left alone, null removes it (upsert-translations.ts).
 */
export type RecordTranslations = Record<string, Record<string, string | null>>;

export interface UpsertMediaRef {
  fileName: string;
  contentType?: string | null;
  purpose?: string | null;
  description?: string | null;
  /** A link: the absolute http(s) URL of a file kept elsewhere (fileName may then be empty). */
  url?: string | null;
  /** ETIM guideline MIME code of a link (MD01 ...). */
  mimeCode?: string | null;
  alt?: string | null;
  /** An xChange attachment's type, languages and dates (kernel/media-attachment.ts); checked, a part that does not check is an error. */
  attachment?: MediaAttachment | null;
  /**
   * The description in the catalog's further languages (BMEcat MIME_DESCR with `lang`): language
   * -> text, each written as the entry's translation; languages left out are left as they are.
   */
  descriptions?: Record<string, string>;
}

export interface UpsertRecord {
  sku: string;
  /** SKU of the master when this record is a variant (an existing master, or one earlier in the same call). */
  parentSku?: string | null;
  fields: Partial<Record<ProductField, string | null>>;
  /** Category ids of the catalog (masters only). */
  categoryIds?: string[];
  values?: Record<string, string>;
  classification?: {
    classes: {
      group?: string | null;
      system?: string | null;
      code: string;
      release?: string | null;
      /** ETIM: the class version and DYNAMIC model date the supplier classified against (kept, never checked against a release). */
      classVersion?: number | null;
      dynamicReleaseDate?: string | null;
    }[];
    /**
     * `unit`: the unit the file gave the value (BMEcat FUNIT, xChange ClassificationFeatureUnit).
     * Kept only with a value kept as text under a class or feature no reference data confirms; a
     * verified value is always in its release's (or the sample's) unit.
     */
    features: { group?: string | null; code: string; value: string; unit?: string | null }[];
  } | null;
  media?: UpsertMediaRef[];
  /** The whole price list (replaces the stored one; docs/data-model.md "Prices"). */
  prices?: UpsertPrice[];
  /** Outgoing references in order, replacing the product's list (catalog/references/). */
  /** `targetKind: 'mpn'`: the target is named by its manufacturer product number (an xChange ProductRelation). */
  references?: { type: string; targetSku: string; targetKind?: 'sku' | 'mpn'; quantity?: number | null }[];
  /** The product's USER_DEFINED_EXTENSIONS as verbatim XML (BMEcat import); null removes it. */
  udx?: string | null;
  /** Feature blocks of other systems (UNSPSC, udf_*, eCl@ss Advanced …), replaced as a whole list. */
  featureBlocks?: FeatureBlockInput[];
  /**
   * With `featureBlocks`: only the stored blocks of these systems are replaced, the others kept
   * (an xChange import carries only the ETIM modelling class, never a BMEcat file's other systems).
   */
  featureBlockSystems?: string[];
  /** Texts per further language; the catalog's default language among them goes to the fields. */
  translations?: RecordTranslations;
}

type UpsertStatus = 'created' | 'updated' | 'unchanged' | 'error';

export interface UpsertOutcome {
  sku: string;
  status: UpsertStatus;
  productId: string | null;
  field: string | null;
  error: string | null;
  /** Field problems a tolerant upsert (an import without `strict`) applied a rule to (resolve-record.ts). */
  warnings?: { field: string; code: string; message: string }[];
}

/** Thrown while resolving one record: the record becomes an error outcome naming `field`. */
export class ItemError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** A record checked and resolved against the company's reference data, ready to write. */
export interface ResolvedNode {
  sku: string;
  parentSku: string | null;
  /** Columns of `products` to set (drizzle property names), null clearing them. */
  fields: Record<string, string | number | null>;
  categoryIds?: string[];
  values?: {
    attributeId: string;
    code: string;
    value: string;
    numberValue: number | null;
    numberValueTo: number | null;
  }[];
  classification?: {
    groups: number;
    classes: {
      group: ClassificationGroup;
      system: string;
      code: string;
      unverified?: boolean;
      classVersion?: number;
      dynamicReleaseDate?: string;
      /** The loaded release the class was checked against (classification/release-check.ts). */
      release?: string | null;
    }[];
    features: { group: ClassificationGroup; code: string; value: string; unit: string | null; unverified?: boolean }[];
  } | null;
  /** The price list to store; its default row's amount is in `fields.price`. */
  prices?: StoredPrice[];
  references?: { type: string; targetSku: string; targetKind?: 'mpn'; quantity: number | null }[];
  media?: {
    fileName: string;
    contentType: string;
    purpose: string;
    description: string | null;
    url: string | null;
    mimeCode: string | null;
    alt: string | null;
    attachment: MediaAttachment | null;
    descriptions?: Record<string, string>;
  }[];
  udx?: string | null;
  featureBlocks?: StoredFeatureBlock[];
  /** `featureBlocks` replaces only the stored blocks of these systems (UpsertRecord.featureBlockSystems). */
  featureBlockSystems?: string[];
  /** Checked translations of languages other than the catalog's default (null removes). */
  translations?: RecordTranslations;
}
