import { compactAttachment, type MediaAttachment } from '../../../kernel/media-attachment';
import type { ProductNode } from '../../../model/product-aggregate';
import type { ResolvedNode } from '../upsert-types';

/** The columns the BMEcat exports fill from the master when a variant leaves them empty (exports/bmecat/product-view.ts). */
const INHERITED_COLUMNS = [
  'name',
  'description',
  'keywords',
  'manufacturerName',
  'unit',
  'priceQuantity',
  'contentUnit',
  'contentPerUnit',
  'quantityMin',
  'quantityInterval',
  'deliveryTimeDays',
] as const;

/** Translated fields the exports take from the master's text in the same language (texts and attribute values). */
const inheritedText = (field: string) =>
  field === 'name' || field === 'description' || field === 'keywords' || field.startsWith('values.');

/** What a master offers a variant: its record in the same call, else the stored master. */
interface MasterData {
  field: (name: string) => string | number | null | undefined;
  text: (language: string, field: string) => string | null | undefined;
  values: Map<string, string>;
  classification: string;
  media: string;
}

const same = (a: unknown, b: unknown) => a !== null && b !== null && a !== undefined && String(a) === String(b);

type Classes = { group: string; system: string; code: string }[];
type Features = { group: string; code: string; value: string; unit: string | null }[];

/** A classification as comparable text: classes and features sorted, flags and ids left out. */
function classificationKey(c: { classes: Classes; features: Features } | null | undefined): string {
  if (!c) return 'none';
  const classes = c.classes.map(({ group, system, code }) => `${group}|${system}|${code}`).sort();
  const features = c.features.map(({ group, code, value, unit }) => `${group}|${code}|${value}|${unit}`).sort();
  return JSON.stringify([classes, features]);
}

type MediaLike = Pick<ProductNode['media'][number], 'fileName' | 'contentType' | 'purpose' | 'description'> & {
  url?: string | null;
  mimeCode?: string | null;
  alt?: string | null;
  attachment?: MediaAttachment | null;
  descriptions?: Record<string, string>;
};

/** A media list as comparable text, in its order: what the export writes of each entry. */
function mediaKey(list: readonly MediaLike[] | undefined): string {
  return JSON.stringify(
    (list ?? []).map((m) => [
      m.fileName,
      m.contentType,
      m.purpose,
      m.description ?? null,
      m.url ?? null,
      m.mimeCode ?? null,
      m.alt ?? null,
      compactAttachment(m.attachment),
      Object.entries(m.descriptions ?? {}).sort(),
    ]),
  );
}

function fromResolved(m: ResolvedNode): MasterData {
  return {
    field: (name) => (name in m.fields ? m.fields[name] : undefined),
    text: (language, field) => m.translations?.[language]?.[field],
    values: new Map((m.values ?? []).map((v) => [v.code, v.value])),
    classification: classificationKey(m.classification),
    media: mediaKey(m.media),
  };
}

function fromStored(m: ProductNode): MasterData {
  return {
    field: (name) => (m.product as Record<string, string | number | null>)[name],
    text: (language, field) => m.translations?.[language]?.[field],
    values: new Map(m.values.map((v) => [v.code, v.value])),
    classification: classificationKey(m.classification),
    media: mediaKey(m.media),
  };
}

/**
 * Gives back to the master what a file of our own BMEcat export wrote for a variant from its
 * master. The exports fill a variant's empty name, description, keywords (in every language),
 * manufacturer name, unit, price quantity, delivery time, attribute values, classification
 * (with its feature texts) and media from its master, because a buyer reads each PRODUCT on
 * its own (exports/bmecat/product-view.ts). Read back, a variant value equal to its master's
 * (the master's record earlier in the same call, else the stored master) is that inheritance
 * and is stored empty, so export and import round-trip a variant as inheriting. A value a
 * variant had of its own that equals its master's comes back inheriting too: the export writes
 * the same file for both, and in a PIM an explicit copy of the master's value is the rare case.
 * Only import jobs of our own files ask for this (`UpsertContext.inheritMasterValues`); supplier
 * files keep every value as written. Prices: inherited-prices.ts.
 */
export function inheritMasterValues(
  resolved: readonly (ResolvedNode | null)[],
  storedMaster: (sku: string) => ProductNode | undefined,
): void {
  forEachVariantWithMaster(resolved, storedMaster, (node, fromFile, stored) => {
    const file = fromFile ? fromResolved(fromFile) : null;
    const kept = stored ? fromStored(stored) : null;
    // A master field the file leaves out keeps its stored value (collections given replace).
    const master: MasterData = {
      field: (name) => {
        const value = file?.field(name);
        return value !== undefined ? value : kept?.field(name);
      },
      text: (language, field) => {
        const value = file?.text(language, field);
        return value !== undefined ? value : kept?.text(language, field);
      },
      values: fromFile?.values ? file!.values : (kept?.values ?? new Map()),
      classification: fromFile?.classification !== undefined ? file!.classification : (kept?.classification ?? 'none'),
      media: fromFile?.media ? file!.media : (kept?.media ?? '[]'),
    };
    dropInherited(node, master);
  });
}

/**
 * Each variant of `resolved` with its master: as the same call gives it (a master's record
 * earlier in the call) and as stored; a variant whose master is neither is skipped. The walk
 * of both inheritance rules of our own files (values here, prices in inherited-prices.ts).
 */
export function forEachVariantWithMaster(
  resolved: readonly (ResolvedNode | null)[],
  storedMaster: (sku: string) => ProductNode | undefined,
  visit: (variant: ResolvedNode, fromFile: ResolvedNode | undefined, stored: ProductNode | undefined) => void,
): void {
  const inCall = new Map<string, ResolvedNode>();
  for (const node of resolved) {
    if (!node) continue;
    if (!node.parentSku) {
      inCall.set(node.sku, node);
      continue;
    }
    const fromFile = inCall.get(node.parentSku);
    const stored = storedMaster(node.parentSku);
    if (fromFile || stored) visit(node, fromFile, stored);
  }
}

function dropInherited(node: ResolvedNode, master: MasterData): void {
  for (const column of INHERITED_COLUMNS)
    if (column in node.fields && same(node.fields[column], master.field(column))) node.fields[column] = null;
  if (node.values) node.values = node.values.filter((v) => !same(v.value, master.values.get(v.code)));
  const classificationInherited =
    node.classification !== undefined &&
    node.classification !== null &&
    classificationKey(node.classification) === master.classification;
  if (classificationInherited) node.classification = null;
  if (node.media && node.media.length > 0 && mediaKey(node.media) === master.media) node.media = [];
  for (const [language, fields] of Object.entries(node.translations ?? {}))
    for (const [field, text] of Object.entries(fields)) {
      // A feature's free text is written from the master's only with the master's classification.
      const inherits = inheritedText(field) || (classificationInherited && field.startsWith('details.'));
      if (inherits && same(text, master.text(language, field))) fields[field] = null;
    }
}
