import { z } from 'zod';

/**
 * One feature of a block of another feature system, as the file wrote it: FNAME, or for an
 * eCl@ss Advanced tree the FTEMPLATE's FT_ID / FT_NAME (or FT_IDREF) with FID / FPARENT_ID.
 * Values are kept as text, several allowed. Stored as JSON (migration 0018): empty parts are
 * left out, so a plain `{name, values}` feature costs a few dozen bytes.
 */
const featureObject = z
  .object({
    name: z.string().min(1).max(250).optional().describe('FNAME (the first one of the file)'),
    names: z
      .record(z.string().regex(/^[a-z]{3}$/, 'a language code such as eng'), z.string().min(1).max(250))
      .optional()
      .describe('FNAME in further languages (BMEcat 2005 repeats FNAME with lang): ISO 639-2 code -> name'),
    ftId: z.string().min(1).max(250).optional().describe('FTEMPLATE/FT_ID or FT_IDREF (eCl@ss Advanced)'),
    ftName: z.string().min(1).max(250).optional().describe('FTEMPLATE/FT_NAME'),
    values: z.array(z.string().max(4000)).max(100).optional().describe('FVALUEs, in order'),
    valueIdrefs: z.array(z.string().max(250)).max(100).optional().describe('VALUE_IDREFs (eCl@ss Advanced)'),
    variants: z
      .array(z.object({ values: z.array(z.string().max(4000)).max(100), supplement: z.string().max(250) }))
      .max(100)
      .optional()
      .describe('VARIANTS/VARIANT: value and SUPPLIER_AID_SUPPLEMENT'),
    vorder: z.number().int().optional().describe('VARIANTS/VORDER'),
    unit: z.string().min(1).max(250).optional().describe('FUNIT'),
    order: z.number().int().optional().describe('FORDER'),
    descr: z.string().min(1).max(4000).optional().describe('FDESCR'),
    details: z.array(z.string().max(4000)).max(100).optional().describe('FVALUE_DETAILS'),
    valueType: z.string().min(1).max(250).optional().describe('FVALUE_TYPE'),
    fid: z.string().min(1).max(250).optional().describe('FID (eCl@ss Advanced tree)'),
    parentId: z.string().min(1).max(250).optional().describe('FPARENT_ID (eCl@ss Advanced tree)'),
  })
  .strict();

export const storedFeatureSchema = featureObject.refine((f) => f.name !== undefined || f.ftId !== undefined, {
  message: 'a feature needs name or ftId',
});

export type StoredFeature = z.infer<typeof storedFeatureSchema>;

/** A PRODUCT_FEATURES / ARTICLE_FEATURES block of a system the classification model does not take. */
export const featureBlockSchema = z
  .object({
    system: z.string().max(250).describe('REFERENCE_FEATURE_SYSTEM_NAME as written, e.g. UNSPSC, udf_CMP-1.0'),
    groupId: z.string().min(1).max(250).nullable().optional().describe('REFERENCE_FEATURE_GROUP_ID'),
    groupId2: z.string().min(1).max(250).nullable().optional().describe('REFERENCE_FEATURE_GROUP_ID2'),
    groupName: z.string().min(1).max(250).nullable().optional().describe('REFERENCE_FEATURE_GROUP_NAME'),
    features: z.array(storedFeatureSchema).max(1000),
  })
  .strict();

export type FeatureBlockInput = z.infer<typeof featureBlockSchema>;

/** A stored block: the input with absent group parts as null. */
export interface StoredFeatureBlock {
  system: string;
  groupId: string | null;
  groupId2: string | null;
  groupName: string | null;
  features: StoredFeature[];
}

/** The canonical form of a block (nulls for absent group parts), so equal blocks compare and hash equal. */
export function normaliseBlock(block: FeatureBlockInput): StoredFeatureBlock {
  return {
    system: block.system,
    groupId: block.groupId ?? null,
    groupId2: block.groupId2 ?? null,
    groupName: block.groupName ?? null,
    features: block.features.map(canonicalFeature),
  };
}

const FEATURE_KEYS = Object.keys(featureObject.shape) as (keyof StoredFeature)[];

/** The feature with its keys in one order and empty parts left out (stored JSON and fingerprints depend on it). */
function canonicalFeature(feature: StoredFeature): StoredFeature {
  const out: Record<string, unknown> = {};
  for (const key of FEATURE_KEYS) {
    const value = feature[key];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    if (key === 'names') {
      // Languages in code order, so equal features store and hash equal whatever the file's order.
      const entries = Object.entries(value as Record<string, string>).sort(([a], [b]) => (a < b ? -1 : 1));
      if (entries.length > 0) out[key] = Object.fromEntries(entries);
      continue;
    }
    out[key] = value;
  }
  return out as StoredFeature;
}

/** Whether two block lists are the same, order included. */
export function sameBlocks(a: readonly StoredFeatureBlock[], b: readonly StoredFeatureBlock[]): boolean {
  return JSON.stringify(a.map(normaliseBlock)) === JSON.stringify(b.map(normaliseBlock));
}

/** A stored block as the API answers it (GetProduct, GetFeatureBlocks): absent group parts are null. */
export const featureBlockOut = featureBlockSchema.extend({
  groupId: z.string().nullable(),
  groupId2: z.string().nullable(),
  groupName: z.string().nullable(),
});
