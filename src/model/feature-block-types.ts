import { z } from 'zod';

const languageCode = z.string().regex(/^[a-z]{3}$/, 'a language code such as eng');

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
      .record(languageCode, z.string().min(1).max(250))
      .optional()
      .describe('FNAME in further languages (BMEcat 2005 repeats FNAME with lang): ISO 639-2 code -> name'),
    ftId: z.string().min(1).max(250).optional().describe('FTEMPLATE/FT_ID or FT_IDREF (eCl@ss Advanced)'),
    ftName: z.string().min(1).max(250).optional().describe('FTEMPLATE/FT_NAME'),
    values: z.array(z.string().max(4000)).max(100).optional().describe('FVALUEs, in order'),
    valueLangs: z
      .array(z.union([languageCode, z.literal('')]))
      .max(100)
      .optional()
      .describe("The `lang` of each FVALUE, in the order of `values` ('' for none); absent when no FVALUE has one"),
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
    featureGroup: z
      .int()
      .min(0)
      .max(999)
      .optional()
      .describe("The FEATURE_GROUP the feature is written in: its index in the block's featureGroups"),
  })
  .strict();

export const storedFeatureSchema = featureObject
  .refine((f) => f.name !== undefined || f.ftId !== undefined, { message: 'a feature needs name or ftId' })
  .refine((f) => f.valueLangs === undefined || f.valueLangs.length === (f.values?.length ?? 0), {
    message: 'valueLangs needs one entry per value',
    path: ['valueLangs'],
  });

export type StoredFeature = z.infer<typeof storedFeatureSchema>;

/**
 * A FEATURE_GROUP inside a block (eCl@ss Advanced, BMEcat 2005+onto and 2005.1): one block of
 * the class's aspects (manufacturer, function group, parts …) with its own features, which
 * point at it by `featureGroup`.
 */
export const featureGroupSchema = z
  .object({
    id: z.string().min(1).max(250).describe('REFERENCE_FEATURE_GROUP_ID of the FEATURE_GROUP'),
    name: z.string().min(1).max(250).optional().describe('FEATURE_GROUP_NAME (the first one)'),
    names: z
      .record(languageCode, z.string().min(1).max(250))
      .optional()
      .describe('FEATURE_GROUP_NAME in further languages: ISO 639-2 code -> name'),
    descr: z.string().min(1).max(4000).optional().describe('FEATURE_GROUP_DESCRIPTION (the first one)'),
    type: z.string().min(1).max(250).optional().describe('the featureGroupType attribute'),
    connectionType: z
      .string()
      .regex(/^CT[0-9]{6}$/, 'an ETIM connection type code such as CT000001')
      .optional()
      .describe("A modelling port's ETIM connection type (xChange EtimModellingConnectionTypeCode)"),
    connectionTypeVersion: z
      .int()
      .min(1)
      .max(999)
      .optional()
      .describe('The version of that connection type (xChange EtimModellingConnectionTypeVersion)'),
  })
  .strict();

export type StoredFeatureGroup = z.infer<typeof featureGroupSchema>;

/**
 * The system of an ETIM modelling class block (xChange EtimModellingClassCode / Ports, ETIM
 * BMEcat UDX.EDXF.PRODUCT_FEATURES_MC): `groupId` is the MC code, each port a feature group
 * (`id` its port code, with its connection type), each feature points at its port.
 */
export const MODELLING_SYSTEM = 'ETIM-MC';

/** BIM_STATUS of the ETIM BMEcat guideline 5.0 (UDX.EDXF.BIM_STATUS). */
export const BIM_STATUSES = ['ready', 'test', 'incomplete'] as const;

const modellingSchema = z
  .object({
    version: z
      .int()
      .min(0)
      .max(999999)
      .optional()
      .describe('EtimModellingClassVersion / UDX.EDXF.REFERENCE_FEATURE_MC_VERSION'),
    bimStatus: z.enum(BIM_STATUSES).optional().describe('UDX.EDXF.BIM_STATUS (ETIM BMEcat only)'),
  })
  .strict();

export type StoredModelling = z.infer<typeof modellingSchema>;

const blockObject = z
  .object({
    system: z.string().max(250).describe('REFERENCE_FEATURE_SYSTEM_NAME as written, e.g. UNSPSC, udf_CMP-1.0'),
    groupId: z.string().min(1).max(250).nullable().optional().describe('REFERENCE_FEATURE_GROUP_ID'),
    groupId2: z.string().min(1).max(250).nullable().optional().describe('REFERENCE_FEATURE_GROUP_ID2'),
    groupId2Type: z
      .string()
      .min(1)
      .max(20)
      .optional()
      .describe('The `type` attribute of REFERENCE_FEATURE_GROUP_ID2 (flat or hierarchy)'),
    groupName: z.string().min(1).max(250).nullable().optional().describe('REFERENCE_FEATURE_GROUP_NAME'),
    features: z.array(storedFeatureSchema).max(1000),
    featureGroups: z
      .array(featureGroupSchema)
      .max(1000)
      .optional()
      .describe("The block's FEATURE_GROUPs, in order; absent when it has none"),
    modelling: modellingSchema
      .optional()
      .describe('An ETIM modelling class block (system ETIM-MC): its version and BIM status; absent otherwise'),
  })
  .strict();

/** Every `featureGroup` of a feature names a group of the block. */
const groupsKnown = (b: { features: StoredFeature[]; featureGroups?: unknown[] | undefined }) =>
  b.features.every((f) => f.featureGroup === undefined || f.featureGroup < (b.featureGroups?.length ?? 0));
const GROUPS_KNOWN = { message: "a feature's featureGroup is not an index of the block's featureGroups" };

/** A PRODUCT_FEATURES / ARTICLE_FEATURES block of a system the classification model does not take. */
export const featureBlockSchema = blockObject.refine(groupsKnown, GROUPS_KNOWN);

export type FeatureBlockInput = z.infer<typeof featureBlockSchema>;

/**
 * A stored block: the input with absent group parts as null. `groupId2Type`, `featureGroups` and `modelling`
 * are present only when the block has them, so blocks stored before them keep their JSON and
 * fingerprint.
 */
export interface StoredFeatureBlock {
  system: string;
  groupId: string | null;
  groupId2: string | null;
  groupId2Type?: string;
  groupName: string | null;
  features: StoredFeature[];
  featureGroups?: StoredFeatureGroup[];
  modelling?: StoredModelling;
}

/** The canonical form of a block (nulls for absent group parts), so equal blocks compare and hash equal. */
export function normaliseBlock(block: FeatureBlockInput): StoredFeatureBlock {
  return {
    system: block.system,
    groupId: block.groupId ?? null,
    groupId2: block.groupId2 ?? null,
    ...(block.groupId2Type ? { groupId2Type: block.groupId2Type } : {}),
    groupName: block.groupName ?? null,
    features: block.features.map(canonicalFeature),
    ...(block.featureGroups?.length ? { featureGroups: block.featureGroups.map(canonicalGroup) } : {}),
    ...(block.modelling && Object.keys(block.modelling).length > 0
      ? {
          modelling: {
            ...(block.modelling.version !== undefined ? { version: block.modelling.version } : {}),
            ...(block.modelling.bimStatus ? { bimStatus: block.modelling.bimStatus } : {}),
          },
        }
      : {}),
  };
}

const GROUP_KEYS = Object.keys(featureGroupSchema.shape) as (keyof StoredFeatureGroup)[];

function canonicalGroup(group: StoredFeatureGroup): StoredFeatureGroup {
  const out: Record<string, unknown> = {};
  for (const key of GROUP_KEYS) {
    const value = group[key];
    if (value === undefined) continue;
    out[key] = key === 'names' ? sortedNames(value as Record<string, string>) : value;
  }
  return out as StoredFeatureGroup;
}

/** Languages in code order, so equal names store and hash equal whatever the file's order. */
function sortedNames(names: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(names).sort(([a], [b]) => (a < b ? -1 : 1)));
}

const FEATURE_KEYS = Object.keys(featureObject.shape) as (keyof StoredFeature)[];

/** The feature with its keys in one order and empty parts left out (stored JSON and fingerprints depend on it). */
function canonicalFeature(feature: StoredFeature): StoredFeature {
  const out: Record<string, unknown> = {};
  for (const key of FEATURE_KEYS) {
    const value = feature[key];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    if (key === 'names') {
      if (Object.keys(value as object).length > 0) out[key] = sortedNames(value as Record<string, string>);
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
export const featureBlockOut = blockObject.extend({
  groupId: z.string().nullable(),
  groupId2: z.string().nullable(),
  groupName: z.string().nullable(),
});
