import { dbNow } from '../../../kernel/clock';
import { eq, sql } from 'drizzle-orm';
import type { BatchStatement, Database } from '../../../db/client';
import { catalogs, products } from '../../../db/schema';
import type { CategoryPaths } from '../../../records/category-paths';
import { fingerprintOf, syncRecord, type RecordAggregate, type RecordNode } from '../../../records/sync-record';
import type { ProductAggregate, ProductNode } from '../../../model/product-aggregate';
import type { changedParts } from './changed-parts';
import type { WrittenMedia } from './node-writes';
import type { ResolvedNode } from '../upsert-types';
import { compareBinary } from '../../../kernel/compare-binary';
import { mediaKey } from '../../../media/media-links.rules';
import { storedReference } from '../../../model/reference-types';
import type { ElementTranslations } from '../../../model/translation-store';
import { translationsAfter } from '../resolve/upsert-translations';

/** One product or variant an upsert writes, with what it was (null: created) and what it becomes. */
export interface WrittenNode {
  id: string;
  parentId: string | null;
  next: ResolvedNode;
  existing: ProductNode | null;
  parts: ReturnType<typeof changedParts> | null;
  /** Media rows after the write (nodeStatements' answer). */
  written: WrittenMedia;
}

/** With the texts of further languages, so the fingerprint covers them once the sync record carries them. */
type NodeAfter = RecordNode & { id: string; sku: string | null; translations?: ElementTranslations };

/** The node as loadProductAggregates would read it after the write (only what the sync record holds). */
function nodeAfter(w: WrittenNode): NodeAfter {
  const { next, existing, parts } = w;
  const all = existing === null;
  const base: RecordNode['product'] = existing
    ? existing.product
    : {
        sku: next.sku,
        name: null,
        description: null,
        gtin: null,
        manufacturerName: null,
        manufacturerPid: null,
        unit: null,
        price: null,
        priceQuantity: null,
        contentUnit: null,
        contentPerUnit: null,
        quantityMin: null,
        quantityInterval: null,
        keywords: null,
        deliveryTimeDays: null,
        status: 'active',
      };
  const product = { ...base, ...(next.fields as Partial<RecordNode['product']>) };
  const values =
    next.values && (all || parts?.values)
      ? next.values.map(({ code, value }) => ({ code, value })).sort((a, b) => compareBinary(a.code, b.code))
      : (existing?.values ?? []);
  let classification: RecordNode['classification'] = existing?.classification ?? null;
  if (next.classification !== undefined && (all || parts?.classification)) {
    const c = next.classification;
    classification = c && {
      // As loadProductAggregates reads them back (the sync record leaves release and unverified out).
      classes: c.classes
        .map(({ group, system, code, classVersion, dynamicReleaseDate }) => ({
          group: group as string,
          system,
          code,
          ...(classVersion != null ? { classVersion } : {}),
          ...(dynamicReleaseDate != null ? { dynamicReleaseDate } : {}),
        }))
        .sort((a, b) => compareBinary(a.group, b.group)),
      features: c.features
        .map(({ group, code, value, unit }) => ({ group: group as string, code, value, unit }))
        .sort((a, b) => compareBinary(a.group, b.group) || compareBinary(a.code, b.code)),
    };
  }
  const media =
    next.media && (all || parts?.media)
      ? next.media.map((m) => {
          const stored = w.written.mediaSizes.get(mediaKey(m))!;
          return {
            purpose: m.purpose,
            fileName: m.fileName,
            contentType: stored.contentType,
            size: stored.size,
            storageKey: stored.storageKey,
            url: m.url,
            mimeCode: m.mimeCode,
          };
        })
      : (existing?.media ?? []);
  const prices = next.prices && (all || parts?.prices) ? next.prices : (existing?.prices ?? []);
  const references =
    next.references && (all || parts?.references) ? next.references : (existing?.references ?? []).map(storedReference);
  const featureBlocks =
    next.featureBlocks && (all || parts?.featureBlocks) ? next.featureBlocks : (existing?.featureBlocks ?? []);
  const translations = next.translations ? translationsAfter(next, existing) : (existing?.translations ?? {});
  return {
    id: w.id,
    sku: product.sku,
    product,
    values,
    classification,
    media,
    prices,
    references,
    featureBlocks,
    translations,
  };
}

/** The languages a catalog publishes: the sync records of its masters carry those translations only. */
export async function publishedLanguagesOf(db: Database, catalogId: string): Promise<string[]> {
  const [row] = await db.select({ languages: catalogs.languages }).from(catalogs).where(eq(catalogs.id, catalogId));
  return row?.languages ?? [];
}

/**
 * The fingerprint of every master in `masters` after the write, computed from the records
 * being written over the aggregates loaded before it: what refreshFingerprints computes by
 * reading the products again (test/upsert-fingerprints.test.ts compares the two). `loaded`
 * holds the aggregate of every existing master in `masters`; `publishedLanguages` are the
 * languages of the catalog they are all in.
 */
export async function fingerprintsAfter(
  masters: string[],
  loaded: ReadonlyMap<string, ProductAggregate>,
  written: ReadonlyMap<string, WrittenNode>,
  paths: CategoryPaths,
  publishedLanguages: readonly string[],
): Promise<Map<string, string>> {
  const newVariants = new Map<string, WrittenNode[]>();
  for (const w of written.values())
    if (w.parentId && !w.existing) newVariants.set(w.parentId, [...(newVariants.get(w.parentId) ?? []), w]);
  const aggregates: RecordAggregate[] = [];
  for (const masterId of masters) {
    const before = loaded.get(masterId) ?? null;
    const self = written.get(masterId);
    if (!before && !self) throw new Error(`upsert: master ${masterId} is neither loaded nor written`);
    const master: RecordNode = self ? nodeAfter(self) : before!;
    const placedAgain = self?.next.categoryIds && (!self.existing || self.parts?.categories);
    const categoryIds = placedAgain ? [...self.next.categoryIds!].sort(compareBinary) : (before?.categoryIds ?? []);
    const variants: NodeAfter[] = [
      ...(before?.variants ?? []).map((v) => {
        const w = written.get(v.product.id);
        return w ? nodeAfter(w) : { ...v, id: v.product.id, sku: v.product.sku };
      }),
      ...(newVariants.get(masterId) ?? []).map(nodeAfter),
    ].sort((a, b) => compareBinary(a.sku, b.sku) || compareBinary(a.id, b.id));
    aggregates.push({ ...master, categoryIds, variants, publishedLanguages });
  }
  // Category names are part of the record (docs/sync.md "Category names"): one read for the batch.
  await paths.load(aggregates.flatMap((a) => a.categoryIds));
  const out = new Map<string, string>();
  for (const [i, aggregate] of aggregates.entries())
    out.set(masters[i]!, await fingerprintOf(syncRecord(aggregate, paths)));
  return out;
}

/**
 * Bumps the revision of existing masters and stores their new fingerprint in the same
 * statement, valid only if the revision is still the one loaded before the write: a write
 * that slipped in between leaves `fingerprintRevision < revision`, which the sync repairs
 * (docs/sync.md), instead of a fingerprint that does not match the stored record.
 */
export function bumpWithFingerprints(
  db: Database,
  rows: { id: string; revision: number; fingerprint: string }[],
): BatchStatement[] {
  const out: BatchStatement[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    const json = JSON.stringify(rows.slice(i, i + 500).map((r) => [r.id, r.revision, r.fingerprint]));
    const matches = sql`${products.revision} = json_extract(f.value, '$[1]')`;
    out.push(
      db
        .update(products)
        .set({
          fingerprint: sql`CASE WHEN ${matches} THEN json_extract(f.value, '$[2]') ELSE ${products.fingerprint} END`,
          fingerprintRevision: sql`CASE WHEN ${matches} THEN ${products.revision} + 1 ELSE ${products.fingerprintRevision} END`,
          revision: sql`${products.revision} + 1`,
          updatedAt: dbNow,
        })
        .from(sql`json_each(${json}) AS f`)
        .where(sql`${products.id} = json_extract(f.value, '$[0]')`),
    );
  }
  return out;
}
