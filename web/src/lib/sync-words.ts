import type { SyncReport } from '../api/models';
import type { MessageKey } from '../i18n/de';
import type { T } from '../i18n/i18n';

/**
 * The sync's sentences in the user's language (docs/web.md "Shops"): the test's warnings
 * (src/sync/shop-warnings.ts), why a record was quarantined (the PIM's own reasons in
 * src/sync/wire-record.ts and sync-deliver.ts, the connector's checks, a shop's
 * `<field>: <error>`), and a dry run's changes as one row per product. The API words these in
 * English; a sentence the screen knows is said in German or English with its names kept, and
 * one it does not know is shown as the API said it.
 */

/** The wire fields of a product (src/sync/protocol/wire.ts) that have a label of their own. */
const FIELDS = new Set([
  'name',
  'description',
  'gtin',
  'manufacturerId',
  'manufacturerPid',
  'unitId',
  'taxId',
  'price',
  'priceQuantity',
  'contentUnit',
  'contentPerUnit',
  'quantityMin',
  'quantityInterval',
  'keywords',
  'deliveryTimeDays',
  'status',
  'values',
  'classification',
  'media',
  'prices',
  'links',
  'featureBlocks',
  'translations',
  'categories',
  'references',
  'variants',
  'sku',
]);

/** A wire field's label: `name` → "Name"; a path keeps the rest (`prices.0.amount` → "Prices 0.amount"). */
export function fieldLabel(path: string, t: T): string {
  const [head, ...rest] = path.replace(/^product\./, '').split('.');
  if (!head || !FIELDS.has(head)) return path;
  const label = t(`sync.field.${head}` as MessageKey);
  return rest.length ? `${label} ${rest.join('.')}` : label;
}

type Rule = [RegExp, (m: RegExpExecArray, t: T) => string];

const WARNINGS: Rule[] = [
  [
    /^the mapping's default language is "([^"]+)" but the catalog's is "([^"]+)"/,
    (m, t) => t('sync.warn.defaultLanguage', { mapping: m[1]!, catalog: m[2]! }),
  ],
  [
    /^the catalog publishes "([^"]+)" but the mapping has no locale for it/,
    (m, t) => t('sync.warn.noLocale', { language: m[1]! }),
  ],
  [
    /^"([^"]+)" is mapped to "([^"]+)", which the shop does not offer \(it has (.*)\)/,
    (m, t) => t('sync.warn.localeMissing', { language: m[1]!, locale: m[2]!, offered: m[3]! }),
  ],
  [
    /^prices are sent in (\w+), which the shop does not list \(it has (.*)\)/,
    (m, t) => t('sync.warn.currency', { currency: m[1]!, offered: m[2]! }),
  ],
];

const MAPPING_WHAT: Record<string, MessageKey> = {
  unit: 'sync.what.unit',
  manufacturer: 'sync.what.manufacturer',
  'tax code': 'sync.what.tax',
};

const REASONS: Rule[] = [
  [
    /^(unit|manufacturer|tax code) "(.*)" has no mapping in the shop$/,
    (m, t) => t('sync.why.noMapping', { what: t(MAPPING_WHAT[m[1]!]!), value: m[2]! }),
  ],
  [/^media file "(.*)" is missing in storage$/, (m, t) => t('sync.why.mediaMissing', { file: m[1]! })],
  [/^a variant \("(.*)"\) has no SKU$/, (m, t) => t('sync.why.variantSku', { variant: m[1]! })],
  [/^the record is larger than the connector accepts/, (_m, t) => t('sync.why.tooLarge')],
  [/^[\w.]+: the product is too large for the store$/, (_m, t) => t('sync.why.tooLarge')],
  [/^[\w.]+: the SKU belongs to a product the shop owns$/, (_m, t) => t('sync.why.shopOwns')],
  [/^[\w.]+: cannot (update|deactivate) an unknown SKU$/, (_m, t) => t('sync.why.unknownSku')],
  [/^[\w.]+: the product is deactivated/, (_m, t) => t('sync.why.deactivated')],
  [/^([\w.]+): duplicate SKU "(.*)" within the product$/, (m, t) => t('sync.why.duplicateVariant', { sku: m[2]! })],
  [/^[\w.]+: duplicate SKU in the batch$/, (_m, t) => t('sync.why.duplicateSku')],
  [
    /^([\w.]*?)(unitId|manufacturerId|taxId): unknown \w+ id "(.*)"$/,
    (m, t) => t('sync.why.unknownId', { field: fieldLabel(m[2]!, t), value: m[3]! }),
  ],
];

function firstMatch(rules: Rule[], text: string, t: T): string | null {
  for (const [pattern, say] of rules) {
    const m = pattern.exec(text);
    if (m) return say(m, t);
  }
  return null;
}

/** One warning of TestConnection in the user's language; an unknown one as the API said it. */
export function warningText(warning: string, t: T): string {
  return firstMatch(WARNINGS, warning, t) ?? warning;
}

/**
 * Why one record was not sent or was refused, in the user's language (several reasons of one
 * record are joined by "; "). Names, values and a shop's own error text are kept as they are.
 */
export function reasonText(reason: string, t: T): string {
  return reason
    .split('; ')
    .map((part) => {
      const known = firstMatch(REASONS, part, t);
      if (known) return known;
      // A shop's refusal: `<field>: <its error>`; the field gets its label, the shop's words stay.
      const shop = /^([\w.]+): (.+)$/s.exec(part);
      return shop ? t('sync.why.shopRefused', { field: fieldLabel(shop[1]!, t), error: shop[2]! }) : part;
    })
    .join(' ');
}

/** Why TestConnection failed: the shop's or the connector's reason with a sentence before it. */
export function testFailureText(status: number, error: string | undefined, t: T): string {
  const reason = error ?? '';
  const refused = /^the shop refused: (.*)$/s.exec(reason);
  if (refused) return t('sync.testShopRefused', { reason: refused[1]! });
  const unavailable = /^the shop is unavailable: (.*)$/s.exec(reason);
  if (unavailable) return t('sync.testShopUnavailable', { reason: unavailable[1]! });
  const unreached = /^the connector could not be reached: (.*)$/s.exec(reason);
  if (status === 0 || unreached) return t('sync.testUnreached', { reason: unreached?.[1] ?? reason });
  if (status === 401) return t('sync.testSignature');
  return t('sync.testFailed', { status, error: reason });
}

/** The one line a connection test ends with: what the connector found, or why it failed. */
export function testMessage(
  r: {
    ok: boolean;
    status: number;
    error?: string;
    mappings: { manufacturers: number; units: number; taxes: number } | null;
  },
  t: T,
): string {
  if (!r.ok) return testFailureText(r.status, r.error, t);
  return t('sync.testOk', {
    manufacturers: r.mappings?.manufacturers ?? 0,
    units: r.mappings?.units ?? 0,
    taxes: r.mappings?.taxes ?? 0,
  });
}

export type ChangeOp = 'create' | 'update' | 'deactivate';

/** One product of a dry run's diff: its own changed fields and, apart, each variant's. */
export interface ChangeRow {
  sku: string;
  op: ChangeOp;
  /** The product's own fields (`name`, `prices`, ...). */
  fields: string[];
  /** Per variant SKU: `added or removed` (no field list) or the variant's changed fields. */
  variants: { sku: string; fields: string[] }[];
  /** Fields not listed (the report lists at most 20 per product). */
  more: number;
  /** References by manufacturer number and the SKU each resolves to in the shop (null: no single product). */
  references: { type: string; number: string; sku: string | null }[];
}

/** How a reference by manufacturer number resolves in the shop, in words (a dry run's changes). */
export function referenceText(reference: ChangeRow['references'][number], t: T): string {
  return reference.sku === null
    ? t('sync.referenceUnresolved', { type: reference.type, number: reference.number })
    : t('sync.referenceResolved', { type: reference.type, number: reference.number, sku: reference.sku });
}

/**
 * The dry run's `changes` as rows for the screen. A variant's field (`variants.<sku>.<field>`,
 * the field a top-level name of the wire's product) is grouped under its SKU; `variants.<sku>`
 * without a field means the variant is added or removed (SKUs may hold dots, so the field is
 * recognised by its name, not by the first dot).
 */
export function changeRows(report: Pick<SyncReport, 'changes'>): ChangeRow[] {
  return (report.changes ?? []).map((change) => {
    const variants = new Map<string, string[]>();
    const fields: string[] = [];
    for (const field of change.fields) {
      if (!field.startsWith('variants.')) {
        fields.push(field);
        continue;
      }
      const rest = field.slice('variants.'.length);
      const cut = rest.lastIndexOf('.');
      const isField = cut > 0 && FIELDS.has(rest.slice(cut + 1));
      const sku = isField ? rest.slice(0, cut) : rest;
      const list = variants.get(sku) ?? [];
      if (isField) list.push(rest.slice(cut + 1));
      variants.set(sku, list);
    }
    return {
      sku: change.sku,
      op: change.op,
      fields,
      variants: [...variants].map(([sku, list]) => ({ sku, fields: list })),
      more: change.moreFields ?? 0,
      references: change.references ?? [],
    };
  });
}

/**
 * Where a run stands against the shop (GetJob's `progress.batchNo`, `records` and
 * `recordsTotal`, docs/sync.md "Progress"): masters handled say little while a slow shop takes
 * its batches. "N of M records" once the run knows its total, else the records so far and that
 * the total comes when the catalog has been compared with the shop. Null while the run has sent
 * nothing yet (no batch position); numbers come formatted in the user's locale.
 */
export function shopProgressText(
  progress: { batchNo?: number; records?: number; recordsTotal?: number },
  t: T,
  format: (n: number) => string = String,
): string | null {
  if (progress.batchNo === undefined || progress.records === undefined) return null;
  const batches = format(progress.batchNo);
  const records = format(progress.records);
  return progress.recordsTotal === undefined
    ? t('sync.shopProgressOpen', { batches, records })
    : t('sync.shopProgressOf', { batches, records, total: format(progress.recordsTotal) });
}

/**
 * What a run of a member limited to category subtrees did (the report's `subtree`, docs/teams.md
 * "Syncs"): the categories it covered, each by its path of names as the access summary names
 * them (`names`, team.ts `categoryScopeNames`; one not loaded or deleted since shows as its
 * id), and the shop's products outside them it kept, nothing taken out of the shop.
 */
export function subtreeRunText(
  subtree: { categoryIds: readonly string[]; keptInShop: number },
  names: ReadonlyMap<string, string>,
  t: T,
  format: (n: number) => string = String,
): string {
  const categories = subtree.categoryIds.map((id) => names.get(id) ?? id).join(', ');
  return t('sync.subtreeRun', { categories, count: format(subtree.keptInShop) });
}

/**
 * What a running sync's bar counts: the records the shop has done of the run's total once it is
 * known (progress against the shop), else the masters the PIM has handled of the catalog's.
 */
export function runBarOf(progress: { done: number; total: number; records?: number; recordsTotal?: number }): {
  done: number;
  total: number;
  counts: 'records' | 'masters';
} {
  if (progress.recordsTotal !== undefined && progress.records !== undefined)
    return { done: progress.records, total: progress.recordsTotal, counts: 'records' };
  return { done: progress.done, total: progress.total, counts: 'masters' };
}
