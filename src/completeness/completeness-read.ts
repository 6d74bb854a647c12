import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { catalogs, channels, completeness, completenessCounts, products, variantCompleteness } from '../db/schema';
import { notFound } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { localizedPath } from '../kernel/languages';
import { type CountRow, scopedCompletenessCounts } from '../db/scope-counts';

/**
 * Reads of the stored scores (docs/completeness.md): one product's per channel and language,
 * and the overview per channel and language from the counters the triggers keep. Neither
 * evaluates a rule nor counts score rows: both read what the writes stored.
 */

const LOCALIZED = new Set(['name', 'description', 'keywords']);

/** One thing a product lacks for a channel in a language, with the field the editor opens. */
export const MissingItem = z.object({
  /** The requirement's label, e.g. `name`, `values.colour`, `media.normal>=1`, `prices.net_list`, `features.ETIM`, `quality.gtinCheckDigit`. */
  requirement: z.string(),
  /** The field path to fix it: `name@eng`, `values.colour`, `gtin`, or the editor's tab `media`, `prices`, `classification`. */
  field: z.string(),
});

export const ProductCompletenessOut = z.object({
  productId: z.string(),
  /** The catalog's default language: the one the product's own columns hold. */
  defaultLanguage: z.string(),
  channels: z.array(
    z.object({
      channelId: z.string(),
      name: z.string(),
      languages: z.array(
        z.object({
          language: z.string(),
          score: z.number().int(),
          complete: z.boolean(),
          missing: z.array(MissingItem),
        }),
      ),
    }),
  ),
});

const QUALITY_FIELD: Record<string, string> = {
  'quality.gtinCheckDigit': 'gtin',
  'quality.gtinUnique': 'gtin',
  'quality.bmecatLengths': 'name',
};

/** Where a missing label is fixed: the field path (with `@lang` when not the default language) or the editor's tab. */
export function missingItem(label: string, lang: string, defaultLanguage: string): z.infer<typeof MissingItem> {
  const localize = (path: string) => (lang === defaultLanguage ? path : localizedPath(path, lang));
  if (LOCALIZED.has(label)) return { requirement: label, field: localize(label) };
  if (label.startsWith('values.')) return { requirement: label, field: localize(label) };
  if (label.startsWith('quality.pattern.'))
    return { requirement: label, field: localize(`values.${label.slice('quality.pattern.'.length)}`) };
  if (label.startsWith('media.')) return { requirement: label, field: 'media' };
  if (label.startsWith('prices.')) return { requirement: label, field: 'prices' };
  if (
    label.startsWith('classification.') ||
    label.startsWith('features.') ||
    /^quality\.(range|releaseRanges)\./.test(label)
  )
    return { requirement: label, field: 'classification' };
  return { requirement: label, field: QUALITY_FIELD[label] ?? label };
}

/**
 * GetCompleteness: a product's score and missing list for every channel and language of its
 * company; a variant's come from `variant_completeness` (what it inherits counted as its master's).
 */
export async function getProductCompleteness(db: Database, caller: Caller, productId: string) {
  const [product] = await db
    .select({ key: sql<number>`${products}.rowid`, parentId: products.parentId, defaultLanguage: catalogs.language })
    .from(products)
    .innerJoin(catalogs, eq(catalogs.id, products.catalogId))
    .where(and(eq(products.id, productId), eq(products.companyId, caller.companyId)));
  if (!product) throw notFound('product');
  const scores = product.parentId === null ? completeness : variantCompleteness;
  const rows = await db
    .select({
      channelId: channels.channelId,
      name: channels.name,
      lang: scores.lang,
      score: scores.score,
      missing: scores.missing,
    })
    .from(scores)
    .innerJoin(channels, eq(channels.id, scores.channelKey))
    .where(and(eq(scores.productKey, product.key), eq(channels.companyId, caller.companyId)))
    .orderBy(asc(channels.name), asc(channels.id), asc(scores.lang));
  const out = new Map<string, z.infer<typeof ProductCompletenessOut>['channels'][number]>();
  for (const r of rows) {
    let channel = out.get(r.channelId);
    if (!channel) out.set(r.channelId, (channel = { channelId: r.channelId, name: r.name, languages: [] }));
    const labels = r.missing ? (JSON.parse(r.missing) as string[]) : [];
    channel.languages.push({
      language: r.lang,
      score: r.score,
      complete: r.score === 100,
      missing: labels.map((l) => missingItem(l, r.lang, product.defaultLanguage)),
    });
  }
  return { productId, defaultLanguage: product.defaultLanguage, channels: [...out.values()] };
}

export const CompletenessOverviewOut = z.object({
  items: z.array(
    z.object({
      channelId: z.string(),
      name: z.string(),
      language: z.string(),
      /** Master products scored, those complete, and the mean score (0-100, rounded). */
      products: z.number().int(),
      complete: z.number().int(),
      averageScore: z.number().int(),
      /** How many masters miss each requirement, most missed first. */
      missing: z.array(z.object({ requirement: z.string(), products: z.number().int() })),
      /** Variants scored on their own (migration 0038 counters) and how many of them are incomplete. */
      variants: z.number().int(),
      incompleteVariants: z.number().int(),
    }),
  ),
});

/**
 * GetCompletenessOverview: per channel and language, from the counters (never a scan of scores);
 * for a member with a product scope, from the score rows of their products (db/scope-counts.ts).
 */
export async function getCompletenessOverview(db: Database, caller: Caller) {
  const scoped = await scopedCompletenessCounts(db, caller);
  const rows = scoped ? await scopedOverviewRows(db, caller, scoped) : await counterRows(db, caller);
  return overviewOf(rows);
}

type OverviewRow = {
  channelId: string;
  name: string;
  languages: string[];
  lang: string | null;
  item: string | null;
  n: number | null;
};

/** The company's counters per channel (every channel at least once, `lang` null without counters). */
function counterRows(db: Database, caller: Caller): Promise<OverviewRow[]> {
  return db
    .select({
      channelId: channels.channelId,
      name: channels.name,
      languages: channels.languages,
      lang: completenessCounts.lang,
      item: completenessCounts.item,
      n: completenessCounts.n,
    })
    .from(channels)
    .leftJoin(completenessCounts, eq(completenessCounts.channelKey, channels.id))
    .where(eq(channels.companyId, caller.companyId))
    .orderBy(asc(channels.name), asc(channels.id));
}

/** A member with a product scope: the counters of their products only (db/scope-counts.ts), per channel. */
async function scopedOverviewRows(db: Database, caller: Caller, counts: CountRow[]): Promise<OverviewRow[]> {
  const list = await db
    .select({ key: channels.id, channelId: channels.channelId, name: channels.name, languages: channels.languages })
    .from(channels)
    .where(eq(channels.companyId, caller.companyId))
    .orderBy(asc(channels.name), asc(channels.id));
  const byKey = new Map<number, CountRow[]>();
  for (const row of counts) byKey.set(row.channelKey, [...(byKey.get(row.channelKey) ?? []), row]);
  return list.flatMap(({ key, ...channel }) => [
    { ...channel, lang: null, item: null, n: null },
    ...(byKey.get(key) ?? []).map((r) => ({ ...channel, lang: r.lang, item: r.item, n: Number(r.n) })),
  ]);
}

function overviewOf(rows: OverviewRow[]) {
  type Item = z.infer<typeof CompletenessOverviewOut>['items'][number] & { sum: number; variantsComplete: number };
  const items = new Map<string, Item>();
  const itemOf = (r: OverviewRow, lang: string) => {
    const key = `${r.channelId}\t${lang}`;
    let item = items.get(key);
    if (!item) {
      item = {
        channelId: r.channelId,
        name: r.name,
        language: lang,
        products: 0,
        complete: 0,
        averageScore: 0,
        missing: [],
        variants: 0,
        incompleteVariants: 0,
        sum: 0,
        variantsComplete: 0,
      };
      items.set(key, item);
    }
    return item;
  };
  for (const r of rows) {
    for (const lang of r.languages) itemOf(r, lang);
    if (r.lang === null || r.item === null || !r.languages.includes(r.lang)) continue;
    const item = itemOf(r, r.lang);
    const n = r.n ?? 0;
    if (r.item === '') item.products = n;
    else if (r.item === '#complete') item.complete = n;
    else if (r.item === '#score') item.sum = n;
    else if (r.item === '#variants') item.variants = n;
    else if (r.item === '#variantsComplete') item.variantsComplete = n;
    else if (n > 0) item.missing.push({ requirement: r.item, products: n });
  }
  return {
    items: [...items.values()].map(({ sum, variantsComplete, ...item }) => ({
      ...item,
      incompleteVariants: item.variants - variantsComplete,
      averageScore: item.products > 0 ? Math.round(sum / item.products) : 100,
      missing: item.missing.sort((a, b) => b.products - a.products || a.requirement.localeCompare(b.requirement)),
    })),
  };
}
