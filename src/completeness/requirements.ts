import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { attributes, categories } from '../db/schema';
import { badRequest } from '../kernel/app-error';
import { CLASSIFICATION_GROUPS } from '../kernel/classification-groups';
import type { Caller } from '../kernel/caller';
import { MEDIA_PURPOSES } from '../media/media';
import { PRICE_TYPE } from '../model/price-type';
import { checkRelease, QUALITY_RULES, resolveQuality } from './quality-rules';

/**
 * What a channel can require of a master product (docs/completeness.md). The names a requirement
 * carries (field, attribute, purpose, system, release) are plain strings here and checked by
 * `expandRules` against the one list or the company's data, so a wrong one is a 400 that names
 * the requirement and the value, and nothing is written.
 */

/** Built-in product fields a channel can require; name, description and keywords are per language. */
export const REQUIRABLE_FIELDS = [
  'name',
  'description',
  'keywords',
  'sku',
  'gtin',
  'manufacturerName',
  'manufacturerPid',
  'unit',
  'price',
  'priceQuantity',
  'deliveryTimeDays',
  'contentUnit',
  'contentPerUnit',
  'quantityMin',
  'quantityInterval',
] as const;

export { QUALITY_RULES };

const languages = z.array(z.string().max(8)).max(20).optional();
const name = z.string().trim().min(1).max(100);
/** Where a requirement applies: some of the channel's languages, and products in one category subtree. */
const scope = { languages, categoryId: z.string().max(64).optional() };

export const Requirement = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('field'), field: name, ...scope }),
  z.strictObject({ kind: z.literal('attribute'), attribute: name, ...scope }),
  z.strictObject({
    kind: z.literal('media'),
    purpose: name,
    min: z.number().int().min(1).max(50).optional(),
    ...scope,
  }),
  z.strictObject({ kind: z.literal('price'), priceType: name, ...scope }),
  z.strictObject({ kind: z.literal('classification'), system: name, release: name.optional(), ...scope }),
  z.strictObject({
    kind: z.literal('features'),
    system: name,
    release: name.optional(),
    /** `all` features of the product's class, or only those the release marks `mandatory`. */
    share: z.enum(['all', 'mandatory']).optional(),
    ...scope,
  }),
  z.strictObject({
    kind: z.literal('quality'),
    rule: name,
    /** For rule `pattern`: the attribute whose value must match, and the GLOB pattern (`*`, `?`, `[0-9]`). */
    attribute: name.optional(),
    pattern: z.string().max(200).optional(),
    /** For rule `range`: the classification system, the feature code, its bounds and unit; for `releaseRanges`: system and release. */
    system: name.optional(),
    release: name.optional(),
    feature: name.optional(),
    min: z.number().finite().optional(),
    max: z.number().finite().optional(),
    unit: z.string().trim().min(1).max(40).optional(),
    ...scope,
  }),
]);
export type RequirementInput = z.infer<typeof Requirement>;

/** One row of `channel_rules` before the channel's key and company are added. */
export interface RuleRow {
  lang: string;
  position: number;
  kind: string;
  target: string;
  ref: string | null;
  amount: number;
  release: string | null;
  share: string | null;
  label: string;
  categoryId: string | null;
  pattern: string | null;
  minValue: number | null;
  maxValue: number | null;
  unit: string | null;
  /** An earlier rule of the channel and language has the same label (migration 0039): it counts once. */
  shared: number | null;
}

type Resolved = Omit<RuleRow, 'lang' | 'position' | 'categoryId' | 'shared'>;

function oneOf(field: string, value: string, allowed: readonly string[]): void {
  if (!allowed.includes(value)) throw badRequest(`${field}: "${value}" is not one of ${allowed.join(', ')}`);
}

/** One requirement checked and turned into what every language's rule row shares. */
async function resolve(db: Database, field: string, r: RequirementInput, attributeIds: Map<string, string>) {
  const base = {
    ref: null,
    amount: 1,
    release: null,
    share: null,
    pattern: null,
    minValue: null,
    maxValue: null,
    unit: null,
  };
  switch (r.kind) {
    case 'field':
      oneOf(`${field}.field`, r.field, REQUIRABLE_FIELDS);
      return { ...base, kind: r.kind, target: r.field, label: r.field };
    case 'attribute': {
      const id = attributeIds.get(r.attribute);
      if (!id) throw badRequest(`${field}.attribute: "${r.attribute}" is not an attribute of your company`);
      return { ...base, kind: r.kind, target: r.attribute, ref: id, label: `values.${r.attribute}` };
    }
    case 'media': {
      oneOf(`${field}.purpose`, r.purpose, MEDIA_PURPOSES);
      const min = r.min ?? 1;
      return { ...base, kind: r.kind, target: r.purpose, amount: min, label: `media.${r.purpose}>=${min}` };
    }
    case 'price':
      if (!PRICE_TYPE.test(r.priceType))
        throw badRequest(`${field}.priceType: "${r.priceType}" is not a BMEcat price type such as net_list`);
      return { ...base, kind: r.kind, target: r.priceType, label: `prices.${r.priceType}` };
    case 'classification':
    case 'features': {
      oneOf(`${field}.system`, r.system, CLASSIFICATION_GROUPS);
      if (r.release) await checkRelease(db, `${field}.release`, r.system, r.release);
      const share = r.kind === 'features' ? (r.share ?? 'all') : null;
      if (share === 'mandatory' && !r.release)
        throw badRequest(`${field}.share: mandatory features are those a release marks; name the release`);
      const what = r.release ?? r.system;
      const label =
        r.kind === 'features'
          ? `features.${what}${share === 'mandatory' ? '.mandatory' : ''}`
          : `classification.${what}`;
      return { ...base, kind: r.kind, target: r.system, release: r.release ?? null, share, label };
    }
    case 'quality':
      return { ...base, ...(await resolveQuality(db, field, r, attributeIds)) };
  }
}

/** The categories the requirements name that belong to the caller's company. */
async function companyCategories(db: Database, caller: Caller, requirements: RequirementInput[]) {
  const ids = [...new Set(requirements.flatMap((r) => (r.categoryId ? [r.categoryId] : [])))];
  const found = ids.length
    ? await db
        .select({ id: categories.id })
        .from(categories)
        .where(and(eq(categories.companyId, caller.companyId), inArray(categories.id, ids)))
    : [];
  return new Set(found.map((c) => c.id));
}

/**
 * Checks a channel's requirements and expands them to one rule per language: a requirement
 * without `languages` applies to every language of the channel; one with `languages` only to
 * those, each of which the channel must publish. Throws 400 naming the first wrong value.
 */
export async function expandRules(
  db: Database,
  caller: Caller,
  channelLanguages: string[],
  requirements: RequirementInput[],
): Promise<RuleRow[]> {
  const codes = [
    ...new Set(
      requirements.flatMap((r) =>
        r.kind === 'attribute' || (r.kind === 'quality' && r.attribute) ? [r.attribute!] : [],
      ),
    ),
  ];
  const found = codes.length
    ? await db
        .select({ id: attributes.id, code: attributes.code })
        .from(attributes)
        .where(and(eq(attributes.companyId, caller.companyId), inArray(attributes.code, codes)))
    : [];
  const attributeIds = new Map(found.map((a) => [a.code, a.id]));
  const categoryIds = await companyCategories(db, caller, requirements);
  const rows: RuleRow[] = [];
  const seen = new Set<string>();
  const labels = new Set<string>();
  for (const [i, requirement] of requirements.entries()) {
    const field = `requirements[${i}]`;
    const resolved: Resolved = await resolve(db, field, requirement, attributeIds);
    const categoryId = requirement.categoryId ?? null;
    if (categoryId !== null && !categoryIds.has(categoryId))
      throw badRequest(`${field}.categoryId: "${categoryId}" is not a category of your company`);
    for (const [j, lang] of (requirement.languages ?? []).entries())
      if (!channelLanguages.includes(lang))
        throw badRequest(`${field}.languages[${j}]: "${lang}" is not a language of the channel`);
    for (const lang of requirement.languages ?? channelLanguages) {
      const key = `${lang}\t${resolved.label}\t${categoryId ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const shared = labels.has(`${lang}\t${resolved.label}`) ? 1 : null;
      labels.add(`${lang}\t${resolved.label}`);
      rows.push({ ...resolved, lang, position: i, categoryId, shared });
    }
  }
  return rows;
}
