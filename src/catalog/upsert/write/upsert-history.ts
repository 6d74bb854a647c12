import { classSnapshot, featureSnapshot } from '../../../model/class-version';
import { mediaEntry, pickFields, PRODUCT_FIELDS, referencesSnapshot, type Snapshot } from '../../../records/snapshot';
import type { ProductNode } from '../../../model/product-aggregate';
import { pricesSnapshot } from '../../../model/price-records';
import type { ResolvedNode } from '../upsert-types';
import { mediaKey } from '../../../media/media-links.rules';
import { blocksEntry } from '../../feature-blocks/feature-block-history';
import { localizedPath, splitLocalizedPath } from '../../../kernel/languages';
import { translationPaths } from '../resolve/upsert-translations';

/**
 * History snapshots (docs/history.md) of the products an upsert writes, built from what the
 * upsert already holds (the loaded aggregates and the resolved records) instead of reading
 * every product again: the same paths `loadSnapshot` produces.
 */
export function snapshotOfNode(
  node: ProductNode,
  master: { categoryIds: string[]; variantIds: string[] } | null,
): Snapshot {
  const snapshot = pickFields(node.product as unknown as Record<string, unknown>, PRODUCT_FIELDS);
  for (const v of node.values) snapshot[`values.${v.code}`] = v.value;
  const c = node.classification;
  if (c) {
    snapshot['classification.name'] = c.name;
    snapshot['classification.groups'] = c.classificationGroups;
    for (const k of c.classes) classSnapshot(snapshot, k);
    for (const f of c.features) featureSnapshot(snapshot, f);
  }
  node.media.forEach((m, i) => {
    snapshot[`media.${m.mediaId}`] = mediaEntry({ ...m, sortOrder: m.sortOrder ?? i });
    for (const [language, text] of Object.entries(m.descriptions ?? {}))
      snapshot[localizedPath(`media.${m.mediaId}.description`, language)] = text;
  });
  const prices = pricesSnapshot(node.prices ?? []);
  if (prices !== undefined) snapshot.prices = prices;
  Object.assign(snapshot, referencesSnapshot(node.references));
  if (node.featureBlocks && node.featureBlocks.length > 0) snapshot.featureBlocks = blocksEntry(node.featureBlocks);
  translationPaths(snapshot, node.translations);
  if (master) {
    if (master.categoryIds.length > 0) snapshot.categories = [...master.categoryIds].sort();
    if (master.variantIds.length > 0) snapshot.variants = [...master.variantIds].sort();
  }
  return snapshot;
}

const dropPrefix = (snapshot: Snapshot, prefix: string) => {
  for (const key of Object.keys(snapshot)) if (key.startsWith(prefix)) delete snapshot[key];
};

/** The snapshot after an upsert: `before` (or nothing, for a new product) with what `next` sets. */
export function snapshotAfter(
  before: Snapshot | null,
  next: ResolvedNode,
  written: {
    sku: string;
    mediaIds: Map<string, string>;
    mediaSizes: Map<string, { size: number; contentType: string }>;
  },
): Snapshot {
  const after: Snapshot = { ...(before ?? { status: 'active' }), sku: written.sku };
  for (const [column, value] of Object.entries(next.fields)) {
    if (value === null) delete after[column];
    else after[column] = value;
  }
  if (next.values) {
    // Translations of the values that stay stay (`values.colour@eng`); those of values that go, go.
    const kept = new Set(next.values.map((v) => `values.${v.code}`));
    for (const key of Object.keys(after)) {
      const { field, language } = splitLocalizedPath(key);
      if (field.startsWith('values.') && (!language || !kept.has(field))) delete after[key];
    }
    for (const v of next.values) after[`values.${v.code}`] = v.value;
  }
  for (const [language, fields] of Object.entries(next.translations ?? {}))
    for (const [field, text] of Object.entries(fields)) {
      if (text === null) delete after[`${field}@${language}`];
      else after[`${field}@${language}`] = text;
    }
  if (next.classification !== undefined) {
    dropPrefix(after, 'classification.');
    const c = next.classification;
    if (c) {
      after['classification.name'] = c.classes.map((k) => `${k.system} ${k.code}`).join(', ');
      after['classification.groups'] = c.groups;
      for (const k of c.classes) classSnapshot(after, k);
      for (const f of c.features) featureSnapshot(after, f);
    }
  }
  if (next.media) {
    const previous = { ...after };
    dropPrefix(after, 'media.');
    next.media.forEach((m, sortOrder) => {
      const id = written.mediaIds.get(mediaKey(m))!;
      // A kept entry keeps its descriptions in other languages; those the write gives replace theirs.
      for (const [path, text] of Object.entries(previous))
        if (path.startsWith(`media.${id}.description@`)) after[path] = text;
      for (const [language, text] of Object.entries(m.descriptions ?? {}))
        after[localizedPath(`media.${id}.description`, language)] = text;
      const stored = written.mediaSizes.get(mediaKey(m)) ?? { size: 0, contentType: m.contentType };
      after[`media.${id}`] = mediaEntry({
        fileName: m.fileName,
        purpose: m.purpose,
        contentType: stored.contentType,
        size: stored.size,
        description: m.description,
        sortOrder,
        url: m.url,
        mimeCode: m.mimeCode,
        alt: m.alt,
        attachment: m.attachment,
      });
    });
  }
  if (next.prices) {
    const prices = pricesSnapshot(next.prices);
    if (prices !== undefined) after.prices = prices;
    else delete after.prices;
  }
  if (next.references) {
    delete after.references;
    Object.assign(after, referencesSnapshot(next.references));
  }
  if (next.featureBlocks) {
    if (next.featureBlocks.length > 0) after.featureBlocks = blocksEntry(next.featureBlocks);
    else delete after.featureBlocks;
  }
  if (next.categoryIds) {
    if (next.categoryIds.length > 0) after.categories = [...next.categoryIds].sort();
    else delete after.categories;
  }
  return after;
}
