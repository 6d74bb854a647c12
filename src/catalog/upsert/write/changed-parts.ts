import { sameAttachment } from '../../../kernel/media-attachment';
import type { ProductNode } from '../../../model/product-aggregate';
import type { ResolvedNode } from '../upsert-types';
import { sameBlocks } from '../../../model/feature-block-types';
import { storedReference } from '../../../model/reference-types';
import { translationsChanged } from '../resolve/upsert-translations';

const sameSet = (a: string[], b: string[]) =>
  a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000');

/** A class as compared: the ETIM class version and DYNAMIC date a file gives are part of it. */
const classKey = (c: {
  group: string;
  system: string;
  code: string;
  classVersion?: number;
  dynamicReleaseDate?: string;
}) => `${c.group}:${c.system}:${c.code}:${c.classVersion ?? ''}:${c.dynamicReleaseDate ?? ''}`;

/**
 * Whether a value kept as text (unverified) gets another unit than the one stored with it, kept
 * too: a file that gives the same text with another FUNIT changes the product (issue 32). A
 * verified value's unit follows from its reference data, as before.
 */
function keptUnitChanged(
  next: { group: string; code: string; unit: string | null; unverified?: boolean }[],
  current: { group: string; code: string; unit: string | null; unverified?: true }[],
): boolean {
  return next.some((f) => {
    const stored = current.find((c) => c.group === f.group && c.code === f.code);
    return f.unverified === true && stored?.unverified === true && stored.unit !== f.unit;
  });
}

/** Which parts of `existing` differ from what `next` asks for (parts `next` leaves out never differ). */
export function changedParts(next: ResolvedNode, existing: ProductNode, categoryIds: string[] | null) {
  const row = existing.product as Record<string, unknown>;
  const fields = Object.entries(next.fields).filter(([column, value]) => (row[column] ?? null) !== value);
  const values =
    next.values !== undefined &&
    !sameSet(
      next.values.map((v) => `${v.code}=${v.value}`),
      existing.values.map((v) => `${v.code}=${v.value}`),
    );
  const current = existing.classification;
  const classification =
    next.classification !== undefined &&
    (next.classification === null
      ? current !== null
      : current === null ||
        !sameSet(
          // The system too: a class moved to another release (same code) is a change.
          next.classification.classes.map(classKey),
          current.classes.map(classKey),
        ) ||
        !sameSet(
          next.classification.features.map((f) => `${f.group}:${f.code}=${f.value}`),
          current.features.map((f) => `${f.group}:${f.code}=${f.value}`),
        ) ||
        keptUnitChanged(next.classification.features, current.features));
  const mediaChanged =
    next.media !== undefined &&
    (next.media.length !== existing.media.length ||
      next.media.some((m, i) => {
        const e = existing.media[i]!;
        // An uploaded file keeps the type it was stored with; a reference takes the one given.
        return (
          e.fileName !== m.fileName ||
          (e.url ?? null) !== m.url ||
          (e.mimeCode ?? null) !== m.mimeCode ||
          (e.alt ?? null) !== m.alt ||
          !sameAttachment(e.attachment, m.attachment) ||
          e.purpose !== m.purpose ||
          (e.description ?? null) !== m.description ||
          Object.entries(m.descriptions ?? {}).some(([language, text]) => e.descriptions?.[language] !== text) ||
          (e.size === 0 && e.contentType !== m.contentType)
        );
      }));
  const pricesChanged =
    next.prices !== undefined && JSON.stringify(next.prices) !== JSON.stringify(existing.prices ?? []);
  const references =
    next.references !== undefined &&
    JSON.stringify(next.references) !== JSON.stringify(existing.references.map(storedReference));
  const udx = next.udx !== undefined && (existing.udx ?? null) !== next.udx;
  const featureBlocks =
    next.featureBlocks !== undefined && !sameBlocks(next.featureBlocks, existing.featureBlocks ?? []);
  const categories = next.categoryIds !== undefined && categoryIds !== null && !sameSet(next.categoryIds, categoryIds);
  const translations = translationsChanged(next, existing);
  return {
    fields,
    values,
    classification,
    media: mediaChanged,
    categories,
    prices: pricesChanged,
    references,
    udx,
    featureBlocks,
    translations,
    any:
      fields.length > 0 ||
      values ||
      classification ||
      mediaChanged ||
      categories ||
      pricesChanged ||
      references ||
      udx ||
      featureBlocks ||
      translations,
  };
}
