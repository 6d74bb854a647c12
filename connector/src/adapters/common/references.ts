import type { Product, ProductReference } from '../../../../src/sync/protocol/wire';
import type { RecordOutcome, TargetRecord, WriteContext } from '../target-adapter';

/**
 * References by manufacturer number (wire `targetKind: 'mpn'`, an ETIM xChange ProductRelation):
 * `sku` holds the referenced product's manufacturer number, not its SKU, so an adapter that
 * looked it up as a SKU would link nothing, or a product whose SKU happens to equal the number.
 * Before an adapter writes references they are turned into references by SKU: the number names
 * the master that carries it as `manufacturerPid` (on the master or one of its variants) among
 * the products of this write, else among the masters the connector wrote to the shop (the
 * mirror, `WriteContext.mastersByMpn`: the numbers of the master and its variants as last
 * written; a number that moves marks the products referring to it for the next run). A
 * number no product carries, or more than one product does, fails its record on
 * `product.references.<n>` in plain words instead of linking a wrong product; the next run
 * sends it again.
 */
export interface ResolvedReferences {
  /** The records with every reference by SKU (`previous` too, so what was written can be removed). */
  targets: TargetRecord[];
  /** Records with a reference no single product answers. */
  failed: RecordOutcome[];
}

export async function resolveMpnReferences(targets: TargetRecord[], ctx: WriteContext): Promise<ResolvedReferences> {
  const numbers = new Set(
    targets.flatMap((t) =>
      [productOf(t), t.previous].flatMap((p) => p?.references ?? []).flatMap((r) => (r.targetKind ? [r.sku] : [])),
    ),
  );
  if (numbers.size === 0) return { targets, failed: [] };
  const carriers = await carriersOf(targets, numbers, ctx);
  const failed: RecordOutcome[] = [];
  const resolved: TargetRecord[] = [];
  for (const target of targets) {
    const product = productOf(target);
    const references = product?.references ?? [];
    const unanswered = references.findIndex((r) => r.targetKind === 'mpn' && carriers.get(r.sku)?.length !== 1);
    const reference = references[unanswered];
    if (reference) {
      failed.push({
        index: target.index,
        ok: false,
        field: `product.references.${unanswered}`,
        error: reasonOf(reference.sku, carriers.get(reference.sku) ?? []),
        retryable: false,
      });
      continue;
    }
    resolved.push({
      ...target,
      ...(product ? { record: { ...target.record, product: bySku(product, carriers) } as TargetRecord['record'] } : {}),
      previous: target.previous && bySku(target.previous, carriers),
    });
  }
  return { targets: resolved, failed };
}

/**
 * Products as the mirror keeps them (with their references by manufacturer number) with
 * references by SKU, resolved as a write's are; one no single product answers is left out.
 */
export async function referencesBySku<T extends { sku: string; product: Product }>(
  rows: T[],
  ctx: WriteContext,
): Promise<T[]> {
  const numbers = new Set(
    rows.flatMap((row) => row.product.references?.flatMap((r) => (r.targetKind ? [r.sku] : [])) ?? []),
  );
  if (numbers.size === 0) return rows;
  const carriers = await carriersOf([], numbers, ctx);
  return rows.map((row) => ({ ...row, product: bySku(row.product, carriers) }));
}

/** A reference by manufacturer number and the SKU it resolves to (null: no single product carries it). */
export interface MpnResolution {
  type: string;
  number: string;
  sku: string | null;
}

/**
 * What `resolveMpnReferences` would make of each record's references by manufacturer number,
 * by record index (records without any are left out): a dry run shows it (`changes[].references`).
 */
export async function mpnResolutions(
  targets: TargetRecord[],
  ctx: Pick<WriteContext, 'mastersByMpn'>,
): Promise<Map<number, MpnResolution[]>> {
  const byNumber = (target: TargetRecord) =>
    (productOf(target)?.references ?? []).filter((r) => r.targetKind === 'mpn');
  const numbers = new Set(targets.flatMap((t) => byNumber(t).map((r) => r.sku)));
  const resolutions = new Map<number, MpnResolution[]>();
  if (numbers.size === 0) return resolutions;
  const carriers = await carriersOf(targets, numbers, ctx);
  for (const target of targets) {
    const references = byNumber(target);
    if (references.length === 0) continue;
    resolutions.set(
      target.index,
      references.map((r) => {
        const skus = carriers.get(r.sku) ?? [];
        return { type: r.type, number: r.sku, sku: skus.length === 1 ? (skus[0] as string) : null };
      }),
    );
  }
  return resolutions;
}

function productOf(target: TargetRecord): Product | null {
  return target.record.op === 'deactivate' ? null : target.record.product;
}

/**
 * Number -> the SKUs of the masters carrying it: the products of this write (master and variant
 * numbers), then the mirror for the numbers none of them carries, without the write's own SKUs
 * (their products here are newer than the mirror's).
 */
async function carriersOf(
  targets: TargetRecord[],
  numbers: Set<string>,
  ctx: Pick<WriteContext, 'mastersByMpn'>,
): Promise<Map<string, string[]>> {
  const carriers = new Map<string, string[]>();
  const carry = (number: string, sku: string) => {
    const skus = carriers.get(number) ?? [];
    if (!skus.includes(sku)) carriers.set(number, [...skus, sku]);
  };
  for (const target of targets) {
    const product = productOf(target);
    for (const number of product ? numbersCarried(product) : []) {
      if (numbers.has(number)) carry(number, target.record.sku);
    }
  }
  const missing = [...numbers].filter((n) => !carriers.has(n));
  if (missing.length === 0 || !ctx.mastersByMpn) return carriers;
  const written = new Set(targets.map((t) => t.record.sku));
  for (const [number, skus] of await ctx.mastersByMpn(missing)) {
    for (const sku of skus) if (!written.has(sku)) carry(number, sku);
  }
  return carriers;
}

/** The manufacturer numbers a master carries, its own and its variants', each once (what the mirror indexes). */
export function numbersCarried(product: Product): string[] {
  const numbers = [product, ...product.variants].flatMap((node) =>
    node.manufacturerPid ? [node.manufacturerPid] : [],
  );
  return [...new Set(numbers)];
}

/** The product with its references by manufacturer number as references by SKU; one no single product answers is left out. */
function bySku(product: Product, carriers: Map<string, string[]>): Product {
  if (!product.references?.some((r) => r.targetKind)) return product;
  const references = product.references.flatMap((r): ProductReference[] => {
    if (!r.targetKind) return [r];
    const skus = carriers.get(r.sku) ?? [];
    return skus.length === 1 ? [{ type: r.type, sku: skus[0] as string, quantity: r.quantity }] : [];
  });
  return { ...product, references };
}

function reasonOf(number: string, skus: string[]): string {
  return skus.length === 0
    ? `reference not in shop: no product sent to this shop carries the manufacturer number "${number}"`
    : `the manufacturer number "${number}" is carried by more than one product (${skus.join(', ')}); the reference names none of them`;
}
